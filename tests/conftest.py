"""Fixtures shared by every test package."""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.storage import open_store
from bot.storage.sql import SqlStore
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


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a fresh, empty database on the session's server, one per test."""
    return postgres_server.create_database(f"test_{os.getpid()}_{next(_database_numbers)}")


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh database for each store backend in turn: an SQLite file, then a PostgreSQL
    database on the session's throwaway server.  Tests that take it run once per backend."""
    if request.param == "sqlite":
        return str(tmp_path_factory.mktemp("sqlite") / "hexhall.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
async def store(store_url: str) -> AsyncIterator[SqlStore]:
    """An open store on :func:`store_url`'s database, on SQLite and on PostgreSQL in turn
    (closed afterwards).  A module may define its own ``store`` instead."""
    opened = await open_store(store_url)
    try:
        yield opened
    finally:
        await opened.close()
