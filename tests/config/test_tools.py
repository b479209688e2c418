"""The tools' sections and per-tool call limits come from the kinds: config/ names no tool, and a fifth bundled
kind brings its own section and limit."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import Field

from config.app import AppConfig
from config.loader import ConfigError, parse_config
from config.tools import ToolRuntime, _bundled_sections
from tools.registry import BUNDLED, DEFAULT_CALLS_PER_TOOL

CONFIG = Path(__file__).resolve().parents[2] / "config"


class TicketSettings(ToolRuntime):
    url: str = Field(default="https://tickets.internal", pattern=r"^https://")


@pytest.fixture
def fifth_kind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    kind = dataclasses.replace(
        BUNDLED["query_logs"],
        name="query_tickets",
        settings=TicketSettings,
        default_settings={"concurrency": 1, "max-pending": 2},
        max_calls=3,
    )
    monkeypatch.setitem(BUNDLED, "query_tickets", kind)
    monkeypatch.setitem(DEFAULT_CALLS_PER_TOOL, "query_tickets", 3)
    _bundled_sections.cache_clear()
    yield
    _bundled_sections.cache_clear()


def test_each_bundled_section_is_its_kinds_settings_model_and_default() -> None:
    tools = AppConfig().tools.entries()

    assert list(tools) == list(BUNDLED)
    for name, kind in BUNDLED.items():
        model = kind.settings or ToolRuntime
        assert type(tools[name]) is model
        assert tools[name] == model.model_validate(kind.default_settings)


def test_the_per_tool_call_limits_are_the_kinds() -> None:
    expected = {name: kind.max_calls for name, kind in BUNDLED.items()}

    assert AppConfig().harness.agent.max_tool_calls_per_tool == expected == DEFAULT_CALLS_PER_TOOL


def names_in(source: str) -> set[str]:
    """Every string literal, name, attribute and keyword of ``source``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.Name):
            found.add(node.id)
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.keyword) and node.arg:
            found.add(node.arg)
    return found


def test_config_names_no_bundled_tool() -> None:
    assert names_in("tools.query_logs = 'lookup_knowledge'") >= {"query_logs", "lookup_knowledge"}
    for path in CONFIG.glob("*.py"):
        assert names_in(path.read_text()).isdisjoint(BUNDLED), path.name


@pytest.mark.usefixtures("fifth_kind")
def test_a_fifth_bundled_kind_brings_its_section_and_call_limit() -> None:
    config = parse_config("tools:\n  query_tickets:\n    url: https://tickets.example\n", {})

    section = config.tools.entries()["query_tickets"]
    assert isinstance(section, TicketSettings)
    assert (section.url, section.concurrency, section.max_pending) == ("https://tickets.example", 2, 8)
    assert AppConfig().tools.entries()["query_tickets"] == TicketSettings(concurrency=1, max_pending=2)
    assert config.harness.agent.max_tool_calls_per_tool["query_tickets"] == 3
    with pytest.raises(ConfigError, match=r"tools\.query_tickets\.url"):
        parse_config("tools:\n  query_tickets:\n    url: http://tickets.example\n", {})
