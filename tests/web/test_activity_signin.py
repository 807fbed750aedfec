"""The Discord Activity's sign-in endpoint (``POST /api/activity/session``) over HTTP, against
the fake OAuth2 token endpoint: the code exchanged for the person's identity and their games
(the one they just opened first, then this channel's), every malformed body a 400, a code
Discord refuses a 401, Discord out of reach a 502, too many sign-ins a 429, the client secret
never logged nor sent anywhere but the token endpoint's form; with the Activity off, neither the
page nor the endpoint exists."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.core import i18n
from bot.messages import Chat, User
from bot.sessions import texts
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import LanguageKind, open_store
from bot.webboard import WebBoard, serve_web
from bot.webboard.activity import ActivityConfig
from tests.fakes.discord_oauth import FakeDiscordOAuth, OAuthUser
from tests.web.kit import CY, DC_CHANNEL, DI, new_game

pytestmark = pytest.mark.asyncio(loop_scope="session")

ELSEWHERE = Chat("discord", "3999", community="4001")
EV = User("discord", "2077", "Ev")


@asynccontextmanager
async def board(
    path: Path, oauth: FakeDiscordOAuth | None, *, secret: str | None = None, url: str = ""
) -> AsyncIterator[tuple[SessionManager, str]]:
    """A manager with its web board (the Activity on when ``oauth`` is given), and its URL."""
    store = await open_store(str(path))
    manager = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
    config = None
    if oauth is not None:
        config = ActivityConfig(
            oauth.client_id, secret or oauth.client_secret, url or oauth.api_base
        )
    web = WebBoard(manager, "http://127.0.0.1", link_secret="secret", activity=config)
    endpoint = await serve_web(web, "127.0.0.1", 0)
    web.public_url = f"http://127.0.0.1:{endpoint.port}"
    manager.web_pages = web
    try:
        yield manager, web.public_url
    finally:
        await endpoint.close()
        await manager.close()
        await store.close()


async def _sign_in(url: str, body: Any, raw: bytes | None = None) -> tuple[int, Any]:
    async with aiohttp.ClientSession() as http:
        kwargs: dict[str, Any] = {"data": raw} if raw is not None else {"json": body}
        async with http.post(f"{url}/api/activity/session", **kwargs) as answer:
            return answer.status, await answer.json()


async def test_a_code_signs_the_player_in_with_their_games_in_order(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (manager, url):
        here = await new_game(manager, "pathagon", CY, DI, DC_CHANNEL)
        there = await new_game(manager, "pathagon", CY, DI, ELSEWHERE)
        launched = await new_game(manager, "isopath", CY, DI, ELSEWHERE)
        watched = await new_game(manager, "pathagon", DI, EV, DC_CHANNEL)
        manager.web.launched(CY, launched)
        code = oauth.issue(OAuthUser(int(CY.user_id), "cy", "Cy"))
        status, body = await _sign_in(url, {"code": code, "channel": DC_CHANNEL.chat_id})
        assert status == 200, body
        assert body["user"] == {"id": CY.user_id, "name": "Cy"}
        assert body["access_token"]
        ids = [g["id"] for g in body["games"]]
        assert ids[:2] == [launched, here] and set(ids) == {launched, here, there}
        assert watched not in ids  # not theirs, and not the one they opened
        first = body["games"][0]
        assert first["path"].startswith("/g/") and first["token"]
        assert [g["here"] for g in body["games"]] == [False, True, False]
        # The code is good once.
        status, again = await _sign_in(url, {"code": code})
        assert status == 401 and again["text"] == str(texts.activity_code_refused())


async def test_a_spectator_gets_the_game_they_opened_to_watch(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (manager, url):
        gid = await new_game(manager, "pathagon", CY, DI, DC_CHANNEL)
        manager.web.launched(EV, gid)
        status, body = await _sign_in(url, {"code": oauth.issue(OAuthUser(int(EV.user_id), "ev"))})
        assert status == 200, body
        (game,) = body["games"]
        assert game["id"] == gid and game["token"] is None and game["path"].startswith("/g/")
        assert "Cy v Di" in game["label"]


async def test_no_games_is_said(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (_, url):
        status, body = await _sign_in(url, {"code": oauth.issue(OAuthUser(5, "new"))})
        assert status == 200 and body["games"] == []
        assert body["text"] == str(texts.activity_no_games())


async def test_the_answer_is_in_the_players_discord_language(tmp_path: Path) -> None:
    """Discord's ``locale`` (the user's chosen language) says the list; a stored ``settings
    language`` wins over it."""
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (manager, url):
        code = oauth.issue(OAuthUser(5, "new", locale="ja"))
        status, body = await _sign_in(url, {"code": code})
        with i18n.use("ja"):
            assert status == 200 and body["text"] == str(texts.activity_no_games())
        await manager.store.set_language("discord", LanguageKind.CHOSEN, "5", "de")
        status, body = await _sign_in(url, {"code": oauth.issue(OAuthUser(5, "new", locale="ja"))})
        with i18n.use("de"):
            assert status == 200 and body["text"] == str(texts.activity_no_games())


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[]",
        b"[" * 2048,
        b'{"code": 7}',
        b'{"code": ""}',
        b'{"code": "' + b"x" * 300 + b'"}',
        b'{"code": "c", "channel": "general"}',
        b'{"code": "c", "channel": ["1"]}',
        b'{"code": "' + b"x" * 2000 + b'"}',
    ],
)
async def test_malformed_sign_ins_are_a_400(tmp_path: Path, raw: bytes) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (_, url):
        status, body = await _sign_in(url, None, raw)
        assert status == 400
        assert body == {"ok": False, "text": str(texts.activity_bad_request())}
        assert not oauth.calls


async def test_a_wrong_client_secret_is_refused_and_never_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    wrong = "not-the-secret-123"
    async with (
        FakeDiscordOAuth() as oauth,
        board(tmp_path / "a.db", oauth, secret=wrong) as (_, url),
    ):
        status, body = await _sign_in(url, {"code": oauth.issue(OAuthUser(5, "x"))})
        assert status == 401 and body["text"] == str(texts.activity_code_refused())
        (call,) = oauth.calls_to("oauth2/token")
        assert call.response == 401
    assert wrong not in caplog.text


async def test_discord_out_of_reach_is_a_502(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth:
        closed = oauth.api_base
    async with board(tmp_path / "a.db", oauth, url=closed) as (_, url):
        status, body = await _sign_in(url, {"code": "abc"})
        assert status == 502 and body["text"] == str(texts.activity_unavailable())


async def test_sign_ins_are_limited_per_address(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (_, url):
        statuses = [(await _sign_in(url, {"code": f"c{i}"}))[0] for i in range(7)]
        assert statuses[:5] == [401] * 5 and statuses[5:] == [429, 429]


async def test_without_the_activity_there_is_no_page_nor_sign_in(tmp_path: Path) -> None:
    async with board(tmp_path / "a.db", None) as (_, url), aiohttp.ClientSession() as http:
        async with http.get(f"{url}/") as page:
            assert page.status == 404
        async with http.post(f"{url}/api/activity/session", json={"code": "c"}) as answer:
            assert answer.status == 404
            assert (
                "frame-ancestors 'self' https://web.telegram.org"
                in answer.headers["Content-Security-Policy"]
            )


async def test_a_sign_in_sent_in_small_pieces_is_read_whole(tmp_path: Path) -> None:
    async with FakeDiscordOAuth() as oauth, board(tmp_path / "a.db", oauth) as (_, url):
        code = oauth.issue(OAuthUser(5, "new"))
        body = json.dumps({"code": code, "channel": "3001"}).encode()

        async def pieces() -> AsyncIterator[bytes]:
            for i in range(0, len(body), 7):
                yield body[i : i + 7]

        async with (
            aiohttp.ClientSession() as http,
            http.post(f"{url}/api/activity/session", data=pieces()) as answer,
        ):
            assert answer.status == 200, await answer.text()
