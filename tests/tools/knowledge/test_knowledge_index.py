"""Retrieval on the bundled knowledge base, the no-evidence rule, and when the index is (re)built."""

from __future__ import annotations

import gc
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from contract.clock import ManualClock
from tests.tools.knowledge.conftest import Folder
from tools.knowledge.index import KnowledgeIndex, KnowledgeUnavailable
from tools.knowledge.sync import scan
from tools.knowledge.tool import BUNDLED_DOCS


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeIndex:
    return KnowledgeIndex(BUNDLED_DOCS, tmp_path_factory.mktemp("index") / "kb.index", clock=ManualClock())


def open_index(folder: Path, clock: ManualClock | None = None, *, watch: bool = False) -> KnowledgeIndex:
    """An index of ``folder`` stored beside it; polled on ``clock`` unless ``watch``."""
    return KnowledgeIndex(folder, folder.parent / f".{folder.name}.index", clock=clock or ManualClock(), watch=watch)


def restamp(path: Path, text: str) -> None:
    """Rewrite ``path`` and move its mtime a second on, as an editor a second later would."""
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 10**9, before + 10**9))


def top(index: KnowledgeIndex, query: str, k: int = 3) -> list[str]:
    return [hit.chunk.document_id for hit in index.search(query, k).hits]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("支付超时", "payment-timeout-runbook#"),
        ("连接池耗尽怎么办", "hikaricp-pool-exhaustion#"),
        ("HikariCP pool exhaustion", "hikaricp-pool-exhaustion#"),
        ("order-service 连接池", "hikaricp-pool-exhaustion#"),
        ("ERR_TIMEOUT 是什么意思", "error-codes#err_timeout"),
        ("is it safe to restart every order-service instance at once", "ops-change-policy#14-禁止的动作"),
        ("what does the gateway do when a client sends too many requests", "error-codes#err_rate_limited"),
        ("payment_record status 取值", "order-db-data-dictionary#22-payment_record支付单表"),
        ("扩大连接池需要确认吗", "hikaricp-pool-exhaustion#42-需要人工确认的动作"),
        ("HikariPool-1 - Connection is not available, request timed out after 30000ms", "hikaricp-pool-exhaustion#"),
    ],
)
def test_the_best_hit_is_the_right_document(bundled: KnowledgeIndex, query: str, expected: str) -> None:
    assert top(bundled, query, 1)[0].startswith(expected)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ERR_TIMEOUT", "error-codes#err_timeout"),
        ("ERR_REFUND_DUPLICATE", "error-codes#err_refund_duplicate"),
        ("ERR_REFUND_DUPLICATE", "refund-service-runbook#22-大量-err_refund_duplicate"),
        ("渠道拒绝 ERR_CHANNEL_DECLINED", "error-codes#err_channel_declined"),
        ("用户说付款后订单还是待支付", "payment-timeout-runbook#1-典型症状"),
        (
            "如何排查订单服务 order-service 在高峰期出现的数据库连接池耗尽问题并给出处理建议",
            "hikaricp-pool-exhaustion#3-排查步骤",
        ),
    ],
)
def test_the_right_section_is_among_the_first_three(bundled: KnowledgeIndex, query: str, expected: str) -> None:
    assert expected in top(bundled, query)


@pytest.mark.parametrize(
    "query",
    [
        "今天天气怎么样",
        "请告诉我明天北京的天气情况和出行建议",
        "机器学习模型训练",
        "kubernetes ingress certificate renewal",
        "量子计算 GPU 驱动",
        "怎么办",
        "！？。",
    ],
)
def test_a_query_about_nothing_in_the_knowledge_base_has_no_hits(bundled: KnowledgeIndex, query: str) -> None:
    assert bundled.search(query, 10).hits == ()


def test_one_shared_term_is_not_enough(make_folder: Folder) -> None:
    index = open_index(make_folder({"a.md": "# 连接池\n\n连接池配置说明。\n"}))
    assert index.search("连接 熔断", 5).hits == ()  # one of two terms matched
    assert index.search("连接池", 5).hits != ()


def test_a_small_share_of_the_query_is_not_enough(make_folder: Folder) -> None:
    index = open_index(make_folder({"a.md": "# 数据库\n\n数据库说明。\n"}))
    assert index.search("数据库 天气预报 出行建议 旅游攻略", 5).hits == ()  # 3 of 15 characters
    assert [h.chunk.document_id for h in index.search("数据库说明", 5).hits] == ["a#数据库"]


