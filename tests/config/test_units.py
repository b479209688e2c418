from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from config.units import ByteSize, Duration, format_bytes, format_duration, parse_bytes, parse_duration

KB = 1024
MB = 1024**2
GB = 1024**3


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("512B", 512),
        ("64KB", 64 * KB),
        ("1MB", MB),
        ("5MB", 5 * MB),
        ("1GB", GB),
        ("64kb", 64 * KB),
        (" 2 MB ", 2 * MB),
        ("0.5KB", 512),
        ("0B", 0),
        (4096, 4096),
    ],
)
def test_parse_bytes_uses_binary_multiples(text: Any, expected: int) -> None:
    assert parse_bytes(text) == expected


@pytest.mark.parametrize(
    "text",
    ["1024", "", "KB", "1TB", "1 K B", "-1KB", "1.1KB", "0.3B", "1e3B", 1.5, True, None, [1]],
)
def test_parse_bytes_rejects_what_is_not_a_size(text: Any) -> None:
    with pytest.raises(ValueError, match="size"):
        parse_bytes(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("500ms", 0.5),
        ("30s", 30.0),
        ("5m", 300.0),
        ("2h", 7200.0),
        ("1d", 86400.0),
        ("1.5s", 1.5),
        ("0s", 0.0),
        (" 45s ", 45.0),
    ],
)
def test_parse_duration_returns_seconds(text: str, expected: float) -> None:
    assert parse_duration(text) == expected


@pytest.mark.parametrize("text", [30, 30.0, "30", "", "s", "5M", "2H", "1w", "-5s", "5 minutes", True, None])
def test_parse_duration_requires_a_known_unit(text: Any) -> None:
    with pytest.raises(ValueError, match="unit"):
        parse_duration(text)


@pytest.mark.parametrize(
    ("size", "text"),
    [(0, "0B"), (512, "512B"), (1536, "1536B"), (64 * KB, "64KB"), (MB, "1MB"), (5 * MB, "5MB"), (GB, "1GB")],
)
def test_format_bytes_picks_the_largest_exact_unit(size: int, text: str) -> None:
    assert format_bytes(size) == text


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.5, "500ms"), (1.5, "1500ms"), (30.0, "30s"), (90.0, "90s"), (300.0, "5m"), (7200.0, "2h"), (86400.0, "1d")],
)
def test_format_duration_picks_the_largest_exact_unit(seconds: float, text: str) -> None:
    assert format_duration(seconds) == text


@pytest.mark.parametrize("size", [1, 1000, 1023, 1024, 1025, 3 * MB + 1, 7 * GB])
def test_sizes_round_trip_through_their_text(size: int) -> None:
    assert parse_bytes(format_bytes(size)) == size


@pytest.mark.parametrize("seconds", [0.001, 0.0025, 0.1, 0.3, 1.1, 59.0, 61.0, 3599.0, 90000.0, 1e-4])
def test_durations_round_trip_through_their_text(seconds: float) -> None:
    assert parse_duration(format_duration(seconds)) == seconds


def test_annotated_types_validate_from_text_and_serialise_back_to_text() -> None:
    sizes = TypeAdapter(ByteSize)
    durations = TypeAdapter(Duration)

    assert sizes.validate_python("64KB") == 64 * KB
    assert sizes.dump_python(64 * KB) == "64KB"
    assert durations.validate_python("2h") == 7200.0
    assert durations.dump_python(7200.0, mode="json") == "2h"


def test_annotated_types_report_a_validation_error_without_the_value() -> None:
    with pytest.raises(ValidationError) as caught:
        TypeAdapter(Duration).validate_python("9000 fortnights")

    [error] = caught.value.errors()
    assert error["msg"] == "Value error, expected a duration with its unit, such as 500ms, 30s, 5m or 2h"
