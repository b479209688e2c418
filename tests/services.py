"""Private Redis, MariaDB and Prometheus servers for integration tests.

Each server is a subprocess of the test process on a free 127.0.0.1 port, with its own temporary
directory for data, logs, socket and pid file. The machine's own services (Redis on 6379, MariaDB on
3306 and its default socket, Prometheus on 9090 with ``/etc/prometheus``) are never touched: MariaDB runs
with ``--no-defaults`` so no ``/etc/mysql`` file is read, Prometheus with its own configuration file and
data directory. ``stop()``/``start()`` keep the port and the data directory, so fault tests can take a
server down mid-run and bring it back. Servers still open when the interpreter exits are closed by an
``atexit`` hook.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, NoReturn, Self

import httpx
import pymysql
import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

HOST = "127.0.0.1"
_SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
_INSTALL_HINT = (
    "Install the Debian packages redis-server, mariadb-server and prometheus "
    "(`apt-get install --no-install-recommends redis-server mariadb-server prometheus`); "
    "./scripts/test does this by itself when run as root."
)


class ServiceUnavailable(Exception):
    """A private test server could not be found or started."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def _find_binary(names: tuple[str, ...], package: str) -> str:
    for name in names:
        found = shutil.which(name) or shutil.which(name, path=_SYSTEM_PATH)
        if found:
            return found
    raise ServiceUnavailable(
        f"{' / '.join(names)} not found on PATH or in {_SYSTEM_PATH}: "
        f"the Debian package {package!r} is missing. {_INSTALL_HINT}"
    )


def _tail(path: Path, lines: int = 25) -> str:
    try:
        text = path.read_text(errors="replace").rstrip()
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def _root_args() -> list[str]:
    return ["--user=root"] if os.geteuid() == 0 else []


_NOT_READY = (OSError, redis.RedisError, pymysql.MySQLError)
_open_servers: set[_Server] = set()


@atexit.register
def _close_open_servers() -> None:
    for server in list(_open_servers):
        if server._owner_pid == os.getpid():  # not in a forked child: the servers belong to its parent
            server.close()


class _Server:
    """A server subprocess on a fixed free port with a private temporary directory."""

    name: ClassVar[str]
    package: ClassVar[str]
    start_timeout: ClassVar[float]
    stop_timeout: ClassVar[float]

    def __init__(self, base_dir: Path | None = None) -> None:
        self._base_dir = base_dir
        self._dir: Path | None = None
        self._port: int | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._owner_pid = os.getpid()

    @property
    def host(self) -> str:
        return HOST

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError(f"{type(self).__name__} has not been started")
        return self._port

    @property
    def dir(self) -> Path:
        """The private temporary directory (data, logs, socket)."""
        if self._dir is None:
            raise RuntimeError(f"{type(self).__name__} has not been started")
        return self._dir

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None and self._proc.poll() is None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the server (no-op if running) and wait until it answers."""
        if self.running:
            return
        self.stop()
        if self._dir is None:
            self._dir = Path(tempfile.mkdtemp(prefix=f"superbiz-{self.name}-", dir=self._base_dir))
        if self._port is None:
            self._port = free_port()
        _open_servers.add(self)
        binary = self._binary()
        self._prepare()
        with (self.dir / "console.log").open("ab") as console:
            try:
                self._proc = subprocess.Popen(
                    self._command(binary),
                    stdin=subprocess.DEVNULL,
                    stdout=console,
                    stderr=subprocess.STDOUT,
                    cwd=self.dir,
                )
            except OSError as exc:
                raise ServiceUnavailable(f"cannot run {binary}: {exc}. {_INSTALL_HINT}") from exc
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self._proc.poll() is not None:
                self._fail(binary, f"exited with status {self._proc.returncode} during startup")
            try:
                self._probe()
                return
            except _NOT_READY as exc:
                if time.monotonic() > deadline:
                    self._fail(binary, f"did not answer within {self.start_timeout:.0f} s (last error: {exc!r})")
            time.sleep(0.05)

    def stop(self) -> None:
        """Stop the server process; the port and data directory are kept for the next start()."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(self.stop_timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def close(self) -> None:
        """Stop the server and remove its temporary directory."""
        self.stop()
        if self._dir is not None:
            shutil.rmtree(self._dir, ignore_errors=True)
            self._dir = None
        _open_servers.discard(self)

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _fail(self, binary: str, what: str) -> NoReturn:
        self.stop()
        logs = "\n".join(f"--- tail of {path} ---\n{tail}" for path in self._logs() if (tail := _tail(path)))
        raise ServiceUnavailable(
            f"private {self.name} ({binary}) on {HOST}:{self._port} {what}.\n{logs or '(it wrote no log)'}"
        )

    def _logs(self) -> list[Path]:
        return [self.dir / "console.log"]

    def _prepare(self) -> None:
        """One-time setup before the first start (e.g. initialise a data directory)."""

    def _binary(self) -> str:
        raise NotImplementedError

    def _command(self, binary: str) -> list[str]:
        raise NotImplementedError

    def _probe(self) -> None:
        """Raise unless the server answers."""
        raise NotImplementedError


