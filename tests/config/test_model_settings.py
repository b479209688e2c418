"""The ``model`` section: which chat model the Harness talks to, exercised through the loader as YAML."""

from __future__ import annotations

import textwrap
from typing import Any

import pytest
import yaml

from config.app import AppConfig
from config.env_refs import Secret
from config.loader import ConfigError, dump_config, parse_config
from config.runtime import ModelSettings

API_KEY = "sk-test-never-shown-1234"
ENV = {"OPENAI_API_KEY": API_KEY, "EMPTY_KEY": ""}


def load_model(text: str, environ: dict[str, str] | None = None) -> ModelSettings:
    return parse_config(textwrap.dedent(text), ENV if environ is None else environ).model


def load_model_dict(model: dict[str, Any]) -> ModelSettings:
    return parse_config(yaml.safe_dump({"model": model}), ENV).model


def rejected(model: dict[str, Any], location: str, *fragments: str) -> str:
    """Loading fails with exactly one issue at ``location`` holding every fragment; returns the whole error."""
    with pytest.raises(ConfigError) as caught:
        load_model_dict(model)
    [issue] = [issue for issue in caught.value.issues if issue.location == location]
    for fragment in fragments:
        assert fragment in issue.message
    return str(caught.value)


def test_the_default_is_the_offline_model_with_no_endpoint() -> None:
    model = AppConfig().model

    assert model == ModelSettings()
    assert (model.provider, model.base_url, model.api_key) == ("offline", None, None)
    assert (model.name, model.timeout_s, model.temperature) == ("gpt-4o-mini", 60.0, 0.0)


def test_an_openai_endpoint_in_kebab_case() -> None:
    model = load_model(
        """
        model:
          provider: openai
          base-url: https://llm.internal:8443/v1
          api-key: ${OPENAI_API_KEY}
          name: qwen2.5-72b-instruct
          timeout-s: 30
          temperature: 0.2
        """
    )

    assert model.provider == "openai"
    assert model.base_url == "https://llm.internal:8443/v1"
    assert isinstance(model.api_key, Secret)
    assert model.api_key.reveal() == API_KEY
    assert (model.name, model.timeout_s, model.temperature) == ("qwen2.5-72b-instruct", 30.0, 0.2)


def test_the_issue_spelling_snake_case_is_accepted() -> None:
    model = load_model(
        """
        model:
          provider: openai
          base_url: http://127.0.0.1:8000/v1
          api_key: ${OPENAI_API_KEY}
          name: gpt-4o-mini
          timeout_s: 12.5
        """
    )

    assert (model.base_url, model.timeout_s) == ("http://127.0.0.1:8000/v1", 12.5)


def test_openai_without_base_url_means_the_openai_api() -> None:
    model = load_model_dict({"provider": "openai", "api-key": "${OPENAI_API_KEY}"})

    assert model.base_url is None


def test_openai_without_api_key_is_rejected_naming_the_field() -> None:
    rejected({"provider": "openai", "base-url": "http://127.0.0.1:8000/v1"}, "model", "provider openai", "api-key")


def test_an_api_key_resolving_to_an_empty_value_is_rejected() -> None:
    rejected({"provider": "openai", "api-key": "${EMPTY_KEY}"}, "model", "api-key is empty")


@pytest.mark.parametrize(
    "extra",
    [
        {"base-url": "http://127.0.0.1:8000/v1"},
        {"api-key": "${OPENAI_API_KEY}"},
        {"base-url": "http://127.0.0.1:8000/v1", "api-key": "${OPENAI_API_KEY}"},
    ],
)
def test_offline_with_an_endpoint_is_rejected_never_silently_ignored(extra: dict[str, str]) -> None:
    rejected({"provider": "offline", **extra}, "model", "provider offline", "provider: openai")


def test_a_configured_endpoint_without_a_provider_is_rejected() -> None:
    """The provider defaults to offline; an endpoint alone must not quietly run the offline model."""
    rejected({"base-url": "http://127.0.0.1:8000/v1", "api-key": "${OPENAI_API_KEY}"}, "model", "provider offline")


def test_an_unknown_provider_is_rejected() -> None:
    rejected({"provider": "anthropic"}, "model.provider")


def test_a_literal_api_key_is_rejected_and_never_printed() -> None:
    error = rejected({"provider": "openai", "api-key": "sk-literal-secret"}, "model.api-key", "${ENV_VAR}")

    assert "sk-literal-secret" not in error


def test_the_api_key_prints_as_its_reference() -> None:
    config = parse_config("model:\n  provider: openai\n  api-key: ${OPENAI_API_KEY}\n", ENV)

    assert API_KEY not in repr(config.model)
    assert API_KEY not in dump_config(config)
    assert "api-key: ${OPENAI_API_KEY}" in dump_config(config)


@pytest.mark.parametrize(
    ("url", "fragment"),
    [
        ("ftp://llm.internal/v1", "http:// or https://"),
        ("llm.internal:8000/v1", "http:// or https://"),
        ("http:///v1", "http:// or https://"),
        ("http://llm.internal:99999/v1", "not a valid URL"),
        ("https://user:hunter2@llm.internal/v1", "credentials"),
        ("https://hunter2@llm.internal/v1", "credentials"),
        ("https://llm.internal/v1?api-key=hunter2", "query"),
        ("https://llm.internal/v1#hunter2", "fragment"),
    ],
)
def test_a_bad_base_url_is_rejected_without_echoing_it(url: str, fragment: str) -> None:
    error = rejected(
        {"provider": "openai", "api-key": "${OPENAI_API_KEY}", "base-url": url}, "model.base-url", fragment
    )

    assert "hunter2" not in error
    assert url not in error


@pytest.mark.parametrize("value", [0, -1, 600.5, 10_000, ".inf", ".nan", True, "60s"])
def test_timeout_must_be_positive_and_at_most_600_seconds(value: Any) -> None:
    raw = f"model:\n  timeout-s: {value if isinstance(value, str) else yaml.safe_dump(value).splitlines()[0]}\n"

    with pytest.raises(ConfigError) as caught:
        parse_config(raw, ENV)

    assert [issue.location for issue in caught.value.issues] == ["model.timeout-s"]


@pytest.mark.parametrize("value", [0.001, 1, 600])
def test_timeout_bounds_are_inclusive_of_600(value: float) -> None:
    assert load_model_dict({"timeout-s": value}).timeout_s == value


@pytest.mark.parametrize("value", [-0.1, 2.1, True])
def test_temperature_is_between_0_and_2(value: Any) -> None:
    rejected({"temperature": value}, "model.temperature")


@pytest.mark.parametrize("value", [0, 2, 0.7])
def test_temperature_bounds_are_inclusive(value: float) -> None:
    assert load_model_dict({"temperature": value}).temperature == value


@pytest.mark.parametrize("name", ["", " ", " gpt-4o", "gpt-4o ", "gpt\n4o", "x" * 201])
def test_a_blank_padded_or_overlong_name_is_rejected(name: str) -> None:
    rejected({"name": name}, "model.name")


@pytest.mark.parametrize("name", ["m", "meta-llama/Llama-3.1-8B-Instruct", "qwen2.5:7b", "x" * 200])
def test_model_names_of_1_to_200_characters(name: str) -> None:
    assert load_model_dict({"name": name}).name == name


def test_unknown_keys_are_rejected() -> None:
    rejected({"provider": "offline", "max-retries": 3}, "model.max-retries", "unknown key")


def test_the_section_is_frozen() -> None:
    model = ModelSettings()

    with pytest.raises(ValueError, match="frozen"):
        model.name = "other"  # type: ignore[misc]
