"""Harmless report prose about credentials: what a real model writes about 密码/password/token/密钥/凭据 in a
diagnosis (an auth failure, a rotation, a policy, a place where a value is stored) without giving any value.
Hand-written, as ``(text, shape, surface)`` rows; :mod:`harness.gate_apart.secret_lookalikes` builds the cases.
"""

from __future__ import annotations

PROSE = [
    (
        "日志显示 19:02 起出现大量 Access denied，怀疑应用使用的密码与数据库不一致，建议与 DBA 确认凭据是否轮换。",
        "model_prose_zh",
        "analysis",
    ),
    (
        "order-service 从 19:02 开始持续报 `Access denied for user 'app_ro'@'10.20.3.15' (using password: YES)`，"
        "说明账号存在但密码校验失败，与连接池耗尽无关。",
        "model_prose_zh",
        "analysis",
    ),
    (
        "The failures began right after the 18:50 credential rotation window; the new password may not have reached "
        "the order-service pods yet.",
        "model_prose_en",
        "analysis",
    ),
    ("本报告不会复述任何密码或令牌；相关值只保存在 Vault 中。", "model_prose_zh", "analysis"),
    ("Token expired at 10:02, after which every call to payment-gateway returned 401.", "token_expired", "analysis"),
    ("The password is stored in Vault at secret/data/order-db; I did not read it.", "stored_reference", "analysis"),
    ("建议检查 app_ro 账号的密码是否被修改。", "check_instruction", "analysis"),
    ("请确认密码是否正确。", "check_instruction", "analysis"),
    (
        "The password policy requires 12 characters, so the 8-character value the provisioning script generates is "
        "rejected.",
        "policy",
        "analysis",
    ),
    ("密码错误次数过多，账号 app_ro 在 19:04 被锁定，此后所有连接都被拒绝。", "lockout", "analysis"),
    ("Password reset requested 3 times between 18:50 and 19:10 for ops_admin.", "reset_count", "analysis"),
    (
        "The token bucket refill rate is 100/s, and the limiter rejected 38% of requests at peak.",
        "token_bucket",
        "analysis",
    ),
    (
        "The secret is mounted from order-db-credentials at /etc/db, and the mounted file changed at 18:51.",
        "stored_reference",
        "analysis",
    ),
    (
        "JWT 校验失败是因为 token 的 exp 早于服务器时间，payment-gateway 所在节点的时钟快了约 3 分钟。",
        "model_prose_zh",
        "analysis",
    ),
    (
        "The 401 responses carry error=invalid_token, which points at an expired or revoked token rather than a wrong "
        "password.",
        "model_prose_en",
        "analysis",
    ),
    ("限流使用令牌桶，桶容量 200，补充速率 100/s，19:00 起一直被打满。", "token_bucket", "analysis"),
    ("密钥轮换计划在每周二 02:00 执行，这次故障的开始时间与之吻合。", "rotation_schedule", "analysis"),
    (
        "凭据由 External Secrets 从 Vault 同步，周期 1 小时，轮换后最长可能有 1 小时仍在使用旧凭据。",
        "model_prose_zh",
        "analysis",
    ),
    ("没有证据表明密码泄露；日志只说明认证失败。", "model_prose_zh", "analysis"),
    (
        "The password field in the request body is masked as ****** in the gateway logs, so I could not tell which "
        "value was sent.",
        "masked_mention",
        "analysis",
    ),
    (
        "I could not find which token notify-worker uses; its config only references ${NOTIFY_TOKEN}.",
        "variable_reference",
        "analysis",
    ),
    (
        "Authentication failed: wrong password for user app_ro — logged 1,204 times between 19:02 and 19:10.",
        "auth_failure",
        "analysis",
    ),
    ("密码长度至少 8 位，且必须包含大小写字母和数字。", "policy", "analysis"),
    ("密码已过期，需要账号负责人在控制台重新设置。", "expired", "analysis"),
    (
        "The DBA confirmed that the app_ro password was rotated at 18:50 but did not say whether the application "
        "config was updated.",
        "model_prose_en",
        "analysis",
    ),
    (
        "令牌有效期是 15 分钟，而 checkout-api 的本地缓存保留 30 分钟，所以过期令牌会被重复使用。",
        "model_prose_zh",
        "analysis",
    ),
    (
        "Credentials for order_rw are injected through the DB_PASSWORD environment variable from the "
        "order-db-credentials Secret.",
        "stored_reference",
        "analysis",
    ),
    ("数据库账号密码经 KMS 加密后存放在配置中心，应用启动时解密。", "stored_reference", "analysis"),
    (
        'The word "password" appears in the logs only inside the error text "using password: YES".',
        "model_prose_en",
        "analysis",
    ),
    (
        "建议与 DBA 确认 app_ro 的密码是否在 18:50 的轮换中被修改，并核对 order-service 使用的 Secret 版本。",
        "model_prose_zh",
        "analysis",
    ),
    ("我没有权限读取 Secret 的内容，只能看到它的元数据（创建时间、resourceVersion）。", "model_prose_zh", "analysis"),
    ("证据不足：日志中没有出现密码相关的报错，认证问题的可能性较低。", "model_prose_zh", "analysis"),
    (
        "The Redis client reported NOAUTH after the failover, which suggests the new primary has requirepass enabled "
        "while the clients send no password.",
        "model_prose_en",
        "analysis",
    ),
    ("第三方支付的 API 密钥将在 6 月 30 日到期，目前仍然有效。", "expiry_date", "analysis"),
    (
        "The payment-gateway access token is refreshed every 10 minutes; the refresh job failed at 19:01 with HTTP 503 "
        "from the auth server.",
        "model_prose_en",
        "analysis",
    ),
    ("口令认证失败只出现在 pay-mysql-0，其他实例正常。", "model_prose_zh", "analysis"),
    (
        "The secret order-db-credentials was last updated at 2024-06-11T18:50:12Z, according to kubectl describe.",
        "stored_reference",
        "analysis",
    ),
    (
        "The password change at 18:50 was made through the DBA console under ticket OPS-4417.",
        "model_prose_en",
        "analysis",
    ),
    ("用户反馈“密码输入正确但无法登录”，时间与 user-center 在 19:00 的发布一致。", "user_quote", "analysis"),
    ("CSRF token mismatch errors rose from 0 to 40/min after the 19:00 deploy of checkout-api.", "csrf", "analysis"),
    ("共有 3 个 Pod 使用旧密码连接失败，另外 5 个 Pod 挂载新 Secret 后正常。", "model_prose_zh", "analysis"),
    (
        "The X-Api-Key header was missing from 12% of requests, so the gateway answered 403.",
        "model_prose_en",
        "analysis",
    ),
    (
        "凭据轮换由 secret-rotator 这个 CronJob 负责，最近一次运行在 18:50，状态 Completed。",
        "model_prose_zh",
        "analysis",
    ),
    ("数据库密码错误会让 HikariCP 初始化失败，而不是连接超时，因此本次超时与密码无关。", "model_prose_zh", "analysis"),
    ("Nothing in the evidence shows a leaked password or token.", "model_prose_en", "analysis"),
    ("访问令牌的签名算法为 HS256，密钥长度 256 位。", "key_length", "analysis"),
    ("Token refresh latency p99 went from 40 ms to 2.1 s at 19:02.", "token_metric", "analysis"),
    (
        "The summariser's max_tokens is 4096; this run used 1,532 prompt tokens and 418 completion tokens.",
        "llm_tokens",
        "analysis",
    ),
    ("结论：超时由慢查询引起，与密码、令牌或证书都没有关系。", "model_prose_zh", "analysis"),
    (
        "Summary / 总结: the 401s come from an expired access token (令牌过期), not from a wrong password.",
        "bilingual_prose",
        "analysis",
    ),
    (
        "After the rotation the new credentials were written to Vault, but the order-service pods were not restarted, "
        "so they kept the old password in memory.",
        "model_prose_en",
        "analysis",
    ),
    ("“using password: YES” 只表示客户端发送了密码，并不代表密码正确。", "model_prose_zh", "analysis"),
    (
        "The api key for the sandbox gateway is different from the production one; the logs show the sandbox host.",
        "model_prose_en",
        "analysis",
    ),
    (
        "Passwords are hashed with bcrypt (cost 12), so login latency rises with CPU saturation on user-center.",
        "model_prose_en",
        "analysis",
    ),
    (
        "19:02 前后 mysql.user 中 app_ro 的 password_last_changed 未变化，说明 DB 侧没有改密码。",
        "model_prose_zh",
        "analysis",
    ),
    (
        "I am not repeating the password here; error code 1045 is enough to show the login failed.",
        "model_prose_en",
        "analysis",
    ),
    ("密码: 请联系值班 DBA 获取（本报告不记录）。", "label_then_instruction", "missing_info"),
    ("Password: ask the on-call DBA; it is not shared in this report.", "label_then_instruction", "missing_info"),
    (
        "无法确认 order-db-credentials 这个 Secret 最近是否被更新，需要有权限的人查看它的 resourceVersion。",
        "model_prose_zh",
        "missing_info",
    ),
    (
        "需要 DBA 提供 mysql.user 中 app_ro 的 password_last_changed，以判断 19:00 前后是否发生了轮换。",
        "model_prose_zh",
        "missing_info",
    ),
    ("缺少信息：不清楚 payment-gateway 的 token 由谁签发、有效期多长。", "model_prose_zh", "missing_info"),
    (
        "Missing: which credential the cron job uses; its manifest mounts a Secret but I could not read its keys.",
        "model_prose_en",
        "missing_info",
    ),
    ("需要确认密码轮换后应用是否重启过。", "model_prose_zh", "missing_info"),
    (
        "Unknown whether the token was revoked or simply expired; the auth server logs were not available.",
        "model_prose_en",
        "missing_info",
    ),
    (
        "Need confirmation from the DBA whether the app_ro password was changed after 18:00.",
        "model_prose_en",
        "missing_info",
    ),
    ("待补充：支付网关密钥的轮换记录（需要安全团队提供）。", "model_prose_zh", "missing_info"),
    ("未获取到凭据轮换的审计日志。", "model_prose_zh", "missing_info"),
    ("The token's expiry time was not in the logs I could read.", "model_prose_en", "missing_info"),
]