class RedisServer(_Server):
    """A private, non-persistent redis-server."""

    name = "redis"
    package = "redis-server"
    start_timeout = 20.0
    stop_timeout = 10.0

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def client(self, **kwargs: Any) -> redis.Redis:
        """A new synchronous client; the caller closes it (``with server.client() as r: ...``)."""
        return redis.Redis(host=HOST, port=self.port, db=0, **kwargs)

    def _binary(self) -> str:
        return _find_binary(("redis-server",), self.package)

    def _command(self, binary: str) -> list[str]:
        return [
            binary,
            "--port", str(self.port),
            "--bind", HOST,
            "--save", "",
            "--appendonly", "no",
            "--dir", str(self.dir),
            "--logfile", str(self.dir / "redis.log"),
            "--daemonize", "no",
            "--protected-mode", "yes",
        ]  # fmt: skip

    def _logs(self) -> list[Path]:
        return [*super()._logs(), self.dir / "redis.log"]

    def _probe(self) -> None:
        with self.client(socket_connect_timeout=1, socket_timeout=1, retry=Retry(NoBackoff(), 0)) as client:
            client.ping()


class MariaDBServer(_Server):
    """A private mariadbd with its own data directory, initialised once."""

    name = "mariadb"
    package = "mariadb-server"
    start_timeout = 60.0
    stop_timeout = 30.0
    _innodb_args: ClassVar[list[str]] = ["--innodb-buffer-pool-size=32M", "--innodb-log-file-size=8M"]

    def __init__(self, base_dir: Path | None = None) -> None:
        super().__init__(base_dir)
        self._version: str | None = None

    @property
    def version(self) -> str:
        """The server version string, e.g. ``10.11.6-MariaDB-0+deb12u1``."""
        if self._version is None:
            raise RuntimeError("MariaDBServer has not been started")
        return self._version

    def connect(
        self, database: str | None = None, user: str = "root", password: str = "", **kwargs: Any
    ) -> pymysql.connections.Connection:
        """A new autocommit connection over TCP; the caller closes it."""
        kwargs.setdefault("autocommit", True)
        return pymysql.connect(host=HOST, port=self.port, user=user, password=password, database=database, **kwargs)

    @property
    def _datadir(self) -> Path:
        return self.dir / "data"

    def _binary(self) -> str:
        return _find_binary(("mariadbd", "mysqld"), self.package)

    def _prepare(self) -> None:
        if self._datadir.is_dir():
            return
        install_db = _find_binary(("mariadb-install-db", "mysql_install_db"), self.package)
        log = self.dir / "install-db.log"
        command = [
            install_db,
            "--no-defaults",
            f"--datadir={self._datadir}",
            "--auth-root-authentication-method=normal",
            "--skip-test-db",
            "--skip-name-resolve",
            *self._innodb_args,
            *_root_args(),
        ]
        try:
            with log.open("wb") as out:
                subprocess.run(
                    command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    cwd=self.dir, timeout=120, check=True,
                )  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            shutil.rmtree(self._datadir, ignore_errors=True)
            raise ServiceUnavailable(
                f"initialising the MariaDB data directory failed: {exc}\n"
                f"--- tail of {log} ---\n{_tail(log)}\n{_INSTALL_HINT}"
            ) from exc

    def _command(self, binary: str) -> list[str]:
        return [
            binary,
            "--no-defaults",
            f"--datadir={self._datadir}",
            f"--port={self.port}",
            f"--bind-address={HOST}",
            f"--socket={self.dir / 'mysqld.sock'}",
            f"--pid-file={self.dir / 'mysqld.pid'}",
            f"--log-error={self.dir / 'error.log'}",
            "--skip-name-resolve",
            *self._innodb_args,
            "--skip-log-bin",
            "--performance-schema=OFF",
            *_root_args(),
        ]

    def _logs(self) -> list[Path]:
        return [*super()._logs(), self.dir / "error.log"]

    def _probe(self) -> None:
        with self.connect(connect_timeout=1, read_timeout=5) as conn, conn.cursor() as cursor:
            cursor.execute("SELECT VERSION()")
            (self._version,) = cursor.fetchone()


