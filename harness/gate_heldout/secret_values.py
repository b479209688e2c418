"""Seeded fake credentials in each provider's real shape, and the look-alike identifiers that must not match.

Nothing here is a real credential: every value is drawn from the case's seeded generator at render time, so the
source holds only formats, never a token.
"""

from __future__ import annotations

import base64
import json
import random
import uuid
from collections.abc import Callable

from .cases import Filler, Lookup

LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = LOWER.upper()
DIGITS = "0123456789"
ALNUM = LOWER + UPPER + DIGITS
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"


def draw(rng: random.Random, alphabet: str, size: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(size))


def password(rng: random.Random, symbols: str = "!%*_-.") -> str:
    """A pasted password: mixed case, digits, a symbol or two, 12 to 20 characters, never a plain word."""
    body = [rng.choice(UPPER), rng.choice(LOWER), rng.choice(DIGITS), rng.choice(symbols)]
    body += [rng.choice(ALNUM + symbols) for _ in range(rng.randrange(8, 17))]
    rng.shuffle(body)
    return rng.choice(ALNUM) + "".join(body)


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(["HS256", "RS256"]), "typ": "JWT"}
    issued = 1717000000 + rng.randrange(10_000_000)
    claims = {
        "sub": f"u{rng.randrange(10**6, 10**7)}",
        "role": rng.choice(["ops", "admin", "svc"]),
        "iat": issued,
        "exp": issued + 3600,
    }
    parts = [_b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, claims)]
    return ".".join([*parts, draw(rng, URLSAFE, 43)])


def _pem_lines(rng: random.Random, lead: str, lines: int) -> str:
    body = lead + draw(rng, B64, 64 * lines - len(lead))
    return "\n".join(body[start : start + 64] for start in range(0, len(body), 64))


def private_key(rng: random.Random) -> str:
    kind, lead = rng.choice(
        [
            ("RSA PRIVATE KEY", "MIIEpAIBAAKCAQEA"),
            ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAA"),
            ("PRIVATE KEY", "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC"),
            ("EC PRIVATE KEY", "MHcCAQEEI"),
        ]
    )
    return f"-----BEGIN {kind}-----\n{_pem_lines(rng, lead, 6)}\n-----END {kind}-----"


def _fixed(make: Callable[[random.Random], str]) -> Filler:
    return lambda rng, _get: make(rng)


def _basic(rng: random.Random, _get: Lookup) -> str:
    user = rng.choice(["admin", "ops", "svc-monitor", "deploy"])
    return base64.b64encode(f"{user}:{password(rng, '!*_-')}".encode()).decode()


def _b64pw(rng: random.Random, _get: Lookup) -> str:
    return base64.b64encode(password(rng, "!*_-.").encode()).decode()


def _uuid(rng: random.Random, _get: Lookup) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


