"""The web board's listener holds against one greedy or careless client (issue 44): event
streams capped per address and in all, malformed bodies refused with a 400, ``X-Forwarded-For``
believed only from the operator's proxies, the security headers on every answer, downloads
rendered once however many ask at once.  Real aiohttp server and client on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import pytest

from bot.webboard.limits import STREAMS_PER_ADDRESS, STREAMS_RETRY_AFTER, Streams
from tests.web.kit import ADA, BO, TG_GROUP, Site, new_game

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
    async with asyncio.timeout(5):
        while web.board.streams.total:
            await asyncio.sleep(0.01)
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
