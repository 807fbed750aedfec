"""The web board's plan API (issue 46) through a real aiohttp client on 127.0.0.1: a signed-in
player prepares a line for the page's game (checked as in the chat, refused with the rule),
lists it and clears it; the opponent and spectators see none of it, not in this API, not in
the game's state; the opponent's move into the line, made on the web board, plays the reply."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

import aiohttp
import pytest

from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _call(
    method: str, url: str, body: object = None, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any]]:
    data = None if body is None else json.dumps(body)
    async with (
        aiohttp.ClientSession() as http,
        http.request(method, url, data=data, headers=headers or {}) as answer,
    ):
        return answer.status, json.loads(await answer.read())


async def test_plan_a_line_on_the_web_board(web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])  # Bo to move
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    plans = f"{web.url}/api/games/{slug}/premoves"
    ada = {"Authorization": "tma " + init_data(ADA, web.clock)}
    bo = {"Authorization": "tma " + init_data(BO, web.clock)}
    _, state_before = await _call("GET", f"{web.url}/api/games/{slug}")

    status, answer = await _call("POST", plans, {"line": "a1 => b1"}, ada)
    assert status == 409 and "move 1 of the line" in answer["text"], answer
    status, answer = await _call("POST", plans, {"nothing": 1}, ada)
    assert status == 400 and not answer["ok"]
    status, answer = await _call("POST", plans, {"line": "b1 => c1; b2 => c2"})
    assert status == 401  # a spectator
    status, answer = await _call("POST", plans, {"line": "b1 => c1; b2 => c2"}, ada)
    assert status == 200 and "Line 1 prepared" in answer["text"], answer
    status, answer = await _call("GET", plans, headers=ada)
    assert status == 200 and answer["lines"] == [["b1", "c1", "b2", "c2"]]

    # Bo (and any spectator) sees none of it.
    status, answer = await _call("GET", plans, headers=bo)
    assert status == 200 and answer["lines"] == []
    assert (await _call("GET", plans))[0] == 401
    _, state_after = await _call("GET", f"{web.url}/api/games/{slug}")
    assert state_after == state_before

    # Bo plays b1 on the web board: Ada's reply is stored with it.
    status, answer = await _call(
        "POST", f"{web.url}/api/games/{slug}/moves", {"move": "b1", "ply": 1}, bo
    )
    assert status == 200 and "replied c1 (prepared)" in answer["text"], answer
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.ply == 3
    status, answer = await _call("GET", plans, headers=ada)
    assert answer["lines"] == [["b2", "c2"]]
    status, answer = await _call("POST", plans, {"clear": True}, ada)
    assert status == 200 and "Dropped 1 prepared line" in answer["text"]
    assert (await _call("GET", plans, headers=ada))[1]["lines"] == []


async def test_plan_steps_are_computed_along_the_line(web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])  # Bo to move
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    step = f"{web.url}/api/games/{slug}/premoves/next"
    ada = {"Authorization": "tma " + init_data(ADA, web.clock)}
    # The opponent's first move: every empty cell but a1, as /next's cells to tap.
    status, first = await _call("GET", step, headers=ada)
    cells = {c["c"] for c in first["choices"]}
    assert status == 200 and first["line"] == [] and "a1" not in cells
    assert "b1" in cells and not first["complete"] and "their move" in first["prompt"]
    # After "b1 =>", b1 is taken too; a whole move typed gives the board after it.
    status, reply = await _call("GET", f"{step}?line=b1&prefix=", headers=ada)
    assert status == 200 and reply["line"] == ["b1"]
    assert "b1" not in {c["c"] for c in reply["choices"]} and "your reply" in reply["prompt"]
    status, done = await _call("GET", f"{step}?line=B1&prefix=c1", headers=ada)
    assert status == 200 and done["complete"] and done["move"] == "c1"
    assert done["line"] == ["b1"] and done["frame"] != first["frame"] and done["after"]
    status, refused = await _call("GET", f"{step}?line=b1&prefix=b1", headers=ada)
    assert status == 400 and "No legal move starts with b1" in refused["text"]
    # An illegal line so far: the rule; a spectator: nothing.
    status, refused = await _call("GET", f"{step}?line=a1", headers=ada)
    assert status == 409 and "move 1 of the line" in refused["text"]
    assert (await _call("GET", step))[0] == 401


async def test_plan_steps_build_iso_path_whole_turns(web: Site) -> None:
    """Iso-Path's two-part turn is one whole move of a line: built tap by tap from the cells
    the chat's own picker lights (take a tile, put it, move a piece), then the next step is
    the reply's, in the position after it."""
    gid = await new_game(web.manager, "isopath", ADA, BO, TG_GROUP, ["b1>b2 a1-b2"])
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    step = f"{web.url}/api/games/{slug}/premoves/next"
    ada = {"Authorization": "tma " + init_data(ADA, web.clock)}
    prefix, reply = "", {}
    for _ in range(8):  # a turn is a few taps
        status, reply = await _call("GET", f"{step}?prefix={quote(prefix)}", headers=ada)
        assert status == 200 and reply["line"] == [], reply
        if reply["complete"]:
            break
        cells = [c for c in reply["choices"] if c["c"] is not None]
        assert cells and all(c["r"] is None for c in cells), reply
        prefix = cells[0]["next"]
    assert reply["complete"] and reply["after"] is not None, reply
    theirs = reply["move"]
    status, after = await _call("GET", f"{step}?line={quote(theirs)}", headers=ada)
    assert status == 200 and after["line"] == [theirs] and "your reply" in after["prompt"]
    assert after["frame"] == reply["after"] and after["choices"]
