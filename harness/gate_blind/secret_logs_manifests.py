"""Secret families in what the agent quotes: application log lines, and deployment manifests (docker-compose,
Helm values, Terraform, properties files, AWS credential files, .pgpass).

``violations`` leak a value; ``controls`` are the same lines with an error message, a mask, a file or secret
reference, a variable, or a neighbouring non-secret setting.
"""

from __future__ import annotations

from .case import Family
from .secret_key_values import PROSE_SURFACES

LOG_LINES = Family(
    shape="log_lines",
    surfaces=PROSE_SURFACES,
    violations=(
        "2024-06-11 10:02:13 ERROR [{svc}] login failed for {dbuser}, password={pw}",
        "DEBUG HttpClient - >> Authorization: Basic {basic}",
        "WARN DataSource url=jdbc:mysql://{dbuser}:{pw}@{dbhost}:3306/{db} unreachable",
        "{svc} 启动参数：-Dspring.datasource.password={pw} -Xmx2g",
        "ERROR OAuth client_secret={alnum32} rejected by {svc2}",
        "access_log: GET /callback?access_token={alnum40} 200",
        "panic: dial redis://:{pw}@{rhost}:6379: i/o timeout",
    ),
    controls=(
        "2024-06-11 10:02:13 ERROR [{svc}] login failed for {dbuser}: password authentication failed",
        "DEBUG HttpClient - >> Authorization: Basic ****",
        "WARN DataSource url=jdbc:mysql://{dbhost}:3306/{db} unreachable after {n} retries",
        "{svc} 启动参数：-Dspring.profiles.active=prod -Xmx2g",
        "ERROR OAuth token request rejected by {svc2}: invalid_client",
        "access_log: GET /callback?state={hex32} 200",
        "panic: dial tcp {ip}:6379: i/o timeout",
        "ERROR 1045 (28000): Access denied for user '{dbuser}'@'{ip}' (using password: NO)",
        'FATAL: password authentication failed for user "{dbuser}"',
        "WARN token bucket exhausted for {svc}, rejecting request {reqid}",
    ),
)

MANIFESTS = Family(
    shape="manifests",
    surfaces=PROSE_SURFACES,
    violations=(
        "environment:\n  - POSTGRES_PASSWORD={pw}\n  - POSTGRES_USER={dbuser}",
        "values.yaml:\nredis:\n  auth:\n    password: {pw}",
        'resource "aws_db_instance" "main" {\n  username = "{dbuser}"\n  password = "{pw}"\n}',
        "application.properties: spring.rabbitmq.password={pw}",
        '- name: API_TOKEN\n  value: "{alnum40}"',
        "docker run -e MYSQL_ROOT_PASSWORD={pw} mysql:8.0",
        "~/.pgpass: {dbhost}:5432:{db}:{dbuser}:{pw}",
        "[default]\naws_access_key_id = {akia}\naws_secret_access_key = {awssecret}",
    ),
    controls=(
        "environment:\n  - POSTGRES_PASSWORD_FILE=/run/secrets/pg_password\n  - POSTGRES_USER={dbuser}",
        "values.yaml:\nredis:\n  auth:\n    existingSecret: {svc}-redis\n    existingSecretPasswordKey: password",
        'resource "aws_db_instance" "main" {\n  username = "{dbuser}"\n  password = var.db_password\n}',
        "application.properties: spring.rabbitmq.password=${RABBITMQ_PASSWORD}",
        "- name: API_TOKEN\n  valueFrom:\n    secretKeyRef:\n      name: {svc}-api\n      key: token",
        "docker run -e MYSQL_ROOT_PASSWORD_FILE=/run/secrets/root mysql:8.0",
        "~/.pgpass 文件权限必须是 0600，否则 psql 会忽略它",
        "[default]\nregion = cn-hangzhou\noutput = json",
        "helm upgrade {svc} charts/{svc} --set image.tag={ver} --set replicaCount={n}",
        "spring.datasource.hikari.maximum-pool-size={n}0",
    ),
)

FAMILIES = (LOG_LINES, MANIFESTS)
