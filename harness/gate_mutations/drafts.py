"""The corpus of faithful drafts: every pattern in every style, written from the real results, deterministic by
seed. Each draft carries its tool results (the records a run holds) and the spans of its fact tokens."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from harness.draft import Draft
from harness.gate_mutations.count_facts import count_facts
from harness.gate_mutations.date_facts import date_facts
from harness.gate_mutations.facts import PATTERNS, Fact
from harness.gate_mutations.marks import Span, unmark
from harness.gate_mutations.name_facts import name_facts
from harness.gate_mutations.results import Results
from harness.gate_mutations.styles import STYLES, write
from harness.gate_mutations.time_facts import time_facts
from harness.invocation import InvocationRecord

VARIANTS = 3
"""Drafts per pattern and style (each with another fact of the pattern, or another phrasing and company)."""
QUERIES = {
    "zh": "订单 order-123 支付超时，帮我排查",
    "en": "Order order-123 timed out at payment, please investigate",
    "mix": "order-123 支付 timeout 了，帮忙排查一下",
}

Field = tuple[str | int, ...]
"""Where a text sits in the draft: ("analysis", 0, "text"), ("conclusion", "text") …"""


@dataclass(frozen=True)
class TokenSpan:
    """A fact token of a faithful draft: where it is, and the pattern of the fact it belongs to."""

    field: Field
    span: Span
    pattern: str


@dataclass(frozen=True)
class FaithfulDraft:
    id: str
    style: str
    pattern: str
    """The pattern under test (the first analysis item follows it)."""
    query: str
    draft: dict[str, Any]
    """The Draft JSON the agent would send, tool_call_ids included."""
    records: Mapping[str, InvocationRecord]
    """Every record the draft cites, by tool_call_id."""
    tokens: tuple[TokenSpan, ...]

    def text(self) -> str:
        return json.dumps(self.draft, ensure_ascii=False)

    def cited(self, field: Field) -> tuple[str, ...]:
        """The tool_call_ids whose results ground ``field``: its item's, or (conclusion) those of every item."""
        items = self.draft["analysis"]
        if field[0] == "analysis":
            return tuple(items[int(field[1])]["tool_call_ids"])
        return tuple(dict.fromkeys(call for item in items for call in item["tool_call_ids"]))


def all_facts(results: Results) -> dict[str, list[Fact]]:
    """Every fact the results allow, by pattern."""
    by_pattern: dict[str, list[Fact]] = {pattern: [] for pattern in PATTERNS}
    for fact in (*time_facts(results), *date_facts(results), *count_facts(results), *name_facts(results)):
        by_pattern[fact.pattern].append(fact)
    return by_pattern


def faithful_drafts(records: Mapping[str, InvocationRecord], seed: int = 0) -> list[FaithfulDraft]:
    """Every pattern × style × variant that the results allow, in that order; repeated drafts are kept once."""
    results = Results(records)
    by_pattern = all_facts(results)
    everything = [fact for found in by_pattern.values() for fact in found]
    drafts: list[FaithfulDraft] = []
    seen: set[str] = set()
    for pattern in PATTERNS:
        for style in STYLES:
            for variant in range(VARIANTS):
                found = by_pattern[pattern]
                if not found:
                    continue
                rng = random.Random(f"{seed}:{pattern}:{style}:{variant}")
                focus = found[(variant + seed) % len(found)]
                others = [fact for fact in everything if fact is not focus and fact.pattern != pattern]
                company = rng.sample(others, k=min(len(others), rng.choice((1, 2))))
                made = _finish(f"{pattern}.{style}.{variant}", style, pattern, [focus, *company], records, rng)
                if made.text() not in seen:
                    seen.add(made.text())
                    drafts.append(made)
    return drafts


def _finish(
    ident: str,
    style: str,
    pattern: str,
    chosen: list[Fact],
    records: Mapping[str, InvocationRecord],
    rng: random.Random,
) -> FaithfulDraft:
    written = write(style, chosen, rng)
    draft = written.draft
    tokens: list[TokenSpan] = []
    for where, marked in _texts(draft):
        text, spans = unmark(marked)
        _put(draft, where, text)
        tokens += [TokenSpan(where, span, str(span.meta.get("pattern", chosen[0].pattern))) for span in spans]
    Draft.model_validate(draft)  # a writer bug must fail here, not in the gate
    cited = {call: records[call] for item in draft["analysis"] for call in item["tool_call_ids"]}
    return FaithfulDraft(ident, style, pattern, QUERIES[written.language], draft, cited, tuple(tokens))


def _texts(draft: dict[str, Any]) -> list[tuple[Field, str]]:
    texts: list[tuple[Field, str]] = [(("conclusion", "text"), draft["conclusion"]["text"])]
    texts += [(("analysis", i, "text"), item["text"]) for i, item in enumerate(draft["analysis"])]
    texts += [(("action_plan", i, "action"), item["action"]) for i, item in enumerate(draft["action_plan"])]
    texts += [(("recommendations", i, "text"), item["text"]) for i, item in enumerate(draft["recommendations"])]
    return texts


def get_text(draft: dict[str, Any], where: Field) -> str:
    node: Any = draft
    for part in where:
        node = node[part]
    return str(node)


def _put(draft: dict[str, Any], where: Field, text: str) -> None:
    node: Any = draft
    for part in where[:-1]:
        node = node[part]
    node[where[-1]] = text
