"""Hexagonal Iso-Path through the Telegram move picker alone: a turn is two short steps, each one
keyboard laid out as the board (step 1 the build: the tile to take, then where it goes; step 2
the piece move: the piece, then where it goes; a capture in place of either), ending in the
preview with Play it / Cancel.  Whole games on h4 and h5 are played by pressing the buttons a
player would read (cell names, "✕ d4"), never by typing; every keyboard the bot sends stays
within Telegram's limits (8 buttons a row, 100 in all: ``tests/fakes/telegram.py``, which
refuses more as Telegram does)."""

from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest
import telegram

import engines
from bot.adapters.telegram.format import KEYBOARD_LIMIT, ROW_LIMIT
from bot.adapters.telegram.watch import picker_markup
from bot.sessions import building
from bot.sessions.picker import board_step
from engines.isopath import IsopathPosition
from tests.adapters.telegram_kit import Bot, running


@functools.cache
def racing_moves(size: int, seed: int, cap: int = 120) -> tuple[str, ...]:
    """A short Iso-Path game: each side walks a piece as far towards the goal as it can (a
    capture counts as progress), random among equals; ends with a result.  Made once per
    process (the h5 game's two halves share it)."""
    rng = random.Random(seed)
    pos = engines.new("isopath", size=size)
    rows = "abcdefghi"[: 2 * size - 1]
    moves: list[str] = []
    while pos.outcome is None and len(moves) < cap:
        sign = 1 if pos.to_move == 0 else -1
        # Each action's gain, worked out once a ply: thousands of turns share a few actions.
        worth: dict[str, int] = {}

        def action_gain(action: str, sign: int = sign) -> int:
            score = 0
            if "-" in action:
                start, end = action.split("-")
                score += sign * (rows.index(end[0]) - rows.index(start[0]))
            return score + (3 if action.startswith("x") else 0)

        def gain(move: str, worth: dict[str, int] = worth) -> int:
            score = 0
            for action in move.split():
                known = worth.get(action)
                if known is None:
                    known = worth[action] = action_gain(action)
                score += known
            return score

        gains = {m: gain(m) for m in pos.legal_moves()}
        best = max(gains.values())
        move = rng.choice([m for m, g in gains.items() if g == best])
        pos = pos.play(move)
        moves.append(move)
    assert pos.outcome is not None
    return tuple(moves)


async def _start(bot: Bot, size: int) -> tuple[telegram.User, telegram.User, telegram.Chat, int]:
    fake = bot.fake
    alice, bob = fake.user(21, "Alice", "alice"), fake.user(22, "Bob", "bob")
    group = fake.group(-300, "Iso club")
    await fake.send_text(bob, group, "hello")
    card = await bot.say(
        alice, group, f"/challenge isopath size={size} first=me", reply_to=fake.message(group, 1)
    )
    before = fake.last_message_id(group)
    await bot.press(bob, card, bot.button(card, "Accept"))
    board = await bot.next_message(group, before)
    return alice, bob, group, bot.game_id(board)


def _label_for(text: str, move: str) -> str:
    """The button a player presses on the picker step ``text`` to enter ``move``: read from
    the step's words and the move's actions, as a player would (not from the picker's code)."""
    actions = move.split()
    tile = next((a for a in actions if ">" in a), None)
    step = next((a for a in actions if "-" in a), None)
    capture = next((a[1:] for a in actions if a.startswith("x")), None)
    if "the tile to take" in text:
        if tile is not None:
            return tile.split(">")[0]
        return f"✕ {capture}" if capture is not None else "No tile: just move"
    if "where the tile from" in text:
        assert tile is not None, text
        return tile.split(">")[1]
    if "the piece to move" in text:
        return f"✕ {capture}" if step is None else step.split("-")[0]
    assert step is not None and f"where {step.split('-')[0]} goes" in text, text
    return step.split("-")[1]


def _check_limits(bot: Bot, message: telegram.Message) -> None:
    rows = bot.fake.keyboard(message)
    assert all(len(row) <= ROW_LIMIT for row in rows)
    assert sum(len(row) for row in rows) <= KEYBOARD_LIMIT


