"""Corpus for the secret rule: any user-visible text holding a credential value is refused; look-alikes (digests,
ids, masked values, key names without a value, port flags) must pass. The surface is the field the text sits in."""

from __future__ import annotations

import random
from collections.abc import Callable

from .cases import CaseSet, RuleCase
from .connections import connection_cases
from .lookalikes import lookalike_cases
from .placement import SURFACES, place
from .styles import fullwidth
from .tokens import CLOUD_PAIRS, PROVIDERS, jwt, opaque, pem, token_contexts
from .vocabulary import ALNUM, HEX, SERVICES, chars, password

KEYS = ("password", "passwd", "pwd", "secret", "token", "api_key", "apiKey", "access_key", "client_secret",
        "secret_key",
        "auth_token", "access_token", "db_password", "DB_PASSWORD", "spring.datasource.password", "MYSQL_ROOT_PASSWORD",
        "redis.password", "app_secret", "refresh_token", "x-api-key")
SPACED_KEYS = ("api key", "access key", "client secret", "Password", "API Key", "Client Secret", "Access Key Secret")
ZH_KEYS = ("密码", "口令", "密钥", "令牌", "数据库密码", "访问密钥", "登录密码", "root 密码", "Redis 密码", "应用密钥")
XML_KEYS = ("password", "secret", "token", "apiKey", "clientSecret", "accessKey")


def _value(rng: random.Random, key: str) -> str:
    lowered = key.lower()
    if any(word in lowered for word in ("token", "api", "access", "令牌", "密钥")):
        return rng.choice((chars(rng, ALNUM, 32), "tk_live_" + chars(rng, ALNUM, 24), chars(rng, HEX, 40)))
    return password(rng)


def _env_name(key: str) -> str:
    return key.upper().replace(".", "_").replace("-", "_")


Syntax = Callable[[str, str], str]
KV: tuple[tuple[str, tuple[str, ...], str, tuple[Syntax, ...]], ...] = (
    ("kv:eq", KEYS, "prose", (lambda k, v: f"{k}={v}", lambda k, v: f"export {_env_name(k)}={v}")),
    ("kv:colon", KEYS + SPACED_KEYS, "prose", (lambda k, v: f"{k}: {v}", lambda k, v: f"{k}: '{v}'")),
    ("kv:fullwidth-colon", ZH_KEYS, "prose", (lambda k, v: f"{k}：{v}",)),
    ("kv:json", KEYS, "prose", (lambda k, v: f'{{"username": "order_app", "{k}": "{v}"}}',
                                lambda k, v: f'"{k}": "{v}"')),
    ("kv:md-bold", SPACED_KEYS, "prose", (lambda k, v: f"**{k}**: {v}", lambda k, v: f"- **{k}**: `{v}`")),
    ("kv:md-code", KEYS, "prose", (lambda k, v: f"`{k}`: `{v}`", lambda k, v: f"`{k}` = `{v}`")),
    ("kv:md-bold-zh", ZH_KEYS, "prose", (lambda k, v: f"**{k}**：{v}", lambda k, v: f"- **{k}**：`{v}`")),
    ("kv:xml", XML_KEYS, "prose", (lambda k, v: f"<{k}>{v}</{k}>",)),
    ("kv:table-row", KEYS + ZH_KEYS, "block",
     (lambda k, v: f"| 配置项 | 值 |\n| --- | --- |\n| username | order_app |\n| {k} | {v} |",)),
    ("kv:table-header", ("password", "密码", "token", "secret", "api_key"), "block",
     (lambda k, v: f"| user | {k} | host |\n| --- | --- | --- |\n| order_app | {v} | order-db-primary |",)),
    ("kv:yaml", ("password", "secret", "token", "apiKey"), "block",
     (lambda k, v: f"spring:\n  datasource:\n    username: order_app\n    {k}: {v}",)),
)

PROSE_EN = ("The order_db password is {v}", "The API token for {svc} is {v}", "Its client secret is {v}.",
            "The Redis password was set to {v} last night", "ro_user logs in with the password {v}",
            "The secret key for the ALIPAY merchant is {v}")
PROSE_ZH = ("数据库密码是 {v}", "order_db 的 root 密码为 {v}", "Redis 的口令是 {v}", "{svc} 调用渠道用的令牌为 {v}",
            "商户密钥是：{v}", "ro_user 的登录密码是 {v}，和测试环境相同")

_CYRILLIC = {"a": "\u0430", "o": "\u043e", "e": "\u0435", "p": "\u0440", "c": "\u0441"}


