"""The writing styles: how a model arranges true facts into a Draft. A style adds words, never a fact token.

=========  =================================================================================================
terse      Chinese, one short sentence per analysis item
verbose    Chinese, each fact wrapped in explanation that states nothing more
bullets    Chinese, one analysis item holding a bullet list of every fact
table      Chinese, a markdown table inside an analysis, then the facts it cannot tabulate
english    English sentences
mixed      Chinese and English mixed in one sentence (field names, log words, English verbs)
worked     Chinese with the work shown: operands of every derived value
=========  =================================================================================================
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from harness.gate_mutations.facts import Fact

STYLES = ("terse", "verbose", "bullets", "table", "english", "mixed", "worked")


@dataclass(frozen=True)
class Written:
    """A draft whose texts are still marked, and the pattern each analysis item follows."""

    draft: dict[str, Any]
    item_patterns: tuple[tuple[str, ...], ...]
    language: str


def language_of(style: str) -> str:
    return {"english": "en", "mixed": "mix"}.get(style, "zh")


def write(style: str, chosen: Sequence[Fact], rng: random.Random) -> Written:
    """``chosen`` (the fact under test first) as a Draft in ``style``."""
    language = language_of(style)
    worked = style == "worked"

    def phrase(fact: Fact) -> str:
        return rng.choice(fact.phrasings(language, worked=worked))

    items: list[tuple[str, tuple[str, ...], tuple[str, ...]]]
    if style == "bullets":
        body = "要点：\n" + "\n".join(f"- {phrase(fact)}" for fact in chosen)
        items = [(body, _calls(chosen), tuple(fact.pattern for fact in chosen))]
    elif style == "table":
        items = [_table(chosen, phrase)]
    else:
        wrap = _WRAPPERS[style]
        items = [(wrap(phrase(fact), index), fact.calls, (fact.pattern,)) for index, fact in enumerate(chosen)]
    ids = [f"a{index + 1}" for index in range(len(items))]
    analysis = [
        {"analysis_id": ident, "kind": "NORMAL", "text": text, "tool_call_ids": list(calls)}
        for ident, (text, calls, _) in zip(ids, items, strict=True)
    ]
    draft = {
        "conclusion": {"text": _CONCLUSION[language](phrase(chosen[0])), "based_on_analysis_ids": ids},
        "analysis": analysis,
        "action_plan": [
            {"action": text, "based_on_analysis_ids": ids[:1], "requires_human_confirmation": confirm}
            for text, confirm in _ACTIONS[language]
        ],
        "recommendations": [
            {"text": _RECOMMENDATION[language], "based_on_analysis_ids": ids[:1], "requires_human_confirmation": True}
        ],
        "limitations": _LIMITATIONS[language],
    }
    return Written(draft, tuple(patterns for _, _, patterns in items), language)


def _calls(facts: Sequence[Fact]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(call for fact in facts for call in fact.calls))


def _table(chosen: Sequence[Fact], phrase: Callable[[Fact], str]) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    rows = [f"| {cell.zh} | {cell.value} |" for fact in chosen for cell in fact.cells]
    rest = [phrase(fact) for fact in chosen if not fact.cells]
    parts = []
    if rows:
        parts.append("所引结果汇总如下：\n\n| 项目 | 取值 |\n| --- | --- |\n" + "\n".join(rows))
    if rest:
        parts.append("；".join(rest) + "。")
    return "\n\n".join(parts), _calls(chosen), tuple(fact.pattern for fact in chosen)


def _sentence(text: str) -> str:
    return text if text.endswith(("。", ".")) else text + "。"


def _english(text: str) -> str:
    """A sentence: capitalised unless it starts with an identifier (payment_record, order-service)."""
    word = re.match(r"[a-z]+(?![\w\-.:])", text)
    return (text[0].upper() + text[1:] if word else text) + ("" if text.endswith(".") else ".")


_WRAPPERS: dict[str, Callable[[str, int], str]] = {
    "terse": lambda text, index: _sentence(text),
    "verbose": lambda text, index: (
        ("根据本次查询返回的结果，" if index == 0 else "另外，从同一批返回结果还能看到，")
        + _sentence(text)
        + "这一点是本项分析所依据的直接证据，下面的判断都以它为准。"
    ),
    "english": lambda text, index: _english(text),
    "mixed": lambda text, index: _sentence(text),
    "worked": lambda text, index: _sentence(text),
}

_CONCLUSION: dict[str, Callable[[str], str]] = {
    "zh": lambda text: "综合来看，" + _sentence(text),
    "en": lambda text: "In short, " + text + ("" if text.endswith(".") else "."),
    "mix": lambda text: "总结一下：" + _sentence(text),
}

_ACTIONS = {
    "zh": (
        ("查看订单库当前的行锁等待和长事务", False),
        ("由值班负责人确认后，再调整相关服务的连接池配置", True),
    ),
    "en": (
        ("Check the current row lock waits and long transactions on the order database", False),
        ("After the on-call lead approves, adjust the connection pool settings of the affected service", True),
    ),
    "mix": (
        ("先 check 一下订单库的 row lock wait", False),
        ("经值班负责人确认后再调整相关服务的连接池", True),
    ),
}

_RECOMMENDATION = {
    "zh": "为支付回调的超时与重试增加告警",
    "en": "Add an alert on payment callback timeouts and retries",
    "mix": "给 payment callback 的 timeout 和 retry 加告警",
}

_LIMITATIONS = {
    "zh": {
        "scope": "只读取了所引工具调用返回的日志、指标和订单库结果；日志与指标是演示环境的模拟数据",
        "missing_info": ["未查看数据库服务器自身的监控"],
    },
    "en": {
        "scope": "Only the logs, metrics and order database results the cited calls returned were read; the logs "
        "and metrics are the demo's mock data",
        "missing_info": ["The database server's own monitoring was not checked"],
    },
    "mix": {
        "scope": "只看了所引 tool call 返回的 logs、metrics 和订单库结果，logs 和 metrics 是 mock 数据",
        "missing_info": ["没看数据库服务器本身的监控"],
    },
}
