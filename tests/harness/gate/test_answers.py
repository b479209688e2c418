"""The claim rules on knowledge answers, system answers and plan steps (harness/answer_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from config.wording import DEFAULT_CAPABILITIES
from harness.gate import ClaimPolicy
from harness.gate.answers import GENERIC_PLAN, check_knowledge_answer, plan_steps, system_answer_problem
from harness.intents import KnowledgeAnswer

POLICY = ClaimPolicy.default()
EVIDENCE = [
    {
        "document_id": "error-codes#err_timeout",
        "source": "error-codes.md",
        "title": "支付域错误码参考",
        "breadcrumb": "支付域错误码参考 > ERR_TIMEOUT",
        "excerpt": "ERR_TIMEOUT：调用下游超过 3000ms 未返回。不等于支付失败，渠道可能已经扣款。",
    },
    {
        "document_id": "change-policy#forbidden",
        "source": "change-policy.md",
        "title": "线上变更与人工确认规范",
        "breadcrumb": "线上变更与人工确认规范 > 禁止的动作",
        "excerpt": "禁止直接修改 biz_order 或 payment_record 中的数据。",
    },
]


def answer(text: str, references: list[str] | None = None, limitations: list[str] | None = None) -> KnowledgeAnswer:
    return KnowledgeAnswer(
        answer=text, references=references or ["error-codes#err_timeout"], limitations=limitations or []
    )


def test_a_faithful_knowledge_answer_is_released_with_expanded_references() -> None:
    release = check_knowledge_answer(
        answer("根据《支付域错误码参考》，ERR_TIMEOUT 表示下游超过 3000ms 未返回，不等于支付失败。"),
        EVIDENCE,
        "ERR_TIMEOUT 是什么",
        POLICY,
    )
    assert release.refused is None and release.payload is not None
    assert release.payload["references"][0]["excerpt"] == EVIDENCE[0]["excerpt"]


@pytest.mark.parametrize(
    ("text", "limitations", "reason"),
    [
        ("ERR_TIMEOUT 时请运行 FLUSHALL 并修改 biz_order 的状态。", [], "KNOWLEDGE_UNGROUNDED"),
        ("ERR_TIMEOUT 表示下游超过 5000ms 未返回。", [], "KNOWLEDGE_UNGROUNDED"),
        ("ERR_TIMEOUT 表示下游超时。", ["测试账号 password=Welcome2024!"], "KNOWLEDGE_SECRET"),
        ("ERR_TIMEOUT 表示下游超时，验证码 482913 可用于登录。", [], "KNOWLEDGE_SECRET"),
    ],
)
def test_an_unfaithful_knowledge_answer_is_refused(text: str, limitations: list[str], reason: str) -> None:
    release = check_knowledge_answer(answer(text, limitations=limitations), EVIDENCE, "ERR_TIMEOUT 是什么", POLICY)
    assert release.payload is None and release.refused == reason


def test_tokens_count_only_against_the_documents_it_references() -> None:
    text = "禁止直接修改 biz_order 中的数据。"
    assert check_knowledge_answer(answer(text), EVIDENCE, "能改订单表吗", POLICY).refused == "KNOWLEDGE_UNGROUNDED"
    cited = answer(text, ["change-policy#forbidden"])
    assert check_knowledge_answer(cited, EVIDENCE, "能改订单表吗", POLICY).refused is None


def test_a_knowledge_answer_with_only_invented_references_is_refused() -> None:
    release = check_knowledge_answer(answer("ERR_TIMEOUT 表示超时。", ["made-up#doc"]), EVIDENCE, "q", POLICY)
    assert release.refused == "KNOWLEDGE_REFERENCES_INVALID" and release.invented_references == ("made-up#doc",)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("你好！我是 SuperBiz 运维助手。" + DEFAULT_CAPABILITIES, None),
        ("已确认根因是主库宕机，请立即切换主从。", "FINDING"),
        ("根因是 db-master-01 主库宕机。", "UNGROUNDED"),
        ("请立即切换主从。", "SIDE_EFFECT"),
        ("订单 order-777 已经支付成功。", "UNGROUNDED"),
        ("可以用 password=Welcome2024! 登录后台。", "SECRET"),
        ("   ", "EMPTY"),
        ("我可以帮你排查支付超时，但不会修改任何线上数据或配置。", None),
        ("你好！我是 SuperBiz 运维助手，可以帮你：\n1. 排查线上故障（如支付超时）；\n2. 解答知识库问题。", None),
        ("Hi! I can help:\n- investigate incidents from logs and metrics", None),
        ("可以帮你：扩容连接池。", "SIDE_EFFECT"),
        ("I can help: kill the stuck sessions.", "SIDE_EFFECT"),
    ],
)
def test_system_answers(text: str, problem: str | None) -> None:
    assert system_answer_problem(text, DEFAULT_CAPABILITIES, "你能做什么", POLICY) == problem


def test_a_system_answer_may_repeat_the_query() -> None:
    assert (
        system_answer_problem(
            "你问的是 order-123 吗？我可以排查支付超时。", DEFAULT_CAPABILITIES, "order-123 呢", POLICY
        )
        is None
    )


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        (["查阅支付超时排障手册", "查询 order-service 最近 30 分钟日志", "核对订单 order-123 的支付记录"], None),
        (["查阅手册", "根因是连接池耗尽，已确认", "查询日志", "核对订单"], ["查阅手册", "查询日志", "核对订单"]),
        (["查阅手册", "SELECT * FROM biz_order", "用 password=Welcome2024! 登录查询", "核对订单"], GENERIC_PLAN),
        (["root cause is the pool", "confirmed: db down", "check logs"], GENERIC_PLAN),
        ([], GENERIC_PLAN),
    ],
)
def test_plan_steps_are_instructions(steps: list[Any], expected: Any) -> None:
    assert plan_steps(steps, POLICY) == list(expected if expected is not None else steps)


@pytest.mark.parametrize(
    "text",
    [
        "我可以帮你排查支付超时。可以这样问：“订单 order-5521 回调失败，帮我看看”或「ERR_GATEWAY_DOWN 代表什么？」",
        "I can look into payment timeouts. Try asking something like 'why is order-7730 stuck in PENDING?'",
        "我能做的：\n- 排查订单问题，比如 `order-88 支付超时怎么回事`\n- 解释错误码，如“ERR_CHANNEL_CLOSED 是什么意思”",
        "告诉我订单号（例如 order-xxx 或 <order_id>），我就能查日志与只读业务数据。",
        'You could ask: "check payment-service errors in the last hour"',
    ],
)
def test_an_example_question_is_no_claim(text: str) -> None:
    assert system_answer_problem(text, DEFAULT_CAPABILITIES, "你好，你能帮我做什么？", POLICY) is None


@pytest.mark.parametrize(
    "text",
    [
        "我刚查到 order-5521 回调失败了。",
        "日志显示「order-5521 callback failed」。",
        "例如 order-5521 已经超时，我会去查日志。",  # no label and no quotes: a statement
    ],
)
def test_a_stated_token_in_a_system_answer_is_still_a_claim(text: str) -> None:
    assert system_answer_problem(text, DEFAULT_CAPABILITIES, "你好", POLICY) == "UNGROUNDED"


def test_a_knowledge_answer_may_suggest_a_follow_up_question_but_not_quote_an_invented_fact() -> None:
    suggested = answer("ERR_TIMEOUT 表示调用下游超过 3000ms 未返回。你还可以问「ERR_NOT_FOUND 是什么意思？」")
    assert check_knowledge_answer(suggested, EVIDENCE, "ERR_TIMEOUT 是什么意思", POLICY).refused is None
    invented = answer("ERR_TIMEOUT 表示调用下游超过 3000ms 未返回，比如“ERR_TIMEOUT_RETRY 会自动重试”。")
    refused = check_knowledge_answer(invented, EVIDENCE, "ERR_TIMEOUT 是什么意思", POLICY).refused
    assert refused == "KNOWLEDGE_UNGROUNDED"


def test_a_knowledge_answer_joins_a_table_and_its_column_from_one_excerpt() -> None:
    joined = answer("不允许直接改 biz_order.payment_status 这类字段。", references=["change-policy#forbidden"])
    excerpt = {**EVIDENCE[1], "excerpt": "禁止直接修改 biz_order 的 payment_status 或 payment_record 中的数据。"}
    assert check_knowledge_answer(joined, [EVIDENCE[0], excerpt], "能改订单状态吗", POLICY).refused is None


@pytest.mark.parametrize(
    "text",
    [
        "Hi! It's the connection pool. I can help you troubleshoot production incidents.",
        "你好！是连接池的问题。我可以帮你排查线上故障。",
        "Isn't the database the obvious culprit here?",
        "Hello — it's Redis. I can investigate production incidents.",
        "我可以帮你排查线上故障。不过多半是 Redis 的问题。",
        "Could it be anything other than the cache?",
        "难道不是数据库的锅吗？",
        "**根因**：连接池耗尽",
    ],
)
def test_a_finding_in_any_sentence_of_a_system_answer_is_refused(text: str) -> None:
    assert system_answer_problem(text, DEFAULT_CAPABILITIES, "你好", POLICY) == "FINDING"


@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("For example, you can ask: why did order-123 time out?", "hi"),
        ("For instance, you could ask: what does ERR_TIMEOUT mean?", "hi"),
        ("比如你可以问：order-123 为什么超时？", "你好"),
        ("例如：为什么 order-123 支付超时？", "你好"),
        ("You could ask, say, why checkout latency spiked.", "hi"),
        ("You can ask me, for example, why order-123 timed out.", "hi"),
        ("你可以问我 order-123 为什么支付超时。", "你好"),
        ("你提到了 order-123。", "你好，order-123 呢"),
        ("You mentioned order-123.", "hi, order-123?"),
        ("你说的 order-123 我可以帮你查。", "你好，order-123 呢"),
        ("关于你提到的 order-123，我可以帮你排查它的线上故障。", "你好，order-123 呢"),
        ("关于连接池，我可以帮你排查。", "你好"),
        ("对于 order-123，我可以帮你看看日志。", "你好，order-123 呢"),
        ("至于 order-123，我可以帮你查日志。", "你好，order-123 呢"),
        ("关键是先告诉我订单号，我可以帮你排查。", "你好"),
        ("我可以帮你查连接池", "你好"),
        ("I can look into the connection pool for you.", "hi"),
        ("你好！", "你好"),
        ("Hello! How can I help?", "hi"),
        ("Examples: why did payment fail for order-9? what is ERR_GATEWAY_DOWN?", "hi"),
    ],
)
def test_examples_offers_and_the_users_words_are_released(text: str, query: str) -> None:
    assert system_answer_problem(text, DEFAULT_CAPABILITIES, query, POLICY) is None


def test_a_topic_does_not_hide_a_side_effect() -> None:
    offer = "关于连接池，我可以帮你重启服务。"
    assert system_answer_problem(offer, DEFAULT_CAPABILITIES, "你好", POLICY) == "SIDE_EFFECT"


@pytest.mark.parametrize("step", ["It's the connection pool", "是连接池的问题", "Probably the DNS"])
def test_a_verdict_is_dropped_from_the_plan(step: str) -> None:
    steps = ["查阅支付超时排障手册", step, "查询 order-service 最近 30 分钟日志", "核对订单 order-123 的支付记录"]
    assert plan_steps(steps, POLICY) == [steps[0], steps[2], steps[3]]
