"""The review on a game's page (issue 30) in a real headless Chromium on a real SQLite file:
the "Review" control asks ``GET /api/games/<slug>/review``, which the chat command's own
computation answers (the bot's worker pool, in the fair queue with the bot's moves, with a
small search budget here); the table names the costliest moves (move number, who played it,
what, the better move, the cost) and a tap on one shows its position on the page's board with
the better move marked.

A rated game between people in progress has no control and its review is refused; a game
against the bot or an unrated one is reviewed while it goes on.  Two requests at once make one
computation; a reload reads the kept answer.  A stranger with the page's address gets what a
player gets, as for every other part of the page (a page link is a capability).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Hashable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import Browser, expect

import engines
from bot.adapters.commands import execute
from bot.core.status import GameStatus
from bot.sessions import texts
from bot.sessions.thinker import Reviewed, Thinker
from engines.ai import Budget, Level
from tests.bot.session_kit import eventually
from tests.web.kit import ADA, BO, PHONE, TG_GROUP, Site, init_data, launched, new_game, phone, site
from tests.web.scripted import PATHAGON, SCRIPTED, Scripted, wins_at_once

pytestmark = pytest.mark.asyncio(loop_scope="session")

#: Tiny searches: the bot's moves and the reviews of the tests (the blunders are missed wins,
#: found at any budget).
TINY = {level: Budget(iterations=5, seconds=60.0) for level in Level}
REVIEW_NODES = 40
#: How long the page may wait for a review's text: the computation runs in the worker pool,
#: whose process may be starting (a bound on a wait, not a timing asserted; Playwright's 5 s
#: default was reached once on a machine busy with four other processes).
REVIEW_MS = 30_000


class CountingThinker(Thinker):
    """The real worker pool, counting the reviews it is asked to compute; with ``gate`` set,
    each waits for it before it starts (so a test can line up requests behind it)."""

    def __init__(self) -> None:
        super().__init__(budgets=TINY, workers=1, review_nodes=REVIEW_NODES)
        self.reviews = 0
        self.gate: asyncio.Event | None = None

    async def review(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        count: int,
        owner: Hashable = None,
    ) -> list[Reviewed]:
        self.reviews += 1
        if self.gate is not None:
            await self.gate.wait()
        return await super().review(game, options, moves, count, owner)


@pytest_asyncio.fixture(loop_scope="session")
async def rev(tmp_path: Path) -> AsyncIterator[tuple[Site, CountingThinker]]:
    """A bot with its web board on a fresh SQLite file, and its counting worker pool."""
    thinker = CountingThinker()
    async with site(str(tmp_path / "hexhall.db"), thinker=thinker) as running:
        yield running, thinker


async def finished(web: Site, scripted: Scripted) -> int:
    """``scripted`` played from the chat between Ada (seat 0) and Bo; the player to move
    resigns when the moves do not end it."""
    gid = await new_game(
        web.manager, scripted.game, ADA, BO, TG_GROUP, scripted.moves, scripted.options
    )
    row = await web.manager.store.get_game(gid)
    assert row is not None
    if row.status is GameStatus.ACTIVE:
        assert row.to_move is not None
        resigned = await web.manager.games.resign((ADA, BO)[row.to_move], TG_GROUP, gid)
        assert resigned.ok, resigned.text
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.status is GameStatus.FINISHED
    return gid


async def get(url: str, headers: Mapping[str, str] | None = None) -> tuple[int, Any]:
    """``GET url``: the status and the JSON answer."""
    async with (
        aiohttp.ClientSession() as http,
        http.get(url, headers=dict(headers or {})) as answer,
    ):
        return answer.status, await answer.json()


def review_url(link: str) -> str:
    """The review endpoint of the page at ``link``."""
    return link.replace("/g/", "/api/games/") + "/review"


async def test_the_scripted_blunders_miss_a_win() -> None:
    """The test games are what they claim: at the blunder the mover had a win and missed it."""
    assert sorted(SCRIPTED) == ["fixation", "inphexion", "isopath", "maphex", "pathagon"]
    for scripted in SCRIPTED.values():
        before = scripted.positions()[scripted.blunder]
        played = scripted.moves[scripted.blunder]
        assert any(wins_at_once(before, m) for m in before.legal_moves()), scripted.game
        assert not wins_at_once(before, played), scripted.game


@pytest.mark.parametrize("game", sorted(SCRIPTED))
async def test_a_finished_game_is_reviewed_on_its_page(
    browser: Browser, rev: tuple[Site, CountingThinker], game: str
) -> None:
    web, thinker = rev
    scripted = SCRIPTED[game]
    gid = await finished(web, scripted)
    link = await web.board.link(gid)
    page = await phone(browser)  # a spectator: the page's address is all they have
    await page.goto(link)
    await expect(page.locator("[data-cell]").first).to_be_visible()
    await expect(page.locator("#review-ask")).to_be_visible()
    await page.locator("#review-ask").tap()
    await expect(page.locator("#review-text")).to_have_text(
        re.compile(rf"^#{gid} .*, the moves that changed the game most:$"), timeout=REVIEW_MS
    )
    # The blunder is named: its number, who played it (with their side), what, a better move
    # that wins at once, and what it cost.
    _, answer = await get(review_url(link))
    blunder = next(m for m in answer["moves"] if m["ply"] == scripted.blunder)
    position = scripted.positions()[scripted.blunder]
    mover = (ADA, BO)[position.to_move]
    assert blunder["played"] == scripted.moves[scripted.blunder]
    assert blunder["player"] == mover.name and blunder["seat"] == position.to_move
    assert wins_at_once(position, blunder["better"])
    assert blunder["cost"] >= 10
    row = page.locator(f'#review-moves tbody tr[data-ply="{scripted.blunder}"]')
    side = position.seat_sides[position.to_move]
    await expect(row.locator("td")).to_have_text(
        [
            str(scripted.blunder + 1),
            f"{mover.name} ({side})",
            blunder["played"],
            blunder["better"],
            f"{blunder['cost']} %",
        ]
    )
    await expect(page.locator("#review-moves tbody tr")).to_have_count(len(answer["moves"]))
    # A tap shows the position the move was played in, the better move marked.
    await row.locator("button").tap()
    total = len(scripted.moves)
    await expect(page.locator("#at")).to_have_text(f"{scripted.blunder} / {total}")
    await expect(row).to_have_attribute("aria-current", "step")
    await expect(page.locator("#review-at")).to_have_text(blunder["text"])
    assert blunder["text"].startswith(f"Move {scripted.blunder + 1}: {mover.name} ({side})")
    assert blunder["cells"], "every better move here names cells"
    for cell in blunder["cells"]:
        marked = page.locator(f'[data-cell="{cell}"]')
        await expect(marked).to_have_class(re.compile(r"\bbetter\b"))
        await expect(marked).to_have_attribute("aria-label", re.compile("the better move"))
    await expect(page.locator("[data-cell].better")).to_have_count(len(blunder["cells"]))
    # The table fits a phone's width (Iso-Path's moves are the longest): no sideways scroll.
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Stepping on leaves the review's position: the marks go.
    await page.locator("#next").tap()
    await expect(page.locator("#at")).to_have_text(f"{scripted.blunder + 1} / {total}")
    await expect(page.locator("[data-cell].better")).to_have_count(0)
    await expect(page.locator("#review-at")).to_have_text("")
    # Computed once: the page's request and the API's read the same kept answer.
    assert thinker.reviews == 1
    await page.context.close()


async def test_a_rated_game_in_progress_has_no_review(
    browser: Browser, rev: tuple[Site, CountingThinker]
) -> None:
    web, thinker = rev
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP, PATHAGON.moves[:6])
    link = await web.board.link(gid)
    refusal = {"ok": False, "text": str(texts.review_not_yet(gid))}
    for tma in (None, init_data(ADA, web.clock)):  # a spectator, the player to move
        page = await phone(browser)
        await page.goto(launched(link, tma))
        await expect(page.locator("[data-cell]").first).to_be_visible()
        await expect(page.locator("#review")).to_be_hidden()
        await expect(page.locator("#review-ask")).to_be_hidden()
        await page.context.close()
    assert await get(review_url(link)) == (403, refusal)
    headers = {"Authorization": f"tma {init_data(ADA, web.clock)}"}
    assert await get(review_url(link), headers) == (403, refusal)
    assert thinker.reviews == 0
    row = await web.manager.store.get_game(gid)
    assert row is not None and row.ply == 6 and row.status is GameStatus.ACTIVE
    # Once the game is over, its page offers the review (the page follows the game).
    page = await phone(browser)
    await page.goto(link)
    await expect(page.locator("#review")).to_be_hidden()
    resigned = await web.manager.games.resign(ADA, TG_GROUP, gid)
    assert resigned.ok, resigned.text
    web.board.changed(gid)
    await expect(page.locator("#review-ask")).to_be_visible()
    status, answer = await get(review_url(link))
    assert status == 200 and answer["ok"] and answer["text"].startswith(f"#{gid} ")
    await page.context.close()


async def test_unrated_and_bot_games_in_progress_are_reviewed(
    browser: Browser, rev: tuple[Site, CountingThinker]
) -> None:
    web, _ = rev
    # Unrated, between people: Dark's g7 (move 12) leaves Light its win at d7.
    made = await web.manager.challenges.challenge(
        ADA, TG_GROUP, "pathagon", BO, {}, "me", None, "no"
    )
    assert made.ok and made.challenge_id is not None
    gid = (await web.manager.challenges.accept(BO, TG_GROUP, made.challenge_id)).game_id
    assert gid is not None
    for ply, move in enumerate(PATHAGON.moves[:12]):
        reply = await web.manager.games.move((ADA, BO)[ply % 2], TG_GROUP, move, gid, ply)
        assert reply.ok, reply.text
    page = await phone(browser)
    await page.goto(launched(await web.board.link(gid), init_data(BO, web.clock)))
    await expect(page.locator("#review-ask")).to_be_visible()
    await page.locator("#review-ask").tap()
    row = page.locator('#review-moves tbody tr[data-ply="11"]')
    await expect(row.locator("td").nth(1)).to_have_text("Bo (Dark)")
    await expect(row.locator("td").nth(2)).to_have_text("g7")
    # From the keyboard: the row's button, then Enter.
    await row.locator("button").focus()
    await page.keyboard.press("Enter")
    await expect(page.locator("#at")).to_have_text("11 / 12")
    better = await page.locator("[data-cell].better").first.get_attribute("data-cell")
    assert better is not None and better != "g7"
    # Bo's better move leaves Ada no win at once, as g7 did (d7).
    assert wins_at_once(PATHAGON.positions()[12], "d7")
    instead = PATHAGON.positions()[11].play(better)
    assert not any(wins_at_once(instead, m) for m in instead.legal_moves())
    await page.context.close()

    # Against the bot, while it goes on.
    started = await execute(web.manager, ADA, TG_GROUP, "challenge bot pathagon", lambda _: None)
    assert started.ok and started.game_id is not None, started.text
    bot_game = started.game_id
    await web.manager.bot_idle()
    row_now = await web.manager.store.get_game(bot_game)
    assert row_now is not None and row_now.against_bot
    for _ in range(3):
        row_now = await web.manager.store.get_game(bot_game)
        assert row_now is not None and row_now.to_move != row_now.bot_seat
        played = [m.move for m in await web.manager.store.moves(bot_game)]
        position = engines.position_after("pathagon", played)
        reply = await web.manager.games.move(
            ADA, TG_GROUP, position.legal_moves()[0], bot_game, row_now.ply
        )
        assert reply.ok, reply.text
        await web.manager.bot_idle()
    row_now = await web.manager.store.get_game(bot_game)
    assert row_now is not None and row_now.status is GameStatus.ACTIVE
    page = await phone(browser)
    await page.goto(launched(await web.board.link(bot_game), init_data(ADA, web.clock)))
    await expect(page.locator("#review-ask")).to_be_visible()
    await page.locator("#review-ask").tap()
    await expect(page.locator("#review-text")).to_have_text(
        re.compile(rf"^#{bot_game}(:| )"), timeout=REVIEW_MS
    )
    # A takeback (granted at once by the bot) takes moves the review looked at: it goes.
    taken = await web.manager.games.takeback(ADA, TG_GROUP, bot_game)
    assert taken.ok, taken.text
    web.board.changed(bot_game)
    await expect(page.locator("#review-text")).to_have_text("")
    await expect(page.locator("#review-moves")).to_be_hidden()
    await page.context.close()


async def test_two_requests_at_once_make_one_computation(
    browser: Browser, rev: tuple[Site, CountingThinker]
) -> None:
    web, thinker = rev
    gid = await finished(web, PATHAGON)
    link = await web.board.link(gid)
    thinker.gate = asyncio.Event()
    first = asyncio.create_task(get(review_url(link)))
    await eventually(lambda: thinker.reviews == 1, "the first review started")
    page = await phone(browser)
    await page.goto(link)
    await page.locator("#review-ask").tap()
    await expect(page.locator("#review-text")).to_have_text("Reviewing the game…")
    await expect(page.locator("#review-ask")).to_be_disabled()
    await eventually(lambda: web.board.reviews.asked == 2, "the page's request joined")
    thinker.gate.set()
    status, answer = await first
    assert status == 200 and answer["moves"]
    await expect(page.locator("#review-moves tbody tr")).to_have_count(len(answer["moves"]))
    assert thinker.reviews == 1 and web.board.reviews.started == 1
    # A reload reads the kept answer.
    await page.reload()
    await page.locator("#review-ask").tap()
    await expect(page.locator("#review-moves tbody tr")).to_have_count(len(answer["moves"]))
    assert await get(review_url(link)) == (200, answer)
    assert thinker.reviews == 1
    await page.context.close()


async def test_a_stranger_gets_what_the_page_gives_anyone(
    rev: tuple[Site, CountingThinker],
) -> None:
    web, _ = rev
    gid = await finished(web, PATHAGON)
    link = await web.board.link(gid)
    stranger = await get(review_url(link))
    player = await get(review_url(link), {"Authorization": f"tma {init_data(ADA, web.clock)}"})
    forged = await get(review_url(link), {"Authorization": "Bearer not.mine"})
    assert stranger == player == forged and stranger[0] == 200
    # An address that names no game: the same answer as the game's own API there.
    missing = {"ok": False, "text": str(texts.web_no_game())}
    nowhere = f"{web.url}/api/games/no-such-game"
    assert await get(nowhere) == (404, missing)
    assert await get(nowhere + "/review") == (404, missing)


async def test_fresh_reviews_are_limited_per_address(tmp_path: Path) -> None:
    thinker = CountingThinker()
    async with site(str(tmp_path / "h.db"), thinker=thinker, review_rate=(0.001, 1)) as web:
        one = await web.board.link(await finished(web, PATHAGON))
        two = await web.board.link(await finished(web, PATHAGON))
        status, answer = await get(review_url(one))
        assert status == 200
        refused = (429, {"ok": False, "text": str(texts.web_review_too_fast())})
        assert await get(review_url(two)) == refused
        assert await get(review_url(one)) == (200, answer)  # a kept review costs nothing
        assert thinker.reviews == 1


async def test_a_review_is_made_again_only_when_the_moves_change(
    rev: tuple[Site, CountingThinker],
) -> None:
    web, thinker = rev
    made = await web.manager.challenges.challenge(
        ADA, TG_GROUP, "pathagon", BO, {}, "me", None, "no"
    )
    assert made.ok and made.challenge_id is not None
    gid = (await web.manager.challenges.accept(BO, TG_GROUP, made.challenge_id)).game_id
    assert gid is not None
    for ply, move in enumerate(PATHAGON.moves[:12]):
        assert (await web.manager.games.move((ADA, BO)[ply % 2], TG_GROUP, move, gid, ply)).ok
    link = await web.board.link(gid)
    status, first = await get(review_url(link))
    assert status == 200 and first["ply"] == 12 and thinker.reviews == 1
    # A draw offer changes the stored game, not its moves: the kept review is read back.
    before = await web.manager.store.get_game(gid)
    assert (await web.manager.games.draw(ADA, TG_GROUP, gid)).ok
    after = await web.manager.store.get_game(gid)
    assert before is not None and after is not None and after.version != before.version
    assert await get(review_url(link)) == (200, first)
    assert thinker.reviews == 1
    # A move changes them: the next review looks at it too.
    assert (await web.manager.games.move(ADA, TG_GROUP, "d7", gid, 12)).ok
    status, second = await get(review_url(link))
    assert status == 200 and second["ply"] == 13 and thinker.reviews == 2


class FailingOnceThinker(CountingThinker):
    """The worker pool, whose first review fails as a dead worker makes it fail (the pool's
    own error, raised here instead of by killing a process)."""

    async def review(
        self,
        game: str,
        options: Mapping[str, Any],
        moves: Sequence[str],
        count: int,
        owner: Hashable = None,
    ) -> list[Reviewed]:
        if self.reviews == 0:
            self.reviews += 1
            raise BrokenProcessPool("A child process terminated abruptly")
        return await super().review(game, options, moves, count, owner)


async def test_a_failed_review_says_so_and_is_not_kept(browser: Browser, tmp_path: Path) -> None:
    thinker = FailingOnceThinker()
    async with site(str(tmp_path / "h.db"), thinker=thinker) as web:
        gid = await finished(web, PATHAGON)
        page = await phone(browser)
        await page.goto(await web.board.link(gid))
        await page.locator("#review-ask").tap()
        await expect(page.locator("#review-text")).to_have_text(str(texts.review_unavailable(gid)))
        await expect(page.locator("#review-moves")).to_be_hidden()
        # Asked again, it is made (the failure was not kept).
        await page.locator("#review-ask").tap()
        await expect(page.locator("#review-moves tbody tr")).not_to_have_count(0, timeout=REVIEW_MS)
        assert thinker.reviews == 2
        await page.context.close()
