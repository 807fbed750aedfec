"""The rules read in the player's language on the chat platforms (issue 43), through the fakes:
a Spanish player in an English Discord server gets the Spanish page privately while the
server's posts stay English; a Brazilian player on Telegram reads the Portuguese page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.adapters import discord_kit
from tests.adapters.discord_kit import ALICE, BOB, CAROL, CHANNEL, DEADLINE, Run, fake_discord
from tests.adapters.telegram_kit import running as telegram_running


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, discord_kit.running(fake, tmp_path / "h.db") as started:
        yield started


async def _rules(run: Run, user: int, game: str, locale: str) -> str:
    record = await run.fake.slash(user, CHANNEL, "rules", {"game": game}, locale=locale)
    await run.fake.response(record, timeout=DEADLINE)
    answer = await run.fake.original(record, timeout=DEADLINE)
    assert answer.ephemeral  # the rules are the asker's alone
    return answer.content


async def test_the_rules_in_each_readers_language_in_an_english_discord_server(run: Run) -> None:
    # The server's preferred locale is English: its posts are, but each asker reads their own.
    spanish = await _rules(run, BOB, "maphex", "es-ES")
    assert "Un juego de Néstor Romeral Andrés." in spanish and "A game by" not in spanish
    portuguese = await _rules(run, ALICE, "pathagon", "pt-BR")
    assert "Um jogo de Mark Fuchs" in portuguese
    english = await _rules(run, ALICE, "maphex", "en-US")
    assert "A game by Néstor Romeral Andrés." in english
    # A language without pages of its own (Korean is not one of ours) reads the English page.
    korean = await _rules(run, CAROL, "pathagon", "ko")
    assert "A game by Mark Fuchs" in korean


async def test_the_rules_in_portuguese_and_spanish_on_telegram(tmp_path: Path) -> None:
    async with telegram_running(tmp_path / "t.db", pictures=False) as bot:
        fake = bot.fake
        ana = fake.user(21, "Ana", "ana", language_code="pt-br")
        eva = fake.user(22, "Eva", "eva", language_code="es")
        kim = fake.user(23, "Kim", "kim", language_code="ko")
        for user in (ana, eva, kim):
            await fake.start_private(user, send_start=False)
        said = await bot.say(ana, fake.private(ana), "/rules inphexion")
        assert said.text is not None and "Um jogo de Masahiro Nakajima" in said.text, said.text
        said = await bot.say(eva, fake.private(eva), "/rules fixation")
        assert said.text is not None and "Un juego de Kanare Kato" in said.text, said.text
        said = await bot.say(kim, fake.private(kim), "/rules fixation")
        assert said.text is not None and "A game by Kanare Kato" in said.text, said.text
