"""contract.secrets: a value that stands for a secret without being one (a mask with a provider's prefix, a
reference to where the secret is, a template, a type, a size, the name of a key or of a Secret object), a URL with
a user and no password, a challenge and an ordinary cookie are no secrets; what only looks like them still is."""

from __future__ import annotations

import pytest

from contract.secrets import redact, secret_kinds

STANDS_FOR_A_SECRET = [
    # masks, a provider's prefix or a few characters kept
    "token: ghp_****a1b2",
    '"secret": "sk-proj-********"',
    "AWS_SECRET_ACCESS_KEY=AKIA****",
    "password: ••••••",
    "`DB_PASSWORD=******`（prod）",
    "SLACK_BOT_TOKEN=xoxb-************",
    # references and templates
    "password: ${{ secrets.DB_PASSWORD }}",
    "DB_PASS=${DB_PASS:?required, see .env.example}",
    "spring.datasource.password=${DB_PASSWORD:}",
    "password: ${file:/run/secrets/db:password}",
    "jdbc.password=${env.JDBC_PASSWORD}",
    '<bean id="ds"><property name="password" value="${jdbc.password}"/></bean>',
    "password = local.db_password",
    "api_key: process.env.API_KEY",
    'password=os.getenv("DB_PASSWORD")',
    "apiKey: <your-api-key>",
    "Authorization: Bearer ${{ secrets.TOKEN }}",
    'curl -H "Authorization: Token $API_TOKEN" https://x',
    "Authorization: Basic <base64(client_id:client_secret)>",
    # where it is, what it is
    "password: stored in 1Password",
    "secret: (managed by Vault)",
    "token: see ops wiki",
    "password: string",
    '"token": "str"',
    "token:  40 bytes",
    "existingSecret: app-redis",
    "existing_secret: db-creds",
    # URLs with a user and no password, or a password that is masked or a reference
    "postgres://deploy@db:5432/x",
    "ssh://git@github.com/org/repo.git",
    "amqp://guest@mq:5672/",
    "https://ops@jenkins.internal/job/x",
    "mongodb://u:${MONGO_PW}@h/db",
    "redis://:${REDIS_PASSWORD}@cache:6379",
    "jdbc:mysql://app:****@db-1:3306/order_db",
    "dsn=app:$DB_PASS@tcp(db-1:3306)/orders",
    # a challenge, ordinary cookies
    'WWW-Authenticate: Bearer realm="api", error="invalid_token"',
    "WWW-Authenticate: Bearer error=invalid_request",
    "Cookie: lang=en; theme=dark; tz=UTC",
]

STILL_SECRETS = [
    # (text, the text redacted): close to the above, but a secret
    ("password: Pa**word123", "password: [REDACTED]"),
    ("api_key=sk-live-9f8e7d6c5b4a3f2e", "api_key=[REDACTED]"),
    # Spring's default value after ':' is the password itself (a shell default, ${X:-v}, stays a reference)
    ("password: ${db.password:Hunter22}", "password: [REDACTED]}"),
    ("https://Xy9kLm2pQsT@github.com/org/r.git", "https://[REDACTED]@github.com/org/r.git"),
    ("postgres://deploy:D3ploy!@db:5432/x", "postgres://[REDACTED]@db:5432/x"),
    ("Cookie: theme=dark; auth_token=9f8e7d6c", "Cookie: theme=dark; auth_token=[REDACTED]"),
    (
        "WWW-Authenticate: Bearer realm=x, Authorization: Bearer Zx9.kLm2-pQ",
        "WWW-Authenticate: Bearer realm=x, Authorization: Bearer [REDACTED]",
    ),
    (
        "以下内容未能核实：order_app:S3cret#1@tcp(db-1:3306)/order_db",
        "以下内容未能核实：[REDACTED]@tcp(db-1:3306)/order_db",
    ),
    ("existingSecret: x, secret: S3cr3t-v", "existingSecret: x, secret: [REDACTED]"),
]


@pytest.mark.parametrize("text", STANDS_FOR_A_SECRET)
def test_what_stands_for_a_secret_is_no_secret(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)


@pytest.mark.parametrize(("text", "expected"), STILL_SECRETS)
def test_what_only_looks_like_a_reference_is_still_a_secret(text: str, expected: str) -> None:
    assert secret_kinds(text) != ()
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()
