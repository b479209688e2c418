"""contract.secrets: a credential in a two-column table (key in one cell, value in the next), in a sentence that
says it was changed, next to its account, or in parentheses after its name; the words, masks and descriptions
that stand in such places are no secrets."""

from __future__ import annotations

import pytest

from contract.secrets import redact, secret_kinds

TABLE_ROWS = [
    # (text, the text redacted): the first cell names a credential, the next holds it
    (
        "| 参数 | 取值 |\n| --- | --- |\n| jwt_secret | Zq8!mLp2Xw |",
        "| 参数 | 取值 |\n| --- | --- |\n| jwt_secret | [REDACTED] |",
    ),
    (
        "| Setting | Value |\n|---|---|\n| user | ops |\n| SMTP password | Mail#2024pw |",
        "| Setting | Value |\n|---|---|\n| user | ops |\n| SMTP password | [REDACTED] |",
    ),
    (
        "| 名称 | 内容 |\n|:--|:--|\n| 访问令牌 | tk_9f8e7d6c5b |",
        "| 名称 | 内容 |\n|:--|:--|\n| 访问令牌 | [REDACTED] |",
    ),
    (
        "| field | value | note |\n|---|---|---|\n| clientSecret | cs-8Hq2Lm9x | prod |",
        "| field | value | note |\n|---|---|---|\n| clientSecret | [REDACTED] | prod |",
    ),
    ("| key | value |\n|---|---|\n| `DB_PASS` | Ops.2018 |", "| key | value |\n|---|---|\n| `DB_PASS` | [REDACTED] |"),
    (
        "| key | value |\n|---|---|\n| password | Hunter22 (prod only) |",
        "| key | value |\n|---|---|\n| password | [REDACTED] |",
    ),
    ("| 项 | 值 |\n|---|---|\n| Kafka 口令 | kF9-x!2q |", "| 项 | 值 |\n|---|---|\n| Kafka 口令 | [REDACTED] |"),
]

TABLE_LOOK_ALIKES = [
    "| key | value |\n|---|---|\n| password | ****** |",
    "| 配置项 | 值 |\n|---|---|\n| client_secret | 见 Vault secret/app |",
    "| 字段 | 说明 |\n|---|---|\n| password | 用户登录密码，至少 8 位 |",
    "| field | type |\n|---|---|\n| password | string |",
    "| key | value |\n|---|---|\n| max_tokens | 4096 |\n| temperature | 0.2 |",
    "| name | value |\n|---|---|\n| api_key | ${API_KEY} |",
    "| 配置项 | 值 |\n|---|---|\n| password | The user password |",
    "| 配置项 | 值 |\n|---|---|\n| token_ttl | 3600 |\n| secret_ref | vault:secret/app |",
    "| key | value |\n|---|---|\n| password | (stored in Vault) |",
    "| password | token |\n|---|---|\n| ****** | ****** |",
    "| api_key | secret_ref |\n|---|---|\n| - | vault:kv/app |",
]

PROSE = [
    # a label, words of the same clause, then "changed to" and the value
    ("Kafka 的 SASL 口令已改为 Kf-8s!xQ2", "Kafka 的 SASL 口令已改为 [REDACTED]"),
    ("运维把 MySQL 密码重置为了 Mq9#pLx2", "运维把 MySQL 密码重置为了 [REDACTED]"),
    ("root 的密码在 03:10 被改成了 Dragon.2026，请同步", "root 的密码在 03:10 被改成了 [REDACTED]，请同步"),
    # an account and its password
    ("grafana 账号 admin / Gr4fana@2024", "grafana 账号 admin / [REDACTED]"),
    ("用户名 deploy\nDepl0y!2024", "用户名 deploy\n[REDACTED]"),
    ("username: ops / 0ps!Secret9", "username: ops / [REDACTED]"),
    # SMTP's authorisation code is the mailbox's password
    ("SMTP 授权码：Qw9eRt7y", "SMTP 授权码：[REDACTED]"),
    ("邮箱授权码为 abcd1234efgh", "邮箱授权码为 [REDACTED]"),
    # English: the value in parentheses, or after a key that belongs to something between two names
    ("The token for ci-runner (Tk9xQ2mLp7) leaked", "The token for ci-runner ([REDACTED]) leaked"),
    ("The API key of the maps service (AIzaFake9x2) expired", "The API key of the maps service ([REDACTED]) expired"),
    ("the secret between gateway and auth is Gw+Au7h/Sh4red=.", "the secret between gateway and auth is [REDACTED]."),
    ("The webhook token is SyqIOeNxwUyeTfivuubsbHKuz; rotate it", "The webhook token is [REDACTED]; rotate it"),
    ("数据库口令为 Winter.2025", "数据库口令为 [REDACTED]"),
]

PROSE_LOOK_ALIKES = [
    "The shared secret between a and b was rotated at 19:38.",
    "The API key for search-api is injected from a Kubernetes Secret at start-up.",
    "the token (JWT) expired",
    "the password (see Vault) rotates monthly",
    "账号 settle_w，密码找 @运维 要，走审批",
    "ES 地址 https://10.8.3.142:9200，账号找 @Lily.Chen 开",
    "username: app_rw\npassword: ******",
    "用户名 deploy\n登录失败 3 次",
    "授权码模式（authorization code）下 state 参数缺失",
    "密码在 19:15 被改成了新的",
    "root 的密码被改成了 8 位以上",
    "the token is ConnectionTimeoutException",
]


@pytest.mark.parametrize(("text", "expected"), TABLE_ROWS + PROSE)
def test_a_credential_in_a_table_row_or_a_sentence_is_replaced(text: str, expected: str) -> None:
    assert secret_kinds(text) == ("secret_key_value",)
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()
    assert redact(expected) == (expected, False)


@pytest.mark.parametrize("text", TABLE_LOOK_ALIKES + PROSE_LOOK_ALIKES)
def test_a_description_a_mask_or_a_word_in_such_a_place_is_no_secret(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)
