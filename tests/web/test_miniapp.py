"""The web board as a Telegram Mini App, in real headless Chromium, against a fake Telegram host
that speaks Telegram's documented web events (core.telegram.org/api/web-events,
core.telegram.org/api/bots/webapps):

- a web client: a parent page that frames the app (the page's CSP lets Telegram's web client
  frame it, so the fake parent is served at ``https://web.telegram.org/k/``, by Playwright
  itself: no connection leaves the machine), reads each event the app posts to it
  (``postMessage`` of ``{eventType, eventData}`` as JSON) and posts ``theme_changed``,
  ``main_button_pressed`` and ``back_button_pressed`` back into the frame;
- a phone app: it defines ``window.TelegramWebviewProxy.postEvent`` before the page runs (as
  the apps inject it) and calls ``window.Telegram.WebView.receiveEvent`` (as they evaluate
  it); ``window.Telegram.WebApp`` (Telegram's script) is never there.

The launch parameters are in the address's fragment as Telegram puts them (``tgWebAppData``,
``tgWebAppStartParam``, ``tgWebAppVersion``, ``tgWebAppPlatform``, ``tgWebAppThemeParams``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.async_api import Browser, BrowserContext, Frame, Page, Route, expect

from bot.sessions import texts
from tests.bot.session_kit import eventually
from tests.web.kit import ADA, BO, PHONE, TG_GROUP, Site, init_data, new_game

#: The move builder's prompt before any choice (what Back returns to).
START = str(texts.web_start_move())

pytestmark = pytest.mark.asyncio(loop_scope="session")

HOST = "https://web.telegram.org/k/"
DARK = {
    "bg_color": "#212121",
    "text_color": "#ffffff",
    "hint_color": "#aaaaaa",
    "link_color": "#8774e1",
    "button_color": "#8774e1",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#0f0f0f",
}
LIGHT = {
    "bg_color": "#ffffff",
    "text_color": "#000000",
    "hint_color": "#999999",
    "link_color": "#2481cc",
    "button_color": "#2481cc",
    "button_text_color": "#ffffff",
    "secondary_bg_color": "#efeff3",
}

# The fake web client: the app in a frame, every event it posts kept in ``window.events``,
# ``window.tell(type, data)`` posting one into it as Telegram's web client does.
_HOST_PAGE = """<!doctype html>
<html><head><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0">
<iframe id="app" src="{src}" style="border:0;width:100vw;height:100vh"></iframe>
<script>
window.events = [];
const app = document.getElementById("app");
window.addEventListener("message", (e) => {{
  if (e.source !== app.contentWindow) return;
  window.events.push(JSON.parse(e.data));
}});
window.tell = (type, data) =>
  app.contentWindow.postMessage(JSON.stringify({{eventType: type, eventData: data}}), "*");
