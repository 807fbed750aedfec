"""A spectator's page outlives the operator's proxy answering 502 while the bot restarts (issue 44,
"never frozen, never silent"; see :data:`DOWN_S`): in headless Chromium, behind a real HTTP proxy on
127.0.0.1 that cuts the event stream and answers 502 to everything for a while, then recovers;
the page says it is reconnecting and, from its first try once the proxy is back (at most 1.5 s
later), is live again and shows the next move within 2 s.

The restart's seconds pass on the page's own clock (Playwright's ``page.clock``: its timers, which
space the page's tries, fire as it is moved on), not in real time; the tries themselves are real
requests through the proxy.  Once the proxy is back the page's clock is moved on to its next try
(at most ``RETRY_MAX`` away), and from then on flows as real time does: the page is live again,
and shows the next move, within 2 s."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
import pytest
from aiohttp import web
from playwright.async_api import Browser, expect

from tests.bot.session_kit import eventually
from tests.web.kit import ADA, BO, TG_GROUP, Site, new_game, phone

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: How soon a move shows on a page whose stream is open (the issue's bound).
LIVE_MS = 2000
#: How long the proxy answers 502 (the issue's restart took 10 s), on the page's clock: long
#: enough for the page's wait between tries to reach its longest (``RETRY_MAX``, 1.5 s, after
#: about 4 s of tries), from when on a longer restart looks the same to the page.
DOWN_S = 5.0
#: The page's longest wait between tries (panel.js's ``RETRY_MAX``), in ms: moving its clock on
#: by that much fires the next try.
RETRY_MAX_MS = 1500


class Proxy:
    """A reverse proxy to ``upstream`` (streamed, like the operator's): while :attr:`broken`,
    every request is a 502 and every stream it was passing on is cut."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.broken = False
        self.refused = 0
        self._seen = 0
        self.url = ""
        self._open: dict[int, web.Request] = {}  # by id (requests are not hashable)
        self._http: aiohttp.ClientSession | None = None

    def breaks(self) -> None:
        """Answer 502 from now on, and cut what is being passed on."""
        self.broken = True
        for request in self._open.values():
            if request.transport is not None:
                request.transport.close()

    def tried_again(self) -> bool:
        """Whether a request was refused since this last said so."""
        again = self.refused > self._seen
        self._seen = self.refused
        return again

    async def _pass(self, request: web.Request) -> web.StreamResponse:
        if self.broken:
            self.refused += 1
            return web.Response(status=502, text="502 Bad Gateway")
        assert self._http is not None
        self._open[id(request)] = request
        try:
            async with self._http.request(
                request.method,
                self.upstream + request.path_qs,
                headers={k: v for k, v in request.headers.items() if k.lower() != "host"},
                data=await request.read(),
            ) as answer:
                response = web.StreamResponse(status=answer.status)
                for name in ("Content-Type", "Cache-Control", "Content-Security-Policy"):
                    if name in answer.headers:
                        response.headers[name] = answer.headers[name]
                await response.prepare(request)
                async for chunk in answer.content.iter_any():
                    if self.broken:
                        break
                    await response.write(chunk)
                return response
        except (ConnectionError, aiohttp.ClientError):
            return web.Response(status=502)
        finally:
            self._open.pop(id(request), None)

    @asynccontextmanager
    async def running(self) -> AsyncIterator[Proxy]:
        """The proxy listening on a free port of 127.0.0.1 (its address in :attr:`url`)."""
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._pass)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        async with aiohttp.ClientSession() as http:
            self._http = http
            try:
                yield self
            finally:
                await runner.cleanup()


async def test_the_page_reconnects_after_a_proxy_502(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1"])
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    async with Proxy(web.url).running() as proxy:
        page = await phone(browser)
        await page.clock.install()  # the page's time flows as real time does until moved on
        await page.goto(f"{proxy.url}/g/{slug}")
        watchers = page.locator("#watchers")
        await expect(watchers).to_have_text("1 watching")

        proxy.breaks()  # the bot restarts behind the proxy
        await expect(watchers).to_have_text("reconnecting…")
        broken_at: float = await page.evaluate("Date.now()")

        async def page_s() -> float:
            now: float = await page.evaluate("Date.now()")
            return (now - broken_at) / 1000

        # The page keeps trying (and is refused) for the whole restart, its wait between tries
        # at the longest by then: its clock moved on try after try, each a real request refused.
        proxy.tried_again()  # (the tries so far)
        while proxy.refused < 5 or await page_s() < DOWN_S:
            await page.clock.run_for(RETRY_MAX_MS)
            await eventually(proxy.tried_again, "the page trying again")
        await expect(watchers).to_have_text("reconnecting…")

        proxy.broken = False  # back
        # The page's next try is due at most RETRY_MAX after its last; on its clock that time
        # passes at once (in real time, under a loaded test machine, it ate the 2 s below).
        await page.clock.run_for(RETRY_MAX_MS)
        await expect(watchers).to_have_text("1 watching", timeout=LIVE_MS)
        await web.manager.games.move(BO, TG_GROUP, "b2", gid, 1)
        await expect(page.locator("#moves li")).to_have_count(2, timeout=LIVE_MS)
        await expect(page.locator("#moves li").last).to_have_text("b2")
        await page.context.close()
