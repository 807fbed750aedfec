"""The board a lichess player would enjoy (issue 44), in a real headless Chromium (Debian's,
through Playwright) at a phone's size upright (390×844) and on its side (844×390):

- each of the five games played by taps, every tap target at least 44 CSS px (cells, buttons,
  links, fields: bounding boxes measured), the coordinates shown, no sideways scroll of the
  page (a board too big for the width pans inside its own box);
- Maphex's opening sub-board chosen by tapping the board (its sub-boards numbered);
- Iso-Path's turn guided: the build, then the piece, only the cells that matter lit;
- a finished game's winning path; ``#ply=N`` links and Back stepping through; the board turned;
- the last move, the selection and the legal targets drawn with different shapes, not only hues;
- a typed move (a losing one asked again); the opponent's move animated (not with
  ``prefers-reduced-motion``); resign, draw and takeback through the session manager; the next
  game where it is your turn.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Browser, Page, expect

import engines
from bot.core.status import GameStatus
from bot.messages import User
from tests.web.board_kit import SIDEWAYS, UPRIGHT, measure, tap_move
from tests.web.kit import ADA, BO, TG_GROUP, Site, init_data, launched, losing_game, new_game
from tests.web.scripted import PATHAGON

pytestmark = pytest.mark.asyncio(loop_scope="session")

# Records the name of every animation that starts on the page (in ``window.animated``).
_RECORD_ANIMATIONS = """() => { window.animated = [];
  document.addEventListener("animationstart", (e) => window.animated.push(e.animationName), true);
}"""
# Records each change of <main>'s aria-busy (in ``window.busy``: "true" while a move or an
# action is on its way, null once its answer is shown).
_RECORD_BUSY = """() => { window.busy = [];
  const main = document.querySelector("main");
  new MutationObserver(() => window.busy.push(main.getAttribute("aria-busy")))
    .observe(main, { attributes: true, attributeFilter: ["aria-busy"] });
}"""
#: How long a change may take to reach another open page here (a loaded shared machine; the
#: 2 s promise is checked in test_browser.py and test_reconnect.py).
LIVE = 10_000
#: The issue's smallest tap target, in CSS pixels.
TAP = 44
#: Each game at its default size, then the biggest board of each game that has sizes (the
#: smallest cells: Maphex 16x16 pans and zooms).
BOARDS: tuple[tuple[str, dict[str, object]], ...] = (
    ("pathagon", {}),
    ("maphex", {}),
    ("isopath", {}),
    ("fixation", {}),
    ("inphexion", {}),
    ("maphex", {"size": 16}),
    ("isopath", {"size": 5}),
    ("inphexion", {"size": 9}),
)
#: :data:`BOARDS` two by two, a test each (a page taken from the first board to the second):
#: eight boards in one test took 30 s on a loaded machine.
PAIRS = [BOARDS[i : i + 2] for i in range(0, len(BOARDS), 2)]


def _named(boards: tuple[tuple[str, dict[str, object]], ...]) -> str:
    return "+".join(game + "".join(str(v) for v in options.values()) for game, options in boards)


async def _open(
    browser: Browser,
    web: Site,
    gid: int,
    who: User | None,
    size: dict[str, int],
    reduced: bool = False,
) -> Page:
    """A phone page of game ``gid`` signed in as ``who`` through Telegram (``None``: a
    spectator), at ``size``: the launch data in the address's fragment (``tgWebAppData``), as
    Telegram opens a Mini App."""
    context = await browser.new_context(
        viewport=size,
        is_mobile=True,
        has_touch=True,
        reduced_motion="reduce" if reduced else "no-preference",
    )
    page = await context.new_page()
    link = await web.board.link(gid)
    await page.goto(link if who is None else launched(link, init_data(who, web.clock)))
    await expect(page.locator("[data-cell]").first).to_be_visible()
    return page


async def _answered(page: Page) -> None:
    """Wait until what the page sent (a move, an action) is answered and the answer shown:
    until then <main> is aria-busy and the page takes no tap."""
    await expect(page.locator("main")).not_to_have_attribute("aria-busy", "true")


def _move(game: str, position: engines.Position) -> str:
    """The move tapped in each game: Maphex's opening (a sub-board), Iso-Path's first legal
    turn (a tile, where it goes, a piece, where it goes), a legal move elsewhere."""
    if game == "maphex":
        return "5"
    legal = position.legal_moves()
    return next((m for m in legal if position.play(m).outcome is None), legal[0])


@pytest.mark.parametrize("boards", PAIRS, ids=[_named(pair) for pair in PAIRS])
@pytest.mark.parametrize("size", [UPRIGHT, SIDEWAYS], ids=["390x844", "844x390"])
async def test_five_games_by_taps_with_44px_targets(
    browser: Browser,
    web: Site,
    size: dict[str, int],
    boards: tuple[tuple[str, dict[str, object]], ...],
) -> None:
    # One phone page per player, taken from board to board (as a player opens the next game).
    pages: dict[str, Page] = {}
    for game, options in boards:
        gid = await new_game(web.manager, game, ADA, BO, TG_GROUP, (), options)
        row = await web.manager.store.get_game(gid)
        assert row is not None and row.to_move is not None
        mover = (ADA, BO)[row.to_move]
        page = pages.get(mover.user_id)
        if page is None:
            page = pages[mover.user_id] = await _open(browser, web, gid, mover, size)
        else:
            await page.goto(await web.board.link(gid))
            await expect(page.locator("[data-cell]").first).to_be_visible()
        await expect(page.locator("#play")).to_be_visible()
        await expect(page.locator("[data-cell].can, [data-cell].pick").first).to_be_visible()
        await expect(page.locator(".coord").first).to_be_visible()
        seen = await measure(page)
        assert seen.scroll_width <= size["width"], (game, seen.scroll_width)
        cells = [t for t in seen.targets if t[0].startswith("cell ")]
        assert len(cells) == len(engines.new(game, **options).board.names)
        small = [t for t in seen.targets if min(t[1], t[2]) < TAP]
        assert small == [], (game, small)
        position = engines.new(game, **options)
        move = _move(game, position)
        await tap_move(page, position, move)
        await expect(page.locator("#moves li")).to_have_count(1)
        stored = await web.manager.store.moves(gid)
        assert [m.move for m in stored] == [position.play(move).last_move], game
    for page in pages.values():
        await page.context.close()


async def test_maphex_opening_is_a_tap_on_a_sub_board(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "maphex", ADA, BO, TG_GROUP)
    page = await _open(browser, web, gid, BO, UPRIGHT)  # Blue chooses Red's sub-board
    # The nine sub-boards are numbered on the board; no button "1".."9" beside it.
    await expect(page.locator(".region-name.shown")).to_have_count(9)
    await expect(page.locator("#choices button")).to_have_count(0)
    await expect(page.locator("#prompt")).to_contain_text("sub-board")
    # Auto-cells are marked (9 on a 9x9 board: one per sub-board).
    await expect(page.locator("[data-cell] .auto")).to_have_count(9)
    # Any cell of the top-right sub-board (3) chooses it: the whole sub-board is the target.
    await page.locator('[data-cell="h2"]').tap()
    await expect(page.locator("#play")).to_have_attribute("data-prefix", "3")
    await page.locator("#send").tap()
    await expect(page.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == ["3"]
    # Red's page: the sub-board to play is marked, only its cells offered.
    red = await _open(browser, web, gid, ADA, UPRIGHT)
    await expect(red.locator("[data-cell].zone")).to_have_count(9)
    await expect(red.locator("[data-cell].can")).to_have_count(9)
    zone = await red.locator("[data-cell].zone").evaluate_all("es => es.map(e => e.dataset.cell)")
    assert sorted(zone) == sorted(
        await red.locator("[data-cell].can").evaluate_all("es => es.map(e => e.dataset.cell)")
    )
    for page_ in (page, red):
        await page_.context.close()


async def test_isopath_turn_is_guided(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "isopath", ADA, BO, TG_GROUP)
    page = await _open(browser, web, gid, ADA, UPRIGHT)
    lit = page.locator("[data-cell].can")
    await expect(page.locator("#prompt")).to_contain_text("tile to take")
    await page.locator('[data-cell="b1"]').tap()
    await expect(page.locator("#prompt")).to_contain_text("where the tile from b1 goes")
    await expect(page.locator('[data-cell="b1"]')).to_have_class(re.compile(r"\bsel\b"))
    await page.locator('[data-cell="b2"]').tap()
    # Step 2: only the pieces that can move now are lit (two of White's four).
    await expect(page.locator("#prompt")).to_contain_text("piece to move")
    await expect(lit).to_have_count(2)
    assert sorted(await lit.evaluate_all("es => es.map(e => e.dataset.cell)")) == ["a1", "a2"]
    await page.locator('[data-cell="a2"]').tap()
    await expect(page.locator("#send")).to_be_enabled()
    # Tapping the chosen piece again takes the choice back.
    await page.locator('[data-cell="a2"]').tap()
    await expect(page.locator("#prompt")).to_contain_text("piece to move")
    await page.context.close()


async def test_finished_game_links_and_turning(browser: Browser, web: Site) -> None:
    moves = PATHAGON.moves
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, moves)
    final = PATHAGON.positions()[-1]
    page = await _open(browser, web, gid, None, UPRIGHT)
    # The winning path: each of its cells ringed, its neighbours linked.
    await expect(page.locator("[data-cell].win")).to_have_count(len(final.winning_cells))
    await expect(page.locator("[data-cell].win .ring").first).to_be_visible()
    links = await page.locator(".win-link").count()
    assert links >= len(final.winning_cells) - 1
    # #ply=N: a link to a position; each step is a history entry Back steps through.
    link = await web.board.link(gid)
    await page.goto(link + "#ply=3")
    await expect(page.locator("#at")).to_have_text(f"3 / {len(moves)}")
    await expect(page.locator("[data-cell].win")).to_have_count(0)
    await page.locator("#next").click()
    await expect(page.locator("#at")).to_have_text(f"4 / {len(moves)}")
    assert page.url.endswith("#ply=4")
    await page.locator("#moves button", has_text=moves[9]).click()
    await expect(page.locator("#at")).to_have_text(f"10 / {len(moves)}")
    await page.go_back()
    await expect(page.locator("#at")).to_have_text(f"4 / {len(moves)}")
    await page.go_back()
    await expect(page.locator("#at")).to_have_text(f"3 / {len(moves)}")
    # Turning the board: a1 goes from the bottom left to the top right, and it is remembered.
    a1 = page.locator('[data-cell="a1"]')
    before = await a1.bounding_box()
    await page.locator("#flip").click()
    after = await a1.bounding_box()
    assert before is not None and after is not None
    assert after["x"] > before["x"] and after["y"] < before["y"]
    await page.reload()
    await expect(page.locator("[data-cell]").first).to_be_visible()
    again = await a1.bounding_box()
    assert again is not None and abs(again["y"] - after["y"]) < 2
    # Zoom: the cells grow by half, the board pans inside its box, the page does not scroll
    # sideways.
    await page.locator("#zoom-in").click()
    bigger = await a1.bounding_box()
    assert bigger is not None and bigger["width"] > 1.4 * again["width"]
    await expect(page.locator("#board")).to_have_class(re.compile(r"\bpans\b"))
    assert await page.evaluate("document.documentElement.scrollWidth") <= UPRIGHT["width"]
    await page.context.close()


async def test_marks_differ_in_shape(browser: Browser, web: Site) -> None:
    """The last move, the selection and the legal targets differ in outline or shape, not
    only in hue (a colour-blind player tells them apart)."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, ["a1", "g7"])
    page = await _open(browser, web, gid, ADA, UPRIGHT)
    await page.locator('[data-cell="b2"]').tap()
    # The choice is drawn once the server has answered which steps follow it.
    await expect(page.locator('[data-cell="b2"]')).to_have_class(re.compile(r"\bsel\b"))
    style = """e => { const g = e.querySelector('.ground'), s = getComputedStyle(g);
        const h = getComputedStyle(e.querySelector('.hint'));
        return [s.strokeDasharray, s.strokeWidth, h.display]; }"""
    last = await page.locator('[data-cell="g7"]').evaluate(style)
    chosen = await page.locator('[data-cell="b2"]').evaluate(style)
    await page.locator("#clear").click()
    await expect(page.locator('[data-cell="b2"]')).not_to_have_class(re.compile(r"\bsel\b"))
    target = await page.locator('[data-cell="c3"]').evaluate(style)
    assert last[0] != "none" and chosen[0] == "none"  # dashed v solid outline
    assert float(chosen[1].rstrip("px")) > float(last[1].rstrip("px"))  # thicker
    assert target[2] != "none" and last[2] == "none"  # a dot marks a target
    await page.context.close()


