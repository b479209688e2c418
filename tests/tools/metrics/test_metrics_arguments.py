"""The argument rules: every refused shape is an INVALID_ARGUMENTS failure that never reaches the source and never
repeats what the agent wrote; every allowed shape passes; the schema and the description come from the allowlist."""

from __future__ import annotations

from typing import Any

import pytest

from config.tool_budgets import MetricsBudget
from contract.clock import ManualClock
from contract.tool import INVALID_ARGUMENTS, failure_of
from tests.tools.metrics.conftest import ScriptedSource, make_tool
from tools.metrics.arguments import arguments_model, query_metrics_spec
from tools.metrics.query import AGGREGATIONS
from tools.metrics.settings import MetricDefinition, MetricsToolSettings

ACTIVE = {"metric": "hikaricp_connections_active", "aggregation": "max"}
CALLBACKS = {"metric": "payment_order_callback_total", "aggregation": "rate"}
REQUESTS = {"metric": "http_server_requests_seconds", "aggregation": "p99"}


def _refused(clock: ManualClock, arguments: dict[str, Any]) -> str:
    source = ScriptedSource()
    raw = make_tool(clock, source=source).run("call-1", arguments)
    failure = failure_of(raw)
    assert failure is not None, raw
    assert failure[0] == INVALID_ARGUMENTS
    assert source.queries == []
    assert "detail" not in raw["error"]
    return failure[1]


REFUSED: list[tuple[str, dict[str, Any], str]] = [
    # the metric
    ("unknown metric", {"metric": "node_cpu_seconds_total", "aggregation": "rate"}, "metric: not one of the metrics"),
    ("PromQL as metric", {"metric": "up or vector(1)", "aggregation": "max"}, "metric: not one of the metrics"),
    ("metric's _bucket series", {"metric": "http_server_requests_seconds_bucket", "aggregation": "rate"}, "metric:"),
    ("no metric", {"aggregation": "max"}, "metric: Field required"),
    ("metric not a string", {"metric": 42, "aggregation": "max"}, "metric: Input should be a valid string"),
    # labels
    ("unknown label", {**ACTIVE, "matchers": {"instance": "db-1:3306"}}, "matchers: a label"),
    ("another metric's label", {**ACTIVE, "matchers": {"outcome": "SUCCESS"}}, "its labels: service, pool"),
    ("__name__ matcher", {**ACTIVE, "matchers": {"__name__": "up"}}, "matchers: a label"),
    ("le matcher", {**REQUESTS, "matchers": {"le": "+Inf"}}, "matchers: a label"),
    ("matchers as a list", {**ACTIVE, "matchers": [["service", "order-service"]]}, "matchers: Input should be"),
    ("matchers as PromQL", {**ACTIVE, "matchers": '{service="order-service"}'}, "matchers: Input should be"),
    ("too many matchers", {**ACTIVE, "matchers": {f"l{i}": "x" for i in range(9)}}, "matchers: Dictionary should"),
    # aggregation for the type
    ("rate of a gauge", {**ACTIVE, "aggregation": "rate"}, "aggregation: rate does not apply to a gauge"),
    ("p99 of a gauge", {**ACTIVE, "aggregation": "p99"}, "use sum, avg, max"),
    ("p99 of a counter", {**CALLBACKS, "aggregation": "p99"}, "use rate, sum, avg, max"),
    ("avg of a histogram", {**REQUESTS, "aggregation": "avg"}, "aggregation: avg does not apply to a histogram"),
    ("max of a histogram", {**REQUESTS, "aggregation": "max"}, "use rate, sum, p50, p90, p99"),
    ("unknown aggregation", {**ACTIVE, "aggregation": "min"}, "aggregation: Input should be 'rate'"),
    ("PromQL aggregation", {**ACTIVE, "aggregation": "topk(5, x)"}, "aggregation: Input should be"),
    ("quantile as a number", {**REQUESTS, "aggregation": 0.99}, "aggregation: Input should be"),
    ("no aggregation", {"metric": "hikaricp_connections_active"}, "aggregation: Field required"),
    # grouping
    ("by an unknown label", {**ACTIVE, "by": "instance"}, "by: a label hikaricp_connections_active does not have"),
    ("by le", {**REQUESTS, "by": "le"}, "by: a label"),
    ("by PromQL", {**ACTIVE, "by": "service) (up"}, "by: a label"),
    ("by a list", {**ACTIVE, "by": ["service", "pool"]}, "by: Input should be a valid string"),
    # values: no way out of the string literal
    ("quote and brace", {**ACTIVE, "matchers": {"service": '"}'}}, "quotes or backslashes"),
    ("injection", {**ACTIVE, "matchers": {"service": 'x"} or vector(1) #'}}, "quotes or backslashes"),
    ("backslash", {**ACTIVE, "matchers": {"service": "order\\-service"}}, "quotes or backslashes"),
    ("trailing backslash", {**ACTIVE, "matchers": {"service": "x\\"}}, "quotes or backslashes"),
    ("inner newline", {**ACTIVE, "matchers": {"service": "a\nb"}}, "control or line-break"),
    ("carriage return", {**ACTIVE, "matchers": {"service": "a\rb"}}, "control or line-break"),
    ("NUL", {**ACTIVE, "matchers": {"service": "a\x00b"}}, "control or line-break"),
    ("line separator", {**ACTIVE, "matchers": {"service": "a\u2028b"}}, "control or line-break"),
    ("zero-width space", {**ACTIVE, "matchers": {"service": "order\u200bservice"}}, "control or line-break"),
    ("bidi override", {**ACTIVE, "matchers": {"service": "a\u202eb"}}, "control or line-break"),
    ("empty value", {**ACTIVE, "matchers": {"service": ""}}, "at least 1 character"),
    ("blank value", {**ACTIVE, "matchers": {"service": "   "}}, "at least 1 character"),
    ("long value", {**ACTIVE, "matchers": {"service": "x" * 201}}, "at most 200 characters"),
    ("number value", {**REQUESTS, "matchers": {"status": 500}}, "Input should be a valid string"),
    ("object value", {**ACTIVE, "matchers": {"service": {"regex": ".*"}}}, "Input should be a valid string"),
    # lookback
    ("zero lookback", {**ACTIVE, "lookback_minutes": 0}, "lookback_minutes: Input should be greater than"),
    ("negative lookback", {**ACTIVE, "lookback_minutes": -30}, "lookback_minutes: Input should be greater than"),
    ("lookback as text", {**ACTIVE, "lookback_minutes": "30"}, "lookback_minutes: Input should be a valid integer"),
    ("fractional lookback", {**ACTIVE, "lookback_minutes": 1.5}, "lookback_minutes: Input should be a valid integer"),
    ("boolean lookback", {**ACTIVE, "lookback_minutes": True}, "lookback_minutes: Input should be a valid integer"),
    # anything else
    ("raw promql", {**ACTIVE, "promql": "up"}, "an argument that does not exist"),
    ("query", {"query": "rate(x[5m])"}, "an argument that does not exist"),
    ("step", {**ACTIVE, "step": 1}, "an argument that does not exist"),
    ("operator", {**ACTIVE, "matchers": {"service": "order-service"}, "operator": "!="}, "does not exist"),
]


