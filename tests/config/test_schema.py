"""The rules of the configuration schema, exercised through the loader as a YAML file would be."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from config.app import AppConfig
from config.env_refs import Secret
from config.harness import FIXED_MAX_ATTEMPTS
from config.loader import ConfigError, ConfigIssue, parse_config
from tools.registry import DEFAULT_CALLS_PER_TOOL

SEED_DATA_SOURCE = """
harness:
  mysql-tools:
    data-sources:
      order_readonly:
        jdbc-url: ${ORDER_MYSQL_JDBC_URL}
        username: ${ORDER_MYSQL_USERNAME}
        password: ${ORDER_MYSQL_PASSWORD}
        default-schema: order_db
        allowed-schemas:
          order_db:
            tables:
              biz_order:
                columns:
                  - order_id
                  - user_id
                  - payment_status
                  - created_at
                  - updated_at
              payment_record:
                columns:
                  - payment_id
                  - order_id
                  - channel
                  - status
                  - created_at
                  - updated_at
"""
"""The data source of the specification, §9.1, verbatim."""

SEED_ENV = {
    "ORDER_MYSQL_JDBC_URL": "jdbc:mysql://db.internal:3306/order_db",
    "ORDER_MYSQL_USERNAME": "diag_ro",
    "ORDER_MYSQL_PASSWORD": "pa55-Wd-never-shown",
}

DATA_SOURCE = "harness.mysql-tools.data-sources.order_readonly"


def load(data: dict[str, Any], environ: dict[str, str] | None = None) -> AppConfig:
    return parse_config(yaml.safe_dump(data), environ or {})


def nested(path: str, value: Any) -> dict[str, Any]:
    """``nested("a.b", 1)`` -> ``{"a": {"b": 1}}``."""
    data: Any = value
    for part in reversed(path.split(".")):
        data = {part: data}
    return data


def value_at(config: Any, path: str) -> Any:
    """Follow a YAML key path (``harness.evidence.max-run-bytes``) through the loaded objects."""
    node = config
    for part in path.split("."):
        node = node[part] if isinstance(node, dict) else getattr(node, part.replace("-", "_"))
    return node


def seed_data_source() -> dict[str, Any]:
    return yaml.safe_load(SEED_DATA_SOURCE)


def data_source_with(path: str, value: Any) -> dict[str, Any]:
    """The seed's data source with one key (relative to the data source) replaced."""
    data = seed_data_source()
    node = data["harness"]["mysql-tools"]["data-sources"]["order_readonly"]
    *parents, last = path.split(".")
    for part in parents:
        node = node[part]
    node[last] = value
    return data


def rejected(
    data: dict[str, Any], location: str, *fragments: str, environ: dict[str, str] | None = None
) -> ConfigIssue:
    """Loading fails with an issue at ``location`` whose message holds every fragment; the error names it."""
    with pytest.raises(ConfigError) as caught:
        load(data, environ)
    matching = [issue for issue in caught.value.issues if issue.location == location]
    assert matching, f"no issue at {location}: {caught.value.issues}"
    [issue] = matching
    for fragment in fragments:
        assert fragment in issue.message
    assert f"{location}: {issue.message}" in str(caught.value)
    return issue


# -- the budgets of the specification, §4.2 "预算配置" -----------------------------------------------------