async def test_player_controls_move_and_takeback(browser: Browser, web: Site) -> None:
    """A typed move; the opponent's move animated on the other page (not with reduced
    motion); a takeback asked and allowed, decided by the session manager; the next game."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    other = await new_game(web.manager, "pathagon", BO, ADA, TG_GROUP, ["d4"])
    ada = await _open(browser, web, gid, ADA, UPRIGHT)
    bo = await _open(browser, web, gid, BO, UPRIGHT, reduced=True)
    # Ada's next game where it is her turn: the other one.
    await expect(ada.locator("#next-turn")).to_have_attribute("href", await web.board.link(other))
    watcher = await _open(browser, web, gid, None, UPRIGHT)
    for page in (bo, watcher):
        await page.evaluate(_RECORD_ANIMATIONS)
    await ada.evaluate(_RECORD_BUSY)
    await ada.locator("#typed-move").fill("D4")
    await ada.locator("#typed-send").tap()
    await expect(ada.locator("#moves li")).to_have_count(1)
    assert [m.move for m in await web.manager.store.moves(gid)] == ["d4"]
    # The page was busy while the move was on its way, and is no longer.
    await _answered(ada)
    assert await ada.evaluate("window.busy") == ["true", None]
    # The opponent's move is marked as arriving on the other pages: animated on the
    # spectator's, not on Bo's (reduced motion).
    # Asked from here (page.evaluate is not subject to the page's script-src 'self'; a
    # string given to wait_for_function is evaluated by the page and refused by it).
    async with asyncio.timeout(LIVE / 1000):
        while "arrive" not in await watcher.evaluate("window.animated"):  # noqa: ASYNC110
            await asyncio.sleep(0.05)
    await expect(bo.locator('[data-cell="d4"]')).to_have_class(
        re.compile(r"\barrive\b"), timeout=LIVE
    )
    assert await bo.evaluate("window.animated") == []
    await expect(ada.locator('[data-cell="d4"]')).not_to_have_class(re.compile(r"\barrive\b"))
    # Ada asks to take d4 back; Bo's page offers to allow it; allowed, the move is gone.
    await ada.locator("#act-takeback").tap()
    await _answered(ada)
    await expect(bo.locator("#act-takeback-accept")).to_be_visible(timeout=LIVE)
    await bo.locator("#act-takeback-accept").tap()
    await expect(bo.locator("#moves li")).to_have_count(0, timeout=LIVE)
    await _answered(bo)
    assert await web.manager.store.moves(gid) == []
    for page in (ada, bo, watcher):
        await page.context.close()


async def test_player_controls_draw_and_resign(browser: Browser, web: Site) -> None:
    """A draw offered while the other player builds a move (kept as it was) and declined;
    resigning asks first, the question staying while the page follows the game; all decided
    by the session manager."""
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    ada = await _open(browser, web, gid, ADA, UPRIGHT)
    bo = await _open(browser, web, gid, BO, UPRIGHT, reduced=True)
    # Bo offers a draw while Ada builds a move (kept as it was); Ada declines it.
    await ada.locator('[data-cell="c3"]').tap()
    await expect(ada.locator("#play")).to_have_attribute("data-prefix", "c3")
    await bo.locator("#act-draw").tap()
    await expect(ada.locator("#act-draw-decline")).to_be_visible(timeout=LIVE)
    await expect(ada.locator("#offer")).to_contain_text("offers a draw")
    await expect(ada.locator("#play")).to_have_attribute("data-prefix", "c3")
    await expect(ada.locator('[data-cell="c3"]')).to_have_class(re.compile(r"\bsel\b"))
    await ada.locator("#act-draw-decline").tap()
    await expect(ada.locator("#act-draw")).to_be_visible()
    await _answered(ada)
    await ada.locator("#typed-move").fill("c3")
    await ada.locator("#typed-send").tap()
    await expect(bo.locator("#moves li")).to_have_count(1, timeout=LIVE)
    await _answered(ada)
    # Resigning asks first; then the game is over.
    await ada.locator("#act-resign").tap()
    await expect(ada.locator("#status")).to_contain_text("Really resign")
    await _answered(ada)
    # The question stays while the page follows the game (Bo offers a draw meanwhile).
    await bo.locator("#act-draw").tap()
    await expect(ada.locator("#offer")).to_contain_text("offers a draw", timeout=LIVE)
    await expect(ada.locator("#act-resign-sure")).to_be_visible()
    await ada.locator("#act-resign-sure").tap()
    await expect(ada.locator("#result")).to_contain_text("resign")
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.status is not GameStatus.ACTIVE
    for page in (ada, bo):
        await page.context.close()


async def test_a_losing_move_is_asked_again(browser: Browser, web: Site) -> None:
    """A typed move that loses the game for its player is not played at once: the page says
    why and offers to play it anyway (the session manager's question, as in the chat)."""
    moves, losing = losing_game()
    gid = await new_game(
        web.manager, "inphexion", ADA, BO, TG_GROUP, moves, {"size": 5, "pie": False}
    )
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.to_move is not None
    page = await _open(browser, web, gid, (ADA, BO)[row.to_move], UPRIGHT)
    await page.locator("#typed-move").fill(losing)
    await page.locator("#typed-send").tap()
    anyway = page.locator("#choices button", has_text="Play it anyway")
    await expect(anyway).to_be_visible()
    assert len(await web.manager.store.moves(gid)) == len(moves)
    await anyway.tap()
    await expect(page.locator("#moves li")).to_have_count(len(moves) + 1)
    assert len(await web.manager.store.moves(gid)) == len(moves) + 1
    await page.context.close()
