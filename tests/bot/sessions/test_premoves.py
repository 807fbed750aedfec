"""Conditional moves (issue 46) through the session manager, on SQLite and on PostgreSQL: a
prepared line plays itself as the opponent plays into it (one transaction, one board), a
move off the line drops it and tells its owner once, a line is refused with the rule it
breaks, the opponent sees nothing of it, and a game's end, a takeback or an agreed draw drops
it."""

from __future__ import annotations

from typing import Any

import engines
from bot.adapters.commands import execute
from bot.core.notification import Kind, Notification
from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from tests.bot.session_kit import ALICE, BOB, ROOM, session, short_finishing_moves, start_game
from tests.bot.storage.raw import raw

DM = Chat("test", "dm-alice")


async def typed(m: SessionManager, user: User, line: str, chat: Chat = ROOM) -> Any:
    return await execute(m, user, chat, line, lambda name: None)


async def notes_of(m: SessionManager, user: User, kind: Kind) -> list[Notification]:
    player = await m.players.player(user)
    return [n for n in await m.store.notifications_for(player.id) if n.kind == kind]


async def boards(m: SessionManager, game_id: int) -> list[tuple[Any, ...]]:
    """The game's committed boards (every one, sent or not): ``(ply, text)``."""
    return await raw(
        m.store,
        "SELECT ply, text FROM notifications WHERE game_id = ? AND kind = 'board' ORDER BY ply",
        game_id,
    )


async def pathagon(m: SessionManager) -> int:
    """A Pathagon game, Alice (seat 0) has played a1: Bob's turn."""
    gid, _ = await start_game(m, "pathagon")
    assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok
    return gid


