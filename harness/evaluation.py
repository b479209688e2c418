"""Measuring the SemanticGuard on a labelled dataset (Ray-free: the guard is any async callable).

A dataset is JSON lines, one case a line::

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

Each case goes through both layers of the release gate, as a run would: the deterministic claim rules of the
release gate (:func:`harness.gate.check` on the draft and its snapshot) and the SemanticGuard.
The gate decides a case it refuses (``layer`` EVIDENCE_GUARD); the guard decides every other case (SEMANTIC_GUARD).
The guard is asked about every case all the same, so the report also measures the guard alone.

The positive class is UNSUPPORTED: a draft that must not be released. A guard that failed (timeout, transport,
invalid output) predicts UNAVAILABLE, which is never a correct answer: it counts as wrong for accuracy and as a
missed positive for recall (the Harness would fall back, but the guard did not judge). Precision, recall and F1
are ``None`` when their denominator is zero. Latency percentiles use the nearest-rank method.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from harness import gate
from harness.draft import Draft
from harness.eval_tool_results import run_gate_codes, run_guard_request, tool_result_problem
from harness.gate import ClaimPolicy
from harness.ports import GuardAttempt
from harness.semantic_guard import GuardRequest
from harness.snapshot import Kinds

SUPPORTED, UNSUPPORTED, UNAVAILABLE = "SUPPORTED", "UNSUPPORTED", "UNAVAILABLE"
EXPECTED = (SUPPORTED, UNSUPPORTED)
PREDICTED = (SUPPORTED, UNSUPPORTED, UNAVAILABLE)
POSITIVE = UNSUPPORTED
INPUT_TOO_LARGE = "GUARD_INPUT_TOO_LARGE"
MAX_PROBLEMS = 20
"""A broken dataset reports at most this many problems (with their line numbers)."""
REPORT_VERSION = 2
GATE, GUARD = "EVIDENCE_GUARD", "SEMANTIC_GUARD"
"""The layer that decided a case: the deterministic gate when it refused the draft, else the SemanticGuard."""
TARGET_RECALL = 0.95
TARGET_FAITHFUL_REFUSED_BY_GATE = 0

Evaluate = Callable[[GuardRequest], Awaitable[GuardAttempt]]


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

    def request(self, kinds: Kinds | None = None) -> GuardRequest:
        """What the guard is given; a case with ``tool_results`` needs the run's ``kinds`` to build its snapshot."""
        if self.tool_results is not None:
            if kinds is None:
                raise ValueError("a case with tool_results needs the evidence kinds to build its snapshot")
            return run_guard_request(self.draft, self.tool_results, self.query, kinds)
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


class DatasetError(Exception):
    """The dataset cannot be used; ``problems`` name the line of each."""

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


# -- running -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CaseResult:
    case_id: str
    category: str
    expected: str
    predicted: str
    latency_s: float
    failure: str | None = None
    """TIMEOUT / TRANSPORT / INVALID_OUTPUT / GUARD_INPUT_TOO_LARGE / the exception's type, when UNAVAILABLE."""
    reason: str | None = None
    """The guard's own reason (audit text), when it answered."""
    replica: str | None = None
    gate: tuple[str, ...] = ()
    """The claim rules the deterministic gate found broken; any makes the release gate refuse the draft."""

    @property
    def layer(self) -> str:
        return GATE if self.gate else GUARD

    @property
    def released_as(self) -> str:
        """What the release gate decided: UNSUPPORTED when the deterministic gate refused, else the guard's verdict."""
        return UNSUPPORTED if self.gate else self.predicted

    @property
    def correct(self) -> bool:
        return self.released_as == self.expected


def result_of(case: GuardCase, attempt: GuardAttempt, latency_s: float, gate: tuple[str, ...] = ()) -> CaseResult:
    verdict = attempt.verdict
    if verdict is None:
        failure = attempt.failure or "UNKNOWN"
        return CaseResult(
            case.id, case.category, case.expected, UNAVAILABLE, latency_s, failure, None, attempt.replica, gate
        )
    predicted, reason = verdict.verdict, verdict.reason
    return CaseResult(case.id, case.category, case.expected, predicted, latency_s, None, reason, attempt.replica, gate)


