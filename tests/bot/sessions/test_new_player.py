"""What a new player ran into (issue 13): every defect and the finding of one's games, each
checked by a test named after its rule."""

from __future__ import annotations

import io
import random
from datetime import timedelta
from pathlib import Path

import pytest

import engines
import render
from bot.adapters.commands import execute, typed_action
from bot.adapters.console import Console
from bot.cli import CliError, parse_moves
from bot.messages import MESSAGE_LIMITS, Action, ActionKind, User
from bot.sessions import records, texts
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.questions import QUESTION_TTL
from bot.storage import SqliteStore
from tests.bot.session_kit import ALICE, BOB, CAROL, ROOM, migrated, mover, session, start_game
from tests.bot.test_cli import hexhall
from tests.bot.test_console import feeder

DAY = timedelta(days=1)


def named(name: str) -> User:
    return {"alice": ALICE, "bob": BOB, "carol": CAROL}.get(name) or User("test", name, name)


async def typed(m: SessionManager, user: User, line: str, current: int | None = None) -> str:
    reply = await execute(m, user, ROOM, line, named, current)
    return reply.text if reply.ok else f"! {reply.text}"


async def pictured(path: Path) -> tuple[SqliteStore, SessionManager]:
    store = await SqliteStore.open(migrated(path))
    return store, SessionManager(store, FakeClock(), rng=random.Random(1))


# -- 1, 13: a finished game shows its result, in text and picture --------------------------


async def test_a_resigned_game_shows_who_won_and_how_in_text_and_picture(tmp_path: Path) -> None:
    store, m = await pictured(tmp_path / "h.db")
    try:
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "d4")).ok
        over = await m.games.resign(BOB, ROOM)
        assert over.ok and over.alt is not None
        assert "Light wins by resignation" in over.alt and "to move" not in over.alt
        position = engines.position_after("pathagon", ["d4"])
        drawn = render.board_png(
            position, outcome=engines.Outcome(0, "resignation"), players=("alice", "bob")
        )
        assert over.image == drawn
        board = await m.games.board(ALICE, ROOM, gid)
        assert board.alt is not None and "wins by resignation" in board.alt
        # One count of moves for a finished game, as the picture's description says it.
        assert "after 1 move." in board.text and "move 2" not in board.text
        assert "after 1 move" in board.alt
    finally:
        await store.close()


async def test_drawn_timed_out_and_aborted_games_show_their_result(tmp_path: Path) -> None:
    clock = FakeClock()
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    m = SessionManager(store, clock, rng=random.Random(1))
    try:
        drawn, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "d4", drawn)).ok
        assert (await m.games.draw(BOB, ROOM, drawn)).ok
        agreed = await m.games.draw(ALICE, ROOM, drawn, "accept")
        assert agreed.alt is not None and "Drawn by agreement" in agreed.alt
        late, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "d4", late)).ok
        never, _ = await start_game(m, "pathagon")
        clock.advance(days=4)
        await m.sweep()
        timed = await m.games.board(ALICE, ROOM, late)
        assert timed.alt is not None and "wins on time" in timed.alt
        assert "to move" not in timed.alt
        aborted = await m.games.board(ALICE, ROOM, never)
        assert aborted.alt is not None and "Aborted: no move was made" in aborted.alt
    finally:
        await store.close()


async def test_every_board_names_the_players_and_the_time_left(tmp_path: Path) -> None:
    store, m = await pictured(tmp_path / "h.db")
    try:
        _, started = await start_game(m, "maphex")
        assert started.alt is not None and "alice plays Red, bob plays Blue" in started.alt
        assert "3 days left" in started.alt
    finally:
        await store.close()


# -- 2: unknown commands are not moves -----------------------------------------------------


async def test_a_line_that_is_neither_a_command_nor_a_move_is_an_unknown_command(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "pathagon")
        for line in ("hlep", "asdfgh", "/hlep now"):
            said = await typed(m, ALICE, line)
            assert said.startswith("! Unknown command") and "help lists them" in said, said
        assert "Illegal move" in await typed(m, ALICE, "/move 10")
        assert (await typed(m, ALICE, "/board")).startswith(f"#{gid} Pathagon")
        assert "played" in await typed(m, ALICE, "/move d4")
        assert "Illegal move" in await typed(m, BOB, "z9")  # written like a move: a move


def test_a_plausible_move_is_decided_by_the_engines() -> None:
    assert engines.looks_like_move("swap", "inphexion")
    assert not engines.looks_like_move("swap", "maphex")
    assert all(engines.looks_like_move(t) for t in ("5", "e5", "c3-c4", "x d4 c1>e6", "d4 c4>a1"))
    assert not any(engines.looks_like_move(t) for t in ("board", "/move", "hello e5", ""))


