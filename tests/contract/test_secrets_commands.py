"""contract.secrets: credentials in URLs, connection strings, command lines and cookies are replaced and the
rest of the line kept; a flag that prompts, or is no password for its program, is left alone."""

from __future__ import annotations

import pytest

from contract.secrets import redact, secret_kinds

CONNECTIONS = [
    # (text, the text redacted, its rule)
    ("jdbc:oracle:thin:scott/tiger@db-1:1521/ORCL", "jdbc:oracle:thin:[REDACTED]@db-1:1521/ORCL", "url_userinfo"),
    (
        "url=jdbc:oracle:thin:app/S3cret#1@//db-1:1521/orders",
        "url=jdbc:oracle:thin:[REDACTED]@//db-1:1521/orders",
        "url_userinfo",
    ),
    ("sqlplus scott/tiger@orcl @report.sql", "sqlplus [REDACTED]@orcl @report.sql", "url_userinfo"),
    ("sqlplus -s system/manager", "sqlplus -s [REDACTED]", "url_userinfo"),
    ("SQL> connect app/S3cret@orders", "SQL> connect [REDACTED]@orders", "url_userinfo"),
    (
        'dsn: "order_app:secret@tcp(db-1:3306)/order_db?parseTime=true"',
        'dsn: "[REDACTED]@tcp(db-1:3306)/order_db?parseTime=true"',
        "url_userinfo",
    ),
    ("root:pw@unix(/var/run/mysqld.sock)/db", "[REDACTED]@unix(/var/run/mysqld.sock)/db", "url_userinfo"),
    ("redis://default:R3dis@cache:6379/0", "redis://[REDACTED]@cache:6379/0", "url_userinfo"),
    (
        "jdbc:mysql://db-1:3306/db?user=app&password=S3cret",
        "jdbc:mysql://db-1:3306/db?user=app&password=[REDACTED]",
        "",
    ),
    ("Server=db;User Id=app;Password=my s3cret;", "Server=db;User Id=app;Password=[REDACTED];", "secret_key_value"),
    ("Driver={ODBC};Server=db;Uid=app;Pwd=S3cret;", "Driver={ODBC};Server=db;Uid=app;Pwd=[REDACTED];", ""),
    ("Pwd={p@ss;w0rd};Server=db", "Pwd=[REDACTED];Server=db", "secret_key_value"),
    (
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IF"
        "suFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==;EndpointSuffix=core.windows.net",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED];EndpointSuffix=core.windows.net",
        "",
    ),
    (
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=q2U7pX3+fZ9bK=",
        "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=[REDACTED]",
        "secret_key_value",
    ),
]

COMMANDS = [
    ("mysql -h db -uroot -pS3cret order_db", "mysql -h db -uroot -p[REDACTED] order_db"),
    ("mariadb-dump -u root -p'Dump Pass1' orders", "mariadb-dump -u root -p'[REDACTED]' orders"),
    ("app --password Hunter22 --port 80", "app --password [REDACTED] --port 80"),
    ("app --password=Hunter22 --port 80", "app --password=[REDACTED] --port 80"),
    (
        "helm repo add x https://charts --username u --password 'S3 cret'",
        "helm repo add x https://charts --username u --password '[REDACTED]'",
    ),
    ("app --db-password S3cret", "app --db-password [REDACTED]"),
    ("sshpass -p 'Tr0ub4dor' ssh ops@bastion", "sshpass -p '[REDACTED]' ssh ops@bastion"),
    ("sshpass -pTr0ub4dor scp f ops@bastion:", "sshpass -p[REDACTED] scp f ops@bastion:"),
    ("docker login -u ci -p dckrS3cret registry.local", "docker login -u ci -p [REDACTED] registry.local"),
    ("podman login --username ci -p S3cret quay.io", "podman login --username ci -p [REDACTED] quay.io"),
    ("redis-cli -h cache -a R3disPass PING", "redis-cli -h cache -a [REDACTED] PING"),
    ("redis-cli --user ops --pass R3disPass", "redis-cli --user ops --pass [REDACTED]"),
    ("curl -u admin:S3cret https://api.local/health", "curl -u admin:[REDACTED] https://api.local/health"),
    ("curl -s --user 'admin:S3 cret' https://api.local", "curl -s --user 'admin:[REDACTED]' https://api.local"),
    ("curl -x proxy:3128 -U px:Pr0xy https://x", "curl -x proxy:3128 -U px:[REDACTED] https://x"),
    ("vault login --token hvs_local_dev_9x", "vault login --token [REDACTED]"),
    ("kubectl --token=eyK9x.abc get pods", "kubectl --token=[REDACTED] get pods"),
    ("tool --api-key k3y-9d8c --region cn", "tool --api-key [REDACTED] --region cn"),
    ("oauth2-proxy --client-secret cs-9Xq2Lm", "oauth2-proxy --client-secret [REDACTED]"),
    ("aws-cli --aws-secret-access-key je7MtGbClwBF", "aws-cli --aws-secret-access-key [REDACTED]"),
    ("mongosh -u admin -p S3cret1 --host db", "mongosh -u admin -p [REDACTED] --host db"),
    ("ldapsearch -x -D cn=admin -w S3cret1 -b dc=x", "ldapsearch -x -D cn=admin -w [REDACTED] -b dc=x"),
    ("PGPASSWORD=S3cret psql -h db -U app", "PGPASSWORD=[REDACTED] psql -h db -U app"),
    ("`sshpass -p Tr0ub4dor ssh ops@bastion`", "`sshpass -p [REDACTED] ssh ops@bastion`"),
]

