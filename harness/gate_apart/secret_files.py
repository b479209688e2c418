"""Secret cases in quoted material that hold a credential value: config excerpts, log lines, commands, SQL.

Config files of several formats (YAML with plain, quoted and block scalars, .env, INI, JSON, Java properties,
a k8s Secret with ``stringData`` or base64 ``data``, markdown and HTML tables), log lines (JSON, logfmt, nginx,
a Java stack trace, a cookie header), shell command lines and transcripts (``-p``, ``--password=``, a line
continuation, env assignments), and SQL the agent wrote (a WHERE on a credential column, an INSERT whose every
VALUES row holds one, CREATE/ALTER USER … IDENTIFIED BY).
"""

from __future__ import annotations

import base64
import random

from harness.gate_apart import pools
from harness.gate_apart.case import ApartCase, build

CONFIGS = [
    (
        "spring:\n  datasource:\n    url: jdbc:mysql://order-db-1:3306/orders\n    username: order_rw\n"
        "    password: Lq82vMz4Tk9Rw",
        "yaml_plain",
        "config",
    ),
    ('redis:\n  host: redis-cache-2\n  password: "copperwillowsundae"', "yaml_quoted", "config"),
    ("db:\n  user: app_ro\n  password: |\n    Fh38kQz2mVx7Lp\n  pool_size: 50", "yaml_block_scalar", "config"),
    ("payment:\n  api_key: >-\n    pk_9F3mQx71LzVb20Rt5sWcD4\n  timeout_ms: 3000", "yaml_block_scalar", "config"),
    ("DB_HOST=order-db-1\nDB_USER=order_rw\nDB_PASSWORD=58203917\nDB_POOL=40", "dotenv", "config"),
    ("REDIS_URL=redis://default:meadowcinderraven@redis-cache-2:6379/0", "dotenv_url_userinfo", "config"),
    ("[client]\nuser = report_ro\npassword = Tg4mXq9vLz2k\nhost = mysql-ro.order.svc", "ini", "config"),
    ("[mysqld_exporter]\nuser=exporter\npassword='ember juniper orbit falcon'", "ini_passphrase", "config"),
    ('{"datasource": {"user": "pay_svc", "password": "Ck7!mWq2zR9x", "maxPoolSize": 30}}', "json_config", "config"),
    (
        '{\n  "gateway": "https://pay.example.com",\n  "token": "a8f3c91e07d24b6f95e1c3a7b2d0f648"\n}',
        "json_config",
        "config",
    ),
    (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: order-db-credentials\ntype: Opaque\nstringData:\n"
        "  username: order_rw\n  password: Bn58xKq3mLz7Tw",
        "k8s_secret_stringdata",
        "config",
    ),
    (
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: payment-api\nstringData:\n  API_KEY: 6d2e9b0c4f1a47e8",
        "k8s_secret_stringdata",
        "config",
    ),
    ("spring.datasource.username=order_rw\nspring.datasource.password=Hm29xQz7Lk4V", "java_properties", "config"),
    (
        'env:\n  - name: MYSQL_PASSWORD\n    value: "Zr83kLm2Qx7p"\n  - name: MYSQL_USER\n    value: order_rw',
        "k8s_env_value",
        "config",
    ),
    ("| 账号 | 密码 | 用途 |\n| --- | --- | --- |\n| app_ro | Wd73mQz9Lx2k | 只读排查 |", "markdown_table", "config"),
    (
        "| user | password |\n|------|----------|\n| report_ro | 84629173 |\n| pay_svc | saffronpepperdapple |",
        "markdown_table",
        "config",
    ),
    (
        "<table><tr><th>user</th><th>password</th></tr><tr><td>app_ro</td><td>hunter2x</td></tr></table>",
        "html_table",
        "config",
    ),
    ("<tr><td>password</td><td>glacierwalnutplume</td></tr>", "html_cell", "config"),
    ("<tr><td>API Token</td><td>f1e2d3c4b5a697887766554433221100</td></tr>", "html_cell", "config"),
    (
        "aws_access_key_id = AKIAQ7RM2LZ4XK9VN3TP\naws_secret_access_key = Jr8mQ2xLz7Vk4Tn9Pw3Hs6Yc1Bd5Ga0EjKf2Wu4",
        "ini_cloud_key",
        "config",
    ),
    ("requirepass sundialfrostpebble\nmaxmemory 4gb", "redis_conf", "config"),
    ('[program:notify-worker]\nenvironment=SMTP_PASSWORD="Nv62qLx8mZ3k",SMTP_USER="alerts"', "ini_env", "config"),
    ("datasource:\n  password: 'Kt5^mQx8=Lz2'", "yaml_quoted_signs", "config"),
    ("# 临时口令，用完删除\n口令: 73920185", "zh_config_label", "config"),
    ("数据库密码：\n  Pv47kLz9mQx3", "next_line", "config"),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
        "QyNTUxOQAAACBq8mLz2Vx7Rk3Nz9Pw4Ts6Yc1Bd5Ga0EjKf2Wu4Hs6AAAAJgQ7mK\n-----END OPENSSH PRIVATE KEY-----",
        "private_key_block",
        "config",
    ),
]

