"""contract.secrets: secrets are found and replaced by [REDACTED], ordinary text is left alone, no input is slow."""

from __future__ import annotations

import time
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from contract.secrets import REDACTED, RULES, SecretRule, redact, secret_kinds
from tests.contract.normal_form_folds import _FOLD

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJ1LTEwMDIzIiwiZXhwIjoxNzg0NjAwMDAwfQ"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)
JWT_PAYLOAD = "eyJzdWIiOiJ1LTEwMDIzIiwicm9sZSI6Im9wcyIsImV4cCI6MTc4NDYwMDAwMH0"
AWS_SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

REDACTED_SAMPLES = [
    # credentials in URLs
    ("jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db", "jdbc:mysql://[REDACTED]@db-1:3306/order_db"),
    ("redis://:hunter2@cache:6379/0", "redis://[REDACTED]@cache:6379/0"),
    ("connect amqp://guest:gu3st!@mq.internal:5672/vhost ok", "connect amqp://[REDACTED]@mq.internal:5672/vhost ok"),
    ("https://ci-bot:ghp_abc123XYZ@github.com/org/repo.git", "https://[REDACTED]@github.com/org/repo.git"),
    ("mongodb://admin:p@ss@mongo-0:27017/admin", "mongodb://[REDACTED]@mongo-0:27017/admin"),
    (
        "postgresql://svc:s3cr3t@pg.internal/app?sslmode=require",
        "postgresql://[REDACTED]@pg.internal/app?sslmode=require",
    ),
    # Authorization headers, any scheme
    ("Authorization: Basic b3JkZXI6czNjcjN0UGFzcw==", "Authorization: Basic [REDACTED]"),
    ("authorization: bearer abc.def.ghi next=1", "authorization: bearer [REDACTED] next=1"),
    ("Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCC", "Proxy-Authorization: Negotiate [REDACTED]"),
    ("Authorization=Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b", "Authorization=Token [REDACTED]"),
    ('{"Authorization": "Bearer mF_9.B5f-4.1JqM", "x": 1}', '{"Authorization": "Bearer [REDACTED]", "x": 1}'),
    ("Authorization: dXNlcjpwYXNzd29yZA== from 10.0.0.1", "Authorization: [REDACTED] from 10.0.0.1"),
    # bare bearer tokens
    ("calling upstream with Bearer mF_9.B5f-4.1JqM", "calling upstream with Bearer [REDACTED]"),
    ("header=Bearer ya29.a0AfH6SMBx-long_token/value==", "header=Bearer [REDACTED]"),
    # JWTs anywhere
    (f"Session token {JWT} validated", "Session token [REDACTED] validated"),
    (f"GET /api/v1/users/me?access_token={JWT} HTTP/1.1", "GET /api/v1/users/me?access_token=[REDACTED] HTTP/1.1"),
    # key=value pairs in query strings and key=value logs
    ("?user=ops&password=Passw0rd!23&next=/home", "?user=ops&password=[REDACTED]&next=/home"),
    (
        "Login failed user=alice password=Passw0rd!23 reason=BAD",
        "Login failed user=alice password=[REDACTED] reason=BAD",
    ),
    ("LDAP bind passwd=Qw3rty!Pass result=OK", "LDAP bind passwd=[REDACTED] result=OK"),
    ("ftp user=inv pwd=Zx81qpL", "ftp user=inv pwd=[REDACTED]"),
    ("Webhook signing secret=whsec_7Hq2LmP9xK loaded", "Webhook signing secret=[REDACTED] loaded"),
    ("notify verified token=tk_live_4f9a2c81e7 refundNo=RF1", "notify verified token=[REDACTED] refundNo=RF1"),
    (
        "gateway.do?app_id=2021&access_token=at_9f8e7d6c5b4a&sign=RSA2",
        "gateway.do?app_id=2021&access_token=[REDACTED]&sign=RSA2",
    ),
    ("merchant=M1 api_key=sk_live_51HxQ2eZvKYlo2C", "merchant=M1 api_key=[REDACTED]"),
    ("geocode?address=Shanghai&apikey=AIzaSyD3moKeyExample77", "geocode?address=Shanghai&apikey=[REDACTED]"),
    ("spring.datasource.password=changeit", "spring.datasource.password=[REDACTED]"),
    ("DB_PASSWORD: hunter2", "DB_PASSWORD: [REDACTED]"),
    ("password: no-pass123", "password: [REDACTED]"),
    ("https://ghp_abc123XYZ@github.com/org/repo.git", "https://[REDACTED]@github.com/org/repo.git"),
    ("client_secret=abc123, scope=read", "client_secret=[REDACTED], scope=read"),
    ("refresh_token = rt-998877", "refresh_token = [REDACTED]"),
    ("X-Api-Key: k3y-9d8c7b6a", "X-Api-Key: [REDACTED]"),
    ("aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key=[REDACTED]"),
    # JSON-ish
    (
        'body: {"username":"ops","password":"Tr0ub4dor&3","otp":"1"}',
        'body: {"username":"ops","password":"[REDACTED]","otp":"1"}',
    ),
    ('{"password": "with space, and comma"}', '{"password": "[REDACTED]"}'),
    ('{"token": "a\\"quoted\\"b", "n": 2}', '{"token": "[REDACTED]", "n": 2}'),
    ('payload={\\"pwd\\":\\"x y\\",\\"a\\":1}', 'payload={\\"pwd\\":\\"[REDACTED]\\",\\"a\\":1}'),
    ("{'secret': 'abc def'}", "{'secret': '[REDACTED]'}"),
    (
        "UPDATE user_account SET password = 'Welcome2024!' WHERE user_id = 1",
        "UPDATE user_account SET password = '[REDACTED]' WHERE user_id = 1",
    ),
    # AWS access key ids
    ("aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=cn-north-1", "aws_access_key_id=[REDACTED] region=cn-north-1"),
    ("key ASIAY34FZKBOKMUTVV7A used", "key [REDACTED] used"),
    # in report text: Chinese labels, full-width forms, tokens and keys with no key before them
    ("未确认账号 app 的数据库密码 Sup3rS3cret 是否已轮换", "未确认账号 app 的数据库密码 [REDACTED] 是否已轮换"),
    ("提醒：其尝试的 password：Passw0rd!23，已在调试日志中", "提醒：其尝试的 password：[REDACTED]，已在调试日志中"),
    ("ｐａｓｓｗｏｒｄ＝Ｈｕｎｔｅｒ２２ 已泄露（见日志）", "ｐａｓｓｗｏｒｄ＝[REDACTED] 已泄露（见日志）"),
    ("未核实 OTP 为 482913 的短信", "未核实 OTP 为 [REDACTED] 的短信"),
    ("请吊销 Bearer 令牌 mF_9.B5f-4.1JqM", "请吊销 Bearer 令牌 [REDACTED]"),
    ("未核实退款通知所用 token tk_live_4f9a2c81e7 的签发方", "未核实退款通知所用 token [REDACTED] 的签发方"),
    ("连接目标 app:Sup3rS3cret@db-1:3306/order_db", "连接目标 [REDACTED]@db-1:3306/order_db"),
    ("核对签名密钥 whsec_7Hq2LmP9xK 是否一致", "核对签名密钥 [REDACTED] 是否一致"),
    (f"S3 的 secret key（{AWS_SECRET}）是否已轮换", "S3 的 secret key（[REDACTED]）是否已轮换"),
    ("Basic 认证解码后的账号口令 order:s3cr3tPass 属于谁", "Basic 认证解码后的账号口令 [REDACTED] 属于谁"),
    (f"签名段 Qm9ndXNTaWdu 与载荷段 {JWT_PAYLOAD} 是否匹配", "签名段 Qm9ndXNTaWdu 与载荷段 [REDACTED] 是否匹配"),
]

