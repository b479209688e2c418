"""The multi-node scenario, run in its own process (a driver joins one Ray cluster at a time):

a head and two worker nodes from ``ray.cluster_utils.Cluster``, both workers carrying ``mysql_access`` and the
head ``harness``; the gateway joins by address; the MySQL tool actor is placed by ``mysql_access`` and the
supervisors, agents and guards by ``harness``. Runs go across the nodes; a second gateway process joins over
Ray Client (``ray://``) and runs on the same actors; then the worker hosting the MySQL tool actor is removed
while the actor runs a slow query, the actor restarts on the other worker and the next run succeeds. Prints
one JSON document of what it observed; the test judges it.

``python -m tests.cluster.scenario REDIS_URL MARIADB_PORT``
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import ray
from ray.cluster_utils import Cluster
from ray.util.state import list_actors

from actors.names import tool_actor_name
from cli.ray_cluster import init_ray
from config.app import AppConfig
from config.loader import parse_config
from tests.actors.runtime_support import arguments, ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import SUPPORTED, Running, ask, script_agent, started, with_sections
from tests.harness.run_support import GOOD_DRAFT, PLAN, QUERY, draft
from tests.mysql_fixtures import ALLOWED, READONLY_PASSWORD, READONLY_USER
from tests.services import free_port

RESOURCE, HARNESS = "mysql_access", "harness"
SLOW_SQL = (
    "SELECT COUNT(*) FROM slow_db.biz_order a JOIN slow_db.biz_order b ON b.order_id <> a.order_id "
    "JOIN slow_db.biz_order c ON c.order_id <> b.order_id"
)
MYSQL_ONLY = draft(("a1", "NORMAL", ["call_slow"]), conclusion=["a1"], scope="订单库（慢查询）")
FAST_HEALTH_CHECKS = {"health_check_period_ms": 500, "health_check_failure_threshold": 3}


def scenario_config(
    redis_url: str, mariadb_port: int, base_url: str, address: str, work: Path, namespace: str
) -> AppConfig:
    base = with_sections(
        ray_config(redis_url=redis_url, base_url=base_url),
        work,
        ray={"address": address, "namespace": namespace, "resources": {HARNESS: 0.01}},
        tools={"query_mysql": {"concurrency": 2, "max-pending": 8, "resources": {RESOURCE: 0.01}}},
        model={"timeout-s": 20},
    )
    schemas = "\n".join(
        f"""
              {schema}:
                tables:
                  biz_order:
                    columns: [{", ".join(ALLOWED["biz_order"])}]
                  payment_record:
                    columns: [{", ".join(ALLOWED["payment_record"])}]"""
        for schema in ("order_db", "slow_db")
    )
    mysql = parse_config(
        textwrap.dedent(
            """
            harness:
              mysql:
                query-timeout: 20s
              mysql-tools:
                data-sources:
                  order_readonly:
                    driver: mysql
                    jdbc-url: ${JDBC_URL}
                    username: ${USERNAME}
                    password: ${PASSWORD}
                    default-schema: order_db
                    allowed-schemas:"""
        )
        + textwrap.indent(schemas, "  "),
        {
            "JDBC_URL": f"jdbc:mariadb://127.0.0.1:{mariadb_port}/order_db",
            "USERNAME": READONLY_USER,
            "PASSWORD": READONLY_PASSWORD,
        },
    )
    harness = base.harness.model_copy(update={"mysql": mysql.harness.mysql, "mysql_tools": mysql.harness.mysql_tools})
    return base.model_copy(update={"harness": harness})


async def tool_stats(config: AppConfig, deadline_s: float = 60.0) -> dict[str, Any]:
    """The MySQL tool actor's stats once it answers (it may be restarting)."""
    deadline = time.monotonic() + deadline_s
    while True:
        try:
            actor = ray.get_actor(tool_actor_name("query_mysql"), namespace=config.ray.namespace)
            return dict(await actor.stats.remote())
        except (ValueError, ray.exceptions.RayError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


def actor_nodes(config: AppConfig) -> dict[str, str]:
    """Where each live actor of the runtime runs, as the dashboard's actor list shows it."""
    actors = list_actors(filters=[("ray_namespace", "=", config.ray.namespace), ("state", "=", "ALIVE")])
    return {f"{actor.name} ({actor.class_name})": actor.node_id for actor in actors}


async def all_alive(config: AppConfig, count: int, deadline_s: float = 90.0) -> None:
    """Wait until every actor of the runtime is alive again (those on the removed node restart elsewhere)."""
    deadline = time.monotonic() + deadline_s
    while len(actor_nodes(config)) < count:
        if time.monotonic() > deadline:
            raise AssertionError(f"actors still down: {actor_nodes(config)}")
        await asyncio.sleep(0.2)


def summary(events: list[Any]) -> dict[str, Any]:
    return {"events": [event.event for event in events], "last": events[-1].data, "data": [e.data for e in events]}


async def diagnose(running: Running, fake: FakeOpenAI) -> dict[str, Any]:
    fake.reset()
    script_agent(fake, GOOD_DRAFT)
    fake.script("guard", reply(SUPPORTED))
    return summary(await ask(running.url, QUERY))


def ray_client_run(command: list[str]) -> dict[str, Any]:
    """One diagnosis from another process that joins over Ray Client and finds the same actors."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    if done.returncode != 0:
        raise AssertionError(done.stderr[-4000:])
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


async def observe(
    cluster: Cluster, workers: dict[str, Any], fake: FakeOpenAI, config: AppConfig, client_command: list[str]
) -> dict[str, Any]:
    observed: dict[str, Any] = {"workers": sorted(workers), "head": cluster.head_node.node_id}
    with started(config) as running:
        observed["runs"] = [await diagnose(running, fake) for _ in range(3)]
        observed["placement"] = (await tool_stats(config))["node_id"]
        observed["actors"] = actor_nodes(config)
        fake.reset()
        script_agent(fake, GOOD_DRAFT)
        fake.script("guard", reply(SUPPORTED))
        observed["ray_client"] = await asyncio.to_thread(ray_client_run, client_command)
        observed["actors_after_client"] = actor_nodes(config)

        fake.reset()
        fake.script("router", reply(json.dumps({"intent": "DIAGNOSIS"})))
        slow = {"data_source": "order_readonly", "params": [], "sql": SLOW_SQL}
        fake.script(
            "agent",
            reply(json.dumps(PLAN, ensure_ascii=False)),
            reply(None, [("call_slow", "query_mysql", arguments(slow))]),
            reply(json.dumps(MYSQL_ONLY, ensure_ascii=False)),
        )
        fake.script("repair", reply(json.dumps(MYSQL_ONLY, ensure_ascii=False)))
        fake.script("guard", reply(SUPPORTED))
        run = asyncio.create_task(ask(running.url, QUERY))
        deadline = time.monotonic() + 30
        while (await tool_stats(config))["in_flight"] < 1:
            if time.monotonic() > deadline or run.done():
                raise AssertionError("the slow query never started")
            await asyncio.sleep(0.05)
        cluster.remove_node(workers[observed["placement"]], allow_graceful=False)
        observed["removed"] = observed["placement"]
        observed["interrupted"] = summary(await asyncio.wait_for(run, 120))
        audit = running.parts.audit
        observed["interrupted_row"] = await audit.run(observed["interrupted"]["data"][0]["run_id"])
        observed["interrupted_tools"] = await audit.tool_invocations(observed["interrupted"]["data"][0]["run_id"])
        observed["restarted_on"] = (await tool_stats(config, 90))["node_id"]
        await all_alive(config, len(observed["actors"]))
        observed["after"] = await diagnose(running, fake)
    return observed


def main(redis_url: str, mariadb_port: int) -> dict[str, Any]:
    client_port = free_port()
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "resources": {HARNESS: 1},
            "ray_client_server_port": client_port,
            "_system_config": FAST_HEALTH_CHECKS,
        },
    )
    try:
        workers = {}
        for _ in range(2):
            node = cluster.add_node(num_cpus=1, resources={RESOURCE: 1})
            workers[node.node_id] = node
        cluster.wait_for_nodes()
        with FakeOpenAI() as fake, tempfile.TemporaryDirectory(prefix="superbiz-cluster-") as work:
            namespace = f"cluster-{uuid.uuid4().hex[:8]}"
            config = scenario_config(redis_url, mariadb_port, fake.base_url, cluster.address, Path(work), namespace)
            init_ray(config, None)
            try:
                client = [
                    sys.executable, "-m", "tests.cluster.client_driver", f"ray://127.0.0.1:{client_port}",
                    redis_url, str(mariadb_port), fake.base_url, work, namespace,
                ]  # fmt: skip
                return asyncio.run(observe(cluster, workers, fake, config, client))
            finally:
                ray.shutdown()
    finally:
        cluster.shutdown()


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], int(sys.argv[2])), ensure_ascii=False, default=str))
