"""What a turn offers and the budget line it carries: pure functions of the limits and the usage (issue 18)."""

from __future__ import annotations

import pytest

from config.harness import AgentBudget
from contract.clock import ManualClock
from harness.budget import BudgetLedger, BudgetLimits
from harness.errors import BudgetExhausted
from harness.turn_budget import FINAL_DRAFT, TurnOffer, budget_line, final_instruction, offer

TOOLS = ("lookup_knowledge", "query_logs", "query_mysql")


def ledger(**overrides: object) -> BudgetLedger:
    budget = AgentBudget.model_validate(
        {
            "max-model-calls": 12,
            "max-tool-calls": 12,
            "max-total-tokens": 64000,
            "max-tool-calls-per-tool": {"lookup_knowledge": 4, "query_logs": 6, "query_mysql": 2},
            **overrides,
        }
    )
    return BudgetLedger(BudgetLimits.from_settings(budget), ManualClock())


def spend(budget: BudgetLedger, *tools: str, model_calls: int = 0, tokens: int = 0) -> None:
    for tool in tools:
        budget.charge_tool_call(tool)
    for _ in range(model_calls):
        budget.charge_model_call()
    budget.record_tokens(tokens, 0)


def test_the_line_states_what_is_left_of_every_budget() -> None:
    budget = ledger()
    spend(budget, "lookup_knowledge", "lookup_knowledge", "query_logs", "query_mysql", model_calls=3, tokens=23000)
    line = budget_line(budget.limits, budget.usage(), TOOLS, 85.7)
    assert line == (
        "剩余预算：工具调用 8/12（lookup_knowledge 2/4，query_logs 5/6，query_mysql 1/2），模型调用 8/12（不含本次），"
        "Token 41000/64000，可调用工具的时间约 85 秒。工具用完或时间到后不再提供工具，须根据已返回的证据写出诊断草稿。"
    )


def test_a_tool_never_shows_more_calls_than_the_total_leaves() -> None:
    budget = ledger(**{"max-tool-calls": 3})
    spend(budget, "query_logs", "query_logs")
    line = budget_line(budget.limits, budget.usage(), ("lookup_knowledge", "query_logs", "query_tickets"), 10)
    # query_tickets is named by no per-tool limit: the total bounds it.
    assert "工具调用 1/3（lookup_knowledge 1/4，query_logs 1/6，query_tickets 1/3）" in line


def test_figures_never_go_below_zero() -> None:
    budget = ledger(**{"max-model-calls": 1, "max-total-tokens": 10})
    spend(budget, model_calls=1, tokens=50)
    line = budget_line(budget.limits, budget.usage(), (), -3.0)
    assert "模型调用 0/1（不含本次）" in line and "Token 0/10" in line and "时间约 0 秒" in line
    assert "（" not in line.split("，")[0]  # no tool list when the run offers no tool


def test_every_tool_with_calls_left_is_offered_in_the_runs_order() -> None:
    budget = ledger()
    assert offer(budget.limits, budget.usage(), TOOLS, 30) == TurnOffer(TOOLS)


def test_a_tool_whose_own_budget_is_spent_is_no_longer_offered() -> None:
    budget = ledger()
    spend(budget, "query_mysql", "query_mysql")
    turn = offer(budget.limits, budget.usage(), TOOLS, 30)
    assert turn == TurnOffer(("lookup_knowledge", "query_logs")) and not turn.final


def test_a_spent_total_offers_no_tool() -> None:
    budget = ledger(**{"max-tool-calls": 2})
    spend(budget, "query_logs", "lookup_knowledge")
    turn = offer(budget.limits, budget.usage(), TOOLS, 30)
    assert turn == TurnOffer((), "TOOL_CALLS") and turn.final


def test_every_tool_spent_on_its_own_is_a_spent_total() -> None:
    budget = ledger(**{"max-tool-calls-per-tool": {"lookup_knowledge": 1, "query_logs": 1, "query_mysql": 1}})
    spend(budget, *TOOLS)
    assert offer(budget.limits, budget.usage(), TOOLS, 30) == TurnOffer((), "TOOL_CALLS")


@pytest.mark.parametrize("time_left_s", [0.0, -0.5])
def test_no_time_left_for_tools_offers_none_whatever_calls_are_left(time_left_s: float) -> None:
    budget = ledger()
    assert offer(budget.limits, budget.usage(), TOOLS, time_left_s) == TurnOffer((), "DEADLINE")


def test_the_final_instruction_says_why_and_asks_for_the_draft_only() -> None:
    assert final_instruction("TOOL_CALLS") == "工具调用预算已用完，本次不再提供任何工具。" + FINAL_DRAFT
    assert final_instruction("DEADLINE").startswith("本次运行剩余的时间只够写出诊断草稿")
    assert "诊断草稿 JSON" in FINAL_DRAFT and "tool_call_id" in FINAL_DRAFT


def test_the_ledger_still_refuses_the_call_over_the_budget() -> None:
    budget = ledger(**{"max-tool-calls": 1})
    spend(budget, "query_logs")
    with pytest.raises(BudgetExhausted):
        budget.charge_tool_call("query_logs")
    assert budget.limits.tool_calls_left(budget.usage()) == 0