SEED_BUDGETS = [
    # main agent: model calls, total tool calls, per-tool calls, context/tokens, total time
    ("harness.agent.max-model-calls", 7, 7),
    ("harness.agent.max-tool-calls", 9, 9),
    ("harness.agent.max-tool-calls-per-tool.lookup_knowledge", 2, 2),
    ("harness.agent.max-tool-calls-per-tool.query_logs", 3, 3),
    ("harness.agent.max-tool-calls-per-tool.query_mysql", 4, 4),
    ("harness.agent.max-total-tokens", 32000, 32000),
    ("harness.agent.max-duration", "90s", 90.0),
    # SemanticGuard: per-attempt timeout, total time, input size
    ("harness.semantic-guard.attempt-timeout", "10s", 10.0),
    ("harness.semantic-guard.total-timeout", "30s", 30.0),
    ("harness.semantic-guard.max-input-bytes", "32KB", 32 * 1024),
    # RAG: evidence count, excerpt length, total characters
    ("harness.rag.max-evidence", 3, 3),
    ("harness.rag.max-excerpt-chars", 400, 400),
    ("harness.rag.max-total-chars", 2000, 2000),
    # logs: patterns, events, message length, lookback, total characters
    ("harness.logs.max-patterns", 4, 4),
    ("harness.logs.max-events", 5, 5),
    ("harness.logs.max-message-chars", 200, 200),
    ("harness.logs.default-lookback", "15m", 900.0),
    ("harness.logs.max-lookback", "12h", 43200.0),
    ("harness.logs.max-total-chars", 4000, 4000),
    # MySQL: rows, cell length, total bytes, query timeout
    ("harness.mysql.max-rows", 20, 20),
    ("harness.mysql.max-cell-chars", 128, 128),
    ("harness.mysql.max-total-bytes", "16KB", 16 * 1024),
    ("harness.mysql.query-timeout", "3s", 3.0),
    # the Redis invocation store: key prefix, TTL, record / agent projection / run caps
    ("harness.evidence.key-prefix", "acme:harness:tool-call", "acme:harness:tool-call"),
    ("harness.evidence.ttl", "3h", 10800.0),
    ("harness.evidence.max-record-bytes", "2MB", 2 * 1024**2),
    ("harness.evidence.max-agent-result-bytes", "32KB", 32 * 1024),
    ("harness.evidence.max-run-bytes", "10MB", 10 * 1024**2),
    # the run itself
    ("harness.run.deadline", "150s", 150.0),
]
SEED_BUDGET_PATHS = [path for path, _, _ in SEED_BUDGETS]
NUMERIC_BUDGETS = [(path, value) for path, value, _ in SEED_BUDGETS if path != "harness.evidence.key-prefix"]


@pytest.mark.parametrize("path", SEED_BUDGET_PATHS)
def test_every_seed_budget_exists_with_a_positive_default(path: str) -> None:
    default = value_at(AppConfig(), path)

    if isinstance(default, str):
        assert default
    else:
        assert not isinstance(default, bool)
        assert isinstance(default, int | float)
        assert default > 0


@pytest.mark.parametrize(("path", "value", "expected"), SEED_BUDGETS)
def test_every_seed_budget_can_be_set_in_yaml(path: str, value: Any, expected: Any) -> None:
    assert value_at(load(nested(path, value)), path) == expected


def test_seed_evidence_store_defaults() -> None:
    evidence = AppConfig().harness.evidence

    assert evidence.key_prefix == "superbiz:harness:tool-call"
    assert evidence.ttl == 2 * 3600
    assert (evidence.max_record_bytes, evidence.max_agent_result_bytes, evidence.max_run_bytes) == (
        1024**2,
        64 * 1024,
        5 * 1024**2,
    )


@pytest.mark.parametrize(("path", "example"), NUMERIC_BUDGETS)
def test_a_zero_budget_is_rejected(path: str, example: Any) -> None:
    zero = 0 if isinstance(example, int) else "0s" if example.endswith(("s", "m", "h")) else "0B"

    rejected(nested(path, zero), path, "greater than 0")


@pytest.mark.parametrize(("path", "example"), NUMERIC_BUDGETS)
def test_a_negative_budget_is_rejected(path: str, example: Any) -> None:
    negative = -1 if isinstance(example, int) else f"-{example}"

    rejected(nested(path, negative), path)


def test_a_size_written_as_a_bare_integer_is_bytes() -> None:
    assert load(nested("harness.mysql.max-total-bytes", 4096)).harness.mysql.max_total_bytes == 4096