UNTOUCHED = [
    "HikariPool-1 - Connection is not available, request timed out after 30000ms.",
    "HikariPool-1 - Pool stats (total=50, active=50, idle=0, waiting=23)",
    "Failed to mark order order-123 as PAID; order-4711 retried",
    "ERR_TIMEOUT calling order-service POST /internal/orders/order-123/paid after 3000ms traceId=f26a1abce5480b38",
    "GET http://payment-service/internal/pay/order-123 HTTP/1.1",
    "jdbc:mysql://db-1:3306/order_db?useSSL=false",
    "https://openapi.example.com/gateway.do?method=trade.query&app_id=2021000118",
    "Access denied for user 'app'@'10.0.3.17' (using password: YES)",
    "Access denied for user 'app'@'10.0.3.17' (using password: NO)",
    "password reset email sent to u-10023",
    "invalid Bearer token in request",
    "max_tokens=512 tokenizer=bert secretary=bob",
    "9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b at 2026-07-21T02:11:05.123Z from 10.0.8.15",
    "Query_time=23.290s Lock_time=22.453s sql=UPDATE biz_order SET status='PAYING' WHERE order_no='order-123'",
    "重复退款请求被拒绝 order=order-2201 code=ERR_REFUND_DUPLICATE",
    "mail to ops@example.com about user@host",
    "HikariPool-1 - Added connection com.mysql.cj.jdbc.ConnectionImpl@5f2b1c3a (jdbc:mysql://[REDACTED]@db-1:3306/order_db)",
    "commit 11f6ad8ec52a2984abaafd7c3b516503785c2072 deployed at 02:05:09@db-1",
    "用户反馈密码错误（BAD_CREDENTIALS），令牌已过期，签名密钥为 RSA2",
    "",
]


@pytest.mark.parametrize(("text", "expected"), REDACTED_SAMPLES)
def test_secrets_are_redacted(text: str, expected: str) -> None:
    assert redact(text) == (expected, True)


@pytest.mark.parametrize("text", UNTOUCHED)
def test_ordinary_text_is_untouched(text: str) -> None:
    assert redact(text) == (text, False)


@pytest.mark.parametrize(("text", "_expected"), REDACTED_SAMPLES)
def test_redaction_is_idempotent(text: str, _expected: str) -> None:
    once, _ = redact(text)
    assert redact(once) == (once, False)


def test_several_secrets_in_one_line() -> None:
    line = (
        f"POST https://u:pw1@h/x?token=t0k&x=1 Authorization: Basic QWxhZGRpbjpvcGVu Bearer b3arer {JWT} "
        "password=pw2 AKIAIOSFODNN7EXAMPLE"
    )
    text, changed = redact(line)
    assert changed
    for secret in ("pw1", "t0k", "QWxhZGRpbjpvcGVu", "b3arer", JWT, "pw2", "AKIAIOSFODNN7EXAMPLE"):
        assert secret not in text
    assert text.count(REDACTED) == 7


def test_secrets_in_json_escaped_text_keep_the_escaped_quotes() -> None:
    text = '{"preview": "{\\"msg\\": \\"login password=abc123\\", \\"Authorization\\": \\"Basic QWxhZGRpbg==\\"}"}'
    assert redact(text) == (
        '{"preview": "{\\"msg\\": \\"login password=[REDACTED]\\", \\"Authorization\\": \\"Basic [REDACTED]\\"}"}',
        True,
    )


