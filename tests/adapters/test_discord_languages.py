"""The Discord bot in each language that ships (issue 43), through discord.py against the fake:
the uploaded commands carry their descriptions' localizations; in a server whose preferred
locale is one of ours, a challenge, the accept, a move, the board and an illegal move read in
that language; in an English server, a Japanese and a Spanish player each get their private
answers in their own language while the channel's posts stay English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest

import engines
from bot.adapters.discord.translator import CatalogTranslator
from bot.core import i18n
from bot.sessions.clock import FakeClock
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    button,
    fake_discord,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, StoredMessage
from tests.i18n_words import WORDS

#: Discord's locale for each catalog, as a client in that language sends it.
LOCALE = {"es": "es-ES", "ja": "ja", "de": "de", "fr": "fr", "pt_BR": "pt-BR"}


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as started:
        yield started


async def _answer(
    run: Run, user: int, command: str, options: dict[str, Any], locale: str
) -> StoredMessage:
    record = await run.fake.slash(user, CHANNEL, command, options, locale=locale)
    await run.fake.response(record, timeout=DEADLINE)
    return await run.fake.original(record, timeout=DEADLINE)


async def _press(
    fake: FakeDiscord, user: int, message: StoredMessage, label: str, locale: str
) -> None:
    record = await fake.click(user, message, button(message, label), locale=locale)
    await fake.response(record, timeout=DEADLINE)


async def test_every_description_has_its_localizations(run: Run) -> None:
    synced = {c["name"]: c for c in run.fake.commands()}
    move = synced["move"]
    localized = move["description_localizations"]
    assert {"es-ES", "es-419", "ja", "de", "fr", "pt-BR"} <= set(localized)
    assert "en-US" not in localized and "ko" not in localized
    with i18n.use("ja"):
        assert localized["ja"] == i18n.gettext(move["description"])
    # Options are described in each language too.
    game = next(o for o in move["options"] if o["name"] == "game")
    assert game["description_localizations"]["de"] != game["description"]


async def test_the_fake_refuses_what_discord_refuses_in_localizations(run: Run) -> None:
    http = run.bot.http
    app = run.bot.application_id
    assert app is not None
    base = {"name": "x", "description": "y", "type": 1}
    for bad in ({"xx-YY": "z"}, {"ja": ""}, {"ja": "z" * 101}):
        with pytest.raises(discord.HTTPException):
            await http.bulk_upsert_global_commands(
                app, payload=[{**base, "description_localizations": bad}]
            )
    with pytest.raises(discord.HTTPException):
        await http.bulk_upsert_global_commands(
            app, payload=[{**base, "name_localizations": {"ja": "Bad Name"}}]
        )


async def test_the_translator_says_names_and_descriptions() -> None:
    translator = CatalogTranslator()
    said = discord.app_commands.locale_str("Accept a challenge")
    where = discord.app_commands.TranslationContext
    kind = discord.app_commands.TranslationContextLocation
    describe = where(location=kind.command_description, data=None)
    name = where(location=kind.command_name, data=None)
    assert await translator.translate(said, discord.Locale.japanese, describe) == "挑戦を受ける"
    assert (
        await translator.translate(said, discord.Locale.spain_spanish, describe)
        == "Aceptar un desafío"
    )
    assert await translator.translate(said, discord.Locale.korean, describe) is None
    # A name is the catalog's word under its context ("command", "option", "choice").
    move = discord.app_commands.locale_str("move")
    assert await translator.translate(move, discord.Locale.spain_spanish, name) == "mover"
    assert await translator.translate(move, discord.Locale.korean, name) is None


@pytest.mark.parametrize("code", list(WORDS))
async def test_a_game_read_in_each_language(run: Run, code: str) -> None:
    words, locale = WORDS[code], LOCALE[code]
    run.fake.guilds[GUILD].locale = locale  # a Community server in that language
    card = await _answer(
        run, ALICE, "challenge", {"game": "maphex", "opponent": BOB, "first": "me"}, locale
    )
    assert words.challenge in card.content, card.content
    await _press(run.fake, BOB, card, words.accept, locale)
    gid = int(button(card, _said(code, "Board")).split(":")[1])
    mover = await run.to_move(gid)
    other = BOB if mover == ALICE else ALICE
    first = engines.new("maphex").legal_moves()[4]
    board = await _answer(run, mover, "move", {"game": str(gid), "move": first}, locale)
    assert not board.ephemeral and words.played in board.content, board.content
    assert words.to_move in board.content
    refused = await _answer(run, other, "move", {"game": str(gid), "move": "z99"}, locale)
    assert refused.ephemeral and words.illegal in refused.content, refused.content


def _said(code: str, label: str) -> str:
    with i18n.use(code):
        return i18n.gettext(label)


async def test_a_japanese_and_a_spanish_player_in_an_english_server(run: Run) -> None:
    # Alice's client is Japanese, Bob's Spanish; the server's preferred locale is en-US.
    card = await _answer(
        run, ALICE, "challenge", {"game": "maphex", "opponent": BOB, "first": "me"}, "ja"
    )
    assert "challenges" in card.content  # the channel's card: English
    await _press(run.fake, BOB, card, "Accept", "es-ES")
    gid = int(button(card, "Board").split(":")[1])
    mover = await run.to_move(gid)
    assert mover == ALICE  # first=me: Alice opens (Blue)
    # A move out of turn, answered to the asker alone, in the asker's language.
    spanish = await _answer(run, BOB, "move", {"game": str(gid), "move": "e5"}, "es-ES")
    assert spanish.ephemeral and spanish.content.startswith(f"No te toca en la partida #{gid}")
    japanese = await _answer(run, ALICE, "move", {"game": str(gid), "move": "z99"}, "ja")
    assert japanese.ephemeral and f"#{gid} で反則の手です" in japanese.content
    first = engines.new("maphex").legal_moves()[4]
    board = await _answer(run, ALICE, "move", {"game": str(gid), "move": first}, "ja")
    assert not board.ephemeral and " played " in board.content  # the channel's: English
    # Their own settings say so too, privately: each in their own language.
    mine = await _answer(run, BOB, "settings", {"setting": "language"}, "es-ES")
    assert mine.ephemeral and mine.content.startswith("Tu idioma: Español")
    refused = await _answer(
        run, ALICE, "settings", {"setting": "chat-language", "value": "ja"}, "ja"
    )
    assert refused.ephemeral and "サーバーの管理者" in refused.content


async def test_a_timeout_notice_is_said_in_its_readers_language(tmp_path: Path) -> None:
    # Bob (Spanish client) takes direct messages; the server's preferred locale is German.
    clock = FakeClock()
    async with fake_discord() as fake:
        fake.guilds[GUILD].locale = "de"
        async with running(fake, tmp_path / "h.db", outbox=True, clock=clock) as run:
            await _answer(run, BOB, "settings", {"setting": "dm", "value": "on"}, "es-ES")
            card = await _answer(
                run, ALICE, "challenge",
                {"game": "maphex", "opponent": BOB, "first": "them", "days": "1"}, "ja",
            )  # fmt: skip
            assert WORDS["de"].challenge in card.content  # the channel's card: German
            await _press(fake, BOB, card, WORDS["de"].accept, "es-ES")
            gid = int(button(card, _said("de", "Board")).split(":")[1])
            await _answer(run, BOB, "move", {"game": str(gid), "move": "5"}, "es-ES")
            clock.advance(days=1, seconds=1)
            assert await run.manager.sweep() >= 1
            dm = await fake.wait_message(
                lambda m: m.channel_id == fake.dm_channel(BOB).id and "#" in m.content,
                timeout=DEADLINE,
            )
            # Bob's own notice, delivered later: in the language his client last said.
            assert "Ganas por tiempo" in dm.content, dm.content


async def test_a_private_board_is_drawn_in_the_askers_language(tmp_path: Path) -> None:
    """Board pressed in an English server by a Japanese player: an ephemeral answer, so its
    picture's words and alt text are said in Japanese, not the channel's English."""
    async with (
        fake_discord() as fake,
        running(fake, tmp_path / "hexhall.db", pictures=True) as run,
    ):
        card = await _answer(
            run, ALICE, "challenge", {"game": "maphex", "opponent": BOB, "first": "me"}, "ja"
        )
        await _press(run.fake, BOB, card, "Accept", "es-ES")
        record = await run.fake.click(ALICE, card, button(card, "Board"), locale="ja")
        await run.fake.response(record, timeout=DEADLINE)
        private = await run.fake.original(record, timeout=DEADLINE)
        # The picture and its alt text are the asker's alone: drawn in their language.
        assert private.ephemeral and len(private.attachments) == 1
        alt = private.attachments[0]["description"]
        assert "の番" in alt and "1手目" in alt and " to move" not in alt, alt
