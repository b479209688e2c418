"""tools.redaction: secrets are replaced by [REDACTED], ordinary text is left alone, and no input is slow."""

from __future__ import annotations

import time

import pytest

from tools.redaction import REDACTED, redact

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMDIzIiwiZXhwIjoxNzg0NjAwMDAwfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

REDACTED_SAMPLES = [
    # credentials in URLs
    ("jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db", "jdbc:mysql://[REDACTED]@db-1:3306/order_db"),
    ("redis://:hunter2@cache:6379/0", "redis://[REDACTED]@cache:6379/0"),
    ("connect amqp://guest:gu3st!@mq.internal:5672/vhost ok", "connect amqp://[REDACTED]@mq.internal:5672/vhost ok"),
    ("https://ci-bot:ghp_abc123XYZ@github.com/org/repo.git", "https://[REDACTED]@github.com/org/repo.git"),
    ("mongodb://admin:p@ss@mongo-0:27017/admin", "mongodb://[REDACTED]@mongo-0:27017/admin"),
    (
        "postgresql://svc:s3cr3t@pg.internal/app?sslmode=require",
        "postgresql://[REDACTED]@pg.internal/app?sslmode=require",
    ),
    # Authorization headers, any scheme
    ("Authorization: Basic b3JkZXI6czNjcjN0UGFzcw==", "Authorization: Basic [REDACTED]"),
    ("authorization: bearer abc.def.ghi next=1", "authorization: bearer [REDACTED] next=1"),
    ("Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCC", "Proxy-Authorization: Negotiate [REDACTED]"),
    ("Authorization=Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "Authorization=Token [REDACTED]"),
    ('{"Authorization": "Bearer mF_9.B5f-4.1JqM", "x": 1}', '{"Authorization": "Bearer [REDACTED]", "x": 1}'),
    ("Authorization: dXNlcjpwYXNzd29yZA== from 10.0.0.1", "Authorization: [REDACTED] from 10.0.0.1"),
    # bare bearer tokens
    ("calling upstream with Bearer mF_9.B5f-4.1JqM", "calling upstream with Bearer [REDACTED]"),
    ("header=Bearer ya29.a0AfH6SMBx-long_token/value==", "header=Bearer [REDACTED]"),
    # JWTs anywhere
    (f"Session token {JWT} validated", "Session token [REDACTED] validated"),
    (f"GET /api/v1/users/me?access_token={JWT} HTTP/1.1", "GET /api/v1/users/me?access_token=[REDACTED] HTTP/1.1"),
    # key=value pairs in query strings and key=value logs
    ("?user=ops&password=Passw0rd!23&next=/home", "?user=ops&password=[REDACTED]&next=/home"),
    (
        "Login failed user=alice password=Passw0rd!23 reason=BAD",
        "Login failed user=alice password=[REDACTED] reason=BAD",
    ),
    ("LDAP bind passwd=Qw3rty!Pass result=OK", "LDAP bind passwd=[REDACTED] result=OK"),
    ("ftp user=inv pwd=Zx81qpL", "ftp user=inv pwd=[REDACTED]"),
    ("Webhook signing secret=whsec_7Hq2LmP9xK loaded", "Webhook signing secret=[REDACTED] loaded"),
    ("notify verified token=tk_live_4f9a2c81e7 refundNo=RF1", "notify verified token=[REDACTED] refundNo=RF1"),
    (
        "gateway.do?app_id=2021&access_token=at_9f8e7d6c5b4a&sign=RSA2",
        "gateway.do?app_id=2021&access_token=[REDACTED]&sign=RSA2",
    ),
    ("merchant=M1 api_key=sk_live_51HxQ2eZvKYlo2C", "merchant=M1 api_key=[REDACTED]"),
    ("geocode?address=Shanghai&apikey=AIzaSyD3moKeyExample77", "geocode?address=Shanghai&apikey=[REDACTED]"),
    ("spring.datasource.password=changeit", "spring.datasource.password=[REDACTED]"),
    ("DB_PASSWORD: hunter2", "DB_PASSWORD: [REDACTED]"),
    ("password: no-pass123", "password: [REDACTED]"),
    ("https://ghp_abc123XYZ@github.com/org/repo.git", "https://[REDACTED]@github.com/org/repo.git"),
    ("client_secret=abc123, scope=read", "client_secret=[REDACTED], scope=read"),
    ("refresh_token = rt-998877", "refresh_token = [REDACTED]"),
    ("X-Api-Key: k3y-9d8c7b6a", "X-Api-Key: [REDACTED]"),
    ("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key=[REDACTED]"),
    # JSON-ish
    (
        'body: {"username":"ops","password":"Tr0ub4dor&3","otp":"1"}',
        'body: {"username":"ops","password":"[REDACTED]","otp":"1"}',
    ),
    ('{"password": "with space, and comma"}', '{"password": "[REDACTED]"}'),
    ('{"token": "a\\"quoted\\"b", "n": 2}', '{"token": "[REDACTED]", "n": 2}'),
    ('payload={\\"pwd\\":\\"x y\\",\\"a\\":1}', 'payload={\\"pwd\\":\\"[REDACTED]\\",\\"a\\":1}'),
    ("{'secret': 'abc def'}", "{'secret': '[REDACTED]'}"),
    (
        "UPDATE user_account SET password = 'Welcome2024!' WHERE user_id = 1",
        "UPDATE user_account SET password = '[REDACTED]' WHERE user_id = 1",
    ),
    # AWS access key ids
    ("aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=cn-north-1", "aws_access_key_id=[REDACTED] region=cn-north-1"),
    ("key ASIAY34FZKBOKMUTVV7A used", "key [REDACTED] used"),
]

UNTOUCHED = [
    "HikariPool-1 - Connection is not available, request timed out after 30000ms.",
    "HikariPool-1 - Pool stats (total=50, active=50, idle=0, waiting=23)",
    "Failed to mark order order-123 as PAID; order-4711 retried",
    "ERR_TIMEOUT calling order-service POST /internal/orders/order-123/paid after 3000ms traceId=f26a1abce5480b38",
    "GET http://payment-service/internal/pay/order-123 HTTP/1.1",
    "jdbc:mysql://db-1:3306/order_db?useSSL=false",
    "https://openapi.example.com/gateway.do?method=trade.query&app_id=2021000118",
    "Access denied for user 'app'@'10.0.3.17' (using password: YES)",
    "Access denied for user 'app'@'10.0.3.17' (using password: NO)",
    "password reset email sent to u-10023",
    "invalid Bearer token in request",
    "max_tokens=512 tokenizer=bert secretary=bob",
    "9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b at 2026-07-21T02:11:05.123Z from 10.0.8.15",
    "Query_time=23.290s Lock_time=22.453s sql=UPDATE biz_order SET status='PAYING' WHERE order_no='order-123'",
    "重复退款请求被拒绝 order=order-2201 code=ERR_REFUND_DUPLICATE",
    "mail to ops@example.com about user@host",
    "",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED_SAMPLES)
def test_secrets_are_redacted(text: str, expected: str) -> None:
    assert redact(text) == (expected, True)


@pytest.mark.parametrize("text", UNTOUCHED)
def test_ordinary_text_is_untouched(text: str) -> None:
    assert redact(text) == (text, False)


@pytest.mark.parametrize(("text", "_expected"), REDACTED_SAMPLES)
def test_redaction_is_idempotent(text: str, _expected: str) -> None:
    once, _ = redact(text)
    assert redact(once) == (once, False)


def test_several_secrets_in_one_line() -> None:
    line = (
        f"POST https://u:pw1@h/x?token=t0k&x=1 Authorization: Basic QWxhZGRpbjpvcGVu Bearer b3arer {JWT} "
        "password=pw2 AKIAIOSFODNN7EXAMPLE"
    )
    text, changed = redact(line)
    assert changed
    for secret in ("pw1", "t0k", "QWxhZGRpbjpvcGVu", "b3arer", JWT, "pw2", "AKIAIOSFODNN7EXAMPLE"):
        assert secret not in text
    assert text.count(REDACTED) == 7


ADVERSARIAL = [
    "a" * 200_000,
    "password=" * 20_000,
    'password="' * 20_000,
    "password:" * 20_000,
    'password=\\"' * 20_000,
    "Bearer " * 30_000,
    "Authorization: " * 15_000,
    "eyJ-" * 50_000,
    "eyJa." * 40_000,
    "a://" * 50_000,
    "x://" + ":" * 200_000,
    "x://" + "a" * 200_000,
    "x://" + "@" * 200_000,
    "a-" * 100_000,
    "a:" * 100_000,
    "xxpassword" * 20_000,
    "AKIA" * 50_000,
    '"' * 200_000,
    "token: " * 30_000,
    "1" * 200_000,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=lambda text: repr(text[:12]))
def test_adversarial_input_is_linear(text: str) -> None:
    started = time.perf_counter()
    redact(text)
    assert time.perf_counter() - started < 1.0
