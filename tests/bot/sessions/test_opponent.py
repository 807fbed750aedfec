"""The bot as an opponent (issue 17, "In the bot"): whole games of every game against the bot
through the typed commands, takebacks, draws, rematches, the sweep after a restart (exactly one
move, also when two sweeps race), and the event loop answering other games while the bot
thinks in its worker process.  The searches are real (tiny budgets) in real worker processes."""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.adapters.commands import execute
from bot.adapters.console import CHAT, console_user
from bot.core.notification import BOT_USER_ID, Kind, Notification
from bot.core.status import GameStatus
from bot.delivery.outbox import Outbox
from bot.messages import Chat, Mention, Reply, User
from bot.ratings import Origin
from bot.sessions import texts
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Thinker, search_move
from bot.storage import GameRow, NewGame, SqliteStore
from engines.ai import Budget, budget_of, choose_move, wants_history, winning_move
from engines.levels import Level
from tests.bot.session_kit import eventually, migrated

ADA = console_user("ada")
BOB = console_user("bob")
#: Every level searches 5 iterations: the moves are real searches, the games quick.
TINY = {level: Budget(iterations=5, seconds=60.0) for level in Level}
#: The folder where a waiting search says it started and finds its gate open: set before the
#: workers start.
GATE = "HEXHALL_TEST_GATE"
#: Only a guard against a hung test; the tests wait on conditions, never on the clock.
DEADLINE = 60.0


def waiting_search(
    game: str, options: Any, moves: Any, iterations: int, seconds: float, seed: int
) -> str:
    """A search that says it started (a file ``started-<ply>``) and waits until the test
    opens its gate (a file ``go-<ply>``, taken away as it passes), then searches for real.
    Runs in a worker process."""
    folder = Path(os.environ[GATE])
    (folder / f"started-{len(moves)}").touch()
    gate = folder / f"go-{len(moves)}"
    give_up = time.monotonic() + DEADLINE
    while True:
        try:
            gate.unlink()
            break
        except FileNotFoundError:
            if time.monotonic() > give_up:
                raise TimeoutError("the test never opened the gate") from None
            time.sleep(0.005)
    return search_move(game, options, moves, iterations, seconds, seed)


async def search_started(folder: Path, ply: int) -> None:
    """Wait until a waiting search at ``ply`` has started (and forget that it did)."""
    started = folder / f"started-{ply}"
    await eventually(started.exists, f"the bot's search at ply {ply} started", timeout=DEADLINE)
    started.unlink()


def open_gate(folder: Path, ply: int) -> None:
    """Let the waiting search at ``ply`` go on."""
    (folder / f"go-{ply}").touch()


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    """One pool of two workers with tiny budgets for the module's tests."""
    shared = Thinker(budgets=TINY, workers=2)
    yield shared
    shared.close(wait=True)


@asynccontextmanager
async def bot_session(path: Path, thinker: Thinker) -> AsyncIterator[SessionManager]:
    """A manager (no pictures) on the SQLite file ``path`` with ``thinker``; at the end the
    bot's moves in the works are waited for and the store closed."""
    store = await SqliteStore.open(migrated(path))
    manager = SessionManager(
        store, FakeClock(), pictures=False, rng=random.Random(3), thinker=thinker
    )
    try:
        yield manager
    finally:
        await manager.bot_idle()
        await store.close()


async def typed(manager: SessionManager, user: User, line: str, chat: Chat = CHAT) -> Reply:
    """One typed command, as the console and a text adapter run it."""
    return await execute(manager, user, chat, line, console_user)


async def game_of(manager: SessionManager, game_id: int) -> GameRow:
    row = await manager.store.get_game(game_id)
    assert row is not None
    return row


async def position_of(manager: SessionManager, row: GameRow) -> engines.Position:
    played = [m.move for m in await manager.store.moves(row.id)]
    return engines.position_after(row.game, played, **row.options)


async def notes_of(manager: SessionManager, user: User) -> list[Notification]:
    return await manager.store.notifications_for((await manager.players.player(user)).id)


def names_bot(note: Notification) -> bool:
    return any(isinstance(s, Mention) and s.user_id == BOT_USER_ID for s in note.text.segments)


class Recorder:
    """An outbox sender that keeps what it is given."""

    def __init__(self) -> None:
        self.sent: list[Notification] = []

    async def send(self, notification: Notification) -> None:
        self.sent.append(notification)


