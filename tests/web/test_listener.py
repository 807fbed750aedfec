"""The web board's listener holds against one greedy or careless client (issue 44): event
streams capped per address and in all, malformed bodies refused with a 400, ``X-Forwarded-For``
believed only from the operator's proxies, the security headers on every answer, downloads
rendered once however many ask at once.  Real aiohttp server and client on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import render
from bot.config import settings as settings_from_env
from bot.webboard import assets
from bot.webboard.limits import STREAMS_PER_ADDRESS, STREAMS_RETRY_AFTER, Streams
from bot.webboard.server import SECURITY_HEADERS
from tests.bot.session_kit import eventually
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, new_game, site

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _slug(web: Site, game: str = "pathagon", moves: tuple[str, ...] = ()) -> str:
    gid = await new_game(web.manager, game, ADA, BO, TG_GROUP, moves)
    return (await web.board.link(gid)).rsplit("/", 1)[1]


@contextlib.asynccontextmanager
async def _many() -> AsyncIterator[aiohttp.ClientSession]:
    """A client that opens as many connections at once as it is asked to."""
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        yield http


async def test_event_streams_are_capped_per_address(web: Site) -> None:
    slug = await _slug(web)
    events = f"{web.url}/api/games/{slug}/events"
    opened: list[aiohttp.ClientResponse] = []
    refused: list[tuple[str | None, str]] = []
    async with _many() as http:

        async def one() -> None:
            answer = await http.get(events)
            if answer.status == 200:
                opened.append(answer)  # held open until the end of the test
            else:
                assert answer.status == 429
                refused.append((answer.headers.get("Retry-After"), await answer.text()))
                answer.release()

        try:
            await asyncio.gather(*(one() for _ in range(300)))
            assert len(opened) == STREAMS_PER_ADDRESS == web.board.streams.open("127.0.0.1")
            assert len(refused) == 300 - STREAMS_PER_ADDRESS
            after, text = refused[0]
            assert after == str(STREAMS_RETRY_AFTER) and "Too many live pages" in text
            assert len(text) < 100 and "Traceback" not in text
            # The page and the API still answer, at once, while the streams are held.
            page = await asyncio.wait_for(http.get(f"{web.url}/g/{slug}"), 1.0)
            assert page.status == 200
            page.release()
            api = await asyncio.wait_for(http.get(f"{web.url}/api/games/{slug}"), 1.0)
            assert api.status == 200
            api.release()
        finally:
            for answer in opened:
                answer.close()
    # The streams closed by their pages are given back: the address may open pages again.
    await eventually(lambda: not web.board.streams.total, "the streams given back", timeout=5)
    async with aiohttp.ClientSession() as http, http.get(events) as answer:
        assert answer.status == 200
        assert (await answer.content.readline()).startswith(b"data: ")


async def test_event_streams_are_capped_in_all(web: Site) -> None:
    web.board.streams = Streams(per_address=10, total=3)
    slug = await _slug(web)
    events = f"{web.url}/api/games/{slug}/events"
    async with _many() as http:
        held = [await http.get(events) for _ in range(3)]
        try:
            assert [a.status for a in held] == [200, 200, 200]
            async with http.get(events) as answer:
                assert answer.status == 429
            async with http.get(f"{web.url}/api/games/{slug}") as answer:
                assert answer.status == 200 and json.loads(await answer.read())["slug"] == slug
        finally:
            for answer in held:
                answer.close()


# Any JSON value at all, and some that are not JSON (NaN, lone surrogates, bare words).
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
_MOVE_BODIES = st.one_of(
    _JSON.map(json.dumps),
    st.fixed_dictionaries(
        {"move": _JSON, "ply": _JSON}, optional={"confirm": _JSON, "x": _JSON}
    ).map(json.dumps),
    st.binary(max_size=64).map(lambda raw: raw.decode("latin-1")),
    st.integers(1, 5000).map(lambda depth: "[" * depth),
    st.integers(1, 3000).map(lambda depth: '{"move":' * depth),
    st.integers(1, 3000).map(lambda depth: '{"move": "' + "a" * depth + '", "ply": 0}'),
    st.sampled_from(['{"move": "\\ud800", "ply": 0}', '{"move": "a1", "ply": NaN}', "[]"]),
)


@pytest_asyncio.fixture(loop_scope="session")
async def lenient(tmp_path: Path) -> AsyncIterator[tuple[Site, str]]:
    """A board with its rate limits wide open (so that every body reaches the parser), and
    the slug of a game on it."""
    wide = (1e6, 10**6)
    async with site(str(tmp_path / "hexhall.db"), address_rate=wide, player_rate=wide) as web:
        yield web, await _slug(web)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(body=_MOVE_BODIES, signed=st.booleans())
@example(body="[" * 2048, signed=False)  # the body: nested past the decoder's depth
@example(body='{"move":' * 255, signed=True)
@example(body='{"move": ' + "[" * 1000 + "]" * 1000 + ', "ply": 0}', signed=True)
async def test_a_malformed_body_is_a_400_never_a_500(
    lenient: tuple[Site, str], body: str, signed: bool
) -> None:
    web, slug = lenient
    headers = {"Authorization": "tma " + init_data(ADA, web.clock)} if signed else {}
    async with (
        aiohttp.ClientSession() as http,
        http.post(
            f"{web.url}/api/games/{slug}/moves",
            data=body.encode("utf-8", "surrogatepass"),
            headers=headers,
        ) as answer,
    ):
        raw = await answer.read()
        assert answer.status in (400, 401, 403, 409), (answer.status, raw[:300])
        shown = json.loads(raw)
        assert shown["ok"] is False and "Traceback" not in shown["text"]


async def test_an_oversized_body_is_a_400(web: Site) -> None:
    slug = await _slug(web)
    url = f"{web.url}/api/games/{slug}/moves"
    huge = json.dumps({"move": "a1", "ply": 0, "pad": "x" * 100_000}).encode()

    async def chunks() -> AsyncIterator[bytes]:
        for start in range(0, len(huge), 1000):
            yield huge[start : start + 1000]

    async with aiohttp.ClientSession() as http:
        for data in (huge, chunks()):  # told its length, and sent in chunks without one
            async with http.post(url, data=data) as answer:
                assert answer.status == 400
                assert json.loads(await answer.read())["ok"] is False


async def _streams(web: Site, slug: str, forwarded: list[str]) -> list[int]:
    """The status of an event stream opened with each ``X-Forwarded-For``, all held open
    together (and closed at the end)."""
    events = f"{web.url}/api/games/{slug}/events"
    async with _many() as http:
        answers = [await http.get(events, headers={"X-Forwarded-For": f}) for f in forwarded]
        for answer in answers:
            answer.close()
        return [answer.status for answer in answers]


async def test_forwarded_for_is_believed_only_from_named_proxies(web: Site) -> None:
    slug = await _slug(web)
    web.board.streams = Streams(per_address=2, total=100)
    clients = ["203.0.113.1", "203.0.113.2", "203.0.113.3"]
    # No proxy named (HEXHALL_TRUSTED_PROXIES unset): the header is the asker's own words, and
    # the peer (127.0.0.1) holds its two streams whatever it writes there.
    assert await _streams(web, slug, clients) == [200, 200, 429]
    # (the streams closed above are given back)
    await eventually(lambda: not web.board.streams.total, "the streams given back", timeout=5)

    # Behind the operator's proxy on this machine: each client has streams of its own, and a
    # client's own X-Forwarded-For (left of what the proxy appended) changes nothing.
    web.board.trusted_proxies = settings_from_env(
        {"HEXHALL_TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8"}
    ).web_trusted_proxies
    forged = [f"198.51.100.{n}, 203.0.113.9, 10.0.0.7" for n in range(3)]
    assert await _streams(web, slug, [*clients, *forged]) == [200] * 3 + [200, 200, 429]


async def test_security_headers_on_every_answer(web: Site) -> None:
    slug = await _slug(web, moves=("a1",))
    asks = [
        ("GET", f"/g/{slug}", 200),
        ("GET", f"/g/{slug}/record.txt", 200),
        ("GET", "/static/board.js", 200),
        ("GET", f"/api/games/{slug}", 200),
        ("GET", f"/api/games/{slug}/events", 200),
        ("GET", "/no/such/page", 404),  # the router's own 404
        ("GET", "/g/nosuchslugnosuchslug00", 404),  # a game's 404
        ("GET", "/api/games/nosuchslugnosuchslug00", 404),
        ("GET", f"/g/{slug}/nothing.bin", 404),
        ("GET", "/static/nothing.js", 404),
        ("DELETE", f"/api/games/{slug}", 405),
        ("POST", f"/api/games/{slug}/moves", 400),
    ]
    async with aiohttp.ClientSession() as http:
        for method, path, status in asks:
            async with http.request(method, web.url + path, data=b"[" * 2048) as answer:
                assert answer.status == status, path
                for name, value in SECURITY_HEADERS.items():
                    assert answer.headers.get(name) == value, (path, name)
                assert "aiohttp" not in answer.headers["Server"]
                assert "Python" not in answer.headers["Server"]


async def test_security_headers_on_a_failure(web: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    slug = await _slug(web)

    async def broken(game_id: int) -> None:
        raise RuntimeError("the database fell over")

    monkeypatch.setattr(web.manager.store, "get_game", broken)
    async with aiohttp.ClientSession() as http, http.get(f"{web.url}/api/games/{slug}") as answer:
        assert answer.status == 500
        assert "fell over" not in await answer.text()
        for name, value in SECURITY_HEADERS.items():
            assert answer.headers.get(name) == value, name


async def test_one_rendering_for_concurrent_downloads(
    web: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    slug = await _slug(web, moves=("a1", "b2", "c3", "d4"))
    calls: list[int] = []
    real = render.game_gif

    def counted(*args: Any, **kwargs: Any) -> bytes:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(render, "game_gif", counted)
    url = f"{web.url}/g/{slug}/game.gif"
    async with _many() as http:

        async def one() -> tuple[int, bytes]:
            async with http.get(url) as answer:
                return answer.status, await answer.read()

        answers = await asyncio.gather(*(one() for _ in range(32)))
    assert {status for status, _ in answers} == {200}
    assert len({body for _, body in answers}) == 1 and answers[0][1][:6] == b"GIF89a"
    assert len(calls) == 1 and web.board.renderings.made == 1
    # Asked again later: the one made is kept.
    async with aiohttp.ClientSession() as http, http.get(url) as answer:
        assert answer.status == 200 and len(calls) == 1


async def test_new_renderings_are_limited_per_address(tmp_path: Path) -> None:
    async with site(str(tmp_path / "hexhall.db"), download_rate=(1e-6, 2)) as web:
        one, two = await _slug(web, moves=("a1",)), await _slug(web, moves=("b2",))
        async with aiohttp.ClientSession() as http:
            for path in (f"/g/{one}/board.png", f"/g/{one}/game.gif"):
                async with http.get(web.url + path) as answer:
                    assert answer.status == 200
            async with http.get(f"{web.url}/g/{two}/board.png") as answer:
                assert answer.status == 429 and answer.headers["Retry-After"].isdigit()
                assert "Too many downloads" in await answer.text()
            # What is made already costs nothing: still served, as is the page.
            for path in (f"/g/{one}/game.gif", f"/g/{two}", f"/g/{two}/record.txt"):
                async with http.get(web.url + path) as answer:
                    assert answer.status == 200, path


async def test_watching_counts_distinct_spectators(web: Site) -> None:
    slug = await _slug(web)
    web.board.trusted_proxies = settings_from_env(
        {"HEXHALL_TRUSTED_PROXIES": "127.0.0.1"}
    ).web_trusted_proxies
    events = f"{web.url}/api/games/{slug}/events"
    # Three pages from one address, one from another, a player's own page from a third.
    pages = [("203.0.113.1", "")] * 3 + [("203.0.113.2", ""), ("203.0.113.3", "?player=1")]
    async with _many() as http:
        held = [
            await http.get(events + query, headers={"X-Forwarded-For": address})
            for address, query in pages
        ]
        try:
            assert {answer.status for answer in held} == {200}
            async with asyncio.timeout(5):
                for answer in held:  # every page is told the count (at last, 2)
                    while True:
                        line = await answer.content.readuntil(b"\n\n")
                        if json.loads(line[6:])["spectators"] == 2:
                            break
            async with http.get(f"{web.url}/api/games/{slug}") as answer:
                assert json.loads(await answer.read())["spectators"] == 2
            assert web.board.live.local(await _gid(web, slug)) == 2
        finally:
            for answer in held:
                answer.close()


async def _gid(web: Site, slug: str) -> int:
    gid = await web.manager.store.game_of_slug(slug)
    assert gid is not None
    return gid


async def test_text_is_compressed_and_static_files_are_versioned(web: Site) -> None:
    slug = await _slug(web, moves=("a1",))
    async with aiohttp.ClientSession(auto_decompress=False) as http:
        async with http.get(f"{web.url}/g/{slug}", headers={"Accept-Encoding": "gzip"}) as answer:
            raw = await answer.read()
            assert answer.headers["Content-Encoding"] == "gzip"
            html = gzip.decompress(raw).decode()
        for path in (f"/api/games/{slug}", assets.url("board.js")):
            async with http.get(web.url + path, headers={"Accept-Encoding": "gzip"}) as answer:
                assert answer.headers["Content-Encoding"] == "gzip", path
                gzip.decompress(await answer.read())
        # Never the event stream: each event leaves at once, as it is.
        events = f"{web.url}/api/games/{slug}/events"
        async with http.get(events, headers={"Accept-Encoding": "gzip"}) as answer:
            assert "Content-Encoding" not in answer.headers
            assert (await answer.content.readline()).startswith(b"data: ")
        # Without gzip asked for: plain.
        async with http.get(f"{web.url}/g/{slug}", headers={"Accept-Encoding": "identity"}) as a:
            assert "Content-Encoding" not in a.headers and b"<html" in await a.read()

        # The page names its script and style sheet by their content's hash; kept for good.
        for name in ("board.js", "board.css"):
            asset = assets.ASSETS[name]
            address = f"/static/{asset.version}/{name}"
            assert f'"{address}"' in html
            async with http.get(web.url + address, headers={"Accept-Encoding": "identity"}) as a:
                assert a.status == 200 and "immutable" in a.headers["Cache-Control"]
                body = await a.read()
                assert hashlib.sha256(body).hexdigest().startswith(asset.version)
            # An older page's address (another version) or the bare name: asked again each time.
            for stale in (f"/static/0123456789abcdef/{name}", f"/static/{name}"):
                async with http.get(web.url + stale) as answer:
                    assert answer.status == 200 and answer.headers["Cache-Control"] == "no-cache"
