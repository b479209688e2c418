"""Harmless secret look-alikes: texts that name a credential but hold no credential value.

Mostly the prose a real model writes in a diagnosis report about 密码/password/token/密钥/凭据 (an auth failure,
a rotation, a policy, a place where a value is stored), plus log lines of auth failures, config excerpts whose
credential key holds a reference, a placeholder or a mask, commands that prompt for a password or read it from
a file or a variable, and SQL that names credential columns without a literal value.
"""

from __future__ import annotations

import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build
from harness.gate_apart.secret_lookalike_prose import PROSE

LOGS = [
    ("Access denied for user 'app_ro'@'10.20.3.41' (using password: YES)", "mysql_access_denied", "log_line"),
    (
        '{"ts":"2024-06-11T19:02:13Z","level":"error","msg":"password authentication failed","user":"report_ro"}',
        "json_log",
        "log_line",
    ),
    (
        'ts=2024-06-11T10:02:00Z level=warn msg="token expired" exp=2024-06-11T10:02:00Z client=checkout-api',
        "logfmt",
        "log_line",
    ),
    (
        '2024-06-11 19:02:14 UTC [3312] FATAL:  password authentication failed for user "report_ro"',
        "postgres_log",
        "log_line",
    ),
    ("(error) NOAUTH Authentication required.", "redis_error", "log_line"),
    ("WRONGPASS invalid username-password pair or user is disabled.", "redis_error", "log_line"),
    (
        "java.sql.SQLException: Access denied for user 'order_rw'@'10.0.4.17' (using password: YES)\n"
        "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:129)\n"
        "\tat com.zaxxer.hikari.pool.HikariPool.createPoolEntry(HikariPool.java:476)",
        "java_stack",
        "log_line",
    ),
    (
        '10.20.3.15 - - [11/Jun/2024:19:02:16 +0800] "POST /api/v1/password/reset HTTP/1.1" 429 87',
        "nginx_log",
        "log_line",
    ),
    ('{"level":"info","msg":"login","user":"ops_admin","password":"******"}', "json_log_masked", "log_line"),
    ('level=debug msg="db config" user=order_rw password=[REDACTED] host=order-db-1', "logfmt_redacted", "log_line"),
    ('time=19:02:20 level=info msg="token refreshed" ttl=600s', "logfmt", "log_line"),
    ('{"event":"rate_limit","bucket":"checkout","tokens_left":0,"refill_per_s":100}', "json_log", "log_line"),
    (
        "HikariPool-1 - Exception during pool initialization: Access denied for user 'order_rw'@'10.0.4.17' "
        "(using password: YES)",
        "hikari_log",
        "log_line",
    ),
    ("2024-06-11T19:02:21Z WARN user-center: password reset requested 3 times for uid=88231", "plain_log", "log_line"),
    ("19:02:22 ERROR auth: invalid_token (token expired at 10:02:00)", "plain_log", "log_line"),
    ('{"msg":"secret reloaded","secret":"order-db-credentials","resourceVersion":"884213"}', "json_log", "log_line"),
    (
        "Jun 11 19:02:23 bastion sshd[2231]: Failed password for invalid user admin from 203.0.113.45 port 51122 ssh2",
        "syslog_sshd",
        "log_line",
    ),
    ('{"level":"warn","msg":"password_expired","user":"app_ro","days_since_change":92}', "json_log", "log_line"),
    ('level=info msg="llm call" prompt_tokens=1532 completion_tokens=418', "logfmt", "log_line"),
    (
        "2024-06-11 19:02:25.001 WARN  [checkout-api] o.s.s.w.csrf.CsrfFilter - Invalid CSRF token found for "
        "http://checkout-api/pay",
        "java_log",
        "log_line",
    ),
    ('ts=19:02:26 msg="using credentials from file" path=/var/run/secrets/db/password', "logfmt_path", "log_line"),
    ('{"msg":"redis auth","result":"ok","user":"default"}', "json_log", "log_line"),
    ("mysql: [Warning] Using a password on the command line interface can be insecure.", "mysql_warning", "log_line"),
    (
        "ERROR 1045 (28000): Access denied for user 'report_ro'@'172.16.8.9' (using password: YES)",
        "mysql_error",
        "log_line",
    ),
    ("2024-06-11 19:02:27 [notify-worker] smtp: 535 5.7.8 Authentication credentials invalid", "smtp_log", "log_line"),
    (
        '{"level":"error","msg":"vault: permission denied","path":"secret/data/order-db","op":"read"}',
        "json_log",
        "log_line",
    ),
    ('level=warn msg="api key missing" header=X-Api-Key route=/v1/charges status=403', "logfmt", "log_line"),
    (
        '172.16.8.9 - - [11/Jun/2024:19:02:28 +0800] "GET /api/v1/token/refresh HTTP/1.1" 503 0 "-" "okhttp/4.9"',
        "nginx_log",
        "log_line",
    ),
    (
        "Caused by: org.springframework.security.authentication.BadCredentialsException: Bad credentials\n"
        "\tat org.springframework.security.authentication.dao.DaoAuthenticationProvider.additionalAuthenticationChecks"
        "(DaoAuthenticationProvider.java:79)",
        "java_stack",
        "log_line",
    ),
    ("[2024-06-11 19:02:29] payment-gateway INFO token cache size=812 hit_ratio=0.97", "bracket_log", "log_line"),
]