GAMES = [
    ("maphex", ""),
    ("inphexion", "size=5"),
    ("pathagon", ""),
    ("fixation", ""),
    ("isopath", ""),
]


@pytest.mark.parametrize(("game", "options"), GAMES)
async def test_a_whole_game_against_the_bot(
    tmp_path: Path, thinker: Thinker, game: str, options: str
) -> None:
    # Ada's draws: a game of a few dozen plies each (drawn as ``random.Random(game)``,
    # Pathagon's ran to some 500 plies and 21 s, the bot's replies and the reads growing with it).
    rng = random.Random(f"{game} 1")
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, f"challenge bot {game} {options} level=easy")
        assert started.ok, started.text
        assert started.game_id is not None
        gid = started.game_id
        assert "against the bot (easy) starts" in started.text
        outbox, recorder = Outbox(manager.store, manager.clock), Recorder()
        for _ in range(1000):
            await manager.bot_idle()
            # What an adapter's outbox worker delivers meanwhile.
            await outbox.deliver_due("console", recorder)
            row = await game_of(manager, gid)
            if row.status != GameStatus.ACTIVE:
                break
            # The bot never leaves its move undone: after idle it is always the player's turn.
            assert row.to_move is not None and row.to_move != row.bot_seat
            assert row.deadline_at is not None  # the player keeps the usual clock
            position = await position_of(manager, row)
            # Ada takes a win when there is one, else plays at random: random Pathagon
            # games run to a thousand plies and more, this keeps each game to a few dozen.
            # (``winning_move`` looks at the moves that may win, not at every move played.)
            move = winning_move(position) or position.random_move(rng)
            reply = await typed(manager, ADA, f"move #{gid} {move}!")
            assert reply.ok, reply.text
            after = await game_of(manager, gid)
            if after.status == GameStatus.ACTIVE:
                assert after.to_move == after.bot_seat and after.deadline_at is None
                assert reply.text.endswith("Hexhall bot is thinking: its move comes as a message.")
        else:
            raise AssertionError(f"{game} did not end")
        row = await game_of(manager, gid)
        assert row.status == GameStatus.FINISHED and row.result is not None
        assert row.against_bot and row.origin == Origin.BOT and not row.rated
        assert row.bot_level == Level.EASY
        # Every stored move is legal, made by the seat to move; the bot made its share.
        position = engines.new(game, **row.options)
        answered: dict[int, str] = {}  # ply after a bot's move that did not end the game
        for stored in await manager.store.moves(gid):
            assert stored.seat == position.to_move
            position = position.play(stored.move)
            if stored.seat == row.bot_seat and position.outcome is None:
                answered[position.ply] = stored.move
        assert position.outcome is not None and answered
        # Ada was told of each of the bot's moves once, with the move; nothing went to the bot.
        await outbox.deliver_due("console", recorder)
        assert not any(n.recipient.is_bot for n in recorder.sent)
        told = {n.ply: n for n in recorder.sent if n.kind is Kind.YOUR_TURN}
        assert len(told) == len([n for n in recorder.sent if n.kind is Kind.YOUR_TURN])
        assert set(told) == set(answered)
        for ply, note in told.items():
            assert note.recipient.user_id == "ada" and names_bot(note)
            assert answered[ply] in str(note.text)


async def test_the_bot_moves_first_when_it_has_the_first_seat(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, "challenge bot pathagon first=them days=none")
        assert started.ok and started.game_id is not None
        assert "Hexhall bot plays Light, ada plays Dark" in started.text
        assert started.text.endswith("Hexhall bot is thinking: its move comes as a message.")
        await manager.bot_idle()
        row = await game_of(manager, started.game_id)
        assert row.ply == 1 and row.to_move == 1 and row.deadline_at is None
        (note,) = await notes_of(manager, ADA)
        assert note.kind is Kind.YOUR_TURN and note.ply == 1 and names_bot(note)


async def test_bad_bot_challenges_are_refused(tmp_path: Path, thinker: Thinker) -> None:
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        for line, says in [
            ("challenge bot maphex level=expert", "There is no level expert"),
            ("challenge bot chess", "chess"),
            ("challenge bot maphex size=12", "size"),
            ("challenge bot maphex first=nobody", "nobody"),
            ("challenge bot maphex rated=yes", "never rated"),
            ("challenge bot maphex days=2", "2"),
        ]:
            reply = await typed(manager, ADA, line)
            assert not reply.ok and says in reply.text, (line, reply.text)
        assert (
            await manager.store.games_of(
                (await manager.players.player(ADA)).id, [GameStatus.ACTIVE]
            )
            == []
        )


