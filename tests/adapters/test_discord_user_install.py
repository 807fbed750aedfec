"""The user-install DM game by correspondence, through the real ``hexhall run`` process (issue
25's "Done when"): Alice challenges Bob to a rated game in a DM between them that the bot is not
a member of (only her user install answers there; Bob has not installed the app, and presses
the buttons of the app's messages all the same: Rapptz/discord.py#9757,
discord/discord-api-docs#6723); Bob accepts; moves are entered only through the Move picker;
then, a simulated day later, the player to move hears by direct message from the bot (the
reminder, then the loss on time, which both hear), and the bot never makes a request to the
friends' DM, which it learnt from the first interaction it cannot reach (403 50001 "Missing
Access" for a bot that is not a member; Discord bans an IP for a while after 10 000 invalid
requests in 10 minutes, "Invalid Request Limit" in Discord's rate-limit docs).

Time: the process reads its clock from ``HEXHALL_CLOCK_FILE``
(:class:`bot.sessions.clock.FileClock`, the process's FakeClock), set a few days in the past
(the outbox sends a notice only when the database's own clock says it is due too) and moved
forward with the fake's
:class:`~tests.fakes.base.ManualClock`, so the interactions' 15-minute tokens age with the games
(Discord: "Interaction tokens are valid for 15 minutes", Receiving and Responding).  With a file
clock the process sweeps every second (``bot.app.sweep_every``): after a move of the clock the
test waits for that round.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engines
from bot.app import FILE_CLOCK_SWEEP_EVERY, AppError, clock_of
from bot.config import settings
from bot.sessions.clock import FileClock
from tests.adapters.discord_kit import ALICE, BOB, DEADLINE, button, fake_discord, labels
from tests.adapters.test_discord_mentions import check_every_message
from tests.adapters.test_discord_picker import pick, press
from tests.adapters.test_discord_process import start_bot, to_move_of
from tests.fakes.base import ManualClock
from tests.fakes.discord_fake import FakeDiscord

FRIENDS = 3_000
#: Moves entered through the picker before the clock moves on (two each: a loss on time, not
#: an abort of a game whose first moves never came).
MOVES = 4
#: The longest a notice may take once the clock moved: the sweep's next round, then delivery.
SWEPT = FILE_CLOCK_SWEEP_EVERY + DEADLINE


class ProcessClock:
    """The bot process's time (a file it reads) and the fake's token clock, moved together."""

    def __init__(self, path: Path, tokens: ManualClock) -> None:
        self.path, self.tokens = path, tokens
        # Days in the past: every notice is due by the database's real clock too.
        self.now = datetime.now(UTC).replace(microsecond=0) - timedelta(days=4)
        self._write()

    def _write(self) -> None:
        partial = self.path.with_suffix(".new")
        partial.write_text(self.now.isoformat(), encoding="utf-8")
        partial.replace(self.path)  # at once: the process never reads half a time

    def advance(self, **delta: float) -> None:
        """Move both clocks forward."""
        step = timedelta(**delta)
        self.now += step
        self.tokens.advance(step.total_seconds())
        self._write()


def _to_friends(fake: FakeDiscord) -> list[str]:
    """Every REST request the bot made to the friends' DM (by its channel id)."""
    return [
        c.method
        for c in fake.calls
        if isinstance(c.data, dict) and c.data.get("params", {}).get("channel_id") == str(FRIENDS)
    ]


def _dms(fake: FakeDiscord, uid: int) -> list[str]:
    return [m.content for m in fake.messages_in(fake.dm_channel(uid))]


