"""A sixth game touches only its own modules and the two registries (issue 42, "a game is
described once").

The toy game is a copy of Maphex under another name: the source of the game's own modules
(``engines/maphex.py``, ``engines/ai/maphex_player.py``, ``render/maphex.py``) with the name
replaced, loaded as ``engines.toyhex``, ``engines.ai.toyhex_player`` and ``render.toyhex``.
It is registered in the two registries only, for the test's length: its record in
``engines.GAMES`` and its picture in the render registry (which ``render/toyhex.py`` fills
itself, as every game's picture does). Nothing else is told of it, yet it is challenged,
played and resigned through the console, played through the web board's API, rated in its
own pools, pictured and played by the computer player.

Its illegal-move codes keep Maphex's identifiers (``maphex.taken``...), so its refusals read
Maphex's sentences (``bot/sessions/texts/illegal/maphex.py`` holds one per code: the toy has
no module of sentences of its own, and a code reads the same as the one of equal value).
"""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
import types
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

import engines
import render
from bot.adapters.commands import execute
from bot.adapters.console import Console
from bot.adapters.discord.commands import add_commands
from bot.adapters.discord.sync import payload
from bot.adapters.discord.translator import CatalogTranslator
from bot.ratings import Pool, pool_of, pools_of_game
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from engines.ai import choose_move
from engines.ai.hooks import knowledge_of
from render import _pipeline
from tests.bot.session_kit import ALICE, ROOM
from tests.web.kit import ADA, BO, TG_GROUP, init_data, new_game, site

TOY = "toyhex"
#: The game's own modules, copied: (the original, the copy's name).
OWN_MODULES = (
    ("engines.maphex", "engines.toyhex"),
    ("engines.ai.maphex_player", "engines.ai.toyhex_player"),
    ("render.maphex", "render.toyhex"),
)


def _renamed(source: str) -> str:
    # The game's name everywhere but in its illegal-move codes ("maphex.taken": a dot follows).
    return re.sub(r"maphex(?!\.)", TOY, source).replace("Maphex", "Toyhex")


def _load_copy(original: str, name: str) -> types.ModuleType:
    spec = importlib.util.find_spec(original)
    assert spec is not None and spec.origin is not None
    module = types.ModuleType(name)
    module.__file__ = spec.origin.replace("maphex", TOY)
    sys.modules[name] = module
    code = compile(_renamed(Path(spec.origin).read_text()), module.__file__, "exec")
    exec(code, module.__dict__)
    return module


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[engines.Game]:
    """The toy game, registered in ``engines.GAMES`` and render's registry while a test runs."""
    for _, name in OWN_MODULES:
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.setattr(_pipeline, "_ARTS", dict(_pipeline._ARTS))
    modules = [_load_copy(original, name) for original, name in OWN_MODULES]
    game = modules[0].GAME
    assert isinstance(game, engines.Game) and game.name == TOY
    monkeypatch.setitem(engines.GAMES, TOY, game)
    yield game
    for _, name in OWN_MODULES:
        sys.modules.pop(name, None)


def test_the_copy_is_a_game_of_its_own(toy: engines.Game) -> None:
    position = engines.new(TOY).play("5").play("e5")
    assert position.game == TOY and type(position).__name__ == "ToyhexPosition"
    assert engines.from_dict(position.to_dict()) == position
    assert [p.last_move for p in engines.replay(TOY, ["5", "e5"])] == [None, "5", "e5"]
    with pytest.raises(engines.IllegalMove) as refused:
        position.play("e5")
    assert str(refused.value) == "e5 is already taken"
    # Its rating pools come from its record alone.
    assert [p.key for p in pools_of_game(TOY)] == ["toyhex9", "toyhex16"]
    assert pool_of(TOY, {"size": "16"}) is Pool("toyhex16")
    assert Pool("toyhex9").title == "Toyhex 9×9" and Pool("toyhex9").game == TOY


def test_the_toy_is_pictured_and_played_by_the_computer(toy: engines.Game) -> None:
    position = engines.new(TOY).play("5").play("e5")
    png = render.board_png(position)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert render.board_image(position).size == (1000, 700)
    assert render.describe(position).startswith("Toyhex 9x9, move 3. Red: e5; Blue: none.")
    # Its palette is its record's: Red and Blue, as the game it copies.
    theme = render.Theme()
    assert theme.sides(TOY) == (theme.red, theme.blue)
    # The computer player finds its knowledge through the record.
    assert type(knowledge_of(position)).__name__ == "ToyhexKnowledge"
    assert choose_move(position, iterations=50, seed=1) in position.legal_moves()


