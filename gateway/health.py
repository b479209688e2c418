"""``/healthz`` (the process serves) and ``/readyz`` (every part a run needs is up: 200, else 503 naming what is
still awaited, or ``stopping`` while the gateway drains); see ``gateway.services``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse

from gateway.services import GatewayServices


class Health:
    def __init__(self, services: GatewayServices) -> None:
        self._services = services

    async def healthz(self, request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(self, request: Request) -> JSONResponse:
        services = self._services
        waiting = services.waiting_for
        if services.stopping:
            return JSONResponse({"ready": False, "stopping": True, "waiting_for": waiting}, status_code=503)
        if waiting or services.backend is None or services.audit is None:
            checks = {"ray": "ray" in services.started, "supervisors": False, "redis": False}
            checks["audit"] = "audit" in services.started
            return JSONResponse({"ready": False, "waiting_for": waiting, "checks": checks}, status_code=503)
        checks = {**await services.backend.readiness(), "audit": await services.audit.ping()}
        ready = all(checks.values())
        body = {"ready": ready, "waiting_for": [name for name, ok in checks.items() if not ok], "checks": checks}
        return JSONResponse(body, status_code=200 if ready else 503)
