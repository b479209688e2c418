"""One run's audit trail as an on-call engineer reads it (``superbiz runs show``), and the run list
(``superbiz runs list``): rich renderables built from the audit store's rows, nothing else.

The tree follows the run: its model steps in order (role, attempt, outcome, tokens, duration), under each step
the tool calls its reply asked for (evidence status, error code) and the guard decision that judged its output
(EvidenceGuard failure codes, the SemanticGuard's verdict), then the release: outcome, fallback type and
reason, the SemanticGuard's audit reason, and the content the user received (the report's sections with the tool
call behind each reference, the fallback, the knowledge or system answer). A call or decision tied to no step
(the Harness's own knowledge lookup, a guard input refused before any call) sits under "harness".
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rich.console import Group
from rich.markup import escape as escape_markup
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from stores.audit.trail import released_content

Row = Mapping[str, Any]

OUTCOME_STYLES = {
    "SUCCESS": "green",
    "FALLBACK": "yellow",
    "FAILED": "red",
    "CANCELLED": "magenta",
    "RUNNING": "cyan",
}
GOOD = frozenset({"OK", "PASS", "SUPPORTED"})
LIST_QUERY_CHARS = 40


@dataclass(frozen=True)
class RunTrail:
    run: Row
    steps: Sequence[Row]
    tools: Sequence[Row]
    checks: Sequence[Row]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def escape(value: object) -> str:
    """Text from the audit (a user's query, a model-written id or reason) as a terminal shows it safely: control
    characters (an ANSI escape sequence among them) spelled out, rich markup taken literally."""
    return escape_markup(_CONTROL.sub(lambda found: found.group().encode("unicode_escape").decode(), str(value)))


def _when(moment: datetime | None) -> str:
    return "—" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S UTC")


def _ms(value: int | None) -> str:
    if value is None:
        return "—"
    return f"{value} ms" if value < 1000 else f"{value / 1000:.1f} s"


def _count(value: int | None, noun: str) -> str:
    if value is None:
        return f"— {noun}s"
    return f"{value:,} {noun}" + ("" if value == 1 else "s")


def _styled(value: str | None) -> str:
    if value is None:
        return "—"
    style = OUTCOME_STYLES.get(value) or ("green" if value in GOOD else "red")
    return f"[{style}]{escape(value)}[/{style}]"


def _tool_line(tool: Row) -> str:
    line = f"tool {escape(tool['tool_call_id'])} {escape(tool['tool_name'])} → "
    line += _styled(tool["evidence_status"])
    if tool["error_code"]:
        line += f" [red]{escape(tool['error_code'])}[/red]"
    return line + f"  {_ms(tool['duration_ms'])}"


def _check_line(check: Row) -> str:
    line = f"{escape(check['guard'])} guard check #{check['check_index']}: {_styled(check['verdict'])}"
    return line + "".join(f"\n  {escape(f['code'])}: {escape(f['message'] or '')}" for f in check["failures"] or ())


def _step_line(step: Row) -> str:
    attempt = f" attempt {step['attempt']}" if step["attempt"] is not None else ""
    tokens = f"{step['input_tokens'] or 0}→{step['output_tokens'] or 0} tokens"
    return (
        f"#{step['step_index']} [bold]{escape(step['agent_name'])}[/bold]{attempt} {_styled(step['outcome'])}"
        f"  {_ms(step['duration_ms'])}  {tokens}"
    )


def trail_tree(trail: RunTrail) -> Tree:
    run = trail.run
    status = run["status"]
    title = f"run [bold]{escape(run['run_id'])}[/bold]  {escape(run['intent'] or 'UNROUTED')}  {_styled(status)}"
    tree = Tree(title)
    tree.add(
        f"session {escape(run['session_id'])} · principal {escape(run['principal'])} · started "
        f"{_when(run['started_at'])} · {_ms(run['total_duration_ms'])}"
    )
    if run.get("trace_id"):
        tree.add(f"trace {escape(run['trace_id'])}")
    tree.add(f"query: {escape(run['query'])}")
    counts = (("model_calls", "model call"), ("tool_call_count", "tool call"), ("total_tokens", "token"))
    tree.add(" · ".join(_count(run[column], noun) for column, noun in counts))

    step_ids = {step["id"]: step["step_index"] for step in trail.steps}
    tools_by_step: dict[int | None, list[Row]] = defaultdict(list)
    for tool in trail.tools:
        tools_by_step[step_ids.get(tool["step_id"])].append(tool)
    checks_by_step: dict[int | None, list[Row]] = defaultdict(list)
    known = {step["step_index"] for step in trail.steps}
    for check in trail.checks:
        checks_by_step[check["step_index"] if check["step_index"] in known else None].append(check)

    steps = tree.add("steps" if trail.steps else "steps: none recorded")
    for step in trail.steps:
        node = steps.add(_step_line(step))
        for tool in tools_by_step.get(step["step_index"], ()):
            node.add(_tool_line(tool))
        for check in checks_by_step.get(step["step_index"], ()):
            node.add(_check_line(check))
    if tools_by_step.get(None) or checks_by_step.get(None):
        harness = tree.add("harness (no model step)")
        for tool in tools_by_step.get(None, ()):
            harness.add(_tool_line(tool))
        for check in checks_by_step.get(None, ()):
            harness.add(_check_line(check))

    finished = f" at {_when(run['finished_at'])}" if run["finished_at"] else ""
    release = tree.add(f"release: {_styled(status)}{finished}")
    if run["fallback_type"]:
        release.add(f"fallback type {escape(run['fallback_type'])}")
    if run["fallback_reason"]:
        release.add(f"reason {escape(run['fallback_reason'])}")
    if run["guard_verdict"]:
        reason = f": {escape(run['guard_reason'])}" if run["guard_reason"] else ""
        release.add(f"SemanticGuard {_styled(run['guard_verdict'])}{reason}")
    if status == "RUNNING":
        release.add("no terminal state recorded yet (still running, or its supervisor was lost)")
    _add_released(release, run, {tool["tool_call_id"]: tool for tool in trail.tools})
    return tree


def _ids(values: Any) -> str:
    return f"  ({escape(', '.join(str(value) for value in values))})" if values else ""


def _confirm(item: Mapping[str, Any]) -> str:
    return " · [bold]needs human confirmation[/bold]" if item.get("requires_human_confirmation") else ""


def _texts(node: Tree, title: str, items: Any) -> None:
    if items:
        branch = node.add(title)
        for item in items:
            branch.add(escape(item))


def _source(item: Mapping[str, Any]) -> str:
    return " · ".join(escape(item[key]) for key in ("source_type", "source", "scope") if item.get(key))


def _add_released(release: Tree, run: Row, tools: Mapping[str, Row]) -> None:
    """The content the run released, as the user received it (stored by the finish, shown section by section)."""
    content = released_content(run)
    if content is None:
        if run["status"] in ("SUCCESS", "FALLBACK") and "released_content" in run:
            release.add("content: not recorded (a run recorded before the audit kept it)")
        return
    payload = content.get("payload") or {}
    node = release.add(f"content [bold]{escape(content.get('content_type'))}[/bold]")
    if not isinstance(payload, Mapping):
        node.add(escape(payload))
        return
    if "answer" in payload:
        node.add(f"answer: {escape(payload['answer'])}")
    if payload.get("message"):
        node.add(f"message: {escape(payload['message'])}")
    conclusion = payload.get("conclusion")
    if isinstance(conclusion, Mapping):
        node.add(f"conclusion: {escape(conclusion.get('text'))}{_ids(conclusion.get('based_on_analysis_ids'))}")
    if payload.get("analysis"):
        branch = node.add("analysis")
        for item in payload["analysis"]:
            refs = f"  [{escape(', '.join(item.get('references') or ()))}]" if item.get("references") else ""
            branch.add(
                f"{escape(item.get('analysis_id'))} {escape(item.get('kind'))}: {escape(item.get('text'))}{refs}"
            )
    if payload.get("action_plan"):
        branch = node.add("action plan")
        for item in payload["action_plan"]:
            branch.add(f"{escape(item.get('action'))}{_ids(item.get('based_on_analysis_ids'))}{_confirm(item)}")
    if payload.get("recommendations"):
        branch = node.add("recommendations")
        for item in payload["recommendations"]:
            branch.add(f"{escape(item.get('text'))}{_ids(item.get('based_on_analysis_ids'))}{_confirm(item)}")
    limitations = payload.get("limitations")
    if isinstance(limitations, Mapping):
        branch = node.add(f"limitations: {escape(limitations.get('scope'))}")
        for missing in limitations.get("missing_info") or ():
            branch.add(f"missing: {escape(missing)}")
    else:
        _texts(node, "limitations", limitations)
    _texts(node, "next steps", payload.get("next_steps"))
    if payload.get("verified_sources"):
        branch = node.add("verified sources")
        for item in payload["verified_sources"]:
            branch.add(_source(item))
    if payload.get("references"):
        behind = {cited["ref"]: cited["tool_call_id"] for cited in run.get("cited_tool_calls") or ()}
        branch = node.add("references")
        for item in payload["references"]:
            if not isinstance(item, Mapping):
                branch.add(escape(item))
                continue
            if "ref" not in item:  # a knowledge answer's document
                shown = [item.get(key) for key in ("document_id", "breadcrumb", "source")]
                branch.add(" · ".join(escape(value) for value in shown if value) or escape(item))
                continue
            call = behind.get(item["ref"])
            tool = f" → {escape(call)} {escape(tools[call]['tool_name'])}" if call in tools else ""
            branch.add(f"{escape(item['ref'])}{tool} · {_source(item)}")


def runs_table(runs: Sequence[Row], since: datetime, outcome: str | None) -> Group:
    if not runs:
        which = f" with outcome {outcome}" if outcome else ""
        return Group(Text(f"no runs{which} since {_when(since)}"))
    table = Table()
    for column in ("started", "run_id", "intent", "outcome", "reason", "model", "tools", "duration", "query"):
        table.add_column(column, no_wrap=column in ("started", "run_id"))
    for run in runs:
        query = run["query"] or ""
        table.add_row(
            _when(run["started_at"]).removesuffix(" UTC"),
            escape(run["run_id"]),
            escape(run["intent"] or "—"),
            _styled(run["status"]),
            escape(run["fallback_reason"] or ""),
            str(run["model_calls"] if run["model_calls"] is not None else "—"),
            str(run["tool_call_count"] if run["tool_call_count"] is not None else "—"),
            _ms(run["total_duration_ms"]),
            escape(query if len(query) <= LIST_QUERY_CHARS else query[: LIST_QUERY_CHARS - 1] + "…"),
        )
    title = f"{_count(len(runs), 'run')} since {_when(since)}" + (f" · {outcome}" if outcome else "")
    return Group(Text(title, style="bold"), table)
