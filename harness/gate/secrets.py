"""The secret rule: no user-visible text, on any path, holds a secret.

One detector (:mod:`contract.secrets`, shared with the projectors) reads every text through the one normal form, so
a password behind markdown, a zero-width space or a look-alike letter is found like any other. A failure names the
text and the secret's kind, never its value.
"""

from __future__ import annotations

from collections.abc import Iterable

from contract.secrets import secret_kinds
from harness.gate.failures import EvidenceFailure, EvidenceFailureCode


def secret_failures(texts: Iterable[tuple[str, str]]) -> list[EvidenceFailure]:
    """One failure per ``(where, text)`` that holds a secret, named by the secret's kind, never by its value."""
    return [
        EvidenceFailure(
            EvidenceFailureCode.SECRET_IN_TEXT, f"{where} contains a secret ({', '.join(kinds)}); remove it"
        )
        for where, text in texts
        if (kinds := secret_kinds(text))
    ]


def holds_secret(text: str) -> bool:
    return bool(secret_kinds(text))