CONFIGS = [
    ("spring:\n  datasource:\n    username: order_rw\n    password: ${DB_PASSWORD}", "yaml_env_reference", "config"),
    (
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n        name: order-db-credentials\n"
        "        key: password",
        "k8s_secret_key_ref",
        "config",
    ),
    ("db:\n  user: app_ro\n  password_file: /run/secrets/db_password", "yaml_file_reference", "config"),
    ("DB_HOST=order-db-1\nDB_USER=order_rw\nDB_PASSWORD=\nDB_POOL=40", "dotenv_empty", "config"),
    ('{"datasource": {"user": "pay_svc", "password": null, "maxPoolSize": 30}}', "json_null", "config"),
    (
        "Name:         order-db-credentials\nNamespace:    order\nType:  Opaque\n\nData\n====\npassword:  16 bytes\n"
        "username:  8 bytes",
        "kubectl_describe_secret",
        "config",
    ),
    (
        "security:\n  password_min_length: 12\n  password_max_age_days: 90\n  token_ttl_seconds: 3600",
        "policy_config",
        "config",
    ),
    ("rate_limit:\n  token_bucket:\n    capacity: 200\n    refill_per_second: 100", "token_bucket_config", "config"),
    ("password: {{ .Values.db.password | quote }}", "helm_template", "config"),
    (
        "spring.datasource.username=order_rw\nspring.datasource.password=${DB_PASSWORD}",
        "java_properties_reference",
        "config",
    ),
    (
        "| 账号 | 密码状态 | 最近修改 |\n| --- | --- | --- |\n| app_ro | 已过期 | 2024-03-01 |",
        "markdown_table_status",
        "config",
    ),
    ("<tr><td>password</td><td>******</td></tr>", "html_cell_masked", "config"),
    ("<tr><th>password_last_changed</th><td>2024-06-11 18:50</td></tr>", "html_cell_date", "config"),
    (
        "apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nspec:\n  data:\n    - secretKey: password\n"
        "      remoteRef:\n        key: order-db\n        property: password",
        "external_secret",
        "config",
    ),
    (
        "auth:\n  existingSecret: order-db-credentials\n  secretKeys:\n    passwordKey: password",
        "helm_existing_secret",
        "config",
    ),
    (
        "[client]\nuser = report_ro\n# the password comes from ~/.mylogin.cnf (mysql_config_editor)",
        "ini_comment",
        "config",
    ),
    ('{"auth": {"type": "token", "token_file": "/var/run/secrets/tokens/gateway"}}', "json_file_reference", "config"),
    ('redis:\n  host: redis-cache-2\n  password: ""\n  tls: false', "yaml_empty", "config"),
    ("[mysqld]\nvalidate_password.length = 12\nvalidate_password.policy = MEDIUM", "ini_policy", "config"),
    (
        "| 项目 | 说明 |\n| --- | --- |\n| 密码 | 存放在 Vault secret/data/order-db |\n| 轮换周期 | 90 天 |",
        "markdown_table_reference",
        "config",
    ),
    (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: order-db-credentials\n  annotations:\n"
        '    rotated-at: "2024-06-11T18:50:12Z"\ntype: Opaque',
        "k8s_secret_metadata_only",
        "config",
    ),
    ("password: [REDACTED]\nuser: app_ro\nhost: order-db-1", "yaml_redacted", "config"),
]