class PrometheusServer(_Server):
    """A private Prometheus that scrapes nothing and serves the series of an OpenMetrics text, written into its
    data directory with ``promtool tsdb create-blocks-from openmetrics`` before the first start.

    Prometheus 2.42 queries such blocks next to its (empty) head block, however recent their samples: series
    may end at the test's "now" (checked on this machine: a backfilled sample 300 s old is still found by a
    query at "now", one 301 s old is not, as the 5-minute lookback says).
    """

    name = "prometheus"
    package = "prometheus"
    start_timeout = 60.0
    stop_timeout = 30.0

    def __init__(self, openmetrics: str, base_dir: Path | None = None) -> None:
        super().__init__(base_dir)
        self._openmetrics = openmetrics

    @property
    def url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def _datadir(self) -> Path:
        return self.dir / "data"

    def _binary(self) -> str:
        return _find_binary(("prometheus",), self.package)

    def _prepare(self) -> None:
        if self._datadir.is_dir():
            return
        promtool = _find_binary(("promtool",), self.package)
        series, log = self.dir / "series.om", self.dir / "promtool.log"
        series.write_text(self._openmetrics, encoding="utf-8")
        (self.dir / "prometheus.yml").write_text("global:\n  scrape_interval: 15s\nscrape_configs: []\n")
        command = [promtool, "tsdb", "create-blocks-from", "openmetrics", str(series), str(self._datadir)]
        try:
            with log.open("wb") as out:
                subprocess.run(
                    command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    cwd=self.dir, timeout=300, check=True,
                )  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            shutil.rmtree(self._datadir, ignore_errors=True)
            raise ServiceUnavailable(
                f"loading the series into Prometheus blocks failed: {exc}\n--- tail of {log} ---\n{_tail(log)}"
            ) from exc

    def _command(self, binary: str) -> list[str]:
        return [
            binary,
            f"--config.file={self.dir / 'prometheus.yml'}",
            f"--storage.tsdb.path={self._datadir}",
            f"--web.listen-address={HOST}:{self.port}",
            "--storage.tsdb.retention.time=30d",
            "--log.level=warn",
        ]

    def _probe(self) -> None:
        try:
            response = httpx.get(f"{self.url}/-/ready", timeout=1, trust_env=False)
        except httpx.HTTPError as exc:
            raise OSError(f"not answering: {exc!r}") from exc
        if response.status_code != 200:
            raise OSError(f"not ready: HTTP {response.status_code}")
