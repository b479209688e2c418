"""One run, start to terminal state (ISS-014 §3, §4): route, take the intent's path, validate, release.

=======================================  =========================================================================
:mod:`~harness.run.flow`                 ``Run``: route, then the intent's path (``PATHS``), then finish
:mod:`~harness.run.routing`              the session's earlier turns and the intent router
:mod:`~harness.run.paths`                one module per intent, each ``async def answer(scope) -> Outcome``
:mod:`~harness.run.reviews`              the reviews a checked diagnosis passes before release, one module each
:mod:`~harness.run.scope`                ``Scope``: what a path needs of its run
:mod:`~harness.run.agent_gateway`        ``RunGateway``: the model and tool boundary the agent calls back into
:mod:`~harness.run.model_calls`          every model call of a run and its ``agent_step`` row (one failure ladder)
:mod:`~harness.run.recorder`             the audit rows, usage, metrics and the finish record
:mod:`~harness.run.stream`               the events the client gets, in their fixed order
:mod:`~harness.run.outcome`              how a run ended, and the endings the paths share
:mod:`~harness.run.services`             ``RunServices``: the ports and configuration every run of a process shares
=======================================  =========================================================================

A run reasons about nothing: it enforces, records and releases. Everything remote comes in through the ports of
``RunServices``, so the whole flow runs in-process in unit tests and on Ray in production. Time is read only
through the run's injected ``Clock``.
"""
