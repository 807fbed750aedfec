"""The board inside Discord (the Discord Activity) in a real headless Chromium at a phone's size:
the player presses the board's "Open board" in the channel (the real Discord adapter on the fake
Discord answers with ``LAUNCH_ACTIVITY``), the Activity's page starts the Embedded App SDK (the
SDK's own ``DiscordSDKMock``, chosen because this test's board says so), signs in with the SDK's
OAuth2 code, which the bot exchanges at the fake OAuth2 token endpoint for the player's
identity, then shows the game's board and the player taps a move, which reaches the channel
through the outbox.

The mock's ``authorize`` answers the code ``mock_code`` (the SDK's own default), so the fake
token endpoint is told that code is the mover's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.async_api import Browser, Page, Route, expect

from bot.adapters.discord.format import PLATFORM
from bot.messages import User
from tests.adapters.discord_kit import CHANNEL, GUILD, button
from tests.fakes.discord_fake import ResponseKind
from tests.fakes.discord_oauth import OAuthUser
from tests.web.activity_kit import Activity, activity
from tests.web.kit import PHONE

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: The code DiscordSDKMock's authorize answers.
MOCK_CODE = "mock_code"
#: The bound on a web move's way to the channel (issue 42's figure): waited on, never slept.
WITHIN = 2.0


async def _phone(browser: Browser) -> tuple[Page, list[str]]:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = await context.new_page()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    return page, asked


async def _first_cell_move(site: Activity, game_id: int) -> tuple[str, int]:
    view = await site.run.manager.web.web_view(game_id)
    assert view is not None
    names = set(view.position.board.names)
    move = next(m for m in view.position.legal_moves() if m in names)
    return move, view.row.ply


async def test_an_activity_signs_in_and_plays_a_move_that_reaches_the_channel(
    browser: Browser, tmp_path: Path
) -> None:
    async with activity(tmp_path / "a.db") as site:
        fake, run = site.fake, site.run
        gid, board = await site.game()
        mover = await run.to_move(gid)
        # "Open board" launches the Activity (callback type 12), on this game.
        record = await fake.click(mover, board, button(board, "Open board"))
        response = await fake.response(record)
        assert response.type == ResponseKind.LAUNCH_ACTIVITY
        assert [r.id for r, _ in fake.launched] == [record.id]
        assert run.manager.web.launched_game(User(PLATFORM, str(mover), "")) == gid

        site.oauth.issue(OAuthUser(mover, "mover", "The Mover"), MOCK_CODE)
        move, ply = await _first_cell_move(site, gid)
        page, asked = await _phone(browser)
        # Discord opens the Activity at the URL mapping's root with its launch parameters.
        opened = await page.goto(f"{site.url}/?channel_id={CHANNEL}&guild_id={GUILD}")
        assert opened is not None
        csp = opened.headers["content-security-policy"]
        assert "frame-ancestors 'self' https://discord.com" in csp
        assert "telegram" not in csp
        await expect(page.locator("#play")).to_be_visible()
        await expect(page.locator("h1")).to_contain_text(f"#{gid}")

        before = {m.id for m in fake.messages_in(CHANNEL)}
        cell = page.locator(f'[data-cell="{move}"]')
        await expect(cell).to_have_class(re.compile(r"\bcan\b"))
        await cell.tap()
        await expect(page.locator("#send")).to_be_enabled()
        await page.locator("#send").tap()
        await expect(page.locator("#moves li")).to_have_count(ply + 1)

        def posted() -> list[str]:
            new = [m for m in fake.messages_in(CHANNEL) if m.id not in before]
            return [m.content for m in new if move in m.content + str(m.embeds)]

        await fake.wait_until(lambda: bool(posted()), timeout=WITHIN)
        stored = await run.manager.web.web_view(gid)
        assert stored is not None and stored.moves[-1] == move
        # Signed in through the token endpoint once, with the code the SDK gave, and no
        # request of the page left the bot's origin.
        tokens = site.oauth.calls_to("oauth2/token")
        assert [c.data.get("code") for c in tokens] == [MOCK_CODE]
        assert all("client_secret" not in c.data for c in tokens)
        assert asked and all(u.startswith(site.url + "/") for u in asked), asked
        await page.context.close()


async def test_the_activity_opens_the_launched_game_among_several(
    browser: Browser, tmp_path: Path
) -> None:
    async with activity(tmp_path / "a.db") as site:
        fake, run = site.fake, site.run
        first, board = await site.game()
        second, _ = await site.game("isopath")
        mover = await run.to_move(first)
        # The newest game would come first in the list; the one pressed opens.
        record = await fake.click(mover, board, button(board, "Open board"))
        assert (await fake.response(record)).type == ResponseKind.LAUNCH_ACTIVITY
        site.oauth.issue(OAuthUser(mover, "mover"), MOCK_CODE)
        page, _ = await _phone(browser)
        await page.goto(f"{site.url}/?channel_id={CHANNEL}&guild_id={GUILD}")
        await expect(page.locator("h1")).to_contain_text(f"#{first}")
        box = await page.locator("#games a").first.bounding_box()
        assert box is not None and box["height"] >= 44  # a tap target
        # The other game is one tap away: the page starts again and signs in again (Discord's
        # authorize gives a fresh code each time; the mock's is always the same one).
        site.oauth.issue(OAuthUser(mover, "mover"), MOCK_CODE)
        await page.locator("#games a", has_text=f"#{second}").tap()
        await expect(page.locator("h1")).to_contain_text(f"#{second}")
        if await run.to_move(second) == mover:
            await expect(page.locator("#play")).to_be_visible()
        assert [c.response for c in site.oauth.calls_to("oauth2/token")] == [200, 200]
        await page.context.close()


async def test_outside_discord_the_page_says_so(browser: Browser, tmp_path: Path) -> None:
    async with activity(tmp_path / "a.db", mock=False) as site:
        page, asked = await _phone(browser)
        await page.goto(f"{site.url}/")
        await expect(page.locator("#status")).to_have_text(
            "This page is the board inside Discord: open it from the game's Open board button."
        )
        assert not any("/api/activity" in u for u in asked)
        assert not site.oauth.calls
        await page.context.close()


#: The fake Discord client (the Activity's parent frame): the Embedded App SDK's RPC as the
#: SDK speaks it (HANDSHAKE answered by the READY dispatch, AUTHORIZE by a code, AUTHENTICATE
#: by the session), every message from the Activity's origin only.
_HOST = """<!doctype html><html><body>
<iframe id="activity" src="%(src)s" width="390" height="800"></iframe>
<script>
const frame = document.getElementById("activity");
const origin = "%(origin)s";
window.rpc = [];
window.addEventListener("message", (event) => {
  if (event.origin !== origin || !Array.isArray(event.data)) return;
  const [op, data] = event.data;
  window.rpc.push(op === 0 ? "HANDSHAKE " + data.client_id : data.cmd);
  const reply = (payload) => frame.contentWindow.postMessage([1, payload], origin);
  if (op === 0) {
    reply({cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1,
      config: {api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (data.cmd === "AUTHORIZE") {
    reply({cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: "%(code)s"}});
  } else if (data.cmd === "AUTHENTICATE") {
    reply({cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {
      access_token: data.args.access_token, scopes: ["identify"], expires: "2030-01-01",
      user: {id: "%(user)s", username: "mover", discriminator: "0", public_flags: 0},
      application: {id: "%(client)s", name: "Hexhall", description: ""}}});
  }
});
</script></body></html>"""


async def test_the_real_sdk_in_a_discord_like_frame(browser: Browser, tmp_path: Path) -> None:
    """Without the mock: the SDK itself, in an iframe of https://<app id>.discordsays.com
    (every request of it proxied to the bot, as Discord's URL mapping ``/`` does) inside a
    page of https://discord.com that answers the SDK's RPC as the Discord client does.
    Chromium denies such a frame of another site its storage: the board keeps the player's
    token in the page's memory then (activity.js), and still plays."""
    async with activity(tmp_path / "a.db", mock=False) as site:
        fake, run = site.fake, site.run
        gid, board = await site.game()
        mover = await run.to_move(gid)
        record = await fake.click(mover, board, button(board, "Open board"))
        assert (await fake.response(record)).type == ResponseKind.LAUNCH_ACTIVITY
        code = site.oauth.issue(OAuthUser(mover, "mover"))
        client = site.oauth.client_id
        origin = f"https://{client}.discordsays.com"
        launch = f"frame_id=f1&instance_id=i1&platform=desktop&channel_id={CHANNEL}"
        host = _HOST % {
            "src": f"{origin}/?{launch}", "origin": origin, "code": code,
            "user": mover, "client": client,
        }  # fmt: skip
        context = await browser.new_context(viewport={"width": 420, "height": 844})
        page = await context.new_page()
        proxied: list[str] = []

        async def discord_client(route: Route) -> None:
            await route.fulfill(body=host, content_type="text/html")

        async def discord_proxy(route: Route) -> None:
            path = route.request.url.removeprefix(origin)
            proxied.append(path)
            if "/events" in path:  # (a stream never ends: the proxy here only buffers)
                await route.abort()
                return
            await route.fulfill(response=await route.fetch(url=site.url + path))

        await page.route("https://discord.com/**", discord_client)
        await page.route(f"{origin}/**", discord_proxy)
        await page.goto("https://discord.com/channels/1000/1001")
        activity_frame = page.frame_locator("#activity")
        await expect(activity_frame.locator("#play")).to_be_visible()
        await expect(activity_frame.locator("h1")).to_contain_text(f"#{gid}")
        rpc = await page.evaluate("window.rpc")
        assert rpc[:3] == [f"HANDSHAKE {client}", "AUTHORIZE", "AUTHENTICATE"], rpc
        assert proxied[0].startswith("/?frame_id=f1") and "/api/activity/session" in proxied
        move, ply = await _first_cell_move(site, gid)
        await activity_frame.locator(f'[data-cell="{move}"]').click()  # (a desktop client)
        await activity_frame.locator("#send").click()
        await expect(activity_frame.locator("#moves li")).to_have_count(ply + 1)
        stored = await run.manager.web.web_view(gid)
        assert stored is not None and stored.moves[-1] == move
        await context.close()
