"""Draws the bot knows, through the typed commands (issue 49): it offers a draw when the game
has just become held for both, and after 100 plies without progress; it accepts the player's
offer in a held game and declines it in a won one (the game as it was); after 150 plies
without progress the player's ``draw`` is a claim, granted.

The bot's moves come from a scripted search (the lines of :mod:`tests.engines.ai.test_draws`,
so the game is the one wanted); the draw assessments are real, in real worker processes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import engines
from bot.core.notification import Kind
from bot.core.status import GameResult, GameStatus
from bot.sessions.manager import SessionManager
from bot.sessions.thinker import Thinker
from engines.ai import Budget
from engines.ai.draws import CLAIM_AFTER, OFFER_AFTER, quiet_plies
from engines.levels import Level
from tests.bot.sessions.test_opponent import ADA, bot_session, game_of, notes_of, typed
from tests.engines.ai.test_draws import HELD, WON

#: 25 iterations: the draw assessments search 200 evaluations, as the engines' tests.
SMALL = {level: Budget(iterations=25, seconds=60.0) for level in Level}

#: Four Iso-Path turns after the won line that bring its last position back (Ada's first).
ROUND = ["f4-f3 a1>a2", "b2-b1 b2>b3", "a2>a1 f3-f4", "b3>b2 b1-b2"]


def _moves(text: str) -> list[str]:
    return text.split(",") if "," in text else text.split()


#: The whole game each test plays, by game: the bot plays the first mover's moves from it.
SCRIPTS = {
    "maphex": _moves(HELD["maphex"]),
    "pathagon": _moves(WON["pathagon"]),
    "isopath": _moves(WON["isopath"]) + ROUND * 45,
}


def scripted_search(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    iterations: int,
    s: float,
    seed: int,
) -> str:
    """The scripted game's next move (run in a worker process)."""
    return SCRIPTS[game][len(moves)]


@pytest.fixture(scope="module")
def thinker() -> Iterator[Thinker]:
    shared = Thinker(budgets=SMALL, workers=2, search=scripted_search)
    yield shared
    shared.close(wait=True)


async def _play_to(manager: SessionManager, gid: int, game: str, ply: int) -> None:
    """Ada plays her moves of the script until the game is at ``ply`` (her turn)."""
    script = SCRIPTS[game]
    while True:
        await manager.bot_idle()
        row = await game_of(manager, gid)
        assert row.status == GameStatus.ACTIVE
        if row.ply >= ply:
            assert row.ply == ply and row.to_move != row.bot_seat
            return
        reply = await typed(manager, ADA, f"move #{gid} {script[row.ply]}!")
        assert reply.ok, reply.text


async def _offers(manager: SessionManager) -> list[str]:
    return [str(n.text) for n in await notes_of(manager, ADA) if n.kind is Kind.DRAW_OFFERED]


async def test_the_bot_offers_and_accepts_a_draw_in_a_held_game(
    tmp_path: Path, thinker: Thinker
) -> None:
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, "challenge bot maphex first=them")
        assert started.ok and started.game_id is not None
        gid = started.game_id
        # The bot (Maphex's first mover: Blue chooses) needs six turns, all even: after
        # its sixth move it offers, once.
        await _play_to(manager, gid, "maphex", 9)
        assert await _offers(manager) == []
        await _play_to(manager, gid, "maphex", 11)
        row = await game_of(manager, gid)
        assert row.draw_offer_by == row.bot_seat
        assert await _offers(manager) == [
            f"Hexhall bot offers a draw in #{gid}: it sees the game held for both sides."
        ]
        # Ada plays on (the offer lapses), then offers herself: the bot accepts.
        await _play_to(manager, gid, "maphex", 13)
        assert (await game_of(manager, gid)).draw_offer_by is None
        accepted = await typed(manager, ADA, "draw")
        assert accepted.ok, accepted.text
        assert f"Hexhall bot accepts the draw: #{gid} is drawn (agreement)." in accepted.text
        row = await game_of(manager, gid)
        assert row.status == GameStatus.FINISHED and row.result == GameResult.DRAW


async def test_the_bot_declines_a_draw_in_a_won_game(tmp_path: Path, thinker: Thinker) -> None:
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, "challenge bot pathagon first=them")
        assert started.ok and started.game_id is not None
        gid = started.game_id
        await _play_to(manager, gid, "pathagon", len(SCRIPTS["pathagon"]))
        before = await game_of(manager, gid)
        assert await _offers(manager) == [] and before.draw_offer_by is None
        declined = await typed(manager, ADA, "draw")
        assert not declined.ok
        assert declined.text == (
            f"Hexhall bot declines the draw in #{gid}: it plays on (you may resign)."
        )
        after = await game_of(manager, gid)
        assert after.status == GameStatus.ACTIVE and after.version == before.version


async def test_no_progress_the_bot_offers_after_100_plies_and_a_claim_after_150(
    tmp_path: Path, thinker: Thinker
) -> None:
    script = SCRIPTS["isopath"]
    start = len(_moves(WON["isopath"]))
    # Plies at which the game has gone 100, and 150, plies without progress (Ada to move).
    positions = list(engines.replay("isopath", script))
    quiet = [quiet_plies(positions[: n + 1]) for n in range(len(script))]
    offer_at = next(n for n in range(start, len(script)) if n % 2 == 1 and quiet[n] >= OFFER_AFTER)
    claim_at = next(n for n in range(offer_at, len(script), 2) if quiet[n] >= CLAIM_AFTER)
    async with bot_session(tmp_path / "h.db", thinker) as manager:
        started = await typed(manager, ADA, "challenge bot isopath first=them")
        assert started.ok and started.game_id is not None
        gid = started.game_id
        await _play_to(manager, gid, "isopath", offer_at - 2)
        assert (await game_of(manager, gid)).draw_offer_by is None
        await _play_to(manager, gid, "isopath", offer_at)
        row = await game_of(manager, gid)
        assert row.draw_offer_by == 0
        (offer,) = await _offers(manager)  # ahead, it never offered for a held game
        assert offer == (
            f"Hexhall bot offers a draw in #{gid}: no progress for {quiet[offer_at]} plies."
        )
        # Before 150 plies a draw in a game the bot leads is declined, with the plies to go.
        await _play_to(manager, gid, "isopath", row.ply + 2)
        declined = await typed(manager, ADA, "draw")
        assert not declined.ok and declined.text.endswith(
            f"After {CLAIM_AFTER - quiet[row.ply + 2]} more plies without progress in #{gid} "
            "you may claim a draw with draw."
        )
        await _play_to(manager, gid, "isopath", claim_at)
        claimed = await typed(manager, ADA, "draw")
        assert claimed.ok, claimed.text
        assert f"ada claims the draw: #{gid} made no progress for {quiet[claim_at]} plies" in (
            claimed.text
        )
        row = await game_of(manager, gid)
        assert row.status == GameStatus.FINISHED and row.result == GameResult.DRAW
