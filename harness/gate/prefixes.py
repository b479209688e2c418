"""What may stand before the verb of a clause, and is taken off before the clause is judged
(:mod:`harness.gate.leads`): numbering, labels and decoration (1., 步骤 2：, 🔎), politeness and modals (请, 建议先,
please, we should), who does it (由 DBA, ask the DBA to), where or with what (在 Grafana 上, 用 redis-cli, MySQL 下),
a light verb (进行, 做), a time or a duration (02:41 之后, 接下来 10 分钟).
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.verbs import ZH_VERB_WORD, english_lead_of, masked

_ZH_INVESTIGATE = re.compile(rf"^{words.ZH_INVESTIGATE}")
ZH_OPEN_READ = re.compile(rf"^打开\s*[^,，。；;]{{0,48}}?{words.ZH_READ_OBJECT}")
_NUMBERING = re.compile(
    r"^\s*(?:\d{1,2}\s*[.、)](?!\d)|[(（]\d{1,2}[)）]|[①-⑳]|第[一二三四五六七八九十\d]+步\s*[:：,，]?|步骤\s*[一二三四五六七八九十\d]*\s*[:：]"
    r"|step\s*\d+\s*(?:[:.)\-—–]|$)|(?:runbook\s+)?step\s*\d+\s*(?:\([^()]*\))?\s*[:：]|[-*•·]\s)\s*",
    re.IGNORECASE,
)
_ZH_PREFIX = re.compile(rf"^\s*{words.ZH_PREFIX}\s*[:：]?\s*")
_ZH_AGENT = re.compile(
    rf"^\s*{words.ZH_AGENT}\s*[A-Za-z0-9_\-. ]{{0,24}}?\s*[\u4e00-\u9fff]{{0,6}}?(?:{words.ZH_ROLE}\s*)+"
    r"(?!或|和|及|与|、|/)(?:来|去|帮忙|协助|一起|共同|同学)?\s*"
)
"""由 DBA 检查 …, 联系支付团队确认 …; not one of several people (向客服或用户确认 … asks them all)."""
_ZH_ROLE_SUBJECT = re.compile(
    rf"^\s*(?:(?P<name>[A-Za-z][A-Za-z0-9_\-.]*)\s*)?(?:{words.ZH_ROLE}\s*)+(?:同学|人员)?\s*"
    r"(?=[\u4e00-\u9fff]|@|[A-Za-z])"
)
_ZH_TIME_FIRST = re.compile(
    r"^\s*[^,;，；]{1,24}?(?:(?:之后|以后|之前|以前|的时候|期间)(?!的)\s*(?=\S)|(?:前|后|(?<![超及同准按定暂小实随临当耗延])时)"
    r"(?=\s*(?:先|再|请|需|须|应|务必|要|"
    rf"必须|立即|马上|{words.ZH_INVESTIGATE}|{words.ZH_PROHIBIT})))"
)
_ZH_VENUE = re.compile(rf"^\s*{words.ZH_VENUE}")
_ZH_TOOL = re.compile(r"^\s*(?:通过|借助|使用|利用|用)")
"""A venue that names a tool (用只读 SELECT 核对日志中 …): the verb follows the tool, so 中 closes no place."""
_ZH_CONDITION = re.compile(r"^\s*(?:如果|假如|倘若|要是|如若|若|万一|一旦)")
"""What opens a condition (如果订单是 24 小时之前创建的): its time is part of it, no prefix of a step."""
_NAMED_VENUE = re.compile(r"^\s*(?P<name>[A-Za-z][\w.-]*)\s*(?:下|上|里|中)\s+(?=\S)")
"""MySQL 下 …, Grafana 里 …: where the step is done, named first."""
_SYMBOLS = re.compile(r"^[\s\u2190-\u2bff\U0001f000-\U0001faff\ufe0f#>*•·]+")
"""🔎 check …, 📖 阅读 …, ✅ …: what decorates a step's start."""
COMPOUND_NOUN = re.compile(
    r"\s*(?:手册|单|记录|历史|前后|量|速率|次数|耗时|频率|进度|成功率|失败率|批次|流程|情况|结果|状态|事件|窗口期|计划|方案|申请|审批)"
)
"""What makes a side-effect verb part of a noun (发布单, 变更记录, 重启前后, 写入量), never its object (修改配置)."""
_ZH_VENUE_CLOSE = re.compile(rf"[^,;，；]{{1,20}}?{words.ZH_VENUE_END}\s*(?=\S)")
_ZH_LIGHT = re.compile(r"^\s*(?:进行|做一次|做一下|做|作|开展|实施|安排|搞|来一次)(?:一次|一下|一轮|一遍|一个)?\s*")
_ZH_LIGHT_INSIDE = re.compile(r"(?:进行|做一次|做一下|开展|实施)")
_BARE_NUMBER = re.compile(r"^\s*\d{1,2}\s+(?=[\u4e00-\u9fff])")
"""① 确认…, which NFKC reads as "1 确认…"."""
_DURATION_FIRST = re.compile(
    r"^\s*(?:接下来|未来|之后|随后)?\s*\d+\s*(?:分钟|小时|天|秒|min|h)(?:内|之内|以内)?\s*(?=\S)"
)
_EN_PREFIX = re.compile(rf"^\s*{words.EN_PREFIX}(?![A-Za-z])[\s,:]*", re.IGNORECASE)
_EN_AGENT = re.compile(rf"^\s*{words.EN_AGENT}", re.IGNORECASE)
_LABEL = re.compile(
    rf"^\s*(?:SQL|命令|指令|语句|command|cmd|query|shell|bash|查询|{words.INTENT_LABEL})\s*[:：]\s*", re.IGNORECASE
)
_ZH_VENUE_VERB = re.compile(rf"{ZH_VERB_WORD}|[看查盯翻瞅瞄]")
"""The verb after a venue (去 grafana 看 …, 在日志里查 …): a word of two characters, or a one-character look."""
_ZH_INVESTIGATE_ANYWHERE = re.compile(words.ZH_INVESTIGATE)


