"""The repair turn: the previous Draft corrected against the failures the EvidenceGuard listed.

Reads the failures (the ``- `` lines of the last user message) and the Draft (the last tool-less assistant
message), then, checking every citation against the tool results actually in the conversation:

* drops every tool_call_id a failure names, or that is not a call of this conversation, or whose result the
  analysis kind may not cite (NORMAL needs EVIDENCE_FOUND, NEGATIVE_OBSERVATION needs NO_EVIDENCE);
* drops analyses left without citations, and repeated analysis ids;
* sets the conclusion to null when any analysis it was based on is gone (its basis no longer holds);
* drops actions and recommendations left without a basis.

A previous message that is not a Draft at all is replaced by a Draft composed afresh from the tool results.
"""

from __future__ import annotations

import re
from typing import Any

from harness.draft import DraftRejected, parse_draft
from offline_model.conversation import Conversation
from offline_model.query_facts import QueryFacts
from offline_model.writer import compose

_CALL = re.compile(r"tool_call_id\s+([A-Za-z0-9_.\-]+)")
CITABLE = {"NORMAL": "EVIDENCE_FOUND", "NEGATIVE_OBSERVATION": "NO_EVIDENCE"}


def failures_of(message: str) -> list[str]:
    return [line.strip()[2:].strip() for line in message.splitlines() if line.strip().startswith("- ")]


def repair(facts: QueryFacts, conversation: Conversation) -> dict[str, Any]:
    try:
        draft = parse_draft(conversation.last_draft).model_dump(mode="json")
    except DraftRejected:
        return compose(facts, conversation)
    named = {match.group(1) for failure in failures_of(conversation.last_user) for match in _CALL.finditer(failure)}
    kept: list[dict[str, Any]] = []
    for item in draft["analysis"]:
        if any(item["analysis_id"] == other["analysis_id"] for other in kept):
            continue
        calls = [
            call
            for call in dict.fromkeys(item["tool_call_ids"])
            if call not in named and _citable(conversation, call, item["kind"])
        ]
        if calls:
            kept.append({**item, "tool_call_ids": calls})
    ids = {item["analysis_id"] for item in kept}
    original = {item["analysis_id"]: item["tool_call_ids"] for item in draft["analysis"]}
    intact = {
        item["analysis_id"]
        for item in kept
        if item["tool_call_ids"] == list(dict.fromkeys(original[item["analysis_id"]]))
    }
    conclusion = draft.get("conclusion")
    missing = list(draft["limitations"].get("missing_info") or [])
    if conclusion is not None:
        basis = conclusion.get("based_on_analysis_ids") or []
        if not basis or any(ident not in intact for ident in basis):
            conclusion = None
            missing.append("原结论所依据的部分证据无法引用，证据不足以确认结论")
    draft.update(
        conclusion=conclusion,
        analysis=kept,
        action_plan=_bound(draft.get("action_plan") or [], ids),
        recommendations=_bound(draft.get("recommendations") or [], ids),
        limitations={**draft["limitations"], "missing_info": missing[:20]},
    )
    return draft


def _citable(conversation: Conversation, call: str, kind: str) -> bool:
    observation = conversation.by_id(call)
    return observation is not None and observation.status == CITABLE.get(kind)


def _bound(items: list[dict[str, Any]], ids: set[str]) -> list[dict[str, Any]]:
    bound = []
    for item in items:
        basis = [ident for ident in item.get("based_on_analysis_ids") or [] if ident in ids]
        if basis:
            bound.append({**item, "based_on_analysis_ids": basis})
    return bound
