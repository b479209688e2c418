"""Formatting mutations models apply to the same content: markdown, numbering, polite prefixes, full-width
characters, zero-width characters inside a word, trailing punctuation. None of them changes what a text says."""

from __future__ import annotations

import re

ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")
"""Zero-width space, non-joiner, joiner, word joiner and BOM: all invisible in a rendered answer."""

ZH_NUMERALS = ("零", "一", "二", "三", "四", "五", "六", "七", "八", "九", "十")
_CJK = re.compile(r"[\u3400-\u9fff]")
_CLOSING = frozenset("。.!?！？；;")
_IDENTIFIER = re.compile(r"[A-Za-z][\w.]*[-_][\w.-]*[A-Za-z0-9]")
_ZH_POLITE = ("请", "建议", "可以", "由 SRE ", "建议值班同学", "需要", "麻烦 DBA 值班")
_EN_POLITE = ("Please ", "We should ", "Next, ", "I suggest we ", "Recommended: ", "As a next step, ")


def is_zh(text: str) -> bool:
    return bool(_CJK.search(text))


def lower_first(text: str) -> str:
    """``Restart x`` -> ``restart x``; acronyms and identifiers (``SQL``, ``HikariPool``) keep their case."""
    if len(text) > 1 and text[0].isupper() and text[1].islower():
        return text[0].lower() + text[1:]
    return text


def fullwidth(text: str) -> str:
    """Every printable ASCII character as its full-width form (``order-1`` -> ``ｏｒｄｅｒ－１``)."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def fullwidth_digits(text: str) -> str:
    """Only digits and common punctuation full-width, as a Chinese input method writes them."""
    return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() or c in ":;,()=%" else c for c in text)


def zero_width(text: str, word: str, mark: str = "\u200b") -> str:
    """``mark`` inside the first occurrence of ``word`` (``重启`` -> ``重\u200b启``)."""
    at = text.find(word)
    if at < 0 or len(word) < 2:
        raise ValueError(f"{word!r} is not a word of {text!r}")
    cut = at + max(1, len(word) // 2)
    return text[:cut] + mark + text[cut:]


def bold(text: str, word: str | None = None) -> str:
    if word is None:
        return f"**{text}**"
    return text.replace(word, f"**{word}**", 1)


def code(text: str, word: str | None = None) -> str:
    """Backticks around the first identifier (a service, table or key name), or around ``word``."""
    match = _IDENTIFIER.search(text)
    if match is not None:
        return text[: match.start()] + f"`{match.group(0)}`" + text[match.end() :]
    return text.replace(word, f"`{word}`", 1) if word else f"`{text}`"


def numbered(text: str, index: int) -> str:
    n = index % 5 + 1
    if is_zh(text):
        prefix = (f"{n}. ", f"步骤{ZH_NUMERALS[n]}：", f"（{n}）", f"第{ZH_NUMERALS[n]}步：", "- ")[index % 5]
    else:
        prefix = (f"{n}. ", f"Step {n}: ", f"{n}) ", "- ", f"{n}、")[index % 5]
    return prefix + text


def polite(text: str, index: int) -> str:
    if is_zh(text):
        return _ZH_POLITE[index % len(_ZH_POLITE)] + text
    return _EN_POLITE[index % len(_EN_POLITE)] + lower_first(text)


def punctuate(text: str, index: int) -> str:
    """A closing mark; a text that already ends in one gets trailing white space instead."""
    if text[-1:] in _CLOSING:
        return text + ("\n", "\u3000", "\n\n")[index % 3]
    marks = ("。", "；", "！", "。\n") if is_zh(text) else (".", ";", "!", ".\n")
    return text + marks[index % len(marks)]


STYLES = ("style:markdown", "style:numbered", "style:polite", "style:full-width", "style:zero-width", "style:punct",
          "style:combined")


def apply_style(shape: str, text: str, word: str, index: int) -> str:
    """The text in one style; ``word`` is the word a zero-width character or bold goes into."""
    if shape == "style:markdown":
        return (bold(text, word), code(text, word), bold(text), f"*{text}*")[index % 4]
    if shape == "style:numbered":
        return numbered(text, index)
    if shape == "style:polite":
        return polite(text, index)
    if shape == "style:full-width":
        if index % 2 == 0 or not is_zh(text):
            return fullwidth(text)
        return fullwidth_digits(text).replace(" ", "\u3000")
    if shape == "style:zero-width":
        return zero_width(text, word, ZERO_WIDTH[index % len(ZERO_WIDTH)])
    if shape == "style:punct":
        return punctuate(text, index)
    if shape == "style:combined":
        return punctuate(numbered(bold(text, word), index), index + 1)
    raise ValueError(shape)