async def evaluate_cases(
    cases: Sequence[GuardCase],
    evaluate: Evaluate,
    concurrency: int,
    *,
    max_input_bytes: int | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
    policy: ClaimPolicy | None = None,
    kinds: Kinds | None = None,
) -> list[CaseResult]:
    """Every case through ``evaluate`` with at most ``concurrency`` in flight; results in dataset order.

    One attempt per case, no retry: this measures the guard, not the Harness's retry policy. A case larger than
    ``max_input_bytes`` is not sent (the Harness would not send it either) and is UNAVAILABLE. An exception from
    ``evaluate`` (a dead replica, a cancelled call) makes that case UNAVAILABLE; it never stops the run. With a
    ``policy``, each case also goes through the deterministic gate (``CaseResult.gate``). A case with tool
    results needs the run's evidence ``kinds``.
    """
    if concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    semaphore = asyncio.Semaphore(concurrency)
    # Built up front: building them while calls are in flight would be counted in those calls' latency.
    requests = [case.request(kinds) for case in cases]
    gates = [case.gate_codes(policy, kinds) if policy is not None else () for case in cases]
    too_large = [
        max_input_bytes is not None and len(request.content().encode()) > max_input_bytes for request in requests
    ]

    async def one(index: int) -> CaseResult:
        case, request = cases[index], requests[index]
        if too_large[index]:
            result = CaseResult(
                case.id, case.category, case.expected, UNAVAILABLE, 0.0, INPUT_TOO_LARGE, gate=gates[index]
            )
        else:
            async with semaphore:
                started = time.perf_counter()
                try:
                    attempt = await evaluate(request)
                except Exception as exc:
                    elapsed = time.perf_counter() - started
                    failure = type(exc).__name__
                    result = CaseResult(
                        case.id, case.category, case.expected, UNAVAILABLE, elapsed, failure, gate=gates[index]
                    )
                else:
                    result = result_of(case, attempt, time.perf_counter() - started, gates[index])
        if on_result is not None:
            on_result(result)
        return result

    return list(await asyncio.gather(*(one(index) for index in range(len(cases)))))


# -- scoring -----------------------------------------------------------------------------------------------


def confusion_matrix(results: Iterable[CaseResult], *, guard_alone: bool = False) -> dict[str, dict[str, int]]:
    """``matrix[expected][released_as]`` (or ``[predicted]``, the guard alone), every cell present."""
    matrix = {expected: dict.fromkeys(PREDICTED, 0) for expected in EXPECTED}
    for result in results:
        matrix[result.expected][result.predicted if guard_alone else result.released_as] += 1
    return matrix


def positive_class_scores(matrix: dict[str, dict[str, int]]) -> dict[str, Any]:
    """Precision, recall and F1 of UNSUPPORTED (UNAVAILABLE on an UNSUPPORTED case is a miss)."""
    tp = matrix[UNSUPPORTED][UNSUPPORTED]
    fp = matrix[SUPPORTED][UNSUPPORTED]
    fn = matrix[UNSUPPORTED][SUPPORTED] + matrix[UNSUPPORTED][UNAVAILABLE]
    tn = matrix[SUPPORTED][SUPPORTED]
    precision = _ratio(tp, tp + fp)
    recall = _ratio(tp, tp + fn)
    f1 = None
    if precision is not None and recall is not None:
        f1 = 0.0 if precision + recall == 0 else round(2 * precision * recall / (precision + recall), 4)
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn, "tn": tn}


def percentile(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (``q`` in [0, 1]); None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def latency_summary(results: Sequence[CaseResult]) -> dict[str, float | None]:
    """Milliseconds over the cases that were sent to the guard."""
    values = [result.latency_s for result in results if result.failure != INPUT_TOO_LARGE]

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "count": len(values),
        "p50_ms": ms(percentile(values, 0.50)),
        "p95_ms": ms(percentile(values, 0.95)),
        "p99_ms": ms(percentile(values, 0.99)),
        "max_ms": ms(max(values) if values else None),
        "mean_ms": ms(sum(values) / len(values) if values else None),
    }


