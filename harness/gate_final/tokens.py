"""Value generators for the secret corpus: fake credentials in each provider's real shape, and the look-alikes
(hashes, ids, digests, certificates) that must pass. Every value is random per seed; none is a real credential.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid

from .case import GENERATORS, POOLS, Generator

ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "-_"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"
WORDS = ("Ledger", "Settle", "Coupon", "Risk", "Sb", "Prod", "Zhang", "Wallet", "Moon", "Tiger", "Hz", "Dragon")


def chars(rng: random.Random, alphabet: str, count: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(count))


def password(rng: random.Random) -> str:
    """A password a person or a generator would have set: never a placeholder like ``changeme``."""
    style = rng.randrange(3)
    if style == 0:
        return f"{rng.choice(WORDS)}{rng.choice('@#!_')}{rng.randint(2019, 2025)}{chars(rng, ALNUM, 3)}"
    if style == 1:
        return chars(rng, ALNUM, 10) + rng.choice("!@#%") + chars(rng, ALNUM, 5)
    return f"{chars(rng, string.ascii_lowercase, 4)}{rng.choice('.-_')}{chars(rng, ALNUM, 8)}{rng.randint(10, 99)}"


def url_password(rng: random.Random) -> str:
    """A password that needs no escaping inside a URL or a shell word."""
    return chars(rng, ALNUM, rng.randint(6, 9)) + rng.choice(("", "_", "-", ".")) + chars(rng, ALNUM, rng.randint(5, 8))


def _b64(raw: bytes, urlsafe: bool = False) -> str:
    encoded = base64.urlsafe_b64encode(raw) if urlsafe else base64.b64encode(raw)
    return encoded.decode().rstrip("=") if urlsafe else encoded.decode()


def jwt(rng: random.Random) -> str:
    header = {"alg": "HS256", "typ": "JWT"} if rng.random() < 0.6 else {"alg": "RS256", "kid": chars(rng, HEX, 16)}
    iat = rng.randint(1_717_000_000, 1_735_000_000)
    claims = {"sub": str(rng.randint(10_000_000, 99_999_999)), "iat": iat, "exp": iat + rng.choice((900, 3600, 7200))}
    claims["iss"] = rng.choice(("https://sso.internal", "kyc-gateway", "auth-center"))
    signature = chars(rng, URLSAFE, 43 if header["alg"] == "HS256" else 86)
    parts = (json.dumps(header, separators=(",", ":")), json.dumps(claims, separators=(",", ":")))
    return ".".join(_b64(part.encode(), urlsafe=True) for part in parts) + "." + signature


def basic(rng: random.Random) -> str:
    return _b64(f"{rng.choice(POOLS['user'])}:{url_password(rng)}".encode())


def docker_config(rng: random.Random) -> str:
    host = f"harbor.{rng.choice(POOLS['db'])}.internal"
    return _b64(json.dumps({"auths": {host: {"auth": basic(rng)}}}).encode())


def pem_body(rng: random.Random, prefix: str, lines: int, indent: str = "") -> str:
    text = prefix + chars(rng, B64, 64 * lines - len(prefix) - rng.randint(8, 40)) + "=="
    rows = [text[start : start + 64] for start in range(0, len(text), 64)]
    return ("\n" + indent).join(rows)


def pem_json(rng: random.Random) -> str:
    """A PKCS#8 key as Google's service-account JSON holds it: one string with ``\\n`` escapes."""
    body = pem_body(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 8).replace("\n", "\\n")
    return f"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n"


def cert_date(rng: random.Random) -> str:
    month = rng.choice(("Jan", "Mar", "Jun", "Sep", "Nov"))
    return f"{month} {rng.randint(1, 28):>2} 23:59:59 {rng.randint(2025, 2026)} GMT"


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


