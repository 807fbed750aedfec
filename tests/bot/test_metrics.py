"""The metrics of :mod:`bot.metrics`, each recorded at its one place: moves stored through a
real session manager, answers shown by the console, Telegram and Discord adapters (against
their fakes), notifications delivered by the outbox, and clock sweeps by the sweeper."""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import engines
from bot.adapters.console import Console
from bot.core.notification import Kind, Notification, Recipient
from bot.delivery.outbox import Outbox
from bot.messages import Chat, Text
from bot.metrics import REGISTRY
from bot.sessions.clock import FakeClock
from bot.storage import NewGame, SqliteStore
from tests.bot.session_kit import (
    ALICE,
    BOB,
    ROOM,
    eventually,
    finishing_moves,
    mover,
    session,
    start_game,
)

START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
#: How long a test waits for something a background task does.
DEADLINE = 20.0


def value(name: str, **labels: str) -> float:
    """A sample's current value in the bot's registry (0 before it was ever recorded)."""
    return REGISTRY.get_sample_value(name, labels) or 0.0


# -- moves -------------------------------------------------------------------------------


async def test_each_stored_move_counts_once_under_its_game(tmp_path: Path) -> None:
    async with session(tmp_path / "moves.db") as manager:
        before = {name: value("hexhall_moves_total", game=name) for name in engines.GAMES}
        played = {"maphex": 5, "isopath": 3}
        for name, count in played.items():
            gid, _ = await start_game(manager, name)
            for move in finishing_moves(name)[:count]:
                reply = await manager.games.move(await mover(manager, gid), ROOM, move, gid)
                assert reply.ok, reply.text
            # Refused moves store nothing, so they count nothing: illegal, out of turn, stale.
            who = await mover(manager, gid)
            other = ALICE if who == BOB else BOB
            assert not (await manager.games.move(who, ROOM, "zz99", gid)).ok
            nxt = finishing_moves(name)[count]
            assert not (await manager.games.move(other, ROOM, nxt, gid)).ok
            assert not (await manager.games.move(who, ROOM, nxt, gid, expected_ply=count - 1)).ok
        after = {name: value("hexhall_moves_total", game=name) for name in engines.GAMES}
        assert {name: after[name] - before[name] for name in engines.GAMES} == {
            name: played.get(name, 0) for name in engines.GAMES
        }


# -- replies -------------------------------------------------------------------------------


async def test_the_console_counts_each_answer_it_shows(tmp_path: Path) -> None:
    async with session(tmp_path / "console.db") as manager:
        out = io.StringIO()
        console = Console(manager, tmp_path / "boards", out=out)
        before = value("hexhall_replies_total", platform="console")
        for line in ("games", "rules maphex", "move 5", "", "as bob"):
            await console.handle(line)
        # Three answers from the manager (a refusal is one too); a blank line and "as" are
        # the console's own business.
        assert value("hexhall_replies_total", platform="console") - before == 3
        assert "Maphex" in out.getvalue()


async def test_telegram_counts_each_answer_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.adapters.telegram_kit import running

    # httpx honours proxy variables; the fake Bot API is on 127.0.0.1.
    monkeypatch.setenv("NO_PROXY", "127.0.0.1,localhost")
    monkeypatch.setenv("no_proxy", "127.0.0.1,localhost")
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice = bot.fake.user(11, "Alice", "alice")
        group = bot.fake.group(-100, "Hex club")
        before = value("hexhall_replies_total", platform="telegram")
        games = await bot.say(alice, group, "/games")
        assert games.text is not None
        refused = await bot.say(alice, group, "/board #999")
        assert refused.text is not None and "999" in refused.text
        assert value("hexhall_replies_total", platform="telegram") - before == 2


