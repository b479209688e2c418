"""Findings judged by shape: a plan step must be an instruction, and neither a step nor a SYSTEM_CHAT sentence may
state a finding, in any wording.

The same classifier serves both (:func:`finding`, and :func:`harness.gate.plan_steps.is_instruction`), clause by
clause (:mod:`harness.gate.clauses`). A clause states a finding when

- it opens with a finding's label and a colon (结论：, 根因：, 定位结果：, Root cause:, Diagnosis:);
- or, not being an instruction, a question, a prohibition or a condition, it states a cause, a discovery or a
  verdict (导致, 由于, 经排查, 已定位, 日志显示, 就是; caused by, due to, turned out, we found, is down …), a state
  (已, 已经, 正在, or a state word with a subject: 耗尽, 宕机, 不可用 …), or a phrase of the operator's
  ``harness.plan.assertion-markers``;
- or it is led by an investigative verb that reports rather than instructs: 确认了, 定位到, 查到, 发现 …;
  Confirmed, Verified, Found, Identified ….
- or it names a cause, whatever its length, a value or none (:mod:`harness.gate.verdicts`): It's the connection
  pool, 是数据库, Probably the DNS, The pool, obviously.; or asks a question that expects only its own answer
  (Isn't the database the culprit?, 难道不是数据库的锅吗？).

An instruction is led by an investigative verb (确认主库是否宕机, Verify whether the root cause is lock contention:
what follows the verb is what to look at, whatever it names) or asks a question to investigate. A sentence about
the assistant itself, a greeting, one on what the user may ask (我可以帮你查询日志, 你好, 例如：…) or one that reports
the user's own words (你提到了 order-123, You said checkout timed out) states no finding; what follows the user's
words as a modifier (你提到的 order-123 已经超时了) is still judged.
"""

from __future__ import annotations

import re

from harness.gate import lexicon as words
from harness.gate.clauses import Clause, Lead, clauses, judge
from harness.gate.commands import commands
from harness.gate.policy import ClaimPolicy
from harness.gate.text import NormalForm, normal
from harness.gate.tokens import tokenize
from harness.gate.verbs import masked
from harness.gate.verdicts import answered, at_fault, besides, hedged, part_stated, verdict

