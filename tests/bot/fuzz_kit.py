"""A fuzz driver for the console dispatch: generated bad (and some good) lines, each run through
:meth:`bot.adapters.console.Console.handle` (the function the console runs for a line), with a
dump of every table compared before and after each refusal.

Used by ``tests/bot/test_hardening_fuzz.py`` (a few hundred lines per game) and by
``benchmarks/fuzz.py`` (ten thousand and more per game).
"""

from __future__ import annotations

import io
import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import engines
from bot.adapters.commands import COMMANDS
from bot.adapters.console import Console
from bot.core.status import GameStatus
from bot.messages import ACTION_FIELDS, MESSAGE_LIMITS, Reply
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.validate import REFUSAL_LIMIT
from bot.storage import SqliteStore

__all__ = ["FuzzCounts", "fuzz_game", "lines"]

#: The players the console switches between (``as``): all exist before the run, so a refusal
#: never meets a first contact (which creates the acting player by design).
PLAYERS = ("alice", "bob", "carol")
#: Longest reply that is not a refusal, in characters (adapters cut replies into messages of
#: the smallest platform limit; no reply to a line needs more than this many of them).
REPLY_LIMIT = 8 * min(MESSAGE_LIMITS.values())

_DIGITS = "0123456789²³①٣٤۵߅०১๓༣၃႓០᠓᥆᧑᪃᭓᮱᱃꘠꣐꤁꧐꩑꯰０"
_SQL = (
    "'; DROP TABLE games; --",
    "1 OR 1=1",
    '" OR ""="',
    "1; DELETE FROM players",
    "%",
    "_",
    "NULL",
    "x' UNION SELECT * FROM players --",
)
_WEIRD = "\u200b\u202e\ufeff\x00\x1b\t\u00a0\U0001f600ÿß∑🂡\ud7ff\ue000"


