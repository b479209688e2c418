"""Formats: markdown (markdown-it-py), HTML (BeautifulSoup, boilerplate dropped) and plain text become exact,
citable sections; a file that cannot be read raises UnreadableDocument and nothing else."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.knowledge.chunks import split_sections
from tools.knowledge.formats import SUPPORTED_SUFFIXES, UnreadableDocument, parse_document
from tools.knowledge.formats.text import SECTION_CHARS
from tools.knowledge.tool import BUNDLED_DOCS

BUNDLED_IDS = [
    "error-codes#支付域错误码参考",
    "error-codes#err_timeout",
    "error-codes#err_rate_limited",
    "error-codes#err_pool_exhausted",
    "error-codes#err_order_not_found",
    "error-codes#err_order_status_invalid",
    "error-codes#err_duplicate_payment",
    "error-codes#err_channel_timeout",
    "error-codes#err_channel_declined",
    "error-codes#err_signature_invalid",
    "error-codes#err_refund_duplicate",
    "error-codes#err_refund_amount_exceeded",
    "error-codes#err_refund_channel_failed",
    "hikaricp-pool-exhaustion#hikaricp-连接池耗尽处理指南",
    "hikaricp-pool-exhaustion#11-日志特征",
    "hikaricp-pool-exhaustion#12-判定标准",
    "hikaricp-pool-exhaustion#13-对上游的影响",
    "hikaricp-pool-exhaustion#21-连接泄漏",
    "hikaricp-pool-exhaustion#22-长事务",
    "hikaricp-pool-exhaustion#23-慢-sql",
    "hikaricp-pool-exhaustion#24-流量突增与容量不足",
    "hikaricp-pool-exhaustion#3-排查步骤",
    "hikaricp-pool-exhaustion#41-可直接执行的只读动作",
    "hikaricp-pool-exhaustion#42-需要人工确认的动作",
    "hikaricp-pool-exhaustion#43-禁止的动作",
    "hikaricp-pool-exhaustion#5-相关配置",
    "ops-change-policy#线上变更与人工确认规范",
    "ops-change-policy#11-l0-只读动作无需确认",
    "ops-change-policy#12-l1-需要值班负责人确认",
    "ops-change-policy#13-l2-需要变更评审",
    "ops-change-policy#14-禁止的动作",
    "ops-change-policy#2-留痕要求",
    "order-db-data-dictionary#order_db-数据字典",
    "order-db-data-dictionary#1-访问方式",
    "order-db-data-dictionary#2-可查询的表和字段",
    "order-db-data-dictionary#21-biz_order订单表",
    "order-db-data-dictionary#22-payment_record支付单表",
    "order-db-data-dictionary#23-状态之间的关系",
    "order-db-data-dictionary#3-查询示例",
    "order-db-data-dictionary#4-不可查询的内容",
    "payment-system-overview#支付系统架构概览",
    "payment-system-overview#1-服务与职责",
    "payment-system-overview#21-下单支付",
    "payment-system-overview#22-超时补偿",
    "payment-system-overview#23-退款",
    "payment-system-overview#3-超时配置",
    "payment-system-overview#41-日志",
    "payment-system-overview#42-数据",
    "payment-system-overview#5-值班与归属",
    "payment-timeout-runbook#支付超时排查手册",
    "payment-timeout-runbook#1-典型症状",
    "payment-timeout-runbook#2-排查步骤",
    "payment-timeout-runbook#21-确认影响范围",
    "payment-timeout-runbook#22-检查-order-service-日志中的连接池耗尽",
    "payment-timeout-runbook#23-检查-payment-service-与渠道",
    "payment-timeout-runbook#24-检查支付单状态-payment_record",
    "payment-timeout-runbook#3-症状与可能原因对照",
    "payment-timeout-runbook#4-处置",
    "payment-timeout-runbook#5-升级路径",
    "refund-service-runbook#退款服务运行手册",
    "refund-service-runbook#1-退款流程",
    "refund-service-runbook#21-用户反馈退款一直处理中",
    "refund-service-runbook#22-大量-err_refund_duplicate",
    "refund-service-runbook#23-退款与支付状态核对",
    "refund-service-runbook#3-处置与升级",
    "refund-service-runbook#4-历史备注",
]

HTML = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>Wiki export</title>
<script>var x = "<h1>not a heading</h1>";</script><style>p { color: red }</style></head>
<body><nav><a href="/">Home</a> <h2>Menu</h2></nav><div role="banner">Company banner</div>
<h1>支付超时 &amp; 重试</h1><p>总述：先看&nbsp;日志 &lt;ERR_TIMEOUT&gt;。</p>
<h2>排查步骤</h2><ul><li>第一步</li><li>第二步 <b>加粗</b></li></ul>
<h3>检查 order-service</h3><pre>grep  ERR_TIMEOUT
    app.log</pre><table><tr><td>A</td><td>B</td></tr></table>
<h2>排查步骤</h2><p>第二段<br>换行</p>
<footer>© Company</footer><form><button>Search</button></form></body></html>"""


def test_bundled_markdown_ids_are_unchanged_from_the_regex_splitter() -> None:
    ids = []
    for path in sorted(BUNDLED_DOCS.glob("*.md")):
        chunks = parse_document(path.name, path.read_bytes())
        assert chunks == split_sections(path.name, path.read_text(encoding="utf-8"))
        ids.extend(c.document_id for c in chunks)
    assert ids == BUNDLED_IDS


