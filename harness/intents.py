"""Intent routing (ISS-014 §4.5) and the two light paths: SYSTEM_CHAT and KNOWLEDGE_QUERY.

The router sees exactly ``{query, last_intent, last_user_query}`` and must answer one of three fixed values;
anything else is an invalid output (retried once by the Harness, never defaulted to DIAGNOSIS). The knowledge
path makes one lookup of the knowledge kind with the raw query and releases an answer only with references the
Harness could check against that call's evidence. Both answers are asked for in the language of the question, named
in the prompt (:mod:`harness.language`): a model follows a named language more reliably than a rule to match the
question, above all when its prompt and the knowledge excerpts are Chinese and the question is not.
"""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.errors import OperationFailed
from harness.fixed_texts import texts
from harness.json_reader import MODEL_OUTPUT, JsonRejected, read_json
from harness.language import DEFAULT_LANGUAGE, Language
from harness.messages import ChatMessage
from harness.retry import FailureKind

Intent = Literal["SYSTEM_CHAT", "KNOWLEDGE_QUERY", "DIAGNOSIS"]
INTENTS: tuple[Intent, ...] = ("SYSTEM_CHAT", "KNOWLEDGE_QUERY", "DIAGNOSIS")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class RouterInput(_Frozen):
    query: str
    last_intent: Intent | None = None
    last_user_query: str | None = None


class _RouterOutput(_Frozen):
    intent: Intent


class KnowledgeAnswer(_Frozen):
    answer: str = Field(min_length=1, max_length=4000)
    references: list[str] = Field(default_factory=list, max_length=20)
    limitations: list[str] = Field(default_factory=list, max_length=10)


@functools.cache
def _prompt(name: str) -> str:
    return resources.files("harness.prompts").joinpath(f"{name}.md").read_text(encoding="utf-8")


def router_messages(router_input: RouterInput) -> tuple[ChatMessage, ...]:
    return (
        ChatMessage(role="system", content=_prompt("router")),
        ChatMessage(role="user", content=router_input.model_dump_json()),
    )


def system_chat_messages(
    query: str, capabilities: str, language: Language = DEFAULT_LANGUAGE
) -> tuple[ChatMessage, ...]:
    """``capabilities`` is the capability text of ``language`` (:func:`harness.fixed_texts.capabilities`)."""
    prompt = _prompt("system_chat").replace("{answer_language}", texts(language).answer_in)
    return (
        ChatMessage(role="system", content=prompt.replace("{capabilities}", capabilities)),
        ChatMessage(role="user", content=query),
    )


def knowledge_messages(
    query: str, evidence: list[dict[str, Any]], language: Language = DEFAULT_LANGUAGE
) -> tuple[ChatMessage, ...]:
    payload = {"query": query, "evidence": evidence}
    return (
        ChatMessage(
            role="system", content=_prompt("knowledge").replace("{answer_language}", texts(language).answer_in)
        ),
        ChatMessage(role="user", content=json.dumps(payload, ensure_ascii=False)),
    )


def _json_object(text: str | None) -> Any:
    try:
        return read_json(text or "", MODEL_OUTPUT)
    except JsonRejected as rejected:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, f"reply is not bounded JSON ({rejected.reason})") from None


def parse_intent(text: str | None) -> Intent:
    try:
        return _RouterOutput.model_validate(_json_object(text)).intent
    except ValidationError:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "intent outside the three fixed values") from None


def parse_knowledge_answer(text: str | None) -> KnowledgeAnswer:
    try:
        return KnowledgeAnswer.model_validate(_json_object(text))
    except ValidationError:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "knowledge answer does not match its schema") from None


def checked_references(
    answer: KnowledgeAnswer, evidence: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], list[str]]:
    """(released references, invented ids). A reference is released only if it names a document_id that the
    lookup actually returned; it is expanded from that evidence (title, breadcrumb, exact excerpt), never from
    the model's text. Invented ids are dropped (and audited)."""
    by_id: dict[str, dict[str, Any]] = {}
    for item in evidence:
        by_id.setdefault(str(item.get("document_id")), item)
    released: list[dict[str, Any]] = []
    invented: list[str] = []
    for document_id in dict.fromkeys(answer.references):
        found = by_id.get(document_id)
        if found is None:
            invented.append(document_id)
            continue
        released.append({key: found.get(key) for key in ("document_id", "title", "breadcrumb", "source", "excerpt")})
    return released, invented
