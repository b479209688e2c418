"""Secrets inside one line or a short paste: connection strings, CLI flags, HTTP headers and cookies, dotfiles,
Chinese chat, provider tokens, JWTs, log lines and SQL. Look-alikes share the register: a port flag next to the
password flag, a prompt instead of a value, provider error messages, request ids, token counters, masked values.
"""

from __future__ import annotations

from .case import Family, parse_lines

INLINE = parse_lines(r"""
# conn_url
x `jdbc:mysql://‹host›:3306/‹db›?user=‹user›&password=‹pwu›&useSSL=false`
o `jdbc:mysql://‹host›:3306/‹db›?useSSL=true&serverTimezone=Asia/Shanghai&rewriteBatchedStatements=true`
x 连接串：mongodb://‹user›:‹pwu›@‹host›:27017,‹host2›:27017/‹db›?replicaSet=rs0&authSource=admin
o 连接串：mongodb://‹host›:27017,‹host2›:27017/‹db›?replicaSet=rs0&readPreference=secondaryPreferred
x redis://:‹pwu›@‹redis›:6379/3
o redis://‹redis›:6379/3?timeout=2s
x amqp://‹user›:‹pwu›@‹broker›:5672/%2F‹db›
o amqp://‹broker›:5672/%2F‹db›（账号走 RAM 授权）
x DATABASE_URL=postgresql://‹user›:‹pwu›@‹host›:5432/‹db›?sslmode=require
o DATABASE_URL=postgresql://‹user›@‹host›:5432/‹db›?sslmode=require
x The consumer connects with `kafka://‹user›:‹pwu›@‹broker›:9093` (SASL/PLAIN).
o The consumer connects to `‹broker›:9093` with SASL/SCRAM; the credentials come from the `kafka-client` secret.
x ES 地址 https://elastic:‹pwu›@‹host›:9200，直接 curl 就能看
o ES 地址 https://‹host›:9200，账号找 ‹who› 开
x git clone https://oauth2:‹glpat›@gitlab.‹db›.internal/infra/‹svc›.git
o git clone https://gitlab.‹db›.internal/infra/‹svc›.git
x mongodb+srv://‹user›:‹pwu›@cluster0.‹alnum5›.mongodb.net/‹db›
o mongodb://‹user›:****@‹host›:27017/‹db›
x ftp://‹user›:‹pwu›@‹host›/settle/‹date›.csv
o sftp 地址 ‹host›:22，目录 /settle/‹date›/，用 key 登录

# cli_flag
x mysql -h ‹host› -P 3306 -u‹user› -p‹pwu› ‹db› -e "SHOW PROCESSLIST"
o mysql -h ‹host› -P 3306 -u ‹user› -p -D ‹db› -e "SHOW PROCESSLIST"
x redis-cli -h ‹redis› -p 6379 -a ‹pwu› info replication
o redis-cli -h ‹redis› -p 6380 --askpass info replication
x docker login -u ‹user› -p ‹pwu› harbor.‹db›.internal
o echo "$HARBOR_PASS" | docker login -u ‹user› --password-stdin harbor.‹db›.internal
x PGPASSWORD='‹pw›' psql -h ‹host› -U ‹user› -d ‹db› -c 'select 1'
o psql -h ‹host› -p 5432 -U ‹user› -d ‹db› -c 'select 1'（密码走 ~/.pgpass）
x mongosh "mongodb://‹host›:27017" --username ‹user› --password '‹pw›' --authenticationDatabase admin
o mongosh "mongodb://‹host›:27017" --username ‹user› --authenticationDatabase admin（会提示输入密码）
x sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="‹user›"
+ password="‹pwu›";
o sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="${KAFKA_USER}"
+ password="${KAFKA_PASS}";
x sshpass -p '‹pw›' ssh -p 2222 ops@‹host›
o ssh -i ~/.ssh/deploy_ed25519 -p 2222 ops@‹host›
x `aws configure set aws_secret_access_key ‹awssecret› --profile ‹db›-prod`
o `aws sts get-caller-identity --profile ‹db›-prod`
x `aliyun configure set --access-key-id ‹ltai› --access-key-secret ‹alisecret› --region cn-hangzhou`
o `aliyun configure list` 看当前 profile 用的是哪个 RAM 用户
x `vault login ‹hvs›`
o `vault kv get -field=password secret/‹db›/mysql` 自己取一下（别贴到群里）
x `helm repo add internal https://charts.‹db›.internal --username ‹user› --password ‹pwu›`
o `helm repo add internal https://charts.‹db›.internal --username ‹user› --password-stdin < /run/secrets/helm`
x `curl -u admin:‹pwu› http://‹host›:15672/api/queues`
o `curl -u admin http://‹host›:15672/api/queues`（会提示输入密码）
x `java -jar ‹svc›.jar --spring.datasource.password=‹pw›`
o `java -jar ‹svc›.jar --server.port=8081 --spring.profiles.active=prod`

# http_header
x curl -H "Authorization: Bearer ‹jwt›" https://‹svc›.‹db›.internal/api/v1/orders/‹oid›
o curl -H "Authorization: Bearer $TOKEN" https://‹svc›.‹db›.internal/api/v1/orders/‹oid›
x Authorization: Basic ‹basic›
o Authorization: Basic <base64(user:password)>
x 请求头里带的 `Cookie: SESSION=‹cookie›; lang=zh-CN`
o 请求头里带的 `Cookie: lang=zh-CN; _ga=GA1.2.‹digits9›.‹epoch›`
x `Set-Cookie: JSESSIONID=‹jsession›; Path=/; HttpOnly; Secure`
o 响应里的 `Set-Cookie` 缺少 `SameSite` 属性，跨域请求把会话丢了
x -H 'x-api-key: ‹anthropic›' -H 'anthropic-version: 2023-06-01'
o -H "x-api-key: $ANTHROPIC_API_KEY" -H 'anthropic-version: 2023-06-01'
x `curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer ‹openai›" -d @req.json`
o `curl https://api.openai.com/v1/chat/completions -H "Authorization: Bearer ${OPENAI_API_KEY}" -d @req.json`
x X-Auth-Token: ‹hex40›
o X-Trace-Id: ‹trace›
x `wget --header="PRIVATE-TOKEN: ‹glpat›" "https://gitlab.‹db›.internal/api/v4/projects/42/jobs/artifacts/main/download?job=build"`
o `wget --header="PRIVATE-TOKEN: ${GITLAB_TOKEN}" "https://gitlab.‹db›.internal/api/v4/projects/42/jobs/artifacts/main/download?job=build"`
x 代理那边要带 `Proxy-Authorization: Basic ‹basic›`
o 网关日志里的 `authorization` 字段已经脱敏成 `Bearer ***`

# dotfile
x `.npmrc`：⏎registry=https://registry.npmjs.org/⏎//registry.npmjs.org/:_authToken=‹npm›
o `.npmrc`：⏎registry=https://registry.npmmirror.com/⏎//registry.npmjs.org/:_authToken=${NPM_TOKEN}
x ~/.pypirc⏎[pypi]⏎username = __token__⏎password = ‹pypi›
o ~/.pypirc⏎[pypi]⏎username = __token__⏎# password 从 keyring 读取，不要写在这里
x .env⏎STRIPE_SECRET_KEY=‹stripe›⏎STRIPE_WEBHOOK_SECRET=‹whsec›
o .env.example⏎STRIPE_SECRET_KEY=⏎STRIPE_WEBHOOK_SECRET=
x ~/.netrc⏎machine git.‹db›.internal login ci-bot password ‹pwu›
o ~/.netrc 里只有 `machine git.‹db›.internal login ci-bot`，password 那一行已经删掉了
x .env⏎HF_TOKEN=‹hf›⏎HF_HUB_ENABLE_HF_TRANSFER=1
o .env⏎HF_HUB_ENABLE_HF_TRANSFER=1⏎HF_HOME=/data/hf-cache
x ~/.docker/config.json: {"auths": {"harbor.‹db›.internal": {"auth": "‹basic›"}}}
o ~/.docker/config.json: {"auths": {"harbor.‹db›.internal": {}}, "credsStore": "desktop"}
x ~/.aws/credentials⏎[‹db›-prod]⏎aws_access_key_id = ‹akia›⏎aws_secret_access_key = ‹awssecret›
o ~/.aws/config⏎[profile ‹db›-prod]⏎region = ap-northeast-1⏎role_arn = arn:aws:iam::‹digits12›:role/sre-readonly
+⏎source_profile = sso
x .env⏎SLACK_BOT_TOKEN=‹xoxb›⏎SLACK_CHANNEL=#inc-‹db›
o .env⏎SLACK_BOT_TOKEN=xoxb-************⏎SLACK_CHANNEL=#inc-‹db›

# chat_zh
x 测试库 root 密码是 ‹pw›，别外传哈
o 测试库 root 密码我私聊你了，别贴群里
x 账号 ‹user›，密码 ‹pw›，用完我就改
o 账号 ‹user›，密码找 ‹who› 要，走审批
x token 先用我的：‹ghp›，明天我就 revoke
o token 用你自己的，在 GitHub Settings → Developer settings 里生成
x 阿里云子账号 ‹user›@‹digits16›.onaliyun.com，登录密码 ‹pw›
o 阿里云子账号 ‹user›@‹digits16›.onaliyun.com，登录走 SSO，不需要密码
x Redis 密码：‹pw›（prod 和 staging 是同一个 😅）
o Redis 密码：见配置中心 `‹svc›.redis.password`，我这边看不到明文
x 钉钉机器人 webhook：https://oapi.dingtalk.com/robot/send?access_token=‹ding›
o 钉钉机器人 webhook 的 access_token 过期了，需要群管理员重新生成
x 刚刚改的新密码 ‹pw›，大家更新下本地配置
o 刚刚改过密码了，大家从 Vault 重新拉一下，旧的已经失效
x ‹who› kibana 账号 elastic / ‹pw›
o ‹who› kibana 用 LDAP 账号登录，elastic 超管账号已经禁用了
x DeepSeek 的 key：‹dskey›，先凑合用
o DeepSeek 的 key 放 KMS 里了，群里之前那个旧的已经作废
x GitHub 细粒度 token 给你：‹ghpat›，只读权限
o GitHub 细粒度 token 的有效期只剩 3 天了，记得续期
x 告警邮件走 SMTP，账号 alert@‹db›-tech.com，授权码 ‹alnum16›
o 告警邮件发到 sre-oncall@‹db›-tech.com，抄送 ‹user›@‹db›-tech.com，发件服务器 smtp.exmail.qq.com:465

# provider
x GitHub PAT: ‹ghp›
o GitHub PAT 已吊销，只留了前缀 `ghp_` 和最后四位 `‹last4›` 方便核对
x 配置里的 GitLab token 是 ‹glpat›，scope 是 api
o GitLab 返回 `401 Unauthorized: invalid token`，CI 里的 token 应该过期了
x Slack bot token `‹xoxb›` was committed in ‹commit›.
o The Slack bot token was rotated after ‹commit› landed; that commit only added the variable name `SLACK_BOT_TOKEN`.
x OPENAI_API_KEY=‹openai›
o OPENAI_API_KEY 未设置：`openai.OpenAIError: The api_key client option must be set`
x ANTHROPIC_API_KEY="‹anthropic›"
o Anthropic 返回 `request_id: req_‹alnum24›`，usage: input_tokens=‹digits4›, output_tokens=‹digits3›
x Stripe live key: ‹stripe›
o Stripe 退款失败的 PaymentIntent：`‹pi›`，charge `‹ch›`
x Maps SDK 的 key=‹gapi›，前端直接写死在 bundle 里了
o Maps 请求返回 `REQUEST_DENIED: The provided API key is invalid.`
x AWS: AccessKeyId=‹akia› SecretAccessKey=‹awssecret›
o AWS 调用方：`arn:aws:iam::‹digits12›:role/‹svc›-task`，RequestId ‹uuid›
x 阿里云 AK：‹ltai› / ‹alisecret›
o 阿里云 RAM 报错：`InvalidAccessKeyId.NotFound`，RequestId: ‹uuidup›
x 腾讯云 SecretId=‹akid›，SecretKey=‹tcsecret›
o 腾讯云 CLS 报错 `AuthFailure.SignatureExpire`，RequestId ‹uuid›
x npm publish 用的 token：‹npm›
o npm 报 `E401 Unable to authenticate`，先确认 .npmrc 里的 registry 对不对
x twine upload 用的是 ‹pypi›
o twine 报 `403 Invalid or non-existent authentication information`
x Docker Hub access token `‹dckr›` 就是 CI 里那个
o Docker Hub 限流：`toomanyrequests: You have reached your pull rate limit`
x HF_TOKEN=‹hf›
o 模型从 hf-mirror 拉取，`HF_ENDPOINT=https://hf-mirror.com`，不需要 token
x SendGrid key ‹sendgrid›，发信一直 401
o SendGrid 返回 `403 Forbidden`，X-Message-Id `‹alnum22›`
x VAULT_TOKEN=‹hvs›
o VAULT_ADDR=https://vault.‹db›.internal:8200，token 通过 Kubernetes auth 自动获取
x Slack webhook：‹slackhook›
o Slack webhook 返回 `invalid_token`，需要 workspace 管理员重新生成

# jwt
x 网关日志：`auth=‹jwt›`，解出来 sub 是 ‹uid›
o 网关日志：`jwt_kid=‹hex16›, alg=RS256, exp=‹epoch›`，过期时间早于请求时间
x The Authorization header was `Bearer ‹jwt›` for the failing request.
o The failing request's JWT header decodes to `{"alg":"RS256","typ":"JWT","kid":"‹hex16›"}`; the kid was rotated.
x ‹svc› 回调带的 token：‹jwt›
o ‹svc› 回调报 `io.jsonwebtoken.ExpiredJwtException: JWT expired at ‹iso›Z`
x refresh_token=‹jwt›&grant_type=refresh_token&client_id=‹svc›
o `grant_type=refresh_token` 请求返回 `invalid_grant`，refresh token 已过期
x `localStorage.getItem('access_token')` 在用户浏览器里取到的是 ‹jwt›
o 前端 `localStorage.getItem('access_token')` 取到的是 null，所以请求没带 token

# log_line
x 2024-06-12 14:32:07.118 INFO [‹svc›] DataSourceConfig - init pool url=jdbc:mysql://‹host›:3306/‹db› user=‹user›
+ password=‹pw›
o 2024-06-12 14:32:07.118 ERROR [‹svc›] HikariPool-1 - Exception during pool initialization: Access denied for user
+ '‹user›'@'‹ip›' (using password: YES)
x [‹svc›] DEBUG feign.Logger - ---> POST https://‹svc2›.‹ns›/v1/settle?access_token=‹hex40› HTTP/1.1
o [‹svc›] DEBUG feign.Logger - ---> POST https://‹svc2›.‹ns›/v1/settle?request_id=‹uuid› HTTP/1.1
x level=debug msg="calling provider" api_key=‹openai› model=gpt-4o
o level=info msg="llm call done" model=gpt-4o prompt_tokens=‹digits4› completion_tokens=‹digits3› cached_tokens=0
x {"ts":"‹iso›","svc":"‹svc›","event":"login","username":"‹user›","password":"‹pw›"}
o {"ts":"‹iso›","svc":"‹svc›","event":"login_failed","username":"‹user›","reason":"password expired",
+"trace_id":"‹trace›"}
x traceId=‹trace› spanId=‹span› header.authorization="Bearer ‹jwt›"
o traceId=‹trace› spanId=‹span› header.authorization="[REDACTED]"
x 抓包看到客户端发的是 `AUTH default ‹pw›`，服务端回 WRONGPASS
o `redis.clients.jedis.exceptions.JedisDataException: WRONGPASS invalid username-password pair or user is disabled.`
x ‹svc› 启动参数：`-Dapollo.meta=http://‹host›:8080 -Dspring.datasource.password=‹pw›`
o ‹svc› 启动参数：`-Dapollo.meta=http://‹host›:8080 -Dserver.port=8080 -Xmx2g`
x 错误日志把签名密钥打出来了：`sign_secret=‹alnum32›`
o 部署日志：`commit=‹commit› image=harbor.‹db›.internal/prod/‹svc›@sha256:‹sha256›`
o git 提交 ‹commit› 只改了 `password` 字段的长度校验逻辑
x WARN  [‹svc›] using fallback token ‹ghp› for api.github.com
o WARN  [‹svc›] GitHub API rate limit: x-ratelimit-remaining=0, x-github-request-id=‹upper8›:‹upper6›:‹upper7›

# sql_ref
x CREATE USER '‹user›'@'10.%' IDENTIFIED BY '‹pw›';
o SELECT user, host, plugin, password_expired FROM mysql.user WHERE user = '‹user›';
x ALTER USER '‹user›'@'%' IDENTIFIED BY '‹pw›';
o SELECT user, host, account_locked, password_last_changed FROM mysql.user WHERE user = '‹user›';
x INSERT INTO t_api_client (app_id, app_secret) VALUES ('‹svc›', '‹alnum32›');
o SELECT app_id, created_at FROM t_api_client WHERE app_secret IS NULL;
x UPDATE t_admin_user SET password = '‹pw›' WHERE username = 'admin';
o SELECT id, username, status FROM t_admin_user WHERE password_hash IS NULL;
x CREATE USER MAPPING FOR app SERVER ‹db›_fdw OPTIONS (user '‹user›', password '‹pw›');
o SELECT srvname, usename FROM pg_user_mappings WHERE srvname = '‹db›_fdw';
x CHANGE REPLICATION SOURCE TO SOURCE_HOST='‹host›', SOURCE_USER='repl', SOURCE_PASSWORD='‹pw›';
o SHOW REPLICA STATUS\G -- 看 Source_Host 和 Seconds_Behind_Source
x SET PASSWORD FOR '‹user›'@'%' = '‹pw›';
o SELECT order_id, trace_id FROM ‹tbl› WHERE trace_id = '‹trace›';
o SELECT * FROM ‹tbl› WHERE request_id = '‹uuid›' LIMIT 1;
""")


def families() -> Family:
    return INLINE