async def test_a_user_install_dm_game_reaches_its_players_by_direct_message(
    tmp_path: Path,
) -> None:
    tokens = ManualClock()
    clock = ProcessClock(tmp_path / "clock.txt", tokens)
    async with fake_discord(clock=tokens) as fake:
        fake.uninstall_app(BOB)
        fake.private_channel(FRIENDS, [ALICE, BOB])
        bot = await start_bot(
            fake,
            tmp_path / "hexhall.db",
            tmp_path / "bot.log",
            HEXHALL_CLOCK_FILE=str(clock.path),
        )
        try:
            await fake.wait_until(lambda: len(fake.commands()) >= 10, timeout=DEADLINE)
            options = {"game": "maphex", "opponent": BOB, "size": 9, "days": "1"}
            asked = await fake.slash(ALICE, FRIENDS, "challenge", options)
            card = await fake.original(asked, timeout=DEADLINE)
            assert card.channel_id == FRIENDS and card.pinged_users == {BOB}
            assert "rated" in card.content.lower() and "not a member of this chat" in card.content
            # Bob, without the app, accepts; the card becomes the game's first board.
            await press(fake, BOB, card, "Accept")
            await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
            gid = int(button(card, "Board").split(":")[1])
            board = card
            position = engines.new("maphex", size=9)
            rng = random.Random(25)
            while position.ply < MOVES:
                mover = to_move_of(board)
                assert board is card or board.pinged_users == {mover}
                move = position.random_move(rng)
                board = await pick(fake, mover, board, move)
                assert board.channel_id == FRIENDS and not board.ephemeral
                assert f"`{move}`" in board.content
                position = position.play(move)
            assert position.outcome is None
            # The bot takes the buttons off the older boards (by their fresh tokens) just
            # after answering: settled before the clocks move on.
            await fake.wait_until(
                lambda: (
                    [m.id for m in fake.messages_in(FRIENDS) if "Move" in labels(m)] == [board.id]
                ),
                timeout=DEADLINE,
            )
            (late,) = board.pinged_users
            other = ALICE if late == BOB else BOB
            assert _dms(fake, late) == [] and _dms(fake, other) == []

            # 22 hours later (the reminder is due 10 % of the day before the deadline): the
            # player to move is reminded by direct message.
            clock.advance(hours=22)
            await fake.wait_until(
                lambda: any("Reminder" in text for text in _dms(fake, late)), timeout=SWEPT
            )
            assert f"#{gid}" in _dms(fake, late)[-1]
            # A day and an hour after the last move: the loss on time, to both by DM.
            clock.advance(hours=3)
            await fake.wait_until(
                lambda: (
                    any("time ran out" in t for t in _dms(fake, late))
                    and any("You win on time" in t for t in _dms(fake, other))
                ),
                timeout=SWEPT,
            )
            reminded = [t for t in _dms(fake, late) if "Reminder" in t]
            assert len(reminded) == 1, _dms(fake, late)

            # The last board's Move, pressed a day later: a private answer, nothing posted.
            opened = await press(fake, late, board, "Move")
            answer = await fake.original(opened, timeout=DEADLINE)
            assert answer.ephemeral and "Play it" not in labels(answer)
            assert "went wrong" not in answer.content and "over" in answer.content.lower()

            # Nothing went to the friends' DM but the interactions' answers: no request there
            # at all (the bot knew from the first interaction that it is not a member), and
            # no interaction token used after its 15 minutes.
            assert _to_friends(fake) == []
            expired = [c for c in fake.calls if c.response and c.response.get("status") == 401]
            assert expired == []
            assert check_every_message(fake) > 0
        finally:
            assert await bot.stop() == 0, bot.tail()


def test_the_process_clock_reads_its_file_and_keeps_the_last_good_time(tmp_path: Path) -> None:
    """``HEXHALL_CLOCK_FILE``: the time the file holds, moved by rewriting it; a file being
    rewritten (unreadable for a moment) keeps the last time; a file holding no time with its
    offset is a one-line error at start-up."""
    path = tmp_path / "clock.txt"
    path.write_text("2026-03-01T12:00:00+00:00", encoding="utf-8")
    clock = FileClock(path)
    assert clock.now() == datetime(2026, 3, 1, 12, tzinfo=UTC)
    path.write_text("2026-03-02T13:30:00+01:00\n", encoding="utf-8")
    assert clock.now() == datetime(2026, 3, 2, 12, 30, tzinfo=UTC)
    path.write_text("", encoding="utf-8")
    assert clock.now() == datetime(2026, 3, 2, 12, 30, tzinfo=UTC)
    path.write_text("2026-03-01 12:00", encoding="utf-8")
    with pytest.raises(AppError, match=r"HEXHALL_CLOCK_FILE: .* without its UTC offset"):
        clock_of(settings({"HEXHALL_CLOCK_FILE": str(path)}))
    assert clock_of(settings({})) is None