async def test_takeback_draw_resign_and_rematch_against_the_bot(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, "challenge bot pathagon first=me")
        assert started.game_id is not None
        gid = started.game_id
        refused = await typed(manager, ADA, "takeback")
        assert not refused.ok and refused.text == f"You have no move to take back in #{gid}."
        assert (await typed(manager, ADA, "b2")).ok
        await manager.bot_idle()
        row = await game_of(manager, gid)
        assert row.ply == 2 and row.to_move == 0
        answer = (await manager.store.moves(gid))[1].move
        # Granted at once: Ada's move and the bot's reply go; it is Ada's turn again.
        back = await typed(manager, ADA, "takeback")
        assert back.ok, back.text
        assert back.text == (
            f"ada took back b2 and Hexhall bot's reply {answer} in #{gid}. ada (Light) to move."
        )
        row = await game_of(manager, gid)
        assert row.ply == 0 and row.to_move == 0 and await manager.store.moves(gid) == []
        # The bot's "your turn" for the undone reply is no longer to be delivered.
        recorder = Recorder()
        await Outbox(manager.store, manager.clock).deliver_due("console", recorder)
        assert recorder.sent == []
        # A draw offer is declined; nothing changes.
        draw = await typed(manager, ADA, "draw")
        assert not draw.ok
        assert (
            draw.text == f"Hexhall bot declines the draw in #{gid}: it plays on (you may resign)."
        )
        assert (await game_of(manager, gid)).draw_offer_by is None
        resigned = await typed(manager, ADA, "resign !")
        assert resigned.ok and "Hexhall bot (Dark) wins" in resigned.text
        # A rematch starts at once, seats swapped: the bot now has the first move.
        again = await typed(manager, ADA, "rematch")
        assert again.ok and again.game_id is not None, again.text
        assert again.text.startswith(f"Game #{again.game_id} Pathagon against the bot (normal)")
        await manager.bot_idle()
        new = await game_of(manager, again.game_id)
        assert new.rematch_of == gid and new.bot_seat == 0 and new.ply == 1
        twice = await typed(manager, ADA, f"rematch #{gid}")
        assert not twice.ok and twice.text == (
            f"The rematch of #{gid} is already game #{again.game_id}."
        )


@pytest.fixture
def gated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Thinker, Path]]:
    """A thinker whose searches wait at a gate the test opens (files in ``tmp_path``)."""
    monkeypatch.setenv(GATE, str(tmp_path))
    waiting = Thinker(budgets=TINY, workers=1, search=waiting_search)
    yield waiting, tmp_path
    waiting.close(wait=True)


async def test_other_games_are_answered_while_the_bot_thinks(
    tmp_path: Path, gated: tuple[Thinker, Path]
) -> None:
    waiting, folder = gated
    async with bot_session(tmp_path / "h.db", waiting) as manager:
        started = await typed(manager, ADA, "challenge bot maphex first=them")
        assert started.game_id is not None
        gid = started.game_id
        # The bot moves first (Blue, in Maphex).  Its search waits at the gate.
        await search_started(folder, 0)
        # Meanwhile Ada and Bob play their own game: every answer comes while the bot thinks.
        made = await typed(manager, ADA, "challenge bob pathagon first=me")
        assert made.ok, made.text
        accepted = await typed(manager, BOB, "accept")
        assert accepted.ok and accepted.game_id is not None
        other = accepted.game_id
        assert (await typed(manager, ADA, f"move #{other} b2")).ok
        assert await manager.games.suggest_moves(BOB, CHAT, other, "c") != []
        assert (await typed(manager, BOB, f"move #{other} c3")).ok
        assert (await typed(manager, ADA, f"board #{gid}")).ok
        assert (await game_of(manager, gid)).ply == 0  # the bot has not moved yet
        open_gate(folder, 0)
        await manager.bot_idle()
        assert (await game_of(manager, gid)).ply == 1


