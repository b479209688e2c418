"""``superbiz serve``, ``ask``, ``demo`` and ``runtime stop`` (Ray and uvicorn are imported only when used)."""

from __future__ import annotations

import argparse
import asyncio
import sys

from cli.options import configured
from config import environment

EXIT_INVALID = 2
Commands = argparse._SubParsersAction  # type: ignore[type-arg]


def serve(args: argparse.Namespace) -> int:
    from actors.runtime import RuntimeMismatch
    from cli.ray_cluster import ClusterJoinError
    from cli.serve import ExposureRefused
    from cli.serve import serve as run_server

    config = configured(args)
    if config is None:
        return EXIT_INVALID
    try:
        return run_server(
            config,
            args.host or config.gateway.host,
            config.gateway.port if args.port is None else args.port,
            args.ray_address,
        )
    except (ExposureRefused, RuntimeMismatch, ClusterJoinError) as refused:
        print(refused, file=sys.stderr)
        return EXIT_INVALID


def stop_runtime(args: argparse.Namespace) -> int:
    from actors.runtime import shutdown_runtime
    from cli.ray_cluster import ClusterJoinError, init_ray

    config = configured(args)
    if config is None:
        return EXIT_INVALID
    try:
        init_ray(config, args.ray_address)
    except ClusterJoinError as refused:
        print(refused, file=sys.stderr)
        return EXIT_INVALID
    killed = shutdown_runtime(config)
    print(f"stopped {killed} actor(s) in Ray namespace {config.ray.namespace!r}")
    return 0


def ask(args: argparse.Namespace) -> int:
    from rich.console import Console

    from cli.ask import ask as ask_gateway

    return asyncio.run(ask_gateway(args.url, args.query, args.session, environment.variable(args.key_env), Console()))


def demo(args: argparse.Namespace) -> int:
    from cli.demo import demo as run_demo

    config = configured(args)
    if config is None:
        return EXIT_INVALID
    return run_demo(config, args.once, args.port)


def add_service_commands(commands: Commands, config_option: argparse.ArgumentParser) -> None:
    parser = commands.add_parser("serve", parents=[config_option], help="run the HTTP gateway (chat page + API)")
    parser.add_argument("--host", help="listen address (default: gateway.host)")
    parser.add_argument("--port", type=int, help="listen port (default: gateway.port)")
    parser.add_argument("--ray-address", help="join a Ray cluster: auto | ray://head:10001 | head:6379")
    parser.set_defaults(handler=serve)

    parser = commands.add_parser("ask", parents=[config_option], help="ask a running gateway one question")
    parser.add_argument("query")
    parser.add_argument("--session", help="continue this session")
    parser.add_argument("--url", default="http://127.0.0.1:8080", help="gateway URL (default: %(default)s)")
    parser.add_argument("--key-env", default="SUPERBIZ_API_KEY", help="environment variable holding the API key")
    parser.set_defaults(handler=ask)

    parser = commands.add_parser("demo", parents=[config_option], help="run three questions end to end, then serve")
    parser.add_argument("--once", action="store_true", help="exit after the three questions")
    parser.add_argument("--port", type=int, default=8080, help="chat page port (a free one if taken)")
    parser.set_defaults(handler=demo)

    runtime = commands.add_parser("runtime", help="the Ray actors of a namespace").add_subparsers(required=True)
    parser = runtime.add_parser(
        "stop", parents=[config_option], help="stop every actor of ray.namespace (a changed configuration, a redeploy)"
    )
    parser.add_argument("--ray-address", help="the cluster: auto | ray://head:10001 | head:6379")
    parser.set_defaults(handler=stop_runtime)
