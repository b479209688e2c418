"""A text as clauses (:mod:`harness.gate.leads` says what each is).

A text (already in its normal form) is cut into sentences, then clauses: at commas, semicolons and dashes, at a
sequence conjunction that starts a new step (然后, 再, 并, X 后立即, then, and <verb>; not and the <noun>: the 6 TIMEOUT
records and the 1 INIT record is one object), and around a parenthesis.
``starts_step`` marks a clause that starts a step: the first of a sentence, the one after a condition, any after a
sequence conjunction, and one opened by 如需/必要时/if needed; a clause after a plain comma continues the step
before it.
"""

from __future__ import annotations

import dataclasses
import re

from harness.gate import lexicon as words
from harness.gate.leads import Clause, Lead, english_verb, judge
from harness.gate.verbs import ZH_VERB_WORD

__all__ = ["Clause", "Lead", "clauses", "judge"]

_SENTENCE = re.compile(
    r"[。!?！？\n]+|(?<=[A-Za-z)\]])(?<!\bvs)(?<!\betc)(?<!\be\.g)(?<!\bi\.e)(?<!\bapprox)(?<!\bcf)\.(?=\s|$)"
    r"|(?:(?<=[^\s\d;；。，,、]\d)|(?<=[^\s\d;；。，,、]\d\d)|(?<=\d{3}))\.(?=\s+(?:[A-Z]|[\u4e00-\u9fff]))"
    r"|\s+(?=(?:step|Step|STEP)\s*\d+\s*[:：.)—–-])|(?<=\S)\s+(?=\d{1,2}\s*[)）、]\s*\S)"
)
_ASKED = re.compile(r"\s*[?？]")
"""What ends a sentence that asks (its clauses state nothing)."""
_CHOICE = re.compile(r"\s*(?:还是|或者|或是|抑或|or\b)", re.IGNORECASE)
_HEADING = re.compile(r"^(?:[A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,2}|[\u4e00-\u9fff]{1,8})$")
"""A heading that opens a sentence before a dash (**Verification** — confirm …): a label, not a step."""
_DASH = re.compile(r"\s*(?:——+|—|–|-)\s")
_PAREN = re.compile(r"[(（\[【]([^()（）\[\]【】]*)[)）\]】]")
_COMMA = re.compile(r",(?!\d{3}(?!\d))|[;，；]|——+|—(?=\s)|(?<=\s)[—–-](?=\s)|:(?=\s*(?:如果|如|若|if|when)\b)")
_NOUN_AFTER_VERB = words.NOUN_AFTER_VERB
_SEQUENCE = re.compile(
    r"\s*(?:然后|随后|接着|之后再(?![次度])|之后(?=\s*(?:立即|马上|立刻|再(?![次度])|就))|而后|并且|紧接着|再(?!次|度|现|者|加上|说)|并(?!发|行|非|不|未|列|存|无|没|购|入)"
    rf"|(?<=[\u4e00-\u9fffA-Za-z0-9)\]])(?<![最之然而随此以今其往日向前稍])后(?=\s*(?:立即|马上|立刻|再(?![次度])|就|直接|重新|随即|即|将|把|给|为|对"
    rf"|{ZH_VERB_WORD}(?!\s*(?:{_NOUN_AFTER_VERB}|{ZH_VERB_WORD}))|(?:{words.EN_MUTATE}|{words.EN_INVESTIGATE})\b))"
    rf"|(?:以及|和|及|或者|或)(?=\s*{ZH_VERB_WORD}(?!\s*(?:{_NOUN_AFTER_VERB}|{ZH_VERB_WORD}))\s*[\w\u4e00-\u9fff])"
    r"|(?:和|及|或)(?=\s*(?:立即|马上|立刻|直接))"
    rf"|(?<=[\u4e00-\u9fffA-Za-z0-9])(?<!上来)(?:则|那么|就)(?=\s*(?:立即|马上|立刻|直接|把|将|给|为|对|{ZH_VERB_WORD}))"
    rf"|(?=(?:立即|马上|立刻|随即|即刻)\s*(?:{words.ZH_MUTATE}))"
    r"|\b(?:and then|(?<!could )(?<!would )(?<!should )(?<!can )(?<!will )(?<!may )(?<!might )(?<!must )then"
    r"|after that|afterwards|followed by|and also)\b"
    r"|\b(?:and|or)\b(?!\s+" + words.EN_STOP_OBJECT + r"\b)"
    r"(?=\s+[A-Za-z-]+\s+(?:" + words.EN_STOP_OBJECT + r"\b|[\w-]*[-_./0-9][\w-]*)))\s*",
    re.IGNORECASE,
)
_EITHER = re.compile(r"\s*(?:or|nor|或者|或)\s*", re.IGNORECASE)
"""What joins a prohibition's second act to its first (do not run X or TRUNCATE …, 不要重启或者回滚)."""
_EN_AND_VERB = re.compile(r"\s+\b(?:and|or)\b\s+(?=(?P<verb>[A-Za-z-]+)\b)", re.IGNORECASE)


