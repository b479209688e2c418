"""Where ``query_metrics`` reads from: the ``MetricsSource`` protocol, its failures, and the one answer shape.

Both sources answer with the body of Prometheus's ``GET /api/v1/query_range``
(``{"status": "success", "data": {"resultType": "matrix", "result": [{"metric": {…}, "values": [[ts, "v"], …]}]}}``),
so the tool and the projector read one shape whatever the source. A source that cannot answer raises
``MetricsSourceError`` with a stable code; its detail (server text, exception class) goes to the audit record
only, never to the agent.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from contract.vocabulary import HarnessError
from tools.metrics.query import RangeQuery

METRICS_UNAVAILABLE = "METRICS_UNAVAILABLE"
METRICS_TIMEOUT = "METRICS_TIMEOUT"
METRICS_QUERY_REJECTED = "METRICS_QUERY_REJECTED"
METRICS_BAD_RESPONSE = "METRICS_BAD_RESPONSE"
METRICS_RESULT_TOO_LARGE = "METRICS_RESULT_TOO_LARGE"


class MetricsSourceError(HarnessError):
    """The source did not answer with series. ``code`` is one of the ``METRICS_*`` codes; ``detail`` is for the
    audit record only."""

    code = "METRICS_UNAVAILABLE"

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


class MetricsSource(Protocol):
    """A Prometheus-compatible store. ``kind`` is what the agent is told the evidence comes from (``MOCK``,
    ``PROMETHEUS``)."""

    kind: str

    def query_range(self, query: RangeQuery) -> dict[str, Any]:
        """The ``/api/v1/query_range`` body for ``query``. Raises ``MetricsSourceError``."""
        ...

    def close(self) -> None: ...


class _Body(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


Timestamp = Annotated[float, Field(allow_inf_nan=False, ge=0)]


class Series(_Body):
    """One series of a matrix: its labels and its ``[timestamp, "value"]`` points."""

    metric: dict[str, Annotated[str, Field(strict=True)]]
    values: list[tuple[Timestamp, Annotated[str, Field(strict=True, max_length=64)]]]


class _Matrix(_Body):
    resultType: Literal["matrix"]
    result: list[Series]


class QueryRangeBody(_Body):
    """A successful ``query_range`` answer."""

    status: Literal["success"]
    data: _Matrix


def read_matrix(body: Any) -> list[Series]:
    """The series of a ``query_range`` body. Raises ``MetricsSourceError(METRICS_BAD_RESPONSE)`` when it is not a
    successful matrix."""
    try:
        return QueryRangeBody.model_validate(body).data.result
    except (ValidationError, RecursionError) as exc:
        raise MetricsSourceError(METRICS_BAD_RESPONSE, f"not a query_range matrix: {type(exc).__name__}") from None