def test_equal_scores_are_ordered_by_path_then_position(make_folder: Folder) -> None:
    same = "# 退款\n\n## 重复退款\n\n退款重复提交会被拦截。\n"
    index = open_index(make_folder({"b.md": same, "a.md": same}))
    first = [h.chunk.document_id for h in index.search("退款重复提交", 5).hits]
    assert first == ["a#重复退款", "b#重复退款"]
    assert [h.chunk.document_id for h in index.search("退款重复提交", 5).hits] == first


def test_matched_terms_come_most_specific_first(bundled: KnowledgeIndex) -> None:
    hit = bundled.search("ERR_TIMEOUT", 5).hits[0]
    assert hit.matched_terms[0] == "err_timeout"
    assert 0 < hit.coverage <= 1 and hit.score > 0


def test_searching_reads_no_file(make_folder: Folder, clock: ManualClock) -> None:
    index = open_index(make_folder({"a.md": "# 支付\n\n支付超时。\n"}), clock)
    for _ in range(20):
        assert index.search("支付超时", 5).hits
        clock.advance(3)  # the folder is rescanned, but nothing changed
    assert index.parsed_count == 1


def test_an_index_on_disk_is_used_without_reading_the_documents_again(make_folder: Folder) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n", "b.md": "# 退款\n\n退款重复提交。\n"})
    open_index(folder).close()
    reopened = open_index(folder)
    assert reopened.parsed_count == 0
    assert reopened.search("退款重复提交", 5).hits


def test_a_changed_file_is_reindexed_after_the_check_interval(make_folder: Folder, clock: ManualClock) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n", "b.md": "# 锁\n\n锁等待。\n"})
    index = open_index(folder, clock)
    restamp(folder / "a.md", "# 退款\n\n退款重复提交。\n")
    clock.advance(1.0)
    assert index.search("支付超时", 5).hits  # not checked yet: still the old index
    clock.advance(1.0)
    assert index.search("支付超时", 5).hits == ()
    assert index.search("退款重复提交", 5).hits
    assert index.parsed_count == 3  # a.md twice, b.md once


def test_a_touched_but_unchanged_file_is_not_parsed_again(make_folder: Folder, clock: ManualClock) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n"})
    index = open_index(folder, clock)
    restamp(folder / "a.md", "# 支付\n\n支付超时。\n")
    clock.advance(2.0)
    assert index.search("支付超时", 5).hits
    assert index.parsed_count == 1


def test_an_edit_is_found_by_the_next_query_through_the_watcher(make_folder: Folder) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n"})
    index = open_index(folder, watch=True)
    try:
        (folder / "sub").mkdir()
        (folder / "sub" / "b.md").write_text("# 退款\n\n退款重复提交。\n", encoding="utf-8")
        restamp(folder / "a.md", "# 锁\n\n行锁等待超时。\n")
        deadline = time.monotonic() + 5
        while not index.search("行锁等待", 5).hits and time.monotonic() < deadline:
            time.sleep(0.01)  # the watcher's event is in flight
        assert [hit.chunk.source for hit in index.search("退款重复提交", 5).hits] == ["sub/b.md"]
        assert index.search("行锁等待", 5).hits
        assert index.search("支付超时", 5).hits == ()
    finally:
        index.close()


def test_indexes_past_the_inotify_instance_limit_keep_watching(make_folder: Folder) -> None:
    """Linux allows a user 128 inotify instances; a process that opens more indexes than that, and drops them
    without closing them (as each in-process diagnosis does with its tools), still watches every folder."""
    opened = [open_index(make_folder({"a.md": "# 支付\n\n支付超时。\n"}), watch=True) for _ in range(40)]
    for dropped in range(160):
        open_index(make_folder({"a.md": "# 支付\n\n支付超时。\n"}), watch=True)
        if dropped % 20 == 19:  # a full collection costs ~0.4 s in the suite's process
            gc.collect()
    last = open_index(make_folder({"a.md": "# 支付\n\n支付超时。\n"}), watch=True)
    try:
        assert all(index.watching for index in [*opened, last])
        restamp(last.folder / "a.md", "# 锁\n\n行锁等待超时。\n")
        deadline = time.monotonic() + 5
        while not last.search("行锁等待", 5).hits and time.monotonic() < deadline:
            time.sleep(0.01)  # the watcher's event is in flight
        assert last.search("行锁等待", 5).hits
    finally:
        for index in [*opened, last]:
            index.close()
    assert not last.watching