async def test_a_two_move_line_plays_itself_with_one_board_each_time(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        said = await typed(m, ALICE, f"premove #{gid} b1 => c1; b2 => c2", DM)
        assert said.ok and said.private, said.text
        assert "Line 1 prepared" in said.text and "if b1, then c1; if b2, then c2" in said.text
        before = await boards(m, gid)

        answer = await m.games.move(BOB, ROOM, "b1", gid)
        assert answer.ok, answer.text
        assert "bob" in answer.text and "played b1" in answer.text
        assert "alice (Light) replied c1 (prepared)." in answer.text
        assert answer.text.endswith("bob (Dark) to move.")
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 3 and row.to_move == 1
        assert [mv.move for mv in await m.store.moves(gid)] == ["a1", "b1", "c1"]
        new = [b for b in await boards(m, gid) if b not in before]
        assert [b[0] for b in new] == [3], new  # one board: after both moves
        # The stored text, as JSON: the sentence's message id and its arguments (issue 43).
        assert "{mover} played {move}; {owner} replied {reply} (prepared)." in new[0][1]
        assert '["move", [["c", "b1"]]]' in new[0][1] and '["reply", [["c", "c1"]]]' in new[0][1]
        # The rest of the line waits for Bob's next move; it is still Alice's alone.
        listed = await typed(m, ALICE, f"premove #{gid}", DM)
        assert "1. if b2, then c2" in listed.text

        answer = await m.games.move(BOB, ROOM, "b2", gid)
        assert "alice (Light) replied c2 (prepared)." in answer.text
        assert [mv.move for mv in await m.store.moves(gid)] == ["a1", "b1", "c1", "b2", "c2"]
        assert "no prepared lines" in (await typed(m, ALICE, f"premove #{gid}", DM)).text
        # Played out: nothing was dropped, so Alice was never told so.
        assert await notes_of(m, ALICE, Kind.PREMOVE) == []


async def test_lines_form_a_tree_the_first_matching_line_wins(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        for line in ("b1 => c1; b2 => c2", "b1 => d1", "b1 => c1; b3 => c3", "e5 => e4"):
            assert (await typed(m, ALICE, f"premove #{gid} {line}", DM)).ok
        answer = await m.games.move(BOB, ROOM, "b1", gid)
        assert "replied c1 (prepared)" in answer.text
        # The lines that went through b1 => c1 go on; "b1 => d1" and "e5 => e4" are gone.
        listed = await typed(m, ALICE, f"premove #{gid}", DM)
        assert "1. if b2, then c2" in listed.text and "2. if b3, then c3" in listed.text
        assert "d1" not in listed.text and "e4" not in listed.text
        answer = await m.games.move(BOB, ROOM, "b3", gid)
        assert "replied c3 (prepared)" in answer.text


async def test_a_move_off_the_line_drops_it_and_tells_the_owner_once(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        # Told by direct message (those with direct messages off are not told).
        assert (await m.players.settings(ALICE, "dm", "on")).ok
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        assert (await typed(m, ALICE, f"premove #{gid} b2 => c2", DM)).ok
        answer = await m.games.move(BOB, ROOM, "e5", gid)
        assert answer.ok and "prepared" not in answer.text
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 2 and row.to_move == 0
        told = await notes_of(m, ALICE, Kind.PREMOVE)
        assert len(told) == 1, told
        assert told[0].direct and told[0].chat is None
        assert "were dropped" in str(told[0].text) and "e5" in str(told[0].text)
        assert "no prepared lines" in (await typed(m, ALICE, f"premove #{gid}", DM)).text
        # Play goes on; nothing more is said about the dropped lines.
        assert (await m.games.move(ALICE, ROOM, "c1", gid)).ok
        assert (await m.games.move(BOB, ROOM, "d1", gid)).ok
        assert len(await notes_of(m, ALICE, Kind.PREMOVE)) == 1


async def test_an_illegal_line_is_refused_with_the_rule_it_breaks(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        # a1 is taken: the opponent's first move of the line is illegal.
        refused = await typed(m, ALICE, f"premove #{gid} a1 => c1", DM)
        taken = engines.new("pathagon").play("a1")
        try:
            taken.play("a1")
        except engines.IllegalMove as exc:
            from bot.sessions.texts import illegal_move

            rule = illegal_move(exc)
        assert not refused.ok and "move 1 of the line" in refused.text and rule in refused.text
        # The reply is illegal after the opponent's move (the cell they took).
        refused = await typed(m, ALICE, f"premove #{gid} b1 => b1", DM)
        assert not refused.ok and "move 2 of the line" in refused.text
        refused = await typed(m, ALICE, f"premove #{gid} b1 => zz9", DM)
        assert not refused.ok and "move 2 of the line" in refused.text
        assert not (await typed(m, ALICE, f"premove #{gid} b1 =>", DM)).ok
        assert not (await typed(m, ALICE, f"premove #{gid} b1 c1", DM)).ok
        # Nothing was kept, and the game is as it was.
        assert "no prepared lines" in (await typed(m, ALICE, f"premove #{gid}", DM)).text
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 1
        # Lines are prepared during the opponent's turn only, and never by an onlooker.
        refused = await typed(m, BOB, f"premove #{gid} c1 => c2", DM)
        assert not refused.ok and "It is your turn" in refused.text


async def test_the_opponent_sees_nothing_of_a_prepared_line(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        m.web_pages = None

        async def everything_bob_can_see() -> list[str]:
            views = [
                (await m.games.board(BOB, ROOM, gid)).text,
                (await m.games.history(BOB, ROOM, gid)).text,
                (await m.games.export(BOB, ROOM, gid)).text,
                (await m.games.games(BOB)).text,
                (await typed(m, BOB, f"premove #{gid}", DM)).text,
                repr(await m.web.web_view(gid)),
            ]
            bob = await m.players.player(BOB)
            views += [repr(n) for n in await m.store.notifications_for(bob.id)]
            return views

        before = await everything_bob_can_see()
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1; b2 => c2", DM)).ok
        assert await everything_bob_can_see() == before
        # Not a notification to anyone either: only the answer to Alice said it.
        notes = await raw(m.store, "SELECT text FROM notifications WHERE game_id = ?", gid)
        assert not any("c2" in str(text) for (text,) in notes)


async def test_takeback_draw_and_the_end_drop_the_lines(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid = await pathagon(m)
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        # A takeback of Alice's a1 (accepted by Bob) drops the line.
        assert (await m.games.takeback(ALICE, ROOM, gid, "ask")).ok
        assert (await m.games.takeback(BOB, ROOM, gid, "accept")).ok
        assert await m.store.premoves_of(gid, (await m.players.player(ALICE)).id) == []
        assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok
        assert (await typed(m, ALICE, f"premove #{gid} b1 => c1", DM)).ok
        # A draw agreed drops it too.
        assert (await m.games.draw(ALICE, ROOM, gid, "offer")).ok
        assert (await m.games.draw(BOB, ROOM, gid, "accept")).ok
        assert await raw(m.store, "SELECT count(*) FROM premoves") == [(0,)]

        other = await pathagon(m)
        assert (await typed(m, ALICE, f"premove #{other} b1 => c1", DM)).ok
        assert (await m.games.resign(BOB, ROOM, other)).ok
        assert await raw(m.store, "SELECT count(*) FROM premoves") == [(0,)]
        assert "clear" not in (await typed(m, ALICE, f"premove #{other} clear", DM)).text


async def test_iso_path_turns_are_whole_moves_in_a_line(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid, _ = await start_game(m, "isopath")
        position = engines.new("isopath")
        first = position.legal_moves()[0]
        assert (await m.games.move(ALICE, ROOM, first, gid)).ok
        position = position.play(first)
        theirs = position.legal_moves()[0]
        mine = position.play(theirs).legal_moves()[0]
        said = await typed(m, ALICE, f"premove #{gid} {theirs} => {mine}", DM)
        assert said.ok, said.text
        answer = await m.games.move(BOB, ROOM, theirs, gid)
        assert f"replied {position.play(theirs).play(mine).last_move} (prepared)" in answer.text
        row = await m.store.get_game(gid)
        assert row is not None and row.ply == 3


#: An inpHeXion game of 20 moves after which the player to move (seat 0) may relocate.
INPHEXION = (
    "d4 d4-d5 d4-e3 d4-c4 e3-e4 c4-c5 e4-e5 c5-b5 c5-b6 b5-b4 e5-f5 b4-c3 d4-d3 e3-e2 b4-b3 "
    "e2-f1 b6-a7 e4-f3 a7-b7 a7-a6"
).split()


async def test_an_inphexion_relocation_is_one_whole_move_of_a_line(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid, _ = await start_game(m, "inphexion")
        for move in INPHEXION[:-1]:
            row = await m.store.get_game(gid)
            assert row is not None and row.to_move is not None
            mover = ALICE if row.to_move == 0 else BOB
            assert (await m.games.move(mover, ROOM, move, gid, confirm=True)).ok
        relocation = "b7-c7 a7>a1"
        said = await typed(m, ALICE, f"premove #{gid} {INPHEXION[-1]} => {relocation}", DM)
        assert said.ok, said.text
        answer = await m.games.move(BOB, ROOM, INPHEXION[-1], gid)
        assert f"replied {relocation} (prepared)" in answer.text, answer.text
        assert (await m.store.moves(gid))[-1].move == relocation


#: After these inpHeXion moves Alice (seat 0) is to move; after her d3-d2, Bob's f1-e1 e1>d7
#: would connect Alice's sides: it loses at once.
LOSING = [
    *INPHEXION,
    *("b7-c7 a7>c1", "b4-a4", "c1-c2", "b7-a7", "c2-d1", "b6-c6", "e4-f4", "a6-a5 a7>e6"),
]


async def test_a_reply_that_would_lose_at_once_is_not_played(store_url: str) -> None:
    async with session(store_url, FakeClock()) as m:
        gid, _ = await start_game(m, "inphexion")
        for move in LOSING:
            row = await m.store.get_game(gid)
            assert row is not None and row.to_move is not None
            mover = ALICE if row.to_move == 0 else BOB
            assert (await m.games.move(mover, ROOM, move, gid, confirm=True)).ok
        assert (await m.players.settings(BOB, "dm", "on")).ok
        said = await typed(m, BOB, f"premove #{gid} d3-d2 => f1-e1 e1>d7", DM)
        assert said.ok, said.text  # legal, so kept; it is judged when it would be played
        answer = await m.games.move(ALICE, ROOM, "d3-d2", gid)
        assert answer.ok and "prepared" not in answer.text
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "active" and row.ply == len(LOSING) + 1
        assert row.to_move == 1  # Bob's turn: the line stopped
        told = await notes_of(m, BOB, Kind.PREMOVE)
        assert len(told) == 1 and "would lose at once" in str(told[0].text)
        assert "no prepared lines" in (await typed(m, BOB, f"premove #{gid}", DM)).text


async def test_a_prepared_reply_that_wins_ends_the_game_in_the_same_transaction(
    store_url: str,
) -> None:
    line = short_finishing_moves("pathagon")
    async with session(store_url, FakeClock()) as m:
        gid, _ = await start_game(m, "pathagon")
        for move in line[:-2]:
            row = await m.store.get_game(gid)
            assert row is not None and row.to_move is not None
            mover = ALICE if row.to_move == 0 else BOB
            assert (await m.games.move(mover, ROOM, move, gid, confirm=True)).ok
        row = await m.store.get_game(gid)
        assert row is not None and row.to_move is not None
        opponent = ALICE if row.to_move == 0 else BOB
        owner = BOB if opponent is ALICE else ALICE
        said = await typed(m, owner, f"premove #{gid} {line[-2]} => {line[-1]}", DM)
        assert said.ok, said.text
        answer = await m.games.move(opponent, ROOM, line[-2], gid)
        assert answer.ok and f"replied {line[-1]} (prepared)" in answer.text, answer.text
        assert "wins" in answer.text
        row = await m.store.get_game(gid)
        assert row is not None and row.status == "finished" and row.ply == len(line)
        assert row.winner == (0 if owner is ALICE else 1)
        assert await raw(m.store, "SELECT count(*) FROM premoves") == [(0,)]
