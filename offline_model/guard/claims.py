"""The claims a lexical reader flags in a draft: health or exclusion, inference, a confirmed cause, a zero read."""

from __future__ import annotations

import re

HEALTH_CLAIMS = (
    "正常", "健康", "没有问题", "无问题", "已排除", "排除了", "可以排除", "无异常", "没有异常", "一切良好", "无关",
    "没有关系", "不相关", "不受影响", "无需处理", "不需要处理", "无需联系", "可以忽略", "可以不考虑", "healthy",
    "no problem", "no issue", "ruled out", "rule out", "working fine", "is fine", "not related", "unrelated",
    "not affected", "unaffected",
)  # fmt: skip
_HEALTH = re.compile(
    "|".join(map(re.escape, HEALTH_CLAIMS)) + r"|不存在\S{0,6}问题|未受\S{0,8}影响|没有受到\S{0,8}影响"
)
HEDGE = re.compile(
    r"(?:不能|无法|不足以|不代表|并不|未必|不一定)\S{0,10}$|\b(?:not|never|cannot|can't|doesn't)\b[\w ]{0,12}$"
)
INFERENCE = re.compile(
    r"(?<![只仅])(?:说明|表明|证明|可见|可以确认|因此|所以|意味着)|\b(?:which means|so|therefore|thus)\b"
)
ZERO_READ = re.compile(r"没有匹配|无匹配|没有返回|\b0 次|match_count 0|returned_count 0|no match", re.I)
CAUSE = re.compile(
    r"(?:根因已确认|根本原因是|原因已查明|已确认是|可以断定|一定是|肯定是|必然是|就是因为"
    r"|root cause (?:is |was )?confirmed|definitely|certainly)[:\s]*([^,。;.]+)", re.I,
)  # fmt: skip


def health(text: str) -> str | None:
    lowered = text.lower()
    return next((m.group(0) for m in _HEALTH.finditer(lowered) if not HEDGE.search(lowered[: m.start()])), None)
