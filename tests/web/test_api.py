"""The web board's HTTP side, through a real aiohttp client on 127.0.0.1: the page and its
link preview, the JSON API, moves through the manager's own path, every refusal, the rate
limits, the security headers, and live events for a move made by another process on the
same PostgreSQL database.

Telegram's Mini App sign-in is checked as Telegram documents it ("Validating data received via
the Mini App", core.telegram.org/bots/webapps): HMAC-SHA256 of the data-check-string under the
key HMAC-SHA256("WebAppData", bot token), and ``auth_date`` no older than a day.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from bot.webboard import live
from bot.webboard.auth import LINK_TTL, sign_init_data
from tests.web.kit import (
    ADA,
    BO,
    CY,
    DC_CHANNEL,
    DI,
    TG_GROUP,
    announced,
    chat_notes,
    identity,
    init_data,
    losing_game,
    new_game,
    site,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _get(
    url: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as http, http.get(url, headers=headers or {}) as answer:
        return answer.status, dict(answer.headers), await answer.read()


async def _post(url: str, body: object, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    async with (
        aiohttp.ClientSession() as http,
        http.post(url, data=json.dumps(body), headers=headers or {}) as answer,
    ):
        return answer.status, json.loads(await answer.read())


async def test_page_state_and_preview(web) -> None:
    gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP, ["5", "e5"])
    link = await web.board.link(gid)
    slug = link.rsplit("/", 1)[1]
    assert len(slug) >= 22 and str(gid) != slug
    assert await web.board.link(gid) == link  # one page per game

    status, headers, body = await _get(link)
    assert status == 200
    html = body.decode()
    csp = headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "<script>" not in html  # no inline script: only <script src=...>
    for tag in ("og:title", "og:description", "og:image"):
        assert f'property="{tag}"' in html
    assert f"{link}/board.png" in html
    assert 'data-ply="2"' in html and "Ada" in html

    status, headers, png = await _get(f"{link}/board.png")
    assert status == 200 and png[:8] == b"\x89PNG\r\n\x1a\n"
    status, headers, gif = await _get(f"{link}/game.gif")
    assert status == 200 and gif[:6] == b"GIF89a" and "attachment" in headers["Content-Disposition"]
    status, _, record = await _get(f"{link}/record.txt")
    assert status == 200 and b"maphex" in record.lower() and b"e5" in record

    status, _, raw = await _get(f"{web.url}/api/games/{slug}")
    state = json.loads(raw)
    assert status == 200
    assert state["ply"] == 2 and state["moves"] == ["5", "e5"] and state["you"] is None
    assert len(state["frames"]) == 3 and len(state["board"]["cells"]) == 81
    assert [p["name"] for p in state["players"]] == ["Ada", "Bo"]

    # The player to move, signed in through Telegram, is told so.
    status, _, raw = await _get(
        f"{web.url}/api/games/{slug}", {"Authorization": "tma " + init_data(BO, web.clock)}
    )
    state = json.loads(raw)
    assert state["you"] == 1 and state["can_move"] is True
    status, _, raw = await _get(
        f"{web.url}/api/games/{slug}", {"Authorization": "tma " + init_data(ADA, web.clock)}
    )
    state = json.loads(raw)
    assert state["you"] == 0 and state["can_move"] is False

    # The legal parts, as the picker offers them.
    status, _, raw = await _get(f"{web.url}/api/games/{slug}/next?prefix=")
    parts = json.loads(raw)
    assert status == 200 and parts["complete"] is False
    assert "d4" in [c["c"] for c in parts["choices"]]

    # Nothing but the board here: no health check, no metrics, no guessing of ids.
    for path in ("/health", "/metrics", f"/g/{gid}", "/g/nosuchslugnosuchslug00"):
        status, _, _ = await _get(web.url + path)
        assert status == 404, path


async def test_names_are_escaped(web) -> None:
    evil = ADA.__class__("telegram", "1003", '<img src=x onerror=alert(1)>"')
    gid = await new_game(web.manager, "pathagon", evil, BO, TG_GROUP)
    status, _, body = await _get(await web.board.link(gid))
    assert status == 200
    assert b"<img src=x" not in body and b"&lt;img src=x onerror=alert(1)&gt;" in body


async def test_move_through_the_chat_path(web) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    moves = f"{web.url}/api/games/{slug}/moves"
    bo = {"Authorization": "tma " + init_data(BO, web.clock)}
    status, answer = await _post(moves, {"move": "b2", "ply": 1}, bo)
    assert status == 200 and answer["ok"], answer
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.ply == 2
    # Announced in the chat as any move: Ada is told it is her turn, naming the move.
    assert announced(await chat_notes(web.manager, ADA), "b2")
    # The same move again at the same ply gets the same answer (as a chat button would).
    status, again = await _post(moves, {"move": "b2", "ply": 1}, bo)
    assert status == 200 and again["ok"]


async def test_refusals(web) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    other = await new_game(web.manager, "pathagon", CY, DI, DC_CHANNEL)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    moves = f"{web.url}/api/games/{slug}/moves"
    ada = {"Authorization": "tma " + init_data(ADA, web.clock)}

    forged = sign_init_data({"id": 1001, "first_name": "Ada"}, "999:other-bot", web.clock.now())
    status, answer = await _post(
        moves, {"move": "a1", "ply": 0}, {"Authorization": "tma " + forged}
    )
    assert status == 401 and "not signed by this bot" in answer["text"]
    tampered = init_data(ADA, web.clock).replace("1001", "1002")
    status, answer = await _post(
        moves, {"move": "a1", "ply": 0}, {"Authorization": "tma " + tampered}
    )
    assert status == 401 and "not signed" in answer["text"]
    stale = {"Authorization": "tma " + init_data(ADA, web.clock, age_hours=25)}
    status, answer = await _post(moves, {"move": "a1", "ply": 0}, stale)
    assert status == 401 and "too old" in answer["text"]

    # A personal link for another game, and one that expired.
    cy_link = await web.board.personal_link(other, identity(CY))
    token = cy_link.split("#t=")[1]
    status, answer = await _post(
        moves, {"move": "a1", "ply": 0}, {"Authorization": "Bearer " + token}
    )
    assert status == 401 and "another game" in answer["text"]
    ada_link = await web.board.personal_link(gid, identity(ADA))
    ada_token = {"Authorization": "Bearer " + ada_link.split("#t=")[1]}
    web.clock.advance(seconds=LINK_TTL.total_seconds() + 1)
    status, answer = await _post(moves, {"move": "a1", "ply": 0}, ada_token)
    assert status == 401 and "expired" in answer["text"]

    # A spectator (no credentials), a signed-in Telegram user who does not play in it.
    status, answer = await _post(moves, {"move": "a1", "ply": 0})
    assert status == 401 and "only watches" in answer["text"]
    await web.manager.games.board(BO.__class__("telegram", "1009", "Eve"), TG_GROUP, gid)
    eve = {"Authorization": "tma " + init_data(BO.__class__("telegram", "1009", "Eve"), web.clock)}
    status, answer = await _post(moves, {"move": "a1", "ply": 0}, eve)
    assert status == 403 and "not playing" in answer["text"]

    # Not your turn, a stale ply, an illegal move, a malformed request: the chat's reasons.
    bo = {"Authorization": "tma " + init_data(BO, web.clock)}
    status, answer = await _post(moves, {"move": "a1", "ply": 0}, bo)
    assert status == 409 and "not your turn" in answer["text"].lower()
    status, answer = await _post(moves, {"move": "a1", "ply": 0}, ada)
    assert status == 200
    status, answer = await _post(moves, {"move": "b1", "ply": 0}, bo)
    assert status == 409 and "moved on" in answer["text"]
    status, answer = await _post(moves, {"move": "a1", "ply": 1}, bo)
    assert status == 409 and "a1" in answer["text"]
    for bad in ({"move": "b1"}, {"move": 5, "ply": 1}, [1], {"move": "b1", "ply": True}):
        status, answer = await _post(moves, bad, bo)
        assert status == 400, bad
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.ply == 1  # nothing but Ada's one move was played


async def test_a_losing_move_is_played_only_when_confirmed(web) -> None:
    setup, losing = losing_game()
    gid = await new_game(
        web.manager, "inphexion", ADA, BO, TG_GROUP, setup, {"size": 5, "pie": False}
    )
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.to_move is not None
    mover = (ADA, BO)[row.to_move]
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    moves = f"{web.url}/api/games/{slug}/moves"
    auth = {"Authorization": "tma " + init_data(mover, web.clock)}
    status, answer = await _post(moves, {"move": losing, "ply": len(setup)}, auth)
    assert status == 409 and answer["confirm"] is True and losing in answer["text"]
    unchanged = await web.manager.store.get_game(gid)
    assert unchanged is not None and unchanged.ply == len(setup)
    status, answer = await _post(moves, {"move": losing, "ply": len(setup), "confirm": True}, auth)
    assert status == 200 and answer["ok"]
    status, _, raw = await _get(f"{web.url}/api/games/{slug}")
    state = json.loads(raw)
    assert state["over"] is True and state["result"] and state["ply"] == len(setup) + 1


async def test_rate_limits(web) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    moves = f"{web.url}/api/games/{slug}/moves"
    bo = {"Authorization": "tma " + init_data(BO, web.clock)}

    async def until_too_fast(headers: dict[str, str] | None) -> list[int]:
        # The buckets fill again in real time (0.5 and 2 a second), so on a loaded machine
        # more posts than the bursts (6 and 20) may pass before one is refused.
        codes: list[int] = []
        while len(codes) < 200 and 429 not in codes:
            codes.append((await _post(moves, {"move": "a1", "ply": 0}, headers))[0])
        return codes

    # Refused as not Bo's turn until the player's bucket is empty, then too fast.
    codes = await until_too_fast(bo)
    assert set(codes[:-1]) == {409} and codes[-1] == 429 and len(codes) >= 7
    codes = await until_too_fast(None)
    assert set(codes[:-1]) == {401} and codes[-1] == 429  # the address's bucket


_OTHER_PROCESS = """
import asyncio, sys
from bot.messages import Chat, User
from bot.sessions.manager import SessionManager
from bot.storage import open_store

