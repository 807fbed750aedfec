"""Moving without typing on Discord: a live board's Move button opens a private picker (select
menus built from the engine's legal moves, 25 options at most each), step by step to the move's
preview with Play it / Cancel; whole games are played with moves entered only that way, through
the real discord.py against the fake (which refuses what Discord refuses for selects)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import discord.http
import pytest

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    DEADLINE,
    Run,
    button,
    fake_discord,
    labels,
    running,
)
from tests.adapters.test_discord_mentions import check_every_message
from tests.fakes.discord_fake import FakeDiscord, InteractionRecord, ResponseKind, StoredMessage

#: Kinds whose moves have one part (Maphex: a cell), several (Iso-Path: build then capture).
KINDS: dict[str, dict[str, Any]] = {
    "maphex": {"size": 9},
    "isopath": {"size": 4},
    "pathagon": {},
    "fixation": {},
    "inphexion": {"size": 5, "pie": True},
}
MOVE_CAP = 40


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as started:
        yield started


async def start(run: Run, game: str) -> tuple[int, engines.Position, StoredMessage]:
    card = await run.answer(
        ALICE, "challenge", {"game": game, "opponent": BOB, "first": "me", **KINDS[game]}
    )
    await run.click(BOB, card, "Accept")
    gid = int(button(card, "Board").split(":")[1])
    return gid, engines.new(game, **KINDS[game]), card


def selects(message: StoredMessage) -> list[dict[str, Any]]:
    """The message's select menus as they are now."""
    return [c for c in message.walk_components() if c.get("type") == 3]


async def choose(
    fake: FakeDiscord, user: int, message: StoredMessage, custom_id: str, value: str
) -> None:
    """``user`` picks ``value`` in a select of ``message``; waits until the bot answered."""
    edits = message.edits
    record = await fake.click(user, message, custom_id, values=[value])
    response = await fake.response(record, timeout=DEADLINE)
    if response.type == ResponseKind.DEFERRED_UPDATE_MESSAGE:
        await fake.wait_until(lambda: message.edits > edits, timeout=DEADLINE)


async def press(
    fake: FakeDiscord, user: int, message: StoredMessage, label: str
) -> InteractionRecord:
    """``user`` presses the button called ``label``; waits for what the bot did (as
    :meth:`Run.click`, for a bot in another process too)."""
    edits = message.edits
    record = await fake.click(user, message, button(message, label))
    response = await fake.response(record, timeout=DEADLINE)
    if response.type == ResponseKind.DEFERRED_UPDATE_MESSAGE:
        await fake.wait_until(
            lambda: message.edits > edits or bool(record.followups), timeout=DEADLINE
        )
    elif response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE:
        await fake.original(record, timeout=DEADLINE)
    return record


def leads_to(selection: str, move: str) -> bool:
    """Whether an Iso-Path picker selection (its choices so far, the build first: ``c1>``,
    ``c1>e6``, ``xd4``, ``_`` for no tile, then ``a4-``, ``a4-b4`` or ``xd4``) is on the way to
    the turn ``move``, whatever order the turn's notation puts its actions in."""
    actions = move.split()
    tile = next((a for a in actions if ">" in a), None)
    capture = next((a for a in actions if a.startswith("x")), None)
    for i, token in enumerate(selection.split()):
        if token == "_":
            ok = i == 0 and tile is None and capture is None
        elif token.startswith("x"):
            ok = token == capture and (i == 0) == (tile is None)
        elif token.endswith((">", "-")):
            ok = any(a.startswith(token) for a in actions)
        else:
            ok = token in actions
        if not ok:
            return False
    return True


async def pick(run: Run | FakeDiscord, user: int, board: StoredMessage, move: str) -> StoredMessage:
    """``user`` enters ``move`` with the Move button and the picker only (no typing): returns
    the public board that the preview's Play it posted."""
    return (await pick_turn(run, user, board, move))[0]


