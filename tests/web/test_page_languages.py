"""The web board speaks its reader's language (issue 43), in real headless Chromium: a signed-in
player's (Telegram's ``initData`` carries ``user.language_code``), else the browser's
``Accept-Language`` among the shipped languages, else English; the page's ``lang`` follows."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser, expect

from bot.core import i18n
from bot.sessions import texts
from bot.storage import LanguageKind
from bot.webboard.auth import sign_init_data
from tests.web.kit import (
    ADA,
    BO,
    BOT_TOKEN,
    CY,
    DC_CHANNEL,
    DI,
    PHONE,
    TG_GROUP,
    Site,
    identity,
    launched,
    new_game,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _in(code: str, key: str) -> str:
    """The page's label ``key`` as the catalog of ``code`` says it."""
    with i18n.use(code):
        return texts.board_labels()[key]


async def test_a_japanese_telegram_players_page_reads_in_japanese(
    browser: Browser, web: Site
) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    tma = sign_init_data(
        {"id": int(ADA.user_id), "first_name": ADA.name, "language_code": "ja"},
        BOT_TOKEN,
        web.clock.now(),
    )
    # An English browser (Accept-Language en-US): the player's own language wins.
    context = await browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    page = await context.new_page()
    try:
        await page.goto(launched(await web.board.link(gid), tma))
        await expect(page.locator("html")).to_have_attribute("lang", "ja")
        # board.js's turn line, from the server's labels in Japanese.
        await expect(page.locator("#turn")).to_contain_text("あなたの番です")
        assert "Your turn" not in await page.locator("#turn").inner_text()
        # page.py's words, said again in the player's language.
        await expect(page.locator("#back")).to_have_text("戻る")
        await expect(page.locator("h2[data-label=moves]")).to_have_text("棋譜")
        await expect(page.locator("#flip")).to_have_text("盤面を反転")
        await expect(page.locator("#first")).to_have_attribute("aria-label", "初期局面")
        # The move builder's prompt (the step API, asked with the player's sign-in).
        await expect(page.locator("#prompt")).to_have_text("手の始まりの場所をタップしてください。")
    finally:
        await context.close()


async def test_a_spanish_spectators_page_reads_in_spanish(browser: Browser, web: Site) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    context = await browser.new_context(viewport=PHONE, locale="es-ES")
    page = await context.new_page()
    try:
        answer = await page.goto(await web.board.link(gid))
        assert answer is not None
        # The HTML as it arrives (before any script): already Spanish.
        html = await answer.text()
        assert '<html lang="es">' in html
        assert f'data-label="moves">{_in("es", "moves")}</h2>' in html
        await expect(page.locator("html")).to_have_attribute("lang", "es")
        await expect(page.locator("h2[data-label=words]")).to_have_text("El tablero en palabras")
        await expect(page.locator("#turn")).to_contain_text("Le toca a Ada")
        await expect(page.locator("#watchers")).to_have_text("1 mirando")
        await expect(page.locator("#next")).to_have_attribute("aria-label", "Jugada siguiente")
    finally:
        await context.close()


async def test_the_html_follows_accept_language(web: Site, browser: Browser) -> None:
    gid = await new_game(web.manager, "pathagon", ADA, BO, TG_GROUP)
    context = await browser.new_context()
    try:
        link = await web.board.link(gid)
        for header, lang, words in (
            ("es-ES,es;q=0.9,en;q=0.8", "es", _in("es", "words")),
            ("ko-KR, pt-BR;q=0.7", "pt-BR", _in("pt_BR", "words")),
            ("ko-KR, zh;q=0.5", "en", "Board in words"),
        ):
            answer = await context.request.get(link, headers={"Accept-Language": header})
            html = await answer.text()
            assert f'<html lang="{lang}">' in html, header
            assert f'data-label="words">{words}</h2>' in html, header
        api = await context.request.get(
            f"{web.url}/api/games/{link.rsplit('/', 1)[1]}", headers={"Accept-Language": "de"}
        )
        state = await api.json()
        assert state["lang"] == "de"
        assert state["labels"]["your_turn"] == "Du bist am Zug ({side})."
    finally:
        await context.close()


async def test_a_personal_links_holder_reads_their_stored_language(
    web: Site, browser: Browser
) -> None:
    """A personal link (the Discord Activity's too) carries no language: the player's stored
    one (``settings language fr``) wins over a Spanish browser; a refused sign-in is said in
    the browser's language."""
    gid = await new_game(web.manager, "pathagon", CY, DI, DC_CHANNEL)
    await web.manager.store.set_language("discord", LanguageKind.CHOSEN, CY.user_id, "fr")
    link = await web.board.personal_link(gid, identity(CY))
    slug, token = link.split("/g/", 1)[1].split("#t=")
    context = await browser.new_context()
    try:
        api = f"{web.url}/api/games/{slug}"
        spanish = {"Accept-Language": "es"}
        state = await (
            await context.request.get(api, headers={**spanish, "Authorization": f"Bearer {token}"})
        ).json()
        assert state["lang"] == "fr"
        assert state["labels"]["your_turn"] == "À vous de jouer ({side})."
        forged = await (
            await context.request.get(api, headers={**spanish, "Authorization": "Bearer x.y"})
        ).json()
        assert forged["lang"] == "es"
        assert forged["auth"] == "Ese enlace al tablero no es mío."
    finally:
        await context.close()
