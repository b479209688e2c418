"""``superbiz ask``: one question to a running gateway, streamed with a live status line."""

from __future__ import annotations

import httpx
from rich.console import Console

from cli import stream_render
from cli.sse_client import RequestFailed, chat_events

EXIT_CODES = {"SUCCESS": 0, "FALLBACK": 1, "FAILED": 2}


async def ask(url: str, query: str, session_id: str | None, api_key: str | None, console: Console) -> int:
    outcome = "FAILED"
    async with httpx.AsyncClient(timeout=httpx.Timeout(10, read=None)) as client:
        with console.status("正在提交问题…") as spinner:
            try:
                async for event in chat_events(client, url, query, session_id, api_key):
                    if event.event == "metadata":
                        console.print(
                            f"[dim]session {event.data['session_id']} · run {event.data['run_id']} · "
                            f"{event.data.get('model', '')}[/dim]"
                        )
                    elif event.event == "status":
                        line = stream_render.status_line(event.data)
                        spinner.update(line)
                        console.print(f"[dim]· {line}[/dim]")
                    elif event.event == "content":
                        spinner.stop()
                        stream_render.content(console, event.data)
                    elif event.event == "failure":
                        spinner.stop()
                        stream_render.failure(console, event.data)
                    elif event.event == "done":
                        outcome = event.data["outcome"]
            except RequestFailed as failed:
                spinner.stop()
                console.print(f"[red]{failed.message} ({failed.code}, HTTP {failed.status})[/red]")
                return EXIT_CODES["FAILED"]
            except httpx.HTTPError as error:
                spinner.stop()
                console.print(f"[red]cannot reach the gateway at {url} ({type(error).__name__})[/red]")
                return EXIT_CODES["FAILED"]
    console.print(f"[bold]{outcome}[/bold]")
    return EXIT_CODES.get(outcome, 2)
