"""Reading the agent's conversation (``harness/react_loop.py``'s protocol) back into facts the offline model uses.

The conversation is the model's only memory: the task (first user JSON ``{query, previous_turn}``), the tools
offered in the request, every tool call the assistant made (with its parsed arguments) and the ``agent_result``
each one got back. Nothing is remembered between calls.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from harness.messages import ChatMessage, ModelRequest
from offline_model.json_io import json_object

KNOWLEDGE, LOGS, MYSQL, METRICS = "lookup_knowledge", "query_logs", "query_mysql", "query_metrics"
_LISTED_METRIC = re.compile(r"^- ([A-Za-z_:][A-Za-z0-9_:]*) \((counter|gauge|histogram); labels: ([^)]*)\)", re.M)
"""A metric as query_metrics's description lists it: ``- name (type; labels: a, b)``."""


@dataclass(frozen=True)
class MetricOffer:
    """A metric the query_metrics tool offers, read from its description like a model reads it."""

    name: str
    type: str
    labels: tuple[str, ...]


@dataclass(frozen=True)
class Observation:
    """One tool call of this run and what came back (None while no result is in the conversation)."""

    call_id: str
    name: str
    args: dict[str, Any]
    result: dict[str, Any] | None

    @property
    def status(self) -> str | None:
        status = (self.result or {}).get("evidence_status")
        return status if isinstance(status, str) else None

    @property
    def found(self) -> bool:
        return self.status == "EVIDENCE_FOUND"

    @property
    def empty(self) -> bool:
        return self.status == "NO_EVIDENCE"


@dataclass(frozen=True)
class Conversation:
    query: str
    previous_turn: dict[str, Any] | None
    offered: tuple[str, ...]
    mysql_sources: tuple[str, ...]
    metrics: tuple[MetricOffer, ...]
    observations: tuple[Observation, ...]
    assistant_turns: int
    last_draft: str | None
    """The content of the last assistant message without tool calls after the first (the Draft)."""
    last_user: str
    tools_known: bool = True
    """False on a tool-less turn (repair): ``offered`` is then only what the conversation used."""

    def offers(self, name: str) -> bool:
        return name in self.offered

    def calls(self, name: str) -> list[Observation]:
        return [observation for observation in self.observations if observation.name == name]

    def done(self, name: str, args: dict[str, Any]) -> bool:
        return any(o.name == name and o.args == args for o in self.observations)

    def by_id(self, call_id: str) -> Observation | None:
        return next((o for o in self.observations if o.call_id == call_id), None)


def read(request: ModelRequest) -> Conversation:
    messages = request.messages
    task = _task(messages)
    results: dict[str, dict[str, Any] | None] = {}
    for message in messages:
        if message.role == "tool" and message.tool_call_id:
            results[message.tool_call_id] = json_object(message.content)
    observations: list[Observation] = []
    assistant_turns = 0
    last_draft: str | None = None
    for message in messages:
        if message.role != "assistant":
            continue
        assistant_turns += 1
        for call in message.tool_calls:
            args = json_object(call.arguments) or {}
            observations.append(Observation(call.id, call.name, args, results.get(call.id)))
        if not message.tool_calls and assistant_turns > 1:
            last_draft = message.content
    users = [m.content or "" for m in messages if m.role == "user"]
    offered, sources, metrics = _offered(request.tools)
    if not offered:  # a tool-less turn (repair): the tools are those the conversation used
        offered = tuple(dict.fromkeys(o.name for o in observations))
    return Conversation(
        query=str(task.get("query") or ""),
        previous_turn=task.get("previous_turn") if isinstance(task.get("previous_turn"), dict) else None,
        offered=offered,
        mysql_sources=sources,
        metrics=metrics,
        observations=tuple(observations),
        assistant_turns=assistant_turns,
        last_draft=last_draft,
        last_user=users[-1] if users else "",
        tools_known=bool(request.tools),
    )


def _task(messages: tuple[ChatMessage, ...]) -> dict[str, Any]:
    for message in messages:
        if message.role == "user":
            data = json_object(message.content)
            if data is not None and "query" in data:
                return data
    return {}


def _offered(
    tools: tuple[dict[str, Any], ...],
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[MetricOffer, ...]]:
    names: list[str] = []
    sources: list[str] = []
    metrics: list[MetricOffer] = []
    for tool in tools:
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        names.append(function["name"])
        if function["name"] == MYSQL:
            prop = (function.get("parameters") or {}).get("properties", {}).get("data_source", {})
            enum = prop.get("enum") if isinstance(prop, dict) else None
            sources.extend(str(value) for value in enum or [])
        if function["name"] == METRICS:
            for name, kind, labels in _LISTED_METRIC.findall(str(function.get("description") or "")):
                listed = tuple(label.strip() for label in labels.split(",") if label.strip() not in ("", "none"))
                metrics.append(MetricOffer(name, kind, listed))
    return tuple(names), tuple(sources), tuple(metrics)


def arguments_json(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"))
