"""The chat page (gateway/static/) in a real headless Chromium, driven by Playwright's Python API.

The browser is Debian's ``/usr/bin/chromium`` (``./scripts/test`` installs it as root), launched with a fresh
temporary profile; Playwright's own browser downloads are never used. A missing Chromium FAILS these tests,
it never skips them.

- ``test_diagnosis_chat_in_one_session`` runs against a real gateway (``gateway_url``: offline model, auth off):
  a diagnosis streamed live, the report in its fixed order with its references, a follow-up in the same
  session, then a new session. Screenshots go to ``test-output/``.
- ``test_sse_parser_edge_cases`` checks the page's SSE parser on awkward streams, in the browser.
- ``test_fallback_failure_and_http_errors`` renders answers the offline model does not give on demand
  (fallback, failure, knowledge answer, HTTP errors, markup in the data) from canned responses.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "gateway" / "static"
OUTPUT = ROOT / "test-output"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
QUERY = "订单 order-123 支付超时，帮我排查"
FOLLOW_UP = "order-123 的支付记录现在是什么状态？继续排查"
SECTIONS = ["结论", "分析支撑", "行动计划", "长期建议", "诊断范围与限制", "引用"]
RUN_TIMEOUT_MS = 60_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests need the Debian package chromium "
            "(apt-get install --no-install-recommends chromium fonts-noto-cjk; ./scripts/test installs it as root)",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    fresh = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    fresh.set_default_timeout(15_000)
    try:
        yield fresh
    finally:
        fresh.close()


class Watch:
    """Page errors, console errors and requests leaving the page's own origin."""

    def __init__(self, page: Page, origin: str) -> None:
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.chats: list[dict[str, Any]] = []
        page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        page.on("console", lambda message: message.type == "error" and self.errors.append(f"console: {message.text}"))

        def on_request(request: Any) -> None:
            if not (request.url.startswith(origin) or request.url.startswith("data:")):
                self.foreign.append(request.url)
            if request.url.endswith("/api/chat") and request.method == "POST":
                self.chats.append(request.post_data_json)

        page.on("request", on_request)

    def check(self) -> None:
        assert self.errors == [], self.errors
        assert self.foreign == [], f"the page must load nothing from elsewhere: {self.foreign}"


def ask(page: Page, query: str) -> Locator:
    """Type ``query``, press Enter, wait until its answer is no longer running; the answer's article."""
    before = page.locator(".turn-assistant").count()
    page.locator("#query").fill(query)
    page.locator("#query").press("Enter")
    answer = page.locator(".turn-assistant").nth(before)
    expect(answer).to_be_attached()
    expect(answer).not_to_have_attribute("data-state", "running", timeout=RUN_TIMEOUT_MS)
    expect(page.locator("#query")).to_be_enabled()
    return answer


