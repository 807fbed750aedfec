"""One decision of "may this player move now?" (issue 42): ``/move``, the move picker, a preview
and the web board's API refuse the same cases with the same code
(:class:`~bot.messages.TurnRefusal`) and the same words, on a real SQLite file and the web
board's real HTTP API; and the decision itself (:func:`~bot.sessions.turns.may_move`) in the
order its codes are checked."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp

from bot.core.status import GameStatus
from bot.messages import Chat, Reply, TurnRefusal, User
from bot.sessions import texts
from bot.sessions.turns import MayMove, Refused, may_move
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, site

ZED = User("telegram", "1003", "Zed")
#: No rate limit gets in the way of asking every surface in turn.
OPEN = {"player_rate": (100.0, 1000), "address_rate": (100.0, 1000)}
#: A move that is never the stored one in these games (so never answered as a repeat).
OTHER = "c3"


async def _web(s: Site, user: User, game_id: int, move: str, ply: int) -> tuple[str | None, str]:
    """What the web board answers ``user`` playing ``move`` at ``ply``: the code and the
    words."""
    slug = (await s.board.link(game_id)).rsplit("/", 1)[1]
    signed = {"Authorization": f"tma {init_data(user, s.clock)}"}
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{s.url}/api/games/{slug}", headers=signed) as page:
            state = await page.json()
        async with http.post(
            f"{s.url}/api/games/{slug}/moves", json={"move": move, "ply": ply}, headers=signed
        ) as answer:
            body = await answer.json()
    assert answer.status in (403, 409), body
    # The page as it is now offers no move either (a stale page's ply aside: it is the move
    # made from an older page that has moved on).
    assert state["can_move"] is (ply != state["ply"]), state
    return body.get("code"), body["text"]


def _code(reply: Any) -> tuple[TurnRefusal | None, str]:
    assert isinstance(reply, Reply) and not reply.ok, reply
    return reply.refusal, reply.text


async def _refusals(
    s: Site, user: User, game_id: int, ply: int, chat: Chat = TG_GROUP
) -> dict[str, tuple[str | None, str]]:
    """How each way of moving refuses ``user`` at ``ply`` in game ``game_id``: its code and
    words (a preview names no ply: asked only at the game's current one)."""
    m = s.manager
    row = await m.store.get_game(game_id)
    assert row is not None
    answers: dict[str, tuple[TurnRefusal | None, str]] = {
        "move": _code(await m.games.move(user, chat, OTHER, game_id, ply)),
        "picker": _code(await m.games.pick(user, chat, f"pp:{game_id}:{ply}:0:=")),
    }
    if ply == row.ply:
        answers["preview"] = _code(await m.games.preview(user, chat, OTHER, game_id))
    out = {
        way: (None if code is None else code.value, words) for way, (code, words) in answers.items()
    }
    out["web"] = await _web(s, user, game_id, OTHER, ply)
    return out


def _alike(answers: dict[str, tuple[str | None, str]], code: TurnRefusal) -> None:
    assert {c for c, _ in answers.values()} == {code.value}, answers
    assert len({words for _, words in answers.values()}) == 1, answers  # one wording


async def test_every_way_of_moving_refuses_alike(tmp_path: Path) -> None:
    async with site(str(tmp_path / "h.db"), **OPEN) as s:
        m = s.manager
        gid = await new_game(m, "pathagon", ADA, BO, TG_GROUP, ["a2"])  # Bo to move, ply 1
        zed = await _refusals(s, ZED, gid, 1)
        _alike(zed, TurnRefusal.NOT_PLAYING)
        assert zed["move"][1] == str(texts.not_playing(gid))
        ada = await _refusals(s, ADA, gid, 1)
        _alike(ada, TurnRefusal.NOT_YOUR_TURN)
        assert ada["move"][1] == f"It is not your turn in #{gid}: Bo (Dark) is to move."
        stale = await _refusals(s, BO, gid, 0)  # a board (or page) of before Ada's move
        _alike(stale, TurnRefusal.MOVED_ON)
        assert "preview" not in stale and "moved on" in stale["picker"][1]
        assert (await m.games.resign(ADA, TG_GROUP, gid)).ok
        for user in (ADA, BO):
            over = await _refusals(s, user, gid, 1)
            _alike(over, TurnRefusal.OVER)
            assert over["picker"][1].startswith(f"#{gid} is over: ")


async def test_a_passed_deadline_is_refused_alike_and_calls_time(tmp_path: Path) -> None:
    async with site(str(tmp_path / "h.db"), **OPEN) as s:
        m = s.manager
        games = []
        for _ in range(4):
            made = await m.challenges.challenge(ADA, TG_GROUP, "pathagon", BO, {}, "me", 1)
            assert made.ok and made.challenge_id is not None, made.text
            started = await m.challenges.accept(BO, TG_GROUP, made.challenge_id)
            assert started.game_id is not None
            games.append(started.game_id)
            assert (await m.games.move(ADA, TG_GROUP, "a2", started.game_id, 0)).ok
        s.clock.advance(days=2)  # Bo's day to move is over; no sweep has run
        move, pick, show, web = games
        answers = {
            "move": _code(await m.games.move(BO, TG_GROUP, OTHER, move, 1)),
            "picker": _code(await m.games.pick(BO, TG_GROUP, f"pp:{pick}:1:0:=")),
            "preview": _code(await m.games.preview(BO, TG_GROUP, OTHER, show)),
        }
        found = {way: (c.value if c else None, w) for way, (c, w) in answers.items()}
        found["web"] = await _web(s, BO, web, OTHER, 1)
        assert {c for c, _ in found.values()} == {TurnRefusal.OUT_OF_TIME.value}, found
        for (way, (_, said)), gid in zip(found.items(), games, strict=True):
            # One wording (each its own game): time is called, and the result said.
            assert said.startswith(f"Time ran out in #{gid}: Ada (Light) wins"), (way, said)
            row = await m.store.get_game(gid)
            assert row is not None and row.status is GameStatus.FINISHED


async def test_the_decision_checks_in_its_order() -> None:
    async with site(":memory:") as s:
        gid = await new_game(s.manager, "pathagon", ADA, BO, TG_GROUP, ["a2"])
        view = await s.manager.web.web_view(gid)
        assert view is not None
        row, position, now = view.row, view.position, s.clock.now()
        ada, bo = row.seats
        assert may_move(row, position, bo, now) == MayMove(1)
        assert may_move(row, position, bo, now, ply=1) == MayMove(1)
        assert may_move(row, position, None, now, ply=0) == Refused(
            TurnRefusal.NOT_PLAYING, gid, None
        )
        assert may_move(row, position, ada, now, ply=0) == Refused(TurnRefusal.MOVED_ON, gid, 0)
        ended = replace(row, status=GameStatus.FINISHED)
        # A stale ply is said before the end (a repeat of the last move is judged by it).
        assert may_move(ended, position, ada, now, ply=0) == Refused(TurnRefusal.MOVED_ON, gid, 0)
        assert may_move(ended, position, ada, now, ply=1) == Refused(TurnRefusal.OVER, gid, 0)
        late = replace(row, deadline_at=now - timedelta(seconds=1))
        assert may_move(late, position, ada, now) == Refused(TurnRefusal.OUT_OF_TIME, gid, 0)
        assert may_move(late, position, bo, now) == Refused(TurnRefusal.OUT_OF_TIME, gid, 1)
        assert may_move(row, position, ada, now) == Refused(TurnRefusal.NOT_YOUR_TURN, gid, 0)
