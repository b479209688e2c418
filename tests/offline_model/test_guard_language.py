"""The offline SemanticGuard writes its reason in the language the guard prompt asks for (the question's)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from harness.language import Language, language_of
from harness.messages import GuardRequest, ModelRequest
from harness.semantic_guard import guard_messages
from offline_model.guard.review import review
from offline_model.model import OfflineChatModel

WINDOW = "，2026-07-21T02:00:00.000+00:00 至 2026-07-21T02:30:00.000+00:00"
EVIDENCE = [
    {
        "source_type": "LOG",
        "source": "APPLICATION (MOCK)",
        "scope": "order-service HikariPool" + WINDOW,
        "match_count": 3,
        "timestamp": "2026-07-21T02:10:00.000+00:00",
        "level": "ERROR",
        "service": "order-service",
        "excerpt": "HikariPool active=50, max=50, pending=23",
    }
]
DRAFT = {
    "conclusion": {
        "text": "The payment timeout is related to order-service pool exhaustion",
        "based_on_analysis_ids": ["a1"],
    },
    "analysis": [
        {"analysis_id": "a1", "kind": "NORMAL", "text": "The order-service pool reached 50/50 active, pending=23"}
    ],
    "action_plan": [
        {
            "action": "Scale out the connection pool",
            "based_on_analysis_ids": ["a1"],
            "requires_human_confirmation": True,
        }
    ],
    "recommendations": [],
    "limitations": {"scope": "order-service, last 30 minutes (mock logs)", "missing_info": []},
}
QUERY = "Why does the payment of order-123 time out?"


def _inflate(draft: dict[str, Any]) -> None:
    draft["analysis"][0]["text"] = "The order-service pool reached 80/80 active"


def _unbound(draft: dict[str, Any]) -> None:
    draft["conclusion"]["based_on_analysis_ids"] = ["a9"]


def _confirmed_cause(draft: dict[str, Any]) -> None:
    draft["conclusion"]["text"] = "Root cause confirmed: a leaking transaction in order-service"


def _unconfirmed(draft: dict[str, Any]) -> None:
    draft["action_plan"][0] = {**draft["action_plan"][0], "requires_human_confirmation": False}


def _other_service(draft: dict[str, Any]) -> None:
    draft["limitations"]["scope"] = "order-service and inventory-service, last 30 minutes (mock logs)"


def _unlabelled(draft: dict[str, Any]) -> None:
    draft["limitations"]["scope"] = "order-service, last 30 minutes"


CHANGES: list[Callable[[dict[str, Any]], None]] = [
    _inflate, _unbound, _confirmed_cause, _unconfirmed, _other_service, _unlabelled
]  # fmt: skip


def _payload(change: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
    draft = copy.deepcopy(DRAFT)
    if change is not None:
        change(draft)
    evidence = [{"analysis_id": "a1", "kind": "NORMAL", "analysis_text": "…", "verified_evidence": EVIDENCE}]
    return {"query": QUERY, "draft": draft, "verified_evidence": evidence}


def _ask(payload: dict[str, Any], language: Language) -> dict[str, Any]:
    """The offline model's verdict as the Harness asks for it: the guard prompt of ``language`` and the input."""
    request = GuardRequest(language=language, **payload)
    model_request = ModelRequest(role="guard", messages=guard_messages(request), json_output=True)
    reply = asyncio.run(OfflineChatModel().complete(model_request, timeout_s=5.0))
    return json.loads(reply.content or "")


@pytest.mark.parametrize("language", ["zh", "en"])
def test_a_supported_verdict_gives_its_reason_in_the_asked_language(language: Language) -> None:
    verdict = _ask(_payload(), language)
    assert verdict["verdict"] == "SUPPORTED"
    assert language_of(verdict["reason"]) == language


@pytest.mark.parametrize("change", CHANGES, ids=[change.__name__.strip("_") for change in CHANGES])
def test_a_refusal_gives_its_reason_in_the_asked_language(change: Callable[[dict[str, Any]], None]) -> None:
    english, chinese = _ask(_payload(change), "en"), _ask(_payload(change), "zh")
    assert english["verdict"] == chinese["verdict"] == "UNSUPPORTED"
    assert language_of(english["reason"]) == "en", english["reason"]
    assert language_of(chinese["reason"]) == "zh", chinese["reason"]
    assert chinese["reason"] == review(_payload(change))["reason"]  # Chinese stays the default, unchanged


def test_the_english_reason_names_what_it_found() -> None:
    assert "80" in _ask(_payload(_inflate), "en")["reason"]
    assert "inventory-service" in _ask(_payload(_other_service), "en")["reason"]