async def main():
    store = await open_store(sys.argv[1])
    try:
        manager = SessionManager(store, pictures=False)
        reply = await manager.games.move(
            User("telegram", "1002", "Bo"), Chat("telegram", "-100123"), "b2", int(sys.argv[2]), 1
        )
        print(reply.ok, reply.text)
    finally:
        await store.close()

asyncio.run(main())
"""


async def test_live_from_another_process(postgres_url: str) -> None:
    """A move made by another bot process on the same PostgreSQL database reaches an open
    page's event stream within 2 s."""
    async with site(postgres_url) as web:
        gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])
        slug = (await web.board.link(gid)).rsplit("/", 1)[1]
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{web.url}/api/games/{slug}/events") as events,
        ):
            first = json.loads((await events.content.readuntil(b"\n\n"))[6:])
            assert first["spectators"] == 1
            root = Path(__file__).resolve().parents[2]
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                _OTHER_PROCESS,
                postgres_url,
                str(gid),
                cwd=root,
                stdout=subprocess.PIPE,
            )
            out, _ = await process.communicate()
            moved_at = time.monotonic()
            assert out.startswith(b"True"), out
            change = json.loads(
                (await asyncio.wait_for(events.content.readuntil(b"\n\n"), 2.0))[6:]
            )
            assert time.monotonic() - moved_at < 2.0
            assert change["stamp"] != first["stamp"]
        row = await web.manager.store.get_game(gid)
        assert row is not None and row.ply == 2


