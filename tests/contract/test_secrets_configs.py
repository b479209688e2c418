"""contract.secrets: credentials that SQL sets or stores, that configuration files hold under keys naming no
credential (redis.conf, .netrc, .pgpass, Kubernetes Secrets), that a console session shows (Redis AUTH, a decoded
secret) and that CLIs take after their user; their look-alikes (placeholders, hashes, formats, other kinds) pass."""

from __future__ import annotations

import pytest

from contract.secrets import redact, secret_kinds

SQL = [
    (
        "GRANT ALL ON db.* TO 'etl'@'%' IDENTIFIED BY \"Etl#2024x\";",
        "GRANT ALL ON db.* TO 'etl'@'%' IDENTIFIED BY \"[REDACTED]\";",
    ),
    (
        "CREATE USER app IDENTIFIED WITH mysql_native_password BY 'N4tive!pw';",
        "CREATE USER app IDENTIFIED WITH mysql_native_password BY '[REDACTED]';",
    ),
    ("alter user scott identified by Tiger_2019;", "alter user scott identified by [REDACTED];"),
    ("SET PASSWORD = PASSWORD('0ld$tyle9');", "SET PASSWORD = PASSWORD('[REDACTED]');"),
    ("set password for ops@localhost = 'Ops.2018';", "set password for ops@localhost = '[REDACTED]';"),
    (
        "CREATE ROLE reporter WITH LOGIN ENCRYPTED PASSWORD 'Rep0rt!ng';",
        "CREATE ROLE reporter WITH LOGIN ENCRYPTED PASSWORD '[REDACTED]';",
    ),
    (
        "REPLACE INTO oauth_client (client_id, `client_secret`, scope) VALUES ('web', 'cs_9fQ2mLx7', 'read');",
        "REPLACE INTO oauth_client (client_id, `client_secret`, scope) VALUES ('web', '[REDACTED]', 'read');",
    ),
    (
        "INSERT INTO users (id, name, password)\nVALUES (7, 'ops', 'Opsp@ss77');",
        "INSERT INTO users (id, name, password)\nVALUES (7, 'ops', '[REDACTED]');",
    ),
    (
        "insert into t_user (name, pwd, api_token) values ('a', 'Pw1xyz!', 'tk-9a8b7c')",
        "insert into t_user (name, pwd, api_token) values ('a', '[REDACTED]', '[REDACTED]')",
    ),
    ("UPDATE u SET password = MD5('Welc0me!') WHERE id = 1", "UPDATE u SET password = MD5('[REDACTED]') WHERE id = 1"),
    ('config.get("db.password") returned Xy9kLm2pQs', 'config.get("db.password") returned [REDACTED]'),
    (
        "查询 key = 'oss.access_key' 的配置，返回值为 Oss9xQ2mLp",
        "查询 key = 'oss.access_key' 的配置，返回值为 [REDACTED]",
    ),
]

SQL_LOOK_ALIKES = [
    "SELECT app_id FROM t_api_client WHERE app_secret IS NULL;",
    "SELECT id, username, password_hash FROM user_account WHERE id = 82961882",
    "INSERT INTO users (id, name, password) VALUES (?, ?, ?)",
    "INSERT INTO users (name, password) VALUES (:name, :password)",
    "INSERT INTO users (id, name, password_hash) VALUES (1, 'ops', 'x9f8e7')",
    "INSERT INTO t (token_type, count) VALUES ('bearer', 3)",
    "CREATE USER 'app'@'%' IDENTIFIED BY RANDOM PASSWORD;",
    "CREATE USER 'app'@'%' IDENTIFIED WITH caching_sha2_password AS '$A$005$abc';",
    "SELECT cfg_value FROM sys_config WHERE cfg_key = 'sms.secret'; 返回空",
    "SELECT name FROM integrations WHERE secret_ref = 'vault:secret/checkout-api'",
    "SHOW GRANTS FOR 'app'@'%';",
]

