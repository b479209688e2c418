"""Where a fragment sits: sentences of each user-visible field, the same for credentials and their look-alikes, so
the label depends only on the fragment."""

from __future__ import annotations

import random

SURFACES = ("analysis", "conclusion", "action", "limitations", "knowledge_answer", "system_answer", "plan_step")

PROSE: dict[str, tuple[str, ...]] = {
    "analysis": ("order-service 启动日志第 {n} 行记录了 {x}", "配置中心返回的内容中包含 {x}",
                 "The config dump of payment-service shows {x}", "Log line {n}: {x}"),
    "conclusion": ("支付超时期间，相关日志中出现了 {x}", "The failing requests all carried {x}"),
    "action": ("核对 order-service 当前配置中的 {x}", "Compare {x} with the value in the release notes"),
    "limitations": ("以下内容未能核实：{x}", "Not verified against the live system: {x}"),
    "knowledge_answer": ("根据《运维手册》，测试环境的配置为 {x}", "Per the runbook, the staging entry reads {x}"),
    "system_answer": ("你贴的内容里有 {x}", "Your message contains {x}"),
    "plan_step": ("查询包含 {x} 的 order-service 日志", "Search the payment-service logs for {x}"),
}

COMMAND: dict[str, tuple[str, ...]] = {
    "analysis": ("运维记录显示值班同学执行过 {x}", "The shell history on the bastion shows {x}"),
    "conclusion": ("连接失败时执行的命令为 {x}", "The failing check was run as {x}"),
    "action": ("执行 `{x}` 并记录输出", "Run `{x}` and note the output"),
    "limitations": ("未能执行 {x}，跳板机无权限", "Could not run {x} from the bastion"),
    "knowledge_answer": ("手册给出的示例命令是 {x}", "The runbook's example command is {x}"),
    "system_answer": ("你可以参考这条命令：{x}", "You could start from: {x}"),
    "plan_step": ("在跳板机上运行 {x}，记录返回结果", "Run {x} from the bastion and record the result"),
}

BLOCK: dict[str, tuple[str, ...]] = {
    "analysis": ("配置中心导出内容如下：\n{x}", "The exported config reads:\n{x}"),
    "conclusion": ("相关配置：\n{x}", "Relevant config:\n{x}"),
    "action": ("按以下配置核对：\n{x}", "Check against this config:\n{x}"),
    "limitations": ("以下配置未能核实：\n{x}", "Not verified:\n{x}"),
    "knowledge_answer": ("手册中的示例：\n{x}", "From the runbook:\n{x}"),
    "system_answer": ("你发来的内容：\n{x}", "What you sent:\n{x}"),
    "plan_step": ("对照以下配置排查：\n{x}", "Investigate with this config:\n{x}"),
}


def place(rng: random.Random, fragment: str, kind: str = "prose", surface: str = "") -> tuple[str, str]:
    """``fragment`` in a sentence of ``surface`` (random when empty): the text and its surface."""
    surface = surface or rng.choice(SURFACES)
    table = {"prose": PROSE, "command": COMMAND, "block": BLOCK}[kind]
    template = rng.choice(table[surface])
    return template.replace("{n}", str(rng.randint(3, 480))).replace("{x}", fragment), surface
