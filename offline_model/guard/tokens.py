"""Rule 1: the tokens of a text that state a checkable fact, and the first one its evidence does not hold."""

from __future__ import annotations

import re
from typing import Any

from harness.gate.evidence import Grounds, evidence_of
from harness.gate.grounding import ungrounded
from harness.gate.tokens import tokenize
from offline_model.entities import ERROR_CODE_PATTERN as CODE
from offline_model.entities import ORDER_ID_PATTERN as ORDER
from offline_model.entities import SERVICE_PATTERN as SERVICE
from offline_model.guard.evidence import NOT_FACTS, SCOPE_KEYS, nfkc, pieces, readable_text
from offline_model.lexical import leaf_text, normalise

_NUMBER = re.compile(r"\d{2,}")
UPPER = re.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Z0-9]{2,}(?:_[A-Z0-9]+)*(?![A-Za-z0-9_])")
SNAKE = re.compile(r"(?<![A-Za-z0-9_])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![A-Za-z0-9_])")
QUOTED = re.compile(r"「([^「」]+)」|“([^“”]+)”|\"([^\"]+)\"|(?<![A-Za-z])'([^']+)'(?![A-Za-z])|`([^`]+)`")


def distinctive_tokens(text: str) -> list[str]:
    """Every token of ``text`` that states a checkable fact: quoted phrases, then ids, codes, names, numbers."""
    quoted = [next(g for g in m.groups() if g is not None).strip().rstrip("…").strip() for m in QUOTED.finditer(text)]
    return list(dict.fromkeys([*filter(None, quoted), *_bare_tokens(text)]))


def _bare_tokens(text: str) -> list[str]:
    tokens = [match.group(0) for pattern in (ORDER, CODE, SERVICE, SNAKE) for match in pattern.finditer(text)]
    return tokens + [word for word in UPPER.findall(text) if word.lower() not in NOT_FACTS] + _NUMBER.findall(text)


def unsupported_token(
    text: str, evidence: Any, scope_is_fact: bool = False, operands: tuple[str, ...] = ()
) -> str | None:
    """The first token of ``text`` its evidence does not hold, or None (rule 1 of the module docstring). Numbers,
    times and numbered ids are read as the release gate reads them (units, derivations from ``operands``)."""
    text, everything = nfkc(text), readable_text(leaf_text(evidence))
    data = everything if scope_is_fact else readable_text(leaf_text(_data_of(evidence)))
    for match in QUOTED.finditer(text):
        phrase = next(g for g in match.groups() if g is not None).strip()
        if any(piece not in everything for piece in pieces(phrase)):
            return phrase.rstrip("….")
    rest = QUOTED.sub(" ", text)
    for token in (t for t in _bare_tokens(rest) if not t.isdigit()):
        negated = re.search(rf"(?:没有|无|未|并非|不是|\bno|\bnot|without)\s*{re.escape(token)}", rest)
        if normalise(token) not in (everything if SNAKE.fullmatch(token) else data) and not negated:
            return token
    missing = set(ungrounded(rest, _grounds(evidence, scope_is_fact, operands), operand_texts=operands))
    tokens = tokenize(rest)
    numeric = [number.written for number in tokens.numbers] + [moment.written for moment in tokens.moments]
    numeric += [i.written for i in tokens.identifiers if not i.negated and re.search(r"\d", i.written)]
    return next((token for token in numeric if token in missing and re.search(r"\d\d", token)), None)


def _grounds(evidence: Any, scope_is_fact: bool, texts: tuple[str, ...]) -> Grounds:
    """What the release gate reads numbers, times and derived values from: the snapshot entries themselves (so a
    count of one call's entries, the unit an entry names, the asked values are read as the gate reads them), and
    ``texts`` (the question, the analyses a conclusion rests on) as found."""
    return evidence_of(_entries(evidence), scope_is_fact=scope_is_fact).merged(evidence_of([], texts))


def _entries(evidence: Any) -> list[Any]:
    """The snapshot entries in ``evidence`` (one analysis's list, or the lists of several), flattened."""
    if isinstance(evidence, list | tuple):
        return [entry for item in evidence for entry in _entries(item)]
    return [] if evidence is None else [evidence]


def _data_of(evidence: Any) -> Any:
    """What an evidence entry found: not the scope it echoes, unless an SQL filter that returned rows (a metric's
    ``selection``, the label values its series were selected by, is data already)."""
    if isinstance(evidence, list):
        return [_data_of(item) for item in evidence]
    if not isinstance(evidence, dict) or (evidence.get("source_type") == "MYSQL" and evidence.get("returned_count")):
        return evidence
    return {key: value for key, value in evidence.items() if key not in SCOPE_KEYS}
