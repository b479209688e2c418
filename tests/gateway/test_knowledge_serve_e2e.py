"""The knowledge index under ``superbiz serve`` (Ray, HTTP): the index ``superbiz kb index`` built is used as it is,
and a document edited while the server runs is found by the next query."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from tests.actors.runtime_support import ray_config
from tests.fake_openai import FakeOpenAI, reply
from tests.gateway.e2e_support import Running, ask, assert_well_formed, started, with_sections
from tests.services import RedisServer
from tools.knowledge.tool import BUNDLED_DOCS

NEW_SECTION = "\n## 6. 熔断演练记录\n\n每季度对 payment-service 做一次熔断演练，演练窗口为周二 14:00。\n"


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        yield server


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wiki") / "kb"
    shutil.copytree(BUNDLED_DOCS, folder)
    assert main(["kb", "index", str(folder)]) == 0
    return folder


def parsed_files(folder: Path) -> dict[str, str]:
    with sqlite3.connect(folder.parent / ".kb.index" / "files.sqlite") as db:
        return dict(db.execute("SELECT path, sha256 FROM files").fetchall())


@pytest.fixture(scope="module")
def running(
    ray_session: None,
    redis_server: RedisServer,
    fake: FakeOpenAI,
    folder: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Running]:
    tools = {"lookup_knowledge": {"path": str(folder)}}
    config = with_sections(
        ray_config(redis_url=redis_server.url, base_url=fake.base_url, tools=tools), tmp_path_factory.mktemp("kb")
    )
    with started(config) as gateway:
        yield gateway


def answered_from(fake: FakeOpenAI) -> list[list[str]]:
    """Script the knowledge answers; each call records the document ids it was given."""
    seen: list[list[str]] = []

    def answer(body: dict[str, Any]) -> Any:
        evidence = json.loads(body["messages"][-1]["content"])["evidence"]
        seen.append([item["document_id"] for item in evidence])
        text = evidence[0]["excerpt"][:40]
        return reply(json.dumps({"answer": text, "references": [evidence[0]["document_id"]], "limitations": []}))

    fake.default("router", lambda body: reply(json.dumps({"intent": "KNOWLEDGE_QUERY"})))
    fake.default("knowledge", answer)
    return seen


async def test_the_prebuilt_index_serves_and_an_edit_is_found_next(
    running: Running, fake: FakeOpenAI, folder: Path
) -> None:
    before = parsed_files(folder)
    seen = answered_from(fake)
    events = await ask(running.url, "ERR_TIMEOUT 是什么意思")
    assert_well_formed(events)
    assert seen and seen[-1][0] == "error-codes#err_timeout"
    assert parsed_files(folder) == before  # nothing was read again at start-up or on the query

    with (folder / "payment-system-overview.md").open("a", encoding="utf-8") as document:
        document.write(NEW_SECTION)
    events = await ask(running.url, "payment-service 熔断演练窗口是什么时候")
    assert_well_formed(events)
    assert "payment-system-overview#6-熔断演练记录" in seen[-1]
    assert parsed_files(folder)["payment-system-overview.md"] != before["payment-system-overview.md"]
