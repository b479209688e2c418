"""The guard path of a run (seed §4.4, §10.3): what the SemanticGuard is sent, within its input bound and its
language, and the one case in which a report is not reviewed for its size."""

from __future__ import annotations

import json

from harness.fixed_texts import EN, ZH
from harness.messages import ModelRequest
from tests.harness.run_support import QUERY, config, diagnosis_model, run_once, services

ENGLISH_QUERY = "Why does the payment of order order-123 time out? Please investigate."


async def _guard_request(query: str = QUERY, max_input: str = "64KB") -> tuple[ModelRequest | None, str, str]:
    """The guard's request (None when none was sent), the run's outcome and its fallback reason."""
    model = diagnosis_model()
    settings = config(**{"semantic-guard": {"max-input-bytes": max_input}})
    outcome = await run_once(services(model, settings), query=query)
    requests = model.requests_of("guard")
    finished = outcome.audit.finished[-1]
    return (requests[0] if requests else None), finished.status, str(finished.fallback_reason)


def _sizes(request: ModelRequest) -> tuple[int, int]:
    """The UTF-8 size of the guard's input, and of its input without any evidence."""
    content = request.messages[1].content or ""
    payload = json.loads(content)
    alone = {**payload, "verified_evidence": []}
    return len(content.encode()), len(json.dumps(alone, ensure_ascii=False, separators=(",", ":")).encode())


async def test_a_report_whose_evidence_is_over_the_bound_is_reviewed_on_a_bounded_view() -> None:
    whole, _, _ = await _guard_request()
    assert whole is not None
    full, alone = _sizes(whole)
    bound = (full + alone) // 2
    request, status, _ = await _guard_request(max_input=f"{bound}B")
    assert request is not None and status == "SUCCESS"
    size, _ = _sizes(request)
    assert size <= bound
    evidence = json.loads(request.messages[1].content or "")["verified_evidence"]
    assert [group["analysis_id"] for group in evidence] == ["a1", "a2", "a3"]
    notes = [note for group in evidence for note in group["omitted_evidence"]]
    assert notes and all(note["omitted_items"] > 0 for note in notes)


async def test_only_a_draft_over_the_bound_by_itself_is_not_reviewed() -> None:
    whole, _, _ = await _guard_request()
    assert whole is not None
    _, alone = _sizes(whole)
    request, status, reason = await _guard_request(max_input=f"{alone - 1}B")
    assert request is None and (status, reason) == ("FALLBACK", "GUARD_INPUT_TOO_LARGE")


async def test_the_guard_is_asked_for_its_reason_in_the_language_of_the_question() -> None:
    chinese, _, _ = await _guard_request(QUERY)
    english, _, _ = await _guard_request(ENGLISH_QUERY)
    assert chinese is not None and english is not None
    chinese_prompt, english_prompt = chinese.messages[0].content or "", english.messages[0].content or ""
    assert ZH.reason_in in chinese_prompt and EN.reason_in not in chinese_prompt
    assert EN.reason_in in english_prompt and ZH.reason_in not in english_prompt
