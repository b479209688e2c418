"""Secret look-alikes that must pass: the same pastes masked or templated, and identifiers that only look random.

The paired families mirror ``secret_leaks`` line for line where they can (same file, same key, value masked or
referenced); the rest are hashes, ids, addresses, flags and error messages that merely sit near credential words.
"""

from __future__ import annotations

from .cases import Base, Key, table

_LOOKALIKES: dict[Key, list[str]] = {
    ("dotenv", False, "action"): [
        "在 `.env` 里补上：\n```\nDB_HOST={host}\nDB_USER=app\nDB_PASSWORD=${DB_PASSWORD}\n```",
    ],
    ("dotenv", False, "analysis"): [
        "对比发现 {svc} staging 的 `.env` 和 prod 不一致：prod 里是 `REDIS_PASSWORD=******`，staging 为空。",
        "The container env of {svc} shows `STRIPE_SECRET_KEY=[REDACTED]` being loaded at startup.",
    ],
    ("dotenv", False, "knowledge_answer"): [
        "`.env.example` 里只有键名：`DB_PASSWORD=`、`JWT_SECRET=`，{svc} 的实际值需要从 Vault 获取。",
    ],
    ("yaml_config", False, "analysis"): [
        "当前 {svc} 的 application.yml：\n```yaml\nspring:\n  datasource:\n    url: jdbc:mysql://{host}:3306/{db}\n"
        "    username: app_rw\n    password: ${MYSQL_PASSWORD}\n```",
        "Config dump from {svc}: `aliyun.oss.access-key-id: <redacted>` / `aliyun.oss.access-key-secret: <redacted>`.",
    ],
    ("yaml_config", False, "knowledge_answer"): [
        "Helm values 里是这样写的：\n```yaml\nredis:\n  auth:\n    enabled: true\n    existingSecret: {svc}-redis\n"
        "    existingSecretPasswordKey: redis-password\n```",
    ],
    ("docker_run", False, "action"): [
        '复现命令：`docker run -e MYSQL_ROOT_PASSWORD="$MYSQL_ROOT_PASSWORD" -p 3306:3306 mysql:8.0`（对应 {db}）',
    ],
    ("docker_run", False, "knowledge_answer"): [
        "Run it locally with `docker run --rm --env-file ./local.env -p 8080:8080 registry.internal/{svc}:latest`.",
    ],
    ("k8s_secret", False, "analysis"): [
        "```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-db\ntype: Opaque\ndata:\n"
        "  username: '******'\n  password: '******'\n```",
        "`kubectl get secret {svc}-db -o jsonpath='{.data}'` 只列出了键名 `password`、`username`，值在输出中已隐藏。",
    ],
    ("k8s_secret", False, "knowledge_answer"): [
        "推荐用 secretKeyRef 注入：\n```yaml\nenv:\n  - name: DB_PASSWORD\n    valueFrom:\n      secretKeyRef:\n"
        "        name: {svc}-db\n        key: password\n```",
    ],
    ("pgpass_netrc", False, "analysis"): [
        "`~/.pgpass` 的格式是 `hostname:port:database:username:password`，{host} 上该文件权限需要是 0600。",
        "The {svc} runner's `.netrc` contains `machine git.internal login deploy` and no password line.",
    ],
    ("git_url", False, "analysis"): [
        "CI 日志里能看到：`git clone https://gitlab.internal/sre/{svc}.git` 在 {t} 之后开始超时。",
        "`git clone git@github.com:acme/{svc}.git` failed with exit code 128 (Permission denied (publickey)).",
    ],
    ("log_query_string", False, "analysis"): [
        "{svc} 网关 access log：`GET /api/v1/login?user=ops&password=*** 200 12ms`",
        "`{t} WARN [{svc}] callback url=https://partner.example.com/notify?appid=wx83&order_id={order}`",
        "Nginx logged `POST /oauth/token` returning 401 `invalid_client` for {svc}.",
    ],
    ("json_nested", False, "analysis"): [
        '配置中心返回：`{"datasource": {"host": "{host}", "credentials": {"user": "app", "password": "******"}}}`',
        'Response body from {svc}: `{"usage": {"prompt_tokens": 1532, "completion_tokens": 211, '
        '"total_tokens": 1743}}`',
    ],
    ("http_headers", False, "analysis"): [
        "```\nPOST /v1/charges HTTP/1.1\nHost: api.stripe.com\nAuthorization: Bearer <redacted>\nX-Request-Id: {req}\n"
        "Content-Type: application/x-www-form-urlencoded\n```",
        '请求返回 401，响应头里有 `WWW-Authenticate: Bearer error="invalid_token"`（{svc}）。',
        "`Set-Cookie` 头在 {t} 之后不再下发，导致 {svc} 的会话无法保持。",
        "`{t} DEBUG [{svc}] outbound headers={Authorization=Bearer ***, X-Request-Id={uuid}}`",
    ],
    ("http_headers", False, "action"): [
        '`curl -H "Authorization: Bearer $TOKEN" https://{svc}.internal/admin/health`',
    ],
    ("chinese_prose", False, "knowledge_answer"): [
        "密码已经通过 1Password 发你了，{svc} 用的就是 Vault 里那一条。",
        "测试环境 Redis 的密码存放在 Vault 的 `secret/data/{svc}/redis` 路径下。",
    ],
    ("chinese_prose", False, "analysis"): [
        "AK/SK 托管在 KMS 里，{svc} 启动时通过 `${ALIYUN_AK}` 注入。",
    ],
    ("chinese_prose", False, "system_answer"): [
        "{svc} 控制台的账号由管理员在 IAM 里分配，我这边看不到也不会保存任何密码。",
    ],
    ("connection_string", False, "analysis"): [
        "连接串：`mysql://root@{host}:3306/{db}`（密码走环境变量）",
        "`spring.redis.url=redis://{redishost}:6379/0`",
        "JDBC URL in the error: `jdbc:postgresql://{host}:5432/{db}?sslmode=require`",
    ],
    ("connection_string", False, "sql_reference"): [
        "DSN `app:${DB_PASS}@tcp({host}:3306)/{db}?parseTime=true`",
    ],
    ("cli_flag", False, "action"): [
        "`mysql -h {host} -P 3306 -u root -p -e 'SHOW PROCESSLIST'`（会提示输入密码）",
        "`redis-cli -h {redishost} -p 6379 INFO memory`",
        "`psql -h {host} -p 5432 -U app {db}`",
        "`mysqladmin -h {host} --defaults-extra-file=/etc/mysql/monitor.cnf status`",
    ],
    ("cli_flag", False, "plan_step"): [
        "Step 1 — 用只读账号登录 {host}（`mysql -u readonly -p`），查看当前 processlist。",
        "Step 2 — `curl -u admin http://{svc}.internal/actuator/env`（会提示输入密码）查看生效配置。",
    ],
    ("pem_block", False, "analysis"): [
        "服务器公钥：`ssh-ed25519 {sshpub} deploy@{host}`",
        "证书链：\n```\n-----BEGIN CERTIFICATE-----\n{certbody}\n-----END CERTIFICATE-----\n```",
    ],
    ("pem_block", False, "knowledge_answer"): [
        "`openssl x509 -in /etc/ssl/{svc}.crt -noout -enddate` 可以查看证书过期时间；私钥文件不要贴出来。",
    ],
    ("markdown_table", False, "conclusion"): [
        "| 环境 | 用户 | 密码 |\n|---|---|---|\n| prod ({host}) | app_rw | `******` |\n| staging | app_rw | 见 Vault |",
        "| key | value |\n|---|---|\n| `max_tokens` | 4096 |\n| `temperature` | 0.2 |\n| `service` | {svc} |",
    ],
    ("xml_config", False, "analysis"): [
        '{svc} 的 Druid 配置：`<property name="password" value="${jdbc.password}"/>`',
        "{svc} settings.xml: `<server><id>nexus</id><username>deploy</username><password>${env.NEXUS_PASSWORD}</passwo"
        "rd></server>`",
    ],
    ("sql_text", False, "sql_reference"): [
        "`SELECT user, host, password_expired FROM mysql.user WHERE user = 'app';` 在 {host} 上显示 password_expired "
        "= Y。",
        "`SELECT id, order_no, pay_trade_no FROM {table} WHERE order_no = '{order}';`",
        "`SHOW GRANTS FOR 'app'@'%';` 显示只有 SELECT 权限（{db}）。",
    ],
    ("k8s_secret", False, "limitations"): [
        "{svc} 的 Secret 内容已脱敏（`password: ******`），无法确认它是否与数据库中的密码一致。",
    ],
    ("chinese_prose", False, "conclusion"): [
        "根因是 {svc} 的 Redis 密码在 {t} 被轮换，而客户端仍在使用旧值（具体值不在此展示）。",
    ],
    ("masked_value", False, "system_answer"): [
        "{hi_en}! I never display tokens — if you paste one, I'll mask it as `****`.",
    ],
    ("digest", False, "analysis"): [
        "构建产物的 sha256：`{sha256}`，与制品库记录一致。",
        "Checksum mismatch on {svc}.jar: expected `sha256:{sha256}`, got `sha256:{sha256b}`.",
        "`md5sum` 输出：`{md5}  {svc}.jar`",
    ],
    ("commit_id", False, "analysis"): [
        "{t} 的发布对应 commit `{sha1}`（fix: pool timeout）。",
        "Argo CD synced {svc} to revision {sha1} at {t}.",
        "这次变更的范围是 `git log {sha7}..{sha7b}`，只动了 {svc} 的配置。",
    ],
    ("trace_id", False, "analysis"): [
        "trace_id={trace} 的请求在 {svc2} 的 span {span} 上耗时 2.3s。",
        "`traceparent: 00-{trace}-{span}-01` 显示请求从 {svc} 进入。",
    ],
    ("trace_id", False, "limitations"): [
        "Jaeger 中 https://jaeger.internal/trace/{trace} 的 span 不完整，无法确认下游耗时。",
    ],
    ("uuid", False, "analysis"): [
        "request_id `{uuid}` 返回了 504（{svc}）。",
        "Pod UID {uuid} was OOMKilled at {t}.",
    ],
    ("business_id", False, "conclusion"): [
        "订单 {order} 支付成功但状态仍是 PAYING，支付流水号 {payno}。",
        "PaymentIntent `{pi}` is stuck in `requires_capture` on {svc}.",
    ],
    ("business_id", False, "analysis"): [
        "退款单号 {refundno} 在 {t} 被重复提交了两次。",
        "`X-Request-Id: {req}` 的请求在 {svc} 上超时。",
    ],
    ("image_digest", False, "analysis"): [
        "`registry.internal/{svc}@sha256:{sha256}` 是当前运行的镜像。",
        "The node pulled `{svc}:v2.3.1` (digest `sha256:{sha256}`) at {t}.",
    ],
    ("email", False, "analysis"): [
        "{t} 的告警发给了 {email}，但没有人确认。",
        "Commit author of the {svc} change: Wei Zhang <{email}>",
    ],
    ("plain_url", False, "knowledge_answer"): [
        "Grafana: https://grafana.internal/d/{dashuid}/{svc}?orgId=1&from=now-1h",
        "健康检查地址：`https://{svc}.internal/actuator/health`",
    ],
    ("plain_url", False, "system_answer"): [
        "You can open me at https://superbiz.internal/assistant?service={svc} to start with {svc}.",
    ],
    ("key_name_only", False, "plan_step"): [
        "检查 {svc} 的 `DB_PASSWORD` 环境变量是否已注入。",
    ],
    ("key_name_only", False, "analysis"): [
        "The `api_key` field is missing from {svc}'s request, hence the 401.",
        "`JWT_SECRET` 在 {t} 被轮换，之前签发的 token 全部失效。",
        "{svc} 的 `client_secret` 配置项为空，启动时报 `IllegalArgumentException`。",
    ],
    ("port_flag", False, "action"): [
        "`redis-cli -h {redishost} -p 6380 PING`",
        "`ssh -p 2222 ops@{node}`",
        "`psql -h {host} -p 6432 -U app -d {db} -c 'SELECT 1'`",
    ],
    ("port_flag", False, "sql_reference"): [
        "`mysql -h {host} -P 3307 -u readonly -e 'SELECT 1'`",
    ],
    ("auth_failure_message", False, "analysis"): [
        '日志：`FATAL: password authentication failed for user "app"`（{host}）',
        "`{t} ERROR [{svc}] token refresh failed: 401 invalid_grant`",
        "MySQL 返回 `ERROR 1862 (HY000): Your password has expired.`（{host}）",
        "`Access denied for user 'app'@'10.0.3.17' (using password: YES)` on {host}.",
    ],
    ("auth_failure_message", False, "conclusion"): [
        "OAuth token 过期，{svc} 调用 {svc2} 返回 401。",
    ],
    ("auth_failure_message", False, "limitations"): [
        "由于 {svc} 的 password expired，本次未能登录 {db} 查询。",
    ],
    ("token_counter", False, "knowledge_answer"): [
        "模型配置里 `max_tokens: 4096`，{svc} 的摘要请求偶尔会被截断。",
        "Rate limit headers from {svc}: `x-ratelimit-remaining-tokens: {n3}`.",
    ],
    ("token_counter", False, "analysis"): [
        "模型调用 `prompt_tokens={n3}, completion_tokens=211`（{svc}）。",
        "{svc} 的令牌桶容量 {n3}，每秒补充 200 个 token。",
    ],
    ("masked_value", False, "analysis"): [
        "`DB_PASSWORD=******`（{svc}）",
        "{svc} 的日志里 `password: [REDACTED]` 已经被脱敏。",
        "`Authorization: Bearer ****************` on requests from {svc}",
        "`aws_secret_access_key = <redacted>` in {svc}'s credentials file",
        '`"api_key": "sk-****"` in {svc}\'s model config',
    ],
    ("masked_value", False, "knowledge_answer"): [
        "在 GitHub Actions 里用 `GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` 引用，{svc} 仓库不需要明文。",
        "`password: {{ .Values.db.password | quote }}`（{svc} 的 Helm 模板）",
    ],
}
LOOKALIKES: list[Base] = table(_LOOKALIKES)