COOKIES = [
    # a value whose name marks a session or a credential, or that looks random; not lang, theme or _ga
    ("Cookie: sid=8f3kQ2; theme=dark", "Cookie: sid=[REDACTED]; theme=dark"),
    ("cookie: _ga=GA1.2.3; csrftoken=x9Y; empty=", "cookie: _ga=GA1.2.3; csrftoken=[REDACTED]; empty="),
    (
        "Set-Cookie: session=8f3kQ2x; Path=/; HttpOnly; Secure",
        "Set-Cookie: session=[REDACTED]; Path=/; HttpOnly; Secure",
    ),
    ('{"headers": {"Cookie": "sid=8f3kQ2; lang=zh"}}', '{"headers": {"Cookie": "sid=[REDACTED]; lang=zh"}}'),
    ("Cookie: sid=[REDACTED]; theme=dark; PHPSESSID=ab12", "Cookie: sid=[REDACTED]; theme=dark; PHPSESSID=[REDACTED]"),
    ("Cookie: lang=zh-CN; SESSION=YTc4ZjQ2", "Cookie: lang=zh-CN; SESSION=[REDACTED]"),
    (
        "Cookie: tz=UTC; connect.sid=s%3Aab12.cd; XSRF-TOKEN=q9",
        "Cookie: tz=UTC; connect.sid=[REDACTED]; XSRF-TOKEN=[REDACTED]",
    ),
    ("Cookie: theme=dark; cna=Gf8kHXL4z0sCAXFc6sG7", "Cookie: theme=dark; cna=[REDACTED]"),
    ("Set-Cookie: remember_me=9f8e7d; Max-Age=86400", "Set-Cookie: remember_me=[REDACTED]; Max-Age=86400"),
]

UNTOUCHED = [
    "mysql -h db -P 3306 -u ro -p order_db",
    "redis-cli -h cache -p 6379 INFO",
    "redis-cli --askpass -h cache",
    "psql --no-password -h db orders",
    "ansible-playbook --ask-pass site.yml",
    "app --password-file /run/secrets/db --token-ttl 3600",
    "vault login --token $VAULT_TOKEN; tool --token ${TOKEN}",
    "ssh --private-key ~/.ssh/id_rsa; tool --api-key ./key.txt",
    "curl -u ops https://api.local",
    "docker login --password-stdin registry.local",
    "echo x | docker login -u ci --password-stdin",
    "sshpass -f /tmp/pw ssh -p 2222 bastion",
    "mongosh -u admin -p --authenticationDatabase admin",
    "gh auth status --show-token",
    "jdbc:oracle:thin:@//db-1:1521/ORCL and sqlplus / as sysdba and sqlplus /nolog",
    "connect to the client/server app@home",
    "user@tcp(db-1:3306)/db",
    "the Cookie: header was missing; Set-Cookie: not sent",
    "Set-Cookie: sid=[REDACTED]; Path=/",
    "Cookie: lang=zh-CN; _ga=GA1.2.628519172.1730039361",
    "Cookie: theme=dark; locale=en_US; _gid=GA1.2.99; tz=Asia/Shanghai; _fbp=fb.1.1596403881668.1116446470",
    "Set-Cookie: lang=en; Path=/",
]


@pytest.mark.parametrize(("text", "expected", "kind"), CONNECTIONS)
def test_credentials_of_a_connection_are_replaced(text: str, expected: str, kind: str) -> None:
    assert kind in secret_kinds(text) if kind else secret_kinds(text) != ()
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()


@pytest.mark.parametrize(("text", "expected"), COMMANDS)
def test_a_credential_given_to_a_command_is_replaced(text: str, expected: str) -> None:
    assert "secret_key_value" in secret_kinds(text)
    assert redact(text) == (expected, True)
    assert secret_kinds(expected) == ()


@pytest.mark.parametrize(("text", "expected"), COOKIES)
def test_a_session_or_credential_cookie_value_is_replaced_and_no_attribute(text: str, expected: str) -> None:
    assert "authorization_header" in secret_kinds(text)
    assert redact(text) == (expected, True)
    assert redact(expected) == (expected, False)


@pytest.mark.parametrize("text", UNTOUCHED)
def test_a_prompt_a_port_or_a_reference_is_no_secret(text: str) -> None:
    assert secret_kinds(text) == ()
    assert redact(text) == (text, False)
