"""The evidence-kind descriptor: everything the rest of the system needs to know about one evidence tool.

A tool package exports one ``EvidenceKind``. The Harness receives the configured kinds through its services and
asks them, never a tool's name, what a result shows: its exact evidence (the SemanticGuard's snapshot entries),
its scope (what was queried, for references, NEGATIVE_OBSERVATION and the fallback's verified sources) and how
it is cited in a reference. The tool actors build the tool from it; the tool boundary offers its spec and runs
its projector. The kind also declares its configuration: the model of its ``tools.<name>`` section, that
section's default and its default per-tool call limit, so config/ names no tool. Adding an evidence source is one
package exporting one kind, plus one configuration entry (``tools.<name>.kind: "package.module:KIND"``).

Every question about a result takes its typed agent_result (``result``, a pydantic model of the READY envelope,
EVIDENCE_FOUND or NO_EVIDENCE): :meth:`EvidenceKind.read` parses the stored dict, and a result that does not
parse cannot be cited.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from contract.clock import Clock
from contract.tool import EvidenceTool, ToolResultProjector, ToolSpec


@dataclass(frozen=True)
class Scope:
    """What one call queried, in words a reader understands."""

    source: str
    """The readable source: a log topic (with ``(MOCK)`` for mock data), a data source, document titles."""
    queried: str
    """What was asked, as the references and the SemanticGuard read it (it may quote the agent's own query)."""
    verified: str
    """The same from validated parameters only (topic and window, data source and tables …): what a fallback may
    show, never a free-text argument."""
    complete: bool
    """It keeps the query's conditions, its range and a zero count: a NEGATIVE_OBSERVATION may cite it (§4.3)."""


def _no_documents(result: Any) -> list[dict[str, str]]:
    return []


def _always(config: Any) -> bool:
    return True


@dataclass(frozen=True)
class EvidenceKind:
    """One evidence tool. ``config`` is the application configuration (``config.app.AppConfig``)."""

    name: str
    """The tool's name, as the model calls it and the configuration keys it."""
    source_type: str
    """How references and the snapshot label its evidence: KNOWLEDGE, LOG, MYSQL, METRIC …"""
    spec: Callable[[Any], ToolSpec]
    """(config) -> what the model sees: name, ACI description, argument model."""
    projector: Callable[[Any], ToolResultProjector]
    """(config) -> the deterministic projector of its raw responses."""
    build: Callable[[Any, Clock], EvidenceTool]
    """(config, clock) -> the tool itself (opens its data source; the tool actor calls this)."""
    result: type[BaseModel]
    """The typed agent_result of a READY call."""
    evidence: Callable[[Any, bool], list[dict[str, Any]]]
    """(result, found) -> its exact evidence as SemanticGuard snapshot entries (excerpts, values, rows). In each
    entry, ``asked`` lists the values the agent wrote into the call (its free query text, its SQL literals and
    params) and ``scope`` describes the query as asked; every other field is what the source returned. The release
    gate never takes an ``asked`` value as evidence of what the data holds."""
    scope: Callable[[Any], Scope]
    """(result) -> what it queried."""
    cite: Callable[[Any, bool], list[dict[str, Any]]]
    """(result, found) -> the evidence a reference to it shows the user."""
    documents: Callable[[Any], list[dict[str, str]]] = _no_documents
    """(result) -> ``{document_id, title}`` of the documents it found (a session's previous_turn keeps them)."""
    available: Callable[[Any], bool] = _always
    """(config) -> whether this configuration can offer it (query_mysql needs a data source)."""
    answers_knowledge_queries: bool = False
    """The one kind a KNOWLEDGE_QUERY is answered from (§4.5: one lookup with the raw query)."""
    settings: type[BaseModel] | None = None
    """The model of its ``tools.<name>`` section: ``config.tools.ToolRuntime`` with the tool's own fields; None is
    ``ToolRuntime`` itself. Read for the bundled kinds (an operator's tool gives its own settings as ``options``)."""
    default_settings: Mapping[str, Any] = field(default_factory=dict, hash=False)
    """Its ``tools.<name>`` section when the configuration writes none."""
    max_calls: int | None = None
    """Its default ``harness.agent.max-tool-calls-per-tool`` entry; None: bounded by max-tool-calls only."""

    def read(self, agent_result: Mapping[str, Any] | None) -> Any | None:
        """The typed agent_result, or None when ``agent_result`` is not one of this kind."""
        if not isinstance(agent_result, Mapping):
            return None
        try:
            return self.result.model_validate(dict(agent_result))
        except ValidationError:
            return None
