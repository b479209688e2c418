"""The Diagnosis agent's ReAct loop (ISS-014 §4.1), Ray-free: one conversation per run, every model and tool call
through the Harness.

The agent never sees Redis, raw responses or another run: its ``AgentGateway`` returns model replies and
bounded ``agent_result`` dicts only. It plans (one tool-less turn), investigates (tool turns), and ends with the
Draft JSON as its final message; the Harness validates it. The agent counts no budget: the Harness tells it what
is left in each turn's request and decides what each turn offers; a turn the Harness made tool-less (no tool
call left, or no time but for the draft) is the last, and its reply is the Draft. A repair is one more tool-less
turn in the same conversation, given the EvidenceGuard's failures. No thoughts are requested, kept or emitted.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness.json_reader import MODEL_OUTPUT, JsonRejected, read_json
from harness.messages import AgentTask, ChatMessage, ModelRequest
from harness.ports import AgentGateway

PROMPT_VERSION = "diagnosis-v6"
PLAN_INSTRUCTION = (
    '先只输出排查计划，一个 JSON 对象：{"plan": ["步骤1", "步骤2", "步骤3"]}。3–5 步，每步一句话，'
    "只写准备查什么，不写 SQL、参数或推理过程。"
)
INVESTIGATE_INSTRUCTION = "按计划调用工具收集证据。证据足够后停止调用工具，只输出最终诊断草稿 JSON。"
REPAIR_INSTRUCTION = (
    "Harness 的证据校验没有通过，问题如下：\n{failures}\n"
    "请只输出修正后的完整诊断草稿 JSON（同一结构），不能再调用工具，只能引用本次已经返回证据的 tool_call_id；"
    "无法修正的分析请删除，证据不足时 conclusion 写 null。"
)


@functools.cache
def diagnosis_prompt() -> str:
    return resources.files("harness.prompts").joinpath("diagnosis.md").read_text(encoding="utf-8")


class Plan(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    plan: list[str] = Field(min_length=1, max_length=8)


class DiagnosisAgent:
    """Holds the conversation of each run it works on; forgets it when told."""

    def __init__(self) -> None:
        self._conversations: dict[str, list[ChatMessage]] = {}

    async def investigate(self, task: AgentTask, gateway: AgentGateway) -> str | None:
        """Plan, call tools until the model stops or the Harness offers no more, and return the final message
        (the Draft, unparsed)."""
        task_message = {
            "query": task.query,
            "previous_turn": task.previous_turn.model_dump() if task.previous_turn else None,
        }
        conversation = [
            ChatMessage(role="system", content=diagnosis_prompt()),
            ChatMessage(role="user", content=json.dumps(task_message, ensure_ascii=False)),
            ChatMessage(role="user", content=PLAN_INSTRUCTION),
        ]
        self._conversations[task.run_id] = conversation
        reply = await gateway.model(
            ModelRequest(
                role="agent", messages=tuple(conversation), tools=task.tools, tool_choice="none", json_output=True
            )
        )
        conversation.append(ChatMessage(role="assistant", content=reply.content))
        steps = _plan_steps(reply.content)
        if steps:
            await gateway.plan(steps)
        conversation.append(ChatMessage(role="user", content=INVESTIGATE_INSTRUCTION))
        while True:
            turn = await gateway.turn(
                ModelRequest(role="agent", messages=tuple(conversation), tools=task.tools, tool_choice="auto")
            )
            conversation.extend(turn.context)
            if turn.final or not turn.reply.tool_calls:
                # A tool call in a final reply was not run: kept out, so the conversation stays one a model accepts.
                conversation.append(ChatMessage(role="assistant", content=turn.reply.content))
                return turn.reply.content
            conversation.append(turn.reply.message())
            for call, result in zip(turn.reply.tool_calls, turn.results, strict=True):
                conversation.append(
                    ChatMessage(role="tool", tool_call_id=call.id, content=json.dumps(result, ensure_ascii=False))
                )

    async def repair(self, run_id: str, failures: Sequence[str], gateway: AgentGateway) -> str | None:
        """One tool-less turn in the same conversation: the corrected Draft, unparsed."""
        conversation = self._conversations[run_id]
        listed = "\n".join(f"- {failure}" for failure in failures)
        conversation.append(ChatMessage(role="user", content=REPAIR_INSTRUCTION.format(failures=listed)))
        reply = await gateway.model(ModelRequest(role="repair", messages=tuple(conversation), json_output=True))
        conversation.append(ChatMessage(role="assistant", content=reply.content))
        return reply.content

    def forget(self, run_id: str) -> None:
        self._conversations.pop(run_id, None)

    def conversation(self, run_id: str) -> list[ChatMessage]:
        return list(self._conversations.get(run_id, ()))


def _plan_steps(content: str | None) -> list[str]:
    """The plan's steps, or none when the reply is not a plan (the run goes on without a PLANNING status)."""
    try:
        return Plan.model_validate(read_json(content or "", MODEL_OUTPUT)).plan
    except (JsonRejected, ValidationError):
        return []
