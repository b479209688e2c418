"""What the audit keeps of model-, tool- and user-supplied text: redacted, then cut to a cap with a mark.

The caps are in characters; ``MAX_TEXT_CHARS`` keeps a text within a MySQL TEXT column. ``previous_turn`` read
back from a run's published result is bounded field by field (§4.6).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from contract.secrets import redact
from harness.messages import PreviousTurn

MAX_ERROR_MESSAGE_CHARS = 1000
MAX_TEXT_CHARS = 16000
"""A MySQL TEXT holds 65,535 bytes: 16,000 characters of 4-byte UTF-8."""
MAX_PARAMS_CHARS = 4000
"""Serialised ``tool_invocation.input_params`` beyond this is replaced by a marked, cut preview."""
MAX_GUARD_REASON_CHARS = 2000
TRUNCATION_MARK = "…"


def clip(value: str | None, limit: int) -> str | None:
    """``value`` cut to ``limit`` characters, without a mark (codes, names and kinds in short columns)."""
    return value if value is None or len(value) <= limit else value[:limit]


def cut_text(value: str, limit: int) -> str:
    """``value`` if it fits in ``limit`` characters, else its first ``limit - 1`` and a truncation mark."""
    return value if len(value) <= limit else value[: limit - 1] + TRUNCATION_MARK


def audit_text(value: str | None, limit: int) -> str | None:
    """Model-, tool- or user-supplied text as the audit keeps it: redacted, then cut with a truncation mark."""
    return None if value is None else cut_text(redact(value)[0], limit)


def audit_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """Tool arguments as the audit keeps them: redacted strings; when their JSON is longer than
    ``MAX_PARAMS_CHARS``, a marked preview instead (``{"truncated": true, "chars": N, "preview": "…"}``)."""
    redacted = _redact_values(dict(params))
    serialised = json_dumps(redacted)
    if len(serialised) <= MAX_PARAMS_CHARS:
        return redacted
    return {"truncated": True, "chars": len(serialised), "preview": cut_text(serialised, MAX_PARAMS_CHARS)}


def _redact_values(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)[0]
    if isinstance(value, dict):
        return {str(key): _redact_values(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_redact_values(item) for item in value]
    return value


def bounded_previous_turn(published: Mapping[str, Any], max_chars: int, max_documents: int) -> PreviousTurn:
    """``previous_turn`` from a run's ``published_result``, deterministically bounded field by field: each text
    (the query, conclusion, scope, every limitation, every document title) is cut to ``max_chars``; only the
    first ``max_documents`` source documents are kept. Document ids are never cut (a cut id names nothing).
    Raises ``ValidationError`` if ``published`` is not a published result."""
    turn = PreviousTurn.model_validate(dict(published))
    return PreviousTurn(
        user_query=cut_text(turn.user_query, max_chars),
        published_conclusion=None
        if turn.published_conclusion is None
        else cut_text(turn.published_conclusion, max_chars),
        scope=cut_text(turn.scope, max_chars),
        limitations=[cut_text(item, max_chars) for item in turn.limitations],
        source_documents=[
            {key: value if key == "document_id" else cut_text(value, max_chars) for key, value in document.items()}
            for document in turn.source_documents[:max_documents]
        ],
    )


def json_dumps(value: Any) -> str:
    """The audit's JSON: non-ASCII kept, anything else as its ``str``."""
    return json.dumps(value, ensure_ascii=False, default=str)
