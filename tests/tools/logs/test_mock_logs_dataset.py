"""The bundled mock dataset: exactly what its generator produces, well-formed, and covering the story."""

from __future__ import annotations

import json

from tests.tools.logs.mock_logs_dataset import SEEDED_SECRETS, build_lines
from tools.logs.source import BUNDLED_DATASET, LogTopic


def test_committed_dataset_is_the_generator_output() -> None:
    assert BUNDLED_DATASET.read_text(encoding="utf-8") == "\n".join(build_lines()) + "\n"


def test_generator_is_deterministic() -> None:
    assert build_lines() == build_lines()


def test_dataset_shape_and_time_coverage() -> None:
    rows = [json.loads(line) for line in BUNDLED_DATASET.read_text(encoding="utf-8").splitlines()]
    assert 300 <= len(rows) <= 1000
    for row in rows:
        assert list(row) == ["seconds_ago", "topic", "service", "level", "message"]
        assert LogTopic(row["topic"]) and row["seconds_ago"] >= 1
    ages = [row["seconds_ago"] for row in rows]
    assert ages == sorted(ages, reverse=True)  # oldest first
    assert sum(age <= 1_800 for age in ages) > 100
    assert sum(1_800 < age <= 86_400 for age in ages) > 100
    assert any(age > 86_400 for age in ages)
    assert {row["topic"] for row in rows} == {topic.value for topic in LogTopic}
    services = {row["service"] for row in rows}
    assert {"order-service", "payment-service", "refund-service", "user-service", "api-gateway", "order_db"} <= services


def test_every_seeded_secret_is_in_the_dataset() -> None:
    text = BUNDLED_DATASET.read_text(encoding="utf-8")
    assert [secret for secret in SEEDED_SECRETS if secret not in text] == []
