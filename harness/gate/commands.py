"""Commands and SQL inside a proposal, parsed rather than pattern-matched: is what they run read-only?

A command is found where a known program's name starts a word (``kubectl``, ``helm``, ``redis-cli``, ``mysql``,
``systemctl``, ``curl`` …, in code or in prose) or in a code span; SQL where a statement keyword starts a code span
or a run of ASCII text that sqlglot parses (in prose, up to a word that names statements or the prose after it).
Shell words are split with :mod:`shlex`; a pipeline or a list (``|``, ``&&``, ``;``) is read command by command,
and writing a file (``>``, ``tee``) is a side effect. Each program is judged by its subcommand or method; SQL is
read-only only as SELECT (without a lock: FOR UPDATE, FOR SHARE, LOCK IN SHARE MODE; or INTO), SHOW, DESCRIBE or
EXPLAIN (EXPLAIN ANALYZE only of such a SELECT). A command that cannot be read is not read-only.
"""

from __future__ import annotations

import logging
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from harness.gate.programs import PROGRAMS, prose_command, read_only_invocation

logging.getLogger("sqlglot").setLevel(logging.ERROR)

_PROGRAM_NAMES = "|".join(sorted(map(re.escape, PROGRAMS), key=len, reverse=True))
_PROGRAM = re.compile(rf"(?<![\w./-])(?:{_PROGRAM_NAMES})(?:\.sh)?(?![\w-])")
_SQL_START = re.compile(
    r"(?<![\w.])(?:SELECT|UPDATE|DELETE|INSERT|REPLACE|ALTER|DROP|CREATE|TRUNCATE|GRANT|REVOKE|KILL|SET|FLUSH|OPTIMIZE"
    r"|RENAME|LOCK|UNLOCK|CALL|ANALYZE|REPAIR|START\s+TRANSACTION|BEGIN|COMMIT|ROLLBACK|SHOW|EXPLAIN|DESCRIBE|DESC|PURGE|RESET"
    r"|WITH(?=\s+\w+\s+AS\s*\())\b"
)
_PROSE_ONLY = re.compile(
    r"(?:DROP|ALTER|CREATE|TRUNCATE|UPDATE|DELETE|INSERT|REPLACE|SELECT|SHOW|EXPLAIN|DESCRIBE|DESC|WITH|RENAME|SET)$",
    re.I,
)
"""Statements sqlglot parses in full when they are SQL: in prose, one it cannot parse is words that name it."""
_NAMING_NOUN = re.compile(r"(?:statements?|quer(?:y|ies)|commands?)[.,;:)]?")
"""A word after a statement in prose that names statements of its kind (the slow UPDATE biz_order statements)."""
_SQL_WORDS = frozenset(
    re.findall(
        r"\w+",
        "and or not in is null like between as on by from where select limit offset order group asc desc set values "
        "into join left right inner outer cross for update share mode lock with distinct having union all case when "
        "then else end exists interval day hour minute second if default nowait skip locked",
    )
)
"""Lower-case words a statement may hold: prose after a statement is read where two words that are none of these
follow each other."""
_TERMINATOR = re.compile(r"\s*(?:\\[Gg]|;)\s*$")
"""The mysql client's ``\\G`` (vertical output) or a final ``;``: how the statement ends, not part of it."""
_ASCII_RUN = re.compile(r"[\x20-\x7e]+")
_SHELL_BREAK = {"|", "||", "&&", ";", "&"}
_READ_SQL = (exp.Select, exp.Show, exp.Describe)
_ACTING_FUNCTIONS = frozenset(
    [
        "pg_terminate_backend",
        "pg_cancel_backend",
        "pg_reload_conf",
        "pg_rotate_logfile",
        "pg_switch_wal",
        "pg_promote",
        "pg_create_restore_point",
        "pg_advisory_lock",
        "pg_advisory_xact_lock",
        "pg_try_advisory_lock",
        "pg_advisory_unlock",
        "pg_advisory_unlock_all",
        "pg_stat_reset",
        "pg_stat_statements_reset",
        "pg_drop_replication_slot",
        "pg_create_logical_replication_slot",
        "pg_create_physical_replication_slot",
        "pg_wal_replay_pause",
        "pg_wal_replay_resume",
        "pg_replication_origin_advance",
        "set_config",
        "setval",
        "nextval",
        "lo_unlink",
        "lo_import",
        "lo_export",
        "dblink_exec",
        "get_lock",
        "release_lock",
        "release_all_locks",
        "sys_exec",
        "sys_eval",
    ]
)
"""Functions a SELECT can call that act (SELECT pg_terminate_backend(pid) …, SELECT setval(…)): not read-only."""


