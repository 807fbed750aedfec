"""Never frozen, never silent (issue 44), in real headless Chromium at 390×844: a Play whose
request fails (no connection, or the operator's proxy answering 502) is said on the page and
Play works again; the board's place is kept before it is drawn (no layout shift); a
64-character name wraps; every text reads at 4.5:1 or more in the light, dark and Telegram
colours (ratios computed from the computed styles, tests/web/contrast.js)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from bot.messages import User
from bot.sessions import texts
from tests.web.kit import ADA, BO, PHONE, TG_GROUP, Site, init_data, new_game
from tests.web.test_reconnect import Proxy

pytestmark = pytest.mark.asyncio(loop_scope="session")

CONTRAST = (Path(__file__).parent / "contrast.js").read_text()
#: WCAG 2's ratio for body text (AA).
AA = 4.5
FAILED = str(texts.web_play_failed())


def _signed(web: Site, user: User = ADA) -> str:
    """The fragment that signs ``user`` in as Telegram's launch would."""
    return "#" + urlencode({"tgWebAppData": init_data(user, web.clock)})


async def _player_page(browser: Browser, url: str, **options: Any) -> Page:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, **options)
    page = await context.new_page()
    await page.goto(url)
    await expect(page.locator("#turn")).to_contain_text("Your turn")
    return page


async def _build(page: Page, cell: str) -> None:
    await page.locator(f'[data-cell="{cell}"]').tap()
    await expect(page.locator("#prompt")).to_have_text(f"{cell}: play it.")


