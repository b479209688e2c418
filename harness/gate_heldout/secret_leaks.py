"""Secret templates that leak a real credential value, pasted the way people and models actually paste them."""

from __future__ import annotations

from .cases import Base, Key, table

_LEAKS: dict[Key, list[str]] = {
    ("dotenv", True, "action"): [
        "在 `.env` 里补上：\n```\nDB_HOST={host}\nDB_USER=app\nDB_PASSWORD={pw}\n```",
    ],
    ("dotenv", True, "analysis"): [
        "对比发现 staging 的 `.env` 和 prod 不一致：prod 里是 `REDIS_PASSWORD={pw}`，staging 为空。",
        "The container env of {svc} shows `STRIPE_SECRET_KEY={stripe}` being loaded at startup.",
    ],
    ("dotenv", True, "knowledge_answer"): [
        "本地调试 {svc} 可以用这份配置：`OPENAI_API_KEY={oai}`，其余保持默认。",
    ],
    ("yaml_config", True, "analysis"): [
        "当前 {svc} 的 application.yml：\n```yaml\nspring:\n  datasource:\n    url: jdbc:mysql://{host}:3306/{db}\n"
        "    username: app_rw\n    password: {pw}\n```",
        "Config dump from {svc}: `aliyun.oss.access-key-id: {ltai}` / `aliyun.oss.access-key-secret: {alisec}`.",
    ],
    ("yaml_config", True, "knowledge_answer"): [
        'Helm values 里是这样写的：\n```yaml\nredis:\n  auth:\n    enabled: true\n    password: "{pw}"\n```',
    ],
    ("docker_run", True, "action"): [
        "复现命令：`docker run -e MYSQL_ROOT_PASSWORD={pw} -p 3306:3306 mysql:8.0`",
    ],
    ("docker_run", True, "knowledge_answer"): [
        "Run it locally with `docker run --rm -e HF_TOKEN={hf} -p 8080:8080 registry.internal/{svc}:latest`.",
    ],
    ("k8s_secret", True, "analysis"): [
        "```yaml\napiVersion: v1\nkind: Secret\nmetadata:\n  name: {svc}-db\ntype: Opaque\ndata:\n  username: YXBw\n"
        "  password: {b64pw}\n```",
        "`kubectl get secret {svc}-db -o yaml` 的输出里 `password: {b64pw}`，解码后就是当前生效的密码。",
    ],
    ("k8s_secret", True, "knowledge_answer"): [
        "stringData 直接写明文也可以：\n```yaml\nstringData:\n  DATABASE_URL: postgres://app:{upw}@{host}:5432/{db}\n"
        "```",
    ],
    ("pgpass_netrc", True, "analysis"): [
        "`~/.pgpass` 里这一行：`{host}:5432:{db}:app:{pw}`",
        "The runner's `.netrc` contains `machine git.internal login deploy password {pw}`.",
    ],
    ("pgpass_netrc", True, "limitations"): [
        "`.netrc` 里的 `machine api.github.com login ci-bot password {ghp}` 未验证是否有效。",
    ],
    ("git_url", True, "analysis"): [
        "CI 日志里能看到：`git clone https://oauth2:{glpat}@gitlab.internal/sre/{svc}.git`",
        "`git clone https://ci-bot:{ghp}@github.com/acme/{svc}.git` failed with exit code 128.",
    ],
    ("log_query_string", True, "analysis"): [
        "网关 access log：`GET /api/v1/login?user=ops&password={upw} 200 12ms`",
        "`{t} WARN [{svc}] callback url=https://partner.example.com/notify?appid=wx83&secret={hexsecret}`",
        "Nginx logged the body: `POST /oauth/token grant_type=client_credentials&client_secret={upw}`.",
    ],
    ("json_nested", True, "analysis"): [
        '配置中心返回：`{"datasource": {"host": "{host}", "credentials": {"user": "app", "password": "{pw}"}}}`',
        'Response body from {svc}: `{"status": "ok", "data": {"smtp": {"api_key": "{sg}"}}}`',
    ],
    ("http_headers", True, "analysis"): [
        "```\nPOST /v1/charges HTTP/1.1\nHost: api.stripe.com\nAuthorization: Bearer {stripe}\n"
        "Content-Type: application/x-www-form-urlencoded\n```",
        "请求头：`Cookie: SESSION={sess}; lang=zh-CN`",
        "The response carried `Set-Cookie: JSESSIONID={jsid}; Path=/; HttpOnly`.",
        "`{t} DEBUG [{svc}] outbound headers={Authorization=Bearer {jwt}}`",
    ],
    ("http_headers", True, "action"): [
        "`curl -H 'Authorization: Basic {basic}' https://{svc}.internal/admin/health`",
    ],
    ("chinese_prose", True, "knowledge_answer"): [
        "密码我发你：{pw}，用完记得改。",
        "测试环境 Redis 的密码是 {pw}，{svc} 用的就是这个。",
    ],
    ("chinese_prose", True, "analysis"): [
        "AK/SK 分别是 {akia} 和 {awssec}，权限是只读的。",
        "腾讯云的 SecretId 是 {akid}，SecretKey 是 {tcsec}。",
    ],
    ("connection_string", True, "analysis"): [
        "连接串：`mysql://root:{upw}@{host}:3306/{db}`",
        "`spring.redis.url=redis://:{upw}@{redishost}:6379/0`",
        "JDBC URL in the error: `jdbc:postgresql://{host}:5432/{db}?user=app&password={upw}`",
        "`mongodb+srv://admin:{upw}@cluster0.mongodb.net/{db}`",
    ],
    ("connection_string", True, "sql_reference"): [
        "DSN `app:{upw}@tcp({host}:3306)/{db}?parseTime=true`",
    ],
    ("cli_flag", True, "action"): [
        "`mysql -h {host} -P 3306 -u root -p{pw} -e 'SHOW PROCESSLIST'`",
        "`redis-cli -h {redishost} -a {pw} INFO memory`",
        "`PGPASSWORD={pw} psql -h {host} -U app {db}`",
        "`mysqladmin --user=root --password={pw} status`",
        "`aws configure set aws_secret_access_key {awssec}`",
    ],
    ("cli_flag", True, "plan_step"): [
        "Step 1 — 用 `mysql -h {host} -u dba -p{pw}` 登录，查看当前 processlist。",
        "Step 2 — `curl -u admin:{upw} http://{svc}.internal/actuator/env` 查看生效配置。",
    ],
    ("chinese_prose", True, "system_answer"): [
        "控制台演示账号是 admin，密码 {pw}，登录后就能看到 {svc} 的面板。",
    ],
    ("dotenv", True, "system_answer"): [
        "To connect me to your Grafana, set `GRAFANA_API_KEY={glsa}`.",
    ],
    ("provider_token", True, "analysis"): [
        "GitHub Actions 的日志里打印出了 `{ghp}`。",
        "The runner for {svc} uses `GITLAB_TOKEN={glpat}`.",
        "Slack bot token in the alert relay config: {xoxb}",
        '`openai.api_key = "{oai}"` is hard-coded in {svc}\'s summariser.',
        "Google Maps key in the frontend bundle: `{gkey}`",
        "`.npmrc`: `//registry.npmjs.org/:_authToken={npm}`",
        "SendGrid key used by {svc}: {sg}",
        "阿里云 AccessKey：{ltai} / {alisec}",
        "Stripe restricted key in {svc}'s config: `{rk}`",
        "告警 webhook 地址：https://hooks.slack.com/services/{slackhook}",
        "The fine-grained token `{ghpat}` has `contents: write` on the {svc} repo.",
    ],
    ("provider_token", True, "action"): [
        "`export ANTHROPIC_API_KEY={ant}`",
        "`.pypirc`:\n```\n[pypi]\nusername = __token__\npassword = {pypi}\n```",
        "`docker login -u acmeci -p {dckr}`",
        "`huggingface-cli login --token {hf}`",
        "`VAULT_TOKEN={hvs} vault kv get secret/{svc}`",
        "`~/.aws/credentials`:\n```\n[prod]\naws_access_key_id = {akia}\naws_secret_access_key = {awssec}\n```",
        "用这个 token 试试：{ghp}",
    ],
    ("dotenv", True, "limitations"): [
        "未能验证 {svc} 使用的 `DB_PASSWORD={pw}` 是否仍然有效。",
    ],
    ("chinese_prose", True, "conclusion"): [
        "根因是 {svc} 的 Redis 密码在 {t} 被改成了 {pw}，而客户端没有同步更新。",
    ],
    ("jwt", True, "system_answer"): [
        "{hi_en}! To try me out against {svc}, use the demo token `{jwt}`.",
    ],
    ("jwt", True, "analysis"): [
        "解码这个 token 看看过期时间：`{jwt}`",
        "{svc} 的 401 请求里带的 token 是 {jwt}，exp 早于当前时间。",
    ],
    ("pem_block", True, "analysis"): [
        "部署机上的私钥：\n```\n{privkey}\n```",
    ],
    ("pem_block", True, "knowledge_answer"): [
        "The `{svc}-tls` secret mounts this key:\n{privkey}",
    ],
    ("markdown_table", True, "conclusion"): [
        "| 环境 | 用户 | 密码 |\n|---|---|---|\n| prod ({host}) | app_rw | {pw} |",
        "| key | value |\n|---|---|\n| `api_key` | `{oai}` |\n| `model` | gpt-4o |",
    ],
    ("xml_config", True, "analysis"): [
        '{svc} 的 Druid 配置：`<property name="password" value="{pw}"/>`',
        '`<Resource name="jdbc/orders" username="app" password="{pw}" url="jdbc:mysql://{host}/{db}"/>`',
        "{svc} settings.xml: `<server><id>nexus</id><username>deploy</username><password>{pw}</password></server>`",
    ],
    ("sql_text", True, "sql_reference"): [
        "`CREATE USER 'report'@'%' IDENTIFIED BY '{pw}';`",
        "`ALTER USER 'app'@'%' IDENTIFIED BY '{pw}';`",
        "`SELECT cfg_value FROM sys_config WHERE cfg_key = 'sms.secret';` 返回 `{hexsecret}`。",
    ],
}
LEAKS: list[Base] = table(_LEAKS)
