"""A new SQLite database file starts as the image of an empty database at this bot's schema
(``bot.storage.sqlite._new_database_image``), not by applying every migration to it: the same
database, made in a sixth of the time."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
from pathlib import Path

import pytest

from bot.storage import sqlite as sqlite_store
from bot.storage.errors import StoreError
from bot.storage.schema import SCHEMA_VERSION
from bot.storage.sqlite import SqliteStore

_SCHEMA = "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"


def _read(path: Path) -> tuple[list[tuple[str, ...]], int, str]:
    """The schema, the schema version and the journal mode of the database at ``path``."""
    db = sqlite3.connect(path)
    try:
        return (
            db.execute(_SCHEMA).fetchall(),
            db.execute("PRAGMA user_version").fetchone()[0],
            db.execute("PRAGMA journal_mode").fetchone()[0],
        )
    finally:
        db.close()


async def test_a_new_file_is_the_database_every_migration_makes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new file made from the image and an empty file every migration was applied to hold
    the same tables, indexes and triggers, the same schema version, in WAL mode; each store
    says every migration was applied, and the image leaves nothing beside the file."""
    made: list[bool] = []
    create = sqlite_store._create

    def counted(path: Path) -> bool:
        made.append(create(path))
        return made[-1]

    monkeypatch.setattr(sqlite_store, "_create", counted)
    imaged, migrated = tmp_path / "imaged.db", tmp_path / "migrated.db"
    migrated.touch()  # a file already there (empty): the migrations are applied to it
    for path in (imaged, migrated):
        store = await SqliteStore.open(path)
        assert store.migrated == tuple(range(1, SCHEMA_VERSION + 1))
        await store.close()
    assert made == [True, False]
    # In WAL mode from its first byte (the header's format versions), as SQLite leaves a file
    # switched to WAL.
    assert imaged.read_bytes()[18:20] == migrated.read_bytes()[18:20] == b"\x02\x02"
    schema, version, journal = _read(imaged)
    assert (schema, version, journal) == _read(migrated)
    assert version == SCHEMA_VERSION and journal == "wal" and len(schema) > 20
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".new") == []
    # The permissions SQLite gives the files it creates (0644 less the umask), as before.
    plain = sqlite3.connect(tmp_path / "plain.db")
    plain.execute("CREATE TABLE t (x)")
    plain.close()
    assert imaged.stat().st_mode & 0o777 == (tmp_path / "plain.db").stat().st_mode & 0o777


async def test_a_file_already_there_is_never_replaced(tmp_path: Path) -> None:
    """Only a file that does not exist is made from the image: a file that is no database
    stays as it was, and opening it says so."""
    path = tmp_path / "notes.db"
    path.write_bytes(b"not a database, " * 100)
    with pytest.raises(StoreError, match="cannot use database"):
        await SqliteStore.open(path)
    assert path.read_bytes() == b"not a database, " * 100


async def test_two_stores_opening_one_new_file_at_once_share_it(tmp_path: Path) -> None:
    """Two opens of one new file at once: one makes it from the image, the other finds it
    (whole); both use the same database.  Fifty new files, so the two meet at every moment
    (before the image was in WAL mode, one of two switching it at once was refused about once
    in seventy)."""
    for n in range(50):
        path = tmp_path / f"shared-{n}.db"
        one, two = await asyncio.gather(SqliteStore.open(path), SqliteStore.open(path))
        try:
            assert await one.schema_version() == await two.schema_version() == SCHEMA_VERSION
        finally:
            await one.close()
            await two.close()
        assert _read(path)[1:] == (SCHEMA_VERSION, "wal")


async def test_two_stores_migrating_one_empty_file_at_once_share_the_steps(tmp_path: Path) -> None:
    """Two opens at once of an empty file already there (no image: every migration applied to
    the file): each step is made by one of them, never undone or made twice, and both end at
    this bot's schema.  Before each step read the version again under its lock, nearly every
    such pair failed ('table players already exists', or busy switching to WAL)."""
    made: list[int] = []
    for n in range(20):
        path = tmp_path / f"empty-{n}.db"
        path.touch()
        one, two = await asyncio.gather(SqliteStore.open(path), SqliteStore.open(path))
        try:
            assert sorted(one.migrated + two.migrated) == list(range(1, SCHEMA_VERSION + 1))
            made.append(len(one.migrated))
            assert await one.schema_version() == await two.schema_version() == SCHEMA_VERSION
        finally:
            await one.close()
            await two.close()
        assert _read(path) == _read(tmp_path / "empty-0.db")
    assert _read(tmp_path / "empty-0.db")[1:] == (SCHEMA_VERSION, "wal")


async def test_a_full_disk_while_writing_the_image_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """When the image cannot be written, nothing is left beside the file and the store is
    opened as before, every migration applied to the file."""
    real = sqlite_store._write_new
    tried: list[Path] = []

    def full(path: Path, data: bytes) -> None:
        tried.append(path)
        real(path, data[:100])
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(sqlite_store, "_write_new", full)
    path = tmp_path / "games.db"
    store = await SqliteStore.open(path)
    try:
        assert store.migrated == tuple(range(1, SCHEMA_VERSION + 1))
        assert await store.schema_version() == SCHEMA_VERSION
    finally:
        await store.close()
    assert tried and not tried[0].exists()
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".new"] == []
    assert _read(path)[1:] == (SCHEMA_VERSION, "wal")
    assert sqlite_store._create(path) is False  # there now: never replaced