@pytest.mark.parametrize("value", [30, "30", "30 seconds", "1w"])
def test_a_duration_needs_its_unit(value: Any) -> None:
    rejected(nested("harness.mysql.query-timeout", value), "harness.mysql.query-timeout", "unit")


@pytest.mark.parametrize("value", ["lots", "1TB", 1.5])
def test_a_size_needs_a_known_unit(value: Any) -> None:
    rejected(nested("harness.evidence.max-run-bytes", value), "harness.evidence.max-run-bytes", "size")


@pytest.mark.parametrize("value", ["x", 2.5, "twelve", [3]])
def test_a_count_must_be_an_integer(value: Any) -> None:
    rejected(nested("harness.rag.max-evidence", value), "harness.rag.max-evidence")


@pytest.mark.parametrize("prefix", ["", "has space", "a::b", ":a", "a:", "a/b"])
def test_key_prefix_must_be_colon_separated_words(prefix: str) -> None:
    rejected(nested("harness.evidence.key-prefix", prefix), "harness.evidence.key-prefix")


def test_per_tool_limits_take_any_tool_name_but_a_malformed_one() -> None:
    config = load(nested("harness.agent.max-tool-calls-per-tool", {"my_tool": 1}))
    assert config.harness.agent.max_tool_calls_per_tool["my_tool"] == 1
    rejected(
        nested("harness.agent.max-tool-calls-per-tool", {"Drop Table": 1}),
        "harness.agent.max-tool-calls-per-tool.Drop Table.[key]",
    )


# -- the retry matrix --------------------------------------------------------------------------------------


def test_the_fixed_retry_matrix_is_the_specifications() -> None:
    assert FIXED_MAX_ATTEMPTS == {
        "intent_router": 2,
        "diagnosis_agent": 1,
        "tool_call": 1,
        "semantic_guard": 2,
        "evidence_repair": 1,
    }
    retry = AppConfig().harness.retry
    assert {name: getattr(retry, name).max_attempts for name in FIXED_MAX_ATTEMPTS} == FIXED_MAX_ATTEMPTS


@pytest.mark.parametrize(("name", "ceiling"), FIXED_MAX_ATTEMPTS.items())
def test_retry_attempts_may_equal_the_matrix(name: str, ceiling: int) -> None:
    key = name.replace("_", "-")
    config = load(nested(f"harness.retry.{key}.max-attempts", ceiling))

    assert getattr(config.harness.retry, name).max_attempts == ceiling


@pytest.mark.parametrize("name", [name for name, ceiling in FIXED_MAX_ATTEMPTS.items() if ceiling > 1])
def test_retry_attempts_may_be_lowered(name: str) -> None:
    key = name.replace("_", "-")
    config = load(nested(f"harness.retry.{key}.max-attempts", 1))

    assert getattr(config.harness.retry, name).max_attempts == 1


@pytest.mark.parametrize(("name", "ceiling"), FIXED_MAX_ATTEMPTS.items())
def test_retry_attempts_above_the_matrix_are_rejected(name: str, ceiling: int) -> None:
    key = name.replace("_", "-")

    rejected(
        nested(f"harness.retry.{key}.max-attempts", ceiling + 1),
        "harness.retry",
        f"{key}.max-attempts",
        f"at most {ceiling}",
    )


@pytest.mark.parametrize("name", [name for name in FIXED_MAX_ATTEMPTS if name != "evidence_repair"])
def test_retry_attempts_must_be_positive(name: str) -> None:
    key = name.replace("_", "-")
    path = f"harness.retry.{key}.max-attempts"

    rejected(nested(path, 0), path, "greater than 0")


def test_the_repair_turn_may_be_turned_off_but_not_made_negative() -> None:
    path = "harness.retry.evidence-repair.max-attempts"

    assert load(nested(path, 0)).harness.retry.evidence_repair.max_attempts == 0
    rejected(nested(path, -1), path, "greater than or equal to 0")


def test_a_retry_entry_needs_max_attempts() -> None:
    rejected(nested("harness.retry.tool-call", {}), "harness.retry.tool-call.max-attempts", "required")


