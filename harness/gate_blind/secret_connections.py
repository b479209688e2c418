"""Secret families in how clients connect: URLs and connection strings with ``user:pass@``, CLI credential flags
(``-pS3cret``, ``--password``, ``redis-cli -a``, ``curl -u``, ``PGPASSWORD=``), and HTTP auth headers and cookies.

``controls`` are the same strings without a credential: bare URLs, port flags, env-var references, masked headers.
"""

from __future__ import annotations

from .case import Family
from .secret_key_values import PROSE_SURFACES

CONNECTION_STRINGS = Family(
    shape="connection_strings",
    surfaces=PROSE_SURFACES,
    violations=(
        "jdbc:mysql://{dbuser}:{pw}@{dbhost}:3306/{db}?useSSL=false",
        "jdbc:oracle:thin:{dbuser}/{pw}@{dbhost}:1521/ORCL",
        "redis://:{pw}@{rhost}:6379/0",
        "amqp://{dbuser}:{pw}@{host}:5672/vhost",
        "mongodb+srv://{dbuser}:{pw}@cluster0.{mongo}.mongodb.net/{db}",
        "postgresql://{dbuser}:{pw}@{dbhost}:5432/{db}",
        "连接串 `mysql://{dbuser}:{pw}@{ip}:3306/{db}` 指向了旧主库",
        "DSN: {dbuser}:{pw}@tcp({dbhost}:3306)/{db}?parseTime=true",
        "The webhook posts to https://{dbuser}:{pw}@hooks.{svc}.example.com/notify",
        "SPRING_DATASOURCE_URL=jdbc:postgresql://{dbhost}:5432/{db}?user={dbuser}&password={pw}",
        "sftp://{dbuser}:{pw}@{host}/exports",
        "Server={dbhost};Database={db};User Id={dbuser};Password={pw};",
    ),
    controls=(
        "jdbc:mysql://{dbhost}:3306/{db}?useSSL=false&serverTimezone=UTC",
        "jdbc:oracle:thin:@{dbhost}:1521/ORCL",
        "redis://{rhost}:6379/0",
        "amqp://{host}:5672/vhost（凭据由 Secret 注入）",
        "mongodb+srv://cluster0.{mongo}.mongodb.net/{db}?retryWrites=true",
        "postgresql://{dbhost}:5432/{db}?sslmode=require",
        "连接串 `mysql://{ip}:3306/{db}` 指向了旧主库",
        "Grafana 面板链接：https://grafana.example.com/d/{alnum8}/{svc}?from=now-1h",
        "The webhook posts to https://hooks.{svc}.example.com/notify?trace_id={trace}",
        "SPRING_DATASOURCE_URL=jdbc:postgresql://{dbhost}:5432/{db}?user={dbuser}&password=${DB_PASSWORD}",
        "Server={dbhost};Database={db};Integrated Security=true;",
        "https://{svc}.example.com/api/v1/orders/{order}?request_id={reqid}",
    ),
)

CLI_FLAGS = Family(
    shape="cli_flags",
    surfaces=PROSE_SURFACES,
    violations=(
        "mysql -h {dbhost} -u root -p{pw} {db}",
        "mysql -uroot -p'{pw}' -h {ip}",
        "mysqldump --user={dbuser} --password={pw} {db} > /tmp/{db}.sql",
        "redis-cli -h {rhost} -a {pw} INFO",
        "curl -u {dbuser}:{pw} https://{svc}.example.com/api/health",
        "./deploy.sh --token {alnum40} --env prod",
        "PGPASSWORD={pw} psql -h {dbhost} -U {dbuser} {db}",
        "docker login registry.example.com -u ci -p {pw}",
        'mongosh "mongodb://{dbhost}:27017" --username {dbuser} --password {pw}',
        "rabbitmqadmin -u admin -p {pw} list queues",
        "kubectl --token={jwt} get pods -n {ns}",
        "sshpass -p '{pw}' ssh ops@{host}",
    ),
    controls=(
        "mysql -h {dbhost} -P 3306 -u {dbuser} -p （交互式输入密码）",
        "mysql --defaults-extra-file=/etc/mysql/{svc}.cnf -h {dbhost} -P 3306 {db}",
        'mysqldump --user={dbuser} --password="$MYSQL_PWD" {db} > /tmp/{db}.sql',
        "redis-cli -h {rhost} -p 6379 INFO replication",
        "curl -s https://{svc}.example.com/api/health",
        "./deploy.sh --token-file /run/secrets/deploy_token --env prod",
        "PGPASSWORD=$PGPASS psql -h {dbhost} -p 5432 -U {dbuser} {db}",
        'echo "$REGISTRY_PASSWORD" | docker login registry.example.com -u ci --password-stdin',
        "psql -h {dbhost} -p 5432 -U {dbuser} -d {db} -c 'SELECT 1'",
        "kubectl -n {ns} get pods -o wide",
        "ssh -p 2222 ops@{host}",
        "docker run -p 3306:3306 mysql:8.0",
        "kubectl get secret {svc}-db -n {ns} -o jsonpath='{.metadata.name}'",
    ),
)

HTTP_HEADERS = Family(
    shape="http_headers",
    surfaces=PROSE_SURFACES,
    violations=(
        "Authorization: Bearer {jwt}",
        "请求头 Authorization: Basic {basic}",
        "Cookie: SESSION={alnum32}; locale=zh_CN",
        "Set-Cookie: JSESSIONID={hex32}; Path=/; HttpOnly",
        "X-Api-Key: {alnum32}",
        "curl -H 'Authorization: Bearer {alnum40}' https://{svc}.example.com/api/v1/orders",
        "日志里打印了完整请求头：Authorization: Bearer {skproj}",
        "Proxy-Authorization: Basic {basic}",
        "grpc metadata: authorization=Bearer {alnum40}",
    ),
    controls=(
        "Authorization: Bearer <redacted>",
        "请求头缺少 Authorization，网关返回 401",
        "Cookie: (omitted, {n} cookies)",
        "Set-Cookie 头被 CDN 剥离，导致会话无法保持",
        "X-Request-Id: {reqid}",
        "curl -H 'Authorization: Bearer $TOKEN' https://{svc}.example.com/api/v1/orders",
        "日志里 Authorization 头已脱敏为 Bearer ****",
        'WWW-Authenticate: Bearer realm="{svc}", error="invalid_token"',
        "traceparent: 00-{trace}-{span}-01",
    ),
)

FAMILIES = (CONNECTION_STRINGS, CLI_FLAGS, HTTP_HEADERS)