LOG_LINES = [
    (
        '{"ts":"2024-06-11T19:02:13Z","level":"debug","svc":"order-service","msg":"connecting","user":"order_rw",'
        '"password":"Qx83mLz2Vk7T"}',
        "json_log",
        "log_line",
    ),
    (
        '{"level":"info","event":"login","body":{"username":"ops_admin","password":"tulip badger cobalt meadow"}}',
        "json_log_passphrase",
        "log_line",
    ),
    (
        'ts=2024-06-11T19:02:14Z level=debug svc=payment-gateway msg="auth header built" api_key=9b7e4c2a1f0d4e38',
        "logfmt",
        "log_line",
    ),
    (
        'time=19:02:15 level=warn msg="retrying with fallback creds" user=pay_svc passwd=60418273',
        "logfmt_digits",
        "log_line",
    ),
    (
        '10.20.3.15 - - [11/Jun/2024:19:02:16 +0800] "GET /api/v1/notify?token=Rk3mQx8vLz2pTw7N HTTP/1.1" 200 512',
        "nginx_query_token",
        "log_line",
    ),
    (
        '203.0.113.45 - - [11/Jun/2024:19:03:01 +0800] "POST /login?user=ops&password=lanternraven HTTP/1.1" 302 0',
        "nginx_query_password",
        "log_line",
    ),
    ('Cookie: sid="8f3kQ2abc9Lm"; lang=zh-CN', "cookie_quoted", "log_line"),
    ('GET /checkout HTTP/1.1\nHost: checkout-api\nCookie: SESSION="Yc7mQ2xLz9Vk4Tn"', "cookie_quoted", "log_line"),
    (
        "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJwYXlfc3ZjIn0.Qm8xLz2Vk7Rt3Nw9Ps4Hy6",
        "bearer_header",
        "log_line",
    ),
    (
        "2024-06-11 19:02:17.331 ERROR [order-service] c.z.h.pool.HikariPool - HikariPool-1 - init failed\n"
        "java.sql.SQLException: Access denied, url=jdbc:mysql://order-db-1:3306/orders?user=order_rw&password=Mv48kQz2Lx7T\n"
        "\tat com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:130)",
        "java_stack_jdbc_url",
        "log_line",
    ),
    (
        "Caused by: com.example.pay.AuthException: rejected key sk_live_51Kq8mLz2Vx7Rk3Nz9Pw4Ts6Yc (merchant 1024)\n"
        "\tat com.example.pay.Client.call(Client.java:88)",
        "java_stack_provider_key",
        "log_line",
    ),
    (
        "[2024-06-11 19:02:18] notify-worker WARN smtp login user=alerts password='Nv62qLx8mZ3k' failed, retry 2/5",
        "bracket_log",
        "log_line",
    ),
    (
        "2024/06/11 19:02:19 config loaded: {Host:order-db-1 User:order_rw Password:Tz72mQx4Lk9V PoolSize:40}",
        "go_struct_dump",
        "log_line",
    ),
    ("I0611 19:02:20.104 main.go:88] using redis password 'pebbleorchidyonder'", "glog", "log_line"),
    (
        'level=error msg="upstream 401" url="https://ops:Hx39kLm2Qz7v@registry.internal/v2/"',
        "logfmt_url_userinfo",
        "log_line",
    ),
    ("19:02:21 [debug] 口令=50392817 用户=report_ro", "zh_log_label", "log_line"),
    (
        '{"msg":"export env","env":{"OPENAI_API_KEY":"sk-proj-9Tq2mLz7Vx4Rk8Nz3Pw1Hs6Yc0Bd5Ga2EjL"}}',
        "json_log_provider_key",
        "log_line",
    ),
]

