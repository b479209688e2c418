"""``lookup_knowledge``: search the internal knowledge base (runbooks, error codes, data dictionary).

``run`` returns the *raw* response, which only the Harness sees: the query, every hit with its full section
text, its BM25 score, coverage and matched terms, and the index's own details (what the specification calls
retrieval trace). :class:`~tools.knowledge.projector.RagResultProjector` turns it into the bounded agent view.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from config.tool_budgets import RagBudget
from contract.clock import Clock
from contract.tool import INVALID_ARGUMENTS, ToolResultProjector, ToolSpec, failure_raw
from tools.knowledge import index as retrieval
from tools.knowledge.index import KnowledgeIndex, KnowledgeUnavailable, SearchResult
from tools.knowledge.projector import RagResultProjector
from tools.knowledge.settings import KnowledgeToolSettings
from tools.knowledge.spec import KNOWLEDGE_UNAVAILABLE, LOOKUP_KNOWLEDGE_SPEC, SAFE_MESSAGES, LookupKnowledgeArguments
from tools.knowledge.store import HEADING_WEIGHT, TITLE_WEIGHT

BUNDLED_DOCS = Path(__file__).resolve().parent / "docs"
MAX_RAW_HITS = 20
"""Hits kept in the raw response (at least one more than the projection can show, so it can tell it cut)."""


def knowledge_folder(settings: KnowledgeToolSettings) -> Path:
    """The configured folder, or the bundled demo documents when none is configured."""
    return Path(settings.path).expanduser() if settings.path else BUNDLED_DOCS


def index_location(settings: KnowledgeToolSettings, folder: Path) -> Path:
    """The configured index directory, else ``.<folder name>.index`` beside the folder."""
    if settings.index_path:
        return Path(settings.index_path).expanduser()
    return folder.parent / f".{folder.name}.index"


def _raw_response(query: str, result: SearchResult, folder: Path) -> dict[str, Any]:
    hits = [
        {
            "rank": rank,
            "document_id": hit.chunk.document_id,
            "source": hit.chunk.source,
            "title": hit.chunk.title,
            "breadcrumb": hit.chunk.breadcrumb,
            "text": hit.chunk.text,
            "score": hit.score,
            "coverage": hit.coverage,
            "matched_terms": list(hit.matched_terms),
        }
        for rank, hit in enumerate(result.hits, start=1)
    ]
    return {
        "query": query,
        "hits": hits,
        "retrieval": {
            "terms": list(result.terms),
            "expanded_terms": list(result.expansions),
            "candidate_count": result.candidate_count,
            "qualified_count": result.qualified_count,
            "rule": {
                "method": "tantivy-bm25",
                "title_weight": TITLE_WEIGHT,
                "heading_weight": HEADING_WEIGHT,
                "candidates": retrieval.CANDIDATES,
                "min_matched_terms": retrieval.MIN_MATCHED_TERMS,
                "min_coverage": retrieval.MIN_COVERAGE,
            },
            "index": {
                "folder": str(folder),
                "documents": result.totals.documents,
                "sections": result.totals.sections,
                "skipped_files": [{"path": path, "reason": reason} for path, reason in result.totals.skipped],
            },
        },
    }


class LookupKnowledgeTool:
    """The ``lookup_knowledge`` evidence tool over one folder of documents, indexed on disk."""

    spec: ToolSpec = LOOKUP_KNOWLEDGE_SPEC

    def __init__(
        self,
        settings: KnowledgeToolSettings,
        budget: RagBudget,
        *,
        folder: Path | None = None,
        clock: Clock | None = None,
        watch: bool = True,
    ) -> None:
        self.projector: ToolResultProjector = RagResultProjector(budget)
        self.folder = folder if folder is not None else knowledge_folder(settings)
        self._hit_limit = max(MAX_RAW_HITS, budget.max_evidence + 1)
        self._index = KnowledgeIndex(self.folder, index_location(settings, self.folder), clock=clock, watch=watch)

    @property
    def index(self) -> KnowledgeIndex:
        return self._index

    def run(self, call_id: str, arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            query = LookupKnowledgeArguments.model_validate(arguments).query
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(map(str, error['loc'])) or 'arguments'}: {error['msg']}"
                for error in exc.errors(include_url=False, include_input=False)
            )
            return failure_raw(INVALID_ARGUMENTS, SAFE_MESSAGES[INVALID_ARGUMENTS], problems)
        try:
            result = self._index.search(query, self._hit_limit)
        except KnowledgeUnavailable as exc:
            return failure_raw(KNOWLEDGE_UNAVAILABLE, SAFE_MESSAGES[KNOWLEDGE_UNAVAILABLE], str(exc))
        return _raw_response(query, result, self.folder)

    def cancel(self, call_id: str) -> None:
        """Nothing to stop: a search is a few milliseconds of index work."""