# -- 3: the lose-confirmation hint can be followed as written ---------------------------------


async def test_the_confirmation_hint_names_the_game(tmp_path: Path) -> None:
    assert typed_action(Action.make("Play it anyway", "mvy", 3, 8, "g3-g2")) == ("move #3 g3-g2 !")
    async with session(tmp_path / "h.db") as m:
        one, _ = await start_game(m, "pathagon")
        await start_game(m, "pathagon")
        # A line of the hint's form is taken as written with two games here.
        assert "played" in await typed(m, ALICE, f"move #{one} d4 !")
        row = await m.store.get_game(one)
        assert row is not None and row.ply == 1


# -- 4: vacation in whole days -------------------------------------------------------------


async def test_vacation_is_counted_in_whole_days_and_said_so(tmp_path: Path) -> None:
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        away = await m.players.away(ALICE, 13)
        assert "1 whole day of vacation left" in away.text and "0.99" not in away.text
        clock.advance(hours=1)
        assert (await m.players.back(ALICE)).ok
        again = await m.players.away(ALICE, 14)
        # The day begun counts whole: 13 are left, said without decimals.
        assert not again.ok and "13 days of vacation left this year, not 14 days" in again.text


# -- 5, 6, 14: importing -------------------------------------------------------------------


def test_an_imported_result_must_follow_from_the_moves() -> None:
    base = "Game: maphex\nRed: a\nBlue: b\nResult: {}\n\n1. 5\n2. e5\n"
    with pytest.raises(ValueError, match="does not follow from the moves"):
        records.parse(base.format("1-0 (connection)"))
    with pytest.raises(ValueError, match="does not follow from the moves"):
        records.parse(base.format("1/2-1/2 (resignation)"))
    assert records.parse(base.format("0-1 (resignation)")).result == records.Result(
        1, "resignation"
    )
    assert records.parse(base.format("1-0 (timeout)")).result is not None
    assert records.parse(base.format("1/2-1/2 (agreement)")).result == records.Result(
        None, "agreement"
    )


def test_import_refuses_two_players_of_the_same_name_and_advises_only_what_applies(
    tmp_path: Path,
) -> None:
    same = tmp_path / "same.txt"
    same.write_text("Game: maphex\nRed: Ann\nBlue: ann\n\n1. 5\n", encoding="utf-8")
    refused = hexhall(tmp_path, "import", str(same))
    assert refused.returncode != 0
    assert b"both players are called" in refused.stderr and b"ann1" not in refused.stdout
    done = tmp_path / "done.txt"
    done.write_text("Game: maphex\nRed: ann\nBlue: bo\nResult: 1-0 (resignation)\n\n1. 5\n")
    finished = hexhall(tmp_path, "import", str(done))
    assert finished.returncode == 0, finished.stderr
    assert b"Imported" in finished.stdout and b"Continue it" not in finished.stdout
    going = tmp_path / "going.txt"
    going.write_text("Game: maphex\nRed: ann\nBlue: bo\n\n1. 5\n")
    assert b"Continue it with" in hexhall(tmp_path, "import", str(going)).stdout


# -- 7: the game just started takes bare moves -----------------------------------------------


async def test_a_bare_move_goes_to_the_game_last_shown_when_several_would_do(
    tmp_path: Path,
) -> None:
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    out = io.StringIO()
    try:
        m = SessionManager(store, FakeClock(), pictures=False)
        lines = [
            b"as alice\n",
            b"challenge bob pathagon first=me days=none\n",
            b"as bob\n",
            b"accept\n",
            b"as alice\n",
            b"challenge bob pathagon first=me days=none\n",
            b"as bob\n",
            b"accept\n",
            b"d4\n",
        ]
        console = Console(m, tmp_path / "boards", out=out, read_line=feeder(lines))
        assert await console.run() == 0
        second = await m.store.get_game(2)
        assert second is not None and second.ply == 1, out.getvalue()
        assert "#2 Pathagon, move 1: alice (Light) played" in out.getvalue()
    finally:
        await store.close()


# -- 8: swap is a turn of its own ------------------------------------------------------------


def test_swap_is_a_turn_of_its_own_among_spaced_moves() -> None:
    start = engines.new("inphexion")
    assert parse_moves(start, "d4 swap d4-c4").last_move == "d4-c4"
    with pytest.raises(CliError) as failed:
        parse_moves(start, "d4 c4 swap")
    assert "move 2 ('c4')" in str(failed.value) and "relocation" not in str(failed.value)


