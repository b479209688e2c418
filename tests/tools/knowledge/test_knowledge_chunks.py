"""Sections: one chunk per heading, stable ids, breadcrumbs, exact text; the bundled documents chunk cleanly."""

from __future__ import annotations

from pathlib import Path

from tools.knowledge.chunks import slug, split_sections
from tools.knowledge.tool import BUNDLED_DOCS

DOC = """前言：本页说明排查顺序。

# 支付超时排查手册

总述。

## 2. 排查步骤

先看日志。

```bash
# 这不是标题
grep ERR_TIMEOUT app.log
```

### 2.1 检查 order-service

看 HikariCP。

## 处置

## 处置

第二个同名章节。
"""


def test_each_heading_is_one_section_with_exact_text() -> None:
    chunks = split_sections("payment/timeout.md", DOC)
    assert [c.document_id for c in chunks] == [
        "payment/timeout",
        "payment/timeout#支付超时排查手册",
        "payment/timeout#2-排查步骤",
        "payment/timeout#21-检查-order-service",
        "payment/timeout#处置-1",
    ]
    by_id = {c.document_id: c for c in chunks}
    steps = by_id["payment/timeout#2-排查步骤"]
    assert steps.text.startswith("先看日志。") and steps.text.endswith("```")
    assert "# 这不是标题" in steps.text
    assert steps.breadcrumb == "支付超时排查手册 > 2. 排查步骤"
    assert by_id["payment/timeout#21-检查-order-service"].breadcrumb == (
        "支付超时排查手册 > 2. 排查步骤 > 2.1 检查 order-service"
    )
    assert by_id["payment/timeout"].breadcrumb == "支付超时排查手册"
    assert {c.title for c in chunks} == {"支付超时排查手册"}
    assert {c.source for c in chunks} == {"payment/timeout.md"}
    assert all(c.text in DOC for c in chunks)


def test_a_document_without_h1_is_titled_by_its_file_name() -> None:
    chunks = split_sections("notes.md", "## A\n\ntext\n")
    assert chunks[0].title == "notes"
    assert chunks[0].breadcrumb == "A"


def test_slugs_keep_cjk_and_identifiers() -> None:
    assert slug("2. 排查步骤") == "2-排查步骤"
    assert slug("ERR_TIMEOUT") == "err_timeout"
    assert slug("2.4 检查支付单状态 payment_record") == "24-检查支付单状态-payment_record"
    assert slug("HikariCP 连接池耗尽（pool exhaustion）") == "hikaricp-连接池耗尽pool-exhaustion"


def test_bundled_documents_chunk_into_unique_exact_sections() -> None:
    files = sorted(BUNDLED_DOCS.glob("*.md"))
    assert 5 <= len(files) <= 7
    ids: list[str] = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        chunks = split_sections(path.name, text)
        assert len(chunks) >= 4, path.name
        assert chunks[0].title == text.splitlines()[0].removeprefix("# ")
        for chunk in chunks:
            assert chunk.text in text
            assert chunk.document_id.startswith(Path(path.name).stem + "#")
        ids.extend(c.document_id for c in chunks)
    assert len(ids) == len(set(ids))