async def _enter(bot: Bot, mover: telegram.User, group: telegram.Chat, move: str) -> str:
    """``mover`` enters ``move`` with Move and the picker's buttons, then Play it on the
    preview; returns the turn as the board after it names it."""
    fake = bot.fake
    board = fake.sent(group)[-1]
    picker = await bot.open_picker(mover, board)
    taps = 1
    preview: telegram.Message | None = None
    for _ in range(6):
        shown = fake.sent_after(picker.chat, picker.message_id - 1)
        preview = next((m for m in shown if "Play it" in bot.labels(m)), None)
        if preview is not None:
            break
        picker = fake.message(picker.chat, picker.message_id)
        _check_limits(bot, picker)
        text = picker.text or ""
        assert "step 1 of 2" in text or "step 2 of 2" in text, text
        label = _label_for(text, move)
        answer, alert = await bot.step(mover, picker, label)
        assert not alert, answer
        taps += 1
    assert preview is not None, f"no preview for {move}"
    # The picker made way for the preview: one message, not two (in the private chat).
    await fake.wait_until(
        lambda: picker.message_id not in {m.message_id for m in fake.sent(picker.chat)}
    )
    await bot.remembered_picker(bot.game_id(board), preview)
    play = bot.button(preview, "Play it")
    notation = play.split(":", 3)[3]
    assert {"Play it", "Cancel"} == set(bot.labels(preview))
    before = fake.last_message_id(group)
    await bot.press(mover, preview, play)
    answer = await bot.next_message(group, before)
    assert answer.text is not None and f"played {notation}" in answer.text, answer.text
    await fake.wait_until(
        lambda: preview.message_id not in {m.message_id for m in fake.sent(preview.chat)}
    )
    assert taps <= 5
    return notation


# Seeds of short games (27 and 38 plies) whose turns include every kind: build and move,
# a capture in place of either, and a capture alone.  The h5 game is played in two halves
# (each ply of it through the picker in one of them): its picker keyboards are the larger.
@pytest.mark.parametrize(
    ("size", "seed", "picked"),
    [(4, 1, slice(None)), (5, 51, slice(None, 19)), (5, 51, slice(19, None))],
    ids=["h4", "h5-first-half", "h5-second-half"],
)
async def test_a_whole_isopath_game_through_the_telegram_picker(
    tmp_path: Path, size: int, seed: int, picked: slice
) -> None:
    """Every ply in ``picked`` is entered with the picker's buttons; the plies before them are
    typed with /move (the picker of a later ply starts from a position reached by play)."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        alice, bob, group, game_id = await _start(bot, size)
        position = engines.new("isopath", size=size)
        moves = racing_moves(size, seed)
        first, last = picked.indices(len(moves))[:2]
        for number, move in enumerate(moves[:last]):
            mover = await bot.to_move(game_id, alice, bob)
            if number < first:
                before = bot.fake.last_message_id(group)
                await bot.fake.send_text(mover, group, f"/move {move}")
                answer = await bot.next_message(group, before)
                assert answer.text is not None and "played" in answer.text, answer.text
                position = position.play(move)
                continue
            played = await _enter(bot, mover, group, move)
            # The turn played is the one meant (noted build first where the rules allow).
            after = position.play(played)
            assert after.to_dict()["rows"] == position.play(move).to_dict()["rows"]
            position = after
        facts = await bot.manager.games.board_facts(game_id)
        assert facts is not None and facts.moves == position.ply
        if last == len(moves):
            assert position.outcome is not None
            assert await bot.manager.games.player_to_move(game_id) is None


async def test_the_build_step_back_and_cancel(tmp_path: Path) -> None:
    """The first screen is the board with the tiles that may be taken live; a tapped tile is
    marked and only the places it may go are live; Back and the marked cell go back; the
    preview's Cancel takes it away and nothing is played; nobody else can use the picker."""
    async with running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        alice, _bob, group, game_id = await _start(bot, 4)
        board = fake.sent(group)[-1]
        picker = await bot.open_picker(alice, board)
        rows = fake.keyboard(picker)
        # Board-shaped: rows of 4, 5, 6, 7, 6, 5, 4 cells, then Cancel.
        assert [len(r) for r in rows] == [4, 5, 6, 7, 6, 5, 4, 1]
        assert [b.text for b in rows[0]] == ["○"] * 4 and [b.text for b in rows[6]] == ["●"] * 4
        assert [b.text for b in rows[1]] == ["b1", "b2", "b3", "b4", "b5"]
        assert picker.chat.id == alice.id  # in her private chat: nobody else sees it
        await bot.step(alice, picker, "b1")
        labels = bot.labels(picker)
        assert "(b1)" in labels and {"b2", "b3", "b4", "b5"} <= set(labels)
        assert "c3" not in labels and "Back" in labels
        # A cell that is not a choice answers with the step again and changes nothing.
        dead = fake.keyboard(picker)[3][0]
        assert dead.text == "·" and isinstance(dead.callback_data, str)
        edits = len(fake.calls_to("editMessageText"))
        _, text, alert = await bot.press(alice, picker, dead.callback_data)
        assert not alert and text is not None and "where the tile from b1 goes" in text
        assert len(fake.calls_to("editMessageText")) == edits  # nothing to change: no edit
        await bot.step(alice, picker, "(b1)")
        assert "c3" in bot.labels(picker)
        await bot.step(alice, picker, "b1")
        await bot.step(alice, picker, "b2")
        text = fake.message(picker.chat, picker.message_id).text or ""
        assert "step 2 of 2 (b1 → b2)" in text and {"a1", "a2"} <= set(bot.labels(picker))
        await bot.step(alice, picker, "Back")
        assert "(b1)" in bot.labels(picker)
        await bot.step(alice, picker, "b2")
        before = fake.last_message_id(picker.chat)
        await bot.step(alice, picker, "a2")
        preview = await bot.next_message(picker.chat, before)
        assert "Play it" in bot.labels(preview)
        await bot.remembered_picker(game_id, preview)
        await bot.press(alice, preview, bot.button(preview, "Cancel"))
        await fake.wait_until(
            lambda: preview.message_id not in {m.message_id for m in fake.sent(preview.chat)}
        )
        facts = await bot.manager.games.board_facts(game_id)
        assert facts is not None and facts.moves == 0
        assert {"Move", "Resign", "Offer draw"} <= set(bot.labels(board))


