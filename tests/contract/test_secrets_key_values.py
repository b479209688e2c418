"""contract.secrets reads text through the normal form: a value after a key naming a credential is found in any
syntax (markdown, XML, tables, prose, Chinese labels, hidden or look-alike characters) and replaced where it stands
in the text as written; ids, digests, masks and words about credentials stay as they are."""

from __future__ import annotations

import pytest

from contract.secrets import REDACTED, redact, secret_kinds

KEYS = [
    # every key word, in every syntax: (text, the text redacted)
    ("password=Hunter22", "password=[REDACTED]"),
    ("passwd: Hunter22", "passwd: [REDACTED]"),
    ("pwd：Hunter22", "pwd：[REDACTED]"),
    ('"passphrase": "correct horse 7"', '"passphrase": "[REDACTED]"'),
    ("secret: s3cr3t-v", "secret: [REDACTED]"),
    ("client secret: cs-9Xq2", "client secret: [REDACTED]"),
    ("token=tk9Xq2Lm", "token=[REDACTED]"),
    ("access token: at-9Xq2Lm", "access token: [REDACTED]"),
    ("refresh token = rt-998877", "refresh token = [REDACTED]"),
    ("api key: k3y-9d8c", "api key: [REDACTED]"),
    ("api_key=k3y-9d8c", "api_key=[REDACTED]"),
    ("apikey='k3y 9d8c'", "apikey='[REDACTED]'"),
    ("access key: AK9d8c7b", "access key: [REDACTED]"),
    ("secret_key=SK9d8c7b", "secret_key=[REDACTED]"),
    ("private key: pk-9d8c7b", "private key: [REDACTED]"),
    ("credentials: ops:Zx81qpL", "credentials: [REDACTED]"),
    ("credential=Zx81qpL", "credential=[REDACTED]"),
    ("auth: Zx81qpL", "auth: [REDACTED]"),
    ("X-Auth: Bearer abc123def", "X-Auth: Bearer [REDACTED]"),
    ("password => 'Hunter22'", "password => '[REDACTED]'"),
    ('password := "Hunter22"', 'password := "[REDACTED]"'),
    ("db_pass=Hunter22 redis.pass: R3dis", "db_pass=[REDACTED] redis.pass: [REDACTED]"),
    ("X-Amz-Signature=5f4dcc3b5a&x=1", "X-Amz-Signature=[REDACTED]&x=1"),
    ("PGPASSWORD=Hunter22 psql -h db", "PGPASSWORD=[REDACTED] psql -h db"),
    ("MYSQL_PWD=Hunter22 mysql -h db", "MYSQL_PWD=[REDACTED] mysql -h db"),
    ("REDISCLI_AUTH=Hunter22 redis-cli", "REDISCLI_AUTH=[REDACTED] redis-cli"),
    ("export DB_PASSWORD='Hunter 22'", "export DB_PASSWORD='[REDACTED]'"),
    ("密码：Hunter22", "密码：[REDACTED]"),
    ("口令=Hunter22", "口令=[REDACTED]"),
    ("密钥: k3y-9d8c", "密钥: [REDACTED]"),
    ("秘钥：k3y-9d8c", "秘钥：[REDACTED]"),
    ("私钥：pk-9d8c7b", "私钥：[REDACTED]"),
    ("令牌：tk9Xq2Lm", "令牌：[REDACTED]"),
    ("凭证：Zx81qpL", "凭证：[REDACTED]"),
    ("凭据=Zx81qpL", "凭据=[REDACTED]"),
    ("密码是：Hunter22", "密码是：[REDACTED]"),
    # markdown
    ("**Password**: Hunter22", "**Password**: [REDACTED]"),
    ("`db_password`: `Hunter22`", "`db_password`: `[REDACTED]`"),
    ("**数据库密码**：Hunter22", "**数据库密码**：[REDACTED]"),
    ("- __token__: *tk9Xq2Lm*", "- __token__: *[REDACTED]*"),
    ("password: **Hunter22**", "password: **[REDACTED]**"),
    ("[login](https://x/l) password=`Hunter22`", "[login](https://x/l) password=`[REDACTED]`"),
    # XML and HTML
    ("<password>Hunter22</password>", "<password>[REDACTED]</password>"),
    ("<db.password>Hunter22</db.password>", "<db.password>[REDACTED]</db.password>"),
    ('<add key="db.password" value="Hunter22"/>', '<add key="db.password" value="[REDACTED]"/>'),
    ('<add key="db.password" value="Hun&amp;ter22"/>', '<add key="db.password" value="[REDACTED]"/>'),
    ('<property name="jdbc.password" value="Hunter22"/>', '<property name="jdbc.password" value="[REDACTED]"/>'),
    ('<input type="password" value="Hunter22">', '<input type="password" value="[REDACTED]">'),
    ('<param name="password">Hunter22</param>', '<param name="password">[REDACTED]</param>'),
    ("<p>password: <b>Hunter22</b></p>", "<p>password: <b>[REDACTED]</b></p>"),
    ("password=&#72;unter22 ok", "password=[REDACTED] ok"),
    ("password=Hunter2&#50; ok", "password=[REDACTED] ok"),
    # named values in configuration
    ("- name: DB_PASSWORD\n  value: Hunter22", "- name: DB_PASSWORD\n  value: [REDACTED]"),
    ('{"name": "DB_PASSWORD", "value": "Hunter22"}', '{"name": "DB_PASSWORD", "value": "[REDACTED]"}'),
    # tables
    ("| password | Hunter22 |", "| password | [REDACTED] |"),
    ("| user | password |\n|---|---|\n| app | Hunter22 |", "| user | password |\n|---|---|\n| app | [REDACTED] |"),
    ("| 账号 | 密码 |\n| --- | --- |\n| app | Hunter22 |", "| 账号 | 密码 |\n| --- | --- |\n| app | [REDACTED] |"),
    ("日志中出现 | password | Sup3rS3cret7 |", "日志中出现 | password | [REDACTED] |"),
    ("x | redis password | R3dis pass | y", "x | redis password | [REDACTED] | y"),
    # prose
    ("the staging db password is Sup3rS3cret.", "the staging db password is [REDACTED]."),
    ("password for app is Adm1n@2024", "password for app is [REDACTED]"),
    ("the password of root was set to Adm1n@2024", "the password of root was set to [REDACTED]"),
    ("The API key is k3y-9d8c7b6a", "The API key is [REDACTED]"),
    ("the token is 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "the token is [REDACTED]"),
    ("tried password Passw0rd!23 twice", "tried password [REDACTED] twice"),
    ("app 的密码是 Sup3rS3cret", "app 的密码是 [REDACTED]"),
    ("数据库密码为 Sup3rS3cret，请尽快修改", "数据库密码为 [REDACTED]，请尽快修改"),
    ("账号 app 的凭据 p@ss-W0rd 已泄露", "账号 app 的凭据 [REDACTED] 已泄露"),
    ("数据库密码我发你：Xy9kLm2pQs", "数据库密码我发你：[REDACTED]"),
    ("root 密码修改为 Xy9kLm2pQs 了", "root 密码修改为 [REDACTED] 了"),
]

HIDDEN = [
    # zero-width characters, full-width forms and look-alike letters inside keys or values
    ("pass\u200bword=Hunter22", "pass\u200bword=[REDACTED]"),
    ("password=Hun\u200bter22 ok", "password=[REDACTED] ok"),
    ("to\u2060ken: tk9Xq2Lm", "to\u2060ken: [REDACTED]"),
    ("pass\u00adword: Hunter22", "pass\u00adword: [REDACTED]"),
    ("ｐａｓｓｗｏｒｄ＝Ｈｕｎｔｅｒ２２", "ｐａｓｓｗｏｒｄ＝[REDACTED]"),
    ("ａｐｉ＿ｋｅｙ：k3y-9d8c", "ａｐｉ＿ｋｅｙ：[REDACTED]"),
    ("pаssword=Hunter22", "pаssword=[REDACTED]"),  # Cyrillic а
    ("tοken: tk9Xq2Lm", "tοken: [REDACTED]"),  # Greek ο
    ("ѕесrеt=Hunter22", "ѕесrеt=[REDACTED]"),  # Cyrillic ѕ, е, с
    ("password=Неllо2024", "password=[REDACTED]"),  # Cyrillic Н, е, о in the value
    ("密\u200b码：Hunter22", "密\u200b码：[REDACTED]"),
    ("**ｐａｓｓｗｏｒｄ**: Ｈｕｎｔｅｒ２２", "**ｐａｓｓｗｏｒｄ**: [REDACTED]"),
]

CLEAN = [
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "md5 5f4dcc3b5aa765d61d8327deb882cf99 sha1 11f6ad8ec52a2984abaafd7c3b516503785c2072",
    "commit 11f6ad8ec52a2984abaafd7c3b516503785c2072",
    "traceId=f26a1abce5480b38 spanId=5480b38f26a1abce trace_id=4bf92f3577b34da6a3ce929d0e0e4736",
    "request 9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b",
    "order-123 pay-4711 req_8f3a2b",
    "nginx:1.25@sha256:0123abcdef0123abcdef",
    "mail ops@example.com and https://example.com/a?b=c",
    "password: ******",
    "password=[REDACTED]",
    "token: 已脱敏",
    "密码已轮换",
    "password reset requested 3 times",
    "token expired",
    "Bearer token missing",
    "Access denied for user 'app'@'10.0.3.17' (using password: YES)",
    "max_tokens: 4096",
    "HikariPool-1 - Connection is not available",
    "error code ERR_TIMEOUT, HTTP 504",
    "upgraded to v1.25.3 at 2026-07-21T02:11:05.123Z",
    "user=order_app@10.0.3.17",
    "检查 db_password 是否配置",
    "rotate the db password",
    "auth: required, auth=none, auth: basic",
    "password=${DB_PASSWORD} password: $DB_PASSWORD password: {{ .Values.db.password }}",
    "export PGPASSWORD=<password>",
    "token=xxx password=? secret: true",
    "private_key: /etc/ssl/private/server.key",
    'password: "" token: ""',
    "the password is wrong! the token is invalid",
    "the secret is stored in vault; api key rotation failed; credentials expired",
    "password hash 5f4dcc3b5aa765d61d8327deb882cf99",
    "令牌 u-10023 的会话",
    "令牌 9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b",
    "token expired after 3600s, password length 12, token count 500",
    "secret db-creds-v2 not found",
    "pass: 12 fail: 0",
    "signature: valid",
    "**Password** reset for `u-10023`",
    "| password | ****** |",
    "<password></password> <token>已脱敏</token>",
    "密码错误：BAD_CREDENTIALS；密码策略：min 12；密码长度：12；密码是否已轮换",
    "cat password | grep x | wc -l; | token | ****** |",
]


@pytest.mark.parametrize(("text", "expected"), KEYS + HIDDEN)
def test_a_value_after_a_key_is_replaced_where_it_stands(text: str, expected: str) -> None:
    assert secret_kinds(text) != ()
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()
    assert redact(expected) == (expected, False)


@pytest.mark.parametrize("text", CLEAN)
def test_ids_masks_and_words_about_credentials_are_no_secrets(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)


@pytest.mark.parametrize(
    "text",
    [
        "password=Hunter22",
        "**Password**: Hunter22",
        "<password>Hunter22</password>",
        "| password | Hunter22 |",
        "the db password is Hunter22",
        "数据库密码为 Hunter22",
        "pass\u200bword=Hunter22",
        "- name: DB_PASSWORD\n  value: Hunter22",
    ],
)
def test_these_forms_are_the_key_value_rule(text: str) -> None:
    assert secret_kinds(text) == ("secret_key_value",)


def test_a_redacted_text_keeps_its_own_characters_around_the_value() -> None:
    text = "提醒：**ｐａｓｓｗｏｒｄ**＝`Ｈｕｎ\u200bｔｅｒ２２`（见日志）"
    redacted, changed = redact(text)
    assert changed and redacted == "提醒：**ｐａｓｓｗｏｒｄ**＝`[REDACTED]`（见日志）"
    assert redacted.count(REDACTED) == 1


def test_many_secrets_in_one_element_are_each_replaced() -> None:
    text = '<config a="password=Hunter22" b="token=tk9Xq2Lm" c="ok">x</config>'
    assert redact(text) == ('<config a="password=[REDACTED]" b="token=[REDACTED]" c="ok">x</config>', True)
