"""Fake credential values in published provider shapes, and the ids and hashes that merely look like them.

Everything is drawn from a seeded ``random.Random``; none of these values was ever a real credential.
"""

from __future__ import annotations

import base64
import json
import random
import string

from .render import Maker

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
URL_SAFE = ALNUM + "-_"
_WORDS = ("Superbiz", "Order", "Paycore", "Dragon", "Summer", "Winter", "Redis", "Mall", "Tiger", "Ops")
_SYMBOLS = "!_-.~"


def _chars(alphabet: str, length: int) -> Maker:
    return lambda rng: "".join(rng.choice(alphabet) for _ in range(length))


def password(rng: random.Random) -> str:
    """A password people or generators actually pick: word-symbol-year, or 11-17 mixed characters led by a letter."""
    if rng.random() < 0.45:
        word = rng.choice(_WORDS)
        return f"{word}{rng.choice(_SYMBOLS)}{rng.randint(2018, 2026)}{rng.choice(('', 'x', 'Q', '!1'))}"
    body = [rng.choice(string.ascii_uppercase), rng.choice(string.ascii_lowercase), rng.choice(string.digits)]
    body += [rng.choice(ALNUM + _SYMBOLS) for _ in range(rng.randint(7, 13))]
    rng.shuffle(body)
    return rng.choice(string.ascii_letters) + "".join(body)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def jwt(rng: random.Random) -> str:
    header = _b64url(json.dumps({"alg": rng.choice(("HS256", "RS256")), "typ": "JWT"}).encode())
    claims = {"sub": str(rng.randint(10000, 9999999)), "iat": rng.randint(1700000000, 1760000000), "scope": "ops"}
    return f"{header}.{_b64url(json.dumps(claims).encode())}.{_b64url(rng.randbytes(32))}"


def pem(rng: random.Random) -> str:
    kind = rng.choice(("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY"))
    body = _b64(rng.randbytes(48 * rng.randint(3, 5)))
    lines = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {kind}-----", *lines, f"-----END {kind}-----"])


def _uuid(rng: random.Random) -> str:
    digits = "".join(rng.choice(HEX) for _ in range(32))
    digits = digits[:12] + "4" + digits[13:16] + rng.choice("89ab") + digits[17:]
    return f"{digits[:8]}-{digits[8:12]}-{digits[12:16]}-{digits[16:20]}-{digits[20:]}"


def _basic(rng: random.Random) -> str:
    return _b64(f"{rng.choice(('ops', 'admin', 'svc_pay', 'grafana'))}:{password(rng)}".encode())


def _request_id(rng: random.Random) -> str:
    style = rng.randint(0, 2)
    if style == 0:
        return "req-" + "".join(rng.choice(string.ascii_lowercase + string.digits) for _ in range(12))
    if style == 1:
        return _uuid(rng)
    return "".join(rng.choice(HEX) for _ in range(16))


def _b64_id(rng: random.Random) -> str:
    return _b64(f"{rng.choice(('order', 'sku', 'shipment'))}:{rng.randint(10**8, 10**9)}".encode())


CREDENTIAL_MAKERS: dict[str, Maker] = {
    "pw": password,
    "b64pw": lambda rng: _b64(password(rng).encode()),
    "b64secret": lambda rng: _b64(rng.randbytes(rng.choice((24, 30, 32)))),
    "basic": _basic,
    "jwt": jwt,
    "pem": pem,
    "hexkey": _chars(HEX, 32),
    "alnum32": _chars(ALNUM, 32),
    "alnum40": _chars(ALNUM, 40),
    "alnum48": _chars(ALNUM, 48),
    "ghp": lambda rng: "ghp_" + _chars(ALNUM, 36)(rng),
    "ghpat": lambda rng: (
        "github_pat_11" + _chars(string.ascii_uppercase + string.digits, 20)(rng) + "_" + _chars(ALNUM, 59)(rng)
    ),
    "glpat": lambda rng: "glpat-" + _chars(URL_SAFE, 20)(rng),
    "xoxb": lambda rng: f"xoxb-{rng.randint(10**10, 10**11)}-{rng.randint(10**12, 10**13)}-" + _chars(ALNUM, 24)(rng),
    "xoxp": lambda rng: (
        f"xoxp-{rng.randint(10**10, 10**11)}-{rng.randint(10**10, 10**11)}-"
        + f"{rng.randint(10**11, 10**12)}-"
        + _chars(HEX, 32)(rng)
    ),
    "sk": lambda rng: "sk-" + _chars(ALNUM, 48)(rng),
    "skproj": lambda rng: "sk-proj-" + _chars(URL_SAFE, 64)(rng),
    "skant": lambda rng: "sk-ant-api03-" + _chars(URL_SAFE, 86)(rng) + "AA",
    "sklive": lambda rng: "sk_live_51" + _chars(ALNUM, 44)(rng),
    "rklive": lambda rng: "rk_live_51" + _chars(ALNUM, 44)(rng),
    "aiza": lambda rng: "AIza" + _chars(URL_SAFE, 35)(rng),
    "akia": lambda rng: "AKIA" + _chars(string.ascii_uppercase + "234567", 16)(rng),
    "awssecret": _chars(ALNUM + "/+", 40),
    "ltai": lambda rng: "LTAI5t" + _chars(ALNUM, 18)(rng),
    "alisecret": _chars(ALNUM, 30),
}

LOOKALIKE_MAKERS: dict[str, Maker] = {
    "sha40": _chars(HEX, 40),
    "sha7": _chars(HEX, 7),
    "hex64": _chars(HEX, 64),
    "md5": _chars(HEX, 32),
    "hex32": _chars(HEX, 32),
    "trace": _chars(HEX, 32),
    "span": _chars(HEX, 16),
    "uuid": _uuid,
    "reqid": _request_id,
    "b64id": _b64_id,
    "alnum8": _chars(ALNUM, 8),
    "mongo": _chars(string.ascii_lowercase + string.digits, 5),
}