def category_results(results: Sequence[CaseResult]) -> dict[str, dict[str, Any]]:
    """Per category (sorted): its expected label(s), cases, correct answers, accuracy and what was predicted."""
    table: dict[str, dict[str, Any]] = {}
    for category in sorted({result.category for result in results}):
        members = [result for result in results if result.category == category]
        correct = sum(result.correct for result in members)
        table[category] = {
            "expected": sorted({result.expected for result in members}),
            "cases": len(members),
            "correct": correct,
            "accuracy": _ratio(correct, len(members)),
            "predicted": {label: sum(result.released_as == label for result in members) for label in PREDICTED},
            "decided_by": {layer: sum(result.layer == layer for result in members) for layer in (GATE, GUARD)},
        }
    return table


def layer_summary(results: Sequence[CaseResult]) -> dict[str, dict[str, int]]:
    """Per layer: the cases it decided, the UNSUPPORTED ones it caught, and the faithful ones it refused."""
    summary: dict[str, dict[str, int]] = {}
    for layer in (GATE, GUARD):
        members = [result for result in results if result.layer == layer]
        summary[layer] = {
            "decided": len(members),
            "unsupported_caught": sum(r.expected == UNSUPPORTED and r.released_as == UNSUPPORTED for r in members),
            "faithful_refused": sum(r.expected == SUPPORTED and r.released_as != SUPPORTED for r in members),
        }
    return summary


def build_report(
    results: Sequence[CaseResult],
    *,
    dataset: str,
    model: str,
    wall_s: float,
    concurrency: int,
    replicas: int | None = None,
    replica_concurrency: int | None = None,
) -> dict[str, Any]:
    """The JSON report of one evaluation run."""
    matrix = confusion_matrix(results)
    alone = confusion_matrix(results, guard_alone=True)
    correct = sum(result.correct for result in results)
    scores = positive_class_scores(matrix)
    layers = layer_summary(results)
    return {
        "version": REPORT_VERSION,
        "dataset": {
            "path": dataset,
            "cases": len(results),
            "expected": dict(sorted(Counter(result.expected for result in results).items())),
        },
        "guard": {"model": model, "replicas": replicas, "replica_concurrency": replica_concurrency},
        "run": {
            "concurrency": concurrency,
            "wall_s": round(wall_s, 3),
            "throughput_per_s": round(len(results) / wall_s, 2) if wall_s > 0 else None,
        },
        "positive_class": POSITIVE,
        "confusion_matrix": matrix,
        "unsupported": scores,
        "accuracy": _ratio(correct, len(results)),
        "layers": layers,
        "targets": {
            "unsupported_recall": {
                "value": scores["recall"],
                "target": TARGET_RECALL,
                "met": scores["recall"] is not None and scores["recall"] >= TARGET_RECALL,
            },
            "faithful_refused_by_gate": {
                "value": layers[GATE]["faithful_refused"],
                "target": TARGET_FAITHFUL_REFUSED_BY_GATE,
                "met": layers[GATE]["faithful_refused"] <= TARGET_FAITHFUL_REFUSED_BY_GATE,
            },
        },
        "guard_alone": {"confusion_matrix": alone, "unsupported": positive_class_scores(alone)},
        "unavailable": sum(result.predicted == UNAVAILABLE for result in results),
        "latency": latency_summary(results),
        "categories": category_results(results),
        "cases": [
            {
                "id": result.case_id,
                "category": result.category,
                "expected": result.expected,
                "predicted": result.released_as,
                "correct": result.correct,
                "decided_by": result.layer,
                "gate": list(result.gate),
                "guard": result.predicted,
                "latency_ms": round(result.latency_s * 1000, 2),
                "failure": result.failure,
                "reason": result.reason,
                "replica": result.replica,
            }
            for result in results
        ],
    }


def write_report(report: dict[str, Any], path: Path | str) -> Path:
    target = Path(path)
    if target.parent != Path():
        target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(report, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return target


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None
