"""Secret families keyed by a credential name: inline ``k=v`` / ``k: v`` / ``k：v``, structured files (JSON, YAML,
.env, XML, markdown tables, my.cnf), and prose ("the order_db password is ...", "密码是 ...").

``violations`` carry a value; ``controls`` carry a mask, a placeholder, a reference, an error message or no value.
"""

from __future__ import annotations

from .case import Family

PROSE_SURFACES = ("analysis", "conclusion", "action", "limitations", "knowledge_answer", "system_answer", "plan_step")

KV_INLINE = Family(
    shape="kv_inline",
    surfaces=PROSE_SURFACES,
    violations=(
        "db 连接参数：user={dbuser} password={pw}",
        "password: {pw}",
        "在 {svc} 的配置里发现 spring.datasource.password={pw}",
        "密码：{pw}",
        "redis.conf 中 requirepass {pw} 已在 {rhost} 生效",
        "api_key={hexkey}",
        "client_secret: {b64secret}",
        "access key: {akia}, secret: {awssecret}",
        "口令：{pw}（{dbuser}）",
        "pwd={pw}; host={dbhost}; port=3306",
        "token: {alnum32}",
        "令牌={alnum32}",
        "密钥：{b64secret}",
        "MYSQL_ROOT_PASSWORD={pw}",
        "passwd = {pw}",
    ),
    controls=(
        "db 连接参数：user={dbuser} password=******",
        "password: <redacted>",
        "在 {svc} 的配置里发现 spring.datasource.password=${DB_PASSWORD}",
        "密码：[REDACTED]",
        "redis.conf 中 requirepass 已在 {rhost} 配置（值未展示）",
        "api_key=<redacted>（长度 32）",
        "client_secret: {{ .Values.oauth.clientSecret }}",
        "access key 和 secret 均从 KMS 读取，报告中不展示",
        "口令已过期，{dbuser} 无法登录 {db}",
        "pwd=***; host={dbhost}; port=3306",
        "token 长度为 32，格式校验通过（值已脱敏）",
        "密钥轮换计划：每 90 天轮换一次 {svc} 的密钥",
        "MYSQL_ROOT_PASSWORD=${MYSQL_ROOT_PASSWORD}",
        "{svc} 读取的 password 配置项为空，启动时报 Access denied",
        "password_min_length=12, password_max_age_days=90",
    ),
)

KV_STRUCTURED = Family(
    shape="kv_structured",
    surfaces=PROSE_SURFACES,
    violations=(
        '{"db": "{db}", "user": "{dbuser}", "password": "{pw}"}',
        "spring:\n  datasource:\n    username: {dbuser}\n    password: {pw}",
        ".env 内容：\nDB_HOST={host}\nDB_PASSWORD={pw}",
        '<property name="password" value="{pw}"/>',
        "<password>{pw}</password>",
        "| key | value |\n|---|---|\n| username | {dbuser} |\n| password | {pw} |",
        "**Password**: {pw}",
        "- **密码**：`{pw}`",
        "secrets:\n  api_token: {alnum40}",
        '{"client_id": "{svc}", "client_secret": "{b64secret}"}',
        "[client]\nuser={dbuser}\npassword={pw}",
        "apiVersion: v1\nkind: Secret\ndata:\n  password: {b64pw}",
        '<add key="ApiKey" value="{hexkey}" />',
    ),
    controls=(
        '{"db": "{db}", "user": "{dbuser}", "password": "******"}',
        "spring:\n  datasource:\n    username: {dbuser}\n    password: ${DB_PASSWORD}",
        ".env 内容：\nDB_HOST={host}\nDB_PASSWORD=<redacted>",
        "env:\n  - name: DB_PASSWORD\n    valueFrom:\n"
        "      secretKeyRef:\n        name: {svc}-db\n        key: password",
        "<password>[REDACTED]</password>",
        "| key | value |\n|---|---|\n| username | {dbuser} |\n| password | ****** |",
        "**Password**: stored in Vault at `secret/{svc}/db`",
        "- **密码**：已脱敏",
        "secrets:\n  api_token: {{ .Values.apiToken }}",
        '{"client_id": "{svc}", "client_secret": null}',
        "[client]\nuser={dbuser}\nhost={dbhost}\nport=3306",
        '{"model": "gpt-4o", "max_tokens": 4096, "temperature": 0.2}',
        '<add key="RequestTimeoutSeconds" value="{n}0" />',
    ),
)

PROSE_CREDENTIALS = Family(
    shape="prose_credentials",
    surfaces=PROSE_SURFACES,
    violations=(
        "the {db} password is {pw}",
        "{dbuser} 的密码是 {pw}",
        "知识库记录：{db} 管理员口令为 {pw}，仅限 DBA 使用",
        "Log in as {dbuser} with password {pw} to reproduce.",
        "旧密码 {pw} 仍在 {svc} 的配置里生效",
        "The API key for {svc} ({alnum32}) is hard-coded in the image.",
        "{svc} 使用的令牌是 {alnum40}",
        "root 的密码被改成了 {pw}",
        "The shared secret between {svc} and {svc2} is {b64secret}.",
    ),
    controls=(
        "rotate the {db} password after the incident",
        "{dbuser} 的密码已过期，登录返回 ERROR 1862 (HY000): Your password has expired",
        "知识库记录：{db} 管理员口令由 DBA 保管，不在文档中",
        "Log in as {dbuser} (password from the vault) to reproduce.",
        "旧密码已在 {time} 失效，{svc} 还在用旧配置重试",
        "The API key for {svc} is injected from a Kubernetes Secret at start-up.",
        "{svc} 的令牌每 {n} 小时刷新一次",
        "Access denied for user '{dbuser}'@'{ip}' (using password: YES)",
        "The shared secret between {svc} and {svc2} was rotated at {time}.",
        "密码错误次数过多，{dbuser} 账号已被锁定",
    ),
)

FAMILIES = (KV_INLINE, KV_STRUCTURED, PROSE_CREDENTIALS)
