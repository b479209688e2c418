"""Texts that look like secrets and are not: digests, ids, masked values, status phrases about credentials, key
names without a value, port flags, references to where a secret is kept. Every one of them must pass."""

from __future__ import annotations

import json
import random
import re

from .cases import CaseSet
from .placement import place
from .tokens import public_block
from .vocabulary import ALNUM, HEX, b64, chars, order_id, uuid4

_SLOT = re.compile(r"\{(hex|HEX|alnum|digits)(\d+)\}|\{(uuid|order|base64-\w+|cert|pubkey)\}")


def _expand(rng: random.Random, template: str) -> str:
    """Fill ``{hex64}``, ``{alnum24}``, ``{digits6}``, ``{uuid}``, ``{order}`` … ; every other brace stays."""

    def slot(match: re.Match[str]) -> str:
        kind, size, name = match.groups()
        if kind:
            alphabet = {"hex": HEX, "HEX": HEX.upper(), "alnum": ALNUM, "digits": "0123456789"}[kind]
            return chars(rng, alphabet, int(size))
        return {
            "uuid": lambda: uuid4(rng), "order": lambda: order_id(rng),
            "base64-json": lambda: b64(json.dumps({"order_id": order_id(rng), "channel": "ALIPAY"})),
            "base64-text": lambda: b64(f"callback retry {rng.randint(1, 3)}/3 for {order_id(rng)}"),
            "base64-cursor": lambda: b64(json.dumps({"offset": rng.randint(50, 900)}), url=True),
            "cert": lambda: public_block(rng, "CERTIFICATE"), "pubkey": lambda: public_block(rng, "PUBLIC KEY"),
        }[name]()

    return _SLOT.sub(slot, template)


FRAGMENTS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("lookalike:sha256", "prose", ("sha256:{hex64}", "SHA-256 校验值 {hex64}", "{hex64}  order-service-1.8.3.jar")),
    ("lookalike:sha1", "prose", ("sha1 {hex40}", "SHA1 Fingerprint=" + ":".join(["{HEX2}"] * 20))),
    ("lookalike:md5", "prose", ("md5={hex32}", "MD5 (app.jar) = {hex32}", 'ETag: "{hex32}"')),
    ("lookalike:git-commit", "prose", ("commit {hex40}", "发布版本对应 commit {hex7}", "merge request !482 ({hex8})")),
    ("lookalike:trace-id", "prose", ("traceId={hex32}", "trace_id: {hex32}", "traceparent: 00-{hex32}-{hex16}-01")),
    ("lookalike:span-id", "prose", ("spanId={hex16}", "parent_span_id: {hex16}")),
    ("lookalike:uuid", "prose", (
        "X-Request-Id: {uuid}", "run_id {uuid}", "Idempotency-Key: {uuid}", "correlationId={uuid}",
    )),
    ("lookalike:order-id", "prose", ("{order}", "orderId={order}", "订单 order-123")),
    ("lookalike:payment-id", "prose", ("payment_id=PAY20261201{digits6}", "支付单 PAY20261130{digits6}")),
    ("lookalike:request-id", "prose", (
        "request_id=req_{alnum24}", "X-Request-ID: {hex32}", "refundNo=RF20261201{digits4}",
    )),
    ("lookalike:base64", "prose", (
        "payload={base64-json}", "message body (base64): {base64-text}", "cursor: {base64-cursor}",
    )),
    ("lookalike:image-digest", "prose", (
        "nginx:1.25@sha256:{hex64}", "registry.internal/order-service@sha256:{hex64}",
        "imageID: docker-pullable://registry.internal/payment-service@sha256:{hex64}",
    )),
    ("lookalike:email", "prose", (
        "oncall-payment@superbiz.example", "dba-team@superbiz.example", "alice.wang@example.com",
    )),
    ("lookalike:url", "prose", (
        "https://grafana.internal/d/hikari/order-service?orgId=1&from=now-30m",
        "http://order-service:8080/actuator/health",
        "jdbc:mysql://order-db-primary:3306/order_db?useSSL=true&serverTimezone=UTC", "redis://redis-cluster:6379/0",
        "mongodb+srv://cluster0.ab1cd.mongodb.net/orders", "mysql://ro_user@order-db-ro:3306/order_db",
        "https://openapi.alipay.example.com/gateway.do?method=alipay.trade.query&charset=utf-8",
        "ssh://git@gitlab.example.com/payment/order-service.git",
    )),
    ("lookalike:masked", "prose", (
        "password: ******", "password=[REDACTED]", "token: 已脱敏", "密码：********", "api_key=sk-****",
        "Authorization: Bearer ***", "secret: <redacted>", "jdbc:mysql://app:****@db-1:3306/order_db",
        "redis://:******@cache:6379/0", 'password=""',
    )),
    ("lookalike:token-count", "prose", (
        "max_tokens: 4096", "prompt_tokens=812, completion_tokens=143", "tokens_per_minute=90000",
        "max_completion_tokens=2048",
    )),
    ("lookalike:pool-name", "prose", (
        "HikariPool-1", "HikariPool-1 - Connection is not available, request timed out after 30000ms",
        "HikariPool-1 active=50, max=50, pending=23",
    )),
    ("lookalike:error-code", "prose", (
        "ERR_TIMEOUT", "ERR_CHANNEL_TIMEOUT", "ERR_SIGNATURE_INVALID", "ERR_POOL_EXHAUSTED（HTTP 503）",
    )),
    ("lookalike:version", "prose", (
        "order-service v1.8.3", "mysql-connector-j 8.0.33", "nginx/1.25.3", "image tag 1.8.3-20261201-{hex7}",
    )),
    ("lookalike:timestamp", "prose", (
        "2026-12-01T10:05:31Z", "2026-12-01 10:05:31.482 UTC", "176458{digits4}", "10:05 北京时间",
    )),
    ("lookalike:user-host", "prose", (
        "user=order_app@10.0.3.17", "'order_app'@'10.0.3.%'", "DEFINER=`root`@`%`", "ro_user@order-db-ro",
    )),
    ("lookalike:env-ref", "prose", (
        "password=${DB_PASSWORD}", "Authorization: Bearer $TOKEN", "token: {{ .Values.apiToken }}",
        "DB_PASSWORD=${vault:secret/order-db#password}",
    )),
    ("lookalike:env-ref", "command", (
        'redis-cli -h cache -a "$REDIS_PASSWORD" INFO', 'mysql -h order-db-ro -u ro_user --password="$MYSQL_PWD"',
    )),
    ("lookalike:k8s-ref", "prose", (
        "secretKeyRef: {name: order-db-credentials, key: password}", "secretName: order-db-tls",
        "vault kv get secret/order-db",
        "envFrom: [{secretRef: {name: payment-channel-keys}}]",
    )),
    ("lookalike:k8s-ref", "command", ("kubectl get secret order-db-credentials -n prod",)),
    ("lookalike:kv-flag", "prose", (
        "password_expired=N", "password_last_changed: 2026-11-20 03:00:00", "token_ttl=7200",
        "validate_password.policy=MEDIUM",
        "password_lifetime: 90", "token_expires_in: 3600", "secret_version: 7", "pwd_min_length=12",
    )),
    ("lookalike:port-flag", "command", (
        "mysql -h db -P 3306 -u ro", "redis-cli -h cache -p 6379 INFO", "nc -zv order-db 3306",
        "ssh -p 2222 ops@bastion",
        "docker run -p 8080:8080 order-service:1.8.3", "kubectl port-forward svc/order-service 8080:8080",
        "mysql -h order-db-ro -u ro_user -p", "psql -h pg-primary -p 5432 -U ro refund_db",
    )),
    ("lookalike:public-key", "block", (
        "{cert}", "{pubkey}", "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{alnum300} ops@bastion",
    )),
)