@pytest.mark.parametrize(("text", "_expected"), REDACTED_SAMPLES)
def test_every_redacted_sample_holds_a_secret_and_its_redaction_none(text: str, _expected: str) -> None:
    assert secret_kinds(text) != ()
    assert secret_kinds(redact(text)[0]) == ()


@pytest.mark.parametrize("text", UNTOUCHED)
def test_ordinary_text_holds_no_secret(text: str) -> None:
    assert secret_kinds(text) == ()


GITHUB_TOKEN = "ghp_" + "A1b2C3d4E5" * 3 + "f6G7h8"
GOOGLE_KEY = "AIza" + "SyA-" + "1234567890" + "abcdefghijklmnopqrstu"
PEM_BODY = "MIIEowIBAAKCAQEA7bq3nS0p1Vd"

CORPUS: dict[str, tuple[list[tuple[str, str]], list[str]]] = {
    # rule name: ([(text, the secret that redact must remove)], [texts that hold no secret])
    "url_userinfo": (
        [
            ("jdbc:mysql://app:Sup3rS3cret@db-1:3306/order_db", "Sup3rS3cret"),
            ("redis://:hunter2@cache:6379/0", "hunter2"),
            ("git clone https://x-access-token:tok3nV4lue@github.com/org/repo.git", "tok3nV4lue"),
            ('{"url": "postgresql://svc:s3cr3t@pg.internal/app"}', "s3cr3t"),
        ],
        [
            "jdbc:mysql://db-1:3306/order_db",
            "jdbc:mysql://[REDACTED]@db-1:3306/order_db",
            "user=order_app@10.0.3.17",
            "https://example.com/users/@alice mail ops@example.com",
        ],
    ),
    "authorization_header": (
        [
            ("Authorization: Basic b3JkZXI6czNjcjN0UGFzcw==", "b3JkZXI6czNjcjN0UGFzcw=="),
            ("Proxy-Authorization: Negotiate YIIGhgYGKwYBBQUCoIIGejCC", "YIIGhgYGKwYBBQUCoIIGejCC"),
            ('{"Authorization": "Token 9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"}', "9944b09199c62bcf9418ad846"),
            ("authorization=dXNlcjpwYXNzd29yZA== from 10.0.0.1", "dXNlcjpwYXNzd29yZA=="),
        ],
        [
            "Authorization 头已脱敏",
            "Authorization: 已脱敏",
            "Authorization: Bearer",
            "the request had no Authorization header",
        ],
    ),
    "bearer_token": (
        [
            ("calling upstream with Bearer mF_9.B5f-4.1JqM", "mF_9.B5f-4.1JqM"),
            ("header=Bearer ya29.a0AfH6SMBx-long_token/value==", "ya29.a0AfH6SMBx-long_token/value=="),
            ("curl -H 'X-Auth: bearer 0123456789abcdef' https://api", "0123456789abcdef"),
            ("Bearer abcDEF123456 rejected by gateway", "abcDEF123456"),
        ],
        [
            "Bearer [REDACTED]",
            "the bearer token was rejected",
            "invalid Bearer token in request",
            "Bearer 认证失败，bearer auth is required",
        ],
    ),
    "jwt": (
        [
            (f"Session token {JWT} validated", JWT),
            (f'{{"jwt": "{JWT}"}}', JWT),
            (f"cookie=sid;{JWT};path=/", JWT),
            ("unsigned eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0. accepted", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0."),
        ],
        [
            "eyJ",
            "eyJhbGciOiJIUzI1NiJ9 has no dots",
            "keyJar.a.b",
            "eyJ.a.b",
        ],
    ),
    "private_key": (
        [
            (f"-----BEGIN RSA PRIVATE KEY-----\n{PEM_BODY}\n-----END RSA PRIVATE KEY-----\nloaded", PEM_BODY),
            (f"key=-----BEGIN OPENSSH PRIVATE KEY-----\\n{PEM_BODY}", PEM_BODY),
            (f"-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n-----END PRIVATE KEY-----", PEM_BODY),
            (f"-----BEGIN EC PRIVATE KEY-----\n{PEM_BODY}\n-----END EC PRIVATE KEY-----", PEM_BODY),
            (f"-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{PEM_BODY}\n-----END PGP PRIVATE KEY BLOCK-----", PEM_BODY),
            (f"-----BEGIN ENCRYPTED PRIVATE KEY-----\n{PEM_BODY}\n-----END ENCRYPTED PRIVATE KEY-----", PEM_BODY),
        ],
        [
            "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----",
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----",
            "private key file not found: /etc/app/key.pem",
            "加载私钥失败：BEGIN PRIVATE KEY 标记缺失",
        ],
    ),
    "cloud_access_key": (
        [
            ("aws_access_key_id=AKIAIOSFODNN7EXAMPLE region=cn-north-1", "AKIAIOSFODNN7EXAMPLE"),
            ("key ASIAY34FZKBOKMUTVV7A used", "ASIAY34FZKBOKMUTVV7A"),
            ("oss client LTAI5tQ9rFx2mZ8kP3vW7nB1 ok", "LTAI5tQ9rFx2mZ8kP3vW7nB1"),
            (f"maps key={GOOGLE_KEY}&q=1", GOOGLE_KEY),
            ("SecretId AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA", "AKIDz8krbsJ5yKBZQpn74WFkmLPx3gnPhESA"),
            (f"GITHUB_TOKEN {GITHUB_TOKEN}", GITHUB_TOKEN),
            ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrst", "github_pat_11ABCDEFG0123456789"),
            ("slack xoxb-1234567890-0987654321-AbCdEfGhIjKl", "xoxb-1234567890-0987654321-AbCdEfGhIjKl"),
            ("charge failed with sk_live_4eC39HqLyjWDarjtT1zdp7dc", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"),
        ],
        [
            "AKIA",
            "AKIA1234 is too short, and so are LTAI12 and AKIDEXAMPLE",
            "time zone Asia/Shanghai, AIzaSy short, ghp_short123",
            "xoxo from the team; sk_live_ alone",
        ],
    ),
    "secret_key_value": (
        [
            ("Login failed user=alice password=Passw0rd!23 reason=BAD", "Passw0rd!23"),
            ('{"client_secret": "s3cr3t value"}', "s3cr3t value"),
            ("Server=db-1;Database=order_db;User Id=app;Password=my s3cret pass;Encrypt=true", "my s3cret pass"),
            ("jdbc:sqlserver://db-1:1433;databaseName=order_db;user=app;password=S3cret!x;", "S3cret!x"),
            ("java -jar app.jar --spring.datasource.password=Hunt3r2", "Hunt3r2"),
            ("mysql -h db-1 -u root -pS3cretRoot order_db", "S3cretRoot"),
            ("mysqldump -uroot -p'Dump Pass1' order_db > dump.sql", "Dump Pass1"),
            ("/usr/bin/mysqladmin -u root -pAdm1nPwd status", "Adm1nPwd"),
            ('"{\\"msg\\": \\"login password=abc123\\"}"', "abc123"),
        ],
        [
            "password=[REDACTED]",
            "token: 过期",
            "password: 已脱敏",
            "access denied for user 'app'@'10.0.3.17' (using password: YES)",
            "max_tokens=512 tokenizer=bert secretary=bob",
            "mysql -u root -p order_db",
            "mysql -h db -P 3306 -u app; mkdir -p /var/lib/mysql",
            "Server=db;Password=;Encrypt=true",
        ],
    ),
    "one_time_code": (
        [
            ('{"otp":"482913"}', "482913"),
            ("otp=482913&user=u-1", "482913"),
            ("sms_code: 3391", "3391"),
            ('{\\"verify_code\\":\\"A7k9Q2\\"}', "A7k9Q2"),
            ("captcha=x7Kp userTotp=193844", "193844"),
            ("Your OTP is 482913", "482913"),
            ("verification code: 739201, valid for 5 minutes", "739201"),
            ("one-time code 55821 sent", "55821"),
            ("您的验证码是 482913，5 分钟内有效", "482913"),
            ("验证码：7391", "7391"),
            ("动态密码为 839201", "839201"),
            ("短信码 A1b2C3；校验码:123456；一次性密码 99887766；动态码 5521", "99887766"),
        ],
        [
            '{"otp":"1"}',
            "验证码发送失败",
            "验证码错误 3 次",
            "OTP 服务超时",
            "otp=true captcha: required",
            "验证码 1000 次，OTP 5000 ms",
            "verification code sent to 138****0000",
            "sms_code=[REDACTED]，验证码已过期，请重新获取",
        ],
    ),
}

# Forms a probe set of drafts found in report text, caught under the rules above.
FORMS: dict[str, tuple[list[tuple[str, str, str]], list[str]]] = {
    # form: ([(rule, text, the secret that redact must remove)], [texts that hold no secret])
    "chinese_password_label": (
        [
            ("secret_key_value", "未确认账号 app 的数据库密码 Sup3rS3cret 是否已轮换", "Sup3rS3cret"),
            ("secret_key_value", "登录密码：Passw0rd!23", "Passw0rd!23"),
            ("secret_key_value", "管理员密码为 Adm1n@2024，请尽快修改", "Adm1n@2024"),
            ("secret_key_value", "口令: hunter2", "hunter2"),
            ("secret_key_value", '{"密码": "Tr0ub4dor&3"}', "Tr0ub4dor&3"),
            ("secret_key_value", "root 密码是s3cr3t-x9", "s3cr3t-x9"),
            ("secret_key_value", "Basic 认证解码后的账号口令 order:s3cr3tPass 属于谁", "s3cr3tPass"),
        ],
        [
            "密码错误（BAD_CREDENTIALS）",
            "登录密码已脱敏，口令：已重置",
            "密码 (using password: YES)",
            "数据库密码 [REDACTED] 已轮换",
            "密码 MD5 校验失败，管理员密码为 6 位",
            "检查口令 BAD_CREDENTIALS 的来源",
        ],
    ),
    "full_width_forms": (
        [
            ("secret_key_value", "日志显示其尝试的 password：Passw0rd!23 已在调试日志中明文出现", "Passw0rd!23"),
            ("secret_key_value", "ｐａｓｓｗｏｒｄ＝Ｈｕｎｔｅｒ２２", "Ｈｕｎｔｅｒ２２"),
            ("secret_key_value", "client_secret＝abc123，scope＝read", "abc123"),
            ("one_time_code", "ＯＴＰ：４８２９１３", "４８２９１３"),
            ("authorization_header", "Authorization：Basic dXNlcjpwYXNz", "dXNlcjpwYXNz"),
            (
                "cloud_access_key",
                "ＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ",
                "ＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ",
            ),
            ("bearer_token", "Ｂｅａｒｅｒ　ｍＦ＿９．Ｂ５ｆ", "ｍＦ＿９．Ｂ５ｆ"),
        ],
        [
            "password：已脱敏",
            "ｐａｓｓｗｏｒｄ 重置邮件已发送（ｕ－１００２３）",
            "ＯＴＰ 服务超时",
            "Ｂｅａｒｅｒ　ｔｏｋｅｎ 已过期",
            "ｔｏｋｅｎ：［ＲＥＤＡＣＴＥＤ］",
        ],
    ),
    "otp_mixed_label": (
        [
            ("one_time_code", "未核实 ops 用户本次使用的 OTP 为 482913 的短信", "482913"),
            ("one_time_code", "OTP：482913", "482913"),
            ("one_time_code", "动态码为 482913", "482913"),
            ("one_time_code", "otp 是 A7k9Q2", "A7k9Q2"),
            ("one_time_code", "verification code 为 739201", "739201"),
        ],
        [
            "OTP 为空",
            "OTP 是 6 位数字",
            "动态码为空，OTP：已脱敏",
            "OTP 为 1000 次",
        ],
    ),
    "bearer_word_between": (
        [
            ("bearer_token", "请安全值班吊销 Bearer 令牌 mF_9.B5f-4.1JqM", "mF_9.B5f-4.1JqM"),
            ("bearer_token", "Bearer token: abc.def.ghi", "abc.def.ghi"),
            ("bearer_token", "bearer token=Zx81qpLm", "Zx81qpLm"),
            ("bearer_token", "the Bearer token is mF_9.B5f-4.1JqM", "mF_9.B5f-4.1JqM"),
            ("bearer_token", "Bearer access token ya29.a0AfH6SMBx", "ya29.a0AfH6SMBx"),
        ],
        [
            "以 Bearer 令牌调用 order-service",
            "Bearer token expired at 02:11",
            "Bearer token v2 format",
            "Bearer token: [REDACTED]",
            "Bearer 令牌：已过期",
        ],
    ),
    "prefixed_token": (
        [
            ("cloud_access_key", "未核实退款通知所用 token tk_live_4f9a2c81e7 的签发方", "tk_live_4f9a2c81e7"),
            ("cloud_access_key", "webhook whsec_7Hq2LmP9xK loaded", "whsec_7Hq2LmP9xK"),
            ("cloud_access_key", "stripe rk_test_51HxQ2eZvKYlo2C", "rk_test_51HxQ2eZvKYlo2C"),
            ("cloud_access_key", "publishable pk_live_ABCdef123456 in page", "pk_live_ABCdef123456"),
        ],
        [
            "run_test_migration passed; test_live_migration started",
            "whsec_ alone, whsec_short",
            "feature_test_enabled=true",
            "sk_test_lowercaseonly and my_live_stream_v2",
        ],
    ),
    "userinfo_without_scheme": (
        [
            ("url_userinfo", "连接目标 app:Sup3rS3cret@db-1:3306/order_db", "Sup3rS3cret"),
            ("url_userinfo", "(svc:s3cr3t@pg.internal)", "s3cr3t"),
            ("url_userinfo", "dsn=root:123456@localhost", "123456"),
            ("url_userinfo", "amqp 凭据 guest:gu3st!@mq.internal:5672", "gu3st!"),
        ],
        [
            "user=order_app@10.0.3.17 and 'app'@'10.0.3.17'",
            "mailto:ops2@example.com, to:alice.smith@example.com",
            "id:order-123@payment-service, order-123@10.0.3.17",
            "02:05:09@db-1 and nginx:1.25@sha256:0123abcdef",
            "ConnectionImpl@5f2b1c3a (jdbc:mysql://[REDACTED]@db-1:3306/order_db)",
        ],
    ),
    "chinese_key_label": (
        [
            ("secret_key_value", "请核对签名密钥 whsec_7Hq2LmP9xK 是否一致", "whsec_7Hq2LmP9xK"),
            ("secret_key_value", "密钥：abcdEF12", "abcdEF12"),
            ("secret_key_value", "秘钥为 Zx81qpL9", "Zx81qpL9"),
            ("secret_key_value", "私钥 MIIEowIBAAKCAQEA7bq3 已泄露", "MIIEowIBAAKCAQEA7bq3"),
            ("secret_key_value", "会话令牌 mF_9.B5f-4.1JqM 已泄露", "mF_9.B5f-4.1JqM"),
        ],
        [
            "签名密钥 sign_type=RSA2 验签失败，私钥 RSA2048 格式",
            "密钥 Base64 编码，令牌 OAuth2.0 授权",
            "令牌 u-10023 的会话，私钥 /etc/app/key2.pem 不存在",
            "令牌 2026-07-21T02:11:40.123+00:00 过期",
            "检查令牌 access_token 的刷新逻辑，令牌 ttl=7200",
        ],
    ),
    "aws_secret_access_key": (
        [
            ("cloud_access_key", f"未核实 S3 的 secret key（{AWS_SECRET}）是否已轮换", AWS_SECRET),
            ("cloud_access_key", AWS_SECRET, AWS_SECRET),
            ("cloud_access_key", "aws configure set x je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY", "je7MtGbClwBF/2Zp9U"),
            ("cloud_access_key", "key: 9dK2Lm+Qx7Rt5Vw8Yz1Ab4Cd6Ef0Gh3Ij5Kl7Mn9 end", "9dK2Lm+Qx7Rt5Vw8Yz1A"),
        ],
        [
            "commit 11f6ad8ec52a2984abaafd7c3b516503785c2072 and 11F6AD8EC52A2984ABAAFD7C3B516503785C2072",
            "X-Request-Id: 9b2f6c1e4d3a4f7b8a210c5e",
            "body dGhpcyBpcyBhIHRlc3Qgc3RyaW5nIG9mIDMyIGJ5dGVzIQ==",
            "GET internal/Orders/Order1234/paidAgain/v2/x and /b3dEfGh1jKlMn0pQrStUvWxYz12345678+/abcd",
            "Ab3dEfGh1jKlMn0pQrStUvWxYz12345678+/abcde is 41, x-Ab3dEfGh1jKlMn0pQrStUvWxYz12345678+/abcd is glued",
        ],
    ),
    "jwt_payload_alone": (
        [
            ("jwt", f"签名段 Qm9ndXNTaWdu 与载荷段 {JWT_PAYLOAD} 是否匹配", JWT_PAYLOAD),
            (
                "jwt",
                "payload eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0 issued",
                "eyJpc3MiOiJodHRwczovL2lkcC5leGFtcGxlIn0",
            ),
            (
                "jwt",
                "eyJleHAiOjE3ODQ2MDAwMDAsInN1YiI6InUtMSJ9.SflKxwRJSMeKKF2QT4fwpMeJf36",
                "SflKxwRJSMeKKF2QT4fwpMeJf36",
            ),
            ("jwt", f'{{"claims": "{JWT_PAYLOAD}"}}', JWT_PAYLOAD),
        ],
        [
            "JWT header eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 (HS256)",
            "next_cursor=eyJpZCI6MTIzLCJvZmZzZXQiOjEwMH0",
            "eyJzdWIiOiJ1In0 is short",
            "keyJzdWIiOiJ1LTEwMDIzIiwicm9sZSI6Im9wcyJ9",
        ],
    ),
}

POSITIVES = [(name, text, secret) for name, (positives, _) in CORPUS.items() for text, secret in positives] + [
    case for positives, _ in FORMS.values() for case in positives
]
NEGATIVES = [(name, text) for name, (_, negatives) in CORPUS.items() for text in negatives] + [
    (form, text) for form, (_, negatives) in FORMS.items() for text in negatives
]

RELEASE_CLEAN = [
    "password=[REDACTED]",
    "Bearer [REDACTED]",
    "Authorization 头已脱敏",
    "token 过期",
    "token: 过期",
    "验证码发送失败",
    "验证码错误 3 次",
    "OTP 服务超时",
    "密码错误（BAD_CREDENTIALS）",
    "Login failed user=alice password=[REDACTED] reason=BAD_CREDENTIALS",
    "ERR_TIMEOUT",
    "traceId=f26a1abce5480b38",
    "X-Request-Id: 9b2f6c1e-4d3a-4f7b-8a21-0c5e7d9f1a3b",
    "order-123",
    "code=ERR_REFUND_DUPLICATE",
    "HTTP 504",
    "rt=30.008s",
    "jdbc:mysql://db-1:3306/order_db",
    "user=order_app@10.0.3.17",
    "Query_time=27.932s Lock_time=26.506s",
    "access denied for user 'app'@'10.0.3.17' (using password: YES)",
    "the bearer token was rejected",
    "检查 token 刷新逻辑",
    "30007ms",
    "HikariPool-1 - Connection is not available, request timed out after 30007ms (total=50, active=50, idle=0, "
    "waiting=30)",
    "AKIA",
    "用户反馈密码错误，验证码一直收不到，令牌已过期，请检查令牌刷新和验证码发送服务",
    "建议重置数据库密码并轮换访问令牌；验证码服务在 02:11 恢复",
    "order-service 在 02:00:50（UTC）为 HikariPool-1 新建到 db-1:3306/order_db 的连接（连接串中的凭据已脱敏）",
    "02:04:55 有一次以 ops 账号发起的登录代理请求，密码与 otp 已脱敏，现有日志不足以判断是否被盗用。",
    "payment-service 在 02:06:45 以 Bearer 认证调用 order-service 的 /internal/orders/order-123/paid。",
    "请求头「Authorization: Basic [REDACTED] X-Api-Key: [REDACTED]」（模拟日志，MOCK）",
    "refund-service 在 00:30:10 为 WECHAT 加载了 Webhook 签名密钥。",
    "u-10023 的会话令牌在 02:11:40 校验通过，会话本身正常。",
    "提醒 alice 尽快修改密码：日志显示其登录失败原因为 BAD_CREDENTIALS",
    "S3 client config aws_access_key_id=[REDACTED] aws_secret_access_key=[REDACTED] region=cn-north-1",
]
"""Text a faithful diagnosis may hold: the release gate must not see a secret in any of it."""


def test_the_corpus_covers_every_rule() -> None:
    assert set(CORPUS) == {rule.name for rule in RULES}
    assert len(RULES) == len(CORPUS)
    for name, (positives, negatives) in CORPUS.items():
        assert len(positives) >= 4 and len(negatives) >= 4, name
    for form, (cases, negatives) in FORMS.items():
        assert len(cases) >= 4 and len(negatives) >= 4, form
        assert {name for name, _, _ in cases} <= set(CORPUS), form


@pytest.mark.parametrize(("name", "text", "secret"), POSITIVES)
def test_a_secret_is_found_by_its_rule_and_removed(name: str, text: str, secret: str) -> None:
    assert name in secret_kinds(text)
    redacted, changed = redact(text)
    assert changed and secret not in redacted and REDACTED in redacted
    assert secret_kinds(redacted) == ()
    assert redact(redacted) == (redacted, False)


@pytest.mark.parametrize(("name", "text"), NEGATIVES)
def test_a_near_miss_is_no_secret(name: str, text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)


@pytest.mark.parametrize("text", RELEASE_CLEAN)
def test_text_of_a_faithful_diagnosis_is_clean(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)


def _nfkc_one_for_one(text: str) -> str:
    """NFKC where it gives one ASCII character, as secret_kinds folds a text (independently of its table)."""
    return "".join(
        folded if len(folded := unicodedata.normalize("NFKC", char)) == 1 and folded.isascii() else char
        for char in text
    )


def _rule_finds(rule: SecretRule, text: str) -> bool:
    """Whether a detector of ``rule`` finds a secret in ``text`` scanned whole, without the trigger words: a match
    with something to replace (a match can judge its value words, as :mod:`contract.secrets.weak_values` does)."""
    return any(
        start < end
        for each in rule.detectors
        for match in each.pattern.finditer(text)
        for start, end in each.spans(match)
    )


@pytest.mark.parametrize("text", [text for _, text, _ in POSITIVES] + [text for _, text in NEGATIVES])
def test_trigger_words_never_hide_a_match(text: str) -> None:
    folded = _nfkc_one_for_one(text)
    assert secret_kinds(text) == tuple(
        rule.name for rule in RULES if _rule_finds(rule, text) or _rule_finds(rule, folded)
    )


def test_folding_covers_every_character_that_nfkc_makes_one_ascii_character() -> None:
    expected = {
        char: folded
        for char in map(chr, range(0x80, 0x110000))
        if len(folded := unicodedata.normalize("NFKC", char)) == 1 and folded.isascii()
    }
    assert expected == _FOLD


def test_a_full_width_secret_is_replaced_and_the_rest_kept_as_written() -> None:
    assert redact("ｔｏｋｅｎ＝ｓ３ｃｒｅｔ，ｎｅｘｔ＝１") == ("ｔｏｋｅｎ＝[REDACTED]，ｎｅｘｔ＝１", True)
    assert redact("「ＯＴＰ」为 ４８２９１３。") == ("「ＯＴＰ」为 ４８２９１３。", False)
    assert redact("ＯＴＰ 为 ４８２９１３。") == ("ＯＴＰ 为 [REDACTED]。", True)
    assert redact("密码：Ｓｕｐ３ｒ，口令 hunter2") == ("密码：[REDACTED]，口令 [REDACTED]", True)
    assert redact("password=abc123，已轮换") == ("password=[REDACTED]，已轮换", True)


@pytest.mark.parametrize(
    "text",
    [
        "user=order_app@10.0.3.17",
        "Access denied for user 'order_app'@'10.0.3.17' (using password: YES)",
        "HikariPool-1 - Added connection com.mysql.cj.jdbc.ConnectionImpl@5f2b1c3a (jdbc:mysql://[REDACTED]@db-1:3306/order_db)",
        "Failed to mark order order-8821 as PAID: org.springframework.jdbc.CannotGetJdbcConnectionException",
        "HikariPool-1 - Connection is not available, request timed out after 30007ms (total=50, active=50, idle=0)",
    ],
)
def test_log_lines_with_an_at_sign_or_a_long_token_stay_as_they_are(text: str) -> None:
    assert redact(text) == (text, False)


def test_redaction_keeps_the_context_around_a_new_kind_of_secret() -> None:
    assert redact("Server=db;User Id=app;Password=my pass;") == ("Server=db;User Id=app;Password=[REDACTED];", True)
    assert redact("mysqldump -uroot -p'S3 cret' db") == ("mysqldump -uroot -p'[REDACTED]' db", True)
    assert redact("您的验证码是 482913，5 分钟内有效") == ("您的验证码是 [REDACTED]，5 分钟内有效", True)
    assert redact('{"username":"ops","sms_code":"3391"}') == ('{"username":"ops","sms_code":"[REDACTED]"}', True)
    assert redact(f"a\n-----BEGIN PRIVATE KEY-----\n{PEM_BODY}\n-----END PRIVATE KEY-----\nb") == (
        f"a\n{REDACTED}\nb",
        True,
    )


def test_secret_kinds_names_each_kind_once_in_rule_order() -> None:
    line = f"otp=482913 {JWT} password=x1 {JWT} AKIAIOSFODNN7EXAMPLE password=x2"
    order = [rule.name for rule in RULES]
    kinds = secret_kinds(line)
    assert set(kinds) == {"jwt", "cloud_access_key", "secret_key_value", "one_time_code"}
    assert list(kinds) == sorted(kinds, key=order.index)


@pytest.mark.parametrize("text", ["paſſword=Hunter22", "PRİVATE_KEY=abc123", "prıvate_key=abc123", "to\u212aen=abc123"])
def test_letters_that_ignore_case_folds_to_ascii_still_trigger(text: str) -> None:
    assert secret_kinds(text) == ("secret_key_value",)


FRAGMENTS = [
    *("password", "Password=", "token", "otp", "OTP is ", "sms_code=", "captcha:", "验证码", "验证码是 ", "为"),
    *("mysql", "mysqldump ", " -p", "-p'", "Server=db;", "Authorization: ", "Basic ", "Bearer ", "https://"),
    *("u:p@", "eyJa", "AKIA", "IOSFODNN7EXAMPLE", "ghp_", "A1b2C3d4E5F6" * 3, "xoxb-", "sk_live_", "AIza", "LTAI"),
    *("-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "[REDACTED]", "[REDACTED", "[", "]", "@"),
    *("=", ":", "：", ";", "&", ",", ".", "-", "_", "/", "?", "#", " ", "\n", '"', "'", "\\", '\\"'),
    *("482913", "12", "0123456789", "abc", "A1b2", "已脱敏", "次", "ms", "(using password: YES)"),
    *("密码", "口令 ", "令牌", "签名密钥", "数据库密码 ", "是", "OTP 为 ", "Bearer 令牌 ", "Bearer token: "),
    *(
        "Sup3rS3cret",
        "u-10023",
        "RSA2048",
        "ttl=7200",
        "ｐａｓｓｗｏｒｄ",
        "＝",
        "　",
        "，",
        "（",
        "ＯＴＰ",
        "４８２９",
    ),
    *("tk_live_", "whsec_", "4f9a2c81e7", "app:", "S3cret!", "@db-1", ":3306", "mailto:", AWS_SECRET[:20]),
    *(AWS_SECRET[20:], "eyJzdWIiOi", "JzdWIiOiJ1LTEwMDIzIiwi", "ＡＫＩＡ"),
]


@settings(max_examples=300, database=None, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=16).map("".join))
def test_redacted_text_is_clean_and_stays_as_it_is(text: str) -> None:
    redacted, changed = redact(text)
    assert changed == (secret_kinds(text) != ())
    assert secret_kinds(redacted) == ()
    assert redact(redacted) == (redacted, False)


ADVERSARIAL = [
    "a" * 200_000,
    "password=" * 20_000,
    'password="' * 20_000,
    "password:" * 20_000,
    'password=\\"' * 20_000,
    "Bearer " * 30_000,
    "Authorization: " * 15_000,
    "eyJ-" * 50_000,
    "eyJa." * 40_000,
    "a://" * 50_000,
    "x://" + ":" * 200_000,
    "x://" + "a" * 200_000,
    "x://" + "@" * 200_000,
    "a-" * 100_000,
    "a:" * 100_000,
    "xxpassword" * 20_000,
    "AKIA" * 50_000,
    '"' * 200_000,
    "token: " * 30_000,
    "1" * 200_000,
    "-----BEGIN " * 20_000,
    "-----BEGIN PRIVATE KEY-----" * 8_000,
    "-----BEGIN RSA PRIVATE KEY-----\n" + "-----END PRIVATE KEY-----" * 8_000,
    "otp=" * 50_000,
    "otp " * 50_000,
    "otp" + " " * 200_000,
    "otp=" + "1" * 200_000,
    "sms_code=A" * 20_000,
    "验证码" * 60_000,
    "验证码 " * 50_000,
    "验证码为：" * 40_000,
    "验证码1" * 50_000,
    "AIza" * 50_000,
    "AKID" * 50_000,
    "LTAI" * 50_000,
    "ghp_" * 50_000,
    "xoxb-" * 40_000,
    "sk_live_" * 25_000,
    " -p" * 60_000,
    "mysql -p" * 25_000,
    "mysql " * 30_000,
    "mysql a" * 30_000,
    "/mysql " * 30_000,
    "mysql" + " " * 200_000,
    ";password=" * 20_000,
    ";password= -" * 20_000,
    ";Password=" + "-" * 200_000,
    "password=" + "-" * 200_000,
    "Authorization: " + "-" * 200_000,
    "[REDACTED" * 20_000,
    "password=[" * 20_000,
    "密码" * 100_000,
    "密码 " * 60_000,
    "密码：" * 60_000,
    "密码为 a1" * 30_000,
    "密码 " + "a1" * 100_000,
    "密码 " + "A1" * 100_000,
    "密码 a" + "_1" * 100_000,
    "密码 " + "a=" * 100_000,
    "密码 :" + "/" * 200_000,
    "令牌 " + "a1" * 100_000 + "://",
    "Bearer token " * 20_000,
    "Bearer 令牌 " * 30_000,
    "Bearer token " + "a" * 200_000,
    "bearer token is " * 15_000,
    "OTP 为 " * 40_000,
    "tk_live_" * 25_000,
    "ab_test_" + "a" * 200_000,
    "a_test_" * 30_000,
    "whsec_" * 30_000,
    "A" * 200_000,
    "aB1" * 70_000,
    "aB1/" * 50_000,
    "aB1+" * 50_000,
    "aB1 " * 50_000,
    ("aB1" * 13 + "a ") * 5_000,
    "a:b1@" * 40_000,
    "a:1@" * 50_000,
    " a:b1" * 40_000 + "@",
    "a:b" + "1" * 200_000 + "@x",
    "a:b1@" + "x" * 200_000,
    "a:b1@x." * 30_000,
    "a." * 100_000 + ":b1@x",
    "to:" * 60_000 + "b1@x",
    "a@" * 100_000,
    "eyJzdWIiO" + "a" * 200_000,
    "eyJzdWIiOaaaaaaaaaaaaaaaaaaa." * 7_000,
    "ｐａｓｓｗｏｒｄ＝" * 20_000,
    "password：" * 20_000,
    "ｐ" * 200_000,
    "＝" * 200_000,
    "ＡＫＩＡ" * 50_000,
    "，" * 200_000 + "password=x1",
    "ｐａｓｓｗｏｒｄ＝ＡＡＫＩＡＩＯＳＦＯＤＮＮ７ＥＸＡＭＰＬＥ " * 5_000,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=lambda text: repr(text[:12]))
def test_adversarial_input_is_linear(text: str) -> None:
    started = time.perf_counter()
    redact(text)
    secret_kinds(text)
    assert time.perf_counter() - started < 1.0
