"""What the offline guard found wrong, said in Chinese and in English.

The guard prompt names the language of the reason, the question's (``harness.fixed_texts.FixedTexts.reason_in``);
every rule says its finding in both, and the review writes the one asked for. A finding about one part of the
report is a predicate (``没有绑定到已有的分析`` / ``is not bound to existing analyses``) that :meth:`Problem.of`
puts after the part's name (行动「…」 / Action "…").
"""

from __future__ import annotations

from dataclasses import dataclass

from harness.fixed_texts import texts
from harness.language import DEFAULT_LANGUAGE, LANGUAGES, Language


@dataclass(frozen=True)
class Problem:
    zh: str
    en: str

    def of(self, zh: str, en: str) -> Problem:
        """This finding said of the part of the report ``zh`` and ``en`` name."""
        return Problem(zh + self.zh, en + self.en)

    def text(self, language: Language) -> str:
        return self.en if language == "en" else self.zh


def asked_language(system_prompt: str) -> Language:
    """The language the guard prompt asks the reason in; the product's own when it names none."""
    return next((language for language in LANGUAGES if texts(language).reason_in in system_prompt), DEFAULT_LANGUAGE)
