"""What one investigation turn may do, and what the agent is told of its budget (issue 18).

The Harness decides; the agent only reads. Every investigation turn's request ends with one machine-written
line of what is left — tool calls in total and per tool, model calls, tokens and the time left for tools — so a
model can plan for its limits (a real model that is not told them cannot). A turn offers only the tools that
still have calls left. When none has, or the agent's time is down to the reserve kept for its tool-less tail
(``harness.agent.final-call-reserve``), the turn offers no tool and tells the model to write its draft from the
evidence already returned: a spent tool budget or a near deadline still ends in a draft, which the guards judge
like any other. Only a spent model-call or token budget ends the investigation without one.

Pure functions over the run's :class:`~harness.budget.BudgetLimits` and :class:`~harness.budget.BudgetUsage`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from harness.budget import DEADLINE, TOOL_CALLS, BudgetLimits, BudgetUsage

FINAL_INSTRUCTIONS = {
    TOOL_CALLS: "工具调用预算已用完，本次不再提供任何工具。",
    DEADLINE: "本次运行剩余的时间只够写出诊断草稿，本次不再提供任何工具。",
}
FINAL_DRAFT = (
    "请根据本次已经返回的证据，只输出最终诊断草稿 JSON（同一结构），只能引用已经返回证据的 tool_call_id；"
    "没能查到的内容写入 limitations.missing_info，证据不足以下结论时 conclusion 写 null。"
)


@dataclass(frozen=True)
class TurnOffer:
    """The tools one turn offers, by name in the run's order, or why it offers none."""

    tools: tuple[str, ...]
    withdrawn: str | None = None
    """``TOOL_CALLS`` (no tool has a call left) or ``DEADLINE`` (the agent's time is down to its final-call
    reserve); None while tools are offered."""

    @property
    def final(self) -> bool:
        return self.withdrawn is not None


def offer(limits: BudgetLimits, usage: BudgetUsage, tools: Sequence[str], tool_time_left_s: float) -> TurnOffer:
    """What the next turn offers. ``tool_time_left_s``: the agent's time left before its final-call reserve."""
    if tool_time_left_s <= 0:
        return TurnOffer((), DEADLINE)
    left = tuple(name for name in tools if limits.tool_calls_left(usage, name) > 0)
    return TurnOffer(left) if left else TurnOffer((), TOOL_CALLS)


def budget_line(limits: BudgetLimits, usage: BudgetUsage, tools: Sequence[str], tool_time_left_s: float) -> str:
    """The line each investigation turn's request ends with; figures are what is left of each limit, the model
    call about to be made already counted, e.g. ``剩余预算：工具调用 7/12（lookup_knowledge 2/4，
    query_logs 4/6），模型调用 8/12（不含本次），Token 41000/64000，可调用工具的时间约 85 秒。工具用完或时间到后
    不再提供工具，须根据已返回的证据写出诊断草稿。``
    """
    per_tool = "，".join(f"{name} {limits.tool_calls_left(usage, name)}/{limits.calls_of(name)}" for name in tools)
    model_calls = max(0, limits.max_model_calls - usage.model_calls - 1)
    tokens = max(0, limits.max_total_tokens - usage.total_tokens)
    seconds = max(0, math.floor(tool_time_left_s))
    return (
        f"剩余预算：工具调用 {limits.tool_calls_left(usage)}/{limits.max_tool_calls}"
        + (f"（{per_tool}）" if per_tool else "")
        + f"，模型调用 {model_calls}/{limits.max_model_calls}（不含本次），"
        f"Token {tokens}/{limits.max_total_tokens}，可调用工具的时间约 {seconds} 秒。"
        "工具用完或时间到后不再提供工具，须根据已返回的证据写出诊断草稿。"
    )


def final_instruction(withdrawn: str) -> str:
    """The message that ends a tool-less final turn's request: why no tool is offered, and to write the draft."""
    return FINAL_INSTRUCTIONS.get(withdrawn, FINAL_INSTRUCTIONS[TOOL_CALLS]) + FINAL_DRAFT
