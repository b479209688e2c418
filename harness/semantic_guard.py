"""The SemanticGuard's prompt and reply (ISS-014 §4.4): an isolated, tool-less, single-turn review of the Draft.

The guard sees the query, the user-visible draft and the verified evidence snapshot, nothing else: no
tool_call_id, no raw response, no history, no plan. It answers one report-level verdict; its ``reason`` goes to
the audit only, written in the question's language (the prompt names it: ``FixedTexts.reason_in``). Calling the
model, timeouts and the one retry belong to the Harness that uses this module.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from importlib import resources

from pydantic import ValidationError

from harness.draft import Draft
from harness.errors import OperationFailed
from harness.fixed_texts import texts
from harness.invocation import InvocationRecord
from harness.json_reader import MODEL_OUTPUT, JsonRejected, read_json
from harness.language import DEFAULT_LANGUAGE, Language
from harness.messages import ChatMessage, GuardRequest, GuardVerdict
from harness.retry import FailureKind
from harness.snapshot import Kinds, build_snapshot

PROMPT_VERSION = "semantic-guard-v2"


@functools.cache
def semantic_guard_prompt(language: Language = DEFAULT_LANGUAGE) -> str:
    """The reviewer prompt, asking for the reason in ``language`` (the question's)."""
    template = resources.files("harness.prompts").joinpath("semantic_guard.md").read_text(encoding="utf-8")
    return template.replace("{reason_language}", texts(language).reason_in)


def guard_request(query: str, draft: Draft, verified: Mapping[str, InvocationRecord], kinds: Kinds) -> GuardRequest:
    """The guard input of a draft that passed the EvidenceGuard with ``verified`` records, its whole snapshot."""
    snapshot = build_snapshot(draft, verified, kinds)
    return GuardRequest(query=query, draft=draft.user_visible(), verified_evidence=snapshot)


def guard_messages(request: GuardRequest) -> tuple[ChatMessage, ...]:
    """A fresh context: the reviewer prompt in the request's language and the request as one JSON object."""
    return (
        ChatMessage(role="system", content=semantic_guard_prompt(request.language)),
        ChatMessage(role="user", content=request.content()),
    )


def parse_verdict(text: str | None) -> GuardVerdict:
    """The verdict in ``text``: one JSON object, optionally in a ```json fence.

    Anything else raises ``OperationFailed(INVALID_OUTPUT)``; the detail never quotes the reply.
    """
    if not isinstance(text, str) or not text.strip():
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "the guard reply is empty")
    try:
        data = read_json(text, MODEL_OUTPUT, unique_keys=True)
    except JsonRejected as rejected:
        raise OperationFailed(
            FailureKind.INVALID_OUTPUT, f"the guard reply is not one JSON object ({rejected.reason})"
        ) from None
    if not isinstance(data, dict):
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "the guard reply is not one JSON object")
    try:
        return GuardVerdict.model_validate(data)
    except ValidationError:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "the guard reply does not match the verdict schema") from None
