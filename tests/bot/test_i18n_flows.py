"""The sentences of conditional moves, the daily digest, the web board, the Discord Activity
and Telegram's private picker go through the catalogs too (issue 43, after issues 44-46): run
in the pseudo-locale, no words escape; a Spanish player's ``premove`` answer and daily digest
read in Spanish."""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bot.adapters.commands import execute
from bot.core import i18n
from bot.core.notification import Kind, Notification
from bot.delivery.speaking import language_of
from bot.messages import Chat, Mention, Reply, Text, User
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.texts import activity, board, premoves, private_picks, web
from tests.bot.session_kit import ALICE, BOB, ROOM, session, start_game
from tests.bot.test_i18n import _marked, _unwrapped

DM = Chat("test", "dm-alice", direct=True)
MONDAY = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
WORDS = re.compile(r"[A-Za-z]{2,}")


async def typed(m: SessionManager, user: User, line: str, chat: Chat = DM) -> Reply:
    return await execute(m, user, chat, line, lambda name: None)


async def notes_of(m: SessionManager, user: User, kind: Kind) -> list[Notification]:
    player = await m.players.player(user)
    return [n for n in await m.store.notifications_for(player.id) if n.kind == kind]


def _escaped(said: list[Text | str]) -> list[str]:
    """The texts of ``said`` with words outside the catalogs (rendered in the pseudo-locale)."""
    with i18n.use(i18n.PSEUDO):
        return [str(s) for s in said if WORDS.search(_unwrapped(s))]


# -- every sentence function of the modules, called with plain arguments ---------------------

#: Arguments by annotation: names, moves and numbers, which carry no words of their own.
_SAMPLES: dict[str, list[Any]] = {
    "str": ["x1"],
    "int": [3],
    "bool": [True, False],
    "float | None": [None, 0.0, 90.0, 5400.0, 3 * 86400.0, 2 * 86400.0 + 3600.0],
    "Mention": [Mention("test", "1", "a")],
    "Text": [Text.of(Mention("test", "1", "a"))],
    "Text | str": ["x1"],
    "Sequence[str]": [["c3", "c5", "d4", "d5"]],
    "Sequence[Sequence[str]]": [[], [["c3", "c5"]]],
}
#: Arguments that name a key of a table (a side, a refusal's reason), by function and name.
_KEYS: dict[tuple[str, str], list[Any]] = {
    ("side_word", "name"): ["Red", "Light"],
    ("web_sign_in_refused", "reason"): ["expired", "unknown"],
}


def _calls(module: ModuleType) -> Iterator[tuple[str, Callable[[], Any]]]:
    """Each public sentence function of ``module`` with every mix of sample arguments."""
    for name, function in inspect.getmembers(module, inspect.isfunction):
        if name.startswith("_") or function.__module__ != module.__name__:
            continue
        params = list(inspect.signature(function).parameters.values())
        choices: list[list[Any]] = [[]]
        for p in params:
            samples = _KEYS.get((name, p.name)) or _SAMPLES[str(p.annotation)]  # else add one
            choices = [[*c, s] for c in choices for s in samples]
        for args in choices:
            yield name, functools.partial(function, *args)


@pytest.mark.parametrize("module", [premoves, activity, board, web, private_picks])
def test_pseudo_locale_wraps_every_sentence_of_the_web_activity_premoves_and_pickers(
    module: ModuleType,
) -> None:
    said: list[Text | str] = []
    names = set()
    with i18n.use(i18n.PSEUDO):
        for name, call in _calls(module):
            names.add(name)
            value = call()
            said += list(value.values()) if isinstance(value, dict) else [value]
        # Constants: marked, said where they are used (Telegram's answers, button labels).
        constants: list[str] = []
        for name, value in vars(module).items():
            if name.isupper() and isinstance(value, str):
                constants.append(value)
            elif name.isupper() and isinstance(value, dict):
                constants += list(value.values())
        said += [i18n.gettext(c) for c in constants]
    assert sorted(set(constants) - _marked()) == []  # each one in the catalogs
    assert names  # the module's sentences were found
    assert all("⟦" in str(s) for s in said if isinstance(s, str))
    assert _escaped(said) == []