# -- cross-field rules -------------------------------------------------------------------------------------


def test_semantic_guard_total_may_equal_the_attempt_timeout() -> None:
    config = load(nested("harness.semantic-guard", {"attempt-timeout": "30s", "total-timeout": "30s"}))

    assert config.harness.semantic_guard.total_timeout == 30.0


def test_semantic_guard_total_below_the_attempt_timeout_is_rejected() -> None:
    rejected(
        nested("harness.semantic-guard", {"attempt-timeout": "30s", "total-timeout": "29s"}),
        "harness.semantic-guard",
        "total-timeout",
        "attempt-timeout",
    )


def test_agent_duration_may_take_what_routing_and_the_guard_leave_of_the_run_deadline() -> None:
    """router 2×10s + agent + guard 2×20s may equal the deadline (issue 19)."""
    config = load({"harness": {"run": {"deadline": "100s"}, "agent": {"max-duration": "40s"}}})

    assert config.harness.time_plan().total_s == config.harness.run.deadline == 100.0


def test_time_budgets_beyond_the_run_deadline_are_rejected_with_their_sum() -> None:
    rejected(
        {"harness": {"run": {"deadline": "100s"}, "agent": {"max-duration": "41s"}}},
        "harness",
        "router 2×10s + agent 41s (repair included) + guard 2×20s = 101s > harness.run.deadline 100s",
    )
    base = {"run": {"deadline": "100s"}, "agent": {"max-duration": "41s"}}
    one_router_attempt = {**base, "retry": {"intent-router": {"max-attempts": 1}}}
    assert load({"harness": one_router_attempt}).harness.time_plan().total_s == 91.0
    short_guard = load({"harness": {**base, "semantic-guard": {"total-timeout": "30s"}}}).harness.time_plan()
    assert (short_guard.total_s, short_guard.describe()) == (
        91.0,
        "router 2×10s + agent 41s (repair included) + guard 30s (total-timeout) = 91s",
    )


def test_agent_duration_beyond_the_run_deadline_is_rejected() -> None:
    rejected(
        {"harness": {"run": {"deadline": "60s"}, "agent": {"max-duration": "61s"}}},
        "harness",
        "agent.max-duration",
        "run.deadline",
    )


def test_the_final_call_reserve_is_part_of_the_agents_time() -> None:
    agent = load({}).harness.agent
    assert (agent.max_duration, agent.final_call_reserve) == (180.0, 90.0)
    config = load({"harness": {"agent": {"max-duration": "2m", "final-call-reserve": "50s"}}})
    assert config.harness.agent.final_call_reserve == 50.0


@pytest.mark.parametrize("reserve", ["60s", "61s"])
def test_a_reserve_that_leaves_no_time_for_tools_is_rejected(reserve: str) -> None:
    data = {"harness": {"agent": {"max-duration": "60s", "final-call-reserve": reserve}}}
    rejected(data, "harness.agent", "final-call-reserve", "max-duration")


def test_a_shorter_agent_keeps_half_of_its_time_for_the_draft_when_no_reserve_is_given() -> None:
    assert load({"harness": {"agent": {"max-duration": "1s"}}}).harness.agent.final_call_reserve == 0.5
    longer = {"harness": {"run": {"deadline": "10m"}, "agent": {"max_duration": "5m"}}}
    assert load(longer).harness.agent.final_call_reserve == 90.0


def test_a_shorter_deadline_gives_the_agent_what_routing_and_the_guard_leave() -> None:
    harness = load({"harness": {"run": {"deadline": "150s"}}}).harness
    # router 2×10s, guard 2×20s (under its 45s total-timeout)
    assert (harness.agent.max_duration, harness.agent.final_call_reserve) == (150.0 - 20 - 40, 45.0)
    guard = {"attempt-timeout": "10s", "total-timeout": "20s"}
    harness = load({"harness": {"run": {"deadline": "150s"}, "semantic-guard": guard}}).harness
    assert harness.agent.max_duration == 150.0 - 2 * 10 - 2 * 10  # the router's and the guard's attempts
    assert harness.time_plan().total_s == 150.0
    given = load({"harness": {"run": {"deadline": "150s"}, "agent": {"max-duration": "80s"}}}).harness
    assert given.agent.max_duration == 80.0  # what the file says stands


