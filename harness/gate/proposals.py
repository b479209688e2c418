"""The proposal rule (§10.2: the Harness decides): a proposal that does not wait for a human must only read.

An action or recommendation with ``requires_human_confirmation: false`` passes only when it is recognisably
read-only (default-deny), judged clause by clause (:mod:`harness.gate.clauses`) over the whole proposal:

- a command or SQL statement in it that writes (:mod:`harness.gate.commands`), or a lock it takes in words
  (:mod:`harness.gate.locks`: 用 FOR UPDATE 查询, 加排他锁, with a locking read), makes it a side effect, unless the
  proposal only names it (:mod:`harness.gate.naming`: 检查 ``kubectl rollout undo`` 是否执行过, 检查慢日志中的 UPDATE
  biz_order 语句, the slow UPDATE statements; not 查看 … 的结果, whether … returns the row, 执行这条 … 语句), forbids
  it (不要对 node-5 执行 kubectl drain, never run `kubectl delete pod`: a prohibition in its own clause, never one in
  another clause or before a colon), or warns of it and forbids it (`redis-cli FLUSHDB` wipes the sessions; do not
  run it); a clause that refers back to it (and run it) runs it;
- a clause led by a side-effect verb, or by 将/把/给/为 and one (将 order-service 降级, 为订单发起退款), or by a verb
  of giving that gives an act or a grant (提供退款, give the customer a refund), is one: an action applied to the
  inquiry itself (:mod:`harness.gate.inquiry`: 扩大查询时间范围, 按渠道拆分, 标记为待人工确认, 升级给支付值班) is not;
- a clause that starts a step (the first, one after a condition, one after 然后/再/并/后立即/then/and <verb>) must be
  led by an investigative verb, a question to decide (是否需要扩容？), a prohibition (不要直接修改…) or a command
  that reads; anything else there is not recognisably read-only;
- a clause that only continues a step (its object, an aside in parentheses, a purpose, a state) passes, unless it
  is led by a phrase of the operator's own deny list (``harness.actions.confirmation-patterns``);
- and at least one clause must be an instruction to look or decide.

A system answer is held to the first two and the deny list only (:func:`mutating_part`): it is no proposal, so it
need not be an instruction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.gate import lexicon as words
from harness.gate.clauses import Clause, Lead, clauses, judge
from harness.gate.commands import Command, commands, names_reading_statement
from harness.gate.inquiry import on_the_inquiry
from harness.gate.locks import locks_taken
from harness.gate.naming import named
from harness.gate.policy import ClaimPolicy
from harness.gate.prefixes import COMPOUND_NOUN
from harness.gate.text import normal
from harness.gate.verbs import english_lead_of, given_act, masked, mixed_verb, side_effect_word, verb_after

_SPEAKER = re.compile(
    r"^(?:我们|我|你们|你|您|本助手|助手|I|we|you)?\s*(?:也|还|都)?\s*(?:可以|能够|能|会|将|可|can|could|will|may|might)?\s*"
    r"(?:帮你|帮您|为你|为您|替你|替您|帮忙|help you(?: to)?|help)?\s*",
    re.IGNORECASE,
)
_JOB = re.compile(
    r"任务|作业|脚本|批处理|补偿|回调|定时|调度|流水线|迁移|\b(?:job|jobs|task|tasks|script|batch|cron|pipeline|migration"
    r"|backfill|workflow|playbook)\b",
    re.IGNORECASE,
)
"""What a carrying verb runs when it runs something that acts: a job, a task, a script."""
_QUOTES = re.compile(r"\s*[\"“「'‘`(](?P<inner>[^\"”」'’`]*)[\"”」'’`)]\s*")
_REFERS = re.compile(
    r"^\s*(?:(?:it|this|that|them|these|those|the (?:command|query|statement|step)|该命令|它|这条命令|这个命令|上述命令"
    r"|上面的命令|该语句|该查询|这一步|该步骤)(?![A-Za-z]).*)?$",
    re.IGNORECASE | re.DOTALL,
)
"""What a carrying verb says when it refers back (run it against db-1, 在从节点上执行): no object of its own."""
_COLON = re.compile(r"(?:(?<=[\u4e00-\u9fff]):|:(?=\s|[\u4e00-\u9fff]))\s*(?=\S)")
"""A colon that leads what follows, not one inside a token (14:32, order:lock:42358, http://)."""
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ZH_NOUN_PHRASE = re.compile(r"[^,，;；。到成为回掉给把将]*的\s*[\u4e00-\u9fff]{1,8}(?<![到成为回掉了])")
_GLOSS = re.compile(r"[A-Za-z][\w.-]*(?:ed|ing|[A-Z]\w*)")
"""被驱逐（Evicted）, (OOMKilled): a word in parentheses glosses the one before it; it is no step."""
_WITH = re.compile(r"(?:using|with|via|through|通过|借助|使用|用)(?![A-Za-z])", re.IGNORECASE)
"""What a clause that goes on from a step does with a tool (…, using the access logs): it says how, not what."""
_READING = frozenset({Lead.INVESTIGATE, Lead.QUESTION, Lead.PROHIBIT})
_PROHIBITION = re.compile(rf"{words.ZH_PROHIBIT}|(?<![A-Za-z]){words.EN_PROHIBIT}(?![A-Za-z])", re.IGNORECASE)
_ACTS = frozenset({Lead.CARRY, Lead.MUTATE})
"""What a prohibition forbids when a command follows it: running it (执行, run), or the act itself (drain)."""
_RUNNING = re.compile(r"^(?:running|executing|using|issuing|invoking|calling|typing)\b", re.IGNORECASE)
_LIST = re.compile(r";|&&|\|\|")
_CONSEQUENCE = re.compile(
    r"[\s`'\"」”)]*(?:会|将会|将|只会|可能会|would|will|may|might|can|could|[a-z]{3,}s)(?![A-Za-z])", re.IGNORECASE
)
"""What a command is said to do when it is the subject of a warning (… 会让所有 Pod 重建, … wipes every session)."""
_WOULD = re.compile(r"\s*(?:只会|会|将会|可能会|反而会|就会|would|will|only)(?![A-Za-z])", re.IGNORECASE)
_AGAIN = re.compile(r"^(?:re-?run|重跑|重新执行|重新运行|重新跑)\s*(?:一遍|一次|一下)?", re.IGNORECASE)
_READ_ACT = re.compile(
    r"read-only|只读|\b(?:counts?|quer(?:y|ies)|searche?s?|lookups?|SELECTs?)\b|统计|查询|检索|计数", re.IGNORECASE
)
"""What a step done again does when it only reads (re-run the read-only count, re-run the two ERROR counts)."""
_STATE_WORD = re.compile(r"(?<![\w-])[A-Z][A-Z_]+(?![\w-])")
"""A value in capitals (FAILED, PAID): a state counted or looked for, no verb."""
_TOOL = re.compile(r"^(?:use|using|用|以|使用|利用|借助|通过)(?![A-Za-z])", re.IGNORECASE)
_ZH_LOOK = re.compile(words.ZH_INVESTIGATE)
_EN_PURPOSE = re.compile(r"\bto\s+(?P<verb>[A-Za-z-]+)", re.IGNORECASE)
_ASKING = re.compile(
    r"是否|有没有|有无|为什么|为何|是谁|谁在|(?<![A-Za-z])(?:whether|why|who)(?![A-Za-z])", re.IGNORECASE
)
"""A question whose subject a verb after it is (是否还有该订单的回调重试, 例如是否在超时后重试): the act is asked of."""
_BREAK = re.compile(r"[,，;；。:：]")
_DESCRIBES = re.compile(
    r"\s*所[\u4e00-\u9fff]{0,2}的|\s*(?:任务|作业|脚本|程序)\s*(?:却|也|又|曾|已经|已|随后|后来|当时)"
)
"""提交所用的 refund_request_no, 补偿任务却置为 TIMEOUT: the verb names a noun, or the subject of what happened."""
_PAST = re.compile(
    r"曾经|曾|已经|已(?=\s*(?:把|将|被))|尝试|试图|(?<![A-Za-z])(?:tried to|attempted to)(?![A-Za-z])", re.IGNORECASE
)
"""What tells of an act as a past event (回调曾尝试把 order-4711 标记为 PAID): described, not done."""
_MEANS = re.compile(r"^\s*[“「\"'‘][^”」\"'’]*[”」\"'’]\s*(?:指的是|是指|指|表示|意味着|是什么意思|means|refers to)")
"""“处理中”指的是…: a quoted word whose meaning is asked; no act."""
_TOPIC = re.compile(r"(?:对|对于|关于|针对|就)\s*[A-Za-z0-9_.:#/-]+(?:\s*[、和及与]\s*[A-Za-z0-9_.:#/-]+)*\s*")
"""对 order-5120，…: the topic of the step after it, no act."""
_OBSERVED = re.compile(r"^[^，,;；。]{1,40}?(?:集中在|集中于|出现在|发生在|分布在|主要来自|来自)")
"""同期的 504 集中在 order-service 上: an observation the step after it rests on."""
_INFORMS = re.compile(
    rf"^(?:告知|通知|告诉|回复|答复|知会)\s*(?:{words.ZH_ROLE}|用户|客户|客服|调用方|同事|报障人|提问人)"
    r"|^(?:inform|tell|notify|update)\s+(?:the\s+)?(?:user|customer|requester|caller|colleague)s?\b",
    re.IGNORECASE,
)
"""告知用户, tell the customer: telling a person changes no system (给用户退款 does; it is judged as its own clause)."""
_TOLD = re.compile(r"\s*(?:$|[：:]|已经|已|目前|当前|正在|尚未|还未|未|(?:that|about|of)(?![A-Za-z]))", re.IGNORECASE)
"""What follows the person told: nothing, or a fact (告知用户已退款), never an act (通知用户退款 may ask for one)."""
_LIMITATION = re.compile(
    r"^(?:the|these|those|this|that|it|they|our)\b[^,;]{0,60}?\b(?:do|does|did|is|are|was|were|can|could)\s*(?:not|n't)\b"
    r"|^(?:the|these|those|this|that|it|they|our)\b[^,;]{0,60}?\b(?:cannot|can't|don't|doesn't|isn't|aren't)\b",
    re.IGNORECASE,
)
"""The diagnostic tools do not expose DB sessions: a limitation stated, no step."""
_READ_ONLY_LOOK = re.compile(rf"只读\s*(?:地)?\s*(?:{words.ZH_INVESTIGATE})|\(read-only\)", re.IGNORECASE)
_IDENTIFIER = re.compile(r"[A-Za-z][\w.-]*[_\d][\w.-]*")
"""refund_db, order-1870: a name, whatever word it holds."""
_COMPOUND = re.compile(rf"(?:{words.ZH_MUTATE})(?={COMPOUND_NOUN.pattern})")
"""退款单, 变更记录: a side-effect verb inside a noun."""
"""只读查询 …, look up (read-only): an explicit read-only look, whoever is asked to do it."""
_CONTINUING = frozenset({Lead.CONDITION, Lead.ASIDE, Lead.STATE, Lead.UNKNOWN})


@dataclass(frozen=True)
class _Reading:
    """A text in its normal form as the proposal rule reads it: its commands, its clauses (each command kept whole)
    and the commands it only warns of."""

    text: str
    found: list[Command]
    parts: list[Clause]
    warned: list[Command]

    def tells_of_warned(self, clause: Clause) -> bool:
        """``clause`` tells what a command it warns of would do (`X` wipes every session): it states, not acts."""
        return any(clause.start <= command.start < clause.end for command in self.warned)


def _read(text: str) -> tuple[_Reading, Command | None]:
    """``text`` read, and the first command in it that writes (a lock taken in words included) and is neither only
    named, prohibited nor warned of."""
    form = normal(text)
    found = commands(form.text, form.code_spans)
    found += [lock for lock in locks_taken(form.text) if not any(c.start <= lock.start < c.end for c in found)]
    found.sort(key=lambda command: command.start)
    parts = clauses(form.text, tuple((command.start, command.end) for command in found))
    warned = [command for command in found if _warned(form.text, command, parts)]
    reading = _Reading(form.text, found, parts, warned)
    writing = next(
        (
            command
            for command in found
            if not command.read_only
            and command not in warned
            and not named(form.text, command, _clause_of(command, parts))
            and not _prohibited(form.text, command, parts, form.code_spans)
        ),
        None,
    )
    return reading, writing


def _clause_of(command: Command, parts: list[Clause]) -> Clause | None:
    """The clause that holds ``command``."""
    return next((clause for clause in parts if clause.start <= command.start < clause.end), None)


def side_effect(text: str, policy: ClaimPolicy) -> str | None:
    """What makes ``text`` a side effect (a command, a verb or the clause that is not read-only), or None."""
    reading, writing = _read(text)
    if writing is not None:
        return writing.text
    found, parts = reading.found, reading.parts
    reads = any(command.read_only for command in found)
    quoted = [judge(_QUOTES.sub("", c.text)) for c in parts if c.aside and _QUOTES.fullmatch(c.text)]
    referred = next((inner.verb for inner in quoted if inner.lead is Lead.MUTATE), None)
    referred = referred or next((command.text for command in found if not command.read_only), None)
    for previous, clause in zip([None, *parts], parts, strict=False):
        if clause.aside and (_QUOTES.fullmatch(clause.text) or _GLOSS.fullmatch(clause.rest)):
            continue  # a quoted step (runbook step 5 ("restart …")) is named; what refers to it ("run it") decides
        if reading.tells_of_warned(clause) or _gives_its_reason(previous, clause):
            continue
        if _asked(reading.text, previous, clause):
            continue
        problem = _clause_problem(clause, found, policy, referred)
        if problem is not None:
            return problem
        reads = reads or clause.lead in _READING or on_the_inquiry(clause) or _carries_reading(clause, found)
        reads = reads or _repeats_a_read(clause) or _uses_to_read(clause) or _reads_explicitly(clause)
        reads = reads or _tells_a_person(clause.rest)
    return None if reads else reading.text.strip()[:40]


def mutating_part(text: str, policy: ClaimPolicy) -> str | None:
    """The first command, verb or configured pattern of ``text`` that acts, or None (a system answer's check)."""
    reading, writing = _read(text)
    if writing is not None:
        return writing.text
    for clause in reading.parts:
        offered = _SPEAKER.sub("", clause.rest).lstrip(" :：,，")
        if reading.tells_of_warned(clause) or not offered.strip(" 。.!！"):
            continue  # 可以帮你：, I can help: an offer of help that names no act
        if clause.lead is Lead.UNKNOWN or offered != clause.rest:  # 我可以帮你重启…, 可以帮你：重启…: what is offered
            clause = judge(offered, starts_step=clause.starts_step)
        if clause.lead is Lead.MUTATE and not on_the_inquiry(clause):
            return clause.verb
        if clause.lead is Lead.UNKNOWN and (word := side_effect_word(clause.rest)) is not None:
            return word
        if clause.lead in _CONTINUING or clause.lead is Lead.CARRY:
            pattern = _configured(clause.rest, policy)
            if pattern is not None:
                return pattern
    return None


def _gives_its_reason(previous: Clause | None, clause: Clause) -> bool:
    """Whether ``clause`` says what the act a prohibition before it forbids would do (不要扩容 checkout-api，扩容只会把
    更多连接压到数据库上; don't restart it, restarting would drop the sessions): a reason, not a step."""
    if previous is None or previous.lead is not Lead.PROHIBIT or clause.lead is not Lead.MUTATE:
        return False
    verb = clause.rest.find(clause.verb)
    stem = re.sub(r"(?:ing|ed|es|s)$", "", clause.verb.lower())  # restarting -> restart
    return stem in previous.rest.lower() and bool(_WOULD.match(clause.rest, verb + len(clause.verb)))


def _asked(text: str, previous: Clause | None, clause: Clause) -> bool:
    """Whether the verb of ``clause`` is asked of, not done: a question before it in the clause (payment-service
    是否还有该订单的回调重试), or one the clause goes on from with no break between (例如是否在超时 | 后重试); or it
    describes a noun (提交所用的 refund_request_no)."""
    if clause.lead is not Lead.MUTATE:
        return False
    verb = clause.rest.find(clause.verb)
    if _ASKING.search(clause.rest, 0, max(verb, 0)) or _DESCRIBES.match(clause.rest, verb + len(clause.verb)):
        return True
    if previous is None or previous.aside != clause.aside or previous.lead not in (Lead.ASIDE, Lead.UNKNOWN):
        return False
    return bool(_ASKING.search(previous.rest)) and not _BREAK.search(text, previous.end, clause.start)


def _warned(text: str, command: Command, parts: list[Clause]) -> bool:
    """Whether ``command`` is told of as a danger and then forbidden by a prohibition that refers back to it
    (kubectl rollout restart 会让 Pod 全部重建，高峰期不要用; `redis-cli FLUSHDB` wipes the sessions; do not run it)."""
    if _CONSEQUENCE.match(text, command.end) is None:
        return False
    for clause in parts:
        if clause.lead is Lead.PROHIBIT and clause.start >= command.end:
            act = judge(clause.rest[clause.rest.find(clause.verb) + len(clause.verb) :])
            if act.lead in _ACTS and _REFERS.match(act.rest[len(act.verb) :]):
                return True
    return False


def _prohibited(text: str, command: Command, parts: list[Clause], code_spans: tuple[tuple[int, int], ...]) -> bool:
    """Whether ``command`` is what a prohibition in its clause forbids: the prohibition leads the words before it, with
    nothing but the act of running it in between (不要对 node-5 执行 kubectl drain, 在确认前不要执行 DELETE …, never
    run `kubectl delete pod`); not a command after a colon (Do not wait: run …) or after another verb (不要只看日志而是
    执行 …), nor a list in prose that may go on past the prohibition (do not run X; run Y)."""
    if _LIST.search(command.text) and (command.start, command.end) not in code_spans:
        return False
    clause = next((clause for clause in parts if clause.rest_start <= command.start < clause.end), None)
    if clause is None:
        return False
    for marker in _PROHIBITION.finditer(text, clause.rest_start, command.start):
        before = text[marker.start() : command.start]
        act = judge(text[marker.end() : command.start])
        acting = not act.rest or act.lead in _ACTS or bool(_RUNNING.match(act.rest))  # Don't `X`, 不要执行 …
        if judge(before).lead is Lead.PROHIBIT and not _COLON.search(before) and acting:
            return True
    return False


def _clause_problem(clause: Clause, found: list[Command], policy: ClaimPolicy, referred: str | None) -> str | None:
    lead = clause.lead
    if on_the_inquiry(clause):
        return None
    configured = None if lead is Lead.PROHIBIT else _configured(clause.rest, policy)
    if configured is not None:  # (a prohibition's second act, do not run X or TRUNCATE …, is forbidden too)
        return configured
    if lead is Lead.MUTATE:
        return None if _repeats_a_read(clause) or _TOPIC.fullmatch(clause.rest) else clause.verb
    if lead is Lead.CARRY:
        if _holds_command(clause, found):
            return None
        object_ = clause.rest[len(clause.verb) :]
        if _REFERS.match(object_):  # run it, 在从节点上执行: what it refers to decides
            return referred
        if _uses_to_read(clause):  # 用 … 等关键词只读检索日志, use the metrics to judge whether …
            return None
        if _JOB.search(object_):  # 重新跑一遍对账任务, run the reconciliation job
            return clause.verb
        if names_reading_statement(object_):  # run a read-only SELECT on biz_order again
            return None
        carried = judge(object_, starts_step=True)
        if carried.lead is Lead.INVESTIGATE:
            return None
        if carried.lead is Lead.MUTATE:
            return carried.verb
        return None if _WITH.match(clause.rest) and not clause.starts_step else clause.verb
    if lead in _READING:  # (给研发提供写权限, give the customer a refund: what a look gives may be an act)
        return given_act(clause.rest[max(clause.rest.find(clause.verb), 0) :]) or _after_colon(clause)
    if clause.starts_step and not clause.aside and lead is Lead.UNKNOWN and not _holds_command(clause, found):
        acting = side_effect_word(clause.rest)
        if _tells_a_person(clause.rest):
            return None
        if acting is None and (_OBSERVED.match(clause.rest) or _TOPIC.fullmatch(clause.rest)):
            return None
        if _LIMITATION.match(clause.rest):
            return None
        if acting is None and _nominal(clause.rest, asked=clause.question):
            return None  # anyone know what the lag looks like rn?; - `inventory-svc` 的错误率 (a thing to look at)
        return acting or clause.rest[:40] or clause.text[:40]
    return None


def _repeats_a_read(clause: Clause) -> bool:
    """Whether ``clause`` does a read again (re-run the read-only count, 重新执行只读查询); a job, a batch or a
    migration run again acts (re-run the compensation job)."""
    again = _AGAIN.match(clause.rest)
    if again is None:
        return False
    object_ = _STATE_WORD.sub("", clause.rest[again.end() :])
    return not _JOB.search(object_) and side_effect_word(object_) is None and bool(_READ_ACT.search(object_))


def _uses_to_read(clause: Clause) -> bool:
    """Whether ``clause`` uses a tool to look (用 … 等关键词只读检索日志, use the 500 rate to judge whether …): the look
    after the tool is the step, and nothing in it acts (use the admin API to mark … acts)."""
    tool = _TOOL.match(clause.rest)
    if tool is None:
        return False
    object_ = masked(clause.rest[tool.end() :])
    if side_effect_word(_STATE_WORD.sub("", object_)) is not None:
        return False
    if _CJK.search(object_):
        return _ZH_LOOK.search(object_) is not None
    purpose = _EN_PURPOSE.search(object_)
    return purpose is not None and english_lead_of(purpose["verb"]) == "INVESTIGATE"


def _tells_a_person(rest: str) -> bool:
    """Whether ``rest`` tells a person a fact or nothing named (告知用户, 告知用户已退款): communication, no act."""
    told = _INFORMS.match(rest)
    if told is None:
        return False
    return bool(_TOLD.match(rest.rstrip("。.;； "), told.end()))


def _reads_explicitly(clause: Clause) -> bool:
    """Whether ``clause`` holds an explicit read-only look (请有 … 权限的支付值班只读查询 …) and nothing that acts."""
    plain = _COMPOUND.sub("", _IDENTIFIER.sub("", _STATE_WORD.sub("", clause.rest)))
    return bool(_READ_ONLY_LOOK.search(clause.rest)) and side_effect_word(plain) is None


def _nominal(text: str, *, asked: bool) -> bool:
    """Whether ``text`` only names a thing to look at (`inventory-svc` 的错误率) or, in English, asks without a verb
    that acts. A Chinese clause passes only as a noun phrase headed after 的: a verb this module does not know
    (补跑, 拉到 700, 覆盖回去) must not pass as a noun."""
    if _CJK.search(text):
        return bool(_ZH_NOUN_PHRASE.fullmatch(text.strip())) and verb_after(text) is None and mixed_verb(text) is None
    return asked or not any(english_lead_of(word) for word in re.findall(r"[A-Za-z][a-z-]+", masked(text)))


def _after_colon(clause: Clause) -> str | None:
    """The action a colon leads to inside a step that reads (核对配置差异：max_connections 改回 1000)."""
    colon = _COLON.search(clause.rest)
    if colon is None:
        return None
    told = clause.rest[colon.end() :]
    after = judge(told)
    if _MEANS.match(told) or _PAST.search(told, 0, max(told.find(after.verb), 0)):
        return None
    return after.verb if after.lead is Lead.MUTATE and not on_the_inquiry(after) else None


def _carries_reading(clause: Clause, found: list[Command]) -> bool:
    if clause.lead is not Lead.CARRY:
        return False
    object_ = clause.rest[len(clause.verb) :]
    if _holds_command(clause, found) or names_reading_statement(object_):
        return True
    return judge(object_).lead is Lead.INVESTIGATE or bool(_REFERS.match(object_))


def _holds_command(clause: Clause, found: list[Command]) -> bool:
    return any(clause.start <= command.start < clause.end for command in found)


def _configured(text: str, policy: ClaimPolicy) -> str | None:
    """The operator's side-effect pattern that leads ``text`` (a clause's verb position), if any."""
    found = next((match for pattern in policy.confirmation_patterns if (match := pattern.match(text))), None)
    return found.group() if found is not None else None
