"""One table of secret rules, used to redact free text and to find secrets in an answer before it is released.

``redact(text)`` replaces the *value* of each secret with ``[REDACTED]`` and keeps what is around it, so a log
line stays readable as evidence. ``secret_kinds(text)`` names the rules that find a secret in ``text``. A value
already ``[REDACTED]`` is not a secret, so ``redact`` is idempotent and ``secret_kinds(redact(text)[0]) == ()``.

Both read a text through its normal form (:mod:`contract.normal_form`): invisible characters gone, NFKC,
confusables folded, entities decoded, tags and markdown as plain text. A secret hidden by a zero-width space
(``pass\\u200bword=x``), written in full-width (``ｐａｓｓｗｏｒｄ＝x``) or Cyrillic letters (``pаssword=x``), in
emphasis or a code span (``**Password**: `x` ``), in an element (``<password>x</password>``) or a table cell is
found in the normal form; ``redact`` maps it back to where it came from (``NormalForm.source_span``) and replaces
it there, so the user sees the text as written with only the secret replaced (``ｐａｓｓｗｏｒｄ＝[REDACTED]``).

The rules, in the order ``redact`` applies them (name: what it catches, one example before -> after; each module
lists its shapes and examples in full, and what it leaves alone):

``private_key`` (:mod:`.web`): a PEM private key block::

    key=-----BEGIN RSA PRIVATE KEY-----\\nMIIE…\\n-----END RSA PRIVATE KEY----- ok  -> key=[REDACTED] ok

``url_userinfo`` (:mod:`.web`): the user-info of any URL, ``user:password@host`` without a scheme, Go's MySQL DSN
``user:pass@tcp(…)``, Oracle's ``user/pass`` in ``jdbc:oracle:thin:``, ``sqlplus`` and ``connect``::

    jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db    -> jdbc:mysql://[REDACTED]@db-1:3306/order_db

``authorization_header`` (:mod:`.web`): ``Authorization``/``Proxy-Authorization`` values (the scheme kept), the
session and credential values of a ``Cookie:`` header (not ``lang``, ``theme`` or ``_ga``), and of ``Set-Cookie:``::

    Cookie: sid=8f3kQ2; theme=dark                      -> Cookie: sid=[REDACTED]; theme=dark
    Cookie: sid="8f3kQ2"                                -> Cookie: sid="[REDACTED]"

``bearer_token`` (:mod:`.web`): bare ``Bearer`` tokens, and after ``Bearer token``/``Bearer 令牌``::

    calling upstream with Bearer mF_9.B5f-4.1JqM        -> calling upstream with Bearer [REDACTED]

``jwt`` (:mod:`.web`): JWTs anywhere, and a JWT payload quoted on its own::

    session eyJhbGciOi….eyJzdWIiOi….SflKxw ok          -> session [REDACTED] ok

``cloud_access_key`` (:mod:`.tokens`): the published token shapes of the major providers (AWS, Alibaba, Tencent,
Google, GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe, npm, PyPI, Docker Hub, Hugging Face, SendGrid, Vault,
Twilio, Shopify, DigitalOcean, Databricks, Grafana, New Relic, Atlassian, Linear, Postman, Telegram) anywhere, and
the AWS secret access key on its own or after its name::

    key ASIAY34FZKBOKMUTVV7A used                       -> key [REDACTED] used

``secret_key_value`` (:mod:`.keys`, :mod:`.prose`, :mod:`.weak_values`, :mod:`.value_lines`, :mod:`.sql`,
:mod:`.config_files`, :mod:`.consoles`, :mod:`.flags`): a value after a key, label, flag or verb naming a
credential, whatever its characters (letters only, digits only, words: :mod:`.value_judge` tells a value from words
about it), in any syntax (``key=value``, ``"key": "value"``, markdown, XML elements and ``key=… value=…``
attributes, table cells and rows whose first cell names the credential, HTML tables, connection strings, Chinese
labels, English prose ``the X password is V``, ``changed the X password to V``, ``the API key for X (V)``, the line
below a label, a YAML block scalar); what SQL
sets or stores (``IDENTIFIED BY 'V'``, ``SET PASSWORD … = 'V'``, the ``VALUES`` of a credential column) or returns
for a credential key; configuration files whose keys name none (``requirepass V``, ``.netrc``, ``.pgpass``, the
``data:`` of a Kubernetes Secret); a console's Redis ``AUTH`` and the output of a command that prints a secret; and
a credential given to a command line (``--password V``, ``mysql -pV``, ``sshpass -p V``, ``redis-cli -a V``,
``rabbitmqadmin -u u -p V``, ``curl -u user:V`` …)::

    ?user=ops&password=Passw0rd!23&next=/               -> ?user=ops&password=[REDACTED]&next=/
    账号 app 的数据库密码 Sup3rS3cret 是否已轮换         -> 账号 app 的数据库密码 [REDACTED] 是否已轮换
    复现用的只读账号密码是 mellowkangarootrek            -> 复现用的只读账号密码是 [REDACTED]
    CREATE USER 'report'@'%' IDENTIFIED BY 'R3port!x';  -> CREATE USER 'report'@'%' IDENTIFIED BY '[REDACTED]';

``one_time_code`` (:mod:`.codes`): OTP and verification codes after a key or a label::

    您的验证码是 482913，5 分钟内有效                    -> 您的验证码是 [REDACTED]，5 分钟内有效

Not secrets, under every rule: digests (sha256, sha1, md5), commit ids, trace and span ids, UUIDs, order, payment
and request ids (``order-123``), image digests (``nginx:1.25@sha256:…``), e-mail addresses, URLs without
credentials or with a user only (``ssh://git@host``), masked values (``password: ******``, ``api_key=sk-****``,
``[REDACTED]``, ``token: 已脱敏``), references and templates (``${DB_PASSWORD}``, ``${vault:secret/db#password}``,
``var.db_password``, ``Bearer $TOKEN``, ``<base64(user:password)>``), what says where a secret is or what it is
(``stored in Vault``, ``password: string``, ``password: 24 bytes``, ``existingSecret: redis``), key names with no
value, and words about credentials (``password reset requested 3 times``, ``token expired``, ``Bearer token
missing``); the ``lang``, ``theme`` or ``_ga`` of a cookie.

Every pattern is linear in the input: it can start only at the beginning of a token (a look-behind rules out the
positions inside it) or at a fixed word, and no quantified part can fail after scanning far (values are
possessive; a look-ahead that scans stays inside one token, or is bounded; a run of arguments or cookies is
bounded), so adversarial input cannot make a pattern backtrack quadratically. Each pattern opens with a
look-ahead for its possible first characters, which lets the regex engine skip the other positions fast. Each
detector also lists words one of which every match holds (its triggers): one scan of the casefolded normal form
for their stems (fewer, shorter words, a regex built as a trie) finds whether any is there, and most log lines run
no rule; only then are the trigger words themselves found, and each detector that holds one scans from its
first trigger word on, less how far into a match that word can lie (its ``lead``). A detector whose matches can
hold no trigger word (the bare AWS secret key, a ``.pgpass`` line) names a cheap pattern every such match holds (a
run of 40 base64 characters, ``:5432:db:user:``) instead, searched only in a text that holds the character it
opens with.

``redact`` runs the detectors in rule order, each on the normal form of the text as the detectors before it left
it; when one replaced something, every detector that was triggered and has not seen the text as it is now looks
again (a replacement can uncover a secret that overlapped another, or change a word boundary or close a tag),
at most four times.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from contract.normal_form import NormalForm, normal_form

from . import codes, config_files, consoles, flags, keys, prose, sql, tokens, value_lines, weak_values, web
from ._base import REDACTED, Detector
from ._source import source_spans
from ._triggers import Triggers

__all__ = ["KINDS", "REDACTED", "RULES", "SecretRule", "redact", "secret_kinds"]

KINDS = (
    "private_key",
    "url_userinfo",
    "authorization_header",
    "bearer_token",
    "jwt",
    "cloud_access_key",
    "secret_key_value",
    "one_time_code",
)
"""Every kind of secret ``secret_kinds`` reports, in the order ``redact`` applies its rule."""

_DETECTORS: tuple[Detector, ...] = tuple(
    sorted(
        (
            *web.DETECTORS,
            *tokens.DETECTORS,
            *keys.DETECTORS,
            *prose.DETECTORS,
            *weak_values.DETECTORS,
            *value_lines.DETECTORS,
            *sql.DETECTORS,
            *config_files.DETECTORS,
            *consoles.DETECTORS,
            *flags.DETECTORS,
            *codes.DETECTORS,
        ),
        key=lambda found: KINDS.index(found.kind),
    )
)


@dataclass(frozen=True)
class SecretRule:
    """One kind of secret: the detectors that find it."""

    name: str
    """Stable snake_case kind, reported by ``secret_kinds`` and listed by the release gate."""
    detectors: tuple[Detector, ...]
    pattern: re.Pattern[str]
    """Any of the detectors' patterns: what the rule finds in a normal form, every match a secret."""