SECRET_FILLERS: dict[str, Filler] = {
    "pw": _fixed(password),
    "upw": lambda rng, _get: password(rng, "-_."),
    "b64pw": _b64pw,
    "basic": _basic,
    "hexsecret": lambda rng, _get: draw(rng, HEX, 32),
    "sess": lambda rng, _get: draw(rng, URLSAFE, 40),
    "jsid": lambda rng, _get: draw(rng, "0123456789ABCDEF", 32),
    "ghp": lambda rng, _get: "ghp_" + draw(rng, ALNUM, 36),
    "ghpat": lambda rng, _get: f"github_pat_11{draw(rng, UPPER + DIGITS, 20)}_{draw(rng, ALNUM, 59)}",
    "glpat": lambda rng, _get: "glpat-" + draw(rng, URLSAFE, 20),
    "xoxb": lambda rng, _get: f"xoxb-{draw(rng, DIGITS, 12)}-{draw(rng, DIGITS, 13)}-{draw(rng, ALNUM, 24)}",
    "slackhook": lambda rng, _get: (
        f"T{draw(rng, UPPER + DIGITS, 10)}/B{draw(rng, UPPER + DIGITS, 10)}/" + draw(rng, ALNUM, 24)
    ),
    "oai": lambda rng, _get: "sk-proj-" + draw(rng, URLSAFE, 120),
    "ant": lambda rng, _get: "sk-ant-api03-" + draw(rng, URLSAFE, 93) + "AA",
    "stripe": lambda rng, _get: "sk_live_51" + draw(rng, ALNUM, 96),
    "rk": lambda rng, _get: "rk_live_51" + draw(rng, ALNUM, 96),
    "gkey": lambda rng, _get: "AIza" + draw(rng, URLSAFE, 35),
    "akia": lambda rng, _get: "AKIA" + draw(rng, UPPER + "234567", 16),
    "awssec": lambda rng, _get: draw(rng, B64, 40),
    "ltai": lambda rng, _get: "LTAI5t" + draw(rng, ALNUM, 18),
    "alisec": lambda rng, _get: draw(rng, ALNUM, 30),
    "akid": lambda rng, _get: "AKID" + draw(rng, ALNUM, 32),
    "tcsec": lambda rng, _get: draw(rng, ALNUM, 32),
    "npm": lambda rng, _get: "npm_" + draw(rng, ALNUM, 36),
    "pypi": lambda rng, _get: "pypi-AgEIcHlwaS5vcmc" + draw(rng, URLSAFE, 120),
    "dckr": lambda rng, _get: "dckr_pat_" + draw(rng, URLSAFE, 27),
    "hf": lambda rng, _get: "hf_" + draw(rng, LOWER + UPPER, 34),
    "sg": lambda rng, _get: f"SG.{draw(rng, URLSAFE, 22)}.{draw(rng, URLSAFE, 43)}",
    "hvs": lambda rng, _get: "hvs." + draw(rng, URLSAFE, 90),
    "glsa": lambda rng, _get: f"glsa_{draw(rng, ALNUM, 32)}_{draw(rng, HEX, 8)}",
    "jwt": _fixed(jwt),
    "privkey": _fixed(private_key),
}

LOOKALIKE_FILLERS: dict[str, Filler] = {
    "sha256": lambda rng, _get: draw(rng, HEX, 64),
    "sha256b": lambda rng, _get: draw(rng, HEX, 64),
    "sha1": lambda rng, _get: draw(rng, HEX, 40),
    "sha7": lambda rng, _get: draw(rng, HEX, 7),
    "sha7b": lambda rng, _get: draw(rng, HEX, 7),
    "md5": lambda rng, _get: draw(rng, HEX, 32),
    "trace": lambda rng, _get: draw(rng, HEX, 32),
    "span": lambda rng, _get: draw(rng, HEX, 16),
    "uuid": _uuid,
    "order": lambda rng, _get: f"{rng.choice(['SO', 'ORD', 'P'])}{rng.randrange(2024, 2026)}{draw(rng, DIGITS, 14)}",
    "payno": lambda rng, _get: f"4200{draw(rng, DIGITS, 24)}",
    "refundno": lambda rng, _get: f"RF{draw(rng, DIGITS, 18)}",
    "pi": lambda rng, _get: "pi_3" + draw(rng, ALNUM, 23),
    "email": lambda rng, _get: (
        f"{rng.choice(['zhang.wei', 'li.na', 'oncall-sre', 'j.chen', 'dba-team'])}@"
        + rng.choice(["superbiz.com", "corp.superbiz.cn", "example-mall.com"])
    ),
    "dashuid": lambda rng, _get: draw(rng, ALNUM, 9),
    "sshpub": lambda rng, _get: "AAAAC3NzaC1lZDI1NTE5AAAAI" + draw(rng, B64, 43),
    "certbody": lambda rng, _get: _pem_lines(rng, "MIIDdzCCAl+gAwIBAgIE", 5),
}