# -- 9: every step of a button checks who pressed it; resigning asks first --------------


async def test_only_a_player_is_asked_to_confirm_resigning(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "maphex")
        stranger = await m.games.press(CAROL, ROOM, f"rs:{gid}")
        assert not stranger.ok and "only its players" in stranger.text
        asked = await m.games.press(BOB, ROOM, f"rs:{gid}")
        assert asked.ok and [a.kind for a in asked.actions] == [ActionKind.RESIGN_CONFIRMED]


async def test_a_question_is_answered_by_its_player_alone_while_it_lasts(tmp_path: Path) -> None:
    """Issue 45: "Yes, resign" names whose question it is and until when it may be answered:
    anyone else's press, or a press after it lapsed, changes nothing."""
    clock = FakeClock()
    async with session(tmp_path / "h.db", clock) as m:
        gid, _ = await start_game(m, "maphex")
        yes = (await m.games.press(BOB, ROOM, f"rs:{gid}")).actions[0].id
        for someone in (ALICE, CAROL):
            refused = await m.games.press(someone, ROOM, yes)
            assert not refused.ok and f"only {BOB.name} can answer it" in refused.text
        clock.advance(seconds=QUESTION_TTL.total_seconds() + 1)
        lapsed = await m.games.press(BOB, ROOM, yes)
        assert not lapsed.ok and lapsed.text == str(texts.QUESTION_LAPSED)
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "active"
        again = (await m.games.press(BOB, ROOM, f"rs:{gid}")).actions[0].id
        assert (await m.games.press(BOB, ROOM, again)).ok
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "finished"


async def test_resigning_asks_for_confirmation_whichever_way_it_is_started(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "maphex")
        asked = await m.games.resign(BOB, ROOM, gid, confirm=False)
        assert "Really resign" in asked.text
        said = await typed(m, BOB, "resign")
        assert "Really resign" in said
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "active"
        assert "resigned" in await typed(m, BOB, f"resign #{gid} !")
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "finished"


# -- 10: options are optional and written one way ----------------------------------------------


def test_play_needs_only_a_game_and_options_are_written_one_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.cli import main

    assert main(["play"]) == 2
    err = capsys.readouterr().err
    assert "required: game" in err and "option=value" not in err
    assert main(["games"]) == 0
    listed = capsys.readouterr().out
    assert "pie=yes|no (default pie=yes)" in listed and "True" not in listed


async def test_a_challenge_says_its_options_as_they_are_typed(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, "inphexion", BOB, {"pie": "no"})
        assert "pie=no" in made.text and "size=7" in made.text


# -- 11: names and repeated challenges ------------------------------------------------------