async def test_a_damaged_game_has_no_page(web) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])
    link = await web.board.link(gid)
    slug = link.rsplit("/", 1)[1]
    await web.manager.store.mark_corrupt(gid, "test: damaged")
    for url in (link, f"{link}/board.png", f"{web.url}/api/games/{slug}"):
        status, _, body = await _get(url)
        assert status == 404 and b"no game at this address" in body, url
    status, answer = await _post(
        f"{web.url}/api/games/{slug}/moves",
        {"move": "b2", "ply": 1},
        {"Authorization": "tma " + init_data(BO, web.clock)},
    )
    assert status == 404 and "no game at this address" in answer["text"]


async def test_spectators_are_counted_over_processes(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two bot processes (each its own store and web board) on one PostgreSQL database: a page
    open on each, and both pages are told 2 are watching.

    Each process renews its count and reads the others' every ``live.COUNT_EVERY`` seconds
    (2 s in production), here 0.2 s: the same renewal, without waiting out the interval."""
    monkeypatch.setattr(live, "COUNT_EVERY", 0.2)
    async with site(postgres_url) as one, site(postgres_url) as two:
        gid = await new_game(one.manager, "pathagon", ADA, BO, TG_GROUP)
        slug = (await one.board.link(gid)).rsplit("/", 1)[1]
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"{one.url}/api/games/{slug}/events") as first,
            http.get(f"{two.url}/api/games/{slug}/events") as second,
        ):
            for stream in (first, second):
                while True:
                    line = await asyncio.wait_for(stream.content.readuntil(b"\n\n"), 5.0)
                    if json.loads(line[6:])["spectators"] == 2:
                        break
            status, _, raw = await _get(f"{two.url}/api/games/{slug}")
            assert status == 200 and json.loads(raw)["spectators"] == 2