def _cyrillic(word: str, letters: str) -> str:
    return "".join(_CYRILLIC[c] if c in letters else c for c in word)


def _mutations(rng: random.Random) -> list[tuple[str, bool, str]]:
    v, tok = password(rng), chars(rng, ALNUM, 32)
    return [
        (f"pass\u200bword={v}", True, "mutation:zero-width"),
        (f"db_pass\u200cword: {password(rng)}", True, "mutation:zero-width"),
        (f"密\u200b码：{password(rng)}", True, "mutation:zero-width"),
        (f"to\u200bken={tok}", True, "mutation:zero-width"),
        (f"api_\u200dkey: {chars(rng, HEX, 40)}", True, "mutation:zero-width"),
        (f"sec\u2060ret={password(rng)}", True, "mutation:zero-width"),
        ("pass\u200bword=******", False, "mutation:zero-width"), ("密\u200b码已轮换", False, "mutation:zero-width"),
        ("to\u200bken expired", False, "mutation:zero-width"),
        (fullwidth(f"password={password(rng)}"), True, "mutation:full-width"),
        (f"password＝{password(rng)}", True, "mutation:full-width"),
        (f"密码：{fullwidth(password(rng))}", True, "mutation:full-width"),
        (fullwidth(f"token: {chars(rng, ALNUM, 32)}"), True, "mutation:full-width"),
        ("ｐａｓｓｗｏｒｄ：＊＊＊＊＊＊", False, "mutation:full-width"),
        ("ｍａｘ＿ｔｏｋｅｎｓ：４０９６", False, "mutation:full-width"),
        (fullwidth("password=[REDACTED]"), False, "mutation:full-width"),
        (f"{_cyrillic('password', 'a')}={password(rng)}", True, "mutation:cyrillic"),
        (f"{_cyrillic('token', 'o')}: {chars(rng, ALNUM, 32)}", True, "mutation:cyrillic"),
        (f"{_cyrillic('secret', 'e')}={password(rng)}", True, "mutation:cyrillic"),
        (f"{_cyrillic('password', 'pao')}: {password(rng)}", True, "mutation:cyrillic"),
        (f"{_cyrillic('api_key', 'a')}={chars(rng, HEX, 32)}", True, "mutation:cyrillic"),
        (f"{_cyrillic('password', 'a')}: ******", False, "mutation:cyrillic"),
        (f"{_cyrillic('token', 'o')} expired", False, "mutation:cyrillic"),
        (f"{_cyrillic('password', 'a')} reset requested 3 times", False, "mutation:cyrillic"),
        (f"**password**=`{password(rng)}`", True, "mutation:markdown"),
        (f"`password={password(rng)}`", True, "mutation:markdown"),
        (f"***密码***：**{password(rng)}**", True, "mutation:markdown"), (f"_token_: {tok}", True, "mutation:markdown"),
        (f"password: **{password(rng)}**", True, "mutation:markdown"),
        (f"~~password: {password(rng)}~~", True, "mutation:markdown"),
        ("**password**: `******`", False, "mutation:markdown"), ("`token`: *已脱敏*", False, "mutation:markdown"),
        ("我们在排查 order-service 连接池耗尽时，从配置中心导出的 application.yaml 里看到 "
         f"spring.datasource.password: {password(rng)}，"
         "随后确认连接数已达上限。", True, "mutation:sentence-zh"),
        (f"值班同学反馈 redis-cluster 无法登录，他在群里贴出的口令是 {password(rng)}，建议立即更换。", True,
         "mutation:sentence-zh"),
        ("我们在排查 order-service 连接池耗尽时核对了 application.yaml，"
         "spring.datasource.password 一项已脱敏（******），"
         "连接数确已达上限。", False, "mutation:sentence-zh"),
        ("值班同学反馈 redis-cluster 无法登录，报错 NOAUTH Authentication required，口令本身没有在群里出现。", False,
         "mutation:sentence-zh"),
        ("While tracing the 10:05 timeouts we found the payment-service env had "
         f"PAYMENT_API_TOKEN={chars(rng, ALNUM, 32)} "
         "set twice, which is why the channel calls kept failing.", True, "mutation:sentence-en"),
        (f"The DBA pasted the connection string with password={password(rng)} into the incident channel before we "
         "noticed.", True, "mutation:sentence-en"),
        ("While tracing the 10:05 timeouts we found the payment-service env had PAYMENT_API_TOKEN set twice, which is "
         "why the channel calls kept failing.", False, "mutation:sentence-en"),
        ("The DBA confirmed the order_app password was rotated at 09:40 and the pool reconnected at 09:42.", False,
         "mutation:sentence-en"),
    ]


