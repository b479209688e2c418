"""A credential is known by what names it, not by what its value looks like (issue 30): a label, key, flag or verb
that names a credential makes the value it introduces a secret, whether that value is letters only, digits only,
words, on the next line, after a shell line continuation, quoted, in a block scalar, in a table cell beside its
header or in any row of an INSERT; what is not a value stays text."""

from __future__ import annotations

import pytest

from contract.secrets import REDACTED, redact, secret_kinds

SECRETS = [
    # letters only, after a label in prose
    ("复现用的只读账号密码是 mellowkangarootrek", "mellowkangarootrek"),
    ("The admin console password is frostedpinekeyriver", "frostedpinekeyriver"),
    ("测试环境 Grafana 的登录密码为 bluewhalesunset，请勿外传", "bluewhalesunset"),
    ("the shared secret for the webhook is quietmorningharbor.", "quietmorningharbor"),
    ("Redis 的口令是 silverfoxcanyon", "silverfoxcanyon"),
    ("staging token: amberlighthousewolf", "amberlighthousewolf"),
    ("the root password is changeme", "changeme"),
    ("the password for app_ro is tigerlily", "tigerlily"),
    # digits only
    ("只读账号的密码是 58203917", "58203917"),
    ("the Redis password is 77461029", "77461029"),
    ("MQ 管理台密码：90817263", "90817263"),
    # words and a number, after a label (an id's shape, but no id's words)
    ("the password is hunter-2024", "hunter-2024"),
    ("logging in as report_ro with passwd nectar-marble-willow-51 against order-db-1", "nectar-marble-willow-51"),
    ("排查时使用的登录密码是 moonlit-ember-meadow-52。", "moonlit-ember-meadow-52"),
    # words: a passphrase
    ('the passphrase is "correct horse battery staple"', "correct horse battery staple"),
    ("passphrase: 'purple monkey dishwasher'", "purple monkey dishwasher"),
    # on the next line
    ("只读账号的数据库密码：\nZq574vR7mXw8Lk", "Zq574vR7mXw8Lk"),
    ("Password:\n  hunterorangeriver", "hunterorangeriver"),
    ("数据库密码：\n58203917\n请尽快修改", "58203917"),
    # after a shell line continuation
    ("mysql -h order-db-1 -u app_ro \\\n  -pZq575vR7mXw5Lk -e 'SHOW PROCESSLIST'", "Zq575vR7mXw5Lk"),
    ("redis-cli -h cache-1 \\\n  -a silverfoxcanyon INFO", "silverfoxcanyon"),
    ("app --db-user ro \\\n    --db-password meadowlark42 --port 80", "meadowlark42"),
    # a verb that names the credential
    ("The DBA changed the app_ro password to Zq580vR7mXw0Lk last night", "Zq580vR7mXw0Lk"),
    ("we set the Redis token to maplecreekstone yesterday", "maplecreekstone"),
    ("ops reset the root password to 58203917 at 02:00", "58203917"),
    ("Rotated the API key for billing to Qm7vX2pLk9Rt this morning", "Qm7vX2pLk9Rt"),
    ("DBA 把 app_ro 的密码改成了 mellowkangarootrek", "mellowkangarootrek"),
    # a YAML block scalar
    ("redis:\n  password: |\n    mellowkangarootrek\n  port: 6379", "mellowkangarootrek"),
    ("db:\n  password: >-\n    Zq574vR7mXw8Lk\n", "Zq574vR7mXw8Lk"),
    # an HTML table cell beside its header
    ("<table><tr><td>password</td><td>Zq574vR7mXw8Lk</td></tr></table>", "Zq574vR7mXw8Lk"),
    ("<tr><th>user</th><th>password</th></tr><tr><td>app_ro</td><td>bluewhalesunset</td></tr>", "bluewhalesunset"),
    ("<td>数据库密码</td><td>58203917</td>", "58203917"),
    # a quoted cookie value
    ('Cookie: sid="8f3kQ2abc9"; theme=dark', "8f3kQ2abc9"),
    ("Cookie: session='Zq574vR7mXw8Lk'", "Zq574vR7mXw8Lk"),
    # every VALUES row of an INSERT, a literal inside a function
    (
        "INSERT INTO users (id, name, password) VALUES (1, 'a', 'Zq574vR7mXw8Lk'), (2, 'b', 'mellowkangaroo')",
        "mellowkangaroo",
    ),
    (
        "INSERT INTO accounts (name, api_key) VALUES ('a', 'k1Zq574vR7mX'),\n ('b', 'k2Wq574vR7mX'),\n"
        " ('c', 'k3Eq574vR7mX')",
        "k3Eq574vR7mX",
    ),
    ("INSERT INTO users (name, password) VALUES ('ops', MD5('s3cretPass'))", "s3cretPass"),
    (
        "INSERT INTO t (c1, c2, c3, c4, c5, c6, c7, c8, c9, secret) VALUES (1, 2, 3, 4, 5, 6, 7, 8, 9, 'Qm7vX2pLk9Rt')",
        "Qm7vX2pLk9Rt",
    ),
    # provider keys
    ("OPENAI key in the log: sk-proj-abcdefghijklmnopqrstuv", "sk-proj-abcdefghijklmnopqrstuv"),
    ("sk-proj-Xq3vR7mXw8LkZq574vR7mX leaked", "sk-proj-Xq3vR7mXw8LkZq574vR7mX"),
    # words on a key's line, a JSON Secret's data
    ("passphrase: correct horse battery staple", "horse battery staple"),
    ("附注：Redis 的 requirepass 为 silverotterpancake，建议尽快轮换。", "silverotterpancake"),
    ("配置中心里 spring.datasource.password 的值是 Wn4kR8qZ2pTx，与 DBA 给的不一致。", "Wn4kR8qZ2pTx"),
    ("The secret in order-db-credentials was rotated at 18:50; its new value is Hy7Lm3Qp9Vx2Nc.", "Hy7Lm3Qp9Vx2Nc"),
    ("临时口令 48192736，已用它登录 pay-mysql-0", "48192736"),
    ("数据库账号 pay_svc，密码 saffron meadow violin ember，这是 DBA 写的", "saffron meadow violin ember"),
    ("用于复现的口令为“amber river lantern forty”，是 DBA 临时设置的。", "amber river lantern forty"),
    (
        "测试环境 checkout 的 token 设成了 7f3c9a1e5b2d4806af1e93c7b5d20e48，生产也在用",
        "7f3c9a1e5b2d4806af1e93c7b5d20e48",
    ),
    ("密钥（secret_key）= 3b9e0c7f1a2d48e6b5c4a3f2e1d0c9b8，用于签名回调。", "3b9e0c7f1a2d48e6b5c4a3f2e1d0c9b8"),
    ("Passphrase for the bastion key: velvet canyon orbit maple", "velvet canyon orbit maple"),
    (
        "GitHub token used by the deploy job: ghp_R8mQ2xLz7Vk4Tn9Pw3Hs6Yc1Bd5Ga0EjKf2",
        "ghp_R8mQ2xLz7Vk4Tn9Pw3Hs6Yc1Bd5Ga0EjKf2",
    ),
    ("We logged in as grafana_reader with password 'lanternfrostpebble' to view it.", "lanternfrostpebble"),
    ("still sends the old login password yonder frost glacier maple.", "yonder frost glacier maple"),
    (
        "authenticates with token 0fd8492657fdf732070877be6ecd4efee1578342, which was revoked",
        "0fd8492657fdf732070877be6ecd4efee1578342",
    ),
    (
        "The token coupon-svc uses is 88c655ac244093cc31c577bf17681981d91d55ba.",
        "88c655ac244093cc31c577bf17681981d91d55ba",
    ),
    ("I reproduced it logging in as inv_writer with pwd 5504381713 against pay-mysql-0.", "5504381713"),
    ("Note: the app_ro password\nZq574vR7mXw8Lk\nwas in the runbook page I read.", "Zq574vR7mXw8Lk"),
    ("  password: purple monkey dishwasher\n  user: app", "monkey dishwasher"),
    (
        '{"apiVersion":"v1","data":{"config":"c2VjcmV0LXZhbHVl"},"kind":"Secret","metadata":{"name":"db"}}',
        "c2VjcmV0LXZhbHVl",
    ),
    ('{"kind": "Secret", "type": "Opaque", "stringData": {"url": "mellowkangarootrek"}}', "mellowkangarootrek"),
    # user-info of letters only
    ("amqp://guest:guestpass@mq-1:5672/", "guestpass"),
    ("broker at admin:silverfoxcanyon@mq-1:5672", "silverfoxcanyon"),
]

