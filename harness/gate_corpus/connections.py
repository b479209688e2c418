"""Credentials inside connection strings, on command lines and in HTTP headers."""

from __future__ import annotations

import random
from collections.abc import Callable

from .cases import CaseSet
from .placement import place
from .tokens import jwt, opaque
from .vocabulary import DB_HOSTS, DB_USERS, HEX, REDIS_HOSTS, b64, chars, password, uuid4

Fragment = Callable[[random.Random, str, str, str], str]
"""(rng, user, url-safe password, host) -> the fragment."""

URLS: tuple[tuple[str, tuple[Fragment, ...]], ...] = (
    ("url:mysql", (lambda r, u, p, h: f"mysql://{u}:{p}@{h}:3306/order_db",
                   lambda r, u, p, h: f"mysql+pymysql://{u}:{p}@{h}/order_db?charset=utf8mb4")),
    ("url:redis", (lambda r, u, p, h: f"redis://:{p}@{r.choice(REDIS_HOSTS)}:6379/0",
                   lambda r, u, p, h: f"rediss://default:{p}@{r.choice(REDIS_HOSTS)}:6380")),
    ("url:mongodb-srv", (lambda r, u, p, h: f"mongodb+srv://{u}:{p}@cluster0.{chars(r, 'abcdefgh0123456789', 5)}"
                         ".mongodb.net/orders?retryWrites=true&w=majority",)),
    ("url:mongodb", (lambda r, u, p, h: f"mongodb://{u}:{p}@mongo-0.mongo:27017,mongo-1.mongo:27017/orders?authSource=admin",)),
    ("url:postgres", (lambda r, u, p, h: f"postgresql://{u}:{p}@pg-primary:5432/refund_db",)),
    ("url:amqp", (lambda r, u, p, h: f"amqp://{u}:{p}@rabbitmq.internal:5672/%2F",)),
    ("url:https", (lambda r, u, p, h: f"https://{u}:{p}@nexus.internal/repository/maven-releases/",
                   lambda r, u, p, h: f"https://oauth2:glpat-{chars(r, 'abcdefghijkmnpqrstuvwxyzABCDEFGH23456789', 20)}"
                                      "@gitlab.example.com/payment/order-service.git")),
    ("url:ftp", (lambda r, u, p, h: f"ftp://inv:{p}@ftp.internal/exports",)),
    ("url:jdbc-mysql", (lambda r, u, p, h: f"jdbc:mysql://{h}:3306/order_db?user={u}&password={p}&useSSL=false",
                        lambda r, u, p, h: f"jdbc:mysql://{u}:{p}@{h}:3306/order_db")),
    ("url:jdbc-oracle", (lambda r, u, p, h: f"jdbc:oracle:thin:{u}/{p}@{h}:1521/ORCL",
                         lambda r, u, p, h: f"jdbc:oracle:thin:{u}/{p}@//{h}:1521/ORCLPDB1")),
    ("url:jdbc-postgres", (lambda r, u, p, h: f"jdbc:postgresql://pg-primary:5432/refund_db?user={u}&password={p}",)),
    ("url:ado-net", (lambda r, u, p, h: f"Server=sqlsrv01.internal;Database=orders;User Id=sa;Password={p};",
                     lambda r, u, p, h: f"Data Source=sqlsrv01;Initial Catalog=orders;User ID=report;Password={p};"
                                        "Encrypt=True")),
    ("url:go-dsn", (lambda r, u, p, h: f"{u}:{p}@tcp({h}:3306)/order_db?parseTime=true&loc=UTC",)),
)

