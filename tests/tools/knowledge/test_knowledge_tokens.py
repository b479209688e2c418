"""Tokens: Latin identifiers keep their joined form and their words; CJK becomes bigrams; coverage units."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.knowledge.synonyms import SynonymGroups, SynonymsUnreadable, bundled_synonyms, load_synonyms
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
    assert parse_query("连接池耗尽怎么办").terms == ("连接", "接池", "池耗", "耗尽")
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


def test_a_cjk_run_is_cut_at_question_words_so_no_term_straddles_one() -> None:
    query = parse_query("消息消费堆积怎么排查")
    assert query.terms == ("消息", "息消", "消费", "费堆", "堆积", "排查")
    assert len(query.units) == 8  # 怎 and 么 are no part of the question's content
    assert parse_query("重启需要谁批准").terms == ("重启", "批准")
    assert parse_query("先查什么").terms == ("先查",)


def test_synonyms_add_terms_that_cover_the_phrase_they_stand_for() -> None:
    synonyms = SynonymGroups([["重启", "restart"], ["订单服务", "order-service"]])
    query = parse_query("restart 订单服务", synonyms)
    assert query.terms == ("restart", "订单", "单服", "服务")
    assert set(query.expansions) == {"重启", "order-service", "order", "service"}
    assert query.search_terms == query.terms + query.expansions
    assert query.coverage({"重启", "order-service"}) == 1.0
    assert query.coverage({"重启"}) == 0.2


def test_a_latin_phrase_matches_whole_words_and_a_space_matches_none_before_chinese() -> None:
    synonyms = SynonymGroups([["连接池", "pool"], ["慢查询", "慢 sql", "slow sql"]])
    assert parse_query("HikariPool-1", synonyms).expansions == ()
    assert parse_query("order-service pool", synonyms).expansions == ("连接", "接池")
    assert parse_query("慢SQL 是什么", synonyms).expansions == ("慢查", "查询", "slow")
    assert parse_query("Slow  SQL", synonyms).expansions == ("慢查", "查询", "慢")


def test_the_bundled_synonyms_load_and_a_malformed_file_is_named(tmp_path: Path) -> None:
    assert "重启" in parse_query("restart", bundled_synonyms()).expansions
    bad = tmp_path / "synonyms.yaml"
    bad.write_text("groups: [[ok], 3]\n", encoding="utf-8")
    with pytest.raises(SynonymsUnreadable, match=r"synonyms\.yaml"):
        load_synonyms(bad)
    with pytest.raises(SynonymsUnreadable, match="unreadable"):
        load_synonyms(tmp_path / "missing.yaml")