async def test_discord_counts_each_answer_it_shows(tmp_path: Path) -> None:
    from tests.adapters.discord_kit import ALICE as DISCORD_ALICE
    from tests.adapters.discord_kit import fake_discord, running

    async with fake_discord() as fake, running(fake, tmp_path / "d.db") as run:
        before = value("hexhall_replies_total", platform="discord")
        rules = await run.answer(DISCORD_ALICE, "rules", {"game": "pathagon"})
        assert "Pathagon" in rules.content
        refused = await run.answer(DISCORD_ALICE, "board", {"game": "#999"})
        assert refused.ephemeral
        assert value("hexhall_replies_total", platform="discord") - before == 2


# -- delivery lag --------------------------------------------------------------------------


class Flaky:
    """An outbox sender that fails (transiently) for the notifications it is told to."""

    def __init__(self, failing: set[str]) -> None:
        self.failing = failing
        self.sent: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        if str(notification.text).endswith(tuple(self.failing)):
            raise ConnectionError("the platform did not answer")
        self.sent.append(notification)


async def test_delivery_lag_is_recorded_when_a_notification_is_sent(tmp_path: Path) -> None:
    store = await SqliteStore.open(tmp_path / "lag.db")
    try:
        platform = "lagtest"
        alice = await store.player(platform, "1", "alice", START)
        bob = await store.player(platform, "2", "bob", START)
        game = await store.create_game(
            NewGame("maphex", {}, alice.id, bob.id, platform, "room", 0, {}), START
        )
        who = Recipient(platform, bob.user_id, bob.name, bob.id)
        waited = {"a": 40.0, "b": 10.0, "c": 25.0}
        notes = [
            Notification(
                kind=Kind.OPPONENT_AWAY,
                recipient=who,
                text=Text.of(who.mention(), f": note {name}"),
                deliver_after=START - timedelta(seconds=wait),
                chat=Chat(platform, "room"),
                game_id=game.id,
            )
            for name, wait in waited.items()
        ]
        assert await store.update_game(game, START, notes, reminder_sent_for_ply=0) is not None
        count = value("hexhall_delivery_lag_seconds_count", platform=platform)
        total = value("hexhall_delivery_lag_seconds_sum", platform=platform)
        within_30 = value("hexhall_delivery_lag_seconds_bucket", platform=platform, le="30.0")
        clock = FakeClock(START)
        sender = Flaky({"note c"})  # c fails now: tried again later, not counted yet
        assert await Outbox(store, clock).deliver_due(platform, sender) == 2
        assert value("hexhall_delivery_lag_seconds_count", platform=platform) - count == 2
        assert value("hexhall_delivery_lag_seconds_sum", platform=platform) - total == 50.0
        in_bucket = value("hexhall_delivery_lag_seconds_bucket", platform=platform, le="30.0")
        assert in_bucket - within_30 == 1  # b's 10 s; a's 40 s is above 30
    finally:
        await store.close()


# -- the clock sweep -----------------------------------------------------------------------


async def test_each_clock_sweep_is_timed(tmp_path: Path) -> None:
    clock = FakeClock(START)
    async with session(tmp_path / "sweep.db", clock) as manager:
        made = await manager.challenges.challenge(ALICE, ROOM, "maphex", BOB, {}, "me", 1)
        assert made.ok and made.challenge_id is not None
        accepted = await manager.challenges.accept(BOB, ROOM, made.challenge_id)
        assert accepted.game_id is not None
        first = await mover(manager, accepted.game_id)
        assert (await manager.games.move(first, ROOM, "5", accepted.game_id)).ok
        clock.advance(days=2)  # the next player's day ran out: the sweep calls time
        before = value("hexhall_clock_sweep_seconds_count")
        stop = asyncio.Event()
        sweeper = asyncio.create_task(manager.run_clocks(stop, every=3600.0))
        try:
            await eventually(lambda: value("hexhall_clock_sweep_seconds_count") > before)
        finally:
            stop.set()
            await sweeper
        assert value("hexhall_clock_sweep_seconds_count") - before == 1
        row = await manager.store.get_game(accepted.game_id)
        assert row is not None and row.reason == "timeout"