SENTENCES: tuple[tuple[str, str, str], ...] = (
    ("密码已轮换", "lookalike:status", "conclusion"),
    ("password reset requested 3 times", "lookalike:status", "analysis"),
    ("token expired", "lookalike:status", "analysis"), ("Bearer token missing", "lookalike:status", "analysis"),
    ("Access denied for user 'order_app'@'10.0.3.17' (using password: YES)", "lookalike:status", "analysis"),
    ("JWT 签名校验失败，请求被 api-gateway 拒绝", "lookalike:status", "analysis"),
    ("令牌已过期，需要重新登录", "lookalike:status", "system_answer"),
    ("api key 无效（401）", "lookalike:status", "analysis"),
    ("Login failed user=alice reason=BAD_CREDENTIALS", "lookalike:status", "analysis"),
    ("secret rotation completed at 10:05", "lookalike:status", "conclusion"),
    ("401 Unauthorized: invalid token", "lookalike:status", "analysis"),
    ("渠道证书可能已被轮换，回调验签失败（ERR_SIGNATURE_INVALID）", "lookalike:status", "knowledge_answer"),
    ("order_app 的密码已于 09:40 轮换，连接池在 09:42 重新建连", "lookalike:status", "analysis"),
    ("检查 db_password 是否配置", "lookalike:key-name", "plan_step"),
    ("确认 spring.datasource.password 是否来自 Vault", "lookalike:key-name", "action"),
    ("the secret_key env var is unset", "lookalike:key-name", "analysis"),
    ("REDIS_PASSWORD 未设置", "lookalike:key-name", "analysis"),
    ("password 字段为空", "lookalike:key-name", "limitations"),
    ("Make sure client_secret is set in the deployment", "lookalike:key-name", "action"),
    ("api_key 参数缺失，渠道返回 ERR_SIGNATURE_INVALID", "lookalike:key-name", "analysis"),
    ("我不会展示任何密码、令牌或密钥", "lookalike:key-name", "system_answer"),
    ("The runbook says never to paste the order_db password or any token into the incident channel",
     "lookalike:key-name", "knowledge_answer"),
)


def lookalike_cases(rng: random.Random, out: CaseSet) -> None:
    """Each look-alike fragment in two sentences of different fields, then the status and key-name sentences."""
    for shape, kind, templates in FRAGMENTS:
        for make in templates:
            for _ in range(2):
                text, surface = place(rng, _expand(rng, make), kind)
                out.add(text, False, shape, surface)
    for text, shape, surface in SENTENCES:
        out.add(text, False, shape, surface)
        if not any(word in text for word in ("我不会", "runbook")):
            placed, where = place(rng, text, "prose")
            out.add(placed, False, shape, where)