def _feeder(lines: list[bytes]) -> Callable[[], Awaitable[bytes]]:
    queue = list(lines)

    async def read() -> bytes:
        return queue.pop(0) if queue else b""

    return read


async def test_the_toy_is_played_through_the_console(toy: engines.Game, tmp_path: Path) -> None:
    script = [
        b"as alice\n",
        b"challenge bob toyhex size=9 first=them days=none\n",
        b"as bob\n",
        b"accept\n",
        b"5\n",
        b"move e5\n",
        b"move e5\n",  # bob to move: e5 is taken
        b"history\n",
        b"resign !\n",
        b"quit\n",
    ]
    store = await SqliteStore.open(tmp_path / "h.db")
    out, err = io.StringIO(), io.StringIO()
    try:
        manager = SessionManager(store, FakeClock())
        console = Console(manager, tmp_path / "boards", out=out, err=err, read_line=_feeder(script))
        assert await console.run() == 0
    finally:
        await store.close()
    shown = out.getvalue()
    assert "#1 Toyhex, move 1: bob (Blue) played 5. alice (Red) to move." in shown
    assert "! Illegal move in #1: e5 is already taken" in shown
    assert "\n1. 5 e5\n" in shown
    assert "bob resigned #1: alice (Red) wins (resignation)." in shown
    assert "Toyhex 9x9, move 3." in shown  # the picture's description after every move
    pictures = list((tmp_path / "boards").glob("*.png"))
    assert pictures and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pictures)


async def test_the_toy_is_played_through_the_web_api(toy: engines.Game, tmp_path: Path) -> None:
    async with site(str(tmp_path / "web.db")) as web:
        gid = await new_game(web.manager, TOY, ADA, BO, TG_GROUP, ["5"])
        link = await web.board.link(gid)
        slug = link.rsplit("/", 1)[1]
        ada = {"Authorization": "tma " + init_data(ADA, web.clock)}
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{web.url}/api/games/{slug}", headers=ada) as answer:
                assert answer.status == 200
                state = json.loads(await answer.read())
            assert state["you"] == 0 and state["can_move"] is True
            assert len(state["board"]["cells"]) == 81
            async with http.get(f"{web.url}/api/games/{slug}/next?prefix=") as answer:
                step = json.loads(await answer.read())
            assert "e5" in [choice["c"] for choice in step["choices"]]
            body = json.dumps({"move": "e5", "ply": 1})
            async with http.post(
                f"{web.url}/api/games/{slug}/moves", data=body, headers=ada
            ) as answer:
                assert answer.status == 200
                moved = json.loads(await answer.read())
            assert moved["ok"], moved
            async with http.get(f"{link}/board.png") as answer:
                assert answer.status == 200 and (await answer.read())[:8] == b"\x89PNG\r\n\x1a\n"
        row = await web.manager.store.get_game(gid)
        assert row is not None and row.game == TOY and row.ply == 2


class _Host:
    """What the slash commands need of a bot, for building them (none is run here)."""

    manager: SessionManager
    user = None

    async def run_command(self, interaction: Any, command: Any, args: Any) -> None:
        raise AssertionError("no command is run here")


async def test_the_toy_s_options_are_offered_as_commands(
    toy: engines.Game, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Its options come from its record: the typed ``name=value`` reaches the game, and
    Discord's commands (``/challenge``, ``/tournament new``) offer each, with its values."""
    stones = engines.Option("stones", ("few", "many"), "few", "how many stones")
    monkeypatch.setitem(engines.GAMES, TOY, replace(toy, options=(*toy.options, stones)))
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    await tree.set_translator(CatalogTranslator())
    add_commands(_Host(), tree)
    uploaded = {c["name"]: c for c in await payload(tree, guild=False)}
    new = next(o for o in uploaded["tournament"]["options"] if o["name"] == "new")
    for command in (uploaded["challenge"], new):
        options = {o["name"]: o for o in command["options"]}
        assert TOY in [c["value"] for c in options["game"]["choices"]]
        assert [c["value"] for c in options["stones"]["choices"]] == ["few", "many"]
        assert options["stones"]["description"] == "Option of Toyhex (empty: the game's default)"
        assert "Toyhex" in options["size"]["description"]
        localized = options["stones"]["description_localizations"]["ja"]
        assert localized.startswith("Toyhexの")
    await client.close()
    # Typed, the option reaches the game, which says which values it takes.
    store = await SqliteStore.open(tmp_path / "h.db")
    try:
        manager = SessionManager(store, FakeClock())
        line = f"challenge bot {TOY} stones=lots"
        said = await execute(manager, ALICE, ROOM, line, lambda _: None)
    finally:
        await store.close()
    assert not said.ok and "stones" in said.text and "few" in said.text