_LABEL = re.compile(
    rf"^\s*(?:\d{{1,2}}\s*[.、)]\s*)?(?:(?:{words.ZH_FINDING_LABEL}){{1,3}}|(?:{words.EN_FINDING_LABEL}\s*){{1,3}})"
    r"\s*(?:[:：=]|[-—]\s)",
    re.IGNORECASE,
)
_BARE_LABEL = re.compile(rf"\s*(?:{words.ZH_FINDING_LABEL}|{words.EN_FINDING_LABEL})\s*", re.IGNORECASE)
"""Bottom line — the cache: a finding's label alone in its clause, what it labels in the next."""
_DECLARATIVE = re.compile(words.EN_DECLARATIVE, re.IGNORECASE)
_PERFECTIVE = re.compile(r"[\u4e00-\u9fff]了(?!解)")
_COLON = re.compile(r"(?:(?<!\d)[:：]|[:：](?!\d))\s*(?=\S)")
_OBJECT_BEFORE_COLON = re.compile(
    r"(?:假设|猜想|推测|可能|可能性|疑点|问题|说法|观点|hypothesis|theory|question|whether|if|claim|assumption|idea)\s*$",
    re.IGNORECASE,
)
"""验证假设：X, the hypothesis: X — what follows the colon is what to verify, not a statement."""
_LABELLED = re.compile(rf"^\s*(?:{words.CHECK_LABEL}|{words.INTENT_LABEL})\s*[:：]", re.IGNORECASE)
"""Hypothesis to verify:, 目标： — the colon belongs to the label, and what follows is the clause itself."""
_FINDING = re.compile(rf"{words.ZH_FINDING}|{words.EN_FINDING}", re.IGNORECASE)
_STATE_WORD = re.compile(words.ZH_STATE_WORD)
_SPEAKER = re.compile(words.SPEAKER, re.IGNORECASE)
_USER_SPEECH = re.compile(rf"\s*(?:{words.USER_SPEECH})", re.IGNORECASE)
_USER_WORDS = re.compile(rf"(?:{words.USER_SPEECH})\s*(?:“[^”]*”|「[^」]*」|\"[^\"]*\")?", re.IGNORECASE)
"""你说的“支付超时”: the words the user used, quoted after the verb that reports them."""
_MEANT = re.compile(r"^\s*(?:是指|指的是|是说|意思是|的意思是|是|\bis\b|\bmeans\b|\bwas\b)")
_REPORTED = re.compile(
    r"^\s*(?:了|到(?!底)|出(?!现)|完|过(?![滤去来])|得|:|：|发现|显示|表明|结果|后发现|后确认|中发现|可知)"
)
_EN_REPORTED = re.compile(
    r"^(?:confirmed|verified|checked|found|identified|determined|discovered|traced|located|pinpointed|noticed|"
    r"observed|saw|seen|detected|established|proved|proven|isolated|narrowed|diagnosed|analy[sz]ed|investigated)\b",
    re.IGNORECASE,
)
_ABLE = re.compile(r"可以|能够|能|会|支持|帮你|帮您|帮助|用于|负责|擅长|\b(?:can|could|will|able to|help)\b", re.I)
"""What the assistant can do (可以排查线上故障): a capability names a state without stating it."""
_WEAK_WITH_ABILITY = frozenset({"已", "已经", "正在", "存在", "出现", "故障", "超时", "失败", "异常", "报错", "告警"})
"""Words that a capability names without stating (我可以帮你排查故障、超时和异常): no finding next to 可以/can."""
_PURPOSE = re.compile(
    rf"^(?:以便|以免|便于|用于|从而|来确认|以确认|看是否|像|类似|诸如|{words.EXAMPLE_LABEL}|so that|to see|to confirm"
    r"|to check"
    r"|to verify|to determine|to find|to understand|to rule out|in order to|e\.g\.|for example|for instance|such as)",
    re.IGNORECASE,
)
"""An aside that only says why or gives an example: nothing is stated in it."""
_LISTING = re.compile(r"^(?:例如|比如|譬如|诸如|such as|like|e\.g\.?|for example|including|包括)", re.IGNORECASE)
"""例如支付超时、连接池耗尽: kinds of problem listed, none stated (a value with them would be a claim)."""
_TOPIC = re.compile(words.ZH_TOPIC)
"""对于支付超时: the topic of what follows, not stated."""
_GREETING = re.compile(
    rf"{words.GREETING}(?:[\s,]+@[\w.-]+)?[\s~!,.:;\u2600-\u27bf\U0001f300-\U0001faff]*", re.IGNORECASE
)
"""A greeting, whom it greets (@Lily.Chen) and the emoji after it (👋)."""
_COPULA = re.compile(
    r"是(?!否|不是)|为(?!了|何|什么)|(?<![所具拥没])有(?![待关没无])|\b(?:is|are|was|were|has|have|had)\b",
    re.IGNORECASE,
)
_WEAK = re.compile(words.ZH_WEAK_STATE)
_STATED_IN_OBJECT = re.compile(
    r"已经|[\u4e00-\u9fff]了[^,;，；]{0,12}的那|那个[^,;，；]{0,24}(?:只有|一直|被|已|总是)"
    r"|\b(?:is|are|was|were) (?:now |already |still )?(?:down|up|full|exhausted)\b"
    r"|\b(?:that|which|who) (?:is|are|was|were|has been|have been|had been) (?:still |now |currently )?[a-z]+ing\b"
    r"|\b(?:that|which|who) (?:stopped|started|failed|crashed|broke|hung|died|exhausted|filled|leaked)\b"
    r"|\b(?:that|which|who) (?:keeps|kept) [a-z]+ing\b"
)
"""What an instruction's object states in passing (查看已经把连接池打满的 memberd, the group that stopped committing
offsets at 23:41, 检查执行了 DDL 的那个账号): a finding presupposed, not a thing to look at."""
_ASKING = re.compile(rf"{words.ZH_QUESTION}|\b(?:whether|if)\b", re.IGNORECASE)
_GOES_ON = re.compile(
    r"^(?:and\s+|but\s+)?(?:say|tell|mention|note|flag|mark|state|cite|show|give|explain|point|admit|answer|ask|let"
    r"|keep|stay|never|always|only|also|just|don't|do not|won't|will|can|cannot)\b"
    r"|^(?:也|还|并|而且|但|但是|同时)?\s*(?:会|不会|可以|能|只|仅|帮|为你|给出|提供|说明|标注|注明|引用)",
    re.IGNORECASE,
)
_OPENER = re.compile(
    r"^\s*(?:(?:目前|现在|当前|眼下|从[^,，;；]{1,16}?)看(?:来|起来|上去)?|看(?:来|起来|上去))(?![过])"
)
"""目前看 X 偏高, 从监控看 …: what is seen so far, stated (看 X 偏高 alone is an instruction)."""
_NAME = re.compile(r"(?<![\w@-])[A-Za-z][A-Za-z0-9]*(?:[-_.][A-Za-z0-9]+)+(?![\w-])|(?<![\w.])v?\d+\.\d+\.\d+")
_COMPOUND = re.compile(
    r"(?:non|re|self|pre|post|multi|co|anti|cross|sub|semi|over|under|out|in|on|off|up|down|end|real|read|write|"
    r"built|so|follow|set|look|check|time|well|high|low|long|short|per|x|e|t)-\w+",
    re.IGNORECASE,
)
"""English compounds (read-only, on-call, real-time, follow-up): words, not names of a thing a reader could check."""
_NOUN_NEXT = re.compile(
    rf"\s*(?:{words.NOUN_AFTER_VERB}|数|率|链接|阈值|指标|问题|原因|场景|类|相关|处理|分布|曲线|面板|告警|报警)"
)
"""超时次数, 告警链接, 失败率: a state word naming a thing to look at, not stating it."""
_ASKED_BEFORE = re.compile(rf"{words.ZH_QUESTION}|\b(?:whether|if)\b|^(?:how|why|what|where|who)\b", re.I)
_ZH_ASKED = re.compile(words.ZH_QUESTION)
_EN_STATED_RELATIVE = re.compile(r"\b(?:which|that|who)\s+(?:is|are|was|were|has|have|had)\b", re.IGNORECASE)
_TO_BE_DONE = re.compile(
    r"\b(?:is|are|was|were) to be\b|\b(?:should|must|can|could|will|may|needs? to|has to|have to) be\b"
    r"|需要|需|应该|应当|应|有待|待|要|须|可以|可",
    re.IGNORECASE,
)
"""The logs are to be checked, 锁等待情况有待查看: an instruction put in the passive, its subject no statement."""
_PRONOUN_VERB = re.compile(r"^(?:it|they|this|that|these|those|there)\s+(?:[a-z]+ed|[a-z]+s|has|had|is|was)\b", re.I)
"""Check the certificate: it expired at 00:00: a statement after the colon."""
_PASSIVE_MODAL = re.compile(r"(?:需|需要|要|应|应该|待|有待|可|可以|须|必须)\s*$")
_MEASURED = re.compile(r"\d(?:[\d.,]*)\s*(?:%|ms|毫秒|秒|MB|GB|KB|Mi|Gi|QPS|TPS|rps)(?![A-Za-z])")
"""使用率 98%, p99 850ms: a measured value, stated."""
_SPEAKING_INSIDE = re.compile(
    r"(?:我|我们)\s*(?:只能|只可以|仅能|能|可以|无法|不能|没法|没有办法|拿不到|看不到|查不到)"
    r"|\b(?:I|we)\s+(?:can|can't|cannot|could|couldn't|only|don't|do not|won't|will not)\b",
    re.IGNORECASE,
)
"""超过 24 小时的指标我只能拿到 5 分钟粒度的数据: the assistant's own limits, said in the middle of a clause."""
_CONTRAST = re.compile(r"^(?:但是|但|不过|然而|可是|只是|\bbut\b|\bhowever\b|\bthough\b|\byet\b)", re.IGNORECASE)
_RELATIVE = re.compile(r"^(?:which|who)\b", re.IGNORECASE)
_EVENT = re.compile(r"(?:刚才|刚刚|刚|昨晚|今早|今天|又)[^,，;；]{0,8}?[\u4e00-\u9fff](?<![苦烦等对好算])了")
"""An event told with its time (刚才又抖了一次); 辛苦了, 久等了 are courtesy."""
_DROPPED_SUBJECT = re.compile(r"^(?:looks|seems|appears|sounds|feels)\b", re.IGNORECASE)
_MODIFIER = re.compile(r"[^,;，；的]{0,12}的")
NOT_FINDINGS = frozenset({Lead.QUESTION, Lead.PROHIBIT, Lead.CONDITION})