async def test_a_play_without_connection_is_said_and_play_works_again(
    browser: Browser, web: Site
) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    page = await _player_page(browser, f"{web.url}/g/{slug}{_signed(web)}")
    await _build(page, "d4")
    moves = f"**/api/games/{slug}/moves"
    await page.route(moves, lambda route: route.abort("connectionreset"))
    await page.locator("#send").tap()
    await expect(page.locator("#status")).to_have_text(FAILED)
    # The move is kept as built and Play is there again.
    await expect(page.locator("#prompt")).to_have_text("d4: play it.")
    await expect(page.locator("#send")).to_be_enabled()
    assert await web.manager.store.moves(gid) == []
    await page.unroute(moves)
    await page.locator("#send").tap()
    await expect(page.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == ["d4"]
    await expect(page.locator("#status")).not_to_have_text(FAILED)
    await page.context.close()


class _Held:
    """The board page's asks for a move's choices (``/next``) through Playwright's routing:
    the first one with the prefix ``held`` waits until :meth:`release`; every ask is
    counted."""

    def __init__(self, held: str) -> None:
        self.held = held
        self.asks: list[str] = []
        self.route: Route | None = None
        self.arrived = asyncio.Event()

    async def handle(self, route: Route) -> None:
        prefix = parse_qs(urlsplit(route.request.url).query).get("prefix", [""])[0]
        self.asks.append(prefix)
        if prefix == self.held and self.route is None:
            self.route = route
            self.arrived.set()
            return
        await route.continue_()

    async def release(self) -> None:
        await asyncio.wait_for(self.arrived.wait(), 10)
        assert self.route is not None
        await self.route.continue_()


async def _held_page(browser: Browser, web: Site, slug: str, held: _Held) -> Page:
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = await context.new_page()
    await page.route(f"**/api/games/{slug}/next?*", held.handle)
    await page.goto(f"{web.url}/g/{slug}{_signed(web)}")
    await expect(page.locator("#turn")).to_contain_text("Your turn")
    return page


async def _play_built(page: Page, web: Site, gid: int, move: str) -> None:
    await expect(page.locator("#prompt")).to_have_text(f"{move}: play it.")
    await page.locator("#send").tap()
    await expect(page.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == [move]


async def test_a_cell_tapped_before_the_choices_come_is_taken_when_they_come(
    browser: Browser, web: Site
) -> None:
    """ "Your turn" shows before the page has the choices of a move (one more request): a cell
    tapped then is kept and taken once they come, not lost (it was, on a slow connection)."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    held = _Held("")
    page = await _held_page(browser, web, slug, held)
    await held.arrived.wait()
    await page.locator('[data-cell="d4"]').tap()
    await held.release()
    await _play_built(page, web, gid, "d4")
    await page.context.close()


async def test_a_double_tap_while_the_choices_come_is_one_tap(browser: Browser, web: Site) -> None:
    """A cell tapped twice before the choices its first tap asked for have come counts once:
    the second tap is not kept to take the choice back."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    held = _Held("d4")
    page = await _held_page(browser, web, slug, held)
    await expect(page.locator("#prompt")).to_have_text("Tap where your move starts.")
    await page.locator('[data-cell="d4"]').tap()
    await held.arrived.wait()
    await page.locator('[data-cell="d4"]').tap()
    await held.release()
    await _play_built(page, web, gid, "d4")
    # No ask after d4's: the second tap took nothing back.
    assert held.asks == ["", "d4"]
    await page.context.close()


async def test_a_play_answered_502_is_said_and_play_works_again(
    browser: Browser, web: Site
) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    async with Proxy(web.url).running() as proxy:
        page = await _player_page(browser, f"{proxy.url}/g/{slug}{_signed(web)}")
        await _build(page, "c5")
        proxy.breaks()  # the bot restarts behind the operator's proxy
        await page.locator("#send").tap()
        await expect(page.locator("#status")).to_have_text(FAILED)
        await expect(page.locator("#send")).to_be_enabled()
        await expect(page.locator("#prompt")).to_have_text("c5: play it.")
        assert await web.manager.store.moves(gid) == []
        proxy.broken = False
        await page.locator("#send").tap()
        await expect(page.locator("#moves li")).to_have_count(1)
        assert [m.move for m in await web.manager.store.moves(gid)] == ["c5"]
        await page.context.close()


# Collects every layout shift from the page's start (Chromium's Layout Instability API).
_SHIFTS = """
window.shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.shifts.push({value: e.value, input: e.hadRecentInput});
}).observe({type: "layout-shift", buffered: true});
document.addEventListener("DOMContentLoaded", () => {
  const r = document.getElementById("board").getBoundingClientRect();
  window.boardBefore = [r.left, r.top, r.width, r.height];
});
"""
_BOARD_NOW = (
    "(() => { const r = document.getElementById('board').getBoundingClientRect();"
    " return [r.left, r.top, r.width, r.height]; })()"
)


@pytest.mark.parametrize("game", ["isopath", "pathagon", "fixation", "maphex", "inphexion"])
async def test_the_board_has_its_place_before_it_is_drawn(
    browser: Browser, web: Site, game: str
) -> None:
    gid = await new_game(web.manager, game, ADA, BO, TG_GROUP, ("5",) if game == "maphex" else ())
    link = await web.board.link(gid)
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.to_move is not None
    for signed in ("", _signed(web, (ADA, BO)[row.to_move])):  # a spectator, the player
        context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        await context.add_init_script(_SHIFTS)
        page = await context.new_page()
        await page.goto(link + signed)
        await expect(page.locator("[data-cell]").first).to_be_visible()
        await expect(page.locator("#turn")).not_to_be_empty()
        await expect(page.locator("#watchers")).not_to_be_empty()
        if signed:
            await expect(page.locator("#play")).to_be_visible()
        before = await page.evaluate("window.boardBefore")
        after = await page.evaluate(_BOARD_NOW)
        # Where the board was kept is where it is drawn, to the pixel.
        assert [round(v) for v in before] == [round(v) for v in after], (before, after)
        shifts = await page.evaluate("window.shifts")
        if not signed:
            assert shifts == []  # a spectator's page does not move at all
        else:
            # The player's controls come under the board once the server says they may move;
            # the board and what is above it stay (checked above).
            assert sum(s["value"] for s in shifts) < 0.05, shifts
        await context.close()


async def test_a_64_character_name_wraps(browser: Browser, web: Site) -> None:
    long = User("telegram", "1009", "W" * 64)
    gid = await new_game(web.manager, "pathagon", long, BO, TG_GROUP)
    page = await _player_page(browser, await web.board.link(gid) + _signed(web, long))
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for where in ("#title", "#players li", "#turn"):
        box = await page.locator(where).first.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"], where
    await page.context.close()


async def _low_contrasts(page: Page, play: bool = True) -> list[list[Any]]:
    """The texts under 4.5:1 on ``page`` (a player's, with a sentence said), after checking
    that the kinds of text the page has were all measured (``play``: its own Play too)."""
    await page.evaluate("document.getElementById('status').textContent = 'A sentence said.'")
    await expect(page.locator("#watchers")).not_to_be_empty()
    await _build(page, "d4")  # Play enabled
    found: list[list[Any]] = await page.evaluate(CONTRAST)
    names = {f[0] for f in found}
    wanted = {"#title", "#turn", "#watchers", "#status", "#prompt", "a", "button[current]"}
    wanted |= {"#send"} if play else set()
    assert wanted <= names, names
    return [f for f in found if f[1] < AA]


async def _scheme_page(browser: Browser, web: Site, scheme: str) -> Page:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1", "g7"])
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    return await _player_page(browser, f"{web.url}/g/{slug}{_signed(web)}", color_scheme=scheme)


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_text_contrast_light_and_dark(browser: Browser, web: Site, scheme: str) -> None:
    page = await _scheme_page(browser, web, scheme)
    assert await _low_contrasts(page) == []
    await page.context.close()


#: Telegram's themes as its apps send them, and one whose hint and link colours are too pale
#: on its background (the page makes them readable).
THEMES = {
    "dark": {
        "bg_color": "#212121", "text_color": "#ffffff", "hint_color": "#aaaaaa",
        "link_color": "#8774e1", "button_color": "#8774e1", "button_text_color": "#ffffff",
        "secondary_bg_color": "#0f0f0f",
    },
    "light": {
        "bg_color": "#ffffff", "text_color": "#000000", "hint_color": "#999999",
        "link_color": "#2481cc", "button_color": "#2481cc", "button_text_color": "#ffffff",
        "secondary_bg_color": "#efeff3",
    },
    "pale": {
        "bg_color": "#fafafa", "text_color": "#222222", "hint_color": "#cccccc",
        "link_color": "#9ecbff", "button_color": "#ffd54f", "button_text_color": "#ffffff",
        "secondary_bg_color": "#dddddd", "destructive_text_color": "#ff8a80",
    },
}  # fmt: skip


async def _in_telegram(context: BrowserContext) -> None:
    """The phone app's side: the events' receiver, each event dropped."""
    await context.add_init_script("window.TelegramWebviewProxy = {postEvent: () => {}};")


@pytest.mark.parametrize("theme", sorted(THEMES))
async def test_text_contrast_in_telegram_themes(browser: Browser, web: Site, theme: str) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1", "g7"])
    slug = (await web.board.link(gid)).rsplit("/", 1)[1]
    fragment = urlencode(
        {
            "tgWebAppData": init_data(ADA, web.clock),
            "tgWebAppVersion": "8.0",
            "tgWebAppPlatform": "ios",
            "tgWebAppThemeParams": json.dumps(THEMES[theme]),
        }
    )
    context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    await _in_telegram(context)
    page = await context.new_page()
    await page.goto(f"{web.url}/g/{slug}#{fragment}")
    await expect(page.locator("#turn")).to_contain_text("Your turn")
    # The theme's own background is the page's.
    bg = await page.evaluate("getComputedStyle(document.body).backgroundColor")
    want = THEMES[theme]["bg_color"]
    assert bg == "rgb({}, {}, {})".format(*(int(want[i : i + 2], 16) for i in (1, 3, 5)))
    assert await _low_contrasts(page, play=False) == []  # Play is Telegram's MainButton
    await context.close()
