"""The one normal form every rule reads: what it undoes, and where each character came from."""

from __future__ import annotations

import pytest

from contract.normal_form import normal_form


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("pass\u200bword=x1", "password=x1"),
        ("p\u0430ssword=x1", "password=x1"),
        ("ｐａｓｓｗｏｒｄ＝abc", "password=abc"),
        ("**Password**: Tr0ub4dor", "Password: Tr0ub4dor"),
        ("`db_password`: `x9`", "db_password: x9"),
        ("<password>Tr0ub4dor3</password>", " password: Tr0ub4dor3 "),
        ("<b>order-service</b> 超时", "order-service 超时"),
        ("&#112;assword=abc", "password=abc"),
        ("see [docs](http://h/x)", "see docs (http://h/x)"),
        ("| password | S3cr3t |", "password: S3cr3t"),
        ("## 结论：主库宕机", "结论:主库宕机"),
        ("2**3**4 and snake_case_name", "2**3**4 and snake_case_name"),
        ("kubectl logs x | grep ERROR", "kubectl logs x | grep ERROR"),
        ("plain ASCII text", "plain ASCII text"),
    ],
)
def test_what_the_normal_form_undoes(text: str, normal: str) -> None:
    assert normal_form(text).text == normal


def test_a_table_row_reads_with_its_header() -> None:
    text = "| user | password |\n|---|---|\n| app | S3cr3tpw |"
    assert normal_form(text).text == "user; password\n\nuser: app; password: S3cr3tpw"


def test_each_character_knows_where_it_came_from() -> None:
    text = "**Password**: Tr0ub4dor&3"
    form = normal_form(text)
    start = form.text.index("Tr0ub")
    source = form.source_span(start, start + len("Tr0ub4dor&3"))
    assert text[source[0] : source[1]] == "Tr0ub4dor&3"


def test_code_spans_are_kept() -> None:
    form = normal_form("执行 `kubectl get pods` 查看")
    assert [form.text[a:b] for a, b in form.code_spans] == ["kubectl get pods"]


def test_the_normal_form_of_a_normal_form_is_itself() -> None:
    for text in ("**Password**: x1", "p\u0430ss\u200bword=x1", "| a | b |", "<b>x</b> &amp; y"):
        once = normal_form(text).text
        assert normal_form(once).text == once