LOOKALIKES = [
    "请确认密码是否正确",
    "密码是否正确需要和 DBA 确认",
    "the password policy requires 12 characters",
    "please reset your password",
    "password: ${DB_PASSWORD}",
    "password: [REDACTED]",
    "password: ******",
    "密码已过期",
    "密码长度至少 8 位",
    "密码是 8 位数字",
    "密码是 MD5 加密的",
    "密码错误次数是 5",
    "token expired at 10:02",
    "the password is stored in Vault",
    "the password is wrong",
    "The password is incorrect for user app_ro.",
    "the password is too short",
    "the password was changed last night",
    "the password is being rotated",
    "the token is missing",
    "the token is valid for 3600 seconds",
    "the api key is not set",
    "the secret is mounted from order-db-credentials",
    "the password is the same as in staging",
    "Authentication failed: wrong password for user app_ro",
    "password reset requested 3 times",
    "token bucket refill rate 100/s",
    "检查 app_ro 账号的密码是否被修改",
    "日志显示 19:02 起出现大量 Access denied，怀疑应用使用的密码与数据库不一致，建议与 DBA 确认凭据是否轮换",
    "The DBA changed the app_ro password last night",
    "we reset the password to the default policy",
    "rotate the API key to a new one",
    "密码：\n- 长度至少 8 位\n- 必须包含数字",
    "Password:\nrequired",
    "mysql -h order-db-1 -u app_ro \\\n  -p order_db",
    "redis-cli -h cache-1 \\\n  -p 6379 INFO",
    "redis:\n  password: |\n    ${REDIS_PASSWORD}\n",
    "<table><tr><td>password</td><td>用户登录密码</td></tr></table>",
    "<tr><th>user</th><th>status</th></tr><tr><td>app_ro</td><td>locked</td></tr>",
    'Cookie: theme="dark"; lang=zh',
    "INSERT INTO users (id, name, password) VALUES (1, 'a', ?), (2, 'b', ?)",
    "INSERT INTO audit (id, action) VALUES (1, 'password reset'), (2, 'login')",
    "sk-learn is a package name",
    "amqp://mq-1:5672/ with user guest",
    "密码是否过期请查看 IAM 控制台",
    "the password is required",
    "the token is a JWT",
    "the password was reset by the DBA",
    "the password is the problem here",
    "password: not set for this user",
    "token: invalid signature detected",
    '{"kind":"ConfigMap","data":{"config":"c2VjcmV0LXZhbHVl"}}',
    '{"kind":"Secret","data":{"password":"******"}}',
    "the token is ConnectionTimeoutException",
    "the token is HikariPool-1",
    "the secret is order-123",
    "令牌 9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b",
    "password reset requested 3 times",
    "the token bucket algorithm.",
    "kept the old password in memory.",
    "password authentication failed for user app_ro",
    "the API key rotation failed",
    "Bearer token missing",
    "secret db-creds-v2 not found",
    "令牌 bucket refill 速率为 100/s",
    "密码 reset 流程需要审批",
]


@pytest.mark.parametrize(("text", "value"), SECRETS)
def test_a_value_named_as_a_credential_is_a_secret_whatever_it_looks_like(text: str, value: str) -> None:
    assert secret_kinds(text), text
    redacted, changed = redact(text)
    assert changed and value not in redacted and REDACTED in redacted, redacted
    assert secret_kinds(redacted) == (), redacted


@pytest.mark.parametrize("text", LOOKALIKES)
def test_words_about_a_credential_are_no_secret(text: str) -> None:
    assert secret_kinds(text) == (), text
    assert redact(text) == (text, False)