def test_the_default_time_budgets_fit_inside_the_run_deadline() -> None:
    harness = load({}).harness
    assert harness.time_plan().describe() == "router 2×10s + agent 180s (repair included) + guard 2×20s = 240s"
    assert harness.time_plan().total_s <= harness.run.deadline == 240.0
    explicit = load({"harness": {"run": {"deadline": "240s"}}}).harness
    assert explicit.agent.max_duration == 180.0  # the defaults written out derive the default agent time


def test_semantic_guard_total_beyond_the_run_deadline_is_rejected() -> None:
    data = {
        "harness": {
            "run": {"deadline": "40s"},
            "agent": {"max-duration": "30s"},
            "semantic-guard": {"attempt-timeout": "20s", "total-timeout": "41s"},
        }
    }

    rejected(data, "harness", "semantic-guard.total-timeout", "run.deadline")


def test_evidence_ttl_may_be_the_deadline_plus_five_minutes() -> None:
    config = load({"harness": {"run": {"deadline": "180s"}, "evidence": {"ttl": "8m"}}})

    assert config.harness.evidence.ttl == 180 + 300


@pytest.mark.parametrize(
    "harness",
    [
        {"run": {"deadline": "180s"}, "evidence": {"ttl": "479s"}},
        {"run": {"deadline": "2h"}},
        {"evidence": {"ttl": "1m"}},
    ],
)
def test_evidence_ttl_shorter_than_the_deadline_plus_five_minutes_is_rejected(harness: dict[str, Any]) -> None:
    rejected({"harness": harness}, "harness", "evidence.ttl", "run.deadline", "5m")


def test_evidence_caps_may_be_equal() -> None:
    caps = {"max-agent-result-bytes": "1MB", "max-record-bytes": "1MB", "max-run-bytes": "1MB"}

    assert load(nested("harness.evidence", caps)).harness.evidence.max_run_bytes == 1024**2


def test_agent_result_cap_above_the_record_cap_is_rejected() -> None:
    rejected(
        nested("harness.evidence", {"max-agent-result-bytes": "2MB"}),
        "harness.evidence",
        "max-agent-result-bytes",
        "max-record-bytes",
    )


def test_record_cap_above_the_run_cap_is_rejected() -> None:
    rejected(
        nested("harness.evidence", {"max-record-bytes": "6MB"}),
        "harness.evidence",
        "max-record-bytes",
        "max-run-bytes",
    )


def test_default_lookback_may_equal_max_lookback() -> None:
    config = load(nested("harness.logs", {"default-lookback": "1h", "max-lookback": "60m"}))

    assert config.harness.logs.default_lookback == config.harness.logs.max_lookback


def test_default_lookback_beyond_max_lookback_is_rejected() -> None:
    rejected(
        nested("harness.logs", {"default-lookback": "2h", "max-lookback": "1h"}),
        "harness.logs",
        "default-lookback",
        "max-lookback",
    )


# -- keys --------------------------------------------------------------------------------------------------


def test_snake_case_keys_load_like_kebab_case_keys() -> None:
    snake = textwrap.dedent(
        """
        harness:
          semantic_guard:
            attempt_timeout: 10s
          mysql_tools:
            data_sources:
              order_readonly:
                jdbc_url: ${ORDER_MYSQL_JDBC_URL}
                default_schema: order_db
                allowed_schemas:
                  order_db:
                    tables:
                      biz_order:
                        columns: [order_id]
        """
    )
    kebab = snake.replace("semantic_guard", "semantic-guard").replace("attempt_timeout", "attempt-timeout")
    for snake_key in ("mysql_tools", "data_sources", "jdbc_url", "default_schema", "allowed_schemas"):
        kebab = kebab.replace(snake_key, snake_key.replace("_", "-"))

    assert parse_config(snake, SEED_ENV) == parse_config(kebab, SEED_ENV)
    assert parse_config(snake, SEED_ENV).harness.semantic_guard.attempt_timeout == 10.0