def finding(text: str, policy: ClaimPolicy) -> str | None:
    """The first clause of ``text`` that states a finding (its marker, or its start), or None. A clause that goes on
    from what the assistant says of itself (I only report …, and say so …) is the assistant's too."""
    speaking = asking = False
    before: Clause | None = None
    form = normal(text)
    for clause in clauses(form.text, commands_in(form)):
        if clause.starts_step:
            speaking = asking = False
        if speaking and _GOES_ON.match(clause.rest):
            continue
        if _CONTRAST.match(clause.rest):
            asking = False  # …是否回滚，但 2.18.5 确实是起点: what follows 但 is said, not asked
        if asking and not _states_a_fact(clause.rest, policy):
            continue  # … whether a service is down, a pool is exhausted or a disk is full: still asked
        asking = asking or bool(_ASKING.search(clause.rest))
        clause, joined = _after(before, clause)
        if joined is not None:
            return joined
        before = clause
        quoted = any(clause.start <= start < clause.end for start, _ in form.code_spans)
        marker = clause_finding(clause, policy, quoted=quoted)
        if marker is not None:
            return marker
        speaking = bool(_SPEAKER.match(clause.rest) or _SPEAKER.match(clause.text)) or speaking
    return None


def _after(before: Clause | None, clause: Clause) -> tuple[Clause, str | None]:
    """``clause`` read after ``before``: joined to it when it only goes on from it (unlike X-1, which keeps
    restarting; 除了数据库，还能是什么？), and the finding the two make when it hedges the part ``before`` names or
    fills a bare label (The pool, obviously.; Bottom line — the cache.)."""
    if before is None:
        return clause, None
    if _RELATIVE.match(clause.rest):
        return judge(f"{before.rest} {clause.rest}", aside=clause.aside), None
    if besides(before.rest):
        return judge(f"{before.rest}{clause.text}", aside=clause.aside), None
    labelled = _BARE_LABEL.fullmatch(before.rest) and before.lead is not Lead.INVESTIGATE  # (观察，…: a step)
    if labelled and clause.lead in (Lead.UNKNOWN, Lead.STATE):
        return clause, before.rest.strip()
    return clause, hedged(before.rest, clause.rest)