async def pick_turn(
    run: Run | FakeDiscord, user: int, board: StoredMessage, move: str, two_steps: bool = False
) -> tuple[StoredMessage, str]:
    """``user`` enters ``move`` with the Move button and the picker only (no typing): returns
    the public board that the preview's Play it posted, and the move as played (an Iso-Path
    turn, entered ``two_steps``, the build then the piece move, may be noted in the other
    order of its actions)."""
    fake = run.fake if isinstance(run, Run) else run
    opened = await press(fake, user, board, "Move")
    picker = await fake.original(opened, timeout=DEADLINE)
    assert picker.ephemeral and not picker.pinged_users
    prefix = ""
    for _ in range(20):
        if "Play it" in labels(picker):
            break
        menus = selects(picker)
        # Discord: 25 options a menu, 5 rows a message, one of them for the buttons (two menus
        # hold a paged step's 48 parts; Iso-Path's h5 board, 61 cells, may take three).
        assert len(menus) <= (3 if two_steps else 2)
        assert all(1 <= len(m["options"]) <= 25 for m in menus)
        chosen = None
        for menu in menus:
            for option in menu["options"]:
                part = option["value"].split(":", 4)[4][1:]
                follows = move[len(part) : len(part) + 1]
                if two_steps:
                    on_the_way = leads_to(part, move)
                else:
                    on_the_way = move.startswith(part) and follows in " >-"
                if on_the_way and len(part) > len(prefix):
                    assert chosen is None, "two choices lead to the same turn"
                    chosen = (menu["custom_id"], option["value"], part)
        previews = [label for label in labels(picker) if label.startswith("Preview ")]
        if chosen is not None:
            await choose(fake, user, picker, chosen[0], chosen[1])
            prefix = chosen[2]
        elif previews:  # the whole move is chosen (or forced)
            await press(fake, user, picker, previews[0])
        else:  # the next part is on another page
            await press(fake, user, picker, "▶")
    else:
        raise AssertionError(f"the picker never reached {move!r}")
    played = button(picker, "Play it").split(":", 3)[3]
    assert picker.ephemeral and f"`{played}`" in picker.content
    assert played == move or two_steps
    record = await press(fake, user, picker, "Play it")
    answer = (await fake.followups(record, timeout=DEADLINE))[0]
    if answer.ephemeral and "Play it anyway" in labels(answer):
        record = await press(fake, user, answer, "Play it anyway")
        answer = (await fake.followups(record, timeout=DEADLINE))[0]
    return answer, played


@pytest.mark.parametrize("game", list(KINDS))
async def test_a_whole_game_through_the_move_picker(run: Run, game: str) -> None:
    rng = random.Random(game)
    gid, position, board = await start(run, game)
    typed = len(run.fake.interactions)
    while position.outcome is None and position.ply < MOVE_CAP:
        mover = await run.to_move(gid)
        move = position.random_move(rng)
        board, played = await pick_turn(run, mover, board, move, two_steps=game == "isopath")
        assert not board.ephemeral, board.content
        # The turn played is the one meant (an Iso-Path turn noted build first if it may be).
        after = position.play(played)
        assert played == move or after.to_dict()["rows"] == position.play(move).to_dict()["rows"]
        position = after
        assert f"`{position.last_move}`" in board.content
        if position.outcome is None:
            assert labels(board)[0] == "Move"
    # Not one slash command since the challenge: every move came through buttons and menus.
    kinds = {r.kind for r in list(run.fake.interactions.values())[typed:]}
    assert kinds == {3}, kinds
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.moves == position.ply
    assert check_every_message(run.fake) > 0  # all accepted, nobody allowed twice


async def test_isopath_h5_through_the_picker(tmp_path: Path) -> None:
    """On h5 the first build offers 51 tiles to take: three menus of at most 25, and the row
    of buttons (Discord's limit is 5 rows); a few turns of random play through the picker."""
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "isopath", "opponent": BOB, "first": "me", "size": 5}
        )
        await run.click(BOB, card, "Accept")
        gid = int(button(card, "Board").split(":")[1])
        position, board = engines.new("isopath", size=5), card
        rng = random.Random(5)
        for _ in range(4):
            move = position.random_move(rng)
            board, played = await pick_turn(run, await run.to_move(gid), board, move, True)
            position = position.play(played)
            assert f"`{position.last_move}`" in board.content


async def test_the_picker_is_private_and_refuses_who_is_not_to_move(run: Run) -> None:
    gid, _position, board = await start(run, "maphex")
    posted = len(run.fake.messages_in(board.channel_id))
    mover = await run.to_move(gid)
    other = ALICE if mover == BOB else BOB
    for who in (other, CAROL):  # the opponent, and someone who does not play
        record = await run.click(who, board, "Move")
        answer = await run.fake.original(record, timeout=DEADLINE)
        assert answer.ephemeral and not answer.components
        assert f"#{gid}" in answer.content and "\n" not in answer.content
    opened = await run.click(mover, board, "Move")
    picker = await run.fake.original(opened, timeout=DEADLINE)
    assert picker.ephemeral and selects(picker) and "Cancel" in labels(picker)
    # Nothing was posted for everyone, and the game did not move.
    assert len([m for m in run.fake.messages_in(board.channel_id) if not m.ephemeral]) == len(
        [m for m in run.fake.messages_in(board.channel_id)[:posted] if not m.ephemeral]
    )
    await run.click(mover, picker, "Cancel")
    assert not picker.components and "nothing was played" in picker.content
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.moves == 0


async def test_a_picker_made_before_a_move_is_refused_after_it(run: Run) -> None:
    gid, position, board = await start(run, "maphex")
    mover = await run.to_move(gid)
    old = await run.fake.original(await run.click(mover, board, "Move"), timeout=DEADLINE)
    move = position.legal_moves()[0]
    await pick(run, mover, board, move)
    menu = selects(old)[0]
    value = menu["options"][0]["value"]
    record = await run.fake.click(mover, old, menu["custom_id"], values=[value])
    await run.fake.response(record, timeout=DEADLINE)
    answer = await run.fake.original(record, timeout=DEADLINE)
    assert answer.ephemeral and answer.id != old.id
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.moves == 1


