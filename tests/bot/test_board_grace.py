"""When a move's board may go out (issue 24's "the board is the notice"): the answer to a move
made in the game's chat is that board, so the outbox holds it back for
:data:`~bot.sessions.policy.ANSWER_GRACE` while the answer claims it; a move made elsewhere
(a player's private chat with the bot, for a game in a group) is answered where it was made,
which claims nothing, so the group's board is due at once rather than ten seconds later."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.core.notification import Kind, Notification
from bot.messages import Chat
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.policy import ANSWER_GRACE
from tests.bot.session_kit import ALICE, ROOM, session, start_game

ALICE_DM = Chat("test", "alice-dm", direct=True)


async def _boards(m: SessionManager, game_id: int) -> list[Notification]:
    far = m.now() + timedelta(days=400)
    due = await m.store.due_notifications("test", far, 500)
    return [n for n in due if n.kind is Kind.BOARD and n.game_id == game_id]


async def test_a_move_in_the_games_chat_leaves_its_board_to_the_answer(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db", FakeClock()) as m:
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "a2", gid)).ok
        (board,) = await _boards(m, gid)
        assert board.chat == ROOM and board.ply == 1
        assert board.deliver_after == m.now() + ANSWER_GRACE


async def test_a_move_made_privately_has_the_groups_board_due_at_once(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db", FakeClock()) as m:
        gid, _ = await start_game(m, "pathagon")
        played = await m.games.move(ALICE, ALICE_DM, "a2", gid)
        assert played.ok, played.text
        (board,) = await _boards(m, gid)
        # Posted in the game's chat (the group), naming the player to move, with no wait.
        assert board.chat == ROOM and board.ply == 1 and not board.direct
        assert board.deliver_after == m.now()


async def test_a_move_answered_on_the_web_has_its_board_due_at_once_and_rings(
    tmp_path: Path,
) -> None:
    async with session(tmp_path / "h.db", FakeClock()) as m:
        gid, _ = await start_game(m, "pathagon")
        rung: list[int] = []
        with m.bell.listening(lambda: rung.append(gid)):
            # The web board passes the game's own chat, but answers on its page.
            played = await m.games.move(ALICE, ROOM, "a2", gid, 0, answered_in_chat=False)
        assert played.ok, played.text
        (board,) = await _boards(m, gid)
        assert board.chat == ROOM and board.deliver_after == m.now()
        assert rung == [gid]  # this process's outboxes were woken for it


async def test_a_move_answered_in_its_chat_rings_nothing(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db", FakeClock()) as m:
        gid, _ = await start_game(m, "pathagon")
        rung: list[int] = []
        with m.bell.listening(lambda: rung.append(gid)):
            assert (await m.games.move(ALICE, ROOM, "a2", gid)).ok
        assert rung == []  # the adapter's answer is the board (and it wakes its outbox)
