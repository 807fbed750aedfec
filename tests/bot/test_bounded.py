"""Bounded memory (issue 27): every in-process cache of the manager is a least-recently-used
map, a game's lock is dropped only when free, and a game no longer in memory is read again from
its stored snapshot (its moves are not replayed)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.core.lru import Lru
from bot.sessions import context
from bot.sessions.context import GameLock
from tests.bot.session_kit import ALICE, BOB, ROOM, session, start_game


def test_the_least_recently_used_entry_goes_first() -> None:
    cache: Lru[int, str] = Lru(2)
    cache[1], cache[2] = "one", "two"
    assert cache.get(1) == "one"  # now the most recently used
    cache[3] = "three"
    assert sorted(cache) == [1, 3] and len(cache) == 2
    with pytest.raises(ValueError, match="at least one entry"):
        Lru[int, int](0)


async def test_a_lock_is_dropped_only_when_free() -> None:
    locks: Lru[int, GameLock] = Lru(1, keep=GameLock.busy)
    held, waiting = GameLock(), GameLock()
    locks[1] = held
    async with held:
        locks[2] = GameLock()
        assert 1 in locks and 2 not in locks  # the held one stays, the free one goes
        entered = asyncio.Event()

        async def wait() -> None:
            async with held:
                entered.set()

        task = asyncio.create_task(wait())
        await asyncio.sleep(0)
        assert held.busy() and not entered.is_set()
    await task
    assert entered.is_set() and not held.busy()
    locks[3] = waiting
    assert list(locks) == [3]


async def test_the_manager_keeps_a_bounded_number_of_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(context, "CACHED_GAMES", 3)
    monkeypatch.setattr(context, "CACHED_PLAYERS", 4)
    async with session(tmp_path / "h.db") as m:
        ids = [(await start_game(m, "pathagon"))[0] for _ in range(6)]
        for gid in ids:
            assert (await m.games.move(ALICE, ROOM, "a2", gid)).ok
        ctx = m._ctx
        assert len(ctx.positions) <= 3 and len(ctx.locks) <= 3
        assert len(ctx.players) <= 4 and len(ctx.by_user) <= 4
        # The first game left memory long ago: it is read from its snapshot, not replayed.
        assert ids[0] not in ctx.positions
        replayed = []
        real = engines.position_after

        def counting(*args: Any, **kwargs: Any) -> engines.Position:
            replayed.append(args)
            return real(*args, **kwargs)

        monkeypatch.setattr(engines, "position_after", counting)
        played = await m.games.move(BOB, ROOM, "b5", ids[0])
        assert played.ok, played.text
        assert replayed == []
        row = await m.store.get_game(ids[0])
        assert row is not None and row.ply == 2
