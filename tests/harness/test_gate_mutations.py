"""The mutation corpus on a sample: faithful drafts from the demo's real tool results in every style and pattern,
their one-token mutations, the labels the presence rule gives them, the figures command, and the targets of the
release gate and the offline guard on a sample of two seeds (``superbiz eval --mutations`` prints the whole)."""

from __future__ import annotations

import io
import json
import re
from decimal import Decimal

import pytest
from rich.console import Console

from config import load_config
from harness.draft import Draft
from harness.gate_mutations import PATTERNS, STYLES, FaithfulDraft, faithful_drafts
from harness.gate_mutations.drafts import get_text
from harness.gate_mutations.figures import TARGET_ABSENT_CAUGHT, TARGET_FAITHFUL_REFUSED
from harness.gate_mutations.marks import mark, quantity, unmark
from harness.gate_mutations.mutations import CATEGORIES, Mutation, check_one_token, mutations
from harness.gate_mutations.notation import chinese_tens
from harness.gate_mutations.presence import evidence_of, number_present, word_present
from harness.gate_mutations.results import records_of
from harness.invocation import InvocationRecord
from tools.demo_calls import DEMO_CALLS, demo_calls

SAMPLE = 23
"""Every SAMPLE-th faithful draft is mutated here (about fifteen drafts, a thousand mutations)."""


@pytest.fixture(scope="module")
def records() -> dict[str, InvocationRecord]:
    return records_of(demo_calls(load_config()))


@pytest.fixture(scope="module")
def drafts(records: dict[str, InvocationRecord]) -> list[FaithfulDraft]:
    return faithful_drafts(records, seed=0)


@pytest.fixture(scope="module")
def sample(drafts: list[FaithfulDraft]) -> list[Mutation]:
    return [mutation for draft in drafts[::SAMPLE] for mutation in mutations(draft)]


def test_every_demo_call_returns_evidence_from_the_real_tools(records: dict[str, InvocationRecord]) -> None:
    assert list(records) == [call for call, _, _ in DEMO_CALLS]
    for record in records.values():
        assert record.agent_result is not None and record.agent_result["evidence_status"] == "EVIDENCE_FOUND"
    assert records["call_sql_order"].agent_result["rows"][0]["created_at"] == "2026-12-01 11:14:00"  # type: ignore[index]


def test_the_corpus_has_every_pattern_in_every_style(drafts: list[FaithfulDraft]) -> None:
    assert len(drafts) >= 250
    assert len(STYLES) >= 6 and {draft.style for draft in drafts} == set(STYLES)
    assert {draft.pattern for draft in drafts} == set(PATTERNS)
    assert {token.pattern for draft in drafts for token in draft.tokens} == set(PATTERNS)
    for style in STYLES:
        assert {d.pattern for d in drafts if d.style == style} == set(PATTERNS), style
    assert len({draft.text() for draft in drafts}) == len(drafts)


def test_each_faithful_draft_is_a_draft_citing_its_records(drafts: list[FaithfulDraft]) -> None:
    for draft in drafts[::7]:
        parsed = Draft.model_validate(draft.draft)
        assert set(parsed.cited_tool_call_ids()) == set(draft.records)
        assert all(action.requires_human_confirmation for action in parsed.action_plan if "调整" in action.action)
        for token in draft.tokens:
            assert get_text(draft.draft, token.field)[token.span.start : token.span.end] == token.span.text
        assert "\ue000" not in draft.text()


def test_the_corpus_is_deterministic_by_seed(records: dict[str, InvocationRecord]) -> None:
    first, again = faithful_drafts(records, seed=3), faithful_drafts(records, seed=3)
    assert [d.text() for d in first] == [d.text() for d in again]
    assert [d.text() for d in first] != [d.text() for d in faithful_drafts(records, seed=4)]


def test_values_are_computed_from_the_results(drafts: list[FaithfulDraft]) -> None:
    texts = " ".join(item["text"] for draft in drafts for item in draft.draft["analysis"])
    for written in ("约 9 秒后", "持续了约 20 分钟", "创建约 15 分钟后即被置为 TIMEOUT", "每隔约 5 分钟报一次 DOWN",
                    "约 1.4 秒（27.932s − 26.506s）", "耗时 21～28 秒", "12 月 1 日", "北京时间 19:15:07",
                    "共 19 笔", "占比约 31.6%", "= 0.3924 / (0.3924 + 0.1001)，约 80%", "biz_order.payment_status",
                    "四十多条", "p99 延迟最高 30 秒", "30001 毫秒"):  # fmt: skip
        assert written in texts, written


