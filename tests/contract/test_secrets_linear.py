"""contract.secrets: no input of the new rules is slow (50 KB of what each rule starts on, over and over), and a
text made of their fragments is redacted clean and stays so."""

from __future__ import annotations

import time

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from contract.secrets import redact, secret_kinds

SIZE = 50_000


def _fill(unit: str, head: str = "", tail: str = "") -> str:
    """``head``, then ``unit`` repeated to 50 KB, then ``tail``."""
    return head + unit * (SIZE // len(unit)) + tail


PREFIXES = (
    *("sk-", "sk-proj-", "sk-ant-api03-", "glpat-", "GR1348941", "xapp-1-", "ya29.", "GOCSPX-", "npm_", "dckr_pat_"),
    *("pypi-AgEIcHlwaS5vcmc", "hf_", "SG.", "hvs.", "shpat_", "dop_v1_", "dapi", "glsa_", "glc_", "NRAK-", "ATATT3"),
    *("lin_api_", "PMAK-", "1234567890:AA", "bot1234567890:", "twilio "),
)

ADVERSARIAL = {
    # url_userinfo: Go DSN, Oracle, sqlplus, connect
    "dsn": [_fill("a:b@tcp("), _fill("a:"), _fill("a:b", tail="@tcp("), _fill(":@tcp(")],
    "oracle": [_fill("jdbc:oracle:thin:"), _fill("b", "jdbc:oracle:thin:a/"), _fill("a/", "jdbc:oracle:thin:")],
    "sqlplus": [_fill("sqlplus "), _fill(" -s", "sqlplus"), _fill("connect a/"), _fill("a", "sqlplus a/")],
    # authorization_header: cookies
    "cookie": [
        _fill("Cookie: "),
        _fill("a=[REDACTED]; ", "Cookie: "),
        _fill("Cookie: cookie:x=y; "),
        _fill("a=;", "Cookie: "),
        _fill("Set-Cookie: "),
        _fill("a=b; ", "Cookie: "),
        _fill("x", "Cookie: a="),
    ],
    # cloud_access_key: every prefix, repeated or with a long body
    "tokens": [_fill(prefix) for prefix in PREFIXES]
    + [_fill("a", "sk-A1"), _fill("A1", "sk-proj-"), _fill("x", "twilio"), _fill("b/", "hooks.slack.com/services/a/")],
    "named_aws_key": [_fill("secret key "), _fill("A", "secret key: "), _fill("secret access key:=")],
    # secret_key_value: key=value, named values, labels and prose
    "key_value": [
        _fill("auth: "),
        _fill("auth=Bearer "),
        _fill("sig="),
        _fill("db_pass="),
        _fill("credentials: "),
        _fill("api key: "),
        _fill("password => "),
        _fill("password: ${"),
        _fill("password: {{"),
        _fill("password: a:"),
        _fill("x", "password: $"),
    ],
    "pipe_cells": [_fill("|"), _fill("| password "), _fill("| password | a"), _fill(" ", "| password |"), _fill("a |")],
    "named": [
        _fill("key=password value="),
        _fill('key="db.password" '),
        _fill("name: DB_PASSWORD\n"),
        _fill("a", "name=", "password"),
        _fill("type=password value=x "),
    ],
    "prose": [
        _fill("凭据 "),
        _fill("密码是 "),
        _fill("a1!", "密码 "),
        _fill("-1", "密码 a"),
        _fill("1.", "令牌 "),
        _fill("密码我发你"),
        _fill("码", "密码", "：a1"),
        _fill("password is "),
        _fill("the password for a b c is "),
        _fill("password for "),
        _fill("password "),
        _fill("a1", "password is "),
        _fill(".", "password is a1"),
        _fill("a@b.", "password is "),
        _fill("1", "password is a"),
        _fill("token was set to "),
    ],
    # secret_key_value: command lines
    "flags": [
        _fill("--password "),
        _fill("a-", "--", "password x"),
        _fill("--db-"),
        _fill("sshpass -p "),
        _fill(" -v", "sshpass"),
        _fill("docker login "),
        _fill("x ", "docker ", "login -p x"),
        _fill("redis-cli "),
        _fill(" x", "redis-cli", " -a x"),
        _fill("curl -u "),
        _fill("-u ", "curl "),
        _fill("b", "curl -u a", ":"),
        _fill("mongo -p "),
        _fill("ldapsearch -w "),
    ],
    # secret_key_value: a table row whose first cell names a credential
    "key_cell": [
        _fill("password; "),
        _fill("a: password; b: "),
        _fill("\npassword; v: x"),
        _fill("x;", "\nk: password; v: "),
        _fill("| k | v |\n|---|---|\n| password | a1 |\n"),
        _fill("a ", "\nk: password; v: a1"),
        _fill("密码; "),
    ],
    # secret_key_value: "changed to", account and password, parentheses, SMTP's 授权码
    "prose_more": [
        _fill("密码在 "),
        _fill("密码被改成了 "),
        _fill("a", "密码", "改成了 a1"),
        _fill("账号 a\n"),
        _fill("账号 a / "),
        _fill("a1!", "账号 a / "),
        _fill("username:a\n"),
        _fill("api key for a ("),
        _fill("secret between a b c "),
        _fill("token ("),
        _fill("授权码 "),
        _fill("A", "password is aB"),
    ],
    # secret_key_value: SQL
    "sql": [
        _fill("IDENTIFIED BY "),
        _fill("identified with a by "),
        _fill("SET PASSWORD FOR "),
        _fill("a", "set password for "),
        _fill("user a b c d e f g password "),
        _fill("OPTIONS (password "),
        _fill("INSERT INTO t ("),
        _fill("a, ", "INSERT INTO t (", "password) VALUES ("),
        _fill("'x', ", "INSERT INTO t (a, password) VALUES ("),
        _fill("a,", "insert into t (password", ") values ("),
        _fill("'a.secret' "),
        _fill("x", "'password' ", " returns "),
        _fill("'password' returns "),
    ],
    # secret_key_value: redis.conf, .netrc, .pgpass, Kubernetes Secrets
    "config_files": [
        _fill("requirepass "),
        _fill("masterauth a"),
        _fill("machine a login b "),
        _fill("a:1:b:c:"),
        _fill("a:1:b:c:d:"),
        _fill("1", "host:5432:db:u:"),
        _fill("a.b:1:c:d:e "),
        _fill("kind: Secret\n"),
        _fill("  a: b\n", "kind: Secret\ndata:\n"),
        _fill("data:\n"),
        _fill("  a: '******'\n", "data:\n"),
        _fill("x\n", "data:\n  a: b\n", "kind: Secret"),
    ],
    # secret_key_value: Redis AUTH, the output of a command that prints a secret, clients that take -u and -p
    "consoles": [
        _fill("AUTH "),
        _fill("AUTH a "),
        _fill("auth a\n"),
        _fill("kubectl get secret "),
        _fill("kubectl get secret a | base64 -d\n"),
        _fill(" x", "kubectl", " get secret"),
        _fill("vault kv get -field="),
        _fill("rabbitmqadmin "),
        _fill(" -u a", "rabbitmqadmin", " -p x"),
        _fill("nodetool -pw "),
    ],
    # what stands for a secret: masks, references, user-only URLs, cookie names, challenges
    "references": [
        _fill("password: ${a:"),
        _fill("password: sk-"),
        _fill("password: <"),
        _fill("password: ("),
        _fill("*", "password: a"),
        _fill("password: var."),
        _fill("https://a"),
        _fill("a", "https://", "@"),
        _fill("a", "https://A1", "@"),
        _fill("a:", "b:****@tcp("),
        _fill("session", "Cookie: "),
        _fill("a=Gf8kHXL4z0sCAXFc6sG7; ", "Cookie: "),
        _fill("Bearer error="),
        _fill("Authorization: Bearer $"),
    ],
    # the normal form, and mapping what it finds back to the text as written
    "normal_form": [
        _fill("*:*"),
        _fill("******"),
        _fill("**:**"),
        _fill("password=a1 ", '<x a="', '">'),
        _fill("&#97;1", '<x a="password=', '">'),
        _fill("ａ１", '<x a="password=', '">'),
        _fill("a\u200b", '<x a="password=', '">'),
        _fill("| password | a1 |\n"),
        _fill("<password>a1</password>"),
        _fill("&#112;assword=a1 "),
        _fill("**password**: a1 "),
        _fill("pass\u200bword=a1 "),
        _fill("ｐａｓｓｗｏｒｄ＝ａ１ "),
        _fill("`password`: `a1` "),
    ],
}
CASES = [(rule, text) for rule, texts in ADVERSARIAL.items() for text in texts]


@pytest.mark.parametrize(("rule", "text"), CASES, ids=[f"{rule}-{text[:14]!r}" for rule, text in CASES])
def test_adversarial_input_of_a_new_rule_is_linear(rule: str, text: str) -> None:
    assert len(text) >= SIZE - 100
    started = time.perf_counter()
    redacted, _ = redact(text)
    secret_kinds(text)
    secret_kinds(redacted)
    assert time.perf_counter() - started < 1.0, rule


FRAGMENTS = [
    *("password", "Password", "passwd", "db_pass", "token", "api key", "secret", "auth", "credentials", "sig"),
    *("密码", "令牌", "凭据", "的密码是 ", "为", " is ", " for app", " was set to ", "key=", "name: ", "value="),
    *("=", ":", "：", " => ", ";", "&", ",", " ", "\n", '"', "'", "\\", "`", "**", "*", "_", "|", "| ", " |"),
    *("<password>", "</password>", '<add key="db.password" value="', '"/>', "<b>", "</b>", "&#49;", "&amp;"),
    *("\u200b", "ｐ", "а", "ο", "Ｈｕｎｔｅｒ２２", "Hunter22", "a1", "Passw0rd!23", "u-10023", "order-123"),
    *(
        "[REDACTED]",
        "[REDACTED",
        "${DB_PASSWORD}",
        "******",
        "none",
        "YES)",
        "(using password: ",
        "（模拟日志）",
        "(x)",
    ),
    *("--password ", "--token=", "-p", "mysql ", "sshpass -p ", "redis-cli -a ", "curl -u ", "admin:", "docker login "),
    *("Cookie: ", "Set-Cookie: ", "sid=", "; Path=/", "jdbc:oracle:thin:", "scott/tiger", "@", "@tcp(", "sqlplus "),
    *("ghp_j59pjomke57foiu94c0D1lNQgtYk3IMJ9PvM", "sk-", "glpat-9WJ05X72qibobT_Jox17", "1234567890:AA", "twilio "),
    *("hooks.slack.com/services/", "T0D5YVIJN8/B0XZWPMEA0/EQzH8M2P", "AKIATOA4QPQBMUTN9P7Y", "secret key "),
    *(
        "| k | v |\n|---|---|\n",
        "| password | ",
        "配置项: ",
        "; 值: ",
        "被改成了 ",
        "账号 ",
        " / ",
        "授权码 ",
        " (",
        ")",
    ),
    *(
        "IDENTIFIED BY ",
        "SET PASSWORD FOR ",
        "INSERT INTO t (",
        "app_secret",
        ") VALUES (",
        "'x'",
        "返回 ",
        "'db.secret'",
    ),
    *("requirepass ", "machine h login u password ", "db-1:5432:orders:app:", "kind: Secret\n", "data:\n", "  a: "),
    *("AUTH default ", "kubectl get secret a | base64 -d\n", "rabbitmqadmin -u a -p ", "sk-****", "${a:?b c}", "*:*"),
]


@settings(max_examples=400, database=None, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=14).map("".join))
# Found by this test in CI: a quote left open in a table cell runs into the next, redacted cell.
@example('| k | v |\n|---|---|\nrequirepass "| k | v |\n|---|---|\n')
# Found by a fuzz of these fragments: a table repeats the header's label, '${DB_PASSWORD}' then ':', before a cell.
@example("x <password>${DB_PASSWORD}| k | v |\n|---|---|\n(using password: a1--password  /  |AKIATOA4QPQBMUTN9P7Y")
@example("密码credentials*| k | v |\n|---|---|\n授权码 kubectl get secret a | base64 -d\n / sk-****'db.secret'")
def test_a_text_of_fragments_is_redacted_clean_and_stays_so(text: str) -> None:
    redacted, changed = redact(text)
    assert changed == (secret_kinds(text) != ())
    assert secret_kinds(redacted) == ()
    assert redact(redacted) == (redacted, False)
