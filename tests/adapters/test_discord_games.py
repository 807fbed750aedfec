"""Whole games of every kind on Discord, by slash commands and buttons (random legal moves from
the engines until the end), and move autocompletion for every kind mid-game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    Run,
    button,
    fake_discord,
    labels,
    running,
)

#: Each kind with options that keep a random game short enough for a test.
KINDS: dict[str, dict[str, Any]] = {
    "maphex": {"size": 9},
    "pathagon": {},
    "fixation": {},
    "isopath": {"size": 4},
    "inphexion": {"size": 5, "pie": True},
}
#: A random Iso-Path or Fixation game can wander: after this many moves the mover resigns.
MOVE_CAP = 80


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as started:
        yield started


async def start(run: Run, game: str) -> tuple[int, engines.Position]:
    card = await run.answer(
        ALICE, "challenge", {"game": game, "opponent": BOB, "first": "me", **KINDS[game]}
    )
    await run.click(BOB, card, "Accept")
    gid = int(button(card, "Board").split(":")[1])
    return gid, engines.new(game, **KINDS[game])


@pytest.mark.parametrize("game", list(KINDS))
async def test_a_whole_game(run: Run, game: str) -> None:
    rng = random.Random(game)
    gid, position = await start(run, game)
    # first:me ("Who moves first"): Alice makes the first move, whichever seat that is
    # (Maphex: Blue, seat 1, opens).
    seats = (ALICE, BOB) if position.to_move == 0 else (BOB, ALICE)
    board = None
    while position.outcome is None and position.ply < MOVE_CAP:
        mover = await run.to_move(gid)
        assert mover == seats[position.to_move]
        move = position.random_move(rng)
        if position.ply % 5 == 3:  # now and then through a preview and its Play it button
            preview = await run.answer(
                mover, "move", {"game": str(gid), "move": move, "preview": True}
            )
            click = await run.click(mover, preview, "Play it")
            board = (await run.fake.followups(click))[0]
        else:
            board = await run.answer(mover, "move", {"game": str(gid), "move": move})
        if board.ephemeral and "Play it anyway" in labels(board):
            # A move that loses for its player: the manager asks first.
            click = await run.click(mover, board, "Play it anyway")
            board = (await run.fake.followups(click))[0]
        assert not board.ephemeral, board.content
        position = position.play(move)
        assert f"`{position.last_move}`" in board.content
        if position.outcome is None:
            other = seats[position.to_move]
            assert board.pinged_users == {other} and not board.pinged_everyone
            fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
            assert fields["Moves played"] == str(position.ply)
            assert fields["To move"].startswith(f"<@{other}>")
    if position.outcome is None:
        assert board is not None
        loser = await run.to_move(gid)
        ask = await run.click(loser, board, "Resign")
        question = await run.fake.original(ask)
        done = await run.click(loser, question, "Yes, resign")
        board = await run.fake.original(done)
    assert board is not None and labels(board) == ["Rematch"]
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.result is not None and facts.to_move is None
    assert await run.autocomplete(ALICE, "move", {"game": ""}, "game") == []


def legal_start(position: engines.Position, value: str) -> bool:
    return any(m == value or m.startswith(value) for m in position.legal_moves())


@pytest.mark.parametrize("game", list(KINDS))
async def test_move_autocomplete_mid_game(run: Run, game: str) -> None:
    rng = random.Random(7)
    gid, position = await start(run, game)
    seats = (ALICE, BOB) if position.to_move == 0 else (BOB, ALICE)  # Alice moves first
    for _ in range(4):
        move = position.random_move(rng)
        await run.answer(seats[position.to_move], "move", {"game": str(gid), "move": move})
        position = position.play(move)
    mover = seats[position.to_move]
    options = {"game": str(gid), "move": ""}
    first = await run.autocomplete(mover, "move", options, "move")
    assert 0 < len(first) <= 25
    for choice in first:
        assert 1 <= len(choice["name"]) <= 100 and choice["name"] == choice["value"]
        assert legal_start(position, choice["value"]), choice
    # Typing narrows the list; what is offered still starts a legal move.
    typed = first[0]["value"]
    narrowed = await run.autocomplete(mover, "move", {**options, "move": typed}, "move")
    assert narrowed and all(c["value"].startswith(typed) for c in narrowed)
    assert all(legal_start(position, c["value"]) for c in narrowed)
    # The first action of a turn completes to whole turns (Iso-Path: build, then capture).
    whole = position.legal_moves()[0]
    head = whole.split(" ")[0]
    offered = await run.autocomplete(mover, "move", {**options, "move": head}, "move")
    assert offered and all(c["value"].startswith(head) for c in offered)
    if len([m for m in position.legal_moves() if m.startswith(head)]) <= 25:
        assert whole in [c["value"] for c in offered]
    # Typed out, a whole move is offered; choosing it plays it.
    exact = await run.autocomplete(mover, "move", {**options, "move": whole}, "move")
    full = next(c["value"] for c in exact if c["value"] in position.legal_moves())
    board = await run.answer(mover, "move", {"game": str(gid), "move": full})
    if not board.ephemeral:
        assert f"`{position.play(full).last_move}`" in board.content
    else:  # a move that loses for its player is confirmed first
        assert "Play it anyway" in labels(board)
