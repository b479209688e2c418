"""The release gate measured on the corpus, as a run uses it: each faithful draft and each mutation goes through
:func:`harness.gate.check` on a :class:`~harness.gate.Report` (the draft text as the agent sent it and the records
of its cited calls), exactly as a run checks a draft (:mod:`harness.run.paths.diagnosis`). Optionally, a
SemanticGuard (any callable on the guard's request, e.g. the offline model's lexical reviewer) is asked about the
drafts the gate lets through.

Figures, in total, by pattern and by style (and by mutation category):

* faithful drafts the gate refuses (target ≤ 1 %);
* absent-token mutations the gate catches (target ≥ 99 %);
* present-token mutations: left to the SemanticGuard by design, reported with how many the gate happened to catch.

A mutation counts as caught when the gate finds a failure in it that it does not find in its faithful draft (a
draft the gate already refuses is not "caught" again by the same refusal): so the figure is meaningful on the
drafts today's gate refuses too. A mutation of a token the gate already refuses in the faithful draft measures
nothing (any value there is refused) and is counted apart, as ``unmeasured``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from harness import gate
from harness.draft import Draft
from harness.gate import ClaimPolicy
from harness.gate_mutations.drafts import FaithfulDraft, faithful_drafts, get_text
from harness.gate_mutations.mutations import Mutation, mutations
from harness.invocation import InvocationRecord
from harness.messages import GuardRequest
from harness.snapshot import Kinds, build_snapshot

TARGET_FAITHFUL_REFUSED = 0.01
TARGET_ABSENT_CAUGHT = 0.99
MAX_EXAMPLES = 3

Guard = Callable[[GuardRequest], str]
"""A SemanticGuard in-process: the request -> SUPPORTED | UNSUPPORTED."""


@dataclass
class Tally:
    """One row of figures (a pattern, a style, a category or the total)."""

    faithful: int = 0
    refused: int = 0
    absent: int = 0
    caught: int = 0
    present: int = 0
    present_caught: int = 0
    guard_faithful: int = 0
    guard_refused: int = 0
    guard_mutations: int = 0
    guard_caught: int = 0
    unmeasured: int = 0
    """Mutations of a token the gate already refuses in the faithful draft."""

    @property
    def refused_share(self) -> float:
        return self.refused / self.faithful if self.faithful else 0.0

    @property
    def caught_share(self) -> float:
        return self.caught / self.absent if self.absent else 1.0

    def meets(self) -> bool:
        return self.refused_share <= TARGET_FAITHFUL_REFUSED and self.caught_share >= TARGET_ABSENT_CAUGHT


@dataclass
class MutationFigures:
    """What ``superbiz eval --mutations`` prints."""

    total: Tally = field(default_factory=Tally)
    by_pattern: dict[str, Tally] = field(default_factory=dict)
    by_style: dict[str, Tally] = field(default_factory=dict)
    by_category: dict[str, Tally] = field(default_factory=dict)
    refusals: Counter[str] = field(default_factory=Counter)
    """Why faithful drafts were refused: the failure message with its token, by count."""
    refusal_examples: dict[str, list[str]] = field(default_factory=dict)
    misses: Counter[str] = field(default_factory=Counter)
    """Absent-token mutations let through, by ``category/pattern``."""
    miss_examples: dict[str, list[str]] = field(default_factory=dict)
    guard: bool = False


def gate_failures(draft: FaithfulDraft, text: str, kinds: Kinds, policy: ClaimPolicy) -> tuple[Any, ...]:
    """The gate's failures on ``text`` as a run checks it: the records of the cited calls, the run's kinds."""
    records: Mapping[str, InvocationRecord | None] = {c: draft.records.get(c) for c in gate.cited_tool_call_ids(text)}
    return gate.check(gate.Report(text, records, kinds, draft.query, run_id=None), policy).failures


def guard_request(draft: FaithfulDraft, content: dict[str, Any], kinds: Kinds) -> GuardRequest:
    parsed = Draft.model_validate(content)
    snapshot = build_snapshot(parsed, draft.records, kinds)
    return GuardRequest(query=draft.query, draft=parsed.user_visible(), verified_evidence=snapshot)


def measure(
    kinds: Kinds,
    policy: ClaimPolicy,
    records: Mapping[str, InvocationRecord],
    *,
    seed: int = 0,
    sample: int | None = None,
    guard: Guard | None = None,
) -> MutationFigures:
    """The figures on the corpus of ``records`` (every ``sample``-th faithful draft when given)."""
    drafts = faithful_drafts(records, seed)
    drafts = drafts[::sample] if sample else drafts
    figures = MutationFigures(guard=guard is not None)
    for draft in drafts:
        known = _faithful(figures, draft, kinds, policy, guard)
        for mutation in mutations(draft):
            _mutation(figures, mutation, kinds, policy, guard, known)
    return figures


def _rows(figures: MutationFigures, pattern: str, style: str, category: str | None = None) -> Iterable[Tally]:
    yield figures.total
    yield figures.by_pattern.setdefault(pattern, Tally())
    yield figures.by_style.setdefault(style, Tally())
    if category is not None:
        yield figures.by_category.setdefault(category, Tally())


def _faithful(
    figures: MutationFigures, draft: FaithfulDraft, kinds: Kinds, policy: ClaimPolicy, guard: Guard | None
) -> frozenset[str]:
    """Count one faithful draft; the failures the gate finds in it (a mutation must add one to be caught)."""
    failures = gate_failures(draft, draft.text(), kinds, policy)
    judged = guard(guard_request(draft, draft.draft, kinds)) if guard is not None and not failures else None
    for row in _rows(figures, draft.pattern, draft.style):
        row.faithful += 1
        row.refused += bool(failures)
        row.guard_faithful += judged is not None
        row.guard_refused += judged == "UNSUPPORTED"
    for key, example in dict(_reason(draft, failure) for failure in failures).items():
        figures.refusals[key] += 1
        examples = figures.refusal_examples.setdefault(key, [])
        if len(examples) < MAX_EXAMPLES:
            examples.append(example)
    return frozenset(f"{f.code}: {f.message}" for f in failures)


def _mutation(
    figures: MutationFigures,
    mutation: Mutation,
    kinds: Kinds,
    policy: ClaimPolicy,
    guard: Guard | None,
    known: frozenset[str],
) -> None:
    if any(f"「{mutation.old}」" in failure for failure in known):
        for row in _rows(figures, mutation.pattern, mutation.source.style, mutation.category):
            row.unmeasured += 1
        return
    content = mutation.draft()
    source = mutation.source
    failures = gate_failures(source, json.dumps(content, ensure_ascii=False), kinds, policy)
    caught = bool({f"{f.code}: {f.message}" for f in failures} - known)
    judged = guard(guard_request(source, content, kinds)) if guard is not None and not caught else None
    for row in _rows(figures, mutation.pattern, source.style, mutation.category):
        if mutation.present:
            row.present += 1
            row.present_caught += caught
        else:
            row.absent += 1
            row.caught += caught
        row.guard_mutations += judged is not None
        row.guard_caught += judged == "UNSUPPORTED"
    if not mutation.present and not caught:
        key = f"{mutation.category}/{mutation.pattern}"
        figures.misses[key] += 1
        examples = figures.miss_examples.setdefault(key, [])
        if len(examples) < MAX_EXAMPLES:
            text = content
            for part in mutation.field:
                text = text[part]
            examples.append(f"{mutation.old} → {mutation.new} in {source.id}: {text}")


def _reason(draft: FaithfulDraft, failure: Any) -> tuple[str, str]:
    """A refusal grouped by its code, the pattern of the fact whose token it names and the message without the
    token (so one reason groups across drafts); and an example: the token and the text it was refused in."""
    message = str(failure.message)
    quoted = re.search(r"「(.+?)」", message)
    token = quoted.group(1) if quoted else ""
    template = re.sub(r"\b(?:analysis )?a\d+\b", "aN", message.replace(f"「{token}」", "「…」"))[:110]
    holder = next((t for t in draft.tokens if token and t.span.text == token), None) or next(
        (t for t in draft.tokens if token and token in t.span.text), None
    )
    pattern = holder.pattern if holder is not None else "unmarked text"
    where = holder.field if holder is not None else None
    text = get_text(draft.draft, where) if where is not None else _item_of(draft, message)
    return f"{failure.code} [{pattern}] {template}", f"{draft.id} ({draft.style}): 「{token}」 in: {text[:300]}"


def _item_of(draft: FaithfulDraft, message: str) -> str:
    found = re.search(r"\b(a\d+)\b", message)
    for item in draft.draft["analysis"]:
        if found and item["analysis_id"] == found.group(1):
            return str(item["text"])
    return str(draft.draft["conclusion"]["text"])
