"""The diagnosis agent's report format (seed §10.2): the conclusion takes the shape the user asks for (N bullet
points, a table, one sentence), and the report keeps every field it requires."""

from __future__ import annotations

import json

from harness.draft import parse_draft
from harness.react_loop import PROMPT_VERSION, diagnosis_prompt
from tests.harness.run_support import GOOD_DRAFT, QUERY, diagnosis_model, run_once, services

BULLETS = "- 支付超时与 order-service 连接池耗尽有关\n- order-service 连接池耗尽\n- 支付超时"


def test_the_prompt_lets_the_user_choose_the_shape_of_the_conclusion() -> None:
    prompt = diagnosis_prompt()
    assert prompt.splitlines()[0] == "<!-- diagnosis prompt v6 -->" and PROMPT_VERSION == "diagnosis-v6"
    assert '"结论先行的一句话"' not in prompt  # one sentence only when the user asks for no other shape
    [rule] = [line for line in prompt.split("\n- ") if "要点" in line]
    for phrase in ("conclusion.text", "表格", "一句话", "每行以", "没有要求"):
        assert phrase in rule, phrase
    for field in ("analysis", "action_plan", "recommendations", "limitations"):
        assert field in rule, field


def test_a_conclusion_of_bullet_points_is_a_valid_draft() -> None:
    draft = parse_draft(json.dumps({**GOOD_DRAFT, "conclusion": {"text": BULLETS, "based_on_analysis_ids": ["a1"]}}))
    assert draft.conclusion is not None and draft.conclusion.text == BULLETS


async def test_a_report_with_a_bullet_point_conclusion_is_released_as_written() -> None:
    bullets = {**GOOD_DRAFT, "conclusion": {**GOOD_DRAFT["conclusion"], "text": BULLETS}}
    outcome = await run_once(services(diagnosis_model(bullets)), query=QUERY + "，用三个要点回答")
    assert outcome.first("content")["content_type"] == "DIAGNOSIS_REPORT", outcome.first("content")
    assert outcome.first("content")["payload"]["conclusion"]["text"] == BULLETS
