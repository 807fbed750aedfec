"""The positions a phone-readability check draws: every game in every size and option, at its
start, mid-game (with a last move), at the moves that capture, trap, relocate or threaten, at
its end, and with a result the bot decided; each with long player names and a clock.

Shared by ``tests/render/test_phone.py`` and ``benchmarks/render.py --texts`` (which prints
the smallest text of each game as a phone shows it).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import engines
import render
from engines import Outcome, Position
from render import _pipeline
from tests.engines.properties import random_game

#: every size and option of every game
OPTIONS: dict[str, tuple[dict[str, Any], ...]] = {
    "maphex": ({}, {"size": 16}),
    "inphexion": (*({"size": n} for n in (5, 6, 7, 8, 9)), {"pie": False}),
    "pathagon": ({},),
    "fixation": ({},),
    "isopath": ({}, {"size": 5}),
}
#: a long name (Telegram allows 64 characters for a first name) and a short one
LONG_NAMES = ("Maximiliane Alexandra von Hohenzollern-Sigmaringen", "Bo")
#: the longest clock text the bot writes (``bot/sessions/texts/standings.py``)
CLOCK = "13 days 23 h left"
#: views: (name, displayed width, unit, the smallest readable font size in that unit)
PHONE = ("Telegram on a phone", 330, "dp", 9.0)
DISCORD = ("Discord embed", 400, "px", 11.0)
VIEWS = (PHONE, DISCORD)


@dataclass(frozen=True)
class Case:
    """One picture to check: a position and what the bot passes with it."""

    label: str
    position: Position
    players: tuple[str, str] | None
    clock: str | None
    outcome: Outcome | None

    def texts(self) -> tuple[tuple[int, int], list[render.TextMark]]:
        """The picture's size and texts (``render.board_texts``), drawn once per case: each
        view's test and the layout test read the same texts (do not change them)."""
        drawn: tuple[tuple[int, int], list[render.TextMark]] | None = self.__dict__.get("_texts")
        if drawn is None:
            drawn = render.board_texts(
                self.position, players=self.players, clock=self.clock, outcome=self.outcome
            )
            object.__setattr__(self, "_texts", drawn)  # a cache, not a field: frozen stays true
        return drawn


def _marked(position: Position) -> bool:
    """Whether the position shows an effect of the last move or a threat."""
    art = _pipeline.art_for(position)
    if position.last_move is None:
        return False
    return bool(art.effects_text(position) or art.turn_text(position))


def variant_name(game: str, options: dict[str, Any]) -> str:
    """A variant's name, the first word of its cases' labels: ``inphexion-size=5``."""
    return game + "".join(f"-{k}={v}" for k, v in options.items())


#: every variant's name with its game and options, in the order :func:`cases` yields them
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    variant_name(game, options): (game, options)
    for game in engines.GAMES
    for options in OPTIONS[game]
}


@functools.cache
def variant_cases(name: str, seeds: range = range(3)) -> tuple[Case, ...]:
    """Every case of the variant ``name`` (a key of :data:`VARIANTS`).

    Built on first use and kept, so collecting the tests plays no game and the tests that
    share a variant play its random games once.
    """
    game, options = VARIANTS[name]
    return tuple(_variant_cases(name, game, options, seeds))


def _variant_cases(name: str, game: str, options: dict[str, Any], seeds: range) -> Iterator[Case]:
    for seed in seeds:
        plies = random_game(game, options, seed, max_plies=300)
        start, mid, end = plies[0], plies[len(plies) // 2], plies[-1]
        marked = list(itertools.islice(filter(_marked, plies), 3))
        long = (LONG_NAMES, LONG_NAMES[::-1])[seed % 2]
        yield Case(f"{name} start", start, None, None, None)
        yield Case(f"{name} start, names", start, long, CLOCK, None)
        yield Case(f"{name} mid {seed}", mid, long, CLOCK, None)
        yield Case(f"{name} mid {seed}, no names", mid, None, None, None)
        for k, p in enumerate(marked):
            yield Case(f"{name} marks {seed}.{k}", p, long, CLOCK, None)
        yield Case(f"{name} end {seed}", end, long, None, None)
        for outcome in (Outcome(1, "resignation"), Outcome(None, "agreement")):
            yield Case(f"{name} {outcome.termination} {seed}", mid, long, None, outcome)
    start = engines.new(game, **options)
    yield Case(f"{name} aborted", start, LONG_NAMES, None, Outcome(None, "aborted"))
    yield Case(f"{name} time", start, LONG_NAMES, None, Outcome(0, "time"))


def cases(seeds: range = range(3)) -> Iterator[Case]:
    """Every case, game by game."""
    for name in VARIANTS:
        yield from variant_cases(name, seeds)


def smallest(case: Case, view: tuple[str, int, str, float]) -> tuple[float, render.TextMark]:
    """The smallest words (not icons) of ``case`` as ``view`` shows them: font size in the
    view's unit, and the text."""
    (width, _), texts = case.texts()
    scale = view[1] / width
    words = [t for t in texts if not t.icon]
    least = min(words, key=lambda t: t.size)
    return least.size * scale, least