async def test_pseudo_locale_wraps_the_premove_and_digest_flows(tmp_path: Path) -> None:
    clock = FakeClock(MONDAY)
    said: list[Text | str] = []
    async with session(tmp_path / "p.db", clock) as m:
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok  # Bob's turn
        for user in (ALICE, BOB):
            assert (await m.players.settings(user, "dm", "on")).ok
        lines = [
            f"premove #{gid} b1 => c1; b2 => c2",  # set
            f"premove #{gid} e5 => e4",  # a second line
            f"premove #{gid}",  # the listing
            f"premove #{gid} a1 => c1",  # illegal
            f"premove #{gid} b1 c1",  # malformed
            "premove " + f"#{gid} " + "; ".join(f"b{n} => c{n}" for n in range(1, 12)),
        ]
        replies = [await typed(m, ALICE, line) for line in lines]
        replies.append(await typed(m, BOB, f"premove #{gid} c3 => c4"))  # his turn
        said += [r.body for r in replies]
        said.append((await m.games.move(BOB, ROOM, "b1", gid)).body)  # answered by the line
        said.append((await m.games.move(BOB, ROOM, "d1", gid)).body)  # off the line: dropped
        said += [n.text for n in await notes_of(m, ALICE, Kind.PREMOVE) if n.text is not None]
        assert (await m.games.move(ALICE, ROOM, "f3", gid)).ok  # Bob's turn again
        assert (await typed(m, ALICE, f"premove #{gid} f1 => f2")).ok
        said.append((await typed(m, ALICE, f"premove #{gid} clear")).body)
        said.append((await typed(m, ALICE, f"premove #{gid}")).body)  # none left
        # The daily digest: set, shown in the settings, bad, sent, off.
        said.append((await m.players.settings(BOB, "digest", "08:00 +01:00")).body)
        said.append((await m.players.settings(BOB)).body)
        said.append((await m.players.settings(BOB, "digest", "25:00")).body)
        clock.set(datetime(2026, 1, 6, 7, 0, tzinfo=UTC))
        await m.sweep()
        digests = await notes_of(m, BOB, Kind.DIGEST)
        assert len(digests) == 1
        said += [n.text for n in digests if n.text is not None]
        said.append((await m.players.settings(BOB, "digest", "off")).body)
        said.append((await m.players.settings(BOB, "digest", "off")).body)
    with i18n.use(i18n.PSEUDO):
        assert all("⟦" in str(s) for s in said), said
    assert _escaped(said) == []


# -- a Spanish player -------------------------------------------------------------------------


async def test_a_spanish_players_premove_answer_and_daily_digest_read_in_spanish(
    tmp_path: Path,
) -> None:
    clock = FakeClock(MONDAY)
    async with session(tmp_path / "es.db", clock) as m:
        gid, _ = await start_game(m, "pathagon")
        assert (await m.games.move(ALICE, ROOM, "a1", gid)).ok  # Bob's turn
        spanish = await m.players.speakers(ALICE, DM, "es-ES")  # Telegram's language_code, say
        assert spanish.player == "es"
        answer = await typed(m, ALICE, f"premove #{gid} b1 => c1; b2 => c2")
        assert answer.ok and answer.private
        with i18n.use(spanish.player):
            assert str(answer.body) == (
                f"Línea 1 preparada en la partida #{gid}: si b1, entonces c1; si b2, "
                "entonces c2. Solo tú la ves hasta que se juegue."
            )
        assert (await m.players.settings(ALICE, "digest", "08:00 +01:00")).ok
        assert (await m.games.move(BOB, ROOM, "e5", gid)).ok  # off the line: Alice's turn
        clock.set(datetime(2026, 1, 6, 7, 0, tzinfo=UTC))  # 08:00 at UTC+01:00
        await m.sweep()
        (digest,) = await notes_of(m, ALICE, Kind.DIGEST)
        assert digest.text is not None
        # Kept unsaid in the outbox; delivered in the language Alice's platform said.
        assert await language_of(m.store, digest) == "es"
        with i18n.use(await language_of(m.store, digest)):
            lines = str(digest.text).splitlines()
        assert lines[0] == "Tu resumen diario: te toca en 1 partida."
        assert re.fullmatch(rf"#{gid} Pathagon contra bob: quedan \d días? \d+ horas?\.", lines[1])
        with i18n.use("en"):  # the same notice, for an English reader
            assert str(digest.text).startswith("Your daily digest: it is your turn in 1 game.")
        (dropped,) = await notes_of(m, ALICE, Kind.PREMOVE)
        assert dropped.text is not None
        with i18n.use("es"):
            assert str(dropped.text).startswith(
                f"Tus líneas preparadas en la partida #{gid} Pathagon se descartaron"
            )
