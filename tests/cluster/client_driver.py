"""A second gateway process that joins the scenario's cluster over Ray Client (``ray://``), finds the actors
the first one created (same namespace), asks one question and prints what it saw as JSON.

``python -m tests.cluster.client_driver RAY_ADDRESS REDIS_URL MARIADB_PORT BASE_URL WORK_DIR NAMESPACE``
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import ray

from actors.runtime import HarnessClient
from cli.ray_cluster import init_ray
from tests.cluster.scenario import scenario_config
from tests.harness.run_support import QUERY


async def ask(client: HarnessClient) -> list[dict[str, Any]]:
    return [{"event": event.event, "data": event.data} async for event in client.chat("s-ray-client", QUERY)]


def main(address: str, redis_url: str, mariadb_port: str, base_url: str, work: str, namespace: str) -> dict[str, Any]:
    config = scenario_config(redis_url, int(mariadb_port), base_url, address, Path(work), namespace)
    init_ray(config, None)
    try:
        events = asyncio.run(ask(HarnessClient(config)))
        return {"ray_client": ray.util.client.ray.is_connected(), "events": events}
    finally:
        ray.shutdown()


if __name__ == "__main__":
    print(json.dumps(main(*sys.argv[1:]), ensure_ascii=False, default=str))
