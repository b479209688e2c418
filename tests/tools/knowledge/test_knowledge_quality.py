"""The retrieval quality kit (issue 21): labels point at real sections, the generator is deterministic and
scales, and the metrics are computed as documented. No test asserts how well any index scores."""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path

import pytest

from tools.knowledge.chunks import split_sections
from tools.knowledge.quality.distractors import anchor_documents, distractor_documents
from tools.knowledge.quality.metrics import (
    BUNDLED_DOCS,
    HELD_OUT,
    HELD_OUT_FOURTH,
    HELD_OUT_FRESH,
    HELD_OUT_THIRD,
    QUERIES,
    LabelledQuery,
    corpus,
    evaluate,
    load_queries,
    recall_at_3,
    reciprocal_rank,
)

ERROR_CODE = re.compile(r"\bERR_[A-Z0-9_]+\b")


def section_ids(folder: Path) -> set[str]:
    return {
        chunk.document_id
        for path in folder.rglob("*.md")
        for chunk in split_sections(path.relative_to(folder).as_posix(), path.read_text(encoding="utf-8"))
    }


@pytest.mark.parametrize(
    "labelled",
    [QUERIES, HELD_OUT, HELD_OUT_FRESH, HELD_OUT_THIRD, HELD_OUT_FOURTH],
    ids=["tuned", "held-out", "fresh", "third", "fourth"],
)
def test_every_labelled_id_is_a_section_of_the_corpus(tmp_path: Path, labelled: Path) -> None:
    ids = section_ids(corpus(tmp_path / "kb", distractors=300, seed=0))
    missing = [(q.query, each) for q in load_queries(labelled) for each in q.relevant if each not in ids]
    assert missing == []


@pytest.mark.parametrize(
    "labelled",
    [QUERIES, HELD_OUT, HELD_OUT_FRESH, HELD_OUT_THIRD, HELD_OUT_FOURTH],
    ids=["tuned", "held-out", "fresh", "third", "fourth"],
)
def test_labels_do_not_depend_on_the_count_or_the_seed(tmp_path: Path, labelled: Path) -> None:
    ids = section_ids(corpus(tmp_path / "kb", distractors=len(anchor_documents()), seed=7))
    assert [each for q in load_queries(labelled) for each in q.relevant if each not in ids] == []


def test_the_held_out_sets_share_no_query_with_the_tuned_one_or_each_other() -> None:
    held_out, fresh, third = load_queries(HELD_OUT), load_queries(HELD_OUT_FRESH), load_queries(HELD_OUT_THIRD)
    assert Counter(q.language for q in held_out) == {"zh": 15, "en": 15, "mixed": 15}
    fourth = load_queries(HELD_OUT_FOURTH)
    assert (
        Counter(q.language for q in fresh) == Counter(q.language for q in fourth) == {"zh": 20, "en": 20, "mixed": 20}
    )
    assert Counter(q.language for q in third) == {"zh": 19, "en": 20, "mixed": 20}
    seen = [q.query for labelled in (load_queries(), held_out, fresh, third, fourth) for q in labelled]
    assert len(seen) == len(set(seen))


def test_there_are_enough_queries_in_each_language_and_every_bundled_document_is_asked_about() -> None:
    queries = load_queries()
    languages = Counter(q.language for q in queries)
    assert len(queries) >= 80
    assert min(languages[language] for language in ("zh", "en", "mixed")) >= 20
    asked = {each.split("#")[0] for q in queries for each in q.relevant}
    assert {path.stem for path in BUNDLED_DOCS.glob("*.md")} <= asked
    assert sum(any(each.startswith("distractors/") for each in q.relevant) for q in queries) >= 10
    assert len({q.query for q in queries}) == len(queries)


def test_the_generator_is_deterministic_for_a_seed() -> None:
    assert distractor_documents(400, seed=3) == distractor_documents(400, seed=3)
    assert distractor_documents(400, seed=3) != distractor_documents(400, seed=4)
    assert distractor_documents(400, seed=3)[:50] == distractor_documents(50, seed=3)


def test_the_generator_scales_with_unique_paths_and_splittable_documents() -> None:
    started = time.monotonic()
    documents = distractor_documents(2000)
    assert time.monotonic() - started < 5
    paths = [path for path, _ in documents]
    assert len(documents) == 2000
    assert len(set(paths)) == len(paths)
    assert all(path.startswith("distractors/") and path.endswith(".md") for path in paths)
    assert all(len(split_sections(path, markdown)) >= 2 for path, markdown in documents)
    assert len({markdown for _, markdown in documents}) == len(documents)
    sizes = sorted(len(markdown.encode()) for _, markdown in documents)
    assert sizes[len(sizes) // 2] >= 1500


def test_no_distractor_reuses_an_error_code_of_the_bundled_documents() -> None:
    bundled = {code for path in BUNDLED_DOCS.glob("*.md") for code in ERROR_CODE.findall(path.read_text())}
    generated = {code for _, markdown in distractor_documents(1000) for code in ERROR_CODE.findall(markdown)}
    assert bundled and generated
    assert bundled & generated == set()


def test_per_query_recall_and_reciprocal_rank() -> None:
    assert recall_at_3(["a", "b"], ["x", "a", "b", "c"]) == 1.0
    assert recall_at_3(["a", "b", "c", "d"], ["a", "x", "b"]) == pytest.approx(2 / 3)
    assert recall_at_3(["a"], ["x", "y", "z", "a"]) == 0.0
    assert reciprocal_rank(["a"], ["x", "y", "z", "a"]) == 0.25
    assert reciprocal_rank(["a"], [*"bcdefghijk", "a"]) == 0.0
    assert reciprocal_rank(["a"], []) == 0.0


def test_evaluate_averages_overall_and_per_language_and_lists_the_misses() -> None:
    ranked = {"one": ["a", "x"], "two": ["x", "y", "b"], "three": ["x", "y", "z", "c"]}
    queries = [
        LabelledQuery("one", "zh", ("a",)),
        LabelledQuery("two", "en", ("b", "q")),
        LabelledQuery("three", "en", ("c",)),
    ]
    report = evaluate(lambda query: ranked[query], queries)
    assert report.overall.queries == 3
    assert report.overall.recall_at_3 == pytest.approx((1 + 0.5 + 0) / 3)
    assert report.overall.mrr == pytest.approx((1 + 1 / 3 + 1 / 4) / 3)
    assert report.by_language["zh"].recall_at_3 == 1.0
    assert report.by_language["en"].mrr == pytest.approx((1 / 3 + 1 / 4) / 2)
    assert report.by_language["mixed"].queries == 0
    assert [(m.query, m.expected, m.got) for m in report.misses] == [("three", ("c",), ("x", "y", "z"))]
    assert "recall@3" in report.summary()
