"""What one move costs the database: a Telegram ``/move`` answered with the board (which is the
turn notice, committed with the move and marked sent once posted: issue 24), counted in SQL
statements on SQLite (pictures off; ``BEGIN`` / ``COMMIT`` / ``ROLLBACK`` not counted).

The statements are counted with SQLite's own trace callback on the store's one connection, so
every statement the store runs is seen, whatever the store's layout.  Run this file with ``-s``
to see the statements themselves.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.adapters.telegram.sender import TelegramSender
from bot.delivery.outbox import Outbox
from bot.delivery.recap import Recaps
from bot.storage import SqliteStore
from tests.adapters.telegram_kit import running

#: The most statements a move and its board may cost (issue 23: 15 before for a move and its
#: separate turn notice, 8 after; issue 24: the board is the notice, claimed and marked).
#: Issues 43, 46 and 48 cost none: the reader's language is kept in-process a while
#: (bot.storage.sql_languages), a game without prepared lines neither reads nor drops any
#: (``games.premove_lines``), and the database's clock is read in the game's UPDATE itself.
MOST = 8

_TRANSACTION = ("BEGIN", "COMMIT", "END", "ROLLBACK")


def _posts(path: Path) -> int:
    """How many bot messages the store remembers, read on a connection of its own (so the
    count on the store's connection is not disturbed)."""
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM posts").fetchone()[0])


async def test_a_move_and_its_board_cost_at_most_eight_statements(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    async with running(path, pictures=False) as bot:
        fake, manager = bot.fake, bot.manager
        store = manager.store
        assert isinstance(store, SqliteStore)
        alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
        group = fake.group(-200, "Hex club")
        await fake.send_text(bob, group, "hello")
        for who in (alice, bob):  # the board in the group is their notice, nothing else
            assert (await manager.players.settings(bot.as_user(who), "dm", "off")).ok
        card = await bot.say(alice, group, "/challenge pathagon", reply_to=fake.message(group, 1))
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await bot.next_message(group, before)
        game_id = bot.game_id(board)
        await bot.eventually(lambda: _settled(path, 2))
        outbox = Outbox(store, manager.clock, poll=3600.0)
        sender = TelegramSender(bot.adapter.application.bot, Recaps(store), manager)
        assert await outbox.deliver_due("telegram", sender) == 0  # nothing but the boards
        mover = await bot.to_move(game_id, alice, bob)

        statements: list[str] = []

        def trace(sql: str) -> None:
            if not sql.lstrip().upper().startswith(_TRANSACTION):
                statements.append(" ".join(sql.split()))

        await store.trace_statements(trace)
        try:
            before = fake.last_message_id(group)
            await fake.send_text(mover, group, "/move a1")
            answer = await bot.next_message(group, before)
            assert answer.text is not None and "played a1" in answer.text, answer.text
            # The board is remembered right after it is sent: then the handler is done.
            await bot.eventually(lambda: _settled(path, 3))
        finally:
            await store.trace_statements(None)
        # The board named the player to move; no notice is left to send.
        assert f"tg://user?id={bob.id if mover is alice else alice.id}" in [
            e.url for e in answer.entities or ()
        ]
        assert await outbox.deliver_due("telegram", sender) == 0
        print(f"\n{len(statements)} statements:")
        for sql in statements:
            print("  ", sql[:160])
        assert len(statements) <= MOST, statements


async def _settled(path: Path, posts: int) -> bool:
    return _posts(path) >= posts
