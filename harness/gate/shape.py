"""The shape rule: a report says something. A conclusion has text (``null`` says the evidence allows none), and at
least one analysis item cites evidence of this run."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from harness.draft import Draft
from harness.gate.failures import EvidenceFailure
from harness.gate.failures import EvidenceFailureCode as Code

_NOTHING_SAID = re.compile(r"^(?:无|暂无|空|待定|未知|不详|略|none|null|n/?a|tbd|todo|unknown|-+)?$", re.IGNORECASE)


def shape_failures(draft: Draft, evidence: Mapping[str, Sequence[Any]], skip: set[str]) -> list[EvidenceFailure]:
    """EMPTY_CONCLUSION and NO_CITED_ANALYSIS; items in ``skip`` (whose citations failed) count as citing."""
    failures: list[EvidenceFailure] = []
    if draft.conclusion is not None and says_nothing(draft.conclusion.text):
        failures.append(
            EvidenceFailure(
                Code.EMPTY_CONCLUSION, "conclusion has no text; state the conclusion, or set conclusion to null"
            )
        )
    if not any(evidence.get(item.analysis_id) or item.analysis_id in skip for item in draft.analysis):
        failures.append(
            EvidenceFailure(Code.NO_CITED_ANALYSIS, "the draft has no analysis item that cites evidence of this run")
        )
    return failures


def says_nothing(text: str) -> bool:
    """Whether ``text`` is blank once invisible characters, punctuation and placeholders (无, N/A, TBD …) go."""
    visible = "".join(
        char for char in text if unicodedata.category(char)[0] not in ("C", "Z", "P") and not char.isspace()
    )
    return bool(_NOTHING_SAID.match(visible))
