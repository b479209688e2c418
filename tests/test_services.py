"""Smoke tests for the private test servers in tests/services.py."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pymysql
import pytest
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from tests.services import MariaDBServer, RedisServer

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_private_redis_is_not_the_system_one(redis_server: RedisServer) -> None:
    assert redis_server.host == "127.0.0.1"
    assert redis_server.port != 6379
    assert redis_server.url == f"redis://127.0.0.1:{redis_server.port}/0"
    with redis_server.client() as client:
        assert client.ping()
        assert client.config_get("port") == {"port": str(redis_server.port)}
        assert client.config_get("save") == {"save": ""}


def test_redis_set_get_round_trip(redis_url: str) -> None:
    with redis.Redis.from_url(redis_url) as client:
        assert client.dbsize() == 0
        client.set("greeting", "hello")
        assert client.get("greeting") == b"hello"


def test_redis_stop_then_start_keeps_the_port(redis_server: RedisServer) -> None:
    port = redis_server.port
    redis_server.stop()
    assert not redis_server.running
    no_retry = Retry(NoBackoff(), 0)  # redis-py retries a refused connection 3 times with backoff (~4 s)
    with redis_server.client(retry=no_retry) as client, pytest.raises(redis.ConnectionError):
        client.ping()
    redis_server.start()
    assert redis_server.port == port
    with redis_server.client() as client:
        assert client.set("after-restart", "1")
        assert client.get("after-restart") == b"1"


def test_context_manager_starts_and_closes() -> None:
    with RedisServer() as server, server.client() as client:
        assert client.ping()
        pid, directory = server.pid, server.dir
    assert not server.running
    assert not Path(f"/proc/{pid}").exists()
    assert not directory.exists()


def test_unclosed_server_is_stopped_and_removed_at_exit() -> None:
    script = (
        "from tests.services import RedisServer\n"
        "server = RedisServer()\n"
        "server.start()\n"
        "print(server.pid, server.dir)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    pid, directory = result.stdout.split()
    assert not Path(f"/proc/{pid}").exists()
    assert not Path(directory).exists()


def test_private_mariadb_is_not_the_system_one(mariadb_server: MariaDBServer) -> None:
    assert mariadb_server.host == "127.0.0.1"
    assert mariadb_server.port != 3306
    assert "MariaDB" in mariadb_server.version
    with mariadb_server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SELECT VERSION(), @@port, @@datadir")
        version, port, datadir = cursor.fetchone()
    assert "MariaDB" in version
    assert port == mariadb_server.port
    assert Path(datadir).resolve() == (mariadb_server.dir / "data").resolve()


def test_mariadb_create_insert_select(mariadb_server: MariaDBServer) -> None:
    with mariadb_server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("DROP DATABASE IF EXISTS smoke")
        cursor.execute("CREATE DATABASE smoke")
    with mariadb_server.connect("smoke") as conn, conn.cursor() as cursor:
        cursor.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(32)) ENGINE=InnoDB")
        cursor.executemany("INSERT INTO item VALUES (%s, %s)", [(1, "one"), (2, "two")])
        cursor.execute("SELECT id, name FROM item ORDER BY id")
        assert cursor.fetchall() == ((1, "one"), (2, "two"))
        cursor.execute("DROP DATABASE smoke")


def test_mariadb_stop_then_start_keeps_port_and_data(mariadb_server: MariaDBServer) -> None:
    port = mariadb_server.port
    with mariadb_server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("CREATE DATABASE IF NOT EXISTS restart_check")
    mariadb_server.stop()
    try:
        assert not mariadb_server.running
        with pytest.raises(pymysql.OperationalError):
            mariadb_server.connect(connect_timeout=1)
    finally:
        mariadb_server.start()
    assert mariadb_server.port == port
    with mariadb_server.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SHOW DATABASES LIKE 'restart_check'")
        assert cursor.fetchall() == (("restart_check",),)
        cursor.execute("DROP DATABASE restart_check")


def test_servers_are_children_of_this_process(redis_server: RedisServer, mariadb_server: MariaDBServer) -> None:
    for server in (redis_server, mariadb_server):
        assert server.pid is not None
        status = Path(f"/proc/{server.pid}/status").read_text()
        assert f"PPid:\t{os.getpid()}\n" in status
