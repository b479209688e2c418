"""The release rules measured both ways on a sample of every corpus (the whole of them is ``superbiz eval
--rules``): every rule meets its target on each corpus's sample too."""

from __future__ import annotations

import pytest

from config import load_config
from harness.gate import ClaimPolicy
from harness.rule_figures import CORPORA, TARGETS, rule_figures
from tools.registry import configured_kinds


@pytest.mark.parametrize("seed", [0, 11])
def test_each_rule_meets_its_target_on_a_sample_of_each_corpus(seed: int) -> None:
    config = load_config()
    figures = rule_figures(configured_kinds(config), ClaimPolicy.from_settings(config.harness), seed=seed, sample=3)
    assert {(figure.rule, figure.corpus) for figure in figures} == {
        (rule, corpus.name) for rule in TARGETS for corpus in CORPORA
    }
    for figure in figures:
        assert figure.violations >= 30 and figure.harmless >= 30, (figure.rule, figure.corpus)
        assert figure.meets(TARGETS[figure.rule]), (figure.rule, figure.corpus, figure.missed, figure.wrongly_refused)
