"""The two light paths: a knowledge answer quoted from the evidence excerpts, and a system chat answer taken from
the capability statement in the system prompt. Nothing is added that the input does not hold."""

from __future__ import annotations

import re
from typing import Any

from offline_model.quoting import clip_prefix, looks_like_instruction, sentences

MAX_DOCUMENTS = 3
SENTENCES_PER_DOCUMENT = 2
BLOCK_CHARS = 400
_TERM = re.compile(r"[A-Za-z0-9_]+(?:[-.][A-Za-z0-9_]+)*|[\u4e00-\u9fff]+")
_FILLER = frozenset({"是什么", "什么", "意思", "含义", "如何", "怎么", "一下", "请问", "我们", "这个", "哪些", "的"})
_GREETING = re.compile(r"^\s*(?:你好|您好|嗨|哈喽|hi|hello|hey)", re.I)
_CAPABILITY_QUESTION = re.compile(
    r"你是谁|你能|你可以|能做什么|功能|怎么用|如何使用|怎么使用|使用方法|使用说明|帮助|help|who are you|what can you",
    re.I,
)


def query_terms(query: str) -> list[str]:
    """Search terms of a question: ASCII words, and two-character pieces of Chinese runs (filler removed)."""
    terms: list[str] = []
    for word in _TERM.findall(query):
        if re.match(r"[\u4e00-\u9fff]", word):
            pieces = [word] if len(word) <= 2 else [word[i : i + 2] for i in range(len(word) - 1)]
            terms.extend(piece for piece in pieces if piece not in _FILLER and not set(piece) & set("么吗呢是"))
        elif len(word) > 1:
            terms.append(word)
    return list(dict.fromkeys(terms))


def knowledge_answer(payload: dict[str, Any] | None) -> dict[str, Any]:
    """``{answer, references, limitations}`` quoting exact sentences of the most relevant excerpts.

    An excerpt counts by its best sentence and, twice, by its title and breadcrumb (a section *about* the asked
    term, e.g. ``错误码参考 > ERR_POOL_EXHAUSTED``); at most three excerpts, shown in retrieval order."""
    payload = payload or {}
    query = str(payload.get("query") or "")
    evidence = [item for item in payload.get("evidence") or [] if isinstance(item, dict) and item.get("excerpt")]
    terms = query_terms(query)
    scored: list[tuple[int, int, dict[str, Any], list[str]]] = []
    for index, item in enumerate(evidence):
        heading = f"{item.get('title') or ''} {item.get('breadcrumb') or ''}"
        chosen = _sentences_for(str(item["excerpt"]), terms)
        about = _score(heading, terms)
        if not chosen and about:
            chosen = [s for s in sentences(str(item["excerpt"])) if not looks_like_instruction(s)][:1]
        if chosen:
            score = 2 * about + max(_score(sentence, terms) for sentence in chosen)
            scored.append((-score, index, item, chosen))
    if not scored:
        return {
            "answer": "知识库中没有检索到能回答这个问题的内容。",
            "references": [],
            "limitations": ["知识库没有返回与问题相关的摘录，以上不是对问题本身的回答"],
        }
    used = sorted(scored)[:MAX_DOCUMENTS]
    used.sort(key=lambda entry: entry[1])
    parts = []
    for _, _, item, chosen in used:
        crumbs = str(item.get("breadcrumb") or "").split(" > ")
        where = f"《{item.get('title') or item.get('document_id')}》" + (f"「{crumbs[-1]}」" if len(crumbs) > 1 else "")
        quotes = (_with_block(str(item["excerpt"]), sentence) for sentence in chosen)
        parts.append(f"根据{where}：" + " ".join(f"「{quote}」" for quote in quotes))
    limitations = ["回答只摘录知识库原文，未做推断"]
    if len(scored) < len(evidence):
        limitations.append("部分检索结果与问题无关，未采用")
    return {
        "answer": "\n".join(parts),
        "references": list(dict.fromkeys(str(entry[2].get("document_id")) for entry in used)),
        "limitations": limitations,
    }


def _with_block(excerpt: str, sentence: str) -> str:
    """The sentence, and when it introduces something (ends with a colon) what follows it, exactly as written."""
    quote = clip_prefix(sentence, 200)
    start = excerpt.find(sentence)
    if start < 0 or not sentence.endswith(("：", ":")):
        return quote
    return excerpt[start : start + len(sentence) + BLOCK_CHARS].strip()


def _sentences_for(excerpt: str, terms: list[str]) -> list[str]:
    candidates = [s for s in sentences(excerpt) if not looks_like_instruction(s) and _score(s, terms) > 0]
    best = sorted(candidates, key=lambda sentence: -_score(sentence, terms))[:SENTENCES_PER_DOCUMENT]
    return [sentence for sentence in candidates if sentence in best]


def _score(sentence: str, terms: list[str]) -> int:
    lowered = sentence.lower()
    return sum(2 if re.match(r"[A-Za-z0-9_]", term) else 1 for term in terms if term.lower() in lowered)


def system_answer(system_prompt: str, query: str) -> str:
    """A greeting and/or the capability statement, exactly as the system prompt gives it."""
    capabilities = system_prompt.split("能力说明：", 1)[1].strip() if "能力说明：" in system_prompt else ""
    name = re.search(r"你是\s*([^。，,\n]{1,30}?)[。，,\n]", system_prompt)
    who = f"我是 {name.group(1).strip()}。" if name else ""
    lines: list[str] = []
    if _GREETING.search(query):
        lines.append(f"你好！{who}")
    elif who and _CAPABILITY_QUESTION.search(query):
        lines.append(who)
    if not _CAPABILITY_QUESTION.search(query) and not _GREETING.search(query):
        lines.append("这个问题不在我能回答的范围内。")
    if capabilities:
        lines.append(capabilities)
    else:
        lines.append("我的能力说明没有提供，无法介绍更多。")
    return "\n".join(lines)