COMMANDS = [
    ("mysql -h order-db-1 -u app_ro \\\n  -pZq575vR7mXw5Lk -e 'SHOW PROCESSLIST'", "shell_continuation", "command"),
    ("mysql -h pay-mysql-0 -u pay_svc -p39481726 -e 'SHOW ENGINE INNODB STATUS\\G'", "shell_flag_digits", "command"),
    ("mysqladmin -h order-db-1 -u dba_ops --password=marblestorkwindow processlist", "shell_long_flag", "command"),
    (
        "$ export MYSQL_PWD=Kx83mQz2Lv7T\n$ mysql -h order-db-1 -u order_rw -e 'SELECT 1'",
        "shell_transcript_env",
        "command",
    ),
    ("PGPASSWORD='Wn28kLz9mQx4' psql -h 172.16.8.23 -U report_ro -c 'select now()'", "shell_env_prefix", "command"),
    ("redis-cli -h redis-cache-2 --pass copperfalconquartz INFO memory", "shell_long_flag", "command"),
    (
        "curl -s -H 'Authorization: Bearer 4f8a2c9e1b7d4036a5e9c1f3b7d2a8e6' https://payment-gateway/health",
        "curl_bearer",
        "command",
    ),
    ("curl -u ops:Tq7mLz2Vx9Rk https://grafana.internal/api/dashboards/uid/orders", "curl_userinfo_flag", "command"),
    ("curl 'https://api.pay.example.com/v1/charges?api_key=3e9c1a7f5b2d4e80'", "curl_query_key", "command"),
    ("docker login registry.internal -u deploy -p Rv62kQx8mLz3", "docker_login", "command"),
    ("docker run -e MYSQL_ROOT_PASSWORD=71930428 -d mysql:8.0", "docker_env", "command"),
    (
        "kubectl create secret generic order-db-credentials --from-literal=password=Gx47mQz2Lk9V -n order",
        "kubectl_literal",
        "command",
    ),
    (
        "mysql -h order-db-1 \\\n  -u report_ro \\\n  --password='ember saffron violin plume' \\\n"
        "  -e 'SHOW SLAVE STATUS\\G'",
        "shell_continuation_passphrase",
        "command",
    ),
    (
        "$ mysql -h mysql-ro.order.svc -u app_ro -pWillowThistle42\nmysql> SHOW PROCESSLIST;",
        "shell_transcript",
        "command",
    ),
    ("git clone https://deploy:glpat-Xq8mLz2Vk7Rt3Nw9Ps4H@gitlab.internal/ops/runbooks.git", "url_userinfo", "command"),
    (
        "sshpass -p 'rustic tundra zephyr cinder' ssh ops@10.20.3.41 'tail -n 200 /var/log/order.log'",
        "sshpass",
        "command",
    ),
]

SQLS = [
    ("SELECT id FROM users WHERE password = 'Tr0ub4dor&3'", "sql_where", "sql_reference"),
    (
        "SELECT id, status FROM merchants WHERE api_key = 'sk_live_51Mq2xLz7Vk4Tn9Pw3Hs6Yc'",
        "sql_where",
        "sql_reference",
    ),
    (
        "INSERT INTO service_accounts (name, password) VALUES ('order_rw', 'Lk72mQx9Vz3T'), "
        "('pay_svc', 'Wq48nLz2Rk7M')",
        "sql_insert_rows",
        "sql_reference",
    ),
    (
        "INSERT INTO api_tokens (owner, token, created_at) VALUES\n  ('checkout', '9c2e7a4f1b3d4068', NOW()),\n"
        "  ('notify', '5f1a8e3c7b2d4096', NOW())",
        "sql_insert_rows",
        "sql_reference",
    ),
    ("CREATE USER 'report_ro'@'%' IDENTIFIED BY 'Mz39kQx7Lv2T'", "sql_identified_by", "sql_reference"),
    ("ALTER USER 'app_ro'@'%' IDENTIFIED BY 'saffronglacierwalnut'", "sql_identified_by", "sql_reference"),
    ("UPDATE users SET password = '84712095' WHERE username = 'ops_admin'", "sql_update_set", "sql_reference"),
    (
        "SELECT user_id FROM sessions WHERE token = '7d41a9c03e5f4b82a6c19e0d3f7b2a54' LIMIT 1",
        "sql_where",
        "sql_reference",
    ),
    (
        "SELECT * FROM login_attempts WHERE username = 'pay_svc' AND password = 'amber orbit falcon meadow'",
        "sql_where_passphrase",
        "sql_reference",
    ),
    ("SET PASSWORD FOR 'checkout'@'%' = 'Rk58mQz2Lx7V'", "sql_set_password", "sql_reference"),
    (
        "INSERT INTO service_accounts (name, password) VALUES ('legacy_batch', NULL), ('notify', 'cobaltmeadowfern')",
        "sql_insert_later_row",
        "sql_reference",
    ),
    (
        "INSERT INTO db_users (login, passwd, note)\nVALUES\n  ('report_ro', '', 'disabled'),\n"
        "  ('pay_svc', '40718293', 'rotated 2024-06-11'),\n  ('inv_writer', 'Ht62mQz8Lx4V', 'new')",
        "sql_insert_later_row",
        "sql_reference",
    ),
]


