"""The bundled knowledge tells the truth about the bundled demo: the facts the documents share with the mock
logs, the mock metrics and the demo order database agree (issue 21, item 6).

A real model reads the runbooks and then the evidence; where they disagree it either distrusts a faithful
document or "finds" a discrepancy that is only ours. Each test reads a fact from the documents' own words and
checks it against the data.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from tools.knowledge.tool import BUNDLED_DOCS
from tools.logs.source import BUNDLED_DATASET as LOGS
from tools.logs.source import LogTopic
from tools.metrics.dataset import load_dataset
from tools.mysql.demo_db import COMPENSATION_AFTER_MIN, demo_rows
from tools.registry import BUNDLED

NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def doc(name: str) -> str:
    return (BUNDLED_DOCS / f"{name}.md").read_text(encoding="utf-8")


def all_docs() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(BUNDLED_DOCS.glob("*.md")))


def one(pattern: str, text: str) -> str:
    """The single group of the one match of ``pattern`` in ``text``."""
    found = re.findall(pattern, text)
    assert len(found) == 1, (pattern, found)
    return found[0]


def messages(topic: str, pattern: str) -> list[re.Match[str]]:
    events = [json.loads(line) for line in LOGS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [m for event in events if event["topic"] == topic and (m := re.search(pattern, event["message"]))]


def test_the_timeout_compensator_closes_a_payment_when_the_documents_say() -> None:
    minutes = {
        one(r"创建超过 (\d+) 分钟仍为 INIT", doc("payment-system-overview")),
        one(r"(\d+) 分钟后由超时补偿任务处理", doc("payment-timeout-runbook")),
        one(r"TIMEOUT \| 超过 (\d+) 分钟未收到结果", doc("order-db-data-dictionary")),
    }
    assert minutes == {str(COMPENSATION_AFTER_MIN)}
    parse = lambda stamp: datetime.strptime(stamp, "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC)  # noqa: E731
    after = timedelta(minutes=COMPENSATION_AFTER_MIN)
    payments = demo_rows(NOW)["payment_record"]
    timed_out = [row for row in payments if row[3] == "TIMEOUT"]
    assert timed_out and all(parse(row[6]) - parse(row[5]) == after for row in timed_out)
    assert all(NOW - parse(row[5]) < after for row in payments if row[3] == "INIT")


def test_slow_queries_are_a_query_logs_topic_the_documents_point_to() -> None:
    text = all_docs()
    assert "SLOW_SQL" in set(LogTopic)
    assert "SLOW_SQL" in doc("hikaricp-pool-exhaustion") and "SLOW_SQL" in doc("payment-system-overview")
    assert not re.search(r"不提供[^。\n]*慢查询", text)
    slow = messages("SLOW_SQL", r"Query_time=([\d.]+)s Lock_time=([\d.]+)s .*db=order_db")
    assert slow and any("UPDATE biz_order" in m.string for m in slow)
    for topic in re.findall(r"([A-Z_]+) topic", text):
        assert topic in set(LogTopic), topic


def test_the_gateway_times_out_a_payment_after_the_documented_seconds() -> None:
    seconds = int(one(r"api-gateway（`/api/v1/orders/\{orderId\}/pay`） \| (\d+)s", doc("payment-system-overview")))
    assert (
        int(one(r"`POST /api/v1/orders/\{orderId\}/pay` 在 api-gateway 的超时为 (\d+)s", doc("error-codes"))) == seconds
    )
    assert int(one(r"ERR_TIMEOUT 只表示请求在 (\d+)s 内没有完成", doc("payment-timeout-runbook"))) == seconds
    gateway = messages("ACCESS", r'"POST /api/v1/orders/[\w-]+/pay HTTP/1.1" 504 \d+ rt=([\d.]+)s')
    assert gateway and all(seconds <= float(m[1]) < seconds + 1 for m in gateway)
    cancelled = messages("ACCESS", r'"POST /api/v1/orders/[\w-]+/pay HTTP/1.1" 499 \d+ rt=([\d.]+)s')
    assert all(float(m[1]) < seconds for m in cancelled)  # a client that hung up did so before the gateway did


def test_the_connection_pool_is_the_documented_size_and_timeout() -> None:
    hikari = doc("hikaricp-pool-exhaustion")
    size, timeout_ms = int(one(r"maximum-pool-size: (\d+)", hikari)), int(one(r"connection-timeout: (\d+)", hikari))
    stats = messages("APPLICATION", r"HikariPool-1 - (?:Pool stats|Connection is not available).*\(total=(\d+), ")
    assert stats and {int(m[1]) for m in stats} == {size}
    waits = messages("APPLICATION", r"HikariPool-1 - Connection is not available, request timed out after (\d+)ms")
    assert waits and all(timeout_ms <= int(m[1]) < timeout_ms + 100 for m in waits)
    assert messages("APPLICATION", rf"maximumPoolSize={size} connectionTimeout={timeout_ms}\b")
    (order_pool,) = [
        s for s in load_dataset().series("hikaricp_connections_max") if ("service", "order-service") in s.labels
    ]
    assert order_pool.value(0) == size
    assert f"HikariPool-1 - Pool stats (total={size}, " in hikari


@pytest.mark.parametrize(
    ("documented", "logged"),
    [
        (
            r"payment-service → order-service 回调（`/internal/orders/\{orderId\}/paid`） \| (\d+)s",
            r"ERR_TIMEOUT calling order-service POST /internal/orders/[\w-]+/paid after (\d+)ms",
        ),
        (
            r"\| payment-service → 渠道 \| (\d+)s \| payment-service 返回 ERR_CHANNEL_TIMEOUT",
            r"ERR_CHANNEL_TIMEOUT calling channel \w+ [\w.]+ order=[\w-]+ after (\d+)ms",
        ),
    ],
    ids=["callback", "channel"],
)
def test_payment_service_gives_up_after_the_documented_seconds(documented: str, logged: str) -> None:
    seconds = int(one(documented, doc("payment-system-overview")))
    found = messages("APPLICATION", logged)
    assert found and {int(m[1]) for m in found} == {seconds * 1000}


def test_the_channel_timeout_is_logged_under_its_own_code() -> None:
    assert "3s 内未响应" in doc("error-codes").split("### ERR_CHANNEL_TIMEOUT", 1)[1]
    assert not messages("APPLICATION", r"ERR_TIMEOUT calling channel")


def test_every_metric_and_tool_the_documents_name_exists() -> None:
    text = all_docs()
    metrics = set(load_dataset().metrics)
    named = set(re.findall(r"`((?:hikaricp|http_server|payment_order|mysql_innodb)_[a-z_]+)`", text))
    assert named and named <= metrics, named - metrics
    tools = set(re.findall(r"\b(query_\w+|lookup_knowledge)\b", text))
    assert tools and tools <= set(BUNDLED), tools - set(BUNDLED)
