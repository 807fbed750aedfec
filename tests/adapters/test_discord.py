"""The Discord adapter through the real discord.py client against the fake Discord: the synced
command schema, the challenge card, moves with autocompletion, board messages, previews,
refusals, strangers' presses, buttons after a restart, deferral, user installs and errors."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import discord.gateway
import discord.http
import pytest
import yarl

from bot.adapters.discord import DEFAULT_API_URL, DEFAULT_GATEWAY_URL
from bot.adapters.discord.adapter import ERROR_TEXT
from bot.messages import parse_action
from engines import GAMES
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CAROL,
    DEADLINE,
    Run,
    button,
    labels,
    running,
)
from tests.fakes.discord_fake import (
    FakeDiscord,
    ImpossibleInteraction,
    ResponseKind,
    StoredMessage,
)

#: The synced schema: command -> its options as (name, type, required, choices or "auto").
SCHEMA: dict[str, list[tuple[str, int, bool, Any]]] = {
    "challenge": [
        ("game", 3, True, ["isopath", "pathagon", "fixation", "maphex", "inphexion"]),
        ("opponent", 6, False, []),
        ("first", 3, False, ["me", "them", "random"]),
        ("days", 3, False, ["none", "1", "3", "7", "14"]),
        # the games' own options, from each game's record (engines.Game.options)
        ("size", 4, False, [4, 5, 6, 7, 8, 9, 16]),
        ("pie", 5, False, []),
        ("rated", 5, False, []),
        ("level", 3, False, ["easy", "normal", "hard"]),
    ],
    "move": [("move", 3, True, "auto"), ("game", 3, False, "auto"), ("preview", 5, False, [])],
    "board": [("game", 3, False, "auto")],
    "history": [("game", 3, False, "auto")],
    "review": [("game", 3, False, "auto")],
    "rematch": [("game", 3, False, "auto")],
    "export": [("game", 3, False, "auto")],
    "resign": [("game", 3, False, "auto")],
    "draw": [("game", 3, False, "auto"), ("answer", 3, False, ["offer", "accept", "decline"])],
    "undo": [("game", 3, False, "auto"), ("answer", 3, False, ["ask", "accept", "decline"])],
    "games": [("page", 4, False, [])],
    "rules": [("game", 3, True, ["isopath", "pathagon", "fixation", "maphex", "inphexion"])],
    "settings": [
        ("setting", 3, False, ["dm", "reminders", "quiet", "digest", "language", "chat-language"]),
        ("value", 3, False, []),
    ],
    "away": [("days", 4, True, [])],
    "back": [],
    "leaderboard": [
        (
            "game",
            3,
            True,
            ["isopath4", "isopath5", "pathagon", "fixation", "maphex9", "maphex16", "inphexion"],
        ),
        ("scope", 3, False, ["here", "all"]),
    ],
    "stats": [("player", 6, False, [])],
    "browse": [("game", 3, False, "auto"), ("moves", 4, False, [])],
    # A group: its subcommands, each with its options (TOURNAMENT below).
    "tournament": [
        (name, 1, False, []) for name in ("new", "join", "leave", "start", "cancel", "standings")
    ],
    "tournaments": [],
    "premove": [("game", 3, False, "auto"), ("line", 3, False, "auto")],
}
#: The subcommands of /tournament and their options, as :data:`SCHEMA`.
TOURNAMENT: dict[str, list[tuple[str, int, bool, Any]]] = {
    "new": [
        ("game", 3, True, ["isopath", "pathagon", "fixation", "maphex", "inphexion"]),
        ("days", 3, False, ["none", "1", "3", "7", "14"]),
        ("rounds", 4, False, []),
        ("rated", 5, False, []),
        ("max", 4, False, []),
        ("size", 4, False, [4, 5, 6, 7, 8, 9, 16]),
        ("pie", 5, False, []),
    ],
    **{name: [("id", 4, False, [])] for name in ("join", "leave", "start", "cancel", "standings")},
}


def _options(command: dict[str, Any]) -> list[tuple[str, int, bool, Any]]:
    return [
        (
            o["name"],
            o["type"],
            o.get("required", False),
            "auto" if o.get("autocomplete") else [c["value"] for c in o.get("choices", [])],
        )
        for o in command.get("options", [])
    ]


@pytest.fixture
async def run(fake: FakeDiscord, tmp_path: Path) -> Any:
    async with running(fake, tmp_path / "hexhall.db", pictures=True) as started:
        yield started


async def start_game(run: Run, game: str = "maphex", **options: Any) -> tuple[int, StoredMessage]:
    """Alice challenges Bob, Bob accepts on the card: the game id and the card (now a board)."""
    card = await run.answer(ALICE, "challenge", {"game": game, "opponent": BOB, **options})
    await run.click(BOB, card, "Accept")
    gid = int(button(card, "Board").split(":")[1])
    return gid, card


def test_canary_discord_py_url_settings() -> None:
    """The internals the URL settings rely on exist, with the defaults the adapter assumes."""
    assert discord.http.Route.BASE == DEFAULT_API_URL
    assert yarl.URL(DEFAULT_GATEWAY_URL) == discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY


async def test_synced_schema_snapshot(run: Run) -> None:
    synced = {c["name"]: c for c in run.fake.commands()}
    shown = {name: _options(c) for name, c in synced.items()}
    assert shown == SCHEMA
    subcommands = {o["name"]: _options(o) for o in synced["tournament"]["options"]}
    assert subcommands == TOURNAMENT
    # Installable to a user's account as well as a server; usable in DMs and group DMs.
    assert all(c["integration_types"] == [0, 1] for c in synced.values())
    assert all(c["contexts"] == [0, 1, 2] for c in synced.values())
    # Every option of every game has its /challenge option (and /tournament new's).
    names = {o["name"] for o in synced["challenge"]["options"]}
    assert {o.name for spec in GAMES.values() for o in spec.options} <= names


async def test_challenge_card_accept_edits_it_into_the_first_board(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
    assert not card.ephemeral and labels(card) == ["Accept", "Decline"]
    assert card.pinged_users == {BOB} and not card.pinged_everyone
    click = await run.click(BOB, card, "Accept")
    # Edited in place (at once, or after a deferral when the machine is busy).
    assert click.response is not None and click.response.type in (
        ResponseKind.UPDATE_MESSAGE,
        ResponseKind.DEFERRED_UPDATE_MESSAGE,
    )
    await run.fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
    assert card.edits == 1
    assert labels(card) == ["Move", "Board", "History", "Resign", "Offer draw"]
    [embed] = card.embeds
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert embed["title"] == "#1 Maphex"
    assert fields["Players"] == "alice (Red) vs bob (Blue)"
    assert fields["To move"] == f"<@{BOB}> (Blue)" and fields["Moves played"] == "0"
    assert "<t:" in fields["Deadline"] and ":R>" in fields["Deadline"]
    # The picture is a plain attachment (shown at the message's full width, not inside the
    # embed), with the board in words as alt text; the facts are in the embed beside it.
    assert "image" not in embed and "thumbnail" not in embed
    assert [a["filename"] for a in card.attachments] == ["board.png"]
    assert card.files["board.png"].startswith(b"\x89PNG")
    assert "Maphex" in card.attachments[0]["description"]


async def test_decline_and_cancel_edit_the_card_in_place(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
    await run.click(BOB, card, "Decline")
    assert "declined" in card.content and card.components == [] and card.edits == 1
    open_card = await run.answer(ALICE, "challenge", {"game": "pathagon"})
    assert labels(open_card) == ["Accept", "Cancel"] and open_card.pinged_users == set()
    await run.click(ALICE, open_card, "Cancel")
    assert "withdr" in open_card.content or "cancel" in open_card.content.lower()
    assert open_card.components == []


async def test_move_with_autocomplete_and_only_the_latest_board_keeps_buttons(run: Run) -> None:
    gid, card = await start_game(run)
    games = await run.autocomplete(BOB, "move", {"game": ""}, "game")
    assert games == [{"name": f"#{gid} Maphex vs alice (your turn)", "value": str(gid)}]
    choices = await run.autocomplete(BOB, "move", {"game": str(gid), "move": ""}, "move")
    assert [c["value"] for c in choices] == [str(n) for n in range(1, 10)]
    board = await run.answer(BOB, "move", {"game": str(gid), "move": choices[4]["value"]})
    assert not board.ephemeral and board.pinged_users == {ALICE}
    assert "played `5`" in board.content
    assert labels(board) == ["Move", "Board", "History", "Resign", "Offer draw"]
    fields = {f["name"]: f["value"] for f in board.embeds[0]["fields"]}
    assert fields["Last move"] == "`5`" and fields["To move"] == f"<@{ALICE}> (Red)"
    await run.fake.wait_until(lambda: card.components == [])
    # Not Bob's turn any more: the move list is empty for him, full for Alice.
    assert await run.autocomplete(BOB, "move", {"game": str(gid), "move": ""}, "move") == []
    typed = await run.autocomplete(ALICE, "move", {"game": str(gid), "move": "e"}, "move")
    assert typed and all(c["value"].startswith("e") for c in typed) and len(typed) <= 25


async def test_refusals_are_ephemeral_one_liners(run: Run) -> None:
    gid, _ = await start_game(run)
    out_of_turn = await run.answer(ALICE, "move", {"game": str(gid), "move": "5"})
    assert out_of_turn.ephemeral and "\n" not in out_of_turn.content
    assert "not your turn" in out_of_turn.content and out_of_turn.pinged_users == set()
    # Discord does not re-check choices on arrival: the manager refuses a stale client's value.
    stale = await run.answer(ALICE, "challenge", {"game": "chess", "opponent": BOB}, strict=False)
    assert stale.ephemeral and "chess" in stale.content
    unknown = await run.answer(ALICE, "board", {"game": "#999"})
    assert unknown.ephemeral and "999" in unknown.content


async def test_preview_then_play_it(run: Run) -> None:
    gid, _ = await start_game(run)
    preview = await run.answer(BOB, "move", {"game": str(gid), "move": "5", "preview": True})
    assert preview.ephemeral and labels(preview) == ["Play it", "Cancel"]
    assert preview.files["board.png"].startswith(b"\x89PNG")
    # Nothing was stored: Bob is still to move, at ply 0.
    assert await run.to_move(gid) == BOB
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.moves == 0
    click = await run.click(BOB, preview, "Play it")
    [board] = await run.fake.followups(click, timeout=DEADLINE)
    assert not board.ephemeral and "played `5`" in board.content
    assert preview.components == [] and await run.to_move(gid) == ALICE
    # A second preview, cancelled: nothing happens.
    second = await run.answer(ALICE, "move", {"game": str(gid), "move": "e5", "preview": True})
    await run.click(ALICE, second, "Cancel")
    assert second.components == [] and await run.to_move(gid) == ALICE


async def test_strangers_presses_are_refused_privately(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
    press = await run.click(CAROL, card, "Accept")
    assert press.original is not None and press.original.ephemeral
    assert labels(card) == ["Accept", "Decline"] and card.edits == 0
    await run.click(BOB, card, "Accept")
    confirm = await run.click(CAROL, card, "Resign")
    question = await run.fake.original(confirm)
    assert question.ephemeral
    if labels(question):  # asked first: the confirmation is then refused
        assert labels(question) == ["Yes, resign"]
        with pytest.raises(ImpossibleInteraction):  # an ephemeral message is Carol's alone
            await run.fake.click(ALICE, question, button(question, "Yes, resign"))
        refused = await run.click(CAROL, question, "Yes, resign")
        assert refused.original is not None and refused.original.ephemeral
    gid = int(button(card, "Board").split(":")[1])
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.result is None


async def test_resign_asks_first_and_offer_draw(run: Run) -> None:
    gid, card = await start_game(run)
    offer = await run.click(BOB, card, "Offer draw")
    offered = await run.fake.original(offer)
    assert not offered.ephemeral and offered.pinged_users == set()
    answer = await run.answer(ALICE, "draw", {"game": str(gid), "answer": "decline"})
    assert not answer.ephemeral
    asked = await run.answer(ALICE, "resign", {"game": str(gid)})
    assert asked.ephemeral and labels(asked) == ["Yes, resign"]
    done = await run.click(ALICE, asked, "Yes, resign")
    over = await run.fake.original(done)
    assert not over.ephemeral and "resign" in over.content and labels(over) == ["Rematch"]
    facts = await run.manager.games.board_facts(gid)
    assert facts is not None and facts.result is not None and facts.to_move is None


async def test_buttons_work_after_a_restart(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "hexhall.db"
    async with running(fake, db) as first:
        card = await first.answer(ALICE, "challenge", {"game": "pathagon", "opponent": BOB})
    await fake.wait_until(lambda: not fake.gateway_sessions)
    # A new process: new client, new manager, the same database; no command sync.
    async with running(fake, db, sync=False) as second:
        await second.click(BOB, card, "Accept")
        assert "accepted" in card.content
        gid = int(button(card, "Board").split(":")[1])
        assert await second.to_move(gid) in (ALICE, BOB)


async def test_slow_answers_are_deferred_first(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running(fake, tmp_path / "hexhall.db", defer_after=0.0) as run:
        record = await run.slash(ALICE, "challenge", {"game": "maphex", "opponent": BOB})
        assert record.response is not None
        assert record.response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE
        card = await fake.original(record, timeout=DEADLINE)
        assert labels(card) == ["Accept", "Decline"] and not card.ephemeral
        click = await run.click(BOB, card, "Accept")
        assert click.response is not None
        assert click.response.type == ResponseKind.DEFERRED_UPDATE_MESSAGE
        await fake.wait_until(lambda: "accepted" in card.content, timeout=DEADLINE)
        # A refusal after a public "thinking…": the placeholder goes, the answer is private.
        refused = await run.slash(ALICE, "move", {"game": "1", "move": "5"})
        [note] = await fake.followups(refused, timeout=DEADLINE)
        assert note.ephemeral and "not your turn" in note.content
        assert refused.original is not None and refused.original.deleted


async def test_user_install_in_a_private_channel(run: Run) -> None:
    friends = run.fake.private_channel(3_000, [ALICE, BOB])
    card = await run.answer(
        ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends
    )
    assert labels(card) == ["Accept", "Decline"] and card.channel_id == friends.id
    await run.click(BOB, card, "Accept")
    assert "accepted" in card.content


async def test_errors_are_answered_once_and_never_log_the_token(
    run: Run, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    token = run.fake.token

    async def broken(*args: object) -> None:
        raise RuntimeError(f"boom with {token}")

    monkeypatch.setattr(run.manager.games, "board", broken)
    with caplog.at_level(logging.DEBUG):
        answer = await run.answer(ALICE, "board", {})
        assert answer.ephemeral and answer.content == ERROR_TEXT
        # The bot keeps running.
        rules = await run.answer(ALICE, "rules", {"game": "pathagon"})
        assert rules.ephemeral and "Pathagon" in rules.content
    assert any("failed" in r.getMessage() for r in caplog.records)
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token not in (record.exc_text or "")
    assert token not in caplog.text


async def test_action_ids_fit_discord_custom_ids(run: Run) -> None:
    gid, card = await start_game(run, "isopath")
    kinds = []
    for custom_id in card.custom_ids:
        parsed = parse_action(custom_id)
        assert 1 <= len(custom_id) <= 100 and parsed is not None
        kinds.append((parsed[0], parsed[1][0]))
    assert kinds == [
        ("pk", str(gid)),
        ("bd", str(gid)),
        ("hi", str(gid)),
        ("rs", str(gid)),
        ("dro", str(gid)),
    ]


async def test_a_preview_played_before_a_restart_tells_the_truth(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """Issue 45: a private preview whose move was stored meanwhile (here typed, as a crash
    leaves it: stored, the preview untouched) says "Nothing is played yet" until it is
    pressed; pressed after a restart, it is edited to what is true, its buttons gone."""
    db = tmp_path / "hexhall.db"
    async with running(fake, db) as first:
        gid, _ = await start_game(first)
        preview = await first.answer(BOB, "move", {"game": str(gid), "move": "5", "preview": True})
        assert preview.ephemeral and "Nothing is played yet" in preview.content
        played = await first.answer(BOB, "move", {"game": str(gid), "move": "5"})
        assert "played `5`" in played.content
    await fake.wait_until(lambda: not fake.gateway_sessions)
    async with running(fake, db, sync=False) as second:
        click = await second.click(BOB, preview, "Play it")
        await fake.wait_until(lambda: "Nothing is played yet" not in preview.content)
        assert preview.components == [] and not preview.files
        assert click.response is not None and click.response.type in (
            ResponseKind.UPDATE_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
        )
        assert await second.to_move(gid) == ALICE  # played once