async def test_a_challenge_to_a_name_longer_than_names_may_be_is_refused(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        said = await typed(m, ALICE, f"challenge {'x' * 40} maphex")
        assert said.startswith("! A player's name") and "32" in said


async def test_a_repeat_challenge_points_to_the_pending_one(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        again = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        assert not again.ok and f"challenge {made.challenge_id} is still pending" in again.text
        other = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB, {"size": "16"})
        assert other.ok


# -- 12: render writes the format it names ---------------------------------------------------


def test_render_writes_the_format_its_suffix_names_or_refuses(tmp_path: Path) -> None:
    from bot.cli import main

    jpg = tmp_path / "x.jpg"
    assert main(["render", "maphex", "5 e5", "-o", str(jpg)]) == 0
    assert jpg.read_bytes()[:3] == b"\xff\xd8\xff"
    assert main(["render", "maphex", "5", "-o", str(tmp_path / "x.bmp")]) == 2
    assert not (tmp_path / "x.bmp").exists()
    piped = hexhall(tmp_path, "render", "maphex", "5", "-o", "-")
    assert piped.returncode == 0 and piped.stdout.startswith(b"\x89PNG")
    assert not (tmp_path / "-").exists()


# -- finding one's games -----------------------------------------------------------------------


async def test_a_bare_move_goes_to_the_only_game_where_it_is_your_turn(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        one, _ = await start_game(m, "pathagon")
        two, _ = await start_game(m, "pathagon")
        assert (
            await m.games.move(ALICE, ROOM, "d4", one)
        ).ok  # now Bob's turn in one, Alice's in two
        played = await m.games.move(ALICE, ROOM, "d4")
        assert played.ok and played.game_id == two
        # Both games wait on Bob now: that is really ambiguous.
        unclear = await m.games.move(BOB, ROOM, "e6")
        assert not unclear.ok and unclear.need is not None
        assert set(unclear.need.candidates) == {one, two}


async def test_looking_at_a_game_after_it_ended_shows_the_most_recent_one(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        old, _ = await start_game(m, "maphex")
        assert (await m.games.resign(ALICE, ROOM, old)).ok
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "d4")).ok
        assert (await m.games.resign(BOB, ROOM)).ok
        for look in (m.games.board, m.games.history, m.games.export):
            reply = await look(ALICE, ROOM)
            assert reply.ok and reply.game_id == gid, reply.text


async def test_games_lists_your_turn_first_then_the_others_then_challenges(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db") as m:
        theirs, _ = await start_game(m, "maphex")  # Blue (Bob) opens Maphex
        mine, _ = await start_game(m, "pathagon")
        sent = await m.challenges.challenge(ALICE, ROOM, "isopath", CAROL)
        received = await m.challenges.challenge(CAROL, ROOM, "fixation", ALICE)
        listed = (await m.games.games(ALICE)).text.split("\n")
        assert (
            listed[0].startswith(f"#{mine} Pathagon") and "your turn (move 1, 3 days" in listed[0]
        )
        assert listed[1].startswith(f"#{theirs} Maphex") and "bob to move" in listed[1]
        assert (
            listed[2]
            == f"challenge {sent.challenge_id}: Hexagonal Iso-Path to carol, waiting for an answer"
        )
        assert listed[3].startswith(
            f"challenge {received.challenge_id}: Lines of Fixation from carol"
        )


async def test_challenges_are_numbered_without_the_mark_of_games(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        accepted = await m.challenges.accept(BOB, ROOM)
        assert f"Challenge {made.challenge_id} expires" in made.text
        assert f"accepted challenge {made.challenge_id}: game #{accepted.game_id}" in (
            accepted.text
        )
        assert "There is no challenge 99." in (await m.challenges.accept(BOB, ROOM, 99)).text


async def test_history_is_a_numbered_move_list(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "maphex")
        for move in ("5", "e5", "d4"):
            assert (await m.games.move(await mover(m, gid), ROOM, move)).ok
        said = await m.games.history(ALICE, ROOM)
        assert said.text.split("\n")[1] == "1. 5 e5  2. d4"
        assert "Result:" not in said.text and "Game:" not in said.text
        assert [a.id for a in said.actions] == [f"bro:{gid}"]


async def test_stepping_through_a_game_shows_each_position_with_its_buttons(
    tmp_path: Path,
) -> None:
    store, m = await pictured(tmp_path / "h.db")
    try:
        gid, _ = await start_game(m, "maphex")
        for move in ("5", "e5", "d4"):
            assert (await m.games.move(await mover(m, gid), ROOM, move)).ok
        first = await m.games.press(CAROL, ROOM, f"br:{gid}:0")  # anyone may look
        assert first.ok and "start position of 3" in first.text
        assert [a.id for a in first.actions] == [f"br:{gid}:1", f"br:{gid}:3"]
        middle = await m.games.press(CAROL, ROOM, f"br:{gid}:2")
        assert "after move 2 of 3: alice (Red) played e5." in middle.text
        assert [a.id for a in middle.actions] == [
            f"br:{gid}:0", f"br:{gid}:1", f"br:{gid}:3", f"br:{gid}:3",
        ]  # fmt: skip
        at_two = engines.position_after("maphex", ["5", "e5"])
        assert middle.image == render.board_png(at_two, players=("alice", "bob"))
        assert all(len(a.id.encode()) <= 64 for a in middle.actions)
        beyond = await m.games.browse(ALICE, ROOM, gid, 9)
        assert not beyond.ok and "0 (the start) to 3" in beyond.text
    finally:
        await store.close()


async def test_rules_read_as_text_in_sections_a_chat_message_can_hold(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        for game in engines.GAMES:
            reply = await m.games.rules(game)
            assert reply.ok and "**" not in reply.text and "|" not in reply.text
            for limit in MESSAGE_LIMITS.values():
                parts = reply.sections(limit)
                assert all(len(str(p)) <= limit for p in parts)
                assert "".join(str(p) for p in parts).replace("\n", "") == reply.text.replace(
                    "\n", ""
                )


@pytest.mark.parametrize(
    ("game", "first", "said"),
    [
        ("maphex", "me", "the challenger plays Red, Blue opens"),
        ("maphex", "them", "the challenger plays Blue and opens"),
        ("maphex", "random", "sides drawn by lot, Blue opens"),
        ("pathagon", "me", "the challenger plays Light and opens"),
    ],
)
async def test_a_challenge_says_who_plays_which_side_and_who_opens(
    tmp_path: Path, game: str, first: str, said: str
) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, game, BOB, {}, first)
        assert made.ok and said in made.text
