"""Every parser of model output, fed arbitrary JSON and text: only the documented exceptions escape.

Documented: ``DraftRejected`` from ``parse_draft``; ``OperationFailed`` (INVALID_OUTPUT) from the router, knowledge,
verdict and completion parsers. Tool arguments, plans, the EvidenceGuard and the claim rules never raise.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clients.openai_model import parse_completion
from config import load_config
from harness.draft import DraftRejected, parse_draft
from harness.errors import OperationFailed
from harness.gate import ClaimPolicy, Report
from harness.gate import check as gate_check
from harness.gate.answers import check_knowledge_answer, plan_steps, system_answer_problem
from harness.gate.evidence import evidence_of
from harness.gate.grounding import ungrounded
from harness.intents import KnowledgeAnswer, parse_intent, parse_knowledge_answer
from harness.react_loop import _plan_steps
from harness.retry import FailureKind
from harness.semantic_guard import parse_verdict
from harness.tool_boundary import parse_arguments
from tools.registry import configured_kinds

POLICY = ClaimPolicy.default()
SPECS = [kind.spec(load_config()) for kind in configured_kinds(load_config()).values()]
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=40),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=5),
    max_leaves=40,
)
texts = st.one_of(
    st.text(max_size=300),
    json_values.map(lambda value: json.dumps(value, ensure_ascii=False)),
    st.integers(min_value=1, max_value=4000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(min_value=1, max_value=4000).map(lambda depth: '{"a":' * depth + "1" + "}" * depth),
    json_values.map(lambda value: "```json\n" + json.dumps(value) + "\n```"),
)
drafts = st.fixed_dictionaries(
    {
        "conclusion": st.none()
        | st.fixed_dictionaries({"text": st.text(max_size=200), "based_on_analysis_ids": st.just(["a1"])}),
        "analysis": st.lists(
            st.fixed_dictionaries(
                {
                    "analysis_id": st.sampled_from(["a1", "a2", "a\n", ""]),
                    "kind": st.sampled_from(["NORMAL", "NEGATIVE_OBSERVATION"]),
                    "text": st.text(min_size=1, max_size=200),
                    "tool_call_ids": st.lists(st.sampled_from(["c1", "c1\n", "", "c 1", "c2"]), max_size=3),
                }
            ),
            max_size=3,
        ),
        "action_plan": st.lists(
            st.fixed_dictionaries(
                {
                    "action": st.text(min_size=1, max_size=100),
                    "based_on_analysis_ids": st.just(["a1"]),
                    "requires_human_confirmation": st.booleans(),
                }
            ),
            max_size=2,
        ),
        "limitations": st.fixed_dictionaries({"scope": st.text(min_size=1, max_size=80), "missing_info": st.just([])}),
    }
)


def _invalid_output(failure: OperationFailed) -> None:
    assert failure.kind == FailureKind.INVALID_OUTPUT


@FUZZ
@given(texts)
def test_router_knowledge_and_verdict_parsers(text: str) -> None:
    for parse in (parse_intent, parse_knowledge_answer, parse_verdict):
        try:
            parse(text)
        except OperationFailed as failure:
            _invalid_output(failure)


@FUZZ
@given(st.one_of(texts, drafts.map(lambda draft: json.dumps(draft, ensure_ascii=False))))
def test_the_draft_parser_and_the_whole_evidence_guard(text: str) -> None:
    with contextlib.suppress(DraftRejected):
        parse_draft(text)
    check = gate_check(Report(text, {}, configured_kinds(load_config()), "订单 order-123 支付超时"), POLICY)
    assert check.ok is False


@FUZZ
@given(texts)
def test_tool_arguments_never_raise(text: str) -> None:
    for spec in SPECS:
        arguments, problem = parse_arguments(text, spec)
        assert (arguments is not None and problem is None) or problem is not None


@FUZZ
@given(texts, st.lists(json_values, max_size=6))
def test_plans_never_raise(text: str, steps: list[Any]) -> None:
    assert isinstance(_plan_steps(text), list)
    assert 3 <= len(plan_steps(steps, POLICY)) <= 5


@FUZZ
@given(st.binary(max_size=500) | texts.map(str.encode))
def test_completion_bodies(body: bytes) -> None:
    try:
        parse_completion(body)
    except OperationFailed as failure:
        _invalid_output(failure)


number_like = st.text(alphabet="0123456789-/:.,年月日点分秒时TZ+ UTC北京时间至约%次万亿七十二百零两", max_size=80)


@FUZZ
@given(st.one_of(st.text(max_size=400), number_like), st.one_of(json_values, number_like))
def test_the_claim_rules_on_any_text_and_evidence(text: str, evidence: Any) -> None:
    held = evidence_of([evidence], [text[:50]])
    assert isinstance(ungrounded(text, held, non_facts=POLICY.non_facts), list)
    assert system_answer_problem(text, "能力说明", "问题", POLICY) in (
        None,
        "EMPTY",
        "SECRET",
        "UNGROUNDED",
        "FINDING",
        "SIDE_EFFECT",
    )
    answer = KnowledgeAnswer(answer=text or "x", references=["d1"], limitations=[text[:80]])
    document = {"document_id": "d1", "title": "t", "breadcrumb": "b", "source": "s", "excerpt": text[::-1]}
    check_knowledge_answer(answer, [document], "问题", POLICY)
