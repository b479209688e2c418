"""The whole cancel chain on real Ray and real MariaDB: ray.cancel -> tool actor -> KILL QUERY."""

from __future__ import annotations

import contextlib
import functools
import time
import uuid

import ray
from ray.exceptions import TaskCancelledError

from actors.tool_actor import tool_actor
from config.tools import ToolRuntime
from contract.clock import SystemClock
from tests.mysql_fixtures import OrderDb
from tools.registry import BUNDLED

SLOW_SQL = (
    "SELECT COUNT(*) FROM biz_order o JOIN payment_record p "
    "ON p.order_id <> o.order_id AND p.channel <> o.payment_status"
)


NAMESPACE = "test-tools"


def test_cancelling_the_ray_task_kills_the_running_query(ray_session: None, order_db: OrderDb) -> None:
    config = order_db.config(database="slow_db", timeout="60s")
    actor = tool_actor(
        f"query_mysql_{uuid.uuid4().hex[:6]}",
        functools.partial(BUNDLED["query_mysql"].build, config, SystemClock()),
        ToolRuntime(concurrency=1, max_pending=1),
        NAMESPACE,
    )
    call = actor.execute.remote("run-1:call_slow", {"data_source": "order_readonly", "sql": SLOW_SQL, "params": []})
    deadline = time.monotonic() + 20
    while not order_db.running_queries("p.channel <> o.payment_status") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert order_db.running_queries("p.channel <> o.payment_status"), "the slow query never reached MariaDB"
    ray.cancel(call)
    with contextlib.suppress(TaskCancelledError):
        ray.get(call, timeout=10)
    deadline = time.monotonic() + 5
    while order_db.running_queries("p.channel <> o.payment_status") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert order_db.running_queries("p.channel <> o.payment_status") == []
    quick = ray.get(
        actor.execute.remote(
            "run-1:call_next",
            {
                "data_source": "order_readonly",
                "sql": "SELECT order_id FROM biz_order WHERE order_id = ?",
                "params": ["gen-7"],
            },
        ),
        timeout=10,
    )
    assert quick["rows"] == [["gen-7"]]
