"""Discord's commands in each language (issue 43): the uploaded commands carry their names',
their options' names and their choices' names in every language that ships, each a name
Discord takes (checked by the fake, which refuses what Discord refuses), distinct among its
siblings; ``tournament`` is a group of subcommands; a localized command answers as the English
one does (Discord sends the English name of what a player picks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.adapters.discord.translator import valid_name
from bot.core import i18n
from tests.adapters.discord_kit import (
    ALICE,
    CHANNEL,
    DEADLINE,
    Run,
    fake_discord,
    labels,
    running,
)

#: Discord's locales for each catalog.
LOCALES = {
    "es": ("es-ES", "es-419"),
    "ja": ("ja",),
    "de": ("de",),
    "fr": ("fr",),
    "pt_BR": ("pt-BR",),
}


@pytest.fixture
async def run(tmp_path: Path) -> Any:
    async with fake_discord() as fake, running(fake, tmp_path / "hexhall.db") as started:
        yield started


def _named(items: list[dict[str, Any]], path: str = "") -> list[tuple[str, list[dict[str, Any]]]]:
    """Every list of siblings with names (commands, options, subcommands), with where it is."""
    found = [(path or "/", items)]
    for item in items:
        options = [o for o in item.get("options") or [] if isinstance(o, dict)]
        if options:
            found += _named(options, f"{path}/{item['name']}")
    return found


async def test_every_uploaded_name_is_localized_valid_and_unique(run: Run) -> None:
    synced = run.fake.commands()
    for where, siblings in _named(synced):
        for locales in LOCALES.values():
            for locale in locales:
                said = [
                    (s.get("name_localizations") or {}).get(locale, s["name"]) for s in siblings
                ]
                assert all(valid_name(name) for name in said), (where, locale, said)
                assert len(set(said)) == len(said), (where, locale, said)
    # Every command of ours has its name in each language (a game option's stays its own).
    for command in synced:
        assert set(command["name_localizations"]) >= {"es-ES", "es-419", "ja", "de", "fr", "pt-BR"}


async def test_names_options_and_choices_are_uploaded_in_each_language(run: Run) -> None:
    synced = {c["name"]: c for c in run.fake.commands()}
    move = synced["move"]
    assert move["name_localizations"]["es-ES"] == "mover"
    assert move["name_localizations"]["ja"] == "指す"
    options = {o["name"]: o for o in move["options"]}
    assert options["move"]["name_localizations"]["fr"] == "coup"
    assert options["game"]["name_localizations"]["de"] == "spiel"
    first = next(o for o in synced["challenge"]["options"] if o["name"] == "first")
    me = next(c for c in first["choices"] if c["value"] == "me")
    assert me["name_localizations"]["fr"] == "moi" and me["name_localizations"]["pt-BR"] == "eu"
    days = next(o for o in synced["challenge"]["options"] if o["name"] == "days")
    assert days["choices"][0]["name_localizations"]["es-ES"] == "sin reloj"
    # A game's title is its own in every language.
    game = next(o for o in synced["challenge"]["options"] if o["name"] == "game")
    assert all(not c.get("name_localizations") for c in game["choices"])
    # A game option's description is the catalog's, filled with the games that have it.
    pie = next(o for o in synced["challenge"]["options"] if o["name"] == "pie")
    assert pie["description"].startswith("Option of inpHeXion")
    assert pie["description_localizations"]["es-ES"].startswith("Opción de inpHeXion")


async def test_tournament_is_a_group_with_its_subcommands(run: Run) -> None:
    tournament = next(c for c in run.fake.commands() if c["name"] == "tournament")
    subcommands = {o["name"]: o for o in tournament["options"]}
    assert list(subcommands) == ["new", "join", "leave", "start", "cancel", "standings"]
    assert all(o["type"] == 1 for o in subcommands.values())
    assert tournament["name_localizations"]["de"] == "turnier"
    assert subcommands["join"]["name_localizations"]["ja"] == "参加"
    assert subcommands["standings"]["description_localizations"]["fr"] == (
        "Le classement d'un tournoi"
    )
    # Picked in Japanese, it reaches the bot by its English names: the sign-up card (in the
    # server's language, English here).
    record = await run.fake.slash(
        ALICE, CHANNEL, "tournament new", {"game": "pathagon", "days": "1"}, locale="ja"
    )
    await run.fake.response(record, timeout=DEADLINE)
    card = await run.fake.original(record, timeout=DEADLINE)
    assert "Join" in labels(card)


@pytest.mark.parametrize("code", list(LOCALES))
def test_every_catalog_name_is_a_name_discord_takes(code: str) -> None:
    path = i18n.LOCALES_DIR / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=code)
    names = [m for m in catalog if m.id and m.context in ("command", "option")]
    choices = [m for m in catalog if m.id and m.context == "choice"]
    assert len(names) > 40 and len(choices) > 15
    assert [m.string for m in names if not valid_name(str(m.string))] == []
    assert [m.string for m in choices if not 1 <= len(str(m.string)) <= 100] == []