def test_a_new_file_is_picked_up(make_folder: Folder, clock: ManualClock) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n"})
    index = open_index(folder, clock)
    (folder / "sub").mkdir()
    (folder / "sub" / "b.md").write_text("# 退款\n\n退款重复提交。\n", encoding="utf-8")
    clock.advance(2.0)
    assert [h.chunk.source for h in index.search("退款重复提交", 5).hits] == ["sub/b.md"]
    assert index.parsed_count == 2


@pytest.mark.parametrize(
    "files",
    [None, {}, {"notes.pdf": "支付超时"}, {"a.md": "\n\n"}, {".hidden.md": "# 支付\n\n支付超时。\n"}],
    ids=["missing", "empty", "unsupported", "blank", "hidden-only"],
)
def test_an_unusable_folder_makes_the_index_unavailable(
    tmp_path: Path, make_folder: Folder, files: dict[str, str] | None
) -> None:
    folder = tmp_path / "missing" if files is None else make_folder(files)
    index = open_index(folder)
    with pytest.raises(KnowledgeUnavailable) as raised:
        index.search("支付超时", 5)
    assert raised.value.code == "KNOWLEDGE_UNAVAILABLE"


def test_the_index_recovers_when_the_folder_appears(tmp_path: Path, clock: ManualClock) -> None:
    folder = tmp_path / "kb"
    index = open_index(folder, clock)
    with pytest.raises(KnowledgeUnavailable):
        index.search("支付超时", 5)
    folder.mkdir()
    (folder / "a.md").write_text("# 支付\n\n支付超时。\n", encoding="utf-8")
    clock.advance(2.0)
    assert index.search("支付超时", 5).hits
    assert index.parsed_count == 1


def test_a_vanished_folder_makes_the_index_unavailable(make_folder: Folder, clock: ManualClock) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n"})
    index = open_index(folder, clock)
    (folder / "a.md").unlink()
    folder.rmdir()
    clock.advance(2.0)
    with pytest.raises(KnowledgeUnavailable):
        index.search("支付超时", 5)


def test_an_undecodable_file_is_skipped_and_named(make_folder: Folder) -> None:
    folder = make_folder({"a.md": "# 支付\n\n支付超时。\n"})
    (folder / "b.md").write_bytes(b"# \xff\xfe broken\n")
    result = open_index(folder).search("支付超时", 5)
    assert result.totals.documents == 1 and result.hits
    assert [path for path, _ in result.totals.skipped] == ["b.md"]
    assert "UTF-8" in result.totals.skipped[0][1]


def test_the_scan_lists_supported_visible_files(make_folder: Folder) -> None:
    folder = make_folder({"a.md": "x", "sub/b.md": "yy", "c.pdf": "z", ".git/d.md": "w"})
    files = scan(folder)
    assert files is not None
    assert {path: state.size for path, state in files.items()} == {"a.md": 1, "sub/b.md": 2}


def test_concurrent_searches_read_one_index(bundled: KnowledgeIndex) -> None:
    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(lambda _: top(bundled, "支付超时", 5), range(40)))
    assert all(result == results[0] for result in results)
    assert bundled.parsed_count == 7


def test_html_and_plain_text_documents_are_searched_beside_markdown(make_folder: Folder) -> None:
    html = (
        "<html><head><title>x</title></head><body><nav>首页 登录</nav><main><h1>库存服务手册</h1>"
        "<h2>库存锁定超时</h2><p>出现 ERR_STOCK_LOCKED 时先查 inventory_db.sku_stock 的锁等待。</p></main>"
        "<footer>版权所有</footer></body></html>"
    )
    folder = make_folder({"wiki/stock.html": html, "notes/cache.txt": "缓存击穿时先看热点 key 的命中率。\n"})
    index = open_index(folder)
    stock = index.search("ERR_STOCK_LOCKED 锁等待", 3).hits
    assert stock[0].chunk.document_id == "wiki/stock#库存锁定超时"
    assert "ERR_STOCK_LOCKED" in stock[0].chunk.text and "版权所有" not in stock[0].chunk.text
    assert index.search("缓存击穿 命中率", 3).hits[0].chunk.source == "notes/cache.txt"