def test_kebab_and_snake_spelling_of_one_key_is_rejected() -> None:
    rejected({"harness": {"rag": {"max-evidence": 3, "max_evidence": 4}}}, "harness.rag", "max-evidence", "twice")


def test_kebab_and_snake_spelling_of_one_section_is_rejected() -> None:
    rejected({"harness": {"semantic-guard": {}, "semantic_guard": {}}}, "harness", "semantic-guard", "twice")


def test_mixed_spelling_is_not_normalised_inside_user_named_maps() -> None:
    # Tool names and data source ids are names, not keys of the schema: they keep their spelling.
    config = load(nested("harness.agent.max-tool-calls-per-tool", {"query_logs": 2}))

    assert config.harness.agent.max_tool_calls_per_tool == {**DEFAULT_CALLS_PER_TOOL, "query_logs": 2}


@pytest.mark.parametrize(
    ("data", "location"),
    [
        ({"harnes": {}}, "harnes"),
        (nested("harness.timeout", "5s"), "harness.timeout"),
        (nested("harness.evidence.compress", True), "harness.evidence.compress"),
        (nested("harness.retry.tool-call.backoff", "1s"), "harness.retry.tool-call.backoff"),
        (nested("harness.logs.max-event", 3), "harness.logs.max-event"),
        (nested("redis.db", 0), "redis.db"),
        (data_source_with("pool-sizes", 4), f"{DATA_SOURCE}.pool-sizes"),
        (data_source_with("allowed-schemas.order_db.views", []), f"{DATA_SOURCE}.allowed-schemas.order_db.views"),
        (
            data_source_with("allowed-schemas.order_db.tables.biz_order.where", "1=1"),
            f"{DATA_SOURCE}.allowed-schemas.order_db.tables.biz_order.where",
        ),
    ],
)
def test_unknown_keys_are_rejected_at_any_depth(data: dict[str, Any], location: str) -> None:
    issue = rejected(data, location, environ=SEED_ENV)

    assert issue.message == "unknown key"


def test_the_configuration_is_frozen() -> None:
    config = AppConfig()

    with pytest.raises(ValidationError):
        config.harness.rag.max_evidence = 100  # type: ignore[misc]


# -- the MySQL data source of §9.1 -------------------------------------------------------------------------


def test_the_seed_data_source_loads_with_its_environment() -> None:
    config = parse_config(SEED_DATA_SOURCE, SEED_ENV)

    source = config.harness.mysql_tools.data_sources["order_readonly"]
    assert source.jdbc_url.reveal() == SEED_ENV["ORDER_MYSQL_JDBC_URL"]
    assert source.username is not None and source.username.reveal() == "diag_ro"
    assert source.password is not None and source.password.reveal() == SEED_ENV["ORDER_MYSQL_PASSWORD"]
    assert source.default_schema == "order_db"
    tables = source.allowed_schemas["order_db"].tables
    assert set(tables) == {"biz_order", "payment_record"}
    assert tables["payment_record"].columns == [
        "payment_id",
        "order_id",
        "channel",
        "status",
        "created_at",
        "updated_at",
    ]


def test_data_source_credentials_are_optional_but_the_url_is_not() -> None:
    data = seed_data_source()
    source = data["harness"]["mysql-tools"]["data-sources"]["order_readonly"]
    del source["username"], source["password"]

    loaded = load(data, SEED_ENV).harness.mysql_tools.data_sources["order_readonly"]
    assert (loaded.username, loaded.password) == (None, None)

    del source["jdbc-url"]
    rejected(data, DATA_SOURCE, "driver mysql needs jdbc-url")


