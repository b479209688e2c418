"""The labelled dataset of the guard evaluation, as JSON lines, one case a line::

    {"id", "query", "draft", "evidence", "expected": "SUPPORTED" | "UNSUPPORTED", "category", "note"?}

``draft`` is the user-visible Draft (``Draft.user_visible()``: no tool_call_ids) and ``evidence`` the verified
evidence snapshot grouped by analysis_id (:func:`harness.snapshot.build_snapshot`'s shape): exactly the
``GuardRequest`` the Harness would send. A case may instead carry the tool results themselves, as a run has them
(:mod:`harness.eval_tool_results`)::

    {"id", "query", "draft" (with tool_call_ids), "tool_results": [{tool_call_id, tool_name, evidence_status,
     agent_result}], "expected", "category", "note"?}

Then the gate checks the draft exactly as a run does (the records of the cited calls, the run's evidence kinds)
and the guard gets the snapshot a run builds: ``superbiz eval`` measures the gate that runs use. Both formats may
be mixed in one dataset. ``note`` says what is wrong with an UNSUPPORTED draft, for people; it
is never sent to the guard. The bundled dataset (``tools/eval/guard_cases.jsonl``) is built from the demo
knowledge base, mock logs and order_db.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contract.vocabulary import HarnessError
from harness import gate
from harness.draft import Draft
from harness.eval_tool_results import run_gate_codes, run_guard_request, tool_result_problem
from harness.gate import ClaimPolicy
from harness.messages import GuardRequest
from harness.snapshot import Kinds

MAX_PROBLEMS = 20
"""A broken dataset reports at most this many problems (with their line numbers)."""


def bundled_dataset() -> Path:
    """The labelled dataset shipped with the package."""
    return Path(str(resources.files("tools").joinpath("eval", "guard_cases.jsonl")))


class GuardCase(BaseModel):
    """One labelled case; ``request()`` is what the guard is given."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: Annotated[str, Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.\-]{0,127}$")]
    query: Annotated[str, Field(min_length=1)]
    draft: dict[str, Any]
    evidence: list[dict[str, Any]] = []
    """The snapshot (the old format); empty when the case carries ``tool_results``."""
    tool_results: list[dict[str, Any]] | None = None
    """The calls' agent_results as a run holds them; the draft then carries its tool_call_ids."""
    expected: Literal["SUPPORTED", "UNSUPPORTED"]
    category: Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9_\-]{0,63}$")]
    note: str | None = None

    def request(self, kinds: Kinds | None = None, max_bytes: int | None = None) -> GuardRequest:
        """What the guard is given; a case with ``tool_results`` needs the run's ``kinds`` to build its snapshot,
        and with ``max_bytes`` gets the bounded view a run sends (an old case is sent as written)."""
        if self.tool_results is not None:
            if kinds is None:
                raise ValueError("a case with tool_results needs the evidence kinds to build its snapshot")
            return run_guard_request(self.draft, self.tool_results, self.query, kinds, max_bytes)
        return GuardRequest(query=self.query, draft=self.draft, verified_evidence=self.evidence)

    def gate_codes(self, policy: ClaimPolicy, kinds: Kinds | None = None) -> tuple[str, ...]:
        """The codes of the rules the deterministic gate finds broken; none: the gate lets it through. A case with
        ``tool_results`` is checked as a run checks its draft (``kinds`` required); an old one on its user-visible
        draft and snapshot (the references between its parts and every claim rule)."""
        if self.tool_results is not None:
            if kinds is None:
                raise ValueError("a case with tool_results needs the evidence kinds to be checked as a run")
            return run_gate_codes(self.draft, self.tool_results, self.query, kinds, policy)
        draft = Draft.model_validate(_with_placeholder_ids(self.draft))
        evidence = {str(group["analysis_id"]): group["verified_evidence"] for group in self.evidence}
        verdict = gate.check(gate.VerifiedReport(draft, evidence, self.query), policy)
        return tuple(dict.fromkeys(str(failure.code) for failure in verdict.failures))


def _with_placeholder_ids(draft: dict[str, Any]) -> dict[str, Any]:
    """A user-visible draft as a Draft: its evidence is the case's snapshot, so any valid id stands in."""
    return {**draft, "analysis": [{**item, "tool_call_ids": ["eval"]} for item in draft.get("analysis") or []]}