def clause_finding(clause: Clause, policy: ClaimPolicy, *, quoted: bool = False) -> str | None:
    """A finding of the clause itself, or of what follows a colon in it (Check the pool: it is exhausted). A clause
    that quotes a literal in code (is mostly `Broken pipe` errors) holds a value a reader could check."""
    marker = _finding_of(clause, policy, quoted=quoted)
    colon = _COLON.search(clause.rest)
    if (
        marker is None
        and colon is not None
        and clause.lead not in (Lead.ASIDE, Lead.QUESTION)
        and not clause.question
        and not _LABEL.match(clause.rest)
        and not _LABELLED.match(clause.rest)
        and not _OBJECT_BEFORE_COLON.search(clause.rest[: colon.start()])
    ):
        marker = _finding_of(judge(clause.rest[colon.end() :], aside=clause.aside), policy, quoted=quoted)
    return marker


def commands_in(form: NormalForm) -> tuple[tuple[int, int], ...]:
    """Where ``form`` holds a command (its words are its own, not the clause's); a code span that names a word
    (`Determine` the root cause) is read as prose."""
    return tuple((command.start, command.end) for command in commands(form.text, form.code_spans))


def _said(clause: Clause) -> Clause | None:
    """``clause`` without a greeting (你好～看起来 X 有点问题: the greeting says nothing, the rest may) and without the
    user's own words (你说的“支付超时”, the order you mentioned); None when it only reports the user (你提到了
    order-123, You said checkout timed out) or nothing else is left."""
    greeting = _GREETING.match(clause.rest)
    rest = clause.rest[greeting.end() :].lstrip(" ~!,.:;") if greeting is not None else clause.rest
    reporting = _USER_SPEECH.match(rest)
    if reporting is not None and not reporting.group().rstrip().endswith("的"):
        return None
    reported = _USER_WORDS.sub(lambda found: " " * len(found.group()), rest)
    if not reported.strip() or (reported != rest and _MEANT.match(reported)):
        return None  # 你说的是 checkout 超时的问题, 你说的“慢”是指 …: what the user meant
    return judge(reported, aside=clause.aside) if reported != clause.rest else clause


