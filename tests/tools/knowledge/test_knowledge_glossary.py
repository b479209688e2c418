"""English words to Chinese ones (CC-CEDICT read backwards), and how the index uses them: only for English words
no synonym knows, and only the translations the folder's documents hold."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from contract.clock import ManualClock
from tests.tools.knowledge.conftest import Folder
from tools.knowledge.expansion import DocumentFrequencies, QueryExpansions
from tools.knowledge.glossary import EnglishGlossary, base_forms, bundled_glossary
from tools.knowledge.index import KnowledgeIndex
from tools.knowledge.synonyms import SynonymGroups
from tools.knowledge.tokens import normalize

CEDICT_LINES = [
    "拒絕 拒绝 [ju4 jue2] /to refuse; to decline; to reject/",
    "駁回 驳回 [bo2 hui2] /to reject/to turn down/to overrule/",
    "拒 拒 [ju4] /to resist/to repel/to refuse/to reject/",
    "超時 超时 [chao1 shi2] /to exceed the time limit/(computing) timeout/",
    "退款 退款 [tui4 kuan3] /to refund/refund/",
    "重試 重试 [chong2 shi4] /to retry/",
    "銀行 银行 [yin2 hang2] /bank/CL:家[jia1],個|个[ge4]/",
    "天氣 天气 [tian1 qi4] /weather/",
    "拒人於千里之外 拒人于千里之外 [ju4 ren2 yu2 qian1 li3 zhi1 wai4] /to reject someone cold/",
]


@pytest.fixture
def glossary() -> EnglishGlossary:
    return EnglishGlossary.from_cedict_lines(CEDICT_LINES)


def test_a_word_is_a_translation_when_one_of_its_senses_is_the_english_word(glossary: EnglishGlossary) -> None:
    assert glossary.translations("reject") == ("拒绝", "驳回")
    assert glossary.translations("timeout") == ("超时",)  # "(computing)" is an aside
    assert glossary.translations("bank") == ("银行",)


def test_single_characters_idioms_and_longer_glosses_are_left_out(glossary: EnglishGlossary) -> None:
    assert "拒" not in glossary.translations("reject")  # one character: too many senses
    assert glossary.translations("cold") == ()  # only inside the longer gloss of an idiom
    assert glossary.translations("exceed") == ()  # "to exceed the time limit" is not "exceed"


@pytest.mark.parametrize(
    ("word", "base"),
    [
        ("rejected", "reject"),
        ("retries", "retry"),
        ("retried", "retry"),
        ("refunds", "refund"),
        ("timing", "time"),
        ("stopped", "stop"),
        ("banks", "bank"),
        ("declined", "decline"),
    ],
)
def test_an_inflected_word_is_looked_up_by_its_base_form(word: str, base: str) -> None:
    assert base in base_forms(word)


def test_inflected_query_words_find_their_translations(glossary: EnglishGlossary) -> None:
    assert glossary.translations("rejected") == ("拒绝", "驳回")
    assert glossary.translations("retries") == ("重试",)
    assert glossary.translations("refunds") == ("退款",)


def test_the_bundled_dictionary_reads_twenty_thousand_english_words() -> None:
    glossary = bundled_glossary()
    assert len(glossary) > 20_000
    assert {"退款"} <= set(glossary.translations("refunds"))
    assert {"拒绝"} <= set(glossary.translations("rejected"))
    assert {"银行"} <= set(glossary.translations("bank"))


def held(terms: set[str]) -> DocumentFrequencies:
    """Document frequencies of an index holding exactly ``terms``, naming only the terms it holds."""

    def frequencies(asked: Iterable[str]) -> dict[str, int]:
        return {term: 1 for term in asked if term in terms}  # sparse, as FTS5 answers

    return frequencies


def found(expansions: QueryExpansions, query: str) -> list[tuple[str, tuple[str, ...]]]:
    text = normalize(query)
    return [(text[start:end], phrases) for start, end, phrases in expansions.find(text)]


def test_only_translations_whose_terms_the_index_holds_are_kept(glossary: EnglishGlossary) -> None:
    expansions = QueryExpansions(SynonymGroups([]), lambda: glossary, held({"拒绝", "银行"}))
    assert found(expansions, "Rejected by the bank") == [("rejected", ("拒绝",)), ("bank", ("银行",))]
    assert found(expansions, "weather in Paris") == []  # 天气 is a translation, but no document holds it


def test_synonyms_come_first_and_words_they_cover_are_not_looked_up(glossary: EnglishGlossary) -> None:
    looked_up: list[set[str]] = []

    def frequencies(asked: Iterable[str]) -> dict[str, int]:
        looked_up.append(set(asked))
        return dict.fromkeys(looked_up[-1], 1)

    expansions = QueryExpansions(SynonymGroups([["超时", "timeout"]]), lambda: glossary, frequencies)
    assert found(expansions, "refund timeout") == [("timeout", ("超时",)), ("refund", ("退款",))]
    assert looked_up == [{"退款"}]


def test_identifiers_function_words_and_chinese_need_no_dictionary() -> None:
    def unloadable() -> EnglishGlossary:
        raise AssertionError("the glossary was loaded")

    expansions = QueryExpansions(SynonymGroups([]), unloadable, held(set()))
    assert found(expansions, "order_db.biz_order 的 pay-gateway-v1 ERR_TIMEOUT 是什么") == []
    assert found(expansions, "is it the") == []


def test_an_english_question_finds_a_chinese_section_through_the_dictionary(
    make_folder: Folder, glossary: EnglishGlossary
) -> None:
    folder = make_folder(
        {
            "codes.md": "# 错误码\n\n## 渠道拒绝\n\n银行拒绝了这笔交易。\n\n## 重复提交\n\n重复提交。\n",
            "other.md": "# 天气\n\n与本系统无关。\n",
        }
    )
    index = KnowledgeIndex(
        folder,
        folder.parent / ".kb.index",
        clock=ManualClock(),
        watch=False,
        synonyms=SynonymGroups([]),
        glossary=lambda: glossary,
    )
    assert [hit.chunk.document_id for hit in index.search("rejected by the bank", 3).hits] == ["codes#渠道拒绝"]
    assert index.search("rejected by the bank", 3).expansions == ("拒绝", "银行")
    without = KnowledgeIndex(
        folder,
        folder.parent / ".kb2.index",
        clock=ManualClock(),
        watch=False,
        synonyms=SynonymGroups([]),
        glossary=lambda: EnglishGlossary({}),
    )
    assert without.search("rejected by the bank", 3).hits == ()
