"""The body of ``POST /api/chat``: one pydantic model validates it and describes it in the OpenAPI document, so
the query-length limit (``gateway.max-query-chars``) lives in one place."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import ErrorDetails, PydanticCustomError

from contract.vocabulary import HarnessError

SESSION_ID_PATTERN = r"^[A-Za-z0-9_\-]{8,64}$"


class Rejection(HarnessError):
    """A request body the gateway refuses, with its stable error code and a message for the user."""

    code = "INVALID_REQUEST"

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code)
        self.code = code
        self.message = message


class ChatRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    query: str
    session_id: str | None = None


def _not_blank(query: str) -> str:
    if not query.strip():
        raise PydanticCustomError("query_empty", "query must contain more than whitespace")
    return query


class ChatRequests:
    """Validates request bodies of a gateway whose queries may be ``max_query_chars`` characters long, and
    describes them (JSON Schema) for the OpenAPI document."""

    def __init__(self, max_query_chars: int) -> None:
        self.max_query_chars = max_query_chars
        self._model: type[ChatRequest] = create_model(
            "ChatRequest",
            __base__=ChatRequest,
            query=(
                Annotated[str, Field(min_length=1, max_length=max_query_chars), AfterValidator(_not_blank)],
                Field(description="The question, in the user's words."),
            ),
            session_id=(
                Annotated[str, Field(pattern=SESSION_ID_PATTERN)] | None,
                Field(default=None, description="Continue this conversation; a new one when absent."),
            ),
        )

    def parse(self, data: Any) -> ChatRequest:
        """``data`` as a request with its query stripped, or a :class:`Rejection` naming the first problem."""
        try:
            request = self._model.model_validate(data)
        except ValidationError as invalid:
            raise self._rejection(invalid.errors(include_url=False)) from None
        return request.model_copy(update={"query": request.query.strip()})

    def json_schema(self) -> dict[str, Any]:
        return self._model.model_json_schema()

    def _rejection(self, errors: list[ErrorDetails]) -> Rejection:
        unknown = [str(error["loc"][0]) for error in errors if error["type"] == "extra_forbidden"]
        if unknown:
            return Rejection("INVALID_REQUEST", "不支持的字段：" + ", ".join(name[:40] for name in unknown[:5]))
        error = errors[0]
        field, kind = (error["loc"] or ("",))[0], error["type"]
        if kind == "model_type":
            return Rejection("INVALID_REQUEST", '请求体必须是 JSON 对象：{"query": "...", "session_id": null}')
        if field == "session_id":
            return Rejection("INVALID_SESSION_ID", "session_id 必须是 8–64 位字母、数字、- 或 _")
        if kind == "string_too_long":
            return Rejection("QUERY_TOO_LONG", f"query 不能超过 {self.max_query_chars} 个字符")
        if kind in ("string_too_short", "query_empty"):
            return Rejection("QUERY_EMPTY", "query 不能为空")
        if kind == "missing":
            return Rejection("INVALID_REQUEST", "缺少 query")
        return Rejection("INVALID_REQUEST", "query 必须是字符串")
