"""Application metrics on a real Ray, read back from the session's Prometheus export.

Real runs with the offline model (a report, a SEMANTIC_UNSUPPORTED fallback, a knowledge answer), a run
with a one-call tool budget, and two runs against a held ``query_mysql`` actor (limit 1, no queue): the
first waits in the tool and is cancelled by its client, the second gets TOOL_BUSY. Ray exports our names
with a ``ray_`` prefix, one series per worker process; values are summed over the labels asked for.
Counters are cumulative over the whole session, so each check is a lower bound.
"""

from __future__ import annotations

import asyncio
import functools
import re
import time
import urllib.request
from collections.abc import Callable
from typing import Any

from actors.runtime import HarnessClient
from actors.tool_actor import tool_actor
from config.app import AppConfig
from config.tools import ToolRuntime
from harness.messages import RunEvent
from tests.actors.runtime_support import collect, ray_config
from tests.harness.run_support import QUERY
from tools.fakes import slow_echo_tool

UNSUPPORTED_QUERY = "订单 order-123 显示 REFUNDED，但客户反馈一直支付超时，帮我排查"
KNOWLEDGE_QUERY = "ERR_TIMEOUT 是什么意思？"
TOOLS = ("lookup_knowledge", "query_logs", "query_mysql")
SCRAPE_TIMEOUT_S = 20.0

_SAMPLE = re.compile(r"^(?P<name>[a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(?P<labels>.*)\})?\s+(?P<value>\S+)")
_LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')

Samples = list[tuple[str, dict[str, str], float]]


def scrape(url: str) -> Samples:
    with urllib.request.urlopen(url, timeout=5) as response:
        text = response.read().decode()
    samples = []
    for line in text.splitlines():
        match = _SAMPLE.match(line)
        if match and not line.startswith("#"):
            labels = dict(_LABEL.findall(match["labels"] or ""))
            samples.append((match["name"], labels, float(match["value"])))
    return samples


def total(samples: Samples, name: str, **labels: str) -> float | None:
    """The sum over every series of ``name`` with ``labels``; None when there is no such series."""
    values = [v for n, found, v in samples if n == name and all(found.get(k) == w for k, w in labels.items())]
    return sum(values) if values else None


def at_least(minimum: float, name: str, **labels: str) -> Callable[[Samples], str | None]:
    def check(samples: Samples) -> str | None:
        value = total(samples, name, **labels)
        return None if value is not None and value >= minimum else f"{name}{labels} = {value}, want >= {minimum}"

    return check


def at_rest(tool: str) -> Callable[[Samples], str | None]:
    def check(samples: Samples) -> str | None:
        value = total(samples, "ray_superbiz_tool_in_flight", tool=tool)
        return None if value == 0 else f"ray_superbiz_tool_in_flight{{tool={tool}}} = {value}, want 0"

    return check


async def wait_for_metrics(url: str, checks: list[Callable[[Samples], str | None]]) -> list[str]:
    """Scrape until every check passes (the export lags recording by about a second); the failures if not."""
    deadline = time.monotonic() + SCRAPE_TIMEOUT_S
    while True:
        samples = await asyncio.to_thread(scrape, url)
        failures = [failure for check in checks if (failure := check(samples)) is not None]
        if not failures or time.monotonic() > deadline:
            return failures
        await asyncio.sleep(0.5)


def outcome(events: list[RunEvent]) -> Any:
    assert events[-1].event == "done"
    return events[-1].data["outcome"]


async def held_tool_runs(config: AppConfig) -> None:
    """A cancelled run and a TOOL_BUSY: ``query_mysql`` is a slow actor with one slot and no queue."""
    runtime = ToolRuntime(concurrency=1, max_pending=0)
    slow = tool_actor("query_mysql", functools.partial(slow_echo_tool, 60.0), runtime, config.ray.namespace)
    client = HarnessClient(config)  # its supervisor finds the slow actor by name
    held = client.chat("s-held", QUERY)
    async for event in held:
        if event.event == "status" and (event.data["code"], event.data.get("tool")) == ("TOOL_RUNNING", "query_mysql"):
            break
    deadline = time.monotonic() + 30
    while (await slow.stats.remote())["in_flight"] < 1:
        assert time.monotonic() < deadline, "the held run never reached query_mysql"
        await asyncio.sleep(0.05)
    busy = await collect(client, QUERY, "s-busy")
    assert outcome(busy) in ("SUCCESS", "FALLBACK")
    assert (await slow.stats.remote())["busy_rejections"] >= 1
    await held.aclose()  # the client goes away: the held run is cancelled, its tool call too