def test_html_drops_boilerplate_and_nests_headings() -> None:
    chunks = parse_document("wiki/pay.html", HTML.encode())
    assert [c.document_id for c in chunks] == [
        "wiki/pay#支付超时--重试",
        "wiki/pay#排查步骤",
        "wiki/pay#检查-order-service",
        "wiki/pay#排查步骤-1",
    ]
    first, steps, check, again = chunks
    assert {c.title for c in chunks} == {"支付超时 & 重试"}
    assert first.text == "总述：先看 日志 <ERR_TIMEOUT>。"
    assert steps.text == "第一步\n第二步 加粗"
    assert steps.breadcrumb == "支付超时 & 重试 > 排查步骤"
    assert check.breadcrumb == "支付超时 & 重试 > 排查步骤 > 检查 order-service"
    assert check.text == "grep  ERR_TIMEOUT\n    app.log\nA\nB"
    assert again.text == "第二段\n换行"
    joined = "\n".join(c.text + c.breadcrumb for c in chunks)
    for boilerplate in ("Home", "Menu", "banner", "Company", "Search", "var x", "color"):
        assert boilerplate not in joined


def test_html_reads_only_main_and_falls_back_to_title_and_stem() -> None:
    page = b"<title>Page</title><p>outside</p><main><h2>Inside</h2><p>kept</p></main>"
    chunks = parse_document("a/b.htm", page)
    assert [(c.document_id, c.title, c.text) for c in chunks] == [("a/b#inside", "Page", "kept")]
    assert parse_document("c.HTML", b"<p>just text</p>")[0].title == "c"
    assert parse_document("c.html", b"<p>just text</p>")[0].document_id == "c"


def test_gbk_html_with_a_declared_charset_decodes() -> None:
    page = '<html><head><meta charset="gbk"></head><body><h1>订单库</h1><p>字段说明</p></body></html>'
    chunks = parse_document("gbk.html", page.encode("gbk"))
    assert [(c.title, c.text) for c in chunks] == [("订单库", "字段说明")]
    with pytest.raises(UnreadableDocument, match="unknown charset"):
        parse_document("x.html", b'<meta charset="bogus"><p>\xff</p>')
    with pytest.raises(UnreadableDocument, match="not UTF-8"):
        parse_document("x.html", b"<p>\xff</p>")


@pytest.mark.parametrize("name", ["x.md", "x.txt", "x.html", "x.markdown"])
def test_binary_files_are_unreadable(name: str) -> None:
    with pytest.raises(UnreadableDocument) as raised:
        parse_document(name, bytes(range(256)) * 4)
    assert raised.value.code == "KNOWLEDGE_DOCUMENT_UNREADABLE"
    assert str(raised.value)


def test_unsupported_suffix_and_empty_documents() -> None:
    with pytest.raises(UnreadableDocument, match=r"unsupported format \.pdf"):
        parse_document("manual.pdf", b"%PDF-1.4")
    assert set(SUPPORTED_SUFFIXES) == {".md", ".markdown", ".html", ".htm", ".txt"}
    for name in ("e.md", "e.txt", "e.html"):
        assert parse_document(name, b" \n\t\n") == []
    assert parse_document("e.html", b"<html><script>x()</script><nav>menu</nav></html>") == []


def test_plain_text_groups_paragraphs_exactly() -> None:
    small = "\n".join(["短段落。"] * 3)
    long = "长" * (SECTION_CHARS + 10)
    source = f"\ufeff{small}\n\n\n{small}\r\n\r\n{long}\n\n尾段。\n"
    chunks = parse_document("notes/ops.txt", source.encode("utf-8"))
    decoded = source.removeprefix("\ufeff")
    assert [c.document_id for c in chunks] == ["notes/ops#part-1", "notes/ops#part-2", "notes/ops#part-3"]
    assert chunks[0].text == f"{small}\n\n\n{small}"
    assert chunks[1].text == long
    assert chunks[2].text == "尾段。"
    assert all(c.text in decoded and c.title == c.breadcrumb == "ops" for c in chunks)
    with pytest.raises(UnreadableDocument, match="not UTF-8 text"):
        parse_document("bad.txt", "中文".encode("gbk"))


def test_markdown_setext_headings_and_fenced_hashes() -> None:
    source = "Title\n=====\n\nintro\n\n~~~\n# not a heading\n~~~\n\nSub part\n--------\nbody\n"
    chunks = parse_document("s.md", source.encode())
    assert [c.document_id for c in chunks] == ["s#title", "s#sub-part"]
    assert chunks[0].text == "intro\n\n~~~\n# not a heading\n~~~"
    assert chunks[1].breadcrumb == "Title > Sub part" and chunks[1].title == "Title"
    assert all(c.text and c.text in source for c in chunks)


LINES = st.sampled_from(
    [
        "",
        "# A",
        "## B",
        "### A",
        "text",
        "  indented",
        "```",
        "~~~",
        "# 中文",
        "===",
        "---",
        "> # q",
        "- # li",
        "#",
        "\r",
    ]
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINES, max_size=30), suffix=st.sampled_from([".md", ".txt"]))
def test_markdown_and_text_never_fail_and_stay_exact(lines: list[str], suffix: str) -> None:
    source = "\n".join(lines)
    try:
        chunks = parse_document("doc" + suffix, source.encode())
    except UnreadableDocument:
        return
    ids = [c.document_id for c in chunks]
    assert len(ids) == len(set(ids))
    assert all(c.text.strip() and c.text in source for c in chunks)
