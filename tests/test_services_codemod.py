"""The codemod that moved calls of the old session-manager facade onto its services
(``docs/tools/services_codemod.py``): one table, idempotent, and the tree is migrated."""

from __future__ import annotations

import pytest

from bot.sessions import services
from bot.sessions.manager import SessionManager
from tests.scripts import ROOT, load_script

codemod = load_script("docs/tools/services_codemod.py")

BEFORE = """\
async def run(manager, m, self):
    reply = await manager.move(user, chat, "e5")
    await self.manager.accept(user, chat, 1)
    await self.client.manager.remember_post("tg", "1", "2", PostKind.BOARD)
    listed = await m.games(user, 2)
    suggest = manager.suggest_moves
    rows = [m.move for m in moved]
    outbox = Outbox(manager.store, manager.clock, bell=manager.bell)
    monkeypatch.setattr(run.manager, "board", broken)
    return await m.tournament_new(user, chat, "maphex")
"""
AFTER = """\
async def run(manager, m, self):
    reply = await manager.games.move(user, chat, "e5")
    await self.manager.challenges.accept(user, chat, 1)
    await self.client.manager.posts.remember_post("tg", "1", "2", PostKind.BOARD)
    listed = await m.games.games(user, 2)
    suggest = manager.games.suggest_moves
    rows = [m.move for m in moved]
    outbox = manager.outbox()
    monkeypatch.setattr(run.manager.games, "board", broken)
    return await m.tournaments.tournament_new(user, chat, "maphex")
"""


def test_calls_are_rewritten_once_from_the_table() -> None:
    path = ROOT / "tests" / "example.py"
    once = codemod.rewrite(path, BEFORE)
    assert once == AFTER
    assert codemod.rewrite(path, once) == once  # idempotent: a second run changes nothing


def test_a_surface_imports_the_shared_values_from_core() -> None:
    source = "from bot.storage import Post, PostKind, StoreError\nfrom bot.storage import X\n"
    path = ROOT / "bot" / "adapters" / "example.py"
    assert codemod.rewrite(path, source) == (
        "from bot.core.errors import StoreError\n"
        "from bot.core.posts import Post, PostKind\n"
        "from bot.storage import X\n"
    )
    # Below the surfaces the store's own names stay as they are.
    assert codemod.rewrite(ROOT / "bot" / "sessions" / "example.py", source) == source


#: The service each attribute of the manager is.
SERVICES = {
    "games": services.Games,
    "challenges": services.Challenges,
    "tournaments": services.Tournaments,
    "players": services.Players,
    "posts": services.Posts,
    "web": services.Web,
}


def test_every_method_of_the_table_is_its_services_and_no_longer_the_managers() -> None:
    assert set(codemod.SERVICE_OF.values()) == set(SERVICES)
    for name, service in codemod.SERVICE_OF.items():
        assert callable(getattr(SERVICES[service], name, None)), (service, name)
        assert not hasattr(SessionManager, name), name


def test_the_tree_is_migrated(capsys: pytest.CaptureFixture[str]) -> None:
    """No call of the old facade is left (a branch that adds one: run the codemod)."""
    assert codemod.main(["--check"]) == 0, capsys.readouterr().out