async def test_a_takeback_while_the_bot_thinks_throws_its_search_away(
    tmp_path: Path, gated: tuple[Thinker, Path]
) -> None:
    waiting, folder = gated
    async with bot_session(tmp_path / "h.db", waiting) as manager:
        started = await typed(manager, ADA, "challenge bot pathagon first=me")
        assert started.game_id is not None
        gid = started.game_id
        assert (await typed(manager, ADA, "b2")).ok
        await search_started(folder, 1)
        back = await typed(manager, ADA, "takeback")
        assert back.ok and back.text == f"ada took back b2 in #{gid}. ada (Light) to move."
        open_gate(folder, 1)
        await manager.bot_idle()
        # The search was for a position that is gone: nothing was stored.
        row = await game_of(manager, gid)
        assert row.ply == 0 and row.to_move == 0
        assert (await typed(manager, ADA, "d4")).ok
        await search_started(folder, 1)
        open_gate(folder, 1)
        await manager.bot_idle()
        assert (await game_of(manager, gid)).ply == 2


async def _bot_to_move_in_the_store(path: Path) -> int:
    """A game stored as a process that died while the bot thought would leave it."""
    store = await SqliteStore.open(path)
    try:
        now = FakeClock().now()
        ada = await store.player("console", "ada", "ada", now)
        bot = await store.player("console", BOT_USER_ID, texts.BOT_NAME, now)
        position = engines.new("inphexion", size=5)
        row = await store.create_game(
            NewGame(
                game="inphexion",
                options={"size": 5, "pie": True},
                seat0=bot.id,
                seat1=ada.id,
                platform="console",
                chat_id="local",
                to_move=0,
                snapshot=position.to_dict(),
                rated=False,
                origin=Origin.BOT,
                bot_seat=0,
                bot_level=Level.HARD,
            ),
            now,
        )
        return row.id
    finally:
        await store.close()


async def test_the_sweep_after_a_restart_makes_the_bots_move_once(
    tmp_path: Path, thinker: Thinker
) -> None:
    path = tmp_path / "h.db"
    gid = await _bot_to_move_in_the_store(path)
    # Two processes start at once on the same database, and one of them sweeps twice.
    async with bot_session(path, thinker) as one, bot_session(path, thinker) as two:
        counts = await asyncio.gather(one.sweep(), two.sweep(), one.sweep())
        # The first sweep found the game; the others found it too, or found it done already.
        assert counts[0] == 1 and set(counts) <= {0, 1}
        await asyncio.gather(one.bot_idle(), two.bot_idle())
        row = await game_of(one, gid)
        assert row.ply == 1 and row.to_move == 1
        (stored,) = await one.store.moves(gid)
        assert stored.seat == 0
        (note,) = await notes_of(one, ADA)
        assert note.kind is Kind.YOUR_TURN and note.ply == 1 and names_bot(note)
        assert await one.sweep() == 0 and await one.store.bot_turn_games() == []


async def test_close_stops_the_bots_move_and_the_next_start_makes_it(
    tmp_path: Path, gated: tuple[Thinker, Path]
) -> None:
    waiting, folder = gated
    path = tmp_path / "h.db"
    store = await SqliteStore.open(path)
    try:
        manager = SessionManager(store, FakeClock(), pictures=False, thinker=waiting)
        started = await typed(manager, ADA, "challenge bot maphex first=them")
        assert started.game_id is not None
        await search_started(folder, 0)
        await manager.close()  # the bot process stops while the bot thinks
    finally:
        await store.close()
    open_gate(folder, 0)  # the abandoned search ends (its result goes nowhere)
    fresh = Thinker(budgets=TINY, workers=1)
    try:
        async with bot_session(path, fresh) as manager:
            assert (await game_of(manager, started.game_id)).ply == 0
            assert await manager.sweep() == 1
            await manager.bot_idle()
            assert (await game_of(manager, started.game_id)).ply == 1
    finally:
        fresh.close(wait=True)


def test_the_bots_search_passes_the_games_positions_in_iso_path_only() -> None:
    assert wants_history("isopath") and not wants_history("maphex")
    moves = []
    position = engines.new("isopath")
    rng = random.Random(4)
    for _ in range(12):
        moves.append(position.random_move(rng))
        position = position.play(moves[-1])
    *earlier, last = engines.replay("isopath", moves)
    assert last == position
    budget = budget_of("normal")
    expected = choose_move(position, **budget, seed=9, history=earlier)
    assert search_move("isopath", {}, moves, budget["iterations"], budget["seconds"], 9) == expected
