"""Credential values with a recognisable published shape, each with a random body of the right length and alphabet:
provider token prefixes, cloud access-key pairs, JWTs and PEM private keys."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from .vocabulary import ALNUM, B64, B64URL, BASE32, HEX, UPPER_ALNUM, b64, chars


def _digits(rng: random.Random, n: int) -> str:
    return chars(rng, "0123456789", n)


PROVIDERS: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("token:github-ghp", lambda r: "ghp_" + chars(r, ALNUM, 36)),
    ("token:github-gho", lambda r: "gho_" + chars(r, ALNUM, 36)),
    ("token:github-ghs", lambda r: "ghs_" + chars(r, ALNUM, 36)),
    ("token:github-pat", lambda r: "github_pat_11" + chars(r, UPPER_ALNUM, 20) + "_" + chars(r, ALNUM, 59)),
    ("token:gitlab", lambda r: "glpat-" + chars(r, ALNUM + "-_", 20)),
    ("token:slack-xoxb", lambda r: f"xoxb-{_digits(r, 12)}-{_digits(r, 13)}-{chars(r, ALNUM, 24)}"),
    ("token:slack-xoxp", lambda r: f"xoxp-{_digits(r, 12)}-{_digits(r, 12)}-{_digits(r, 13)}-{chars(r, HEX, 32)}"),
    ("token:openai-proj", lambda r: "sk-proj-" + chars(r, B64URL, 74) + "T3BlbkFJ" + chars(r, B64URL, 74)),
    ("token:openai", lambda r: "sk-" + chars(r, ALNUM, 20) + "T3BlbkFJ" + chars(r, ALNUM, 20)),
    ("token:anthropic", lambda r: "sk-ant-api03-" + chars(r, B64URL, 93) + "AA"),
    ("token:stripe-sk", lambda r: "sk_live_" + chars(r, ALNUM, r.choice((24, 99)))),
    ("token:stripe-rk", lambda r: "rk_live_" + chars(r, ALNUM, r.choice((24, 99)))),
    ("token:google-api", lambda r: "AIza" + chars(r, B64URL, 35)),
    ("token:google-oauth", lambda r: "ya29.a0A" + chars(r, B64URL, 150)),
    ("token:npm", lambda r: "npm_" + chars(r, ALNUM, 36)),
    ("token:pypi", lambda r: "pypi-AgEIcHlwaS5vcmc" + chars(r, B64URL, 160)),
    ("token:dockerhub", lambda r: "dckr_pat_" + chars(r, B64URL, 27)),
    ("token:huggingface", lambda r: "hf_" + chars(r, ALNUM, 34)),
    ("token:sendgrid", lambda r: "SG." + chars(r, B64URL, 22) + "." + chars(r, B64URL, 43)),
    ("token:vault", lambda r: "hvs." + chars(r, B64URL, r.choice((24, 91)))),
)
"""Each provider's token: GitHub, GitLab, Slack, OpenAI, Anthropic, Stripe, Google, npm, PyPI, Docker Hub,
Hugging Face, SendGrid and HashiCorp Vault."""

_TOKEN_CONTEXTS = (
    "{svc} 的启动日志打印了 {x}", "CI 任务输出里出现了 `{x}`", "Found {x} in the job output of {svc}",
    "配置中心里这一项的值是 {x}",
    "The webhook request was sent with {x}", "{x}", "环境变量中有一项为 {x}，来源未知",
    "Line {n} of the deploy log: {x}",
)

CLOUD_PAIRS: tuple[tuple[str, Callable[[random.Random], str]], ...] = (
    ("token:aws", lambda r: _aws(r)),
    ("token:alibaba", lambda r: _alibaba(r)),
    ("token:tencent", lambda r: _tencent(r)),
)
"""An access key id with its secret, in the shapes the clouds' own configuration files and consoles use."""


def _aws(rng: random.Random) -> str:
    key, secret = "AKIA" + chars(rng, BASE32, 16), chars(rng, ALNUM + "/+", 40)
    return rng.choice((
        f"aws_access_key_id = {key}\naws_secret_access_key = {secret}",
        f"AccessKeyId: {key}, SecretAccessKey: {secret}",
        f"AWS_ACCESS_KEY_ID={key} AWS_SECRET_ACCESS_KEY={secret}",
        f"凭证 {key} / {secret}",
    ))


def _alibaba(rng: random.Random) -> str:
    key, secret = "LTAI5t" + chars(rng, ALNUM, 18), chars(rng, ALNUM, 30)
    return rng.choice((
        f"AccessKey ID: {key}，AccessKey Secret: {secret}",
        f"ALIBABA_CLOUD_ACCESS_KEY_ID={key} ALIBABA_CLOUD_ACCESS_KEY_SECRET={secret}",
        f"{key} / {secret}",
    ))


def _tencent(rng: random.Random) -> str:
    key, secret = "AKID" + chars(rng, ALNUM, 32), chars(rng, ALNUM, 32)
    return rng.choice((
        f"SecretId: {key}, SecretKey: {secret}", f"TENCENTCLOUD_SECRET_ID={key} TENCENTCLOUD_SECRET_KEY={secret}",
    ))


def jwt(rng: random.Random) -> str:
    header = {"alg": rng.choice(("HS256", "RS256")), "typ": "JWT"}
    issued = 1764500000 + rng.randint(0, 200000)
    payload = {"sub": f"u-{rng.randint(10000, 39999)}", "iss": "https://auth.superbiz.example", "iat": issued,
               "exp": issued + 7200, "scope": rng.choice(("orders:read", "payments:write", "admin"))}
    signature = chars(rng, B64URL, 43 if header["alg"] == "HS256" else 342)
    return f"{b64(json.dumps(header, separators=(',', ':')), url=True)}." \
           f"{b64(json.dumps(payload, separators=(',', ':')), url=True)}.{signature}"


_PEM_KINDS = (
    ("RSA PRIVATE KEY", "MIIEowIBAAKCAQEA"), ("PRIVATE KEY", "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQ"),
    ("EC PRIVATE KEY", "MHcCAQEEI"), ("OPENSSH PRIVATE KEY", "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB"),
)


def pem(rng: random.Random, kind: str = "", lines: int = 6) -> str:
    label, start = next((k for k in _PEM_KINDS if k[0] == kind), rng.choice(_PEM_KINDS))
    body = start + chars(rng, B64, 64 * lines - len(start))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *rows, f"-----END {label}-----"])


def public_block(rng: random.Random, label: str) -> str:
    """A certificate or public key: PEM-armoured like a private key, but public by design."""
    start = "MIIDdzCCAl+gAwIBAgIE" if label == "CERTIFICATE" else "MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA"
    body = start + chars(rng, B64, 64 * 5 - len(start))
    rows = [body[i : i + 64] for i in range(0, len(body), 64)]
    return "\n".join([f"-----BEGIN {label}-----", *rows, f"-----END {label}-----"])


def opaque(rng: random.Random, n: int = 40) -> str:
    return chars(rng, B64URL, n)


def token_contexts() -> tuple[str, ...]:
    return _TOKEN_CONTEXTS
