"""Fixtures shared by every test package."""

from __future__ import annotations

import functools
import itertools
import os
import shutil
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx._transports.default
import pytest

from bot.storage import open_store
from bot.storage.sql import SqlStore
from tests.installed import shared_install
from tests.postgres import PostgresServer

# Database names unique within the session's one server (the pid keeps them apart should two
# test runs ever share a server).
_database_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the whole session.

    Fails (never skips) with what to install when the server binaries are missing.
    """
    server = PostgresServer.start(tmp_path_factory.mktemp("postgres"))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def installed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A non-editable install of a copy of this checkout (Maphex rules marked with
    ``tests.installed.MARKER``), made once per session and shared by its xdist workers (the
    first to ask builds it, under a file lock); tests only read it.

    It lives in the session's temporary folder: an xdist worker's is a subfolder of the one
    the controlling process made (``popen-gw0``), so the workers share its parent."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent
    return shared_install(root)


@functools.cache
def _default_ssl_context() -> ssl.SSLContext:
    return _create_ssl_context()


_create_ssl_context = httpx._transports.default.create_ssl_context


def _shared_ssl_context(verify: Any = True, cert: Any = None, trust_env: bool = True) -> Any:
    """httpx's SSL context for its defaults made once per test process: every client (each
    python-telegram-bot adapter builds two) otherwise loads the system's certificates again,
    ~0.06 CPU s each.  The tests' clients talk plain HTTP to 127.0.0.1; any other
    arguments get their own context, as in httpx."""
    if verify is True and cert is None and trust_env:
        return _default_ssl_context()
    return _create_ssl_context(verify=verify, cert=cert, trust_env=trust_env)


def pytest_configure(config: pytest.Config) -> None:
    pytest.MonkeyPatch().setattr(
        httpx._transports.default, "create_ssl_context", _shared_ssl_context
    )
    config.addinivalue_line(
        "markers",
        "empty_database: store_url gives an empty database (the test builds or migrates it "
        "itself) rather than a copy of a migrated one",
    )


def _new_database_name() -> str:
    return f"test_{os.getpid()}_{next(_database_numbers)}"


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a fresh, empty database on the session's server, one per test."""
    return postgres_server.create_database(_new_database_name())


@pytest.fixture(scope="session")
def postgres_template(postgres_server: PostgresServer) -> str:
    """The name of a PostgreSQL database with every migration applied, made once per session
    (per xdist worker) by the migrations themselves; copying it is much quicker than migrating
    an empty database for each test."""
    from tests.bot.session_kit import migrate

    name = f"template_{os.getpid()}"
    migrate(postgres_server.create_database(name))
    return name


@pytest.fixture(scope="session")
def sqlite_template() -> Path:
    """An SQLite file with every migration applied, made once per session (per worker)."""
    from tests.bot.session_kit import sqlite_template

    return sqlite_template()


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh database for each store backend in turn: an SQLite file, then a PostgreSQL
    database on the session's throwaway server.  Tests that take it run once per backend.

    A copy of a migrated database (:func:`postgres_template`, :func:`sqlite_template`), as
    opening an empty one would migrate it the same way, only slower (~45 ms of CPU on SQLite,
    more on PostgreSQL, against a file copy or one ``createdb``); a test marked
    ``empty_database`` gets an empty one instead (no file at the path, or a database with no
    table)."""
    empty = request.node.get_closest_marker("empty_database") is not None
    if request.param == "sqlite":
        path = tmp_path_factory.mktemp("sqlite") / "hexhall.db"
        if not empty:
            shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        return str(path)
    if empty:
        url: str = request.getfixturevalue("postgres_url")
        return url
    server: PostgresServer = request.getfixturevalue("postgres_server")
    template: str = request.getfixturevalue("postgres_template")
    return server.create_database(_new_database_name(), template=template)


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[SqlStore]:
    """An open store on :func:`store_url`'s database, on SQLite and on PostgreSQL in turn
    (closed afterwards).  A module may define its own ``store`` instead."""
    opened = await open_store(store_url)
    try:
        yield opened
    finally:
        await opened.close()
