"""The language of a question (zh or en), on the module's examples and on generated mixes: Chinese questions with
ids, codes, SQL and English terms in them; English questions with ids, codes, SQL and one Chinese term."""

from __future__ import annotations

import itertools

import pytest

from harness.language import english_words, language_of

CHINESE = (
    "订单 {x} 支付超时，帮我排查",
    "{x} 是什么意思？",
    "为什么 {x} 一直报错",
    "帮我看一下 {x} 最近半小时的日志",
    "{x} 怎么回事",
    "查一下{x}",
)
ENGLISH = (
    "Why does {x} keep timing out?",
    "What does {x} mean?",
    "Please check the logs of {x} for the last hour",
    "Is {x} related to the outage",
    "help me debug {x}",
    "{x} fails, why?",
)
INSERTS = (
    "order-123",
    "ERR_TIMEOUT",
    "HikariPool-1",
    "payment-service",
    "biz_order.payment_status",
    "10.0.3.17:3306",
    "`SELECT * FROM biz_order WHERE order_id = ?`",
    "https://grafana.internal/d/abc?var=order-service",
    "maximumPoolSize",
    "TIMEOUT",
    "HTTP 504",
    "2026-07-21T02:30:00Z",
    "p99 > 800ms",
    "order_db",
)
CHINESE_TERMS = ("支付超时", "订单", "连接池", "退款")


@pytest.mark.parametrize(
    ("question", "language"),
    [
        ("订单 order-123 支付超时，帮我排查", "zh"),
        ("order-123 payment timeout 怎么回事", "zh"),
        ("Why does order-123 time out?", "en"),
        ("ERR_TIMEOUT 是什么意思？", "zh"),
        ("What does 支付超时 mean?", "en"),
        ("SELECT * FROM biz_order 为什么慢", "zh"),
        ("select order_id, status from biz_order where created_at > now() 查不到数据", "zh"),
        ("show processlist 里有很多 Sleep 连接", "zh"),
        ("你好", "zh"),
        ("hello", "en"),
        ("hi 你好", "zh"),
        ("order-123", "en"),
        ("ERR_TIMEOUT", "en"),
        ("12345", "zh"),
        ("？？", "zh"),
        ("ｗｈｙ ｉｓ ｏｒｄｅｒ－１２３ ｓｌｏｗ？", "en"),
        ("payment timeout for order-123 since 10:05, 帮我排查", "en"),
        ("Why is the 订单 service slow?", "en"),
        ("订单服务 slow 吗", "zh"),
        ("查一下 payment gateway", "zh"),
        ("连接池 timeout 了，帮忙看看 order-service", "zh"),
        ("帮我看下 connection pool exhausted 的原因", "zh"),
    ],
)
def test_examples(question: str, language: str) -> None:
    assert language_of(question) == language


@pytest.mark.parametrize(("template", "insert"), list(itertools.product(CHINESE, INSERTS)))
def test_a_chinese_question_with_ids_codes_or_sql_is_chinese(template: str, insert: str) -> None:
    assert language_of(template.format(x=insert)) == "zh"


@pytest.mark.parametrize(("template", "insert"), list(itertools.product(ENGLISH, INSERTS)))
def test_an_english_question_with_ids_codes_or_sql_is_english(template: str, insert: str) -> None:
    assert language_of(template.format(x=insert)) == "en"


@pytest.mark.parametrize(("template", "term"), list(itertools.product(ENGLISH, CHINESE_TERMS)))
def test_an_english_question_with_one_chinese_term_is_english(template: str, term: str) -> None:
    assert language_of(template.format(x=f"order-123 {term}")) == "en"


@pytest.mark.parametrize(
    ("template", "term"), list(itertools.product(CHINESE, ("timeout", "payment gateway", "connection pool")))
)
def test_a_chinese_question_with_an_english_term_is_chinese(template: str, term: str) -> None:
    assert language_of(template.format(x=term)) == "zh"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("order-123 ERR_TIMEOUT HikariPool-1 maximumPoolSize SQL HTTP", []),
        ("why doesn't it work", ["why", "doesn't", "it", "work"]),
        ("a I e.g. read-only", ["a", "I"]),
    ],
)
def test_identifiers_codes_and_acronyms_are_no_english_words(text: str, words: list[str]) -> None:
    assert english_words(text) == words
