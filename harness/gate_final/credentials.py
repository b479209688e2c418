"""``secret_cases``: credential values against their look-alikes, on every surface an answer can reach.

About half of the texts are pasted bare; the rest sit under a one-line lead-in in the voice of that surface
(analysis, conclusion, action, ...). The lead-ins carry no credential and no look-alike of their own.
"""

from __future__ import annotations

import random
import re

from . import secret_configs, secret_files, secret_inline, secret_keys
from .case import FinalCase, fill, merge, render, seeded
from .tokens import ALL_GENERATORS

SURFACES = ("analysis", "conclusion", "action", "limitations", "knowledge_answer", "system_answer", "plan_step")
LEAD_INS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "analysis": (
        ("从 ‹svc› 的部署材料看，相关片段如下：", "排查 ‹svc› 时用户贴出的内容："),
        ("From the material the user pasted for ‹svc›:", "The relevant excerpt from the ‹svc› rollout:"),
    ),
    "conclusion": (("结论的依据是下面这段原文：", "根因相关的配置原文："), ("The conclusion rests on this excerpt:",)),
    "action": (("核对下面这段与线上实际配置是否一致：",), ("Compare this excerpt with what is deployed for ‹svc›:",)),
    "limitations": (
        ("以下内容来自群聊粘贴，未经核实：", "这段来自用户提供的截图转写，可能不完整："),
        ("Unverified excerpt from the incident channel:",),
    ),
    "knowledge_answer": (("知识库《‹svc› 接入说明》中的原文：",), ("From the runbook page for ‹svc›:",)),
    "system_answer": (("你刚才发的是：", "你贴的这段里："), ("You pasted:", "Here is what you sent:")),
    "plan_step": (("查清这段内容的来源与使用位置：",), ("Find where this comes from and who uses it:",)),
    "sql_reference": (("相关 SQL：", "引用的 SQL 语句："), ("Referenced SQL:",)),
}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _surface(shape: str, index: int) -> str:
    return "sql_reference" if shape == "sql_ref" else SURFACES[index % len(SURFACES)]


def _lead_in(text: str, surface: str, rng: random.Random) -> str:
    if rng.random() < 0.5:
        return text
    chinese, english = LEAD_INS[surface]
    options = chinese if CJK.search(text) or rng.random() < 0.5 else english
    return fill(rng.choice(options), rng) + "\n" + text


def secret_cases(seed: int = 0) -> list[FinalCase]:
    """At least 300 texts, at least 40% of them look-alikes that must pass, in a stable order for ``seed``."""
    families = merge(
        secret_configs.families(), secret_files.families(), secret_keys.families(), secret_inline.families()
    )
    return render(families, seeded("secrets", seed), _surface, copies=2, generators=ALL_GENERATORS, decorate=_lead_in)
