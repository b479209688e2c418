"""``secret_key_value``, part six: credentials a console session shows: a command sent to a server, the output of a
command that reads a secret.

``Redis AUTH``: the command ``AUTH [user] password`` (``AUTH`` in capitals anywhere, ``auth`` at the start of a
line or after a ``>`` prompt): the password, when it looks like a secret (an id's shape, ``Ops.2018``, is one
here).

``decoded output``: the line after a command that prints a secret, when it holds one value and nothing else:
``kubectl``/``oc`` ``get secret`` … ``| base64 -d`` (``--decode``, ``-D``), ``vault kv get``/``vault read`` …
``-field=…``, ``aws secretsmanager get-secret-value``, ``gcloud secrets versions access``.

Examples (before -> after)::

    127.0.0.1:6379> AUTH default Ops.2018               -> 127.0.0.1:6379> AUTH default [REDACTED]
    kubectl get secret db -o jsonpath=… | base64 -d\\nK8s!pw9  -> …\\n[REDACTED]

Not secrets: ``NOAUTH Authentication required``, ``AUTH failed``, ``AUTH OK``; output of more than one word, or a
prompt (``$ …``), on the line after the command.
"""

from __future__ import annotations

from ._base import NOT_DONE, Detector, detector, group, not_placeholder, prose, secretish, value

_REDIS_AUTH = (
    # AUTH default V, 127.0.0.1:6379> AUTH V, auth V at the start of a line
    r"(?=[Aa])(?<![\w-])(?:AUTH|(?:(?<![^\n])|(?<=> ))auth)[ \t]++(?:[\w.@-]{1,64}+[ \t]++)?"
    + not_placeholder(r"\s")
    + secretish("redis_auth", bare=False, ids=True)
)

_PRINTS_A_SECRET = (
    r"(?:(?:kubectl|oc)[ \t][^\n]{0,120}?(?<![\w-])get[ \t]secrets?(?![\w-])[^\n|]{0,300}+\|[ \t]*+base64[ \t]++"
    r"(?:-d|--decode|-D)(?![\w-])"
    r"|vault[ \t]++(?:kv[ \t]++get|read)[ \t][^\n]{0,200}?(?<![\w-])-field=[^\s]{1,64}+"
    r"|aws[ \t]++secretsmanager[ \t]++get-secret-value(?![\w-])"
    r"|gcloud[ \t]++secrets[ \t]versions[ \t]++access(?![\w-]))"
)
_DECODED = (
    # kubectl get secret db -o jsonpath='{.data.password}' | base64 -d, then the password on the next line
    r"(?=[kKoOvVaAgG])(?<![\w-])"
    + _PRINTS_A_SECRET
    + r"[^\n]{0,200}+\n[ \t]*+"
    + NOT_DONE
    + not_placeholder(r"\s")
    + r"(?![$#>%])(?P<decoded>"
    + value(r"\s")
    + r")[ \t]*+(?=\n|$)"
)

DETECTORS: tuple[Detector, ...] = (
    detector("secret_key_value", _REDIS_AUTH, prose("redis_auth"), ("auth ", "auth\t"), 0),
    detector(
        "secret_key_value",
        _DECODED,
        group("decoded"),
        ("get secret", "get\tsecret", "secretsmanager", "secrets versions", "secrets\tversions", "vault"),
        420,
    ),
)