async def test_application_metrics_are_exported_with_rays_own(
    ray_session: None, ray_metrics_url: str, redis_url: str, runtimes: list[AppConfig]
) -> None:
    main = ray_config(redis_url=redis_url)
    # The tool budget runs out in the first tool turn (the offline model asks for 4 calls); the model-call budget
    # then stops the tool-less draft turn that a spent tool budget leaves: a fallback, counted by TOOL_CALLS.
    budget = ray_config(
        redis_url=redis_url, ray={"guard-pool": 1}, harness={"agent": {"max-tool-calls": 1, "max-model-calls": 2}}
    )
    held = ray_config(redis_url=redis_url, ray={"guard-pool": 1})
    runtimes.extend([main, budget, held])

    client = HarnessClient(main)
    assert outcome(await collect(client, QUERY, "s-report")) == "SUCCESS"
    assert outcome(await collect(client, UNSUPPORTED_QUERY, "s-unsupported")) == "FALLBACK"
    assert outcome(await collect(client, KNOWLEDGE_QUERY, "s-knowledge")) == "SUCCESS"
    assert outcome(await collect(HarnessClient(budget), QUERY, "s-budget")) == "FALLBACK"
    await held_tool_runs(held)

    failures = await wait_for_metrics(
        ray_metrics_url,
        [
            at_least(1, "ray_superbiz_runs_total", intent="DIAGNOSIS", outcome="SUCCESS"),
            at_least(2, "ray_superbiz_runs_total", intent="DIAGNOSIS", outcome="FALLBACK"),
            at_least(1, "ray_superbiz_runs_total", intent="KNOWLEDGE_QUERY", outcome="SUCCESS"),
            at_least(1, "ray_superbiz_runs_total", intent="DIAGNOSIS", outcome="CANCELLED"),
            at_least(6, "ray_superbiz_run_duration_seconds_count"),
            at_least(6, "ray_superbiz_run_duration_seconds_bucket", le="+Inf"),
            at_least(1, "ray_superbiz_run_duration_seconds_bucket", intent="DIAGNOSIS", le="120.0"),
            at_least(6, "ray_superbiz_model_calls_total", role="router", outcome="OK"),
            at_least(4, "ray_superbiz_model_calls_total", role="agent", outcome="OK"),
            at_least(1, "ray_superbiz_model_calls_total", role="knowledge", outcome="OK"),
            at_least(2, "ray_superbiz_model_calls_total", role="guard", outcome="OK"),
            at_least(1, "ray_superbiz_model_tokens_total", role="agent", kind="input"),
            at_least(1, "ray_superbiz_model_tokens_total", role="agent", kind="output"),
            *(at_least(1, "ray_superbiz_tool_calls_total", tool=tool, status="READY") for tool in TOOLS),
            at_least(1, "ray_superbiz_tool_calls_total", tool="query_mysql", status="ERROR", evidence_status="ERROR"),
            *(at_rest(tool) for tool in TOOLS),
            at_least(1, "ray_superbiz_tool_busy_total", tool="query_mysql"),
            at_least(1, "ray_superbiz_guard_verdicts_total", verdict="SUPPORTED"),
            at_least(1, "ray_superbiz_guard_verdicts_total", verdict="UNSUPPORTED"),
            at_least(2, "ray_superbiz_guard_latency_seconds_count"),
            at_least(1, "ray_superbiz_budget_exhausted_total", reason="TOOL_CALLS"),
            at_least(1, "ray_superbiz_fallbacks_total", type="SEMANTIC_UNSUPPORTED"),
            at_least(1, "ray_superbiz_cancellations_total"),
            # Series no run of this test touches exist all the same, at 0 or more (an alert never reads "no data").
            at_least(0, "ray_superbiz_fallbacks_total", type="SEMANTIC_UNAVAILABLE"),
            at_least(0, "ray_superbiz_fallbacks_total", type="EVIDENCE_VALIDATION_FAILED"),  # a budget is not one
            at_least(0, "ray_superbiz_guard_verdicts_total", verdict="UNAVAILABLE"),
            at_least(0, "ray_superbiz_budget_exhausted_total", reason="DEADLINE"),
            at_least(0, "ray_superbiz_runs_total", intent="SYSTEM_CHAT", outcome="FAILED"),
            at_least(0, "ray_superbiz_model_calls_total", role="repair", outcome="TIMEOUT"),
            at_least(0, "ray_superbiz_tool_busy_total", tool="lookup_knowledge"),
            at_least(0, "ray_superbiz_trace_export_failures_total", component="supervisor"),
            at_least(0, "ray_superbiz_trace_export_failures_total", component="tool-query_logs"),
            at_least(0, "ray_superbiz_tool_calls_total", tool="query_metrics", status="ERROR", evidence_status="ERROR"),
            at_least(1, "ray_cluster_active_nodes"),  # Ray's own metrics are in the same export
        ],
    )
    assert failures == []
