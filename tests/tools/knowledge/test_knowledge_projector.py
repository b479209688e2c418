"""RagResultProjector: the §7.2 envelope, budgets, dedup, exact excerpts, and safe failures."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, failure_raw
from contract.vocabulary import EvidenceStatus
from tests.tools.knowledge.conftest import rag_budget
from tools.knowledge.projector import ENVELOPE_KEYS, EVIDENCE_KEYS, RagResultProjector, excerpt_of
from tools.knowledge.spec import KNOWLEDGE_UNAVAILABLE

ERROR_KEYS = {"evidence_status", "tool_call_id", "query", "error"}


def hit(document_id: Any, text: Any, **extra: Any) -> dict[str, Any]:
    return {
        "document_id": document_id,
        "source": f"{document_id.split('#')[0]}.md",
        "title": "支付超时排查手册",
        "breadcrumb": "支付超时排查手册 > 排查步骤",
        "text": text,
        "score": 1.0,
        "matched_terms": [],
        **extra,
    }


def raw(*hits: dict[str, Any], query: str = "支付超时") -> dict[str, Any]:
    return {"query": query, "hits": list(hits), "retrieval": {"terms": ["支付"], "index": {"folder": "/srv/kb"}}}


def project(raw_response: Any, **budget: int) -> dict[str, Any]:
    projector = RagResultProjector(rag_budget(**budget))
    return projector.project("call-1", {"query": "支付超时"}, raw_response).agent_result


def test_hits_become_evidence_in_rank_order_without_internal_fields() -> None:
    result = project(raw(hit("a#x", "第一段。", secret="s3cr3t"), hit("b#y", "第二段。")))
    assert result == {
        "evidence_status": "EVIDENCE_FOUND",
        "tool_call_id": "call-1",
        "query": "支付超时",
        "evidence": [
            {
                "document_id": "a#x",
                "source": "a.md",
                "title": "支付超时排查手册",
                "breadcrumb": "支付超时排查手册 > 排查步骤",
                "excerpt": "第一段。",
            },
            {
                "document_id": "b#y",
                "source": "b.md",
                "title": "支付超时排查手册",
                "breadcrumb": "支付超时排查手册 > 排查步骤",
                "excerpt": "第二段。",
            },
        ],
        "returned_count": 2,
        "truncated": False,
    }


def test_no_hits_is_no_evidence_with_the_query() -> None:
    projection = RagResultProjector(rag_budget()).project("call-1", {"query": "天气"}, raw(query="天气"))
    assert projection.evidence_status is EvidenceStatus.NO_EVIDENCE
    assert projection.agent_result == {
        "evidence_status": "NO_EVIDENCE",
        "tool_call_id": "call-1",
        "query": "天气",
        "evidence": [],
        "returned_count": 0,
        "truncated": False,
    }


def test_max_evidence_drops_the_rest() -> None:
    result = project(raw(hit("a#1", "一"), hit("a#2", "二"), hit("a#3", "三")), **{"max-evidence": 2})
    assert [item["document_id"] for item in result["evidence"]] == ["a#1", "a#2"]
    assert result["returned_count"] == 2 and result["truncated"] is True


def test_exactly_max_evidence_is_not_truncated() -> None:
    result = project(raw(hit("a#1", "一"), hit("a#2", "二")), **{"max-evidence": 2})
    assert result["returned_count"] == 2 and result["truncated"] is False


def test_max_excerpt_chars_cuts_each_excerpt() -> None:
    text = "当支付请求出现 ERR_TIMEOUT 时，应先检查 order-service 日志。" * 5
    result = project(raw(hit("a#1", text)), **{"max-excerpt-chars": 40})
    excerpt = result["evidence"][0]["excerpt"]
    assert len(excerpt) == 40 and excerpt.endswith("…")
    assert text.startswith(excerpt.removesuffix("…"))
    assert result["truncated"] is True


def test_max_total_chars_cuts_then_drops() -> None:
    hits = [hit(f"a#{n}", str(n) * 90) for n in range(3)]
    cut = project(raw(*hits), **{"max-excerpt-chars": 100, "max-total-chars": 170})
    assert [len(item["excerpt"]) for item in cut["evidence"]] == [90, 80]
    assert cut["evidence"][1]["excerpt"] == "1" * 79 + "…"
    assert cut["truncated"] is True
    dropped = project(raw(*hits), **{"max-excerpt-chars": 100, "max-total-chars": 200})
    assert [len(item["excerpt"]) for item in dropped["evidence"]] == [90, 90]  # 20 left < 80: dropped
    assert dropped["truncated"] is True
    fits = project(raw(*hits), **{"max-excerpt-chars": 100, "max-total-chars": 270})
    assert fits["returned_count"] == 3 and fits["truncated"] is False


@pytest.mark.parametrize("budget", [{}, {"max-evidence": 1}, {"max-excerpt-chars": 7}, {"max-total-chars": 150}])
def test_the_budget_holds_for_any_hits(budget: dict[str, int]) -> None:
    limits = rag_budget(**budget)
    hits = [hit(f"d{n}#s", "支付超时排查。" * (n * 13 % 90 + 1)) for n in range(12)]
    result = project(raw(*hits), **budget)
    assert result["returned_count"] == len(result["evidence"]) <= limits.max_evidence
    assert all(len(item["excerpt"]) <= limits.max_excerpt_chars for item in result["evidence"])
    assert sum(len(item["excerpt"]) for item in result["evidence"]) <= limits.max_total_chars
    assert result["truncated"] is True


def test_the_same_section_is_cited_once() -> None:
    result = project(raw(hit("a#1", "一段。"), hit("a#1", "一段。"), hit("b#2", "一段。"), hit("c#3", "另一段。")))
    assert [item["document_id"] for item in result["evidence"]] == ["a#1", "c#3"]
    assert result["truncated"] is False  # duplicates are not evidence that was cut


def test_a_deep_match_gets_a_window_of_exact_text() -> None:
    text = "背景介绍。" * 100 + "\n排查时先确认 ERR_POOL_EXHAUSTED 是否出现，再看连接池指标。" + "后续说明。" * 50
    excerpt, cut = excerpt_of(text, ["err_pool_exhausted", "连接"], 120)
    assert cut is True and len(excerpt) <= 120
    assert excerpt.startswith("排查时先确认 ERR_POOL_EXHAUSTED")
    assert excerpt.removesuffix("…") in text


def test_a_window_without_a_line_break_starts_a_quarter_budget_before_the_term() -> None:
    text = "甲" * 500 + "HikariCP" + "乙" * 500
    excerpt, _ = excerpt_of(text, ["hikaricp"], 100)
    assert excerpt.removesuffix("…") in text
    assert excerpt.index("HikariCP") == 25


def test_an_early_match_or_no_match_keeps_the_prefix() -> None:
    text = "ERR_TIMEOUT 出现时先查日志。" + "说明。" * 300
    assert excerpt_of(text, ["err_timeout"], 50)[0] == text[:49] + "…"
    assert excerpt_of(text, ["不存在"], 50)[0] == text[:49] + "…"
    assert excerpt_of("短文本", ["短"], 50) == ("短文本", False)


def test_long_titles_and_breadcrumbs_are_clipped() -> None:
    result = project(raw(hit("a#1", "正文。", title="标" * 300, breadcrumb="路" * 300)))
    item = result["evidence"][0]
    assert len(item["title"]) == len(item["breadcrumb"]) == 200
    assert result["truncated"] is True


def test_a_failure_raw_becomes_the_error_envelope() -> None:
    failure = failure_raw(KNOWLEDGE_UNAVAILABLE, "The knowledge base is unavailable.", detail="/srv/kb: ENOENT")
    projection = RagResultProjector(rag_budget()).project("call-1", {"query": "支付超时"}, failure)
    assert projection.evidence_status is EvidenceStatus.ERROR
    assert projection.error_code == KNOWLEDGE_UNAVAILABLE
    assert projection.agent_result == {
        "evidence_status": "ERROR",
        "tool_call_id": "call-1",
        "query": "支付超时",
        "error": {"code": KNOWLEDGE_UNAVAILABLE, "message": "The knowledge base is unavailable."},
    }


MALFORMED: list[Any] = [
    None,
    [],
    "raw",
    {},
    {"query": "支付超时"},
    {"hits": []},
    {"query": 7, "hits": []},
    {"query": "", "hits": []},
    {"query": "支付超时", "hits": "SECRET-ROW"},
    {"query": "支付超时", "hits": [None]},
    {"query": "支付超时", "hits": [{"document_id": "a#1"}]},
    {"query": "支付超时", "hits": [hit("a#1", 42)]},
    {"query": "支付超时", "hits": [hit("a#1", "")]},
    {"query": "支付超时", "hits": [hit("", "SECRET-ROW")]},
    {"query": "支付超时", "hits": [hit("a" * 301, "SECRET-ROW")]},
    {"query": "支付超时", "hits": [hit("a#1", "SECRET-ROW", matched_terms="x")]},
    {"query": "支付超时", "hits": [hit("a#1", "SECRET-ROW", title=None)]},
    {"error": "SECRET-ROW"},
    {"error": {"code": 1, "message": "SECRET-ROW"}},
]


@pytest.mark.parametrize("malformed", MALFORMED)
def test_a_malformed_raw_is_projection_failed_and_leaks_nothing(malformed: Any) -> None:
    projection = RagResultProjector(rag_budget()).project("call-1", {"query": "支付超时"}, malformed)
    assert projection.evidence_status is EvidenceStatus.ERROR
    assert projection.error_code == PROJECTION_FAILED
    assert projection.agent_result == {
        "evidence_status": "ERROR",
        "tool_call_id": "call-1",
        "query": "支付超时",
        "error": {"code": PROJECTION_FAILED, "message": SAFE_MESSAGES[PROJECTION_FAILED]},
    }
    assert "SECRET" not in json.dumps(projection.agent_result)


def test_error_envelopes_without_a_usable_query_omit_it() -> None:
    projection = RagResultProjector(rag_budget()).project("call-1", {"query": 5}, {})
    assert projection.agent_result["error"]["code"] == PROJECTION_FAILED
    assert set(projection.agent_result) == ERROR_KEYS - {"query"}


def test_the_projector_never_emits_a_key_outside_the_envelope() -> None:
    rng = random.Random(14)
    alphabet = "支付超时连接池耗尽ERR_TIMEOUT order-service\n。"
    projector = RagResultProjector(rag_budget(**{"max-evidence": 3, "max-excerpt-chars": 50, "max-total-chars": 120}))
    for case in range(300):
        hits = []
        for _ in range(rng.randrange(0, 6)):
            text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 200)))
            extra = {rng.choice(["score", "rank", "vector", "hit_reasons", "detail"]): rng.random()}
            hits.append(hit(f"d{rng.randrange(4)}#s", text, matched_terms=[rng.choice(["err", "连接", "x"])], **extra))
        response: Any = raw(*hits) | {"trace": {"fallback_attempts": 2}}
        if case % 7 == 0:
            response = failure_raw("TOOL_TIMEOUT", "took too long", detail="internal")
        elif case % 11 == 0:
            response = {"query": "支付超时", "hits": [{"document_id": case}]}
        result = projector.project(f"call-{case}", {"query": "支付超时"}, response).agent_result
        if result["evidence_status"] == "ERROR":
            assert set(result) == ERROR_KEYS and set(result["error"]) == {"code", "message"}
            assert "internal" not in json.dumps(result)
            continue
        assert tuple(result) == ENVELOPE_KEYS
        assert all(tuple(item) == EVIDENCE_KEYS for item in result["evidence"])
        sources = {h["document_id"]: h["text"] for h in reversed(hits)}
        for item in result["evidence"]:
            assert item["excerpt"].removesuffix("…") in sources[item["document_id"]]


def test_a_secret_in_a_document_never_reaches_the_agent() -> None:
    """The release gate refuses any answer holding a secret; the excerpt the agent quotes is redacted first."""
    text = "测试环境默认账号：ops，password=Passw0rd!23；JDBC 连接串 jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db"
    result = project(raw(hit("runbook#env", text), query="测试环境 token=tk_live_4f9a2c81e7"))
    dumped = json.dumps(result, ensure_ascii=False)
    for secret in ("Passw0rd!23", "Sup3rS3cret", "tk_live_4f9a2c81e7"):
        assert secret not in dumped
    assert "[REDACTED]" in result["evidence"][0]["excerpt"] and "jdbc:mysql://" in result["evidence"][0]["excerpt"]
