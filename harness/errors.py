"""The Harness's errors: subclasses of the project's one root (:class:`contract.vocabulary.HarnessError`) that
carry a stable ``code``.

User-visible text is chosen from the code, never from an exception message; messages here are for
operators and never contain tool payloads, prompts or credentials.
"""

from __future__ import annotations

from contract.vocabulary import HarnessError


class BudgetExhausted(HarnessError):
    """A run budget is spent. ``reason`` is MODEL_CALLS, TOOL_CALLS, TOOL_CALLS:<tool>, TOKENS or DEADLINE."""

    code = "BUDGET_EXHAUSTED"

    def __init__(self, reason: str) -> None:
        super().__init__(f"budget exhausted: {reason}")
        self.reason = reason


class RunCancelled(HarnessError):
    code = "CANCELLED"

    def __init__(self, reason: str) -> None:
        super().__init__(f"run cancelled: {reason}")
        self.reason = reason


class InvalidTransition(HarnessError):
    """A run or a record was moved to a state it cannot reach from where it is."""

    code = "INVALID_TRANSITION"


class OperationFailed(HarnessError):
    """A typed failure of one attempt of an operation; the retry executor decides whether to try again."""

    code = "OPERATION_FAILED"

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind
        self.detail = detail


class RetriesExhausted(HarnessError):
    code = "RETRIES_EXHAUSTED"

    def __init__(self, operation: str, attempts: int, last_kind: str) -> None:
        super().__init__(f"{operation} failed after {attempts} attempt(s), last failure {last_kind}")
        self.operation = operation
        self.attempts = attempts
        self.last_kind = last_kind


class InvocationStoreError(HarnessError):
    code = "STORE_ERROR"


class InvalidRunId(InvocationStoreError):
    code = "INVALID_RUN_ID"


class InvalidToolCallId(InvocationStoreError):
    code = "INVALID_TOOL_CALL_ID"


class DuplicateToolCallId(InvocationStoreError):
    """The id is already recorded in this run; the first record is left untouched."""

    code = "DUPLICATE_TOOL_CALL_ID"


class UnknownRun(InvocationStoreError):
    """No record of this run exists (never created, or expired with its TTL)."""

    code = "UNKNOWN_RUN"


class InvocationNotFound(InvocationStoreError):
    """No record under this run for this tool_call_id: never made, made by another run, or expired."""

    code = "NOT_FOUND"


class ResultTooLarge(InvocationStoreError):
    """A raw response or agent_result above its cap. Raw responses are recorded as ERROR, never truncated."""

    code = "RESULT_TOO_LARGE"


class RunCapacityExceeded(InvocationStoreError):
    code = "RUN_CAPACITY_EXCEEDED"


class PayloadNotSerializable(InvocationStoreError):
    code = "NOT_JSON_SERIALIZABLE"


class InvalidArgument(InvocationStoreError):
    """A call to the store that can never be right (wrong type, unknown status, missing error code)."""

    code = "INVALID_ARGUMENT"


class InvalidRecordState(InvocationStoreError):
    code = "INVALID_STATE"


class StoreUnavailable(InvocationStoreError):
    code = "STORE_UNAVAILABLE"
