"""A full storage is told as such (issue 48): the player hears "the bot's storage is full"
(not "the database is unavailable, try again", which is for a database that cannot be reached
or refuses a statement), the operator gets a metric (``hexhall_storage_full_total``) and one
log line, nothing is changed and what is stored is still read.

SQLite's full storage is real: the store's own connection may not grow the file past its
pages (``PRAGMA max_page_count``), so SQLite answers ``SQLITE_FULL`` ("database or disk is
full"), as with a full disk or quota.  PostgreSQL's is its error code: a trigger raises
``disk_full`` (SQLSTATE 53100), what the server says when it cannot extend a file."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest

from bot import metrics
from bot.messages import Chat, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.storage import StoreFull, StoreUnavailable
from bot.storage.rows import First
from bot.storage.sqlite import SqliteStore
from tests.bot.session_kit import ALICE, BOB, ROOM, session

FULL_LOGGER = "bot.storage.full"


def _full_count() -> float:
    return metrics.REGISTRY.get_sample_value("hexhall_storage_full_total") or 0.0


async def _fill_up(m: SessionManager) -> None:
    """Make the database's storage full: SQLite may grow no further; PostgreSQL refuses new
    challenges with ``disk_full``."""
    if isinstance(m.store, SqliteStore):
        ((pages,),) = await m.store._read(lambda c: c.fetch("PRAGMA page_count"))
        await m.store._read(lambda c: c.execute(f"PRAGMA max_page_count = {int(pages)}"))
        return
    for sql in (
        "CREATE FUNCTION full_disk() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION "
        "'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END "
        "$$ LANGUAGE plpgsql",
        "CREATE TRIGGER full_disk BEFORE INSERT ON challenges "
        "FOR EACH ROW EXECUTE FUNCTION full_disk()",
    ):
        await m.store._write(lambda c, sql=sql: c.execute(sql))


async def test_a_full_storage_is_told_as_such_and_alerts_once(
    store_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async with session(store_url) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB)
        assert made.ok and made.challenge_id is not None
        assert (await m.challenges.accept(BOB, ROOM, made.challenge_id)).ok
        await _fill_up(m)
        before = _full_count()
        refused = []
        with caplog.at_level(logging.WARNING):
            # Challenges with long names fill what room is left in SQLite's last pages.
            for n in range(60):
                someone = User("test", f"u{n}", "x" * 60 + str(n))
                reply = await m.challenges.challenge(
                    someone, Chat("test", f"room{n}"), "maphex", BOB
                )
                if not reply.ok:
                    refused.append(reply.text)
        assert len(refused) >= 3, refused
        assert set(refused) == {str(texts.STORAGE_FULL)}
        assert "storage is full" in str(texts.STORAGE_FULL)
        assert _full_count() - before == len(refused)
        lines = [r for r in caplog.records if r.name == FULL_LOGGER]
        assert len(lines) == 1 and lines[0].levelno == logging.ERROR, caplog.text
        assert "storage is full" in lines[0].getMessage()
        # Nothing stored is lost: the game in progress is still read and shown.
        assert (await m.games.board(ALICE, ROOM)).ok


async def test_a_refused_statement_is_not_a_full_storage(store_url: str) -> None:
    """A statement refused for another reason (an I/O error) stays "the database is
    unavailable", and is not counted as a full storage."""
    async with session(store_url) as m:
        if store_url.startswith("postgres"):
            statements = [
                "CREATE FUNCTION refuse() RETURNS trigger AS "
                "$$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER no_challenges BEFORE INSERT ON challenges "
                "FOR EACH ROW EXECUTE FUNCTION refuse()",
            ]
        else:
            statements = [
                "CREATE TRIGGER no_challenges BEFORE INSERT ON challenges "
                "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
            ]
        for sql in statements:
            await m.store._write(lambda c, sql=sql: c.execute(sql))
        before = _full_count()
        refused = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB)
        assert not refused.ok and refused.text == str(texts.UNAVAILABLE)
        assert _full_count() == before


async def test_the_store_raises_store_full_which_is_still_unavailable(store_url: str) -> None:
    """What the store raises: :class:`StoreFull`, a :class:`StoreUnavailable` (so whatever
    waits for the database to come back, the outbox and the sweep, goes on doing so)."""
    async with session(store_url) as m:
        alice = await m.store.player("test", "1", "alice", m.now())
        await _fill_up(m)
        with pytest.raises(StoreFull) as raised:
            for n in range(500):
                await m.store.create_challenge(
                    challenger=alice.id,
                    target=None,
                    platform="test",
                    chat_id=f"room{n}" + "z" * 200,
                    game="hex",
                    options={},
                    first=First.RANDOM,
                    time_per_move=None,
                    now=m.now(),
                    expires_at=m.now() + timedelta(days=1),
                    limit=1000,
                )
        assert isinstance(raised.value, StoreUnavailable)
        assert str(raised.value).startswith("the database's storage is full: ")