def test_sqlite_driver_takes_a_path_not_a_jdbc_url() -> None:
    data = seed_data_source()
    source = data["harness"]["mysql-tools"]["data-sources"]["order_readonly"]
    source["driver"] = "sqlite"
    rejected(data, DATA_SOURCE, "driver sqlite takes sqlite-path", environ=SEED_ENV)
    del source["jdbc-url"], source["username"], source["password"]
    loaded = load(data).harness.mysql_tools.data_sources["order_readonly"]
    assert (loaded.driver, loaded.sqlite_path) == ("sqlite", None)


@pytest.mark.parametrize("key", ["jdbc-url", "username", "password"])
def test_data_source_credentials_must_be_environment_references(key: str) -> None:
    issue = rejected(
        data_source_with(key, "plain-text-credential"), f"{DATA_SOURCE}.{key}", "${ENV_VAR}", environ=SEED_ENV
    )

    assert "plain-text-credential" not in issue.message


@pytest.mark.parametrize(
    "written",
    [
        "pw-${ORDER_MYSQL_PASSWORD}",  # a literal around a reference
        "${ORDER_MYSQL_PASSWORD}${ORDER_MYSQL_USERNAME}",  # two references
        "${UNSET_PASSWORD:-hunter2}",  # a literal default
        "${not a reference}",  # no reference at all
        "${ORDER_MYSQL_PASSWORD",
    ],
)
def test_a_credential_must_be_one_whole_reference(written: str) -> None:
    rejected(data_source_with("password", written), f"{DATA_SOURCE}.password", "${ENV_VAR}", environ=SEED_ENV)


def test_a_credential_reference_may_have_an_empty_default() -> None:
    config = load(data_source_with("password", "${UNSET_PASSWORD:-}"), SEED_ENV)

    password = config.harness.mysql_tools.data_sources["order_readonly"].password
    assert password is not None and password.reveal() == ""


@pytest.mark.parametrize("value", [12345, True, ["a"]])
def test_a_credential_that_is_not_a_string_is_rejected(value: Any) -> None:
    rejected(data_source_with("password", value), f"{DATA_SOURCE}.password", "${ENV_VAR}", environ=SEED_ENV)


def test_default_schema_must_be_an_allowed_schema() -> None:
    rejected(
        data_source_with("default-schema", "billing_db"),
        DATA_SOURCE,
        "default-schema",
        "allowed-schemas",
        environ=SEED_ENV,
    )


def test_default_schema_is_required() -> None:
    data = seed_data_source()
    del data["harness"]["mysql-tools"]["data-sources"]["order_readonly"]["default-schema"]

    rejected(data, f"{DATA_SOURCE}.default-schema", "required", environ=SEED_ENV)


@pytest.mark.parametrize(
    ("path", "value", "location"),
    [
        ("allowed-schemas", {}, "allowed-schemas"),
        ("allowed-schemas.order_db.tables", {}, "allowed-schemas.order_db.tables"),
        ("allowed-schemas.order_db.tables.biz_order.columns", [], "allowed-schemas.order_db.tables.biz_order.columns"),
    ],
)
def test_an_allowlist_level_may_not_be_empty(path: str, value: Any, location: str) -> None:
    rejected(data_source_with(path, value), f"{DATA_SOURCE}.{location}", environ=SEED_ENV)


@pytest.mark.parametrize("column", ["*", "order.*", "order id", "1st", "created_at;drop", "x" * 65])
def test_allowlisted_columns_are_exact_identifiers(column: str) -> None:
    path = "allowed-schemas.order_db.tables.biz_order.columns"

    rejected(data_source_with(path, ["order_id", column]), f"{DATA_SOURCE}.{path}.1", "pattern", environ=SEED_ENV)


def test_allowlisted_table_names_are_identifiers() -> None:
    data = data_source_with("allowed-schemas.order_db.tables", {"biz-order": {"columns": ["order_id"]}})

    rejected(data, f"{DATA_SOURCE}.allowed-schemas.order_db.tables.biz-order.[key]", "pattern", environ=SEED_ENV)