_READING_KIND = re.compile(
    r"^\s*(?:(?i:a|an|the|one|another|this|that|same|some|two|these|those|一条|一次|一个|这条|该|同样的)\s*)*"
    r"(?:(?i:read-only|read only|plain|simple|quick|non-locking|consistent|只读的?|简单的?)\s*)*"
    r"(?:SELECT|SHOW|EXPLAIN|DESCRIBE|DESC)(?:s|es)?(?![\w(])"
)
_LOCK_OR_INTO = re.compile(
    r"(?<!\w)(?:INTO|FOR\s+UPDATE|FOR\s+SHARE|LOCK\s+IN\s+SHARE\s+MODE)(?!\w)|加锁|锁定|锁住", re.IGNORECASE
)


def names_reading_statement(text: str) -> bool:
    """Whether ``text`` (what a verb that runs is given) names a statement by a kind that only reads (a read-only
    SELECT on biz_order, 一次只读 SELECT, SHOW PROCESSLIST), with nothing that locks or writes (FOR UPDATE, INTO)."""
    return bool(_READING_KIND.match(text)) and _LOCK_OR_INTO.search(text) is None


@dataclass(frozen=True)
class Command:
    """A command or statement found in a text: where, what, and whether it only reads."""

    start: int
    end: int
    text: str
    read_only: bool


def commands(text: str, code_spans: tuple[tuple[int, int], ...] = ()) -> list[Command]:
    """Every command and SQL statement of ``text`` (a normal form), in order, without overlaps."""
    found: list[Command] = []
    for start, end in code_spans:
        code = text[start:end].strip()
        if code:
            verdict = _judge(code, in_code=True)
            if verdict is not None:
                found.append(Command(start, end, code, verdict))
    for start, end in _prose_candidates(text):
        if any(a <= start < b for a, b, *_ in ((c.start, c.end) for c in found)):
            continue
        candidate = text[start:end].rstrip(" .,;:)")
        verdict = _judge(candidate, in_code=False)
        if verdict is not None:
            found.append(Command(start, start + len(candidate), candidate, verdict))
    return sorted(found, key=lambda command: command.start)


def holds_sql(text: str, code_spans: tuple[tuple[int, int], ...] = ()) -> bool:
    """Whether ``text`` (a normal form) holds an SQL statement, in code or in prose."""
    starts = [match.start() for match in _SQL_START.finditer(text)]
    starts += [start for start, end in code_spans if _SQL_START.match(text[start:end].lstrip().upper())]
    for start in starts:
        run = _ASCII_RUN.match(text, start)
        if run is not None and sql_read_only(run.group().rstrip(" .,;:)")) is not None:
            return True
    return False


def _prose_candidates(text: str) -> Iterator[tuple[int, int]]:
    for pattern in (_PROGRAM, _SQL_START):
        for match in pattern.finditer(text):
            run = _ASCII_RUN.match(text, match.start())
            if run is None:
                continue
            sql = pattern is _SQL_START
            yield match.start(), _statement_end(text, match.start(), run.end()) if sql else run.end()


