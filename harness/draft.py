"""The Diagnosis agent's structured Draft (ISS-014 §10.2) and its parsing.

The schema is strict about shape (unknown fields are rejected: no thoughts, no free-form answer) and loose
about emptiness: an analysis without tool_call_ids, an action without ``based_on_analysis_ids`` or a conclusion
without text parses, so the EvidenceGuard can name the rule it breaks. Ids are checked as written (whole-text
match, before whitespace is stripped).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from contract.vocabulary import HarnessError
from harness.ids import is_analysis_id, is_tool_call_id
from harness.json_reader import MODEL_OUTPUT, JsonRejected, read_json


def _tool_call_id(value: Any) -> Any:
    # Checked as written, before any whitespace is stripped: "x\n" must never cite the call "x".
    if not is_tool_call_id(value):
        raise PydanticCustomError("tool_call_id", "not a tool_call_id (1-128 characters of A-Z a-z 0-9 _ . -)")
    return value


def _analysis_id(value: Any) -> Any:
    if not is_analysis_id(value):
        raise PydanticCustomError("analysis_id", "not an analysis_id (1-32 characters of A-Z a-z 0-9 _ -)")
    return value


Text = Annotated[str, Field(min_length=1, max_length=2000)]
AnalysisId = Annotated[str, BeforeValidator(_analysis_id)]
AnalysisIds = Annotated[list[AnalysisId], Field(max_length=20)]
ToolCallIds = Annotated[list[Annotated[str, BeforeValidator(_tool_call_id)]], Field(max_length=20)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)


class Conclusion(_Frozen):
    text: Annotated[str, Field(max_length=2000)]
    """May be empty here, so that the EvidenceGuard names the rule (EMPTY_CONCLUSION) for the repair."""
    based_on_analysis_ids: AnalysisIds


class AnalysisItem(_Frozen):
    analysis_id: AnalysisId
    kind: Literal["NORMAL", "NEGATIVE_OBSERVATION"]
    text: Text
    tool_call_ids: ToolCallIds


class ActionItem(_Frozen):
    action: Text
    based_on_analysis_ids: AnalysisIds
    requires_human_confirmation: bool


class Recommendation(_Frozen):
    text: Text
    based_on_analysis_ids: AnalysisIds
    requires_human_confirmation: bool = False
    """A recommendation with a side effect must say that a human decides, like an action (§10.2)."""


class Limitations(_Frozen):
    scope: Text
    missing_info: Annotated[list[Text], Field(max_length=20)] = []


class Draft(_Frozen):
    """Conclusion first; every statement bound to analysis items, every analysis item to tool calls."""

    conclusion: Conclusion | None
    analysis: Annotated[list[AnalysisItem], Field(max_length=20)]
    action_plan: Annotated[list[ActionItem], Field(max_length=20)] = []
    recommendations: Annotated[list[Recommendation], Field(max_length=20)] = []
    limitations: Limitations

    def user_visible(self) -> dict[str, Any]:
        """The full draft as the user would read it: everything but the internal tool_call_ids."""
        content = self.model_dump(mode="json")
        for item in content["analysis"]:
            del item["tool_call_ids"]
        return content

    def cited_tool_call_ids(self) -> list[str]:
        """Every tool_call_id the draft cites, once, in order of first citation."""
        return list(dict.fromkeys(call for item in self.analysis for call in item.tool_call_ids))

    def visible_texts(self) -> list[tuple[str, str]]:
        """``(where, text)`` of every text a user reads, in report order."""
        texts: list[tuple[str, str]] = []
        if self.conclusion is not None:
            texts.append(("conclusion", self.conclusion.text))
        texts += [(f"analysis {item.analysis_id}", item.text) for item in self.analysis]
        texts += [(f"action_plan[{index}]", item.action) for index, item in enumerate(self.action_plan)]
        texts += [(f"recommendations[{index}]", item.text) for index, item in enumerate(self.recommendations)]
        texts.append(("limitations.scope", self.limitations.scope))
        texts += [(f"limitations.missing_info[{i}]", text) for i, text in enumerate(self.limitations.missing_info)]
        return texts


class DraftRejected(HarnessError):
    """The text is not a Draft. ``problems`` are safe, short descriptions for the repair request."""

    code = "DRAFT_REJECTED"

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def parse_draft(text: str | None) -> Draft:
    """A Draft from the agent's final message (a JSON object, optionally in a ```json fence), read by the bounded
    JSON reader: too large, too deep or not JSON is a ``DraftRejected`` like any other schema problem."""
    if not isinstance(text, str) or not text.strip():
        raise DraftRejected(["the final message is empty; it must be the draft as one JSON object"])
    try:
        data = read_json(text, MODEL_OUTPUT)
    except JsonRejected as rejected:
        raise DraftRejected([f"the final message is not one bounded JSON object ({rejected.message})"]) from None
    if not isinstance(data, dict):
        raise DraftRejected(["the draft must be a JSON object"])
    try:
        return Draft.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(part) for part in error['loc']) or 'draft'}: {error['msg']}"
            for error in exc.errors(include_url=False, include_input=False, include_context=False)
        ]
        raise DraftRejected(problems[:20]) from None
