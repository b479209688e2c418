"""What the gateway's routes need, and what the gateway still waits for while it starts.

``superbiz serve`` listens at once and starts its parts after (``GatewayServices.start``): the audit store,
Ray, the runtime's actors. Until every part is up, ``/healthz`` answers 200, ``/readyz`` 503 naming what is
still awaited, and ``POST /api/chat`` 503 ``NOT_READY``. Once it is stopping, both answer 503 again
(``STOPPING``) while the runs in flight finish.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gateway.backend import ChatBackend
from harness.audit import AuditSink

STARTUP_STEPS = ("audit", "ray", "supervisors")
"""The parts a gateway starts, in order."""


@dataclass
class GatewayServices:
    backend: ChatBackend | None = None
    audit: AuditSink | None = None
    started: set[str] = field(default_factory=set)
    """The steps of ``STARTUP_STEPS`` that are done."""
    stopping: bool = False
    """Shutting down: no new run is accepted."""

    @classmethod
    def ready(cls, backend: ChatBackend, audit: AuditSink) -> GatewayServices:
        return cls(backend, audit, set(STARTUP_STEPS))

    @property
    def waiting_for(self) -> list[str]:
        return [step for step in STARTUP_STEPS if step not in self.started]
