"""``superbiz demo``: the whole product on one machine, three questions end to end, then the chat page.

Embedded defaults: a local Ray, an in-process Redis (fakeredis) per supervisor, SQLite for the audit store and
the demo order_db, the bundled knowledge base and mock logs, and the offline model (deterministic, not an LLM).
"""

from __future__ import annotations

import asyncio
import socket
from dataclasses import dataclass

import httpx
from rich.console import Console

from cli import stream_render
from cli.ray_cluster import init_ray
from cli.serve import GatewayThread, build_gateway
from cli.sse_client import Event, chat_events
from config.app import AppConfig
from harness.structured_logging import configure_logging


@dataclass(frozen=True)
class Question:
    query: str
    shows: str
    outcome: str
    content_type: str


QUESTIONS = (
    Question(
        "订单 order-123 支付超时，帮我排查",
        "a diagnosis released with evidence from the knowledge base, the logs and MySQL",
        "SUCCESS",
        "DIAGNOSIS_REPORT",
    ),
    Question(
        "ERR_TIMEOUT 是什么意思？",
        "a knowledge query answered from the runbooks, references checked",
        "SUCCESS",
        "KNOWLEDGE_ANSWER",
    ),
    Question(
        "订单 order-123 显示 REFUNDED，但客户反馈一直支付超时，帮我排查",
        "the agent takes the customer's premise as a fact; the SemanticGuard refuses the report: safe fallback",
        "FALLBACK",
        "FALLBACK",
    ),
)


def _free(port: int) -> int:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return 0
    return port


async def _ask(url: str, question: Question, session_id: str | None, console: Console) -> tuple[bool, str | None]:
    events: list[Event] = []
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=None)) as client:
        with console.status(question.query) as spinner:
            async for event in chat_events(client, url, question.query, session_id):
                events.append(event)
                if event.event == "status":
                    line = stream_render.status_line(event.data)
                    spinner.update(line)
                    console.print(f"[dim]· {line}[/dim]")
    for event in events:
        if event.event == "content":
            stream_render.content(console, event.data)
        elif event.event == "failure":
            stream_render.failure(console, event.data)
    done = events[-1].data.get("outcome") if events and events[-1].event == "done" else None
    content = next((e.data["content_type"] for e in events if e.event == "content"), None)
    ok = done == question.outcome and content == question.content_type
    console.print(f"[bold]{done}[/bold] {'✓' if ok else '✗ expected ' + question.outcome}\n")
    return ok, events[0].data.get("session_id") if events else None


def demo(config: AppConfig, once: bool, port: int) -> int:
    console = Console()
    configure_logging("WARNING")
    console.print(
        "[bold]superbiz demo[/bold] — embedded defaults: local Ray, in-process Redis, SQLite, "
        "bundled knowledge and mock logs, offline deterministic model (not an LLM)\n"
    )
    dashboard = init_ray(config, None)
    gateway = build_gateway(config)
    server = GatewayThread(gateway.app, "127.0.0.1", _free(port)).start()
    results = []
    session_id = None
    try:
        for number, question in enumerate(QUESTIONS, start=1):
            console.rule(f"[{number}/{len(QUESTIONS)}] {question.shows}")
            console.print(f"[bold]问：{question.query}[/bold]")
            ok, session_id = asyncio.run(_ask(server.url, question, session_id, console))
            results.append(ok)
        console.print(f"Chat page: {server.url}/" + (f"   Ray dashboard: {dashboard}" if dashboard else ""))
        if not once:
            console.print("Serving the chat page until Ctrl-C.")
            server.wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        gateway.audit.close()
    return 0 if all(results) else 1
