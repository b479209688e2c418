"""The Diagnosis agent's structured Draft (ISS-014 §10.2) and its parsing.

The schema is strict about shape (unknown fields are rejected: no thoughts, no free-form answer) and loose
about emptiness: an analysis without tool_call_ids or an action without ``based_on_analysis_ids`` parses, so
the EvidenceGuard can name the rule it breaks.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

Text = Annotated[str, Field(min_length=1, max_length=2000)]
Ids = Annotated[list[Annotated[str, Field(min_length=1, max_length=128)]], Field(max_length=20)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", str_strip_whitespace=True)


class Conclusion(_Frozen):
    text: Text
    based_on_analysis_ids: Ids


class AnalysisItem(_Frozen):
    analysis_id: Annotated[str, Field(pattern=r"^[A-Za-z0-9_\-]{1,32}$")]
    kind: Literal["NORMAL", "NEGATIVE_OBSERVATION"]
    text: Text
    tool_call_ids: Ids


class ActionItem(_Frozen):
    action: Text
    based_on_analysis_ids: Ids
    requires_human_confirmation: bool


class Recommendation(_Frozen):
    text: Text
    based_on_analysis_ids: Ids


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


class DraftRejected(Exception):
    """The text is not a Draft. ``problems`` are safe, short descriptions for the repair request."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def parse_draft(text: str | None) -> Draft:
    """A Draft from the agent's final message (a JSON object, optionally in a ```json fence)."""
    if not text or not text.strip():
        raise DraftRejected(["the final message is empty; it must be the draft as one JSON object"])
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text.strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        raise DraftRejected(["the final message is not valid JSON; it must be the draft as one JSON object"]) from None
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
