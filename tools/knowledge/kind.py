"""``lookup_knowledge`` as an evidence kind: documents as evidence, the query as scope, KNOWLEDGE_QUERY's source."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, StrictInt

from contract.kind import EvidenceKind, Scope
from tools.knowledge.projector import RagResultProjector
from tools.knowledge.settings import KnowledgeToolSettings
from tools.knowledge.spec import LOOKUP_KNOWLEDGE_SPEC, TOOL_NAME
from tools.knowledge.tool import LookupKnowledgeTool

SOURCE_TYPE = "KNOWLEDGE"
KNOWLEDGE_SOURCE = "内部知识库"
"""How a lookup is named when it has no document title to show."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class Document(_Model):
    document_id: str
    title: str = ""
    breadcrumb: str = ""
    excerpt: str = ""


class KnowledgeResult(_Model):
    """A READY ``lookup_knowledge`` agent_result (§7.2)."""

    query: str
    evidence: list[Document] = []
    returned_count: StrictInt


def scope(result: KnowledgeResult) -> Scope:
    titles = dict.fromkeys(document.title for document in result.evidence if document.title)
    return Scope(
        source="、".join(titles) or KNOWLEDGE_SOURCE,
        queried=result.query,
        verified=KNOWLEDGE_SOURCE,
        complete=bool(result.query.strip()) and result.returned_count == 0,
    )


def _documents(result: KnowledgeResult) -> list[dict[str, str]]:
    return [
        document.model_dump(include={"document_id", "title", "breadcrumb", "excerpt"}) for document in result.evidence
    ]


def evidence(result: KnowledgeResult, found: bool) -> list[dict[str, Any]]:
    if not found:
        return [
            {
                "source_type": SOURCE_TYPE,
                "source": KNOWLEDGE_SOURCE,
                "scope": result.query,
                "asked": [result.query],
                "returned_count": 0,
            }
        ]
    return [{"source_type": SOURCE_TYPE, **document, "asked": [result.query]} for document in _documents(result)]


def cite(result: KnowledgeResult, found: bool) -> list[dict[str, Any]]:
    return _documents(result) if found else [{"returned_count": 0}]


def documents(result: KnowledgeResult) -> list[dict[str, str]]:
    return [{"document_id": document.document_id, "title": document.title} for document in result.evidence]


KIND = EvidenceKind(
    name=TOOL_NAME,
    source_type=SOURCE_TYPE,
    spec=lambda config: LOOKUP_KNOWLEDGE_SPEC,
    projector=lambda config: RagResultProjector(config.harness.rag),
    build=lambda config, clock: LookupKnowledgeTool(config.tools.lookup_knowledge, config.harness.rag, clock=clock),
    result=KnowledgeResult,
    evidence=evidence,
    scope=scope,
    cite=cite,
    documents=documents,
    answers_knowledge_queries=True,
    settings=KnowledgeToolSettings,
    default_settings={"concurrency": 4, "max-pending": 16},
    # the runbook, the error signature found in the logs, the data dictionary (the offline model asks 3) -> 6.
    max_calls=6,
)