async def test_the_picker_when_every_answer_is_deferred(tmp_path: Path) -> None:
    """A bot too busy to answer within its budget defers first (Discord's 3 s), then edits
    the deferred answer: the picker, its refusals and the preview still arrive."""
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "hexhall.db", defer_after=0.0) as run,
    ):
        gid, position, board = await start(run, "isopath")
        mover = await run.to_move(gid)
        other = ALICE if mover == BOB else BOB
        refused = await run.click(other, board, "Move")
        assert refused.response is not None
        assert refused.response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE
        answer = await run.fake.original(refused, timeout=DEADLINE)
        assert answer.ephemeral and not answer.components and f"#{gid}" in answer.content
        move = position.random_move(random.Random(1))
        board, played = await pick_turn(run, mover, board, move, two_steps=True)
        assert not board.ephemeral and f"`{position.play(played).last_move}`" in board.content


async def test_the_preview_shows_the_board_picture_at_full_width(tmp_path: Path) -> None:
    """With pictures on, the picker's preview and the board it plays carry the picture as a
    plain attachment (shown at a message's full width), the facts in the embed beside it."""
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "hexhall.db", pictures=True) as run,
    ):
        gid, position, board = await start(run, "maphex")
        mover = await run.to_move(gid)
        move = position.legal_moves()[0]
        opened = await run.click(mover, board, "Move")
        picker = await run.fake.original(opened, timeout=DEADLINE)
        menu = selects(picker)[0]
        value = next(o["value"] for o in menu["options"] if move.startswith(o["label"]))
        await choose(run.fake, mover, picker, menu["custom_id"], value)
        while "Play it" not in labels(picker):
            nxt = selects(picker)[0]
            value = next(o["value"] for o in nxt["options"] if move.endswith(o["label"]))
            await choose(run.fake, mover, picker, nxt["custom_id"], value)
        assert picker.ephemeral and set(picker.files) == {"board.png"}
        assert all("image" not in e for e in picker.embeds)
        played = await run.click(mover, picker, "Play it")
        public = (await run.fake.followups(played, timeout=DEADLINE))[0]
        assert not public.ephemeral and set(public.files) == {"board.png"}
        assert public.embeds and "image" not in public.embeds[0]


async def test_the_picker_where_only_the_user_install_works(run: Run) -> None:
    """In a DM between two friends the bot is not part of, only Alice installed the app. The
    buttons of the messages it posted there are authorised by her install (Rapptz/discord.py
    #9757, discord/discord-api-docs#6723), so Bob, without the app, accepts and plays with the
    Move picker: every answer goes through the interactions, none through REST."""
    run.fake.uninstall_app(BOB)
    friends = run.fake.private_channel(3_000, [ALICE, BOB])
    card = await run.answer(
        ALICE, "challenge", {"game": "maphex", "opponent": BOB, "size": 9}, channel=friends.id
    )
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
    assert run.fake.threads_in(friends) == []  # no threads here: the game stays put
    gid = int(button(card, "Board").split(":")[1])
    position = engines.new("maphex", size=9)
    board = card
    rng = random.Random(4)
    for _ in range(4):
        move = position.random_move(rng)
        board = await pick(run, await run.to_move(gid), board, move)
        assert board.channel_id == friends.id and not board.ephemeral
        position = position.play(move)
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.moves == 4
    posts = run.fake.calls_to("POST /channels/{channel_id}/messages")
    assert [c for c in posts if c.data["params"]["channel_id"] == str(friends.id)] == []


async def test_a_picker_menu_acts_only_on_picker_steps(run: Run) -> None:
    """A picker menu's value is a step of the picker; a menu under a picker's custom id whose
    value is some other action (resigning, say) is answered privately and changes nothing."""
    gid, _position, board = await start(run, "maphex")
    mover = await run.to_move(gid)
    menu = {
        "type": 3,
        "custom_id": f"hxp:0:{gid}:0",
        "options": [{"label": "resign", "value": f"rsy:{gid}:1:9999999999"}],
    }
    params = discord.http.MultipartParameters(
        payload={"content": "menu", "components": [{"type": 1, "components": [menu]}]},
        multipart=None,
        files=None,
    )
    sent = await run.bot.http.send_message(board.channel_id, params=params)
    message = run.fake.messages[int(sent["id"])]
    record = await run.fake.click(
        mover, message, menu["custom_id"], values=[f"rsy:{gid}:1:9999999999"]
    )
    answer = await run.fake.original(record, timeout=DEADLINE)
    assert answer.ephemeral and "not one of mine" in answer.content
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.result is None