def _statement_end(text: str, start: int, end: int) -> int:
    """Where a statement written in prose ends: before a word that names statements (the UPDATE biz_order
    statements) or before the prose that goes on after it (… FOR UPDATE returns the row, … to remove the duplicate):
    two plain lower-case words that are no SQL, with the lower-case words just before them."""
    words = [(word.start(), word.group()) for word in re.finditer(r"\S+", text[start:end])]
    outside = [text.count("'", start, start + at) % 2 == 0 for at, _ in words]
    for index in range(1, len(words)):
        at, word = words[index]
        if not outside[index]:
            continue
        if _NAMING_NOUN.fullmatch(word):
            return start + at
        if index + 1 < len(words) and outside[index + 1] and _prose_word(word) and _prose_word(words[index + 1][1]):
            while index > 1 and outside[index - 1] and re.fullmatch(r"[a-z]+", words[index - 1][1]):
                index -= 1
            return start + words[index][0]
    return end


def _prose_word(word: str) -> bool:
    return bool(re.fullmatch(r"[a-z]+", word)) and word not in _SQL_WORDS


def _judge(text: str, *, in_code: bool) -> bool | None:
    """True: read-only; False: a side effect (or unreadable); None: not a command at all."""
    if _SQL_START.match(text.lstrip().upper() if in_code else text.lstrip()):
        verdict = sql_read_only(text, prose=not in_code)
        if verdict is not None:
            return verdict
    words = _shell_words(text)
    program = _program(words[0]) if words else None
    if program is None:
        return None
    if not in_code and not prose_command(program, words[1] if len(words) > 1 else None):
        return None  # a program named in prose ("用 redis-cli 查看", "the helm chart"): the prose decides
    return all(_simple_read_only(simple) for simple in _simple_commands(words))


def sql_read_only(text: str, *, prose: bool = False) -> bool | None:
    """Whether ``text`` is read-only SQL (SELECT without FOR UPDATE or INTO, SHOW, DESCRIBE, EXPLAIN); None when it
    is not SQL sqlglot can read. Anything else it parses, a statement it only keeps as a command (CALL, OPTIMIZE)
    and ``FLUSH PRIVILEGES`` (read as an alias) included, is a side effect."""
    text = _TERMINATOR.sub("", text)
    try:
        statements = [statement for statement in sqlglot.parse(text, read="mysql") if statement is not None]
    except (SqlglotError, RecursionError, ValueError):
        return None
    if not statements:
        return None
    if prose and any(
        _PROSE_ONLY.match(statement.name or "") for statement in statements if type(statement) is exp.Command
    ):
        return None  # the TRUNCATE/DROP audit trail: words that sqlglot only keeps as a command, not a statement
    return all(_reads(statement, text) for statement in statements)


def _reads(statement: exp.Expression, text: str) -> bool:
    if isinstance(statement, exp.Describe):  # EXPLAIN shows a plan; EXPLAIN ANALYZE runs the statement it explains
        analyzed = re.search(r"\bANALYZE\b", text, re.IGNORECASE)
        return not analyzed or (isinstance(statement.this, exp.Select) and _reads(statement.this, text))
    if any(function.name.lower() in _ACTING_FUNCTIONS for function in statement.find_all(exp.Anonymous)):
        return False
    return isinstance(statement, _READ_SQL) and statement.find(exp.Lock, exp.Into) is None


def _shell_words(text: str) -> list[str]:
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars="|&;<>")
        lexer.whitespace_split = True
        lexer.commenters = ""
        return list(lexer)
    except ValueError:  # unbalanced quotes: read it word by word
        return text.split()


def _simple_commands(words: list[str]) -> Iterator[list[str]]:
    current: list[str] = []
    for word in words:
        if word in _SHELL_BREAK:
            if current:
                yield current
            current = []
        else:
            current.append(word)
    if current:
        yield current


def _program(word: str) -> str | None:
    name = word.rsplit("/", 1)[-1].lower().removesuffix(".sh")
    return name if name in PROGRAMS else None


def _simple_read_only(words: list[str]) -> bool:
    while words and (re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0]) or words[0] in ("sudo", "nohup")):
        words = words[1:]
    if not words:
        return True
    if any(word in (">", ">>") for word in words):
        redirect = words[words.index(">") + 1 if ">" in words else words.index(">>") + 1 :]
        if not redirect or redirect[0] != "/dev/null":
            return False
    program = _program(words[0])
    if program is None:
        return False
    return read_only_invocation(program, words[1:], sql_read_only)