@pytest.mark.parametrize(("case", "arguments", "expected"), REFUSED, ids=[case for case, *_ in REFUSED])
def test_refused_shapes(clock: ManualClock, case: str, arguments: dict[str, Any], expected: str) -> None:
    message = _refused(clock, arguments)
    assert expected in message
    assert message.startswith("Invalid arguments (")


@pytest.mark.parametrize(
    "written",
    ['x"} or vector(1) #', "S3cr3tPassw0rd", "a\nb", "instance", "promql", "topk(5, x)"],
)
def test_a_refusal_never_repeats_what_the_agent_wrote(clock: ManualClock, written: str) -> None:
    refused = 0
    for arguments in (
        {**ACTIVE, "matchers": {"service": written}},
        {**ACTIVE, "matchers": {written: "x"}},
        {**ACTIVE, written: "x"},
        {**ACTIVE, "aggregation": written},
        {**ACTIVE, "by": written},
        {"metric": written, "aggregation": "max"},
    ):
        raw = make_tool(clock, source=ScriptedSource()).run("call-1", arguments)
        failure = failure_of(raw)
        if failure is not None:  # a plain value is a valid matcher value
            refused += 1
            assert written not in failure[1]
    assert refused >= 5


def test_stripped_values_pass_and_every_allowed_shape_validates() -> None:
    model = arguments_model(MetricsToolSettings().metrics)
    for written in (" order-service ", "order-service\n", "\torder-service\r\n"):
        # surrounding whitespace is stripped, as from every tool argument; the value sent has none
        args = model.model_validate({**ACTIVE, "matchers": {"service": written}})
        assert args.matchers == {"service": "order-service"}
    for name, definition in MetricsToolSettings().metrics.items():
        for aggregation in AGGREGATIONS[definition.type]:
            model.model_validate({"metric": name, "aggregation": aggregation})
            for label in definition.labels:
                model.model_validate({"metric": name, "aggregation": aggregation, "by": label})
            model.model_validate(
                {"metric": name, "aggregation": aggregation, "matchers": dict.fromkeys(definition.labels, "x")}
            )