def _unless_a_verb(found: re.Match[str]) -> str:
    """Nothing for a prefix found, or the prefix kept when it starts with an English verb (Ask DBA on-call to …: the
    role subject of a Chinese clause, DBA 检查 …, is no "Ask")."""
    name = found.groupdict().get("name")
    return found.group() if name is not None and english_lead_of(name) is not None else ""


def _after_venue(rest: str, end: int) -> str:
    """``rest`` from the verb after the venue that ends at ``end``: after a light verb (在 X 上进行分析), after a place
    it closes (在 Grafana 上), or at the first verb after it; a tool (用 X) is read up to its verb, not to a place."""
    light = _ZH_LIGHT_INSIDE.search(masked(rest), end, end + 40)
    if light is not None:
        return rest[light.start() :]
    closed = _ZH_VENUE_CLOSE.match(rest, end)
    if closed is not None and not _ZH_TOOL.match(rest):
        return rest[closed.end() :]
    scanned = masked(rest)
    verb = next(
        (
            found
            for found in _ZH_VENUE_VERB.finditer(scanned, end, end + 24)
            if not COMPOUND_NOUN.match(scanned, found.end())
        ),
        None,
    )  # 对 X 近 7 天写入量的统计分析: 写入量 names a quantity, 统计 is the step
    if verb is not None:
        return rest[verb.start() :]
    return rest[closed.end() :] if closed is not None else rest


def strip_prefixes(piece: str) -> tuple[str, int]:
    """``piece`` without what stands before its verb, and how many characters went."""
    rest = piece
    for _ in range(12):
        before = rest
        for pattern in (_NUMBERING, _LABEL, _ZH_AGENT, _ZH_ROLE_SUBJECT, _ZH_PREFIX, _ZH_LIGHT, _EN_AGENT, _EN_PREFIX):
            if _ZH_INVESTIGATE.match(rest.lstrip()):
                break
            rest = pattern.sub(_unless_a_verb, rest, count=1)
        named = _NAMED_VENUE.match(rest)
        if named is not None and english_lead_of(named["name"]) is None:  # MySQL 下 …, not grep 下 …
            rest = rest[named.end() :]
        venue = None if _ZH_INVESTIGATE.match(rest.lstrip()) else _ZH_VENUE.match(rest)
        if venue is not None and not ZH_OPEN_READ.match(rest):
            rest = _after_venue(rest, venue.end())
        timed = None if _ZH_CONDITION.match(rest) else _ZH_TIME_FIRST.match(rest)
        if (
            timed is not None
            and not _ZH_INVESTIGATE.match(rest.lstrip())
            and not _ZH_INVESTIGATE_ANYWHERE.search(masked(rest[: timed.end()]))
        ):
            rest = rest[timed.end() :]
        rest = _DURATION_FIRST.sub("", rest, count=1)
        rest = _BARE_NUMBER.sub("", rest, count=1)
        if rest == before:
            break
    rest = _SYMBOLS.sub("", rest).lstrip(" \t'\"「」“”‘’`*")
    return rest, len(piece) - len(rest)