SECRET_GENERATORS: dict[str, Generator] = {
    "pw": password,
    "pwu": url_password,
    "b64pw": lambda rng: _b64(password(rng).encode()),
    "b64user": lambda rng: _b64(rng.choice(POOLS["user"]).encode()),
    "ghp": lambda rng: "ghp_" + chars(rng, ALNUM, 36),
    "ghpat": lambda rng: (
        "github_pat_11" + chars(rng, string.ascii_uppercase + string.digits, 20) + "_" + chars(rng, ALNUM, 59)
    ),
    "glpat": lambda rng: "glpat-" + chars(rng, URLSAFE, 20),
    "xoxb": lambda rng: f"xoxb-{chars(rng, string.digits, 11)}-{chars(rng, string.digits, 13)}-{chars(rng, ALNUM, 24)}",
    "slackhook": lambda rng: (
        "https://hooks.slack.com/services/T"
        + chars(rng, string.ascii_uppercase, 10)
        + "/B"
        + chars(rng, string.ascii_uppercase + string.digits, 10)
        + "/"
        + chars(rng, ALNUM, 24)
    ),
    "openai": lambda rng: "sk-proj-" + chars(rng, URLSAFE, 74) + "T3BlbkFJ" + chars(rng, URLSAFE, 74),
    "dskey": lambda rng: "sk-" + chars(rng, HEX, 32),
    "anthropic": lambda rng: "sk-ant-api03-" + chars(rng, URLSAFE, 93) + "AA",
    "stripe": lambda rng: "sk_live_51" + chars(rng, ALNUM, 97),
    "whsec": lambda rng: "whsec_" + chars(rng, ALNUM, 32),
    "gapi": lambda rng: "AIzaSy" + chars(rng, URLSAFE, 33),
    "akia": lambda rng: "AKIA" + chars(rng, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16),
    "awssecret": lambda rng: chars(rng, B64, 40),
    "ltai": lambda rng: "LTAI5t" + chars(rng, ALNUM, 18),
    "alisecret": lambda rng: chars(rng, ALNUM, 30),
    "akid": lambda rng: "AKID" + chars(rng, ALNUM, 32),
    "tcsecret": lambda rng: chars(rng, ALNUM, 32),
    "npm": lambda rng: "npm_" + chars(rng, ALNUM, 36),
    "pypi": lambda rng: "pypi-AgEIcHlwaS5vcmc" + chars(rng, URLSAFE, 140),
    "dckr": lambda rng: "dckr_pat_" + chars(rng, URLSAFE, 27),
    "hf": lambda rng: "hf_" + chars(rng, string.ascii_letters, 34),
    "sendgrid": lambda rng: "SG." + chars(rng, URLSAFE, 22) + "." + chars(rng, URLSAFE, 43),
    "hvs": lambda rng: "hvs." + chars(rng, ALNUM, 24),
    "ding": lambda rng: chars(rng, HEX, 64),
    "jwt": jwt,
    "basic": basic,
    "dockercfg": docker_config,
    "cookie": lambda rng: _b64(_uuid(rng).encode()),
    "jsession": lambda rng: chars(rng, "0123456789ABCDEF", 32),
    "rsabody": lambda rng: pem_body(rng, "MIIEowIBAAKCAQEA", 12),
    "ecbody": lambda rng: pem_body(rng, "MHcCAQEEI", 3),
    "sshbody": lambda rng: pem_body(rng, "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW", 6),
    "pkcs8i": lambda rng: pem_body(rng, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ", 10, "    "),
    "pemjson": pem_json,
    "certbody": lambda rng: pem_body(rng, "MIIDdzCCAl+gAwIBAgIE", 10),
    "b64fp": lambda rng: chars(rng, B64, 43),
    "certdate": cert_date,
    "uuid": _uuid,
    "uuidup": lambda rng: _uuid(rng).upper(),
    "trace": lambda rng: chars(rng, HEX, 32),
    "span": lambda rng: chars(rng, HEX, 16),
    "commit": lambda rng: chars(rng, HEX, 40),
    "sha256": lambda rng: chars(rng, HEX, 64),
    "pi": lambda rng: "pi_3P" + chars(rng, ALNUM, 22),
    "ch": lambda rng: "ch_3P" + chars(rng, ALNUM, 22),
    "epoch": lambda rng: str(rng.randint(1_717_000_000, 1_735_000_000)),
    "last4": lambda rng: chars(rng, ALNUM, 4),
}
"""Slot generators for ``secret_cases``: the shared ones plus credentials and look-alikes."""

ALL_GENERATORS: dict[str, Generator] = {**GENERATORS, **SECRET_GENERATORS}
