"""The budget ledger: each limit raises its own stable reason and records what was consumed."""

from __future__ import annotations

import pytest

from config.harness import AgentBudget
from contract.clock import ManualClock
from harness.budget import BudgetLedger, BudgetLimits
from harness.errors import BudgetExhausted


def ledger(**overrides: object) -> tuple[BudgetLedger, ManualClock]:
    clock = ManualClock()
    budget = AgentBudget.model_validate(
        {"max-model-calls": 2, "max-tool-calls": 3, "max-total-tokens": 100, **overrides}
    )
    return BudgetLedger(BudgetLimits.from_settings(budget), clock), clock


def test_model_calls_are_charged_before_the_call() -> None:
    budget, _ = ledger()
    budget.charge_model_call()
    budget.charge_model_call()
    with pytest.raises(BudgetExhausted) as raised:
        budget.charge_model_call()
    assert raised.value.reason == "MODEL_CALLS"
    assert raised.value.code == "BUDGET_EXHAUSTED"
    assert budget.usage().model_calls == 2
    assert budget.usage().exhausted_reason == "MODEL_CALLS"


def test_tokens_stop_the_next_model_call() -> None:
    budget, _ = ledger(**{"max-model-calls": 10})
    budget.charge_model_call()
    budget.record_tokens(70, 30)
    with pytest.raises(BudgetExhausted) as raised:
        budget.charge_model_call()
    assert raised.value.reason == "TOKENS"
    usage = budget.usage()
    assert (usage.input_tokens, usage.output_tokens, usage.total_tokens, usage.model_calls) == (70, 30, 100, 1)


def test_negative_tokens_are_rejected() -> None:
    budget, _ = ledger()
    with pytest.raises(ValueError):
        budget.record_tokens(-1, 0)


def test_total_tool_calls() -> None:
    budget, _ = ledger(**{"max-tool-calls-per-tool": {"query_logs": 5, "query_mysql": 5, "lookup_knowledge": 5}})
    for tool in ("query_logs", "query_mysql", "lookup_knowledge"):
        budget.charge_tool_call(tool)
    with pytest.raises(BudgetExhausted) as raised:
        budget.charge_tool_call("query_logs")
    assert raised.value.reason == "TOOL_CALLS"
    assert budget.usage().tool_calls == 3


def test_per_tool_calls_name_the_tool() -> None:
    budget, _ = ledger(**{"max-tool-calls": 10, "max-tool-calls-per-tool": {"query_mysql": 1}})
    budget.charge_tool_call("query_mysql")
    with pytest.raises(BudgetExhausted) as raised:
        budget.charge_tool_call("query_mysql")
    assert raised.value.reason == "TOOL_CALLS:query_mysql"
    budget.charge_tool_call("query_logs")
    assert dict(budget.usage().tool_calls_by_tool) == {"query_mysql": 1, "query_logs": 1}


def test_first_exhaustion_reason_is_kept() -> None:
    budget, _ = ledger()
    budget.charge_model_call()
    budget.charge_model_call()
    with pytest.raises(BudgetExhausted):
        budget.charge_model_call()
    budget.note_exhausted("DEADLINE")
    assert budget.usage().exhausted_reason == "MODEL_CALLS"


def test_elapsed_time_comes_from_the_injected_clock() -> None:
    budget, clock = ledger()
    clock.advance(2.5)
    assert budget.usage().elapsed_s == pytest.approx(2.5)


def test_calls_left_in_total_and_per_tool() -> None:
    budget, _ = ledger(**{"max-tool-calls": 3, "max-tool-calls-per-tool": {"query_mysql": 1}})
    limits = budget.limits
    assert (limits.calls_of("query_mysql"), limits.calls_of("query_tickets")) == (1, 3)  # unnamed: the total
    budget.charge_tool_call("query_mysql")
    usage = budget.usage()
    assert limits.tool_calls_left(usage) == 2
    assert (limits.tool_calls_left(usage, "query_mysql"), limits.tool_calls_left(usage, "query_tickets")) == (0, 2)
