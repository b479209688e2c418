"""Ray cluster mode on one machine: a head and two worker nodes (``ray.cluster_utils.Cluster``), the gateway
joining by address, the MySQL tool actor placed by a custom resource, and a worker node removed mid-run.

The scenario runs in its own process (``tests/cluster/scenario.py``): a driver belongs to one Ray cluster,
and this process already has the session's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.mysql_fixtures import OrderDb
from tests.services import RedisServer

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_TIMEOUT_S = 600


@pytest.fixture(scope="module")
def observed(redis_server: RedisServer, order_db: OrderDb) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.cluster.scenario", redis_server.url, str(order_db.server.port)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=SCENARIO_TIMEOUT_S,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def well_formed(run: dict[str, Any]) -> bool:
    names = run["events"]
    return (
        names[0] == "metadata"
        and names[-1] == "done"
        and names.count("done") == 1
        and names.count("content") + names.count("failure") <= 1
    )


def test_actors_run_only_where_their_resources_are(observed: dict[str, Any]) -> None:
    assert observed["placement"] in observed["workers"]
    assert observed["restarted_on"] in observed["workers"]
    harness = {name: node for name, node in observed["actors"].items() if not name.startswith("tool:")}  # 1+1+2
    assert len(harness) == 4 and set(harness.values()) == {observed["head"]}, harness


def test_runs_succeed_with_the_actors_spread_over_the_nodes(observed: dict[str, Any]) -> None:
    assert [run["last"] for run in observed["runs"]] == [{"outcome": "SUCCESS"}] * 3
    assert all(well_formed(run) for run in observed["runs"])
    nodes = observed["actors"]
    assert len(set(nodes.values())) >= 2, nodes
    assert nodes["tool:query_mysql (ToolActor)"] == observed["placement"]
    assert all(name.split(" ")[1].startswith("(") for name in nodes)


def test_removing_the_tool_actors_node_mid_run_ends_that_run_safely(observed: dict[str, Any]) -> None:
    run = observed["interrupted"]
    assert well_formed(run), run["events"]
    assert run["last"] == {"outcome": "FALLBACK"}
    assert run["data"][-2]["payload"]["type"] == "EVIDENCE_VALIDATION_FAILED"
    row = observed["interrupted_row"]
    assert row["status"] == row["release_outcome"] == "FALLBACK"
    tools = [(t["tool_name"], t["evidence_status"], t["error_code"]) for t in observed["interrupted_tools"]]
    assert tools == [("query_mysql", "ERROR", "TOOL_UNAVAILABLE")]


def test_the_actor_comes_back_on_the_other_worker_and_the_next_run_succeeds(observed: dict[str, Any]) -> None:
    assert observed["restarted_on"] != observed["removed"]
    assert observed["after"]["last"] == {"outcome": "SUCCESS"}
    assert well_formed(observed["after"])


def test_a_gateway_joining_over_ray_client_shares_the_actors(observed: dict[str, Any]) -> None:
    joined = observed["ray_client"]
    assert joined["ray_client"] is True
    names = [event["event"] for event in joined["events"]]
    assert well_formed({"events": names})
    assert joined["events"][-1]["data"] == {"outcome": "SUCCESS"}
    assert observed["actors"] == observed["actors_after_client"]