def test_each_mutation_changes_exactly_one_token(sample: list[Mutation]) -> None:
    assert len(sample) > 200
    assert {mutation.category for mutation in sample} == set(CATEGORIES)
    assert {mutation.present for mutation in sample} == {True, False}
    for mutation in sample:
        assert mutation.new != mutation.old
        assert check_one_token(mutation), mutation.id
        Draft.model_validate(mutation.draft())


def test_labels_follow_the_presence_rule(sample: list[Mutation]) -> None:
    for mutation in sample:
        source = mutation.source
        cited = [source.records[c].agent_result for c in source.cited(mutation.field)]
        haystack = (json.dumps(cited, ensure_ascii=False) + source.query).lower()
        if mutation.category in ("id", "status") and "." not in mutation.new:
            occurs = re.search(rf"(?<![\w-]){re.escape(mutation.new.lower())}(?![\w-])", haystack) is not None
            assert occurs == mutation.present, mutation.id


def test_the_presence_rule_on_known_tokens(records: dict[str, InvocationRecord]) -> None:
    row = records["call_sql_order"].agent_result
    evidence = evidence_of([row], "订单 order-123 支付超时")  # type: ignore[list-item]
    assert word_present("TIMEOUT", evidence) and not word_present("PAID", evidence)
    assert word_present("biz_order.payment_status", evidence) and not word_present("biz_order.pay_status", evidence)
    logs = evidence_of([records["call_logs_order"].agent_result], "")  # type: ignore[list-item]
    assert number_present(Decimal(30007), "ms", logs, tolerance=Decimal(0))
    assert not number_present(Decimal(30500), "ms", logs, tolerance=Decimal(0))
    assert number_present(Decimal(30), "秒", logs, tolerance=Decimal("0.5"))  # 约 30 秒 for 30007ms
    assert number_present(Decimal(20), "分钟", logs, tolerance=Decimal("0.5"), derived="duration")
    assert not number_present(Decimal(19), "次", logs, tolerance=Decimal(0))
    # a pattern's slot values count its events per order id: 7 + 5 + 5 + 3 ERR_TIMEOUT calls of four orders
    assert number_present(Decimal(20), "次", logs, tolerance=Decimal(0))


def test_marks_round_trip() -> None:
    text, spans = unmark(f"共 {quantity('19', '笔', derived='sum')}，{mark('status', 'TIMEOUT', group='payment')}")
    assert text == "共 19 笔，TIMEOUT"
    assert [(s.kind, s.text, s.meta.get("unit")) for s in spans] == [
        ("number", "19 笔", "笔"),
        ("status", "TIMEOUT", None),
    ]
    assert (chinese_tens(43), chinese_tens(48), chinese_tens(40), chinese_tens(185)) == ("四十多", "近五十", None, None)


def test_the_figures_command_runs() -> None:
    from cli.eval_mutations import mutation_figures, print_figures

    figures = mutation_figures(load_config(), sample=40)
    assert figures.total.faithful >= 8 and figures.total.absent > 0 and figures.total.present > 0
    assert set(figures.by_style) <= set(STYLES) and set(figures.by_pattern) <= set(PATTERNS)
    assert figures.total.guard_faithful + figures.total.guard_mutations > 0
    out = io.StringIO()
    assert print_figures(figures, Console(file=out, width=160)) in (0, 1)
    assert "absent caught" in out.getvalue() and "by style" in out.getvalue()


@pytest.mark.parametrize("seed", [0, 2])
def test_the_gate_and_the_offline_guard_meet_their_targets(seed: int) -> None:
    from cli.eval_mutations import mutation_figures

    total = mutation_figures(load_config(), seed=seed).total
    assert total.faithful >= 250 and total.absent >= 3000
    assert total.refused <= TARGET_FAITHFUL_REFUSED * total.faithful
    assert total.caught >= TARGET_ABSENT_CAUGHT * total.absent
    assert total.guard_refused <= 0.05 * total.guard_faithful


def test_superbiz_eval_mutations_runs() -> None:
    from cli.main import main

    assert main(["eval", "--mutations", "--sample", "80", "--seed", "1"]) in (0, 1)
