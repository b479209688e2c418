"""The one bounded JSON reader for model output and tool arguments."""

from __future__ import annotations

import time

import pytest

from harness.json_reader import (
    MAX_DEPTH,
    MODEL_OUTPUT,
    TOOL_ARGUMENTS,
    JsonLimits,
    JsonRejected,
    nesting_depth,
    read_json,
    strip_fence,
)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ('{"a": 1}', {"a": 1}),
        ('```json\n{"a": [1, "]]]"]}\n```', {"a": [1, "]]]"]}),
        ("```\n[1]\n```", [1]),
        ('  "x"  ', "x"),
    ],
)
def test_reads_json_with_or_without_a_fence(text: str, value: object) -> None:
    assert read_json(text, MODEL_OUTPUT) == value


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[" * 5000 + "]" * 5000, "TOO_DEEP"),
        ('{"a":' * 3000 + "1" + "}" * 3000, "TOO_DEEP"),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "TOO_DEEP"),
        ("x" * (MODEL_OUTPUT.max_bytes + 1), "TOO_LARGE"),
        ("中" * (MODEL_OUTPUT.max_bytes // 3 + 1), "TOO_LARGE"),
        ("{", "INVALID"),
        ("NaN", "INVALID"),
        ('{"a": Infinity}', "INVALID"),
        ("", "INVALID"),
    ],
)
def test_refusals_are_typed(text: str, reason: str) -> None:
    with pytest.raises(JsonRejected) as refused:
        read_json(text, MODEL_OUTPUT)
    assert refused.value.reason == reason


def test_depth_at_the_limit_is_read() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert read_json(text, MODEL_OUTPUT) is not None


def test_brackets_inside_strings_do_not_count() -> None:
    assert nesting_depth('{"a": "[[[[\\"[[", "b": [[1]]}') == 3


def test_duplicate_keys_can_be_refused() -> None:
    assert read_json('{"a": 1, "a": 2}', MODEL_OUTPUT) == {"a": 2}
    with pytest.raises(JsonRejected):
        read_json('{"a": 1, "a": 2}', MODEL_OUTPUT, unique_keys=True)


@pytest.mark.parametrize(
    "text",
    ['"' + '\\"' * 60000, "[" * 200000, " " * 200000 + "```", '"' * 200000, "\\" * 200000],
)
def test_adversarial_text_is_refused_quickly(text: str) -> None:
    started = time.process_time()
    with pytest.raises(JsonRejected):
        read_json(text, JsonLimits(max_bytes=256 * 1024))
    assert time.process_time() - started < 1.0


def test_tool_arguments_have_their_own_limit() -> None:
    with pytest.raises(JsonRejected) as refused:
        read_json('{"q": "' + "x" * TOOL_ARGUMENTS.max_bytes + '"}', TOOL_ARGUMENTS)
    assert refused.value.reason == "TOO_LARGE"


def test_strip_fence() -> None:
    assert strip_fence("```JSON\n{}\n```") == "{}"
    assert strip_fence("``` ```") == ""
    assert strip_fence("```") == "```"
