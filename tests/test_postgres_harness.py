"""The throwaway PostgreSQL server of ``tests/postgres.py`` and its fixtures."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import asyncpg
import pytest

from tests import postgres
from tests.postgres import PostgresNotInstalledError, PostgresServer, find_bin_dir

# The real port picker, kept before a test replaces it.
_real_free_port = postgres._free_port


async def test_database_stores_and_returns_rows(postgres_url: str) -> None:
    connection = await asyncpg.connect(postgres_url)
    try:
        await connection.execute("CREATE TABLE stack (tile int PRIMARY KEY, owner text NOT NULL)")
        await connection.executemany(
            "INSERT INTO stack (tile, owner) VALUES ($1, $2)", [(3, "white"), (7, "black")]
        )
        rows = await connection.fetch("SELECT tile, owner FROM stack ORDER BY tile")
        encoding = await connection.fetchval("SHOW server_encoding")
    finally:
        await connection.close()
    assert [tuple(row) for row in rows] == [(3, "white"), (7, "black")]
    assert encoding == "UTF8"


async def test_each_test_database_is_fresh_and_separate(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    other_url = postgres_server.create_database(f"harness_other_{os.getpid()}")
    assert other_url != postgres_url
    first = await asyncpg.connect(postgres_url)
    second = await asyncpg.connect(other_url)
    try:
        assert (
            await first.fetchval("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'") == 0
        )
        await first.execute("CREATE TABLE trench (id int)")
        tables = "SELECT count(*) FROM pg_tables WHERE tablename = 'trench'"
        assert await first.fetchval(tables) == 1
        assert await second.fetchval(tables) == 0
        assert await first.fetchval("SELECT current_database()") != await second.fetchval(
            "SELECT current_database()"
        )
    finally:
        await first.close()
        await second.close()


def test_server_runs_on_loopback_with_throwaway_settings(postgres_server: PostgresServer) -> None:
    assert postgres_server.url().startswith(
        f"postgresql://hexhall@127.0.0.1:{postgres_server.port}/"
    )
    assert postgres_server.url("a b").endswith("/a%20b")
    assert (postgres_server.data_dir / "postmaster.pid").exists()


async def test_settings_are_applied(postgres_server: PostgresServer) -> None:
    connection = await asyncpg.connect(postgres_server.url())
    try:
        settings = {
            name: await connection.fetchval(f"SHOW {name}")
            for name in ("fsync", "synchronous_commit", "full_page_writes", "max_connections")
        }
    finally:
        await connection.close()
    assert settings == {
        "fsync": "off",
        "synchronous_commit": "off",
        "full_page_writes": "off",
        "max_connections": "200",
    }


def test_create_database_refuses_names_that_are_not_identifiers(
    postgres_server: PostgresServer,
) -> None:
    with pytest.raises(ValueError, match="not a plain database name"):
        postgres_server.create_database('x"; DROP DATABASE postgres; --')


def test_missing_binaries_name_the_package_to_install(tmp_path: Path) -> None:
    (tmp_path / "15" / "bin").mkdir(parents=True)  # a version without its programs
    with pytest.raises(PostgresNotInstalledError) as raised:
        find_bin_dir(tmp_path)
    assert str(raised.value) == (
        f"PostgreSQL server binaries not found under {tmp_path}/*/bin: "
        "install Debian's postgresql package (apt-get install postgresql)"
    )


def test_stop_ends_the_server_and_removes_its_directory(tmp_path: Path) -> None:
    server = PostgresServer.start(tmp_path)
    with socket.create_connection(("127.0.0.1", server.port), timeout=5):
        pass  # the server accepts connections
    server.stop()
    server.stop()  # a second stop does nothing
    assert not server.root.exists()
    # pg_ctl stop --wait returns once the server has exited, so the port is closed.
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", server.port), timeout=5).close()


def test_start_tries_another_port_when_the_picked_one_is_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        ports = iter([taken, _real_free_port()])
        monkeypatch.setattr(postgres, "_free_port", lambda: next(ports))
        server = PostgresServer.start(tmp_path)
        try:
            assert server.port != taken
            assert "could not bind" in server.log_file.read_text()
            with socket.create_connection(("127.0.0.1", server.port), timeout=5):
                pass
        finally:
            server.stop()


async def test_two_servers_side_by_side_share_nothing(tmp_path: Path) -> None:
    """Each test worker (``-n auto``) starts its own server, possibly under one base
    directory: two servers get their own directories and ports, and a database of the same
    name on each holds its own rows."""
    first = PostgresServer.start(tmp_path)
    try:
        second = PostgresServer.start(tmp_path)
        try:
            assert first.root != second.root and first.port != second.port
            for server, owner in ((first, "white"), (second, "black")):
                connection = await asyncpg.connect(server.create_database("test_same_name"))
                try:
                    await connection.execute("CREATE TABLE seat (owner text)")
                    await connection.execute("INSERT INTO seat VALUES ($1)", owner)
                finally:
                    await connection.close()
            for server, owner in ((first, "white"), (second, "black")):
                connection = await asyncpg.connect(server.url("test_same_name"))
                try:
                    rows = await connection.fetch("SELECT owner FROM seat")
                    assert [tuple(row) for row in rows] == [(owner,)]
                finally:
                    await connection.close()
        finally:
            second.stop()
    finally:
        first.stop()