RULES: tuple[SecretRule, ...] = tuple(
    SecretRule(
        kind,
        found := tuple(each for each in _DETECTORS if each.kind == kind),
        re.compile("|".join(f"(?:{each.pattern.pattern})" for each in found)),
    )
    for kind in KINDS
)
"""Every kind of secret, in the order ``redact`` applies them."""

_TRIGGERS = Triggers(_DETECTORS)


_MAX_PASSES = 4
"""A detector that replaced something runs again, since one of its matches can hide another that overlaps it
(``mysql … -pX`` around ``\\"password\\": \\"…``) and a redacted text must be clean. Two passes are the most seen."""


def _splice(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with each of ``spans`` (in order, not overlapping) replaced by ``[REDACTED]``."""
    pieces: list[str] = []
    last = 0
    for start, end in spans:
        pieces += (text[last:start], REDACTED)
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


def _shifted(at: int, spans: list[tuple[int, int]]) -> int:
    """Where position ``at`` of a text is once ``spans`` of it are ``[REDACTED]`` (the start of one it was in)."""
    delta = 0
    for start, end in spans:
        if end <= at:
            delta += len(REDACTED) - (end - start)
        elif start < at:
            return start + delta
        else:
            break
    return at + delta


def _finds(detector: Detector, text: str, at: int = 0) -> bool:
    """Whether ``detector`` finds a secret (a match with something to replace) in ``text`` from ``at`` on."""
    first = detector.pattern.search(text, at)
    if first is None:
        return False
    matches = itertools.chain((first,), detector.pattern.finditer(text, first.end()))
    return any(start < end for match in matches for start, end in detector.spans(match))


def redact(text: str) -> tuple[str, bool]:
    """``text`` with every secret value replaced by ``[REDACTED]`` (context kept), and whether anything changed.

    A secret is found in the normal form of ``text`` and replaced where it came from in ``text``, whose other
    characters stay as they are. Idempotent: redacting a redacted text changes nothing and reports ``False``.
    """
    form = normal_form(text)
    starts = _TRIGGERS.detectors_for(form.text)
    if not starts:
        return text, False
    detectors = list(starts)
    changed = False
    for _ in range(_MAX_PASSES):
        clean: list[int] = []
        """The detectors that found nothing in the text as it is now."""
        for index in detectors:
            each = _DETECTORS[index]
            spans = [span for match in each.pattern.finditer(form.text, starts[index]) for span in each.spans(match)]
            mapped = source_spans(form, text, spans) if spans else []
            spliced = _splice(text, mapped) if mapped else text
            if spliced == text:
                clean.append(index)
                continue
            spliced_form = normal_form(spliced)
            # positions of the normal form move with the replacements when both forms are the text itself
            plain = form.origin is None and spliced_form.origin is None
            starts = {key: _shifted(at, mapped) if plain else 0 for key, at in starts.items()}
            text, form, clean = spliced, spliced_form, []
        if len(clean) == len(detectors):
            break
        # a replacement can change what another detector sees (a tag closes, a word boundary appears)
        changed = True
        detectors = [
            index for index in starts if index not in clean and _finds(_DETECTORS[index], form.text, starts[index])
        ]
    return text, changed


def secret_kinds(text: str) -> tuple[str, ...]:
    """The names of the rules that find a secret in the normal form of ``text`` (once each, in rule order);
    ``()`` when none does.

    An already redacted value (``[REDACTED]``) is not a secret, nor is a find that ``redact`` would replace by
    what is already there (a value the normal form joins to a redacted one, such as a quote left open in one
    table cell running into the next, redacted cell).
    """
    form = normal_form(text)
    found = {
        _DETECTORS[index].kind
        for index, at in _TRIGGERS.detectors_for(form.text).items()
        if _finds(_DETECTORS[index], form.text, at) and _would_change(_DETECTORS[index], form, text, at)
    }
    return tuple(kind for kind in KINDS if kind in found)


def _would_change(detector: Detector, form: NormalForm, text: str, at: int) -> bool:
    """Whether ``redact`` would change ``text`` for what ``detector`` finds in its normal form from ``at`` on."""
    spans = [span for match in detector.pattern.finditer(form.text, at) for span in detector.spans(match)]
    mapped = source_spans(form, text, spans) if spans else []
    return bool(mapped) and _splice(text, mapped) != text
