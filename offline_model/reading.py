"""Reading tool results: which log pattern matters, its error signature, which knowledge sentence explains it.

* Key pattern of a log result: the first ERROR/FATAL/WARN pattern of the queried service (patterns come sorted
  by severity, then count), else the first ERROR/FATAL/WARN pattern of any service.
* Signature of a message: its ERR_ code if it has one, else the words of its innermost exception message (the
  last ``": "`` segment) without numbers, ids and ``key=value`` pairs, e.g. ``HikariPool-1 - Connection is not
  available, request timed out after``.
* A knowledge sentence *explains* a signature when it contains the code, or four consecutive signature words.
* A cause is named only from a small vocabulary found in the explaining sentence or its document title.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from offline_model.conversation import Observation
from offline_model.entities import ERROR_CODE_PATTERN, SERVICE_PATTERN
from offline_model.lexical import normalise
from offline_model.quoting import looks_like_instruction, sentences

SEVERE = ("FATAL", "ERROR", "WARN")
CAUSES = (
    ("连接池已经耗尽", "数据库连接池耗尽", "pool"),
    ("连接池耗尽", "数据库连接池耗尽", "pool"),
    ("connection pool exhaustion", "数据库连接池耗尽", "pool"),
    ("连接泄漏", "数据库连接泄漏", "leak"),
    ("长事务", "长事务占用数据库连接", "long_tx"),
    ("锁等待", "数据库锁等待", "lock"),
    ("渠道侧抖动", "支付渠道侧抖动", "channel"),
    ("幂等", "幂等校验拦截重复提交的请求", "idempotent"),
)
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")
_NOISE = re.compile(r"\([^)]*\)|\S+=\S+|\border-\d+\b|\S*\d{2,}\S*|/\S+", re.I)


@dataclass(frozen=True)
class Signature:
    service: str
    level: str
    code: str | None
    words: tuple[str, ...]

    def lookup_query(self) -> str:
        return self.code or " ".join(self.words[:8])


@dataclass(frozen=True)
class Explanation:
    observation: Observation
    item: dict[str, Any]
    sentence: str
    cause: tuple[str, str] | None
    """(cause phrase, cause key) when the sentence or its document names one."""


def queried_service(observation: Observation) -> str | None:
    match = SERVICE_PATTERN.search(str(observation.args.get("query") or ""))
    return match.group(0).lower() if match else None


def severe_patterns(result: dict[str, Any] | None) -> list[dict[str, Any]]:
    patterns = (result or {}).get("patterns")
    return [p for p in patterns or [] if isinstance(p, dict) and str(p.get("level")).upper() in SEVERE]


def key_pattern(observation: Observation) -> dict[str, Any] | None:
    severe = severe_patterns(observation.result)
    service = queried_service(observation)
    own = [pattern for pattern in severe if pattern.get("service") == service]
    return (own or severe or [None])[0]


def innermost(message: str) -> str:
    """The innermost message of an exception chain (the last ``": "`` segment of three or more words), exactly as
    it occurs in ``message``; the whole message when there is no chain."""
    segments = [segment for segment in re.split(r":\s+", message) if len(_WORD.findall(segment)) >= 3]
    return segments[-1] if segments else message


def signature(pattern: dict[str, Any]) -> Signature:
    message = str(pattern.get("example") or "")
    codes = ERROR_CODE_PATTERN.findall(message)
    core = _NOISE.sub(" ", innermost(message))
    words = tuple(_WORD.findall(core))[:10]
    return Signature(
        str(pattern.get("service") or ""), str(pattern.get("level") or ""), codes[0] if codes else None, words
    )


def services_named(pattern: dict[str, Any]) -> list[str]:
    """Services a pattern's message names besides its own (a callee or upstream)."""
    own = pattern.get("service")
    names = (m.group(0).lower() for m in SERVICE_PATTERN.finditer(str(pattern.get("example") or "")))
    return [name for name in dict.fromkeys(names) if name != own]


def explains(sentence: str, sig: Signature) -> bool:
    text = normalise(sentence)
    if sig.code and sig.code.lower() in text:
        return True
    words = [word.lower() for word in sig.words]
    if len(words) < 4:
        return bool(words) and " ".join(words) in _words_only(text)
    flat = _words_only(text)
    return any(" ".join(words[i : i + 4]) in flat for i in range(len(words) - 3))


def _words_only(text: str) -> str:
    return " ".join(word.lower() for word in _WORD.findall(text))


def cause_in(*texts: str) -> tuple[str, str] | None:
    for text in texts:
        lowered = text.lower()
        for needle, phrase, key in CAUSES:
            if needle.lower() in lowered:
                return phrase, key
    return None


def explanation(observations: list[Observation], sig: Signature) -> Explanation | None:
    """The best knowledge sentence explaining ``sig``: one naming a cause itself beats one whose title does."""
    best: tuple[int, Explanation] | None = None
    for observation in observations:
        if not observation.found:
            continue
        for item in documents(observation):
            for sentence in sentences(item["excerpt"]):
                if looks_like_instruction(sentence) or not explains(sentence, sig):
                    continue
                own = cause_in(sentence)
                cause = own or cause_in(item["title"], item["breadcrumb"])
                rank = 2 if own else 1 if cause else 0
                if best is None or rank > best[0]:
                    best = (rank, Explanation(observation, item, sentence, cause))
    return best[1] if best else None


def documents(observation: Observation) -> list[dict[str, str]]:
    evidence = (observation.result or {}).get("evidence")
    return [
        {key: str(item.get(key) or "") for key in ("document_id", "title", "breadcrumb", "excerpt")}
        for item in evidence or []
        if isinstance(item, dict) and item.get("excerpt")
    ]


def best_sentence(observation: Observation, focus: list[tuple[str, int]]) -> tuple[dict[str, str], str, int] | None:
    """(item, sentence, score) of the excerpt sentence sharing the most (weighted) focus terms with the question."""
    best: tuple[int, dict[str, str], str] | None = None
    for item in documents(observation):
        for sentence in sentences(item["excerpt"]):
            if looks_like_instruction(sentence):
                continue
            lowered = sentence.lower()
            score = sum(weight for term, weight in focus if term and term.lower() in lowered)
            if score > 0 and (best is None or score > best[0]):
                best = (score, item, sentence)
    return (best[1], best[2], best[0]) if best else None


def dictionary_mentions(observation: Observation | None, identifiers: tuple[str, ...]) -> bool:
    """Whether a data-dictionary lookup returned every table and column name of a query (as whole words)."""
    if observation is None or not observation.found:
        return False
    text = "\n".join(item["excerpt"] for item in documents(observation))
    return all(re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) for name in identifiers)
