"""Terminal rendering of a run (``superbiz ask`` and ``superbiz demo``), with rich."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.text import Text

SECTIONS = ("结论", "分析支撑", "行动计划", "长期建议", "诊断范围与限制", "引用")


def status_line(data: dict[str, Any]) -> str:
    line = str(data.get("message", data.get("code", "")))
    if data.get("code") == "PLANNING":
        line += "：" + "；".join(str(step) for step in data.get("steps", []))
    if data.get("tool"):
        line += f" · {data['tool']}"
    if data.get("evidence_status"):
        line += f" → {data['evidence_status']}"
    return line


def _excerpt(item: dict[str, Any]) -> str:
    if "rows" in item:
        return json.dumps(item["rows"][:5], ensure_ascii=False)
    for key in ("excerpt", "example"):
        if item.get(key):
            when = item.get("timestamp") or item.get("last_seen") or ""
            count = f" ×{item['count']}" if item.get("count") else ""
            return f"{when} {item[key]}{count}".strip()
    return json.dumps(item, ensure_ascii=False)


def report(payload: dict[str, Any]) -> Group:
    parts: list[Any] = []

    def heading(index: int) -> None:
        parts.append(Text(f"\n{index + 1}. {SECTIONS[index]}", style="bold cyan"))

    heading(0)
    conclusion = payload.get("conclusion")
    parts.append(Text(conclusion["text"] if conclusion else "证据不足，暂无法确认结论", style="bold"))
    heading(1)
    for item in payload.get("analysis", []):
        badge = "［负向观察］" if item.get("kind") == "NEGATIVE_OBSERVATION" else ""
        refs = " ".join(item.get("references", []))
        parts.append(Text(f"- {item['analysis_id']} {badge}{item['text']}  [{refs}]"))
    heading(2)
    for item in payload.get("action_plan", []):
        mark = "［需人工确认］" if item.get("requires_human_confirmation") else ""
        parts.append(Text(f"- {mark}{item['action']}", style="yellow" if mark else ""))
    heading(3)
    for item in payload.get("recommendations", []):
        parts.append(Text(f"- {item['text']}"))
    heading(4)
    limitations = payload.get("limitations", {})
    parts.append(Text(f"范围：{limitations.get('scope', '')}"))
    for missing in limitations.get("missing_info", []):
        parts.append(Text(f"- 缺失：{missing}"))
    heading(5)
    for ref in payload.get("references", []):
        parts.append(Text(f"[{ref['ref']}] {ref['source_type']} · {ref['source']} · {ref['scope']}", style="dim"))
        for item in ref.get("evidence", [])[:3]:
            parts.append(Text(f"    {_excerpt(item)[:240]}", style="dim"))
    return Group(*parts)


def fallback(payload: dict[str, Any]) -> Panel:
    lines = [payload.get("message", ""), f"类型：{payload.get('type')}"]
    lines += [
        f"已验证来源：{s['source_type']} · {s['source']} · {s['scope']}" for s in payload.get("verified_sources", [])
    ]
    lines += [f"限制：{item}" for item in payload.get("limitations", [])]
    lines += [f"建议：{item}" for item in payload.get("next_steps", [])]
    return Panel(Text("\n".join(lines)), title="安全降级（未发布诊断结论）", border_style="yellow")


def knowledge(payload: dict[str, Any]) -> Group:
    parts: list[Any] = [Text(payload.get("answer", ""))]
    for ref in payload.get("references", []):
        parts.append(Text(f"[{ref.get('document_id')}] {ref.get('title')} · {ref.get('breadcrumb')}", style="dim"))
    for item in payload.get("limitations", []):
        parts.append(Text(f"限制：{item}", style="dim"))
    return Group(*parts)


def content(console: Console, data: dict[str, Any]) -> None:
    kind, payload = data["content_type"], data["payload"]
    if kind == "DIAGNOSIS_REPORT":
        console.print(Panel(report(payload), title="诊断报告", border_style="green"))
    elif kind == "FALLBACK":
        console.print(fallback(payload))
    elif kind == "KNOWLEDGE_ANSWER":
        console.print(Panel(knowledge(payload), title="知识库回答", border_style="green"))
    else:
        console.print(Panel(Text(payload.get("answer", "")), title="回答", border_style="green"))


def failure(console: Console, data: dict[str, Any]) -> None:
    console.print(Panel(escape(f"{data.get('message')} ({data.get('code')})"), title="失败", border_style="red"))