def _number(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.3:
        return str(rng.choice([0, 1, 2, 3, 4, 5, 7, 14, 15, 99]))
    if pick < 0.5:
        return "".join(rng.choice(_DIGITS) for _ in range(rng.randint(1, 4)))
    if pick < 0.7:
        return str(rng.choice([2**31, 2**53, 2**53 - 1, 2**63, 2**64, 2**70, -1, -(2**63)]))
    if pick < 0.8:
        return "9" * rng.choice([12, 20, 40, 400, 4000])
    return rng.choice(["1.5", "1e9", "nan", "inf", "-0", "+3", "0x10", "1_000", " 3", "3d"])


def _text(rng: random.Random, big: bool) -> str:
    pick = rng.random()
    if pick < 0.2:
        return rng.choice(_SQL)
    if pick < 0.4:
        return "".join(rng.choice(_WEIRD + "abcXYZ#:=!-> ") for _ in range(rng.randint(1, 30)))
    if pick < 0.55 and big:
        return rng.choice("xé9#") * rng.choice([100, 5_000, 100_000, 1_000_000])
    if pick < 0.7:
        return "".join(chr(rng.randint(0x21, 0x2FFF)) for _ in range(rng.randint(1, 12)))
    return rng.choice(["e5", "a1", "swap", "open", "me", "them", "yes", "no", "bot", "all", ""])


def _word(rng: random.Random, game_ids: list[int], big: bool) -> str:
    pick = rng.random()
    if pick < 0.25:
        return f"#{rng.choice(game_ids)}" if game_ids and rng.random() < 0.6 else f"#{_number(rng)}"
    if pick < 0.4:
        return _number(rng)
    if pick < 0.55:
        return rng.choice([*PLAYERS, "dave", "ALICE", "Bob", *engines.GAMES])
    if pick < 0.7:
        name = rng.choice(["size", "pie", "first", "days", "time", "rated", "level", "x", ""])
        return f"{name}={_text(rng, big) if rng.random() < 0.5 else _number(rng)}"
    return _text(rng, big)


def _move_text(rng: random.Random, game: str) -> str:
    position = engines.new(game)
    legal = position.legal_moves()
    pick = rng.random()
    if pick < 0.4 and legal:
        return rng.choice(legal)
    if pick < 0.6:
        return f"{rng.choice('abcdefghijklmnopqz')}{_number(rng)}"
    if pick < 0.8:
        return f"{rng.choice(legal) if legal else 'a1'}{rng.choice(['-', '>', ' ', '!', ''])}z9"
    return _text(rng, False)


def _button(rng: random.Random, game_ids: list[int]) -> str:
    kind = rng.choice([*ACTION_FIELDS, "zz", "mv"])
    count = ACTION_FIELDS.get(kind, 1)
    fields = []
    for i in range(count):
        if i == 0 and game_ids and rng.random() < 0.5:
            fields.append(str(rng.choice(game_ids)))
        elif rng.random() < 0.6:
            fields.append(_number(rng))
        else:
            fields.append(_text(rng, False).replace("\n", ""))
    return ":".join([kind, *fields])


def lines(rng: random.Random, game: str, game_ids: list[int], big: bool = True) -> str:
    """One generated console line for a run on ``game``: random text, a command with random
    arguments (ids, numbers in every script, SQL, huge and odd text), a move (legal, illegal,
    out of turn, in another's or a finished game), a typed button id, or a switch of player."""
    pick = rng.random()
    if pick < 0.1:
        return _text(rng, big)
    if pick < 0.45:
        word = rng.choice(COMMANDS)
        args = [_word(rng, game_ids, big) for _ in range(rng.randint(0, 4))]
        if word == "challenge" and rng.random() < 0.5:
            args = [rng.choice([*PLAYERS, "open", "dave"]), game, *args]
        return " ".join([word, *args])
    if pick < 0.7:
        head = f"move #{rng.choice(game_ids)} " if game_ids and rng.random() < 0.5 else ""
        return head + _move_text(rng, game) + (" !" if rng.random() < 0.1 else "")
    if pick < 0.85:
        return _button(rng, game_ids)
    return f"as {rng.choice(PLAYERS)}"


def dump(source: Path | sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table of the SQLite file, read on a connection of its own: opened
    for this dump (a path), or a reading connection kept open (:func:`reader`)."""
    if not isinstance(source, sqlite3.Connection):
        conn = reader(source)
        try:
            return dump(conn)
        finally:
            conn.close()
    tables = [t for (t,) in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    # Sorted in Python: some tables are WITHOUT ROWID.
    return {t: sorted(source.execute(f'SELECT * FROM "{t}"'), key=repr) for t in tables}


def reader(path: Path) -> sqlite3.Connection:
    """A connection that only reads the SQLite file, in autocommit mode: each dump reads what
    is committed when it runs (no transaction of its own stays open between two)."""
    return sqlite3.connect(path, isolation_level=None)


@dataclass
class FuzzCounts:
    """What a run found."""

    lines: int = 0
    refusals: int = 0
    accepted: int = 0
    exceptions: int = 0
    changed_refusals: int = 0
    unbounded: int = 0
    #: the first few failures, for the report
    failures: list[str] = field(default_factory=list)

    def add(self, other: FuzzCounts) -> None:
        """Add another run's counts."""
        for name in ("lines", "refusals", "accepted", "exceptions", "changed_refusals"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.unbounded += other.unbounded
        self.failures += other.failures[: max(0, 10 - len(self.failures))]


def bounded(reply: Reply) -> bool:
    """Whether ``reply`` is within the limits: a refusal is one line of at most
    :data:`~bot.sessions.validate.REFUSAL_LIMIT` characters (the typed hint may follow),
    any reply at most :data:`REPLY_LIMIT`."""
    if len(reply.text) > REPLY_LIMIT:
        return False
    return reply.ok or ("\n" not in reply.text and len(reply.text) <= REFUSAL_LIMIT + 80)


class _Recording(Console):
    """The console, recording each reply and checking the tables before it is delivered."""

    check: Callable[[Reply], None] = staticmethod(lambda reply: None)

    async def show(self, reply: Reply) -> None:
        self.check(reply)
        await super().show(reply)


async def _setup(manager: SessionManager, console: _Recording, game: str) -> list[int]:
    # An active game (alice to move), a finished one, and a pending challenge.
    for line in (
        f"challenge bob {game} first=me",
        "as bob",
        "accept",
        f"challenge alice {game} first=them",
        "as alice",
        "accept",
        "resign !",
        f"challenge carol {game}",
    ):
        await console.handle(line)
    games = await manager.store.games_of(1, list(GameStatus), limit=10)
    return sorted(g.id for g in games)


async def fuzz_game(path: Path, game: str, count: int, seed: int, big: bool = True) -> FuzzCounts:
    """Run ``count`` generated lines for ``game`` on a fresh SQLite file at ``path``."""
    rng = random.Random(seed)
    counts = FuzzCounts()
    store = await SqliteStore.open(path)
    manager = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(seed))
    sink = io.StringIO()
    console = _Recording(manager, path.parent / "boards", player="alice", out=sink)
    rows = reader(path)  # one reading connection for every dump of the run
    try:
        game_ids = await _setup(manager, console, game)
        for _ in range(count):
            line = lines(rng, game, game_ids, big)
            before = dump(rows)
            seen: list[Reply] = []

            def check(
                reply: Reply, before: object = before, seen: list[Reply] = seen, line: str = line
            ) -> None:
                seen.append(reply)
                if not reply.ok and dump(rows) != before:
                    counts.changed_refusals += 1
                    counts.failures.append(f"changed rows: {line[:80]!r} -> {reply.text[:80]}")

            console.check = check
            sink.seek(0)
            sink.truncate()  # the console's prints are not looked at
            counts.lines += 1
            try:
                await console.handle(line)
            except Exception as exc:  # what the fuzz is looking for
                counts.exceptions += 1
                counts.failures.append(f"{type(exc).__name__}: {line[:80]!r}: {exc}"[:300])
                continue
            for reply in seen:
                counts.refusals += not reply.ok
                counts.accepted += reply.ok
                if not bounded(reply):
                    counts.unbounded += 1
                    counts.failures.append(f"unbounded {len(reply.text)}: {line[:80]!r}")
    finally:
        rows.close()
        await manager.close()
        await store.close()
    return counts
