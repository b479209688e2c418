"""The README's way to see the Grafana dashboard through Ray's, checked against a head started with the real
``ray start`` (dashboard on, token authentication on).

Ray's dashboard head writes a Grafana configuration for its session: ``grafana.ini`` (embedding allowed,
anonymous viewers) and a file provisioning that loads every dashboard JSON in
``RAY_METRICS_GRAFANA_DASHBOARD_OUTPUT_DIR``. A Grafana started with that ``grafana.ini`` therefore serves Ray's
dashboards and ``deploy/grafana/superbiz.json`` copied into the same folder, and Ray's Metrics view embeds its
panels from that Grafana (``RAY_GRAFANA_HOST``). The dashboard's API answers 401 without Ray's token.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml

from tests.cluster.ray_cli import RAY, ROOT, clean_env, kill_processes_under
from tests.services import free_port

DASHBOARD_JSON = ROOT / "deploy" / "grafana" / "superbiz.json"
READY_WITHIN_S = 90.0


@pytest.fixture
def head_with_dashboard() -> Iterator[tuple[str, str, Path, Path]]:
    """(dashboard URL, token, Ray temp dir, dashboards folder) of a ``ray start --head`` with its dashboard."""
    base = Path(tempfile.mkdtemp(prefix="rd", dir="/tmp"))  # Ray's socket paths must stay short
    home, dashboards = base / "home", base / "dashboards"
    home.mkdir()
    dashboards.mkdir()
    shutil.copy(DASHBOARD_JSON, dashboards / DASHBOARD_JSON.name)  # the README's one step
    env = {**clean_env(home), "RAY_METRICS_GRAFANA_DASHBOARD_OUTPUT_DIR": str(dashboards)}
    subprocess.run([RAY, "get-auth-token", "--generate"], env=env, check=True, capture_output=True, timeout=60)
    token = (home / ".ray" / "auth_token").read_text().strip()
    port, dashboard_port = free_port(), free_port()
    started = subprocess.run(
        [RAY, "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
         "--include-dashboard=true", "--dashboard-host=127.0.0.1", f"--dashboard-port={dashboard_port}",
         f"--dashboard-agent-listen-port={free_port()}", f"--dashboard-agent-grpc-port={free_port()}",
         f"--metrics-export-port={free_port()}", f"--runtime-env-agent-port={free_port()}",
         f"--ray-client-server-port={free_port()}", "--disable-usage-stats", f"--temp-dir={base / 'ray'}"],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    try:
        assert started.returncode == 0, started.stdout + started.stderr
        yield f"http://127.0.0.1:{dashboard_port}", token, base / "ray", dashboards
    finally:
        kill_processes_under(base, port)
        shutil.rmtree(base, ignore_errors=True)


def _wait_for(path: Path) -> Path:
    deadline = time.monotonic() + READY_WITHIN_S
    while not path.exists():
        assert time.monotonic() < deadline, f"Ray wrote no {path}"
        time.sleep(0.5)
    return path


def test_rays_grafana_provisioning_serves_our_dashboard_and_its_api_wants_the_token(
    head_with_dashboard: tuple[str, str, Path, Path],
) -> None:
    url, token, temp_dir, dashboards = head_with_dashboard
    grafana = temp_dir / "session_latest" / "metrics" / "grafana"
    provisioning = yaml.safe_load(_wait_for(grafana / "provisioning" / "dashboards" / "default.yml").read_text())
    [provider] = provisioning["providers"]
    assert (provider["type"], provider["options"]["path"]) == ("file", str(dashboards))
    ini = (grafana / "grafana.ini").read_text()
    assert "allow_embedding = true" in ini and str(grafana / "provisioning") in ini
    _wait_for(dashboards / "default_grafana_dashboard.json")  # Ray's own, beside ours in the one folder
    assert (dashboards / DASHBOARD_JSON.name).read_bytes() == DASHBOARD_JSON.read_bytes()  # Ray left ours alone
    uids = [json.loads(path.read_text())["uid"] for path in sorted(dashboards.glob("*.json"))]
    assert len(uids) == len(set(uids)) and "superbiz-harness" in uids
    datasource = yaml.safe_load((grafana / "provisioning" / "datasources" / "default.yml").read_text())
    assert datasource["datasources"][0]["type"] == "prometheus"  # what our ${datasource} variable picks

    with httpx.Client(timeout=10) as client:
        assert client.get(f"{url}/api/grafana_health").status_code == 401
        answered = client.get(f"{url}/api/grafana_health", headers={"Authorization": f"Bearer {token}"})
        assert answered.status_code != 401  # past the token check (no Grafana runs here: its health fails)
        login = client.post(f"{url}/api/authenticate", headers={"Authorization": f"Bearer {token}"})
        assert login.status_code == 200 and login.cookies  # what the page's token prompt does
