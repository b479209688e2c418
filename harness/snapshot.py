"""The verified evidence snapshot (ISS-014 §4.4) and the readable sources of verified calls (§10.3).

Built by deterministic code from the ``agent_result`` of the calls that passed the EvidenceGuard, grouped by
``analysis_id``. What a result shows is its evidence kind's to say (:class:`contract.kind.EvidenceKind`): the
Harness never reads a tool's fields itself, and never the raw response. Same input, same output, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from contract.kind import EvidenceKind
from contract.vocabulary import EvidenceStatus
from harness.draft import Draft
from harness.invocation import InvocationRecord
from harness.messages import guard_input_json

Kinds = Mapping[str, EvidenceKind]
"""The evidence kinds a run offers, by tool name."""


def read(record: InvocationRecord, kinds: Kinds) -> tuple[EvidenceKind, Any]:
    """The kind of a verified call and its typed agent_result; ValueError for anything else."""
    kind = kinds.get(record.tool_name)
    result = kind.read(record.agent_result) if kind is not None else None
    if kind is None or result is None:
        raise ValueError("only a verified evidence tool call has a snapshot")
    return kind, result


def build_snapshot(draft: Draft, verified: Mapping[str, InvocationRecord], kinds: Kinds) -> list[dict[str, Any]]:
    """One entry per analysis, in draft order: its text and the exact evidence of the calls it cites.

    Raises ValueError when an analysis cites a call that is not in ``verified``: build it only after the
    EvidenceGuard passed.
    """
    snapshot: list[dict[str, Any]] = []
    for item in draft.analysis:
        evidence: list[dict[str, Any]] = []
        for call in dict.fromkeys(item.tool_call_ids):
            record = verified.get(call)
            if record is None:
                raise ValueError("an analysis cites a tool call that did not pass the EvidenceGuard")
            evidence.extend(snapshot_evidence(record, kinds))
        snapshot.append(
            {
                "analysis_id": item.analysis_id,
                "kind": item.kind,
                "analysis_text": item.text,
                "verified_evidence": evidence,
            }
        )
    return snapshot


def snapshot_evidence(record: InvocationRecord, kinds: Kinds) -> list[dict[str, Any]]:
    """The exact evidence of one verified call, as the SemanticGuard reads it."""
    kind, result = read(record, kinds)
    return kind.evidence(result, _found(record))


def verified_sources(verified: Mapping[str, InvocationRecord], kinds: Kinds) -> list[dict[str, str]]:
    """``{source_type, source, scope}`` of each verified call, once, in order: what a fallback may show.

    The scope is the kind's ``verified`` one, built from validated parameters only (log topic and window, data
    source and tables, the titles of the documents found), never from a free-text argument: a fallback carries no
    agent-written text.
    """
    sources: list[dict[str, str]] = []
    for record in verified.values():
        kind, result = read(record, kinds)
        scope = kind.scope(result)
        entry = {"source_type": kind.source_type, "source": scope.source, "scope": scope.verified}
        if entry not in sources:
            sources.append(entry)
    return sources


def source_of(record: InvocationRecord, kinds: Kinds) -> dict[str, str]:
    """The readable source and query scope of one verified call, as a reference shows it."""
    kind, result = read(record, kinds)
    scope = kind.scope(result)
    return {"source_type": kind.source_type, "source": scope.source, "scope": scope.queried}


def cited_evidence(record: InvocationRecord, kinds: Kinds) -> list[dict[str, Any]]:
    """The evidence a reference to one verified call shows the user."""
    kind, result = read(record, kinds)
    return kind.cite(result, _found(record))


def source_documents(verified: Mapping[str, InvocationRecord], kinds: Kinds) -> list[dict[str, str]]:
    """``{document_id, title}`` of every document the verified calls found (for a session's previous_turn)."""
    documents: list[dict[str, str]] = []
    for record in verified.values():
        kind, result = read(record, kinds)
        documents.extend(kind.documents(result))
    return documents


def snapshot_bytes(snapshot: list[dict[str, Any]], draft_visible: Mapping[str, Any], query: str) -> int:
    """UTF-8 size of the guard input, for the guard's max-input-bytes."""
    return len(guard_input_json(query, draft_visible, snapshot).encode())


def _found(record: InvocationRecord) -> bool:
    return record.evidence_status is EvidenceStatus.EVIDENCE_FOUND
