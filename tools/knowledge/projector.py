"""The agent's view of a ``lookup_knowledge`` call (§7.2, §7.4): exact excerpts, bounded, nothing internal.

Envelope, and nothing else::

    {"evidence_status", "tool_call_id", "query",
     "evidence": [{"document_id", "source", "title", "breadcrumb", "excerpt"}],
     "returned_count", "truncated"}

* An excerpt is exact section text, with any secret in it redacted (:mod:`contract.secrets`, the detector the
  release gate uses): the whole section when it fits, else a window cut with ``clip`` (a trailing
  ``…`` marks the cut). The window is the section's start, unless the first occurrence of the most specific
  matched term (raw ``matched_terms`` come most specific first) lies past what the prefix can show; then the
  window opens a quarter of the budget before that occurrence, moved forward to a line or sentence start (``。``)
  if one lies in between.
* Hits are taken in rank order; a repeated ``document_id`` or an identical section text is skipped.
* At most ``max-evidence`` items and ``max-total-chars`` of excerpt text; an item is cut to what is left of
  the total, and dropped when less than ``min(MIN_EXCERPT_CHARS, max-excerpt-chars)`` is left. ``truncated``
  is true whenever anything was cut or dropped.
* No scores, ranks, terms or index details. A failure raw becomes the ERROR envelope with its code and safe
  message; a malformed raw becomes ERROR ``PROJECTION_FAILED`` with the fixed message. Document text is data:
  it is copied, never interpreted.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from config.tool_budgets import RagBudget
from contract.secrets import redact
from contract.tool import PROJECTION_FAILED, SAFE_MESSAGES, Projection, clip, error_projection, failure_of
from contract.vocabulary import EvidenceStatus
from tools.knowledge.spec import MAX_QUERY_CHARS

MIN_EXCERPT_CHARS = 80
MAX_LABEL_CHARS = 200
MAX_REFERENCE_CHARS = 300
MAX_ERROR_MESSAGE_CHARS = 300
MAX_ERROR_CODE_CHARS = 64
EVIDENCE_KEYS = ("document_id", "source", "title", "breadcrumb", "excerpt")
ENVELOPE_KEYS = ("evidence_status", "tool_call_id", "query", "evidence", "returned_count", "truncated")


class _RawHit(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    document_id: str = Field(min_length=1, max_length=MAX_REFERENCE_CHARS)
    source: str = Field(min_length=1, max_length=MAX_REFERENCE_CHARS)
    title: str
    breadcrumb: str
    text: str = Field(min_length=1)
    matched_terms: list[str] = Field(default_factory=list)


class _RawResult(BaseModel):
    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS)
    hits: list[_RawHit]


def _window_start(text: str, terms: list[str], limit: int) -> int:
    for term in terms:
        match = re.search(re.escape(term), text, re.IGNORECASE) if term else None
        if match is not None:
            break
    else:
        return 0
    if match.end() <= limit - 1:  # already visible in the clipped prefix
        return 0
    start = max(0, match.start() - limit // 4)
    boundary = max(text.rfind("\n", start, match.start()), text.rfind("。", start, match.start()))
    return boundary + 1 if boundary >= 0 else start


def excerpt_of(text: str, terms: list[str], limit: int) -> tuple[str, bool]:
    """Exact text of at most ``limit`` characters from ``text``, and whether anything was left out."""
    if len(text) <= limit:
        return text, False
    excerpt, _ = clip(text[_window_start(text, terms, limit) :], limit)
    return excerpt, True


class RagResultProjector:
    """Deterministic projection of a raw ``lookup_knowledge`` response onto the §7.2 envelope."""

    def __init__(self, budget: RagBudget) -> None:
        self.budget = budget

    def project(self, tool_call_id: str, arguments: dict[str, Any], raw: dict[str, Any]) -> Projection:
        context = self._query_context(arguments)
        if not isinstance(raw, dict):
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED], **context)
        failure = failure_of(raw)
        if failure is not None:
            code, message = failure
            code = clip(code, MAX_ERROR_CODE_CHARS)[0]
            return error_projection(tool_call_id, code, clip(message, MAX_ERROR_MESSAGE_CHARS)[0], **context)
        try:
            result = _RawResult.model_validate(raw)
        except ValidationError:
            return error_projection(tool_call_id, PROJECTION_FAILED, SAFE_MESSAGES[PROJECTION_FAILED], **context)
        evidence, truncated = self._evidence(result.hits)
        status = EvidenceStatus.EVIDENCE_FOUND if evidence else EvidenceStatus.NO_EVIDENCE
        agent_result = {
            "evidence_status": status.value,
            "tool_call_id": tool_call_id,
            "query": redact(result.query)[0],
            "evidence": evidence,
            "returned_count": len(evidence),
            "truncated": truncated,
        }
        return Projection(agent_result, status)

    def _evidence(self, hits: list[_RawHit]) -> tuple[list[dict[str, str]], bool]:
        budget = self.budget
        smallest = min(MIN_EXCERPT_CHARS, budget.max_excerpt_chars)
        evidence: list[dict[str, str]] = []
        seen_ids: set[str] = set()
        seen_texts: set[str] = set()
        used = 0
        truncated = False
        for hit in hits:
            if hit.document_id in seen_ids or hit.text in seen_texts:
                continue
            limit = min(budget.max_excerpt_chars, budget.max_total_chars - used)
            if len(evidence) >= budget.max_evidence or limit < smallest:
                truncated = True
                break
            excerpt, cut = excerpt_of(hit.text, hit.matched_terms, limit)
            excerpt = redact(excerpt)[0]
            title, title_cut = clip(redact(hit.title)[0], MAX_LABEL_CHARS)
            breadcrumb, breadcrumb_cut = clip(redact(hit.breadcrumb)[0], MAX_LABEL_CHARS)
            truncated = truncated or cut or title_cut or breadcrumb_cut
            seen_ids.add(hit.document_id)
            seen_texts.add(hit.text)
            used += len(excerpt)
            evidence.append(
                {
                    "document_id": hit.document_id,
                    "source": hit.source,
                    "title": title,
                    "breadcrumb": breadcrumb,
                    "excerpt": excerpt,
                }
            )
        return evidence, truncated

    @staticmethod
    def _query_context(arguments: Any) -> dict[str, str]:
        query = arguments.get("query") if isinstance(arguments, dict) else None
        return {"query": clip(redact(query)[0], MAX_QUERY_CHARS)[0]} if isinstance(query, str) and query else {}