FLAGS: tuple[tuple[str, tuple[Fragment, ...]], ...] = (
    ("flag:mysql-p", (lambda r, u, p, h: f"mysql -h {h} -u {u} -p{p} order_db",
                      lambda r, u, p, h: f"mysql -u root -p'{p}' -e \"SHOW PROCESSLIST\"",
                      lambda r, u, p, h: f"mysqladmin -h {h} -u {u} -p{p} status")),
    ("flag:password-space", (lambda r, u, p, h: f"mysql --password {p} -h {h} -u {u}",
                             lambda r, u, p, h: f"mongosh --username admin --password {p} mongodb://mongo-0:27017",
                             lambda r, u, p, h: f"docker login -u ci --password {p} registry.internal")),
    ("flag:password-eq", (lambda r, u, p, h: f"mysqldump --user={u} --password={p} order_db biz_order",
                          lambda r, u, p, h: f"mysql --host={h} --user={u} --password={p}",
                          lambda r, u, p, h: f"liquibase --username={u} --password={p} status")),
    ("flag:redis-cli-a", (lambda r, u, p, h: f"redis-cli -h {r.choice(REDIS_HOSTS)} -a {p} INFO",
                          lambda r, u, p, h: f"redis-cli -a '{p}' --no-auth-warning -h cache DBSIZE",
                          lambda r, u, p, h: f"redis-cli -h cache -p 6379 -a {p} PING")),
    ("flag:curl-u", (lambda r, u, p, h: f"curl -u {u}:{p} https://nexus.internal/service/rest/v1/status",
                     lambda r, u, p, h: f"curl --user admin:{p} http://rabbitmq:15672/api/overview",
                     lambda r, u, p, h: f"curl -s -u elastic:{p} http://elasticsearch:9200/_cluster/health")),
    ("flag:token", (lambda r, u, p, h: f"kubectl --token={opaque(r, 48)} get pods -n prod",
                    lambda r, u, p, h: f"argocd app get order-service --auth-token {jwt(r)}",
                    lambda r, u, p, h: f"consul members -token={uuid4(r)}",
                    lambda r, u, p, h: f"gitlab-runner register --url https://gitlab.example.com --token glrt-"
                                       f"{chars(r, 'abcdefghijkmnpqrstuvwxyzABCDEFGH23456789_-', 20)}",
                    lambda r, u, p, h: f"sonar-scanner -Dsonar.token=squ_{chars(r, HEX, 40)}")),
)

HEADERS: tuple[tuple[str, tuple[Fragment, ...]], ...] = (
    ("header:bearer", (lambda r, u, p, h: f"Authorization: Bearer {opaque(r)}",
                       lambda r, u, p, h: f"curl -H 'Authorization: Bearer {jwt(r)}' http://order-service:8080/internal/orders",
                       lambda r, u, p, h: f'"Authorization": "Bearer {opaque(r, 32)}"')),
    ("header:basic", (lambda r, u, p, h: f"Authorization: Basic {b64(f'{u}:{p}')}",
                      lambda r, u, p, h: f"Proxy-Authorization: Basic {b64(f'ops:{p}')}")),
    ("header:api-key", (lambda r, u, p, h: f"X-Api-Key: {chars(r, HEX, 32)}",
                        lambda r, u, p, h: f"x-api-key: {opaque(r, 40)}")),
    ("header:cookie", (lambda r, u, p, h: f"Cookie: SESSION={b64(uuid4(r))}",
                       lambda r, u, p, h: f"Cookie: JSESSIONID={chars(r, HEX, 32).upper()}; route=2")),
    ("header:set-cookie", (lambda r, u, p, h: f"Set-Cookie: JSESSIONID={chars(r, HEX, 32).upper()}; Path=/; HttpOnly",
                           lambda r, u, p, h: f"Set-Cookie: SESSION={b64(uuid4(r))}; Path=/; Secure; HttpOnly")),
)


def connection_cases(rng: random.Random, out: CaseSet) -> None:
    """Every URL, flag and header shape, each in two to four sentences of different fields."""
    for families, kind, repeat in ((URLS, "prose", 2), (FLAGS, "command", 1), (HEADERS, "prose", 2)):
        for shape, fragments in families:
            for fragment in fragments:
                for _ in range(repeat):
                    user, host = rng.choice(DB_USERS), rng.choice(DB_HOSTS)
                    text, surface = place(rng, fragment(rng, user, password(rng, url_safe=True), host), kind)
                    out.add(text, True, shape, surface)
    for shape, fragments in FLAGS:
        for fragment in fragments:
            user, host = rng.choice(DB_USERS), rng.choice(DB_HOSTS)
            text, surface = place(rng, fragment(rng, user, password(rng), host), "command")
            out.add(text, True, shape, surface)
