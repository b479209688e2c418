"""``OfflineChatModel``: the deterministic, network-free ``ChatModel`` of the embedded demo and of tests.

It is not an LLM and says so in its label. It does each role's job from the messages it is given, by rules:

* router      -> :mod:`offline_model.router` (keyword rules, follow-ups take ``last_intent``);
* agent       -> a plan turn (``{"plan": [...]}``), tool turns (:mod:`offline_model.investigator`) and the
  Draft (:mod:`offline_model.writer`), all decided from the conversation so far — it keeps no memory;
* repair      -> :mod:`offline_model.repair`;
* guard       -> :mod:`offline_model.guard.review` (lexical support of each analysis against its evidence; the
  reason in the language the guard prompt asks for);
* knowledge / system_chat -> :mod:`offline_model.answers`.

Usage is a deterministic estimate (about four characters a token, messages and tool definitions) so budgets
still bite. The same request
always gets the same reply.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from harness.errors import OperationFailed
from harness.messages import ModelReply, ModelRequest, ToolCall, Usage
from harness.retry import FailureKind
from offline_model import answers, investigator, router
from offline_model.conversation import arguments_json, read
from offline_model.guard.problem import asked_language
from offline_model.guard.review import review
from offline_model.json_io import dumps, json_object
from offline_model.query_facts import extract
from offline_model.repair import repair
from offline_model.writer import compose

LABEL = "offline deterministic model (not an LLM)"
MODEL_NAME = "offline-deterministic"


class OfflineChatModel:
    """A rule-based stand-in for a chat model; see the module docstring."""

    @property
    def label(self) -> str:
        return LABEL

    async def complete(self, request: ModelRequest, timeout_s: float) -> ModelReply:
        content, calls = self._reply(request)
        inputs = [message.content or "" for message in request.messages]
        inputs += [call.arguments for message in request.messages for call in message.tool_calls]
        inputs += [dumps(tool) for tool in request.tools]
        outputs = [content or ""] + [call.name + call.arguments for call in calls]
        usage = Usage(input_tokens=estimate_tokens(inputs), output_tokens=max(1, estimate_tokens(outputs)))
        return ModelReply(content=content, tool_calls=calls, usage=usage, model=MODEL_NAME)

    async def aclose(self) -> None:
        return None

    def _reply(self, request: ModelRequest) -> tuple[str | None, tuple[ToolCall, ...]]:
        role = getattr(request, "role", None)
        if role == "router":
            user = _last_user(request)
            return dumps(router.route(json_object(user), user)), ()
        if role == "guard":
            system = next((m.content or "" for m in request.messages if m.role == "system"), "")
            return dumps(review(json_object(_last_user(request)), asked_language(system))), ()
        if role == "knowledge":
            return dumps(answers.knowledge_answer(json_object(_last_user(request)))), ()
        if role == "system_chat":
            system = next((m.content or "" for m in request.messages if m.role == "system"), "")
            return answers.system_answer(system, _last_user(request)), ()
        if role == "agent":
            return _agent_turn(request)
        if role == "repair":
            conversation = read(request)
            return dumps(repair(extract(conversation.query, conversation.previous_turn), conversation)), ()
        raise OperationFailed(FailureKind.INVALID_OUTPUT, f"the offline model has no rules for role {role!r}")


def _agent_turn(request: ModelRequest) -> tuple[str | None, tuple[ToolCall, ...]]:
    conversation = read(request)
    if not conversation.query:
        raise OperationFailed(FailureKind.INVALID_OUTPUT, "the agent conversation has no task message")
    facts = extract(conversation.query, conversation.previous_turn)
    if conversation.assistant_turns == 0 or request.tool_choice == "none":
        return dumps({"plan": investigator.plan(facts, conversation)}), ()
    if not request.tools:  # the Harness offers no tool any more: the draft, from what was returned
        return dumps(compose(facts, conversation)), ()
    calls = investigator.next_calls(facts, conversation)
    if not calls:
        return dumps(compose(facts, conversation)), ()
    start = len(conversation.observations)
    return None, tuple(
        ToolCall(id=f"call_{start + index + 1}", name=name, arguments=arguments_json(args))
        for index, (name, args) in enumerate(calls)
    )


def _last_user(request: ModelRequest) -> str:
    return next((m.content or "" for m in reversed(request.messages) if m.role == "user"), "")


def estimate_tokens(texts: Iterable[str]) -> int:
    """A deterministic token estimate: about four characters a token (CJK text is counted the same way)."""
    return math.ceil(sum(len(text) for text in texts) / 4)
