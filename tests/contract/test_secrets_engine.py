"""contract.secrets' engine: trigger words and leads never hide a match, the docstrings' examples are true, and
the normal form's shortcut for text with nothing to undo gives what its steps give."""

from __future__ import annotations

import re
import sys

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import contract.normal_form as normal_form_module
import contract.secrets as secrets
from contract.normal_form import normal_form
from contract.secrets import redact, secret_kinds
from tests.contract import (
    test_secrets,
    test_secrets_any_value,
    test_secrets_commands,
    test_secrets_configs,
    test_secrets_key_values,
    test_secrets_references,
    test_secrets_tables_and_prose,
    test_secrets_tokens,
)
from tests.contract.test_secrets_linear import FRAGMENTS

TEXTS = [
    *(text for text, _ in test_secrets.REDACTED_SAMPLES),
    *test_secrets.UNTOUCHED,
    *(text for _, text, _ in test_secrets.POSITIVES),
    *(text for _, text in test_secrets.NEGATIVES),
    *test_secrets.RELEASE_CLEAN,
    *(text for text, _ in test_secrets_key_values.KEYS + test_secrets_key_values.HIDDEN),
    *test_secrets_key_values.CLEAN,
    *(f"found {token} in the build log" for token in test_secrets_tokens.TOKENS.values()),
    *(text for text, _ in test_secrets_tokens.IN_CONTEXT),
    *test_secrets_tokens.NOT_TOKENS,
    *(text for text, _, _ in test_secrets_commands.CONNECTIONS),
    *(text for text, _ in test_secrets_commands.COMMANDS + test_secrets_commands.COOKIES),
    *test_secrets_commands.UNTOUCHED,
    *(
        text
        for text, _ in test_secrets_tables_and_prose.TABLE_ROWS
        + test_secrets_tables_and_prose.PROSE
        + test_secrets_configs.SQL
        + test_secrets_configs.CONFIG_FILES
        + test_secrets_configs.CONSOLES
        + test_secrets_references.STILL_SECRETS
    ),
    *test_secrets_tables_and_prose.TABLE_LOOK_ALIKES,
    *test_secrets_tables_and_prose.PROSE_LOOK_ALIKES,
    *test_secrets_configs.SQL_LOOK_ALIKES,
    *test_secrets_configs.CONFIG_LOOK_ALIKES,
    *test_secrets_configs.CONSOLE_LOOK_ALIKES,
    *test_secrets_references.STANDS_FOR_A_SECRET,
    *(text for text, _ in test_secrets_any_value.SECRETS),
    *test_secrets_any_value.LOOKALIKES,
]


def _everywhere(text: str) -> tuple[str, ...]:
    """What secret_kinds would say if every detector scanned the whole normal form."""
    normal = normal_form(text).text
    found = {
        each.kind
        for each in secrets._DETECTORS
        if any(start < end for match in each.pattern.finditer(normal) for start, end in each.spans(match))
    }
    return tuple(kind for kind in secrets.KINDS if kind in found)


@pytest.mark.parametrize("text", TEXTS)
def test_trigger_words_and_leads_never_hide_a_match(text: str) -> None:
    assert secret_kinds(text) == _everywhere(text)


@settings(max_examples=500, database=None, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("".join))
@example("| password | &#49;")  # a cell's value decoded from an entity is found where the entity stands
@example("token| k | v |\n|---|---|\n| k | v |\n|---|---|\n")  # the header label must not take the cell's "k"
@example('<add key="db.password" value="<add key="db.password" value="db-1:5432:orders:app: => ')
def test_trigger_words_and_leads_never_hide_a_match_in_fragments(text: str) -> None:
    assert secret_kinds(text) == _everywhere(text)


def test_every_trigger_word_holds_a_stem_and_starts_where_the_lead_says() -> None:
    triggers = secrets._TRIGGERS
    assert all(any(stem in word for stem in triggers.stems) for word in triggers.words)
    assert triggers.stem_at_most <= 5
    assert all(trigger for each in secrets._DETECTORS for trigger in each.triggers)
    assert all(each.triggers or each.untriggered for each in secrets._DETECTORS)


MODULES = (
    secrets,
    secrets.web,
    secrets.tokens,
    secrets.keys,
    secrets.prose,
    secrets.sql,
    secrets.config_files,
    secrets.consoles,
    secrets.flags,
    secrets.codes,
)


def _examples() -> list[tuple[str, str, str]]:
    """``before -> after`` lines of the docstrings' example blocks, but those that elide (``…``) or name a rule."""
    found = []
    for module in MODULES:
        for line in (module.__doc__ or "").splitlines():
            if re.match(r"^    \S", line) and " -> " in line and "…" not in line and "(" not in line.split("->")[1][:2]:
                before, after = (part.strip() for part in line.split(" -> ", 1))
                found.append((module.__name__, before.replace("\\\\", "\\"), after.replace("\\\\", "\\")))
    return found


EXAMPLES = _examples()


def test_each_module_shows_examples() -> None:
    assert {module for module, _, _ in EXAMPLES} == {module.__name__ for module in MODULES}


@pytest.mark.parametrize(("module", "before", "after"), EXAMPLES)
def test_a_docstring_example_is_what_redact_does(module: str, before: str, after: str) -> None:
    assert redact(before) == (after, True), module


def test_the_segmented_digits_are_folded_too() -> None:
    assert normal_form("验证码 🯴🯸🯲🯹🯱🯳").text == "验证码 482913"
    assert redact("验证码 🯴🯸🯲🯹🯱🯳") == ("验证码 [REDACTED]", True)


ASCII_FRAGMENTS = [
    *("*", "**", "_", "__", "~", "~~", "`", "```", "\n", "|", "| a |", "|---|", "<b>", "</b>", "<password>", "<!--"),
    *("-->", "&amp;", "&#49;", "&x;", "[", "]", "(", ")", "[x](http://y)", "<http://y>", "#", "# ", "> ", "- ", "+ "),
    *("a", "password", "=", "x1", " ", "\t", "ERR_TIMEOUT", "order_no", "a_b_", "_c", "[REDACTED]", "~~~", "!"),
]


@settings(max_examples=1500, database=None, deadline=None)
@given(st.lists(st.sampled_from(ASCII_FRAGMENTS), max_size=12).map("".join))
def test_the_shortcut_for_ascii_with_nothing_to_undo_is_what_the_steps_give(text: str) -> None:
    shortcut = normal_form.__wrapped__(text)
    module = sys.modules["contract.normal_form"]
    saved = module._nothing_to_undo
    module._nothing_to_undo = lambda _text: False
    try:
        stepwise = normal_form.__wrapped__(text)
    finally:
        module._nothing_to_undo = saved
    assert shortcut.text == stepwise.text and shortcut.code_spans == stepwise.code_spans
    assert all(
        shortcut.source_span(start, end) == stepwise.source_span(start, end)
        for start in range(len(shortcut.text))
        for end in range(start + 1, len(shortcut.text) + 1)
    )
    assert normal_form_module._nothing_to_undo is saved