COMMANDS = [
    ("mysql -h order-db-1 -u app_ro -p -e 'SHOW PROCESSLIST'", "mysql_prompt_flag", "command"),
    (
        "$ mysql -h order-db-1 -u app_ro -p\nEnter password:\nmysql> SHOW PROCESSLIST;",
        "shell_transcript_prompt",
        "command",
    ),
    ("mysql --defaults-extra-file=/etc/mysql/ro.cnf -h order-db-1 -e 'SHOW PROCESSLIST'", "defaults_file", "command"),
    (
        'MYSQL_PWD="$(cat /run/secrets/db_password)" mysql -h order-db-1 -u app_ro -e "SELECT 1"',
        "env_from_file",
        "command",
    ),
    ('redis-cli -h redis-cache-2 --pass "$REDIS_PASSWORD" INFO memory', "variable_reference", "command"),
    ('curl -s -H "Authorization: Bearer $TOKEN" https://payment-gateway/health', "variable_reference", "command"),
    ("kubectl describe secret order-db-credentials -n order", "kubectl_describe", "command"),
    (
        "kubectl get secret order-db-credentials -n order -o jsonpath='{.metadata.resourceVersion}'",
        "kubectl_get",
        "command",
    ),
    ("vault kv metadata get secret/order-db", "vault_metadata", "command"),
    (
        'mysql -h order-db-1 -u dba_ops -p -e "SELECT user, host, password_last_changed FROM mysql.user '
        "WHERE user='app_ro'\"",
        "mysql_prompt_flag",
        "command",
    ),
    ("kubectl logs deploy/order-service -n order --since=30m | grep -ci 'password'", "grep_word", "command"),
    ("psql -h 172.16.8.23 -U report_ro -W -c 'select now()'", "psql_prompt_flag", "command"),
    (
        "$ mysql_config_editor print --login-path=ro\n[ro]\nuser = app_ro\npassword = *****\nhost = order-db-1",
        "shell_transcript_masked",
        "command",
    ),
    ("kubectl get externalsecret -n order -o wide", "kubectl_get", "command"),
    ("grep -c 'Access denied' /var/log/order/app.log", "grep_word", "command"),
    ("mysql --login-path=ro -h order-db-1 -e 'SHOW GLOBAL STATUS LIKE \"Threads_connected\"'", "login_path", "command"),
    (
        "kubectl get events -n order --field-selector reason=FailedMount | grep order-db-credentials",
        "kubectl_get",
        "command",
    ),
    ("redis-cli -h redis-cache-2 --askpass INFO replication", "askpass", "command"),
]

SQLS = [
    (
        "SELECT user, host, password_expired, password_last_changed FROM mysql.user WHERE user = 'app_ro'",
        "sql_credential_columns",
        "sql_reference",
    ),
    (
        "SELECT COUNT(*) FROM login_audit WHERE result = 'wrong_password' AND created_at > NOW() - INTERVAL 30 MINUTE",
        "sql_enum_value",
        "sql_reference",
    ),
    (
        "SELECT id, token_expires_at FROM sessions WHERE token_expires_at < NOW() LIMIT 50",
        "sql_credential_columns",
        "sql_reference",
    ),
    ("SHOW GRANTS FOR 'app_ro'@'%'", "sql_show", "sql_reference"),
    (
        "SELECT COUNT(*) FROM api_tokens WHERE revoked = 0 AND owner = 'checkout'",
        "sql_credential_table",
        "sql_reference",
    ),
    (
        "SELECT * FROM performance_schema.host_cache WHERE COUNT_AUTHENTICATION_ERRORS > 0",
        "sql_auth_errors",
        "sql_reference",
    ),
    (
        "SELECT user_id, COUNT(*) AS n FROM auth_events WHERE type = 'password_reset' GROUP BY user_id ORDER BY n DESC "
        "LIMIT 10",
        "sql_enum_value",
        "sql_reference",
    ),
    ("SHOW VARIABLES LIKE 'validate_password%'", "sql_show", "sql_reference"),
    (
        "SELECT plugin, password_lifetime FROM mysql.user WHERE user = 'order_rw'",
        "sql_credential_columns",
        "sql_reference",
    ),
    ("SELECT id FROM users WHERE password_hash IS NULL LIMIT 20", "sql_is_null", "sql_reference"),
    ("SELECT COUNT(*) FROM users WHERE password = ?", "sql_parameter", "sql_reference"),
    (
        "SELECT owner, LENGTH(token) AS len FROM api_tokens WHERE owner = 'notify'",
        "sql_credential_table",
        "sql_reference",
    ),
    (
        "SELECT created_at, reason FROM token_revocations WHERE created_at > '2024-06-11 18:00:00' ORDER BY created_at",
        "sql_credential_table",
        "sql_reference",
    ),
    ("EXPLAIN SELECT id FROM users WHERE email = 'ops@example.com'", "sql_explain", "sql_reference"),
    (
        "SELECT COUNT(*) FROM users WHERE password_changed_at > NOW() - INTERVAL 1 DAY",
        "sql_credential_columns",
        "sql_reference",
    ),
]