CONFIG_FILES = [
    ('requirepass "R3dis P@ss"', 'requirepass "[REDACTED]"'),
    ("CONFIG SET requirepass Ops.2018", "CONFIG SET requirepass [REDACTED]"),
    ("masterauth m4st3r!Auth", "masterauth [REDACTED]"),
    (
        "machine api.heroku.com\n  login ops@example.com\n  password h3r0ku-T0ken",
        "machine api.heroku.com\n  login ops@example.com\n  password [REDACTED]",
    ),
    ("default login anonymous password Anon.2020", "default login anonymous password [REDACTED]"),
    ("*:*:*:replicator:R3pl!cate", "*:*:*:replicator:[REDACTED]"),
    ("localhost:5432:*:postgres:Pg\\:pass9", "localhost:5432:*:postgres:[REDACTED]"),
    ("`.pgpass`：`10.0.0.7:6432:orders:app:Ord3rs#db`", "`.pgpass`：`10.0.0.7:6432:orders:app:[REDACTED]`"),
    (
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\nstringData:\n  DB_PASS: "S3cure-Pa55"',
        'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\ntype: Opaque\nstringData:\n  DB_PASS: "[REDACTED]"',
    ),
    (
        "apiVersion: v1\ndata:\n  password: czNjcjN0UGFzcw==\n  username: YXBw\nkind: Secret\nmetadata:\n  name: db",
        "apiVersion: v1\ndata:\n  password: [REDACTED]\n  username: [REDACTED]\nkind: Secret\nmetadata:\n  name: db",
    ),
    (
        "kind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: '******'\n  tls.key: LS0tLS1CRUdJTi",
        "kind: Secret\ntype: kubernetes.io/tls\ndata:\n  tls.crt: '******'\n  tls.key: [REDACTED]",
    ),
]

CONFIG_LOOK_ALIKES = [
    "redis.conf 中 requirepass 已在 codis-proxy-1 配置（值未展示）",
    'requirepass ""',
    "machine git.internal login deploy",
    "hostname:port:database:username:password",
    "SHA1 Fingerprint=C7:70:FB:C6:E0:F9:F5:B7",
    "app.py:42:main:INFO:started",
    "db-1:5432:orders:app:******",
    '{"ts":"2024-06-26T01:15:00","svc":"geo-fence","event":"login_failed"}',
    "apiVersion: v1\nkind: ConfigMap\ndata:\n  log_level: debug\n  endpoint: Xy9kLm2pQs",
    "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: '******'\n  token: <redacted>",
    'kind: Secret\ntype: kubernetes.io/dockerconfigjson\nmetadata:\n  name: pull\n  annotations:\n    a: "true"',
    "kind: Secret\nmetadata:\n  name: a\n---\nkind: ConfigMap\ndata:\n  url: Xy9kLm2pQs",
]

CONSOLES = [
    ("127.0.0.1:6379> AUTH S3cr3t!pw", "127.0.0.1:6379> AUTH [REDACTED]"),
    ("redis> auth ops Ops.2018", "redis> auth ops [REDACTED]"),
    (
        "客户端发送 AUTH default xfty.cuPa86，服务端回 WRONGPASS",
        "客户端发送 AUTH default [REDACTED]，服务端回 WRONGPASS",
    ),
    ("vault kv get -field=password secret/app\nV4ult!pw9", "vault kv get -field=password secret/app\n[REDACTED]"),
    (
        "aws secretsmanager get-secret-value --secret-id db --query SecretString --output text\nAws$ecret42",
        "aws secretsmanager get-secret-value --secret-id db --query SecretString --output text\n[REDACTED]",
    ),
    (
        "oc get secrets app -o jsonpath='{.data.token}' | base64 --decode\ntk-9f8e7d",
        "oc get secrets app -o jsonpath='{.data.token}' | base64 --decode\n[REDACTED]",
    ),
    ("cqlsh -u cassandra -p 'C4ss!ndra' db-1", "cqlsh -u cassandra -p '[REDACTED]' db-1"),
    ("mosquitto_sub -h broker -u iot -P 1oT#pass -t x", "mosquitto_sub -h broker -u iot -P [REDACTED] -t x"),
    ("nodetool -u jmx -pw Jmx9pass status", "nodetool -u jmx -pw [REDACTED] status"),
    ("rabbitmqadmin -H mq -u admin -p Ops.2025 list queues", "rabbitmqadmin -H mq -u admin -p [REDACTED] list queues"),
]

CONSOLE_LOOK_ALIKES = [
    "(error) NOAUTH Authentication required.",
    "AUTH failed after 3 retries",
    "AUTH OK",
    "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\n$ echo done",
    "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d\nError from server (NotFound)",
    "echo Y2FsbGJhY2s= | base64 -d\ncallback",
    "rabbitmqadmin -H mq -P 15672 -u admin list queues",
    "cqlsh -u cassandra -p $CQL_PASS",
    "kubectl -n prod get pods -o wide",
    "docker run -u 1000 -p 8080:8080 app:1.2",
]


@pytest.mark.parametrize(("text", "expected"), SQL + CONFIG_FILES + CONSOLES)
def test_a_credential_set_stored_or_shown_is_replaced(text: str, expected: str) -> None:
    assert secret_kinds(text) == ("secret_key_value",)
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()
    assert redact(expected) == (expected, False)


@pytest.mark.parametrize("text", SQL_LOOK_ALIKES + CONFIG_LOOK_ALIKES + CONSOLE_LOOK_ALIKES)
def test_a_placeholder_a_hash_a_format_or_another_kind_is_no_secret(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)
