"""Secret families that dodge plain matching: credential keys with zero-width or soft-hyphen characters,
full-width letters, markdown emphasis or HTML entities; and SQL the agent wrote (surface "sql_reference") whose
literal holds a credential, against SELECTs that only name credential columns.
"""

from __future__ import annotations

from .case import Family
from .secret_key_values import PROSE_SURFACES

ZW = "\u200b"
SHY = "\u00ad"

OBFUSCATED_KEYS = Family(
    shape="obfuscated_keys",
    surfaces=PROSE_SURFACES,
    violations=(
        f"pass{ZW}word={{pw}}",
        "ｐａｓｓｗｏｒｄ＝{pw}",
        "**password**={pw}",
        "p&#97;ssword: {pw}",
        f"密{ZW}码：{{pw}}",
        "_Password_: {pw}",
        "`password`: `{pw}`",
        "password&#61;{pw}",
        "Ｔｏｋｅｎ：{alnum32}",
        "&quot;password&quot;: &quot;{pw}&quot;",
        f"pass{SHY}word: {{pw}}",
        f"api{ZW}_key={{hexkey}}",
    ),
    controls=(
        f"pass{ZW}word=******",
        "ｐａｓｓｗｏｒｄ＝<redacted>",
        "**password** 字段为空时 {svc} 会回退到默认配置",
        "p&#97;ssword: [REDACTED]",
        f"密{ZW}码已过期",
        "_Password_: (stored in Vault)",
        "`password`: `${DB_PASSWORD}`",
        "password&#61;&lt;redacted&gt;",
        "Ｔｏｋｅｎ 桶容量 {n}00",
        "&quot;password&quot;: &quot;******&quot;",
    ),
)

SQL_REFERENCE = Family(
    shape="sql_reference",
    surfaces=("sql_reference",),
    violations=(
        "SELECT id FROM datasource_config WHERE dsn = 'jdbc:mysql://{dbuser}:{pw}@{dbhost}:3306/{db}'",
        "SELECT * FROM app_log WHERE message LIKE '%password={pw}%'",
        "SELECT user_id FROM api_tokens WHERE token = '{ghp}'",
        "SELECT name FROM integrations WHERE secret = '{b64secret}'",
        "SELECT * FROM {table} WHERE remark LIKE '%密码：{pw}%'",
        "SELECT id, created_at FROM oauth_clients WHERE client_secret = '{alnum40}' LIMIT 1",
        "SELECT COUNT(*) FROM audit_log WHERE detail LIKE '%Authorization: Bearer {alnum40}%'",
        "SELECT host FROM mq_endpoints WHERE url = 'amqp://{dbuser}:{pw}@{host}:5672/'",
        "SELECT * FROM cloud_accounts WHERE access_key_id = '{akia}'",
        "SELECT merchant_id FROM merchants WHERE api_key = '{sklive}'",
    ),
    controls=(
        "SELECT id, username, password_hash FROM user_account WHERE id = {uid}",
        "SELECT * FROM app_log WHERE message LIKE '%password expired%'",
        "SELECT user_id, last_used_at FROM api_tokens WHERE user_id = {uid}",
        "SELECT name FROM integrations WHERE secret_ref = 'vault:secret/{svc}'",
        "SELECT * FROM {table} WHERE order_no = '{order}'",
        "SELECT id, dsn FROM datasource_config WHERE dsn LIKE 'jdbc:mysql://{dbhost}%'",
        "SELECT COUNT(*) FROM audit_log WHERE detail LIKE '%Authorization header missing%'",
        "SELECT trace_id, status FROM request_log WHERE trace_id = '{trace}'",
        "SELECT commit_sha FROM deployments WHERE commit_sha = '{sha40}'",
        "SELECT COUNT(*) FROM user_account WHERE password_updated_at < NOW() - INTERVAL 90 DAY",
        "SELECT request_id FROM gateway_log WHERE request_id = '{uuid}'",
        "SELECT SUM(total_tokens) FROM llm_usage WHERE created_at >= CURDATE()",
    ),
)

FAMILIES = (OBFUSCATED_KEYS, SQL_REFERENCE)