def test_the_schema_enumerates_the_allowlist() -> None:
    spec = query_metrics_spec(MetricsToolSettings().metrics, MetricsBudget())
    schema = spec.parameters_schema()
    assert schema["required"] == ["metric", "aggregation"]
    assert schema["additionalProperties"] is False
    properties = schema["properties"]
    assert set(properties) == {"metric", "aggregation", "matchers", "by", "lookback_minutes"}
    assert properties["metric"]["enum"] == [
        "hikaricp_connections_active",
        "hikaricp_connections_max",
        "hikaricp_connections_pending",
        "http_server_requests_seconds",
        "mysql_innodb_row_lock_waits_total",
        "payment_order_callback_total",
    ]
    assert properties["aggregation"]["enum"] == ["rate", "sum", "avg", "max", "p50", "p90", "p99"]
    labels = ["outcome", "pool", "service", "status", "uri"]
    assert properties["by"]["enum"] == labels
    assert properties["matchers"]["propertyNames"] == {"enum": labels}
    assert properties["matchers"]["additionalProperties"]["maxLength"] == 200
    assert properties["lookback_minutes"] == {
        "type": "integer",
        "minimum": 1,
        "description": "Minutes back from now; optional, the default and maximum are in the tool description.",
    }


def test_the_description_lists_the_configured_metrics_and_what_the_tool_is_not_for() -> None:
    metrics = {
        "queue_depth": MetricDefinition(type="gauge", labels=["queue"], help="Messages waiting in a queue."),
        "jobs_failed_total": MetricDefinition(type="counter", labels=["job", "reason"]),
    }
    budget = MetricsBudget.model_validate({"default-lookback": "15m", "max-lookback": "6h", "min-step": "30s"})
    spec = query_metrics_spec(metrics, budget)
    assert spec.name == "query_metrics"
    assert "- queue_depth (gauge; labels: queue) — Messages waiting in a queue." in spec.description
    assert "- jobs_failed_total (counter; labels: job, reason)\n" in spec.description
    assert "hikaricp" not in spec.description
    assert "time series only: not for log lines (use query_logs)" in spec.description
    assert "runbooks or known issues (use lookup_knowledge)" in spec.description
    assert "default 15, maximum 360" in spec.description
    assert "at least 30 s" in spec.description
    assert spec.parameters_schema()["properties"]["metric"]["enum"] == ["jobs_failed_total", "queue_depth"]
    model = spec.arguments
    model.model_validate({"metric": "queue_depth", "aggregation": "max", "by": "queue"})
    with pytest.raises(ValueError, match="does not apply to a gauge"):
        model.model_validate({"metric": "queue_depth", "aggregation": "rate"})


def test_by_works_with_every_aggregation_the_description_says_it_groups(clock: ManualClock) -> None:
    """The description, the schema and the tool agree: ``by`` groups rate too (summed per value of the label)."""
    spec = query_metrics_spec(MetricsToolSettings().metrics, MetricsBudget())
    assert "by — optional label to group rate, sum, avg, max or a percentile by" in spec.description
    by = spec.parameters_schema()["properties"]["by"]["description"]
    assert by.startswith("Optional label to group rate, sum, avg, max or a percentile by")
    for arguments in (
        {**CALLBACKS, "by": "outcome"},
        {"metric": REQUESTS["metric"], "aggregation": "rate", "by": "status"},
    ):
        source = ScriptedSource()
        raw = make_tool(clock, source=source).run("call-1", arguments)
        assert failure_of(raw) is None, raw
        assert raw["scope"]["promql"].startswith(f"sum by ({arguments['by']}) (rate(")
        assert raw["scope"]["aggregation"] == "rate" and raw["scope"]["by"] == arguments["by"]
