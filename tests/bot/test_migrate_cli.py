"""``hexhall migrate`` and ``hexhall copy-db`` (issue 19): what they apply and copy, what they
print, and that a password in a database URL is never printed nor logged, in success or in
failure (each failure one line and exit status 2)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.cli import main
from bot.storage import redact_url
from bot.storage.copy import TABLES
from bot.storage.schema import MIGRATIONS, SCHEMA_VERSION
from tests.bot.session_kit import ALICE, BOB, ROOM, finishing_moves, mover, session, start_game
from tests.fakes.base import free_port

PASSWORD = "pw-Zq81x"


def with_password(url: str, password: str = PASSWORD) -> str:
    """``url`` with ``password`` for its user (the test server trusts 127.0.0.1, so any
    password connects: what matters is where it shows up)."""
    parts = urlsplit(url)
    netloc = f"{parts.username}:{password}@{parts.hostname}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@pytest.fixture
def cli(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> Iterator[pytest.CaptureFixture[str]]:
    """In-process ``hexhall`` in an empty folder (no ``.env``), every log line kept; checks
    afterwards that the password was in no log line."""
    monkeypatch.chdir(tmp_path)
    caplog.set_level(logging.DEBUG)
    yield capsys
    assert PASSWORD not in caplog.text


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``hexhall args``: the exit status, standard output and standard error."""
    status = main(list(args))
    out, err = capsys.readouterr()
    assert PASSWORD not in out + err
    return status, out, err


def old_sqlite(path: Path, version: int) -> None:
    """An SQLite database as a Hexhall of schema ``version`` left it."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA synchronous = OFF")  # a test file: no waiting for the disk
        for migration in MIGRATIONS[:version]:
            conn.executescript(migration.sqlite)
        conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


def test_migrate_applies_the_missing_steps_then_finds_nothing_to_do(
    cli: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old_sqlite(tmp_path / "old.db", SCHEMA_VERSION - 2)
    # No argument: the database of HEXHALL_DB.
    monkeypatch.setenv("HEXHALL_DB", "old.db")
    latest = SCHEMA_VERSION
    assert run(cli, "migrate") == (
        0, f"database old.db at schema {latest} (applied {latest - 1}..{latest})\n", ""
    )  # fmt: skip
    assert run(cli, "migrate") == (0, f"database old.db already at schema {latest}\n", "")
    with sqlite3.connect(tmp_path / "old.db") as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest
        assert conn.execute("SELECT count(*) FROM leases").fetchone()[0] == 0
    conn.close()


def test_migrate_a_postgresql_database_never_shows_the_password(
    cli: pytest.CaptureFixture[str], postgres_url: str
) -> None:
    url = with_password(postgres_url)
    shown = redact_url(url)
    assert shown != url and PASSWORD not in shown and ":***@" in shown
    latest = SCHEMA_VERSION
    assert run(cli, "migrate", url) == (
        0, f"database {shown} at schema {latest} (applied 1..{latest})\n", ""
    )  # fmt: skip
    assert run(cli, "migrate", url) == (0, f"database {shown} already at schema {latest}\n", "")


def _counts(out: str) -> dict[str, int]:
    lines = out.splitlines()[1:]
    return {name: int(count) for name, count in (line.split()[:2] for line in lines)}


def test_copy_db_sqlite_to_postgresql_and_back(
    cli: pytest.CaptureFixture[str], tmp_path: Path, postgres_url: str
) -> None:
    async def play() -> int:
        async with session(tmp_path / "from.db") as m:
            # Direct messages on: the game's notices are queued (and copied) too.
            for who in (ALICE, BOB):
                assert (await m.players.settings(who, "dm", "on")).ok
            game_id, _ = await start_game(m, "maphex")
            for move in finishing_moves("maphex")[:2]:
                assert (await m.games.move(await mover(m, game_id), ROOM, move, game_id)).ok
            return game_id

    asyncio.run(play())
    url = with_password(postgres_url)
    shown = redact_url(url)
    status, out, err = run(cli, "copy-db", str(tmp_path / "from.db"), url)
    assert (status, err) == (0, "")
    source = tmp_path / "from.db"
    assert out.splitlines()[0] == f"copied {source} to {shown} (schema {SCHEMA_VERSION}):"
    counts = _counts(out)
    assert list(counts) == [*(t.name for t in TABLES), "total"]
    assert counts["players"] == 2 and counts["games"] == 1 and counts["moves"] == 2
    assert counts["challenges"] == 1 and counts["notifications"] > 0
    assert counts["total"] == sum(counts[t.name] for t in TABLES)
    # And back, into a new SQLite file named as a URL.
    status, out, err = run(cli, "copy-db", url, f"sqlite:///{tmp_path / 'back.db'}")
    assert (status, err) == (0, "")
    assert _counts(out) == counts
    with sqlite3.connect(tmp_path / "back.db") as conn:
        assert conn.execute("SELECT count(*) FROM moves").fetchone()[0] == 2
    conn.close()
    # Never into a database that holds rows: one line, the password hidden.
    status, out, err = run(cli, "copy-db", str(tmp_path / "from.db"), url)
    assert (status, out) == (2, "")
    assert err == (
        f"hexhall: cannot copy into database {shown}: it already holds players; "
        "copy only into a new, empty database\n"
    )


def test_a_database_that_cannot_be_reached_is_one_line_without_the_password(
    cli: pytest.CaptureFixture[str], tmp_path: Path, postgres_url: str
) -> None:
    nowhere = f"postgresql://hexhall:{PASSWORD}@127.0.0.1:{free_port()}/hexhall"
    shown = redact_url(nowhere)
    status, out, err = run(cli, "migrate", nowhere)
    assert (status, out) == (2, "")
    assert err.startswith(f"hexhall: cannot open database {shown}: ") and err.count("\n") == 1
    # Nor when the server answers that there is no such database.
    missing = with_password(postgres_url.rsplit("/", 1)[0] + "/no_such_db")
    status, out, err = run(cli, "migrate", missing)
    assert (status, out) == (2, "")
    refused = 'database "no_such_db" does not exist'
    assert err == f"hexhall: cannot open database {redact_url(missing)}: {refused}\n"
    # copy-db names whichever database failed; nothing is copied.
    old_sqlite(tmp_path / "from.db", SCHEMA_VERSION)
    status, out, err = run(cli, "copy-db", "from.db", nowhere)
    assert (status, out) == (2, "")
    assert err.startswith(f"hexhall: cannot open database {shown}: ") and err.count("\n") == 1
    status, out, err = run(cli, "copy-db", nowhere, "to.db")
    assert (status, out) == (2, "")
    assert err.startswith(f"hexhall: cannot open database {shown}: ") and err.count("\n") == 1


def test_copy_db_refuses_a_missing_source_and_a_copy_onto_itself(
    cli: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run(cli, "copy-db", "nothing.db", "to.db") == (
        2, "", "hexhall: cannot copy: no database at nothing.db\n"
    )  # fmt: skip
    # A missing source file is not created (it would copy nothing), nor the target.
    assert not (tmp_path / "nothing.db").exists() and not (tmp_path / "to.db").exists()
    old_sqlite(tmp_path / "h.db", SCHEMA_VERSION)
    assert run(cli, "copy-db", "h.db", f"sqlite:///{tmp_path / 'h.db'}") == (
        2, "", "hexhall: cannot copy database h.db onto itself\n"
    )  # fmt: skip
    assert run(cli, "copy-db", "h.db")[0] == 2  # TO is required