def _positions(size: int, seed: int, plies: int) -> list[IsopathPosition]:
    rng = random.Random(seed)
    pos = engines.new("isopath", size=size)
    out = []
    for _ in range(plies):
        if pos.outcome is not None:
            break
        out.append(pos)
        pos = pos.play(pos.random_move(rng))
    return [p for p in out if isinstance(p, IsopathPosition)]


@pytest.mark.parametrize("size", [4, 5])
def test_no_picker_keyboard_exceeds_telegram_limits(size: int) -> None:
    """Every screen of turns of random games (each choice of the turn played), laid out
    as the Telegram picker lays it out: at most 8 buttons a row, 100 in all, callback data
    within 64 bytes, no paging (every choice of a step on its one keyboard)."""
    rng = random.Random(size)
    for position in _positions(size, size, 40)[::4]:
        table = building.turn_table(position)
        for move in rng.sample(list(table.values()), min(6, len(table))):
            for selection in ["", *building.choices_for(position, move)]:
                step = board_step(9_007_199_254_740_991, 999_999, position, selection)
                markup = picker_markup(step)
                if step.move is not None:
                    continue  # the preview, with Play it / Cancel
                assert markup is not None
                rows = markup.inline_keyboard
                assert all(len(row) <= ROW_LIMIT for row in rows), [len(r) for r in rows]
                assert sum(len(row) for row in rows) <= KEYBOARD_LIMIT
                assert all(len(str(b.callback_data).encode()) <= 64 for r in rows for b in r)
                shown = {b.callback_data for row in rows for b in row}
                assert {a.id for a in step.parts} <= shown
                assert not any(a.label in ("◀", "▶") for a in step.controls)


async def test_the_preview_is_the_board_picture_after_the_turn(tmp_path: Path) -> None:
    """With pictures on, the turn's preview is a photo of the board after it (caption and
    Play it / Cancel); Play it posts the game's board and the preview goes."""
    async with running(tmp_path / "t.db", pictures=True) as bot:
        fake = bot.fake
        alice, _bob, group, game_id = await _start(bot, 4)
        board = fake.sent(group)[-1]
        picker = await bot.open_picker(alice, board)
        await bot.step(alice, picker, "b1")
        await bot.step(alice, picker, "b2")
        before = fake.last_message_id(picker.chat)
        await bot.step(alice, picker, "a1")
        preview = await bot.next_message(picker.chat, before)
        assert preview.photo and preview.caption is not None and "b1>b2 a1-b2" in preview.caption
        assert set(bot.labels(preview)) == {"Play it", "Cancel"}
        await bot.remembered_picker(game_id, preview)
        before = fake.last_message_id(group)
        await bot.press(alice, preview, bot.button(preview, "Play it"))
        played = await bot.next_message(group, before)
        assert played.photo and "Move" in bot.labels(played)
        await fake.wait_until(
            lambda: preview.message_id not in {m.message_id for m in fake.sent(preview.chat)}
        )
        facts = await bot.manager.games.board_facts(game_id)
        assert facts is not None and facts.moves == 1
