"""What an answer offers as an example, a placeholder or a quoted question: text that states nothing about the
user's systems, so its tokens are not claims.

A token is a claim when its sentence states it as a fact about the system or the data. These are not:

- an example of what the user may ask: the rest of the clause after a label (例如：…, e.g.: …, For example, you can
  ask: …), the rest of the sentence after an invitation to ask (你可以问我 …, you could ask, say, why …), or a quoted
  text after an example word (比如「…」, such as "…", 你可以问 “…”, try '…');
- a quoted question: a quoted text that ends in a question mark (「ERR_TIMEOUT 是什么意思？」, "why did … fail?") or
  asks for help (「…，帮我排查」, "please check …");
- a placeholder: ``<order_id>``, ``{orderId}``, ``${ORDER}``, ``order-xxx``, ``[订单号]``.

A quoted text that is neither (a quoted log message, a quoted error) stays a claim.
"""

from __future__ import annotations

import re

from harness.gate.lexicon import ASK_INVITATION, EXAMPLE_LABEL

_QUOTES = (("「", "」"), ("『", "』"), ("“", "”"), ("‘", "’"), ('"', '"'), ("'", "'"), ("`", "`"))
_QUOTED = re.compile(
    "|".join(f"{re.escape(a)}(?P<q{i}>[^{re.escape(b)}\\n]{{1,200}}){re.escape(b)}" for i, (a, b) in enumerate(_QUOTES))
)
_LABELLED = re.compile(rf"{EXAMPLE_LABEL}(?:[^。!?！？\n]*[?？][^\S\n]*)*[^。!?！？\n]*", re.IGNORECASE)
"""例如：…？…？: a label and the questions after it, one after another on its line."""
_INVITED = re.compile(rf"{ASK_INVITATION}[^。!?！？;；\n]*", re.IGNORECASE)
_EXAMPLE_WORD = re.compile(
    r"(?:例如|比如|譬如|诸如|像是|像|如|类似|可以问|这样问|问我|试试|试着问|输入|"
    r"such as|like|e\.g\.|for example|for instance|try|ask|asking|type|questions? (?:like|such as))"
    r"[\s:：,，]*(?:[-*•]\s*)?$",
    re.IGNORECASE,
)
_ASKING = re.compile(
    r"[?？]\s*$|帮我|帮忙|请帮|请问|请查|查一下|看一下|排查一下|怎么办|怎么回事|是什么意思|为什么|"
    r"^(?:why|what|how|which|when|where|who|can you|could you|please|help me|check|explain|show me|is there)\b",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(
    r"<[A-Za-z_\u4e00-\u9fff][\w\u4e00-\u9fff\- ]{0,40}>|\$?\{[A-Za-z_][\w.\-]{0,40}\}|\[[\u4e00-\u9fff\w ]{1,20}\]"
    r"|\b[A-Za-z][\w\-]*-(?:x{2,}|X{2,}|N|n{2,}|\*+)\b"
)


def without_examples(text: str, *, questions_only: bool = False) -> str:
    """``text`` with every example, quoted question and placeholder blanked (the rest keeps its positions).

    ``questions_only``: blank only quoted questions and placeholders, for an answer whose examples may be claims
    about the documents it cites (a knowledge answer quoting a runbook's log line after 例如)."""
    if not questions_only:
        text = _INVITED.sub(_blank, _LABELLED.sub(_blank, text))
    text = _QUOTED.sub(lambda match: _blank(match) if _is_example(text, match, questions_only) else match[0], text)
    return _PLACEHOLDER.sub(_blank, text)


def _is_example(text: str, match: re.Match[str], questions_only: bool) -> bool:
    quoted = next(group for group in match.groups() if group is not None)
    if _ASKING.search(quoted.strip()):
        return True
    return not questions_only and bool(_EXAMPLE_WORD.search(text[max(0, match.start() - 24) : match.start()]))


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))