def screenshot(page: Page, path: Path) -> None:
    """The whole page, with the viewport stretched to it so the sticky header and composer sit at its ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    viewport = page.viewport_size
    assert viewport is not None
    height = page.evaluate("document.documentElement.scrollHeight")
    page.set_viewport_size({"width": viewport["width"], "height": max(height, viewport["height"])})
    page.evaluate("window.scrollTo(0, 0)")
    try:
        page.screenshot(path=str(path), full_page=True, animations="disabled")
    finally:
        page.set_viewport_size(viewport)


# ---------------------------------------------------------------------------------------------------------------
# Against the real gateway
# ---------------------------------------------------------------------------------------------------------------


def test_diagnosis_chat_in_one_session(context: BrowserContext, gateway_url: str) -> None:
    base = gateway_url.rstrip("/")
    page = context.new_page()
    watch = Watch(page, base)
    page.goto(base + "/")
    info = page.request.get(base + "/api/info").json()

    # Header: product, model label (the offline model is marked as such), no API key field with auth off.
    expect(page.locator("h1")).to_have_text("SuperBiz 诊断助手")
    expect(page.locator("#model-info")).to_have_attribute("data-state", "ready")
    expect(page.locator("#model-label")).to_have_text(info["model"])
    assert info["auth_required"] is False
    expect(page.locator("#auth-bar")).to_be_hidden()
    expect(page.locator("#model-offline")).to_be_visible()
    expect(page.locator("#model-offline")).to_contain_text("离线确定性模型")

    first = ask(page, QUERY)
    expect(first).to_have_attribute("data-state", "done")
    expect(first).to_have_attribute("data-outcome", "SUCCESS")
    expect(first).to_have_attribute("data-content-type", "DIAGNOSIS_REPORT")
    # The report arrives with its conclusion in view (its references are further down, reached by their chips).
    conclusion_top = first.locator(".conclusion").evaluate("e => e.getBoundingClientRect().top")
    assert 0 <= conclusion_top < page.evaluate("window.innerHeight"), conclusion_top

    # Live status: the plan's steps, each tool call with its evidence status, the validation stages.
    steps = first.locator('.status-line[data-code="PLANNING"] .plan-steps > li')
    assert 3 <= steps.count() <= 5, steps.all_inner_texts()
    for step in steps.all():
        expect(step).to_be_visible()
        assert step.inner_text().strip()
    tools = first.locator(".status-tool")
    assert tools.count() >= 3
    for tool in tools.all():
        assert tool.get_attribute("data-evidence") in {"EVIDENCE_FOUND", "NO_EVIDENCE", "ERROR"}
    expect(first.locator('.status-line[data-code="EVIDENCE_VALIDATING"]')).to_be_visible()
    expect(first.locator('.status-line[data-code="SEMANTIC_VALIDATING"]')).to_be_visible()
    expect(first.locator('.status-line[data-state="active"]')).to_have_count(0)

    # The report: six sections in the fixed order.
    expect(first.locator(".report > .report-section > .section-title")).to_have_text(SECTIONS)
    expect(first.locator(".conclusion-text")).not_to_be_empty()
    assert first.locator(".analysis-item").count() >= 1

    # References: one of each source type at least, with their exact evidence; every chip leads to its entry.
    for source_type in ("LOG", "MYSQL", "KNOWLEDGE", "METRIC"):
        expect(first.locator(f'.ref-card[data-source-type="{source_type}"]').first).to_be_visible()
    metric = first.locator('.ref-card[data-source-type="METRIC"] tr.metric-series').first
    expect(metric.locator("td.num").first).not_to_be_empty()
    expect(metric.locator("svg.sparkline polyline")).to_have_count(1)
    expect(first.locator('.ref-card[data-source-type="LOG"] .log-excerpt').first).to_be_visible()
    expect(first.locator('.ref-card[data-source-type="MYSQL"] table.data-table tbody tr').first).to_be_visible()
    expect(first.locator('.ref-card[data-source-type="KNOWLEDGE"] .excerpt').first).to_be_visible()
    chips = first.locator(".analysis-item a.chip-ref")
    assert chips.count() >= 1
    for chip in chips.all():
        target = first.locator(f'[id="{chip.get_attribute("data-target")}"]')
        expect(target).to_have_count(1)
        expect(target).to_have_attribute("data-ref", chip.inner_text())
    chips.first.click()
    expect(first.locator(f'[id="{chips.first.get_attribute("data-target")}"]')).to_be_in_viewport()

    # Actions needing a human are marked, the others are not.
    needs_human = first.locator('.action-item[data-requires-confirmation="true"]')
    for action in needs_human.all():
        expect(action.locator(".badge-confirm")).to_be_visible()
        expect(action.locator(".badge-confirm")).to_have_text("需人工确认")
    expect(first.locator('.action-item[data-requires-confirmation="false"] .badge-confirm')).to_have_count(0)

    # run_id and session_id under the answer.
    run_id = first.get_attribute("data-run-id")
    session_id = first.get_attribute("data-session-id")
    assert run_id and session_id
    expect(first.locator(".turn-meta .run-id")).to_have_text(run_id)
    expect(first.locator(".turn-meta .session-id")).to_have_text(session_id)
    screenshot(page, OUTPUT / "chat-page.png")

    # A follow-up continues the session.
    second = ask(page, FOLLOW_UP)
    expect(second).to_have_attribute("data-state", "done")
    expect(second).to_have_attribute("data-session-id", session_id)
    expect(second.locator(".turn-meta .session-id")).to_have_text(session_id)
    assert second.get_attribute("data-run-id") not in {None, "", run_id}
    assert [chat["session_id"] for chat in watch.chats] == [None, session_id]
    assert [chat["query"] for chat in watch.chats] == [QUERY, FOLLOW_UP]
    screenshot(page, OUTPUT / "chat-page-follow-up.png")

    # 新会话 clears the conversation and starts a new session.
    page.locator("#new-session").click()
    expect(page.locator(".turn")).to_have_count(0)
    expect(page.locator("#welcome")).to_be_visible()
    third = ask(page, "你好")
    expect(third).to_have_attribute("data-state", "done")
    assert watch.chats[-1]["session_id"] is None
    assert third.get_attribute("data-session-id") not in {None, "", session_id}
    watch.check()


# ---------------------------------------------------------------------------------------------------------------
# The SSE parser
# ---------------------------------------------------------------------------------------------------------------

PARSER_CASES = r"""
async () => {
  const { SseParser, readEventStream } = window.SuperbizSse;
  const parse = (chunks) => {
    const parser = new SseParser();
    const events = [];
    for (const chunk of chunks) events.push(...parser.feed(chunk));
    events.push(...parser.end());
    return events.map(({ event, data }) => [event, data]);
  };
  const bytes = async (chunks) => {
    const stream = new ReadableStream({
      start(controller) { for (const chunk of chunks) controller.enqueue(chunk); controller.close(); },
    });
    const events = [];
    await readEventStream(stream, ({ event, data }) => events.push([event, data]));
    return events;
  };
  const realistic =
    ": ping\r\n\r\nevent: metadata\r\ndata: {\"run_id\": \"r1\"}\r\n\r\n" +
    "event: status\ndata: {\"code\": \"PLANNING\",\ndata:  \"steps\": [\"查日志\", \"查订单\"]}\n\n" +
    ": keep-alive\r\revent: done\rdata:{\"outcome\": \"SUCCESS\"}\r\r";
  const utf8 = new TextEncoder().encode(realistic);
  const everyByte = Array.from(utf8, (b) => new Uint8Array([b]));
  return {
    crlfSplit: parse(["event: a\r", "\ndata: 1\r", "\n\r", "\n"]),
    multiLine: parse(["data: {\ndata:  \"x\": 1}\n\n"]),
    comments: parse([": ping\n\n:\r\n\r\nevent: done\ndata: {}\n\n"]),
    crOnly: parse(["event: x\rdata: y\r\r"]),
    noSpace: parse(["data:abc\ndata\n\n"]),
    noData: parse(["event: lonely\n\nevent: ok\ndata: 1\n\n"]),
    bom: parse(["\ufeffevent: b\ndata: 2\n\n"]),
    incomplete: parse(["data: complete\n\n", "event: cut\ndata: partial"]),
    trailingCr: parse(["data: x\r", "\r"]),
    namedReset: parse(["event: a\ndata: 1\n\ndata: 2\n\n"]),
    wholeStream: await bytes([utf8]),
    byteByByte: await bytes(everyByte),
  };
}
"""


def test_sse_parser_edge_cases(context: BrowserContext) -> None:
    page = context.new_page()
    page.set_content("<!doctype html><title>parser</title>")
    page.add_script_tag(path=str(STATIC / "app.js"))
    cases = page.evaluate(PARSER_CASES)
    assert cases["crlfSplit"] == [["a", "1"]]
    assert cases["multiLine"] == [["message", '{\n "x": 1}']]
    assert cases["comments"] == [["done", "{}"]]
    assert cases["crOnly"] == [["x", "y"]]
    assert cases["noSpace"] == [["message", "abc\n"]]
    assert cases["noData"] == [["ok", "1"]]
    assert cases["bom"] == [["b", "2"]]
    assert cases["incomplete"] == [["message", "complete"]]
    assert cases["trailingCr"] == [["message", "x"]]
    assert cases["namedReset"] == [["a", "1"], ["message", "2"]]
    expected = [
        ["metadata", '{"run_id": "r1"}'],
        ["status", '{"code": "PLANNING",\n "steps": ["查日志", "查订单"]}'],
        ["done", '{"outcome": "SUCCESS"}'],
    ]
    assert cases["wholeStream"] == expected
    assert cases["byteByByte"] == expected


# ---------------------------------------------------------------------------------------------------------------
# Answers the offline gateway does not give on demand, from canned responses
# ---------------------------------------------------------------------------------------------------------------

ORIGIN = "http://superbiz.test"
MARKUP = '<img src=x onerror="window.__pwned = 1"><b>粗体</b>'


def sse(*events: tuple[str, dict[str, Any]]) -> str:
    return "".join(f"event: {name}\r\ndata: {json.dumps(data, ensure_ascii=False)}\r\n\r\n" for name, data in events)


def run_events(final: tuple[str, dict[str, Any]], outcome: str) -> str:
    return sse(
        ("metadata", {"session_id": "canned-session-1", "run_id": "canned-run-1", "model": "offline"}),
        ("status", {"code": "ROUTING", "message": "正在识别问题类型"}),
        final,
        ("done", {"outcome": outcome}),
    )


CANNED: dict[str, tuple[int, str, str]] = {
    "降级": (
        200,
        "text/event-stream",
        run_events(
            (
                "content",
                {
                    "content_type": "FALLBACK",
                    "payload": {
                        "type": "SEMANTIC_UNSUPPORTED",
                        "conclusion": None,
                        "message": f"现有证据不足以支持结论 {MARKUP}",
                        "verified_sources": [
                            {"source_type": "LOG", "source": "APPLICATION (MOCK)", "scope": "最近 30 分钟"}
                        ],
                        "limitations": ["分析与结论之间缺少证据支持"],
                        "next_steps": ["补充时间范围后重新提问"],
                    },
                },
            ),
            "FALLBACK",
        ),
    ),
    "失败": (
        200,
        "text/event-stream",
        run_events(("failure", {"code": "MODEL_UNAVAILABLE", "message": "模型服务暂时不可用"}), "FAILED"),
    ),
    "知识": (
        200,
        "text/event-stream",
        run_events(
            (
                "content",
                {
                    "content_type": "KNOWLEDGE_ANSWER",
                    "payload": {
                        "answer": "ERR_POOL_EXHAUSTED 表示连接池耗尽。",
                        "references": [
                            {
                                "document_id": "hikari#1",
                                "title": "HikariCP 连接池耗尽处理指南",
                                "breadcrumb": "HikariCP 连接池耗尽处理指南 > 1. 现象",
                                "source": "knowledge-base",
                                "excerpt": f"连接池耗尽时…… {MARKUP}",
                            }
                        ],
                        "limitations": ["只依据知识库"],
                    },
                },
            ),
            "SUCCESS",
        ),
    ),
    "密钥": (401, "application/json", json.dumps({"error": {"code": "UNAUTHORIZED", "message": "API Key 无效"}})),
    "截断": (200, "text/event-stream", sse(("metadata", {"session_id": "canned-session-1", "run_id": "r2"}))),
}


def serve_canned(route: Route) -> None:
    request = route.request
    path = request.url.removeprefix(ORIGIN).split("?")[0]
    if path == "/":
        route.fulfill(path=str(STATIC / "index.html"))
    elif path.startswith("/static/") and (STATIC / path.removeprefix("/static/")).is_file():
        route.fulfill(path=str(STATIC / path.removeprefix("/static/")))
    elif path == "/api/info":
        route.fulfill(json={"auth_required": False, "model": "gpt-4o-mini", "max_query_chars": 200})
    elif path == "/api/chat":
        query = request.post_data_json["query"]
        status, content_type, body = next(answer for key, answer in CANNED.items() if key in query)
        route.fulfill(status=status, content_type=content_type, body=body)
    else:
        route.fulfill(status=404, body="")


def test_fallback_failure_and_http_errors(context: BrowserContext) -> None:
    page = context.new_page()
    page.route(f"{ORIGIN}/**", serve_canned)
    page.goto(ORIGIN + "/")
    expect(page.locator("#model-label")).to_have_text("gpt-4o-mini")
    expect(page.locator("#model-offline")).to_be_hidden()

    fallback = ask(page, f"降级 {MARKUP}")
    expect(fallback).to_have_attribute("data-outcome", "FALLBACK")
    panel = fallback.locator(".panel-warning")
    expect(panel).to_have_attribute("data-fallback-type", "SEMANTIC_UNSUPPORTED")
    expect(panel.locator(".panel-message")).to_have_text(f"现有证据不足以支持结论 {MARKUP}")
    expect(panel.locator(".source-list li")).to_have_count(1)
    expect(panel).to_contain_text("补充时间范围后重新提问")
    expect(fallback.locator(".report")).to_have_count(0)

    failure = ask(page, "失败")
    expect(failure).to_have_attribute("data-outcome", "FAILED")
    expect(failure.locator(".panel-error .panel-message")).to_have_text("模型服务暂时不可用")

    knowledge = ask(page, "知识")
    expect(knowledge.locator(".plain-answer")).to_have_text("ERR_POOL_EXHAUSTED 表示连接池耗尽。")
    expect(knowledge.locator('.ref-card[data-source-type="KNOWLEDGE"] .excerpt')).to_have_text(
        f"连接池耗尽时…… {MARKUP}"
    )

    cut = ask(page, "截断")
    expect(cut).to_have_attribute("data-state", "error")
    expect(cut.locator(".error-line")).to_contain_text("连接中断")

    rejected = ask(page, "密钥")
    expect(rejected).to_have_attribute("data-state", "error")
    expect(rejected.locator(".error-line")).to_contain_text("401")
    expect(rejected.locator(".error-line")).to_contain_text("API Key 无效")
    expect(page.locator("#auth-bar")).to_be_visible()

    # Over max_query_chars (200 here): not sent.
    page.locator("#query").fill("长" * 201)
    expect(page.locator("#send")).to_be_disabled()
    expect(page.locator("#char-count")).to_have_text("201 / 200")

    # Data is text, never markup.
    assert page.evaluate("window.__pwned") is None
    expect(page.locator(".turn img, .turn b")).to_have_count(0)
    expect(page.locator(".bubble-user").first).to_have_text(f"降级 {MARKUP}")
    screenshot(page, OUTPUT / "chat-page-fallback.png")


def test_api_key_when_auth_is_required(context: BrowserContext) -> None:
    sent: list[str | None] = []

    def serve(route: Route) -> None:
        if route.request.url == f"{ORIGIN}/api/info":
            route.fulfill(json={"auth_required": True, "model": "gpt-4o-mini", "max_query_chars": 200})
        elif route.request.url == f"{ORIGIN}/api/chat":
            sent.append(route.request.headers.get("authorization"))
            route.fulfill(status=200, content_type="text/event-stream", body=CANNED["知识"][2])
        else:
            serve_canned(route)

    page = context.new_page()
    page.route(f"{ORIGIN}/**", serve)
    page.goto(ORIGIN + "/")
    expect(page.locator("#auth-bar")).to_be_visible()

    page.locator("#query").fill("知识")
    page.locator("#query").press("Enter")
    expect(page.locator("#auth-hint")).to_be_visible()
    expect(page.locator("#api-key")).to_be_focused()
    assert sent == []
    expect(page.locator(".turn")).to_have_count(0)

    page.locator("#api-key").fill("sk-test-key")
    expect(page.locator("#auth-hint")).to_be_hidden()
    answer = ask(page, "知识")
    expect(answer).to_have_attribute("data-outcome", "SUCCESS")
    assert sent == ["Bearer sk-test-key"]
    assert page.evaluate("sessionStorage.getItem('superbiz.apiKey')") == "sk-test-key"
    page.reload()
    expect(page.locator("#api-key")).to_have_value("sk-test-key")
