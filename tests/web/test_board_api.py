"""The JSON the board page draws (issue 44), through a real aiohttp client on 127.0.0.1: the
typed board view (coordinates, regions, winning path), the move builder's steps (Iso-Path
guided), the page's resign/draw/takeback (the session manager decides; every refusal a clear
answer and the game as it was), and the next game where it is the asker's turn."""

from __future__ import annotations

import json
from urllib.parse import quote

import aiohttp
import pytest

from bot.core.notification import Kind, Notification
from bot.core.status import GameStatus
from bot.messages import ActionKind, User
from tests.web.kit import ADA, BO, TG_GROUP, Site, identity, init_data, new_game
from tests.web.scripted import MAPHEX

pytestmark = pytest.mark.asyncio(loop_scope="session")

CY_TG = User("telegram", "1003", "Cy")


async def _call(
    method: str, url: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, dict]:
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, url, data=data, headers=headers or {}) as answer,
    ):
        return answer.status, json.loads(await answer.read())


async def _chat_notes(web: Site, user: User) -> list[Notification]:
    """What the page's actions of ``user`` queued for the game's chat (in the group, never
    direct, due at once)."""
    player = await web.manager.store.find_player(user.platform, user.user_id)
    assert player is not None and player.id is not None
    notes = await web.manager.store.notifications_for(player.id)
    found = [
        n for n in notes if n.kind in (Kind.TAKEBACK_REQUESTED, Kind.DRAW_OFFERED, Kind.GAME_OVER)
    ]
    for n in found:
        assert n.chat == TG_GROUP and not n.direct and n.deliver_after <= web.clock.now()
    return found


def _tma(web: Site, user: User) -> dict[str, str]:
    return {"Authorization": "tma " + init_data(user, web.clock)}


async def _api(web: Site, gid: int) -> str:
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    return f"{web.url}/api/games/{slug}"


async def test_view_has_coordinates_regions_and_the_winning_path(web: Site) -> None:
    gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP, MAPHEX.moves)
    _, state = await _call("GET", await _api(web, gid))
    board = state["board"]
    texts = {label["t"] for label in board["labels"]}
    assert {"a", "i", "1", "9"} <= texts
    assert [r["n"] for r in board["regions"]] == [str(n) for n in range(1, 10)]
    assert sum(c["a"] for c in board["cells"]) == 9  # the auto-cells
    last = state["frames"][-1]
    final = MAPHEX.positions()[-1]
    names = final.board.names
    assert sorted(last["win"]) == sorted(names[c] for c in final.winning_cells)
    assert last["links"] and all(a in last["win"] and b in last["win"] for a, b in last["links"])
    # The sub-board to play after Blue chose 4 (the left one, index 3).
    assert state["frames"][1]["zone"] == 3 and state["frames"][0]["zone"] is None


async def test_steps_of_the_move_builder(web: Site) -> None:
    gid = await new_game(web.manager, "isopath", ADA, BO, TG_GROUP)
    api = await _api(web, gid)
    status, step = await _call("GET", f"{api}/next?prefix=")
    assert status == 200 and "tile to take" in step["prompt"]
    status, step = await _call("GET", f"{api}/next?prefix={quote('b1>b2')}")
    assert [c["c"] for c in step["choices"]] == ["a1", "a2"]
    assert "piece to move" in step["prompt"] and step["back"] == "b1>"
    status, step = await _call("GET", f"{api}/next?prefix={quote('b1>b2 a2-')}")
    assert step["complete"] and step["move"] == "b1>b2 a2-b2" and step["after"]["p"]
    # A prefix no legal move starts with: a clear 400, nothing else.
    status, refused = await _call("GET", f"{api}/next?prefix=zz9")
    assert status == 400 and "No legal move starts with zz9" in refused["text"]


async def test_page_actions_go_through_the_session_manager(web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["d4"])
    actions = await _api(web, gid) + "/actions"
    before = await web.manager.store.get_game(gid)
    # Malformed bodies of any shape: 400, the game as it was.
    for body in (
        "[",
        "[" * 2048,
        [],
        {"action": "explode"},
        {"action": "draw", "answer": 5},
        {"action": "resign", "confirm": "yes"},
    ):
        status, answer = await _call("POST", actions, body, _tma(web, ADA))
        assert status == 400 and "action" in answer["text"], body
    # Nobody signed in; someone not in the game.
    status, _ = await _call("POST", actions, {"action": "resign"})
    assert status == 401
    await web.manager.players.player(CY_TG)
    status, answer = await _call("POST", actions, {"action": "resign"}, _tma(web, CY_TG))
    assert status == 403 and "players" in answer["text"]
    # The manager's own refusal: Bo has no move of his own to take back.
    status, answer = await _call("POST", actions, {"action": "takeback"}, _tma(web, BO))
    assert status == 409 and answer["ok"] is False and answer["text"]
    assert await web.manager.store.get_game(gid) == before
    assert await _chat_notes(web, ADA) == []  # nothing posted for a refusal
    # Ada asks to take d4 back: the page's state shows it, the chat is told (with the
    # buttons that answer it, as the chat's own /takeback); Bo allows it.
    status, answer = await _call("POST", actions, {"action": "takeback"}, _tma(web, ADA))
    assert status == 200 and answer["ok"]
    [asked] = await _chat_notes(web, ADA)
    assert asked.kind is Kind.TAKEBACK_REQUESTED and "d4" in str(asked.text)
    assert {a.kind for a in asked.actions} >= {ActionKind.TAKEBACK_ACCEPT}
    _, state = await _call("GET", await _api(web, gid), headers=_tma(web, BO))
    assert state["offers"]["takeback"] == 0 and "take their last move back" in state["offer_text"]
    body = {"action": "takeback", "answer": "accept"}
    status, answer = await _call("POST", actions, body, _tma(web, BO))
    assert status == 200 and [m.move for m in await web.manager.store.moves(gid)] == []
    # Resigning asks first (nothing changes, nothing is posted), then resigns.
    posted = len(await _chat_notes(web, ADA))
    status, answer = await _call("POST", actions, {"action": "resign"}, _tma(web, ADA))
    assert status == 200 and answer["ask"] and "Really resign" in answer["text"]
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.status is GameStatus.ACTIVE
    assert len(await _chat_notes(web, ADA)) == posted  # the question is the page's alone
    body = {"action": "resign", "confirm": True}
    status, answer = await _call("POST", actions, body, _tma(web, ADA))
    assert status == 200 and not answer["ask"]
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.status is not GameStatus.ACTIVE
    over = (await _chat_notes(web, ADA))[-1]
    assert over.kind is Kind.GAME_OVER and "resign" in str(over.text)


async def test_next_game_where_it_is_your_turn(web: Site) -> None:
    here = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    _, state = await _call("GET", await _api(web, here), headers=_tma(web, ADA))
    assert state["next_turn"] is None  # no other game waits for Ada
    waiting = await new_game(web.manager, "pathagon", BO, ADA, TG_GROUP, ["a1"])
    await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])  # Bo's turn there
    _, state = await _call("GET", await _api(web, here), headers=_tma(web, ADA))
    assert state["next_turn"] == await web.board.link(waiting)
    # A personal link's holder gets a personal link (the token is for that game only).
    mine = await web.board.personal_link(here, identity(ADA))
    token = mine.split("#t=", 1)[1]
    _, state = await _call(
        "GET", await _api(web, here), headers={"Authorization": "Bearer " + token}
    )
    assert state["next_turn"].startswith(await web.board.link(waiting) + "#t=")
    # A spectator has none.
    _, state = await _call("GET", await _api(web, here))
    assert state["next_turn"] is None
