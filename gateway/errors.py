"""The gateway's error table: every refusal before a stream, as its HTTP status, stable code and the user's text,
answered as JSON ``{"error": {"code", "message"}}``.

| refusal | status | code |
| --- | --- | --- |
| ``INVALID_JSON`` | 400 | ``INVALID_JSON`` |
| ``MISSING_KEY``, ``UNKNOWN_KEY`` | 401 (``WWW-Authenticate: Bearer``) | ``UNAUTHORIZED`` |
| ``SESSION_FORBIDDEN`` | 403 | ``SESSION_FORBIDDEN`` |
| routing (an unknown path, a method a route does not take) | 404, 405 | ``NOT_FOUND``, ``METHOD_NOT_ALLOWED`` |
| ``BODY_TOO_LARGE`` | 413 | ``BODY_TOO_LARGE`` |
| ``NOT_JSON`` | 415 | ``UNSUPPORTED_MEDIA_TYPE`` |
| ``invalid_body`` | 422 | the body's own code and text (``gateway.chat_request``) |
| ``INTERNAL_ERROR`` | 500 | ``INTERNAL_ERROR`` (logged with its stack) |
| ``NOT_READY``, ``STOPPING`` | 503 (``Retry-After``) | ``NOT_READY``, ``STOPPING`` |
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse

from contract.vocabulary import HarnessError
from gateway.chat_request import Rejection

log = logging.getLogger(__name__)

NOT_READY_RETRY_AFTER_S = 2
INVALID_BODY_STATUS = 422


@dataclass(frozen=True)
class Refusal:
    status: int
    code: str
    text: str

    def filled(self, **values: object) -> Refusal:
        """This refusal with the ``{name}`` fields of its text filled in."""
        return replace(self, text=self.text.format(**values))

    def response(self) -> JSONResponse:
        headers = {}
        if self.status == 401:
            headers["WWW-Authenticate"] = "Bearer"
        if self.status == 503:
            headers["Retry-After"] = str(NOT_READY_RETRY_AFTER_S)
        return JSONResponse({"error": {"code": self.code, "message": self.text}}, self.status, headers=headers)


INVALID_JSON = Refusal(400, "INVALID_JSON", "请求体不是合法的 JSON")
MISSING_KEY = Refusal(401, "UNAUTHORIZED", "缺少有效的 API Key（Authorization: Bearer <key>）")
UNKNOWN_KEY = Refusal(401, "UNAUTHORIZED", "API Key 无效")
SESSION_FORBIDDEN = Refusal(403, "SESSION_FORBIDDEN", "该会话属于其他调用方")
BODY_TOO_LARGE = Refusal(413, "BODY_TOO_LARGE", "请求体不能超过 {max_body_bytes} 字节")
NOT_JSON = Refusal(415, "UNSUPPORTED_MEDIA_TYPE", "请求体必须是 application/json")
INTERNAL_ERROR = Refusal(500, "INTERNAL_ERROR", "服务内部错误，请稍后重试")
NOT_READY = Refusal(503, "NOT_READY", "服务正在启动，请稍后重试")
STOPPING = Refusal(503, "STOPPING", "服务正在停止，请稍后重试")

HTTP_ERROR_CODES = {404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED"}


def invalid_body(rejection: Rejection) -> Refusal:
    """A body that is JSON but not a chat request: its code and text say what is wrong with it."""
    return Refusal(INVALID_BODY_STATUS, rejection.code, rejection.message)


class RequestRejected(HarnessError):
    """A request refused before any stream; the route answers ``refusal.response()``."""

    code = "REQUEST_REJECTED"

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.code)
        self.code = refusal.code
        self.refusal = refusal


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    """Routing errors (an unknown path, a method a route does not take) in the error envelope."""
    code = HTTP_ERROR_CODES.get(exc.status_code, "HTTP_ERROR")
    body = {"error": {"code": code, "message": str(exc.detail)}}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


async def internal_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("unhandled error", exc_info=exc, extra={"path": request.url.path})
    return INTERNAL_ERROR.response()
