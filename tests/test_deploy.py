"""The shipped dashboard and alert rules: promtool checks the rules and runs their unit tests; every dashboard
query parses as PromQL and names only metrics the runtime exports."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import yaml

from tests.services import _find_binary

ROOT = Path(__file__).resolve().parents[1]
ALERTS = ROOT / "deploy" / "prometheus" / "alerts.yml"
ALERT_TESTS = ROOT / "deploy" / "prometheus" / "alerts_test.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "superbiz.json"
METRICS_SOURCE = ROOT / "actors" / "ray_metrics.py"


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    binary = _find_binary(("promtool",), "prometheus")
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=60, check=False)


def exported_names() -> set[str]:
    """``ray_`` + each metric the runtime creates, with a histogram's ``_bucket``/``_count``/``_sum``."""
    names = set(re.findall(r'"(superbiz_[a-z_]+)"', METRICS_SOURCE.read_text()))
    series = {f"ray_{name}" for name in names}
    return series | {f"ray_{name}{suffix}" for name in names for suffix in ("_bucket", "_count", "_sum")}


def dashboard_queries() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def test_alert_rules_pass_promtool_check() -> None:
    result = promtool("check", "rules", str(ALERTS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS: 6 rules found" in result.stdout


def test_alert_rules_pass_their_promtool_unit_tests() -> None:
    result = promtool("test", "rules", str(ALERT_TESTS))
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_alert_is_unit_tested_firing() -> None:
    alerts = {rule["alert"] for group in yaml.safe_load(ALERTS.read_text())["groups"] for rule in group["rules"]}
    fired = {
        case["alertname"]
        for test in yaml.safe_load(ALERT_TESTS.read_text())["tests"]
        for case in test["alert_rule_test"]
        if case.get("exp_alerts")
    }
    assert fired == alerts


def test_dashboard_queries_parse_and_name_exported_metrics(tmp_path: Path) -> None:
    queries = dashboard_queries()
    assert len(queries) >= 14
    rules = {
        "groups": [
            {
                "name": "dashboard",
                "rules": [
                    {"record": f"dashboard:query_{index}", "expr": query.replace("$__rate_interval", "5m")}
                    for index, query in enumerate(queries)
                ],
            }
        ]
    }
    path = tmp_path / "dashboard_queries.yml"
    path.write_text(yaml.safe_dump(rules))
    result = promtool("check", "rules", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    used = {name for query in queries for name in re.findall(r"\bray_superbiz_[a-z_]+", query)}
    assert used <= exported_names(), used - exported_names()
    assert {name.removeprefix("ray_") for name in used if not name.endswith(("_bucket", "_count", "_sum"))} | {
        "superbiz_run_duration_seconds",
        "superbiz_guard_latency_seconds",
    } == set(re.findall(r'"(superbiz_[a-z_]+)"', METRICS_SOURCE.read_text()))


def test_the_readme_lists_every_dashboard_panel() -> None:
    readme = (ROOT / "README.md").read_text()
    titles = [panel["title"] for panel in json.loads(DASHBOARD.read_text())["panels"]]
    assert [title for title in titles if f"| {title} | `" not in readme] == []