def _finding_of(clause: Clause, policy: ClaimPolicy, *, quoted: bool = False) -> str | None:
    said = _said(clause)
    if said is None:
        return None
    clause = said
    label = _LABEL.match(clause.text) or _LABEL.match(clause.rest)
    if label is not None:
        return label.group().strip()
    if (frame := answered(clause.rest)) is not None:
        return frame  # Isn't the database the culprit?, 难道不是数据库的锅吗？: the question asserts its answer
    if not clause.question and (named := verdict(clause.text)) is not None:
        return named  # It's the connection pool, 是数据库, Could be the DNS: a cause, with or without a value
    if clause.question or clause.lead in NOT_FINDINGS:
        return None
    if _DROPPED_SUBJECT.match(clause.rest):
        return _DROPPED_SUBJECT.match(clause.rest).group()  # Looks fine., Seems to be the pool.
    if _OPENER.match(clause.text):
        return _OPENER.match(clause.text).group().strip()
    if clause.lead is Lead.INVESTIGATE and clause.rest.lower().startswith(clause.verb.lower()):
        return _reported(clause, policy)
    if _SPEAKER.match(clause.rest) or _SPEAKER.match(clause.text):
        return None
    if clause.lead is Lead.ASIDE and _PURPOSE.match(clause.rest):
        return None
    rest = masked(clause.rest)  # 比如《支付超时排查手册》: a title states nothing
    able = _ABLE.search(clause.text)
    strong = (
        _FINDING.search(rest)
        or next((word for word in _STATE_WORD.finditer(rest) if not _names_or_asks(rest, word)), None)
        or (None if able else at_fault(rest) or part_stated(rest))  # 数据库有问题, the gateway just recovered
    )
    if strong is not None and (_ASKED_BEFORE.search(rest, 0, strong.start()) or _ZH_ASKED.search(rest)):
        strong = None  # 以及是否造成流量放大, 5xx 告警是怎么计算的
    listing = (
        clause.lead is Lead.ASIDE
        and (_LISTING.match(clause.rest) or _TOPIC.match(clause.rest))
        and not _states_a_fact(clause.rest, policy)
    )
    if strong is not None and not (able and strong.group() in _WEAK_WITH_ABILITY) and not listing:
        return strong.group()
    if (event := _EVENT.search(rest)) is not None and not able:
        return event.group()  # memberd 刚才又抖了一次: an event, told
    return _weakly_stated(clause, rest, policy, able=able is not None, quoted=quoted)


def _weakly_stated(clause: Clause, rest: str, policy: ClaimPolicy, *, able: bool, quoted: bool) -> str | None:
    """A finding told without a marker of one: an operator's phrase, a measured value, or a finite verb (是, 了, is,
    has …) with a value a reader could check."""
    if (configured := _configured(rest, policy)) is not None:
        return configured
    if _SPEAKING_INSIDE.search(rest):  # what the assistant can or cannot do, said mid-clause
        return None
    if clause.lead is Lead.INVESTIGATE and _TO_BE_DONE.search(rest):  # the logs are to be checked, 日志有待查看
        return None
    if _ASKED_BEFORE.search(rest) and not _EN_STATED_RELATIVE.search(rest):
        return None  # 告警是怎么计算的, 以及是否造成流量放大: asked, not stated
    if clause.lead is not Lead.INVESTIGATE and _MEASURED.search(rest):
        return _MEASURED.search(rest).group()  # /data 使用率 98%
    weak = (
        _PERFECTIVE.search(rest)
        or _DECLARATIVE.search(rest)
        or _COPULA.search(rest)
        or _WEAK.search(rest)
        or _STATED_IN_OBJECT.search(rest)
        or _PRONOUN_VERB.match(rest)
    )
    if weak is not None and not able and (quoted or _states_a_fact(clause.rest, policy) or _MEASURED.search(rest)):
        return weak.group()
    return None


def _names_or_asks(rest: str, word: re.Match[str]) -> bool:
    """超时次数, 告警链接, 超过 24 小时的指标 (a state word naming a thing), 需被检索 (a passive to be done)."""
    if _NOUN_NEXT.match(rest, word.end()) or (word.start() == 0 and _MODIFIER.match(rest, word.end())):
        return True
    return word.group() == "被" and bool(_PASSIVE_MODAL.search(rest, 0, word.start()))


def _reported(clause: Clause, policy: ClaimPolicy) -> str | None:
    """An investigative verb that reports what was found (确认了, 定位到, Confirmed), or whose object states a fact
    (看 RT 已经翻倍) rather than asks one (确认主库是否已宕机)."""
    after = clause.rest[len(clause.verb) :]
    reported = _REPORTED.match(after)
    if reported is not None and reported.group().strip() in (":", "："):
        stated = _finding_of(judge(after[reported.end() :]), policy)
        return None if _ASKING.search(after) or stated is None else stated  # Check: expiry; 确认：主库已宕机
    if reported is not None or _EN_REPORTED.match(clause.rest):
        return clause.rest[: len(clause.verb) + 1]
    stated = _STATED_IN_OBJECT.search(after)
    if stated is not None and not _ASKING.search(after):
        return stated.group()
    return None


def _states_a_fact(text: str, policy: ClaimPolicy) -> bool:
    """A value a reader could check: an identifier, a number, a time or a system's name (what turns "is"/"了" into a
    claim)."""
    tokens = tokenize(text, policy.non_facts)
    if tokens.identifiers or tokens.numbers or tokens.moments:
        return True
    return any(not _COMPOUND.fullmatch(name.group()) for name in _NAME.finditer(text))  # bidding-core, cg-bid-match


def _configured(text: str, policy: ClaimPolicy) -> str | None:
    lowered = text.lower()
    return next((marker for marker in policy.assertion_markers if marker in lowered), None)