def _sql_literals(rng: random.Random) -> list[tuple[str, bool]]:
    p = password(rng, url_safe=True)
    return [
        ("SELECT payment_id FROM payment_record WHERE note = 'password=Sup3r-S3cret!'", True),
        ("SELECT id FROM channel_config WHERE jdbc_url = "
         f"'jdbc:mysql://order-db:3306/order_db?user=app&password={p}'", True),
        (f"UPDATE user_account SET password = '{password(rng)}' WHERE user_id = 42", True),
        (f"INSERT INTO api_client (name, secret) VALUES ('alipay', '{chars(rng, ALNUM, 32)}')", True),
        (f"SELECT * FROM audit_log WHERE auth_header = 'Bearer {opaque(rng)}'", True),
        (f"SELECT merchant_id FROM channel_config WHERE api_key = 'sk_live_{chars(rng, ALNUM, 24)}'", True),
        (f"SELECT order_id FROM biz_order WHERE remark LIKE '%token={chars(rng, ALNUM, 32)}%'", True),
        (f"SELECT id FROM connection_log WHERE dsn = 'redis://:{password(rng, url_safe=True)}@cache:6379/0'", True),
        ("SELECT order_id, payment_status FROM biz_order WHERE order_id = 'order-123'", False),
        ("SELECT user, host, password_expired FROM mysql.user WHERE user = 'order_app'", False),
        ("SELECT COUNT(*) FROM payment_record WHERE note LIKE '%password%'", False),
        (f"SELECT span_id FROM trace_span WHERE trace_id = '{chars(rng, HEX, 32)}'", False),
        ("SELECT payment_id FROM payment_record WHERE note = 'password reset requested'", False),
        ("SELECT payment_id FROM payment_record WHERE note = 'password=[REDACTED]'", False),
        ("SELECT token_type, COUNT(*) FROM oauth_token GROUP BY token_type", False),
        ("SELECT id FROM channel_config WHERE jdbc_url = 'jdbc:mysql://order-db:3306/order_db?useSSL=true'", False),
    ]


def secret_cases(seed: int = 0) -> list[RuleCase]:
    """At least 450 labelled texts, a third or more of them look-alikes that must pass, stable for ``seed``."""
    rng = random.Random(seed)
    out = CaseSet()
    for shape, keys, kind, syntaxes in KV:
        for index, key in enumerate(keys):
            syntax = syntaxes[index % len(syntaxes)]
            text, surface = place(rng, syntax(key, _value(rng, key)), kind)
            out.add(text, True, shape, surface)
    for shape, templates in (("kv:prose-en", PROSE_EN), ("kv:prose-zh", PROSE_ZH)):
        for template in templates:
            for _ in range(2):
                fragment = template.replace("{svc}", rng.choice(SERVICES)).replace("{v}", password(rng))
                out.add(fragment, True, shape, rng.choice(SURFACES))
    connection_cases(rng, out)
    for shape, make in PROVIDERS:
        for context in rng.sample(token_contexts(), 3):
            surface = rng.choice(SURFACES[:-1])
            text = context.replace("{svc}", rng.choice(SERVICES)).replace("{n}", str(rng.randint(3, 480)))
            out.add(text.replace("{x}", make(rng)), True, shape, surface)
    for shape, make in CLOUD_PAIRS:
        for _ in range(3):
            text, surface = place(rng, make(rng), "block")
            out.add(text, True, shape, surface)
    for index in range(6):
        fragment = ("token={x}", "{x}", "JWT：{x}", "id_token: {x}")[index % 4].replace("{x}", jwt(rng))
        text, surface = place(rng, fragment)
        out.add(text, True, "jwt", surface)
    for kind in ("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY", "OPENSSH PRIVATE KEY", "RSA PRIVATE KEY"):
        text, surface = place(rng, pem(rng, kind), "block")
        out.add(text, True, "pem", surface)
    for text, violation, shape in _mutations(rng):
        sentence = shape.startswith("mutation:sentence")
        bare = (text, rng.choice(("analysis", "conclusion", "knowledge_answer", "system_answer", "limitations")))
        placed, surface = bare if sentence or rng.random() < 0.4 else place(rng, text)
        out.add(placed, violation, shape, surface)
    for text, violation in _sql_literals(rng):
        out.add(text, violation, "sql-literal", "sql_reference")
    lookalike_cases(rng, out)
    return out.cases()