</script>
</body></html>
"""


def _launch(web: Site, slug: str, platform: str, theme: dict[str, str]) -> str:
    """The address Telegram opens for ``t.me/<bot>/<app>?startapp=g_<slug>``: the app's entry
    with the launch parameters in the fragment."""
    fragment = urlencode(
        {
            "tgWebAppData": init_data(ADA, web.clock),
            "tgWebAppStartParam": f"g_{slug}",
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": platform,
            "tgWebAppThemeParams": json.dumps(theme),
        }
    )
    return f"{web.url}/app#{fragment}"


class Requests:
    """Every request the browser makes; any to somewhere else than the bot (and the fake
    host's own page) is refused there and kept in :attr:`outside`."""

    def __init__(self, web: Site) -> None:
        self.web = web
        self.seen: list[str] = []
        self.outside: list[str] = []

    async def watch(self, context: BrowserContext, host_page: str | None = None) -> None:
        """Route ``context``'s requests through :meth:`_route` (``host_page``: what the fake
        web client's address answers)."""

        async def route(r: Route) -> None:
            url = r.request.url
            self.seen.append(url)
            if host_page is not None and url == HOST:
                await r.fulfill(status=200, content_type="text/html", body=host_page)
            elif url.startswith(self.web.url + "/"):
                await r.continue_()
            else:
                self.outside.append(url)
                await r.abort()

        await context.route("**/*", route)


async def _game(web: Site) -> tuple[int, str]:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    return gid, (await web.board.link(gid)).rsplit("/", 1)[1]


async def _colours(frame: Frame | Page) -> list[str]:
    return list(
        await frame.evaluate(
            "[getComputedStyle(document.body).backgroundColor,"
            " getComputedStyle(document.body).color]"
        )
    )


def _posted(events: list[dict[str, Any]], kind: str) -> list[Any]:
    return [e.get("eventData") for e in events if e.get("eventType") == kind]


async def _board_frame(page: Page, web: Site) -> Frame:
    async def found() -> bool:
        return any(f.url.startswith(f"{web.url}/g/") for f in page.frames)

    await eventually(found, "the game's page in the frame")
    return next(f for f in page.frames if f.url.startswith(f"{web.url}/g/"))


async def test_in_telegrams_web_client(browser: Browser, web: Site) -> None:
    gid, slug = await _game(web)
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    # The bot is on 127.0.0.1 here: Chromium asks before a public page (the web client)
    # frames a local address (Local Network Access); a bot's real address is public.
    await context.grant_permissions(["local-network-access"], origin="https://web.telegram.org")
    requests = Requests(web)
    src = _launch(web, slug, "weba", DARK)
    await requests.watch(context, _HOST_PAGE.format(src=src.replace("&", "&amp;")))
    page = await context.new_page()
    await page.goto(HOST)
    frame = await _board_frame(page, web)

    async def events() -> list[dict[str, Any]]:
        return list(await page.evaluate("window.events"))

    async def has(kind: str, want: Callable[[Any], bool], since: int) -> bool:
        return any(want(d) for d in _posted((await events())[since:], kind))

    async def wait(kind: str, want: Callable[[Any], bool] = lambda _: True, since: int = 0) -> None:
        await eventually(lambda: has(kind, want, since), kind)

    # Ready once the board is drawn, then opened full height; the theme's colours are the page's.
    await wait("web_app_ready")
    await wait("web_app_expand")
    seen = [e["eventType"] for e in await events()]
    assert seen.index("web_app_ready") < seen.index("web_app_expand")
    assert await frame.locator("[data-cell]").count() == 49
    assert await _colours(frame) == ["rgb(33, 33, 33)", "rgb(255, 255, 255)"]
    await expect(frame.locator("#send")).to_be_hidden()  # Play is the MainButton here
    await page.evaluate("([t, d]) => window.tell(t, d)", ["theme_changed", {"theme_params": LIGHT}])
    await eventually(
        lambda: _is(_colours(frame), ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]), "the light theme"
    )

    # A tap builds the move: a haptic tick, the MainButton shows it, Back and the closing
    # confirmation come with it.
    await frame.locator('[data-cell="d4"]').tap()
    await wait("web_app_setup_main_button", lambda d: d["is_visible"] and "d4" in d["text"])
    await wait("web_app_trigger_haptic_feedback", lambda d: d["type"] == "selection_change")
    await wait("web_app_setup_back_button", lambda d: d["is_visible"])
    await wait("web_app_setup_closing_behavior", lambda d: d["need_confirmation"])
    # The finger on the board turned vertical swipes off, and on again once lifted.
    swipes = _posted(await events(), "web_app_setup_swipe_behavior")
    assert swipes[:2] == [{"allow_vertical_swipe": False}, {"allow_vertical_swipe": True}]
    # BackButton steps back: the part is taken back, the MainButton hidden.
    mark = len(await events())
    await page.evaluate("window.tell('back_button_pressed', null)")
    await expect(frame.locator("#prompt")).to_have_text(START)
    await wait("web_app_setup_main_button", lambda d: not d["is_visible"], mark)
    await wait("web_app_setup_back_button", lambda d: not d["is_visible"], mark)
    await wait("web_app_setup_closing_behavior", lambda d: not d["need_confirmation"], mark)
    assert await web.manager.store.moves(gid) == []
    # The client reloads the frame (its menu's "Reload Page"): the app says so, comes back
    # signed in.
    mark = len(await events())
    await page.evaluate("window.tell('reload_iframe', null)")
    await wait("iframe_will_reload", since=mark)
    await wait("web_app_ready", since=mark)
    await expect(frame.locator("#turn")).to_contain_text("Your turn")

    # The MainButton plays the move: it reaches the game, a success haptic follows.
    mark = len(await events())
    await frame.locator('[data-cell="d4"]').tap()
    await wait("web_app_setup_main_button", lambda d: d["is_visible"] and "d4" in d["text"], mark)
    mark = len(await events())
    await page.evaluate("window.tell('main_button_pressed', null)")
    await expect(frame.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == ["d4"]

    def success(d: dict[str, Any]) -> bool:
        return d.get("notification_type") == "success"

    await wait("web_app_trigger_haptic_feedback", success, mark)
    await wait("web_app_setup_main_button", lambda d: not d["is_visible"], mark)

    # Every request of the app went to the bot's own origin.
    assert requests.outside == []
    app_requests = [u for u in requests.seen if u != HOST]
    assert app_requests and all(u.startswith(web.url + "/") for u in app_requests)
    await context.close()


async def _is(got: Awaitable[list[str]], want: list[str]) -> bool:
    return await got == want


async def test_in_telegrams_phone_app(browser: Browser, web: Site) -> None:
    gid, slug = await _game(web)
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    requests = Requests(web)
    await requests.watch(context)
    posted: list[dict[str, Any]] = []

    def post(_: Any, kind: str, data: str) -> None:
        posted.append({"eventType": kind, "eventData": json.loads(data) if data else None})

    # What the app injects into its web view: the events' receiver.
    await context.expose_binding("hexhallTestPost", post)
    await context.add_init_script(
        "window.TelegramWebviewProxy = {postEvent: (t, d) => window.hexhallTestPost(t, d)};"
    )
    page = await context.new_page()
    await page.goto(_launch(web, slug, "android", LIGHT))
    await expect(page).to_have_url(re.compile(rf"/g/{slug}#"))

    def wait(kind: str, want: Callable[[Any], bool] = lambda _: True, since: int = 0) -> Any:
        return eventually(lambda: any(want(d) for d in _posted(posted[since:], kind)), kind)

    await wait("web_app_ready")
    await wait("web_app_expand")
    assert await page.evaluate("window.Telegram.WebApp === undefined")
    assert await _colours(page) == ["rgb(255, 255, 255)", "rgb(0, 0, 0)"]
    receive = "([t, d]) => window.Telegram.WebView.receiveEvent(t, d)"
    await page.evaluate(receive, ["theme_changed", {"theme_params": DARK}])
    await eventually(
        lambda: _is(_colours(page), ["rgb(33, 33, 33)", "rgb(255, 255, 255)"]), "the dark theme"
    )
    # Fullscreen: the safe area and Telegram's own controls are kept clear.
    await page.evaluate(receive, ["safe_area_changed", {"top": 24, "bottom": 16}])
    await page.evaluate(receive, ["content_safe_area_changed", {"top": 46}])
    pads = await page.evaluate(
        "['paddingTop', 'paddingBottom'].map(p => getComputedStyle(document.body)[p])"
    )
    assert pads == ["70px", "16px"]

    await page.locator('[data-cell="c3"]').tap()
    await wait("web_app_setup_main_button", lambda d: d["is_visible"] and "c3" in d["text"])
    await wait("web_app_setup_back_button", lambda d: d["is_visible"])
    mark = len(posted)
    await page.evaluate(receive, ["back_button_pressed", None])
    await wait("web_app_setup_main_button", lambda d: not d["is_visible"], mark)
    await expect(page.locator("#prompt")).to_have_text(START)
    await page.locator('[data-cell="e5"]').tap()
    await wait("web_app_setup_main_button", lambda d: d["is_visible"] and "e5" in d["text"])
    await page.evaluate(receive, ["main_button_pressed", None])
    await expect(page.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == ["e5"]
    assert requests.outside == []
    assert all(u.startswith(web.url + "/") for u in requests.seen)
    await context.close()


async def test_outside_telegram_nothing_is_posted(browser: Browser, web: Site) -> None:
    """Opened in a browser (a Discord player's link): no Telegram, the page's own Play."""
    _, slug = await _game(web)
    page = await (await browser.new_context(viewport=PHONE)).new_page()
    await page.goto(f"{web.url}/g/{slug}")
    await expect(page.locator("[data-cell]").first).to_be_visible()
    assert await page.evaluate("window.HexhallHost.inTelegram") is False
    assert not await page.evaluate("document.documentElement.classList.contains('tg')")
    await page.context.close()


async def test_an_older_app_through_window_external(browser: Browser, web: Site) -> None:
    """An app that exposes ``window.external.notify`` (Windows phone) and says it speaks version
    6.0: the events arrive there as JSON ``{eventType, eventData}``, and the methods newer than
    6.0 (BackButton, haptics, closing confirmation, swipes) are not posted to it."""
    gid, slug = await _game(web)
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    notified: list[dict[str, Any]] = []
    await context.expose_binding("hexhallTestNotify", lambda _, d: notified.append(json.loads(d)))
    await context.add_init_script("window.external = {notify: (d) => window.hexhallTestNotify(d)};")
    page = await context.new_page()
    launch = _launch(web, slug, "wp", LIGHT).replace("tgWebAppVersion=8.0", "tgWebAppVersion=6.0")
    await page.goto(launch)
    await expect(page.locator("#turn")).to_contain_text("Your turn")
    await eventually(lambda: "web_app_expand" in [e["eventType"] for e in notified], "expand")
    await page.locator('[data-cell="d4"]').tap()
    await eventually(lambda: bool(_posted(notified, "web_app_setup_main_button")), "MainButton")
    assert _posted(notified, "web_app_setup_main_button")[-1]["text"].endswith("d4")
    newer = {
        "web_app_setup_back_button",
        "web_app_trigger_haptic_feedback",
        "web_app_setup_closing_behavior",
        "web_app_setup_swipe_behavior",
        "web_app_request_safe_area",
    }
    assert newer.isdisjoint(e["eventType"] for e in notified), notified
    assert await web.manager.store.moves(gid) == []
    await context.close()