def clauses(text: str, protected: tuple[tuple[int, int], ...] = ()) -> list[Clause]:
    """Every clause of ``text`` (a normal form), in order. Nothing splits inside a ``protected`` span (a command
    or statement: its commas and semicolons are its own). A parenthesis is a clause of its own (an aside), and the
    sentence around it reads on as if it were not there."""
    masked, blank = list(text), list(text)
    for start, end in protected:
        masked[start:end] = ["\ue000"] * (end - start)
        blank[start:end] = [" "] * (end - start)  # a command is judged by what it runs, not by its words
    shape, text = "".join(masked), "".join(blank)
    found: list[Clause] = []
    for sentence in _spans(shape, _SENTENCE, 0, len(shape)):
        parens = list(_PAREN.finditer(shape, *sentence))
        main_text, main_shape = text, shape
        for paren in parens:
            a, b = paren.span()
            main_text = main_text[:a] + " " * (b - a) + main_text[b:]
            main_shape = main_shape[:a] + " " * (b - a) + main_shape[b:]
        asked = bool(_ASKED.match(shape, sentence[1]))
        main = _clauses_of(main_text, main_shape, [sentence], aside=False)
        if asked and main:
            main = _asking(main)
        found += main + _clauses_of(text, shape, [paren.span(1) for paren in parens], aside=True)
    return sorted(found, key=lambda clause: clause.start)


def _asking(sentence: list[Clause]) -> list[Clause]:
    """The clauses of a sentence that asks: its last one (cart-api 升高了，你想先看哪一段？), and when that offers a
    choice, the verbless options before it (延迟、错误率，还是资源使用？)."""
    asked = len(sentence) - 1
    if _CHOICE.match(sentence[-1].text):
        while asked > 0 and sentence[asked - 1].lead is Lead.UNKNOWN:
            asked -= 1
    return sentence[:asked] + [dataclasses.replace(clause, question=True) for clause in sentence[asked:]]


def _spans(shape: str, pattern: re.Pattern[str], start: int, end: int) -> list[tuple[int, int]]:
    """``shape[start:end]`` cut at every match of ``pattern``."""
    spans, at = [], start
    for match in pattern.finditer(shape, start, end):
        spans.append((at, match.start()))
        at = match.end()
    spans.append((at, end))
    return [(a, b) for a, b in spans if shape[a:b].strip()]


def _clauses_of(text: str, shape: str, spans: list[tuple[int, int]], *, aside: bool) -> list[Clause]:
    result: list[Clause] = []
    starts_step = True
    for span in spans:
        for part in _spans(shape, _COMMA, *span):
            for index, (start, end) in enumerate(_split_steps(shape, part)):
                clause = judge(text[start:end], starts_step=starts_step or index > 0, aside=aside, at=start)
                heading = (
                    not result
                    and clause.lead is Lead.UNKNOWN
                    and bool(_HEADING.match(clause.text) and _DASH.match(shape, end))
                )
                if heading:  # **Verification** — confirm …: a label; the step starts after it
                    clause = dataclasses.replace(clause, lead=Lead.ASIDE)
                if index > 0 and result[-1].lead is Lead.PROHIBIT and _EITHER.fullmatch(shape[result[-1].end : start]):
                    clause = dataclasses.replace(clause, lead=Lead.PROHIBIT)  # do not run X or Y: neither is run
                result.append(clause)
                starts_step = heading or clause.lead is Lead.CONDITION
    return result


def _split_steps(shape: str, part: tuple[int, int]) -> list[tuple[int, int]]:
    steps: list[tuple[int, int]] = []
    for start, end in _spans(shape, _SEQUENCE, *part):
        cut = start
        for match in _EN_AND_VERB.finditer(shape, start, end):
            # (an imperative is never in -ed: were OOMKilled or restarted is one clause)
            if english_verb(match["verb"]) is not None and not match["verb"].lower().endswith("ed"):
                steps.append((cut, match.start()))
                cut = match.end()
        steps.append((cut, end))
    return [(a, b) for a, b in steps if shape[a:b].strip()]