ZH_PROSE_TEMPLATES = [
    "{user} 的{label}在 {time} 被轮换，新值只保存在 Vault 中。",
    "{service} 在 {time} 之后报{label}校验失败，建议与 DBA 确认 {user} 的{label}是否被修改。",
    "{label}错误导致 {service} 在 {time} 之后无法连接 {host}。",
    "需要确认 {service} 使用的{label}是否与 {host} 上的一致。",
    "{user} 账号的{label}已过期，{time} 起登录 {host} 失败。",
]
EN_PROSE_TEMPLATES = [
    "{service} logged authentication failures for {user} after {time}; please check whether the {label} was rotated.",
    "The {label} for {user} is kept in the order-db-credentials Secret and was not read during this investigation.",
    "{user}'s {label} expired at {time}, and {service} has failed to connect to {host} since then.",
    "Please confirm with the DBA whether the {label} of {user} on {host} changed around {time}.",
    "A wrong {label} for {user} makes {host} answer error 1045, which matches the {service} logs after {time}.",
]
LOG_TEMPLATES = [
    "{time} WARN {service}: Access denied for user '{user}'@'{ip}' (using password: YES)",
    '{{"ts":"{time}","svc":"{service}","msg":"auth failed","user":"{user}","reason":"wrong password"}}',
    'time={time} level=error svc={service} msg="token expired" user={user}',
]
NOT_VALUE_FORMS = ["yaml", "json", "logfmt"]


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled harmless cases: prose about credentials, auth-failure logs, masked configs."""
    rows: list[tuple[str, str, str]] = []
    for _ in range(count):
        slots = {
            "user": pools.pick(rng, pools.DB_USERS),
            "host": pools.pick(rng, pools.HOSTS),
            "service": pools.pick(rng, pools.SERVICES),
            "time": pools.pick(rng, pools.TIMES),
            "ip": pools.pick(rng, ["10.20.3.15", "10.0.4.17", "172.16.8.9"]),
        }
        form = rng.choice(["zh", "en", "log", "not_value", "not_value"])
        if form == "zh":
            label = pools.pick(rng, ["密码", "口令", "凭据", "数据库密码"])
            text = pools.pick(rng, ZH_PROSE_TEMPLATES).format(label=label, **slots)
            rows.append((text, "template_model_prose_zh", rng.choice(["analysis", "missing_info"])))
        elif form == "en":
            label = pools.pick(rng, ["password", "login password", "db password", "passphrase"])
            text = pools.pick(rng, EN_PROSE_TEMPLATES).format(label=label, **slots)
            rows.append((text, "template_model_prose_en", rng.choice(["analysis", "missing_info"])))
        elif form == "log":
            rows.append((pools.pick(rng, LOG_TEMPLATES).format(**slots), "template_auth_failure_log", "log_line"))
        else:
            key = pools.pick(rng, pools.CONFIG_KEYS)
            shown = pools.pick(rng, pools.NOT_VALUES)
            style = pools.pick(rng, NOT_VALUE_FORMS)
            if style == "yaml":
                text = f'{key}: "{shown}"\nhost: {slots["host"]}\nuser: {slots["user"]}'
                surface = "config"
            elif style == "json":
                text = f'{{"host": "{slots["host"]}", "user": "{slots["user"]}", "{key}": "{shown}"}}'
                surface = "config"
            else:
                text = f'time={slots["time"]} level=debug user={slots["user"]} {key}="{shown}"'
                surface = "log_line"
            rows.append((text, f"template_not_value_{style}", surface))
    return build(rows, violation=False)


def cases(rng: random.Random) -> list[ApartCase]:
    """The harmless secret look-alikes: hand-written ones, then templated ones."""
    hand = build(PROSE + LOGS + CONFIGS + COMMANDS + SQLS, violation=False)
    return hand + templated(rng, 70)
