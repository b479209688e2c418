"""SemanticGuard replica: stateless; any replica can take any request, which carries everything it needs."""

from __future__ import annotations

from actors.model_factory import build_model
from config.runtime import ModelSettings
from harness.guard_attempt import evaluate_once
from harness.messages import GuardAttempt, GuardRequest


class SemanticGuardActor:
    def __init__(self, name: str, settings: ModelSettings) -> None:
        self._name = name
        self._model = build_model(settings)

    async def evaluate(self, request: GuardRequest, timeout_s: float) -> GuardAttempt:
        return await evaluate_once(self._model, request, timeout_s, self._name)
