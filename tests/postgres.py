"""A throwaway PostgreSQL server for tests and benchmarks.

:class:`PostgresServer` runs Debian's server binaries (``/usr/lib/postgresql/<version>/bin``)
on a fresh data directory, on 127.0.0.1 and a free port, with a user ``hexhall`` that needs no
password.  The tests use it through the ``postgres_server`` and ``postgres_url`` fixtures of
``tests/conftest.py``; benchmarks import it as ``tests.postgres``, so this module must not
import pytest.

The server refuses to run as root and CI runs as root: then the server runs as the ``postgres``
user (or ``nobody`` when there is none).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pwd
import re
import shutil
import stat
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from tests.fakes.base import free_port as _free_port

#: Where Debian's ``postgresql`` package puts each server version's programs.
BIN_ROOT = Path("/usr/lib/postgresql")

#: The role the tests connect as (initdb makes it the superuser).
USER = "hexhall"

#: The programs the harness runs.
_PROGRAMS = ("initdb", "pg_ctl", "postgres", "createdb")

#: How long ``pg_ctl`` may wait for the server to accept connections or to stop.
_WAIT_SECONDS = 60

#: New ports to try when the picked one was taken between picking and binding.
_PORT_ATTEMPTS = 5

#: A unix socket's path must fit in ``sun_path`` (108 bytes on Linux), socket name included.
_SOCKET_DIR_MAX = 80

# The data is thrown away after the run, so durability buys nothing and costs time on every
# commit: no fsync, no waiting for the WAL flush, no full-page images.  max_connections allows
# several processes with connection pools on one server.
_SETTINGS = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "max_connections": "200",
}

_DATABASE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


class PostgresNotInstalledError(RuntimeError):
    """The PostgreSQL server binaries are not installed."""


class PostgresError(RuntimeError):
    """A server program (initdb, pg_ctl, createdb) failed; the message quotes its output."""


@dataclass(frozen=True)
class _RunAs:
    """The unprivileged account the server runs as when the harness runs as root."""

    name: str
    uid: int
    gid: int


def find_bin_dir(root: Path = BIN_ROOT) -> Path:
    """Return the ``bin`` directory of the newest installed server version.

    Raises :class:`PostgresNotInstalledError` (naming the package to install) when no version
    under ``root`` has all the programs the harness runs.
    """
    candidates: list[tuple[tuple[int, ...], Path]] = []
    if root.is_dir():
        for version_dir in root.iterdir():
            bin_dir = version_dir / "bin"
            if all(os.access(bin_dir / program, os.X_OK) for program in _PROGRAMS):
                candidates.append((_version_key(version_dir.name), bin_dir))
    if not candidates:
        raise PostgresNotInstalledError(
            f"PostgreSQL server binaries not found under {root}/*/bin: "
            "install Debian's postgresql package (apt-get install postgresql)"
        )
    return max(candidates)[1]


def _version_key(name: str) -> tuple[int, ...]:
    # Compare "9.6" < "15" < "16" as numbers, not as strings; odd names sort first.
    parts = name.split(".")
    return tuple(int(part) for part in parts) if all(p.isdigit() for p in parts) else (-1,)


def _run_as() -> _RunAs | None:
    # The server exits at once when started as root ("root" execution is not permitted).
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return _RunAs(name, entry.pw_uid, entry.pw_gid)
    raise PostgresError(
        "running as root and neither a 'postgres' nor a 'nobody' user exists to run the server as"
    )


def _traversable(path: Path, account: _RunAs) -> bool:
    # Whether ``account`` may enter ``path``: every directory on the way needs the search bit
    # for that account (pytest's base temporary directory is root's, mode 0700).
    for directory in (path, *path.parents):
        mode = directory.stat()
        if mode.st_uid == account.uid:
            bit = stat.S_IXUSR
        elif mode.st_gid == account.gid:
            bit = stat.S_IXGRP
        else:
            bit = stat.S_IXOTH
        if not mode.st_mode & bit:
            return False
    return True


def _remove_detached(path: Path) -> None:
    # Renamed first, so the path is gone at once for whoever looks next; then deleted by a
    # process in a session of its own that nobody waits for.
    doomed = path.with_name(f"{path.name}.deleting")
    try:
        path.rename(doomed)
    except OSError:
        doomed = path
    try:
        subprocess.Popen(
            ["rm", "-rf", "--", str(doomed)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        shutil.rmtree(doomed, ignore_errors=True)


def _environment(home: Path) -> dict[str, str]:
    # PG* variables of the caller (PGHOST, PGDATA, PGUSER, ...) would redirect the programs.
    env = {key: value for key, value in os.environ.items() if not key.startswith("PG")}
    env.update(HOME=str(home), LC_ALL="C", LANG="C")
    return env


class PostgresServer:
    """A running throwaway PostgreSQL server; :meth:`stop` ends it and deletes its files."""

    def __init__(
        self, root: Path, bin_dir: Path, port: int, account: _RunAs | None, owns_root: bool
    ) -> None:
        """Describe a server already started; use :meth:`start` to make one."""
        self.root = root
        self.bin_dir = bin_dir
        self.port = port
        self._account = account
        self._owns_root = owns_root
        self._stopped = False

    @property
    def data_dir(self) -> Path:
        """The cluster's data directory."""
        return self.root / "data"

    @property
    def socket_dir(self) -> Path:
        """The directory holding the server's unix socket."""
        return self.root / "socket"

    @property
    def log_file(self) -> Path:
        """The server's log (read it when a test needs to know what the server said)."""
        return self.root / "server.log"

    @classmethod
    def start(cls, base_dir: Path) -> PostgresServer:
        """Create a cluster in a new directory under ``base_dir`` and start a server on it.

        Returns once the server accepts connections.  When running as root, or when
        ``base_dir``'s path is too long for a unix socket, the directory is made in the system's
        temporary directory instead.  Raises :class:`PostgresNotInstalledError` when the
        binaries are missing and :class:`PostgresError` when the server does not start.
        """
        bin_dir = find_bin_dir()
        account = _run_as()
        base_dir.mkdir(parents=True, exist_ok=True)
        parent: Path | None = base_dir
        if account is not None and not _traversable(base_dir, account):
            parent = None
        root = Path(tempfile.mkdtemp(prefix="pg-", dir=parent))
        if len(str(root / "socket")) > _SOCKET_DIR_MAX:
            shutil.rmtree(root)
            root = Path(tempfile.mkdtemp(prefix="pg-"))
        server = cls(root, bin_dir, 0, account, owns_root=True)
        # Registered before anything runs, so a failed or interrupted start cleans up too.
        atexit.register(server.stop)
        try:
            server._init_cluster()
            server._start_on_free_port()
        except BaseException:
            server.stop()
            raise
        return server

    def url(self, dbname: str = "postgres") -> str:
        """The ``postgresql://`` URL of database ``dbname`` on this server."""
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{quote(dbname, safe='')}"

    def create_database(self, name: str, template: str | None = None) -> str:
        """Create a database ``name`` and return its URL: empty, or a copy of database
        ``template`` (which nobody may be connected to meanwhile).

        Names must be plain identifiers (letters, digits, underscores; at most 63
        characters); otherwise :class:`ValueError` is raised.
        """
        for each in (name, template):
            if each is not None and not _DATABASE_NAME.fullmatch(each):
                raise ValueError(f"not a plain database name: {each!r}")
        copied = [] if template is None else [f"--template={template}"]
        # A subprocess, not asyncpg: callable from plain code and from inside a running loop.
        self._run(
            [
                str(self.bin_dir / "createdb"),
                "--host=127.0.0.1",
                f"--port={self.port}",
                f"--username={USER}",
                "--no-password",
                *copied,
                name,
            ],
            as_account=False,
        )
        return self.url(name)

    def stop(self) -> None:
        """Stop the server at once (the data is thrown away) and delete its directory.

        The directory is deleted by a detached ``rm`` that outlives the caller, so a test
        session does not wait for thousands of files to go.  Safe to call more than once.
        """
        if self._stopped:
            return
        self._stopped = True
        atexit.unregister(self.stop)
        if (self.data_dir / "postmaster.pid").exists():
            # Nothing is kept, so there is no need for a clean shutdown checkpoint.
            with contextlib.suppress(PostgresError):
                self._pg_ctl("stop", "-m", "immediate")
        if self._owns_root:
            _remove_detached(self.root)

    def _init_cluster(self) -> None:
        self.socket_dir.mkdir()
        if self._account is not None:
            for path in (self.root, self.socket_dir):
                os.chown(path, self._account.uid, self._account.gid)
        self._run(
            [
                str(self.bin_dir / "initdb"),
                f"--pgdata={self.data_dir}",
                f"--username={USER}",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C",
                # Throwaway data: no need to flush the new cluster to disk.
                "--no-sync",
            ],
            as_account=True,
        )
        settings = {**_SETTINGS, "unix_socket_directories": f"'{self.socket_dir}'"}
        with (self.data_dir / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write("\n# tests/postgres.py: a throwaway server\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    def _start_on_free_port(self) -> None:
        # The port is free when picked but another process may bind it before the server
        # does; the server then fails to bind and a new port is tried.
        for _ in range(_PORT_ATTEMPTS):
            self.port = _free_port()
            logged = self.log_file.stat().st_size if self.log_file.exists() else 0
            try:
                self._pg_ctl("start", "--log", str(self.log_file), "-o", f"-p {self.port}")
                return
            except PostgresError as error:
                said = self._log_since(logged)
                if "could not bind" not in said:
                    raise PostgresError(f"{error}\nserver log:\n{said.strip()}") from error
        raise PostgresError(
            f"the server found no free port in {_PORT_ATTEMPTS} attempts; log: {self.log_file}"
        )

    def _pg_ctl(self, *arguments: str) -> None:
        self._run(
            [
                str(self.bin_dir / "pg_ctl"),
                f"--pgdata={self.data_dir}",
                "--wait",
                f"--timeout={_WAIT_SECONDS}",
                *arguments,
            ],
            as_account=True,
        )

    def _log_since(self, offset: int) -> str:
        try:
            with self.log_file.open("rb") as log:
                log.seek(offset)
                return log.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return ""

    def _run(self, command: list[str], *, as_account: bool) -> None:
        account = self._account if as_account else None
        result = subprocess.run(
            command,
            cwd=self.root,
            env=_environment(self.root),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
            user=account.uid if account else None,
            group=account.gid if account else None,
            # Drop root's supplementary groups along with its user id.
            extra_groups=[] if account else None,
        )
        if result.returncode != 0:
            who = f" (as {account.name})" if account else ""
            raise PostgresError(
                f"{Path(command[0]).name}{who} failed with exit status {result.returncode}: "
                f"{(result.stderr or result.stdout).strip()}"
            )