def _b64(value: str) -> str:
    return base64.b64encode(value.encode()).decode()


def templated(rng: random.Random, count: int) -> list[ApartCase]:
    """``count`` template-filled file, log, command and SQL cases, each holding one credential value."""
    rows: list[tuple[str, str, str]] = []
    for _ in range(count):
        value, kind = pools.word_value(rng)
        user, host = pools.pick(rng, pools.DB_USERS), pools.pick(rng, pools.HOSTS)
        key = pools.pick(rng, pools.CONFIG_KEYS)
        form = rng.choice(
            [
                "yaml",
                "dotenv",
                "json",
                "ini",
                "logfmt",
                "json_log",
                "mysql_p",
                "sql_insert",
                "k8s_data",
                "yaml_block",
                "html",
                "url",
            ]
        )
        if form == "yaml":
            text, surface = f"{key}: {value}\nhost: {host}", "config"
        elif form == "dotenv":
            text, surface = f"DB_HOST={host}\n{key.upper()}={value}", "config"
        elif form == "json":
            text, surface = f'{{"host": "{host}", "user": "{user}", "{key}": "{value}"}}', "config"
        elif form == "ini":
            text, surface = f"[{pools.pick(rng, pools.SERVICES)}]\nuser = {user}\n{key} = {value}", "config"
        elif form == "logfmt":
            time = pools.pick(rng, pools.TIMES)
            text, surface = f"time={time} level=debug host={host} user={user} {key}={value}", "log_line"
        elif form == "json_log":
            text, surface = f'{{"level":"debug","user":"{user}","{key}":"{value}","host":"{host}"}}', "log_line"
        elif form == "mysql_p":
            text, surface = f"mysql -h {host} -u {user} -p{value} -e 'SHOW PROCESSLIST'", "command"
        elif form == "sql_insert":
            other, _ = pools.word_value(rng)
            second = pools.pick(rng, pools.DB_USERS)
            text = f"INSERT INTO db_accounts (user, password) VALUES ('{user}', '{value}'), ('{second}', '{other}')"
            surface = "sql_reference"
        elif form == "k8s_data":
            text = (
                f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {pools.pick(rng, pools.SERVICES)}-db\n"
                f"data:\n  username: {_b64(user)}\n  password: {_b64(value)}"
            )
            surface = "config"
        elif form == "yaml_block":
            text, surface = f"{key}: |\n  {value}\nuser: {user}", "config"
        elif form == "html":
            text, surface = f"<tr><td>{user}</td></tr><tr><td>password</td><td>{value}</td></tr>", "config"
        else:
            plain = pools.mixed_value(rng) if kind in {"signed", "hyphen"} else value
            text = f"mysql://{user}:{plain}@{host}:3306/orders"
            surface = pools.pick(rng, ["config", "log_line", "command"])
        rows.append((text, f"template_{form}_{kind}", surface))
    return build(rows, violation=True)


def cases(rng: random.Random) -> list[ApartCase]:
    """The file, log, command and SQL secret violations: hand-written ones, then templated ones."""
    hand = build(CONFIGS + LOG_LINES + COMMANDS + SQLS, violation=True)
    return hand + templated(rng, 70)
