"""Finding, reading and interpolating the configuration file; the errors it raises; ``dump_config``."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
import yaml

from config import AppConfig, ConfigError, dump_config, load_config
from config.loader import BUNDLED_DEFAULT, CONFIG_ENV_VAR, ConfigIssue, parse_config, resolve_path
from tools.registry import DEFAULT_CALLS_PER_TOOL

PASSWORD = "Tr0ub4dor&3-never-printed"
REDIS_PASSWORD = "r3dis-pa55-never-printed"

FULL = """
harness:
  run:
    deadline: ${RUN_DEADLINE:-150s}
  agent:
    max-tool-calls-per-tool:
      query_mysql: ${MAX_MYSQL_CALLS}
  logs:
    default-lookback: 15m
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
                columns: [order_id, payment_status]
redis:
  url: redis://${REDIS_HOST}:6379/0
  username: harness
  password: ${REDIS_PASSWORD}
"""
"""A configuration touching every kind of value: durations, sizes, names, secrets, defaults."""

ENV = {
    "MAX_MYSQL_CALLS": "3",
    "ORDER_MYSQL_JDBC_URL": "jdbc:mysql://db.internal:3306/order_db",
    "ORDER_MYSQL_USERNAME": "diag_ro",
    "ORDER_MYSQL_PASSWORD": PASSWORD,
    "REDIS_HOST": "cache.internal",
    "REDIS_PASSWORD": REDIS_PASSWORD,
}


def write(tmp_path: Path, text: str, name: str = "superbiz.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def parse_error(text: str, environ: dict[str, str] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        parse_config(textwrap.dedent(text), environ or {})
    return caught.value


# -- the bundled default and where the file comes from -----------------------------------------------------


def test_the_bundled_default_loads() -> None:
    config = load_config(BUNDLED_DEFAULT, environ={})

    assert isinstance(config, AppConfig)
    assert config.redis.url == "fakeredis://"
    [(name, source)] = config.harness.mysql_tools.data_sources.items()
    assert (name, source.driver, source.default_schema) == ("order_readonly", "sqlite", "order_db")
    assert config.harness == AppConfig().harness.model_copy(update={"mysql_tools": config.harness.mysql_tools})


def test_the_bundled_default_is_the_fallback() -> None:
    assert load_config(environ={}) == load_config(BUNDLED_DEFAULT, environ={})


def test_the_bundled_default_takes_its_redis_url_from_the_environment() -> None:
    config = load_config(environ={"SUPERBIZ_REDIS_URL": "redis://cache.internal:6379/2"})

    assert config.redis.url == "redis://cache.internal:6379/2"


def test_the_bundled_default_is_packaged_beside_the_loader() -> None:
    import config as package

    assert Path(package.__file__).with_name("default.yaml") == BUNDLED_DEFAULT
    assert BUNDLED_DEFAULT.is_file()


def test_resolution_order_is_explicit_then_environment_then_bundled(tmp_path: Path) -> None:
    explicit, from_env = tmp_path / "explicit.yaml", tmp_path / "env.yaml"

    assert resolve_path(explicit, {CONFIG_ENV_VAR: str(from_env)}) == explicit
    assert resolve_path(str(explicit), {}) == explicit
    assert resolve_path(None, {CONFIG_ENV_VAR: str(from_env)}) == from_env
    assert resolve_path(None, {CONFIG_ENV_VAR: ""}) == BUNDLED_DEFAULT
    assert resolve_path(None, {}) == BUNDLED_DEFAULT


def test_an_explicit_path_is_loaded(tmp_path: Path) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 2\n")

    assert load_config(path, environ={}).harness.rag.max_evidence == 2
    assert load_config(str(path), environ={}).harness.rag.max_evidence == 2


def test_superbiz_config_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 3\n")
    monkeypatch.setenv(CONFIG_ENV_VAR, str(path))

    assert load_config().harness.rag.max_evidence == 3


def test_an_explicit_path_wins_over_superbiz_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    explicit = write(tmp_path, "harness:\n  rag:\n    max-evidence: 2\n", "explicit.yaml")
    monkeypatch.setenv(CONFIG_ENV_VAR, str(write(tmp_path, "harness:\n  rag:\n    max-evidence: 3\n", "env.yaml")))

    assert load_config(explicit).harness.rag.max_evidence == 2


def test_without_superbiz_config_the_bundled_default_loads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV_VAR, raising=False)
    monkeypatch.delenv("SUPERBIZ_REDIS_URL", raising=False)

    assert load_config() == load_config(BUNDLED_DEFAULT, environ={})


def test_a_missing_file_is_a_config_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.yaml"

    with pytest.raises(ConfigError) as caught:
        load_config(missing, environ={})

    assert caught.value.source == str(missing)
    assert str(missing) in str(caught.value)
    assert "cannot read" in str(caught.value)


def test_a_directory_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path, environ={})


# -- YAML --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "# only a comment\n", "{}\n"])
def test_an_empty_file_is_all_defaults(text: str) -> None:
    assert parse_config(text, {}) == AppConfig()


def test_invalid_yaml_names_the_position_not_the_text() -> None:
    error = parse_error("harness:\n  rag: [unclosed-Tr0ub4dor\n  logs: {}\n")

    assert "not valid YAML at line" in str(error)
    assert "Tr0ub4dor" not in str(error)


@pytest.mark.parametrize("text", ["- harness\n", "just text\n", "42\n"])
def test_the_top_level_must_be_a_mapping(text: str) -> None:
    error = parse_error(text)

    assert [issue.message for issue in error.issues] == ["the top level must be a mapping"]


def test_a_config_error_lists_one_issue_per_line_with_its_location() -> None:
    error = parse_error(
        """
        harness:
          rag:
            max-evidence: 0
          logs:
            max-events: -1
        """
    )

    assert all(isinstance(issue, ConfigIssue) for issue in error.issues)
    assert [issue.location for issue in error.issues] == ["harness.rag.max-evidence", "harness.logs.max-events"]
    lines = str(error).splitlines()
    assert lines[0] == "invalid configuration <string>:"
    assert lines[1:] == [f"  {issue}" for issue in error.issues]
    assert str(error.issues[0]) == "harness.rag.max-evidence: Input should be greater than 0"


def test_a_config_error_from_a_file_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "harness:\n  rag:\n    max-evidence: 0\n")

    with pytest.raises(ConfigError) as caught:
        load_config(path, environ={})

    assert str(caught.value).startswith(f"invalid configuration {path}:")


# -- interpolation -----------------------------------------------------------------------------------------


def test_a_reference_is_replaced_by_the_variable() -> None:
    config = parse_config("harness:\n  mysql:\n    query-timeout: ${QUERY_TIMEOUT}\n", {"QUERY_TIMEOUT": "7s"})

    assert config.harness.mysql.query_timeout == 7.0


def test_a_default_is_used_when_the_variable_is_unset() -> None:
    text = "harness:\n  mysql:\n    query-timeout: ${QUERY_TIMEOUT:-9s}\n"

    assert parse_config(text, {}).harness.mysql.query_timeout == 9.0
    assert parse_config(text, {"QUERY_TIMEOUT": "2s"}).harness.mysql.query_timeout == 2.0


def test_references_interpolate_inside_a_longer_string_and_in_lists() -> None:
    config = parse_config(textwrap.dedent(FULL), ENV)

    assert config.redis.url == "redis://cache.internal:6379/0"
    assert config.harness.run.deadline == 150.0
    assert config.harness.agent.max_tool_calls_per_tool == {**DEFAULT_CALLS_PER_TOOL, "query_mysql": 3}

    listed = FULL.replace("[order_id, payment_status]", "[order_id, '${EXTRA_COLUMN}']")
    config = parse_config(textwrap.dedent(listed), {**ENV, "EXTRA_COLUMN": "paid_at"})
    columns = config.harness.mysql_tools.data_sources["order_readonly"].allowed_schemas["order_db"]
    assert columns.tables["biz_order"].columns == ["order_id", "paid_at"]


def test_a_missing_variable_is_named_with_the_field() -> None:
    error = parse_error("harness:\n  mysql:\n    query-timeout: ${QUERY_TIMEOUT}\n")

    [issue] = error.issues
    assert issue.location == "harness.mysql.query-timeout"
    assert "QUERY_TIMEOUT" in issue.message
    assert "harness.mysql.query-timeout: environment variable QUERY_TIMEOUT is not set" in str(error)


def test_every_missing_variable_is_reported() -> None:
    error = parse_error(FULL, {"MAX_MYSQL_CALLS": "3", "REDIS_HOST": "cache"})

    assert {(issue.location, issue.message.split()[2]) for issue in error.issues} == {
        ("harness.mysql-tools.data-sources.order_readonly.jdbc-url", "ORDER_MYSQL_JDBC_URL"),
        ("harness.mysql-tools.data-sources.order_readonly.username", "ORDER_MYSQL_USERNAME"),
        ("harness.mysql-tools.data-sources.order_readonly.password", "ORDER_MYSQL_PASSWORD"),
        ("redis.password", "REDIS_PASSWORD"),
    }


def test_a_missing_variable_in_a_list_names_the_index() -> None:
    error = parse_error("harness:\n  x:\n    - a\n    - ${NOT_SET}\n")

    assert [issue.location for issue in error.issues] == ["harness.x.1"]


def test_the_process_environment_is_the_default_environ(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(CONFIG_ENV_VAR, raising=False)
    monkeypatch.setenv("SUPERBIZ_REDIS_URL", "rediss://cache.internal")

    assert load_config().redis.url == "rediss://cache.internal"


# -- secrets never leak ------------------------------------------------------------------------------------


def test_secrets_are_masked_in_repr_and_str() -> None:
    config = parse_config(FULL, ENV)
    password = config.harness.mysql_tools.data_sources["order_readonly"].password

    assert password is not None
    assert password.reveal() == PASSWORD
    assert str(password) == "****"
    assert repr(password) == "Secret('${ORDER_MYSQL_PASSWORD}')"
    for text in (repr(config), str(config), repr(config.redis), f"{password}", config.model_dump_json()):
        assert PASSWORD not in text
        assert REDIS_PASSWORD not in text


@pytest.mark.parametrize(
    "broken",
    [
        ("harness:\n", "harness:\n  unknown-budget: 1\n"),
        ("default-schema: order_db", "default-schema: billing_db"),
        ("deadline: ${RUN_DEADLINE:-150s}", "deadline: 150"),
        ("username: harness", "username: harness\n  db: 0"),
        ("redis://${REDIS_HOST}", "redis://:${REDIS_PASSWORD}@${REDIS_HOST}"),
        ("jdbc-url: ${ORDER_MYSQL_JDBC_URL}", "jdbc-url: ${ORDER_MYSQL_PASSWORD}:${ORDER_MYSQL_JDBC_URL}"),
        ("columns: [order_id, payment_status]", "columns: [order_id, '${ORDER_MYSQL_PASSWORD}']"),
        ("query_mysql: ${MAX_MYSQL_CALLS}", "query_mysql: ${ORDER_MYSQL_PASSWORD}"),
        ("default-lookback: 15m", "default-lookback: ${REDIS_PASSWORD}"),
    ],
)
def test_a_secret_value_never_appears_in_a_config_error(broken: tuple[str, str]) -> None:
    text = textwrap.dedent(FULL)
    assert broken[0] in text
    error = parse_error(text.replace(broken[0], broken[1], 1), ENV)

    assert error.issues
    for text in (str(error), repr(error), *(str(issue) for issue in error.issues)):
        assert PASSWORD not in text
        assert REDIS_PASSWORD not in text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("harness:\n  run:\n    deadline: 17 parsecs\n", "parsecs"),
        ("harness:\n  rag:\n    max-evidence: sevenish\n", "sevenish"),
        ("harness:\n  evidence:\n    key-prefix: 'no spaces allowed'\n", "no spaces"),
        ("harness:\n  evidence:\n    max-run-bytes: 12zettabytes\n", "zettabytes"),
        ("redis:\n  url: 'http://example.invalid:1'\n", "example.invalid"),
        ("redis:\n  password: literal-redis-pw\n", "literal-redis-pw"),
        ("harness:\n  agent:\n    max-tool-calls-per-tool:\n      query_logs: lots-of-calls\n", "lots-of-calls"),
    ],
)
def test_a_config_error_never_contains_the_input_value(text: str, value: str) -> None:
    error = parse_error(text)

    assert value not in str(error)


# -- dump_config -------------------------------------------------------------------------------------------


def test_dump_config_prints_secret_references_not_values() -> None:
    dumped = dump_config(parse_config(FULL, ENV))

    assert PASSWORD not in dumped
    assert REDIS_PASSWORD not in dumped
    data = yaml.safe_load(dumped)
    source = data["harness"]["mysql-tools"]["data-sources"]["order_readonly"]
    assert source["password"] == "${ORDER_MYSQL_PASSWORD}"
    assert source["jdbc-url"] == "${ORDER_MYSQL_JDBC_URL}"
    assert data["redis"]["password"] == "${REDIS_PASSWORD}"


def test_dump_config_uses_kebab_case_keys_and_units() -> None:
    data = yaml.safe_load(dump_config(AppConfig()))

    assert data["harness"]["evidence"] == {
        "key-prefix": "superbiz:harness:tool-call",
        "ttl": "2h",
        "max-record-bytes": "1MB",
        "max-agent-result-bytes": "64KB",
        "max-run-bytes": "5MB",
    }
    assert data["harness"]["semantic-guard"]["attempt-timeout"] == "20s"


def test_dump_config_lists_every_default() -> None:
    def keys(node: Any, prefix: str = "") -> set[str]:
        if not isinstance(node, dict):
            return {prefix}
        return set().union(*(keys(value, f"{prefix}.{key}".lstrip(".")) for key, value in node.items()))

    dumped = keys(yaml.safe_load(dump_config(AppConfig())))

    assert {"harness.logs.max-lookback", "harness.retry.semantic-guard.max-attempts", "redis.url"} <= dumped


@pytest.mark.parametrize(
    ("text", "environ"),
    [("", {}), (FULL, ENV), ("harness:\n  semantic-guard:\n    attempt-timeout: 1500ms\n", {})],
)
def test_dump_config_loads_back_to_an_equal_config(text: str, environ: dict[str, str]) -> None:
    config = parse_config(textwrap.dedent(text), environ)

    dumped = dump_config(config)
    reloaded = parse_config(dumped, environ)

    assert reloaded == config
    assert dump_config(reloaded) == dumped


def test_dump_config_of_a_valid_config_with_secrets_round_trips_through_a_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, FULL), environ=ENV)

    reloaded = load_config(write(tmp_path, dump_config(config), "dumped.yaml"), environ=ENV)

    assert reloaded == config
    password = reloaded.harness.mysql_tools.data_sources["order_readonly"].password
    assert password is not None and password.reveal() == PASSWORD


def test_a_config_error_carries_no_secret_in_its_exception_chain() -> None:
    text = "harness:\n  mysql:\n    max-rows: ${ROWS}\n    query-timeout: ${TIMEOUT}\n"
    with pytest.raises(ConfigError) as raised:
        parse_config(text, {"ROWS": "s3cr3t-value", "TIMEOUT": "also-s3cr3t"})
    error: BaseException | None = raised.value
    while error is not None:
        assert "s3cr3t" not in str(error) and "s3cr3t" not in repr(error)
        error = error.__cause__ or error.__context__