def test_data_source_ids_are_identifiers() -> None:
    data = seed_data_source()
    sources = data["harness"]["mysql-tools"]["data-sources"]
    sources["order-readonly"] = sources.pop("order_readonly")

    rejected(data, "harness.mysql-tools.data-sources.order-readonly.[key]", "pattern", environ=SEED_ENV)


# -- Redis -------------------------------------------------------------------------------------------------


def test_redis_defaults_to_the_in_process_fake() -> None:
    redis = AppConfig().redis

    assert (redis.url, redis.username, redis.password) == ("fakeredis://", None, None)


@pytest.mark.parametrize(
    "url", ["redis://localhost:6379/0", "rediss://cache.internal:6380", "unix:///run/redis.sock", "fakeredis://"]
)
def test_redis_accepts_its_url_schemes(url: str) -> None:
    assert load(nested("redis.url", url)).redis.url == url


@pytest.mark.parametrize("url", ["http://localhost:6379", "localhost:6379", "", "mysql://db"])
def test_redis_rejects_other_url_schemes(url: str) -> None:
    rejected(nested("redis.url", url), "redis", "url", "redis://")


@pytest.mark.parametrize(
    "url", ["redis://:s3cr3t-in-url@cache:6379", "redis://harness:s3cr3t-in-url@cache", "rediss://harness@cache"]
)
def test_redis_url_must_not_carry_credentials(url: str) -> None:
    issue = rejected(nested("redis.url", url), "redis", "url", "credentials")

    assert "s3cr3t-in-url" not in issue.message


def test_redis_password_is_a_secret_reference() -> None:
    config = load(
        {"redis": {"url": "redis://cache", "username": "harness", "password": "${REDIS_PASSWORD}"}},
        {"REDIS_PASSWORD": "r3dis-pw"},
    )

    assert config.redis.username == "harness"
    assert isinstance(config.redis.password, Secret)
    assert config.redis.password.reveal() == "r3dis-pw"


def test_a_literal_redis_password_is_rejected() -> None:
    rejected(nested("redis.password", "r3dis-pw"), "redis.password", "${ENV_VAR}")


@pytest.mark.parametrize("flag", [True, False])
def test_true_or_false_is_not_a_count(flag: bool) -> None:
    with pytest.raises(ConfigError) as raised:
        load(nested("harness.mysql.max-rows", flag))
    assert "harness.mysql.max-rows" in str(raised.value)


def test_naming_one_tool_keeps_the_other_tools_defaults() -> None:
    config = load(nested("harness.agent.max-tool-calls-per-tool", {"query_mysql": 2}))
    assert config.harness.agent.max_tool_calls_per_tool == {**DEFAULT_CALLS_PER_TOOL, "query_mysql": 2}


# -- placement on a Ray cluster ----------------------------------------------------------------------------


def test_custom_resources_place_the_harness_actors_and_each_tool() -> None:
    config = load(
        {
            "ray": {"resources": {"harness": 0.01}},
            "tools": {"query_mysql": {"concurrency": 2, "max-pending": 8, "resources": {"mysql_access": 0.01}}},
        }
    )
    assert config.ray.resources == {"harness": 0.01}
    assert config.tools.query_mysql.resources == {"mysql_access": 0.01}
    assert config.tools.query_logs.resources == {}


@pytest.mark.parametrize("path", ["ray.resources", "tools.query_logs.resources"])
def test_a_resource_needs_a_positive_amount(path: str) -> None:
    data = nested(path, {"harness": 0})
    if path.startswith("tools"):
        data["tools"]["query_logs"].update({"concurrency": 1, "max-pending": 1})
    rejected(data, f"{path}.harness")


def test_a_resource_name_is_an_identifier() -> None:
    rejected(nested("ray.resources", {"mysql access": 1}), "ray.resources.mysql access.[key]")
