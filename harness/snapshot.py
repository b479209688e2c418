"""The verified evidence snapshot (ISS-014 §4.4) and the readable sources of verified calls (§10.3).

Built by deterministic code from the ``agent_result`` of the calls that passed the EvidenceGuard, grouped by
``analysis_id``. Only named fields are copied out of an agent_result (never the whole dict: it carries the
tool_call_id), and the raw response is never read. Same input, same output, byte for byte.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from typing import Any

from harness.draft import Draft
from harness.evidence_guard import KNOWLEDGE_TOOL, LOGS_TOOL, MYSQL_TOOL
from harness.invocation_store import EvidenceStatus, InvocationRecord

KNOWLEDGE_SOURCE = "内部知识库"
"""How a knowledge lookup that returned no document is named."""
SOURCE_TYPES = {KNOWLEDGE_TOOL: "KNOWLEDGE", LOGS_TOOL: "LOG", MYSQL_TOOL: "MYSQL"}


def build_snapshot(draft: Draft, verified: Mapping[str, InvocationRecord]) -> list[dict[str, Any]]:
    """One entry per analysis, in draft order: its text and the exact evidence of the calls it cites.

    Raises ValueError when an analysis cites a call that is not in ``verified``: build it only after the
    EvidenceGuard passed.
    """
    snapshot: list[dict[str, Any]] = []
    for item in draft.analysis:
        evidence: list[dict[str, Any]] = []
        for call in dict.fromkeys(item.tool_call_ids):
            evidence.extend(snapshot_evidence(_verified(verified, call)))
        snapshot.append(
            {
                "analysis_id": item.analysis_id,
                "kind": item.kind,
                "analysis_text": item.text,
                "verified_evidence": evidence,
            }
        )
    return snapshot


def snapshot_evidence(record: InvocationRecord) -> list[dict[str, Any]]:
    """The exact evidence of one verified call, as the SemanticGuard reads it."""
    result = _result(record)
    found = record.evidence_status is EvidenceStatus.EVIDENCE_FOUND
    if record.tool_name == KNOWLEDGE_TOOL:
        if not found:
            return [
                {
                    "source_type": "KNOWLEDGE",
                    "source": KNOWLEDGE_SOURCE,
                    "scope": _str(result, "query"),
                    "returned_count": 0,
                }
            ]
        return [{"source_type": "KNOWLEDGE", **document} for document in knowledge_documents(result)]
    if record.tool_name == LOGS_TOOL:
        header = {
            "source_type": "LOG",
            "source": log_source(result),
            "scope": log_scope(result),
            "match_count": result.get("match_count", 0),
        }
        entries = [{**header, **pattern} for pattern in log_patterns(result)]
        entries += [{**header, **event} for event in log_events(result)]
        return entries or [header]
    scope = _dict(result, "scope")
    return [
        {
            "source_type": "MYSQL",
            "source": _str(scope, "data_source"),
            "scope": mysql_scope(result),
            "columns": copy.deepcopy(_list(result, "columns")),
            "rows": copy.deepcopy(_list(result, "rows")),
            "returned_count": result.get("returned_count", 0),
            "truncated": bool(result.get("truncated", False)),
        }
    ]


def verified_sources(verified: Mapping[str, InvocationRecord]) -> list[dict[str, str]]:
    """``{source_type, source, scope}`` of each verified call, once, in order: what a fallback may show.

    Built by the Harness from validated parameters only (log topic and window, data source and tables, the
    titles of the documents found), never from a free-text argument (a log query, a knowledge query, SQL
    literals): a fallback carries no agent-written text.
    """
    sources: list[dict[str, str]] = []
    for record in verified.values():
        result = _result(record)
        scope = _dict(result, "scope")
        if record.tool_name == KNOWLEDGE_TOOL:
            entry = {**source_of(record), "scope": KNOWLEDGE_SOURCE}
        elif record.tool_name == LOGS_TOOL:
            window = f"{_str(scope, 'start_time')} 至 {_str(scope, 'end_time')}"
            entry = {
                "source_type": "LOG",
                "source": log_source(result),
                "scope": f"{_str(scope, 'topic')} 日志，{window}",
            }
        else:
            tables = "、".join(str(table) for table in _list(scope, "tables") if isinstance(table, str))
            entry = {"source_type": "MYSQL", "source": _str(scope, "data_source"), "scope": tables or "只读查询"}
        if entry not in sources:
            sources.append(entry)
    return sources


def source_of(record: InvocationRecord) -> dict[str, str]:
    """The readable source and query scope of one verified call (MySQL's scope includes its params)."""
    result = _result(record)
    if record.tool_name == KNOWLEDGE_TOOL:
        titles = dict.fromkeys(document["title"] for document in knowledge_documents(result) if document["title"])
        return {
            "source_type": "KNOWLEDGE",
            "source": "、".join(titles) or KNOWLEDGE_SOURCE,
            "scope": _str(result, "query"),
        }
    if record.tool_name == LOGS_TOOL:
        return {"source_type": "LOG", "source": log_source(result), "scope": log_scope(result)}
    return {"source_type": "MYSQL", "source": _str(_dict(result, "scope"), "data_source"), "scope": mysql_scope(result)}


def knowledge_documents(result: Mapping[str, Any]) -> list[dict[str, str]]:
    return [
        {name: _str(item, name) for name in ("document_id", "title", "breadcrumb", "excerpt")}
        for item in _list(result, "evidence")
        if isinstance(item, dict)
    ]


def log_source(result: Mapping[str, Any]) -> str:
    topic = _str(_dict(result, "scope"), "topic")
    return f"{topic} (MOCK)" if result.get("source_kind") == "MOCK" else topic


def log_scope(result: Mapping[str, Any]) -> str:
    scope = _dict(result, "scope")
    return f"{_str(scope, 'query')}，{_str(scope, 'start_time')} 至 {_str(scope, 'end_time')}"


def log_patterns(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "pattern": _str(item, "example"),
            "count": item.get("count", 0),
            "first_seen": _str(item, "first_seen"),
            "last_seen": _str(item, "last_seen"),
            "level": _str(item, "level"),
            "service": _str(item, "service"),
        }
        for item in _list(result, "patterns")
        if isinstance(item, dict)
    ]


