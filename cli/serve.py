"""``superbiz serve``: a gateway process. It listens at once, then starts its parts (the audit store, Ray, the
runtime's actors) and drains on SIGTERM; ``build_gateway`` and ``GatewayThread`` give the demo and the tests the
same gateway with its parts up before it listens."""

from __future__ import annotations

import asyncio
import ipaddress
import signal
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import ray
import uvicorn
import uvloop
from starlette.applications import Starlette

from actors.runtime import HarnessClient
from cli.ray_cluster import init_ray
from config import environment
from config.app import AppConfig
from contract.vocabulary import HarnessError
from gateway.app import create_app
from gateway.services import STARTUP_STEPS, GatewayServices
from harness.structured_logging import configure_logging
from stores.audit.store import SqlAuditStore

STARTUP_TIMEOUT_S = 30.0
DRAIN_POLL_S = 0.1
STOP_WAIT_S = 10.0
"""After cancelling the runs still in flight, how long their streams may take to close."""
T = TypeVar("T")


class ExposureRefused(HarnessError):
    """Binding a non-loopback address with authentication off."""

    code = "EXPOSURE_REFUSED"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_exposure(config: AppConfig, host: str) -> None:
    if config.gateway.auth == "off" and not is_loopback(host):
        raise ExposureRefused(
            f"refusing to listen on {host} with authentication off: set gateway.auth: api-keys (and api-keys), "
            "or listen on 127.0.0.1"
        )


@dataclass
class Gateway:
    app: Starlette
    client: HarnessClient
    audit: SqlAuditStore


def open_audit(config: AppConfig) -> SqlAuditStore:
    audit = SqlAuditStore(config.audit)
    audit.init_schema()
    return audit


def build_gateway(config: AppConfig) -> Gateway:
    """A gateway whose parts are up before it listens (the demo and the tests)."""
    audit = open_audit(config)
    client = HarnessClient(config)
    return Gateway(create_app(config, GatewayServices.ready(client, audit)), client, audit)


def start_services(config: AppConfig, services: GatewayServices, ray_address: str | None) -> str | None:
    """Start the gateway's parts in order, marking each one up as it comes (``/readyz`` reports the rest);
    returns the local dashboard's URL, if Ray was started here."""
    services.audit = open_audit(config)
    services.started.add("audit")
    dashboard = init_ray(config, ray_address)
    services.started.add("ray")
    services.backend = HarnessClient(config)
    services.started.add("supervisors")
    return dashboard


async def _cancel_the_rest() -> None:
    """Cancel and await what ``serve()`` leaves on its loop (sse-starlette's shutdown watcher among them), so no
    task is destroyed pending, with an error in the log, when the loop closes."""
    rest = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in rest:
        task.cancel()
    await asyncio.gather(*rest, return_exceptions=True)


class GatewayThread:
    """uvicorn in a background thread with its own event loop (the gateway, the demo and the tests); ``url``
    once it listens; ``call`` runs a coroutine on that loop from another thread."""

    def __init__(self, app: Starlette, host: str = "127.0.0.1", port: int = 0) -> None:
        self._config = uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False, lifespan="off")
        self._server = uvicorn.Server(self._config)
        self._loop = uvloop.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="gateway", daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._loop.run_until_complete(self._server.serve())
        finally:
            self._loop.run_until_complete(_cancel_the_rest())
            self._loop.close()

    def start(self) -> GatewayThread:
        self._thread.start()
        deadline = time.monotonic() + STARTUP_TIMEOUT_S
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the gateway did not start")
            time.sleep(0.02)
        return self

    @property
    def url(self) -> str:
        [server] = self._server.servers
        host, port = server.sockets[0].getsockname()[:2]
        return f"http://{host}:{port}"

    def call(self, work: Coroutine[Any, Any, T], timeout_s: float = 10.0) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout_s)

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(10)

    def wait(self) -> None:
        while self._thread.is_alive():
            self._thread.join(0.5)


def drain(server: GatewayThread, services: GatewayServices, client: HarnessClient, grace_s: float) -> tuple[int, int]:
    """Stop accepting runs, let those in flight finish within ``grace_s``, then cancel the rest (each recorded
    CANCELLED, its client told); returns (finished, cancelled)."""

    async def in_flight() -> int:
        return client.in_flight

    services.stopping = True
    running = server.call(in_flight())
    deadline = time.monotonic() + grace_s
    while (left := server.call(in_flight())) and time.monotonic() < deadline:
        time.sleep(DRAIN_POLL_S)
    if left:
        server.call(client.stop_runs())
        deadline = time.monotonic() + STOP_WAIT_S
        while server.call(in_flight()) and time.monotonic() < deadline:
            time.sleep(DRAIN_POLL_S)
    return running - left, left


class StopRequested(HarnessError):
    """SIGTERM or SIGINT: the gateway drains and stops."""

    code = "STOP_REQUESTED"


def _request_stop(signum: int, frame: object) -> None:
    raise StopRequested(signal.Signals(signum).name)


def serve(config: AppConfig, host: str, port: int, ray_address: str | None) -> int:
    """Listen at once, then start Ray and the runtime's actors; on SIGTERM or Ctrl-C drain and stop (see
    ``drain``), leaving detached actors of a cluster in place; returns the exit code."""
    check_exposure(config, host)
    configure_logging()
    if config.gateway.auth == "off":
        print("WARNING: authentication is off (gateway.auth: off); listening on loopback only.", flush=True)
    services = GatewayServices()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, _request_stop)
    server = GatewayThread(create_app(config, services), host, port).start()
    print(
        f"superbiz gateway: {server.url}/  (chat page; POST /api/chat; /readyz once Ray and the actors are up)",
        flush=True,
    )
    try:
        dashboard = start_services(config, services, ray_address)
        for signum in (signal.SIGTERM, signal.SIGINT):  # ray.init installs its own handlers
            signal.signal(signum, _request_stop)
        print(f"superbiz gateway: ready ({', '.join(STARTUP_STEPS)} up)", flush=True)
        if dashboard:
            print(f"Ray dashboard:    {dashboard}", flush=True)
            if environment.ray_auth_mode() == "token":
                print(
                    f"Ray dashboard:    token authentication is on; the token is in {environment.ray_token_source()} "
                    "(`ray get-auth-token` prints it)",
                    flush=True,
                )
        server.wait()
    except StopRequested as stop:
        print(f"superbiz gateway: {stop}: no new runs; draining", flush=True)
        if isinstance(services.backend, HarnessClient):
            finished, cancelled = drain(server, services, services.backend, config.gateway.shutdown_grace)
            print(f"superbiz gateway: {finished} runs finished, {cancelled} cancelled", flush=True)
    finally:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, signal.SIG_IGN)
        server.stop()
        if isinstance(services.audit, SqlAuditStore):
            services.audit.close()
        if ray.is_initialized():
            ray.shutdown()  # a local Ray stops with it; a cluster's detached actors stay
    print("superbiz gateway: stopped", flush=True)
    return 0