class DatasetError(HarnessError):
    """The dataset cannot be used; ``problems`` name the line of each."""

    code = "EVAL_DATASET_INVALID"

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))


def load_cases(path: Path | str) -> list[GuardCase]:
    """Every case of the JSONL file at ``path`` (blank lines skipped); ``DatasetError`` lists what is wrong."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(source, ["no such file"]) from None
    except UnicodeDecodeError:
        raise DatasetError(source, ["the file is not UTF-8 text"]) from None
    except OSError as exc:
        raise DatasetError(source, [f"cannot read the file ({exc.strerror or type(exc).__name__})"]) from None
    return parse_cases(text.splitlines(), source)


def parse_cases(lines: Iterable[str], source: str = "<dataset>") -> list[GuardCase]:
    cases: list[GuardCase] = []
    problems: list[str] = []
    first_line: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        case, problem = _parse_line(line, number)
        if problem is None and case is not None:
            if case.id in first_line:
                problem = f"line {number}: duplicate id {case.id!r} (first on line {first_line[case.id]})"
            else:
                first_line[case.id] = number
                cases.append(case)
        if problem is not None:
            problems.append(problem)
            if len(problems) >= MAX_PROBLEMS:
                problems.append("(further lines not checked)")
                break
    if not problems and not cases:
        problems.append("the dataset has no cases")
    if problems:
        raise DatasetError(source, problems)
    return cases


def _parse_line(line: str, number: int) -> tuple[GuardCase | None, str | None]:
    try:
        data = json.loads(line)
    except ValueError as exc:
        return None, f"line {number}: not valid JSON ({getattr(exc, 'msg', 'invalid')})"
    if not isinstance(data, dict):
        return None, f"line {number}: a case must be a JSON object"
    label = f"line {number}" + (f" ({data['id']})" if isinstance(data.get("id"), str) else "")
    try:
        case = GuardCase.model_validate(data)
    except ValidationError as exc:
        return None, f"{label}: {_first_error(exc)}"
    if case.tool_results is not None:
        problem = _run_shape_problem(case)
        return (None, f"{label}: {problem}") if problem else (case, None)
    try:
        case.request()
    except ValidationError as exc:
        return None, f"{label}: not a valid guard request: {_first_error(exc)}"
    problem = _shape_problem(case)
    return (None, f"{label}: {problem}") if problem else (case, None)


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors(include_url=False, include_input=False, include_context=False)
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "case"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


def _run_shape_problem(case: GuardCase) -> str | None:
    """A case with tool results: the draft is a Draft as the agent sends it, the results are READY calls."""
    if case.evidence:
        return "a case with tool_results builds its snapshot; leave evidence out"
    try:
        Draft.model_validate(case.draft)
    except ValidationError as exc:
        return f"draft is not a Draft with tool_call_ids: {_first_error(exc)}"
    return tool_result_problem(case.tool_results or [])


def _shape_problem(case: GuardCase) -> str | None:
    """The draft must be a user-visible Draft and the evidence its snapshot: one group per analysis, in order."""
    analysis = case.draft.get("analysis")
    if not isinstance(analysis, list) or not all(isinstance(item, dict) for item in analysis):
        return "draft.analysis must be a list of objects"
    try:
        draft = Draft.model_validate(_with_placeholder_ids(case.draft))
    except ValidationError as exc:
        return f"draft is not a user-visible Draft: {_first_error(exc)}"
    if draft.user_visible() != case.draft:
        return "draft is not in Draft.user_visible() form (whitespace or defaults differ)"
    expected = [(item.analysis_id, item.kind, item.text) for item in draft.analysis]
    found = [(group.get("analysis_id"), group.get("kind"), group.get("analysis_text")) for group in case.evidence]
    if found != expected:
        return "evidence must hold one group per analysis, in draft order, with its analysis_id, kind and text"
    for group in case.evidence:
        if set(group) != {"analysis_id", "kind", "analysis_text", "verified_evidence"}:
            keys = "analysis_id, kind, analysis_text and verified_evidence"
            return f"evidence group {group['analysis_id']!r} must have exactly the keys {keys}"
        entries = group["verified_evidence"]
        if not isinstance(entries, list) or not all(isinstance(e, dict) and "source_type" in e for e in entries):
            return f"evidence group {group['analysis_id']!r}: verified_evidence must be a list of source entries"
    return None