def log_events(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [
        {
            "timestamp": _str(item, "timestamp"),
            "level": _str(item, "level"),
            "service": _str(item, "service"),
            "excerpt": _str(item, "message"),
        }
        for item in _list(result, "events")
        if isinstance(item, dict)
    ]


def mysql_scope(result: Mapping[str, Any]) -> str:
    scope = _dict(result, "scope")
    params = json.dumps(scope.get("params", []), ensure_ascii=False, separators=(", ", ": "))
    return f"{_str(scope, 'sql')} params={params}"


def guard_input_json(query: str, draft: Mapping[str, Any], verified_evidence: list[dict[str, Any]]) -> str:
    """The SemanticGuard's user message: one JSON object, the only serialisation of the guard's input."""
    payload = {"query": query, "draft": draft, "verified_evidence": verified_evidence}
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":"))


def snapshot_bytes(snapshot: list[dict[str, Any]], draft_visible: Mapping[str, Any], query: str) -> int:
    """UTF-8 size of the guard input, for the guard's max-input-bytes."""
    return len(guard_input_json(query, draft_visible, snapshot).encode())


def _verified(verified: Mapping[str, InvocationRecord], call: str) -> InvocationRecord:
    record = verified.get(call)
    if record is None:
        raise ValueError("an analysis cites a tool call that did not pass the EvidenceGuard")
    return record


def _result(record: InvocationRecord) -> Mapping[str, Any]:
    if record.tool_name not in SOURCE_TYPES or not isinstance(record.agent_result, dict):
        raise ValueError("only a verified evidence tool call has a snapshot")
    return record.agent_result


def _str(mapping: Mapping[str, Any], name: str) -> str:
    value = mapping.get(name)
    return value if isinstance(value, str) else ""


def _dict(mapping: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    value = mapping.get(name)
    return value if isinstance(value, dict) else {}


def _list(mapping: Mapping[str, Any], name: str) -> list[Any]:
    value = mapping.get(name)
    return value if isinstance(value, list) else []
