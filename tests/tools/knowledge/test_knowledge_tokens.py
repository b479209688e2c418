"""Tokens: Latin identifiers keep their joined form and their words; CJK becomes bigrams; coverage units."""

from __future__ import annotations

from tools.knowledge.tokens import document_tokens, parse_query


def test_latin_identifiers_yield_the_joined_form_and_the_words() -> None:
    assert document_tokens("ERR_TIMEOUT") == ["err_timeout", "err", "timeout"]
    assert document_tokens("order-service") == ["order-service", "order", "service"]
    assert document_tokens("payment_record.status") == [
        "payment_record.status",
        "payment_record",
        "payment",
        "record",
        "status",
    ]


def test_full_width_and_upper_case_text_normalise_to_the_same_tokens() -> None:
    assert document_tokens("ＥＲＲ＿ＴＩＭＥＯＵＴ") == document_tokens("err_timeout")
    assert document_tokens("HikariCP") == ["hikaricp"]


def test_single_letters_are_dropped_and_sentence_dots_do_not_join() -> None:
    assert document_tokens("a b HikariPool-1 ok.") == ["hikaripool-1", "hikaripool", "ok"]


def test_documents_index_cjk_unigrams_and_bigrams() -> None:
    assert document_tokens("支付超时") == ["支", "付", "超", "时", "支付", "付超", "超时"]


def test_query_cjk_runs_become_bigrams_without_function_words() -> None:
    assert parse_query("支付超时").terms == ("支付", "付超", "超时")
    assert parse_query("连接池耗尽怎么办").terms == ("连接", "接池", "池耗", "耗尽", "尽怎")
    assert parse_query("锁").terms == ("锁",)
    assert parse_query("的").terms == ()


def test_mixed_query_terms_keep_their_order_and_drop_english_stopwords() -> None:
    assert parse_query("How to fix order-service 连接池").terms == (
        "fix",
        "order-service",
        "order",
        "service",
        "连接",
        "接池",
    )


def test_coverage_counts_characters_so_a_straddling_bigram_costs_nothing() -> None:
    query = parse_query("数据库连接池")
    assert "库连" in query.terms
    assert query.coverage({"数据", "据库", "连接", "接池"}) == 1.0
    assert query.coverage({"数据", "据库"}) == 0.5


def test_coverage_counts_latin_words_through_their_joined_form() -> None:
    query = parse_query("ERR_TIMEOUT pool")
    assert len(query.units) == 3
    assert query.coverage({"err_timeout"}) == 2 / 3
    assert parse_query("").coverage({"x"}) == 0.0
