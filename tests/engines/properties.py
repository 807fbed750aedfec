"""The property-test harness every game plugs into with one class line.

A game's test module adds::

    class TestProperties(GameProperties):
        game, option_sets = "maphex", ({}, {"size": 16})

and gets random playouts, legal-move round trips, serialisation round trips, immutability
and garbage-input checks.  ``max_plies`` caps a playout for games that can go on for a long
time (it is then only required that no step fails, not that an outcome is reached).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from bot.core.lru import Lru
from engines import IllegalMove, Position

GARBAGE = [
    "",
    "   ",
    "\x00",
    "\n",
    "a1\x00",
    "e5; DROP TABLE games;--",
    "' OR 1=1 --",
    "<b>e5</b>",
    "**e5**",
    "[e5](http://x)",
    "@everyone",
    "é5",
    "🙂",
    "ｅ５",
    "z" * 10_000,
    "a1 " * 500,
    "1" * 50,
    "-1",
    "0",
    "a0",
    "a-",
    ">",
    "x",
    "swap swap",
]


#: The random games played last in this process, by (game, options, seed): their positions
#: and generators, to play on where a later caller asks for more plies.  Bounded: a position
#: keeps its legal moves once listed (an Iso-Path one some 300 kB): with every game kept, one
#: process running tests/render and tests/engines peaked at 2.8 GB; with 4, at 1.4 GB and no
#: more CPU (the tests ask for the same game one after the other).
_PLAYED: Lru[tuple[str, str, int], tuple[list[Position], random.Random]] = Lru(4)


def random_game(game: str, options: dict[str, Any], seed: int, max_plies: int) -> list[Position]:
    """The positions of one random game from the start (capped at ``max_plies`` moves).

    The same seed plays the same game whatever the cap (a shorter cap gives a prefix), so a
    game is played once a process and handed out again as a new list: many tests draw the
    same games, and listing every legal move of every ply is most of their cost."""
    key = (game, json.dumps(options, sort_keys=True), seed)
    played = _PLAYED.get(key)
    if played is None:
        played = _PLAYED[key] = ([engines.new(game, **options)], random.Random(seed))
    seen, rng = played
    pos = seen[-1]
    while pos.outcome is None and len(seen) <= max_plies:
        # The same move as rng.choice(legal_moves()), without listing Iso-Path's thousands of
        # turns (2.4 s an h5 game of 300 plies); tests/engines/test_isopath.py shows they agree.
        try:
            move = pos.random_move(rng)
        except IndexError:
            raise AssertionError(f"{game}: no legal move but no outcome at ply {pos.ply}") from None
        pos = pos.play(move)
        seen.append(pos)
    return seen[: max_plies + 1]


# These tests are inherited by every game's TestProperties class, so Hypothesis sees one test
# run from several classes ("differing executors"); that is intended, not a flaky setup.
_SUPPRESSED = [HealthCheck.too_slow, HealthCheck.differing_executors]

_GAMES_CACHE: dict[tuple[str, str, int, int], list[Position]] = {}


class GameProperties:
    """Property tests shared by every game; subclasses set ``game`` and ``option_sets``."""

    game: ClassVar[str]
    option_sets: ClassVar[tuple[dict[str, Any], ...]] = ({},)
    #: longest playout checked; ``None`` means every random game must reach an outcome
    max_plies: ClassVar[int | None] = None
    #: how many random games the tests draw from (each is played once and cached)
    examples: ClassVar[int] = 25
    #: at most this many legal moves of one position are played back (``None``: all of them)
    moves_checked: ClassVar[int | None] = None

    def _positions(self, seed: int) -> list[Position]:
        seed %= self.examples
        options = self.option_sets[seed % len(self.option_sets)]
        cap = self.max_plies if self.max_plies is not None else 100_000
        key = (self.game, json.dumps(options, sort_keys=True), seed, cap)
        if key not in _GAMES_CACHE:
            _GAMES_CACHE[key] = random_game(self.game, options, seed, cap)
        return _GAMES_CACHE[key]

    def test_random_playouts_end_with_an_outcome(self) -> None:
        for seed in range(self.examples):
            positions = self._positions(seed)
            last = positions[-1]
            if self.max_plies is None:
                assert last.outcome is not None
            if last.outcome is not None:
                assert last.legal_moves() == []
                assert last.outcome.winner in (0, 1, None)
                assert last.outcome.termination in engines.GAMES[self.game].terminations

    @settings(max_examples=30, deadline=None, suppress_health_check=_SUPPRESSED)
    @given(seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
    def test_every_legal_move_is_accepted_and_play_never_changes_its_input(
        self, seed: int, pick: random.Random
    ) -> None:
        positions = self._positions(seed)
        pos = pick.choice(positions)
        snapshot = copy.deepcopy(pos.to_dict())
        moves = pos.legal_moves()
        if self.moves_checked is not None and len(moves) > self.moves_checked:
            moves = pick.sample(moves, self.moves_checked)
        for move in moves:
            nxt = pos.play(move)
            assert nxt.ply == pos.ply + 1
            assert nxt.last_move == move
            # Input is case-insensitive and tolerant of spacing.
            assert pos.play("  " + move.upper() + " ") == nxt
        assert pos.to_dict() == snapshot

    @settings(max_examples=30, deadline=None, suppress_health_check=_SUPPRESSED)
    @given(seed=st.integers(0, 10**6), pick=st.randoms(use_true_random=False))
    def test_to_dict_round_trips(self, seed: int, pick: random.Random) -> None:
        pos = pick.choice(self._positions(seed))
        data = json.loads(json.dumps(pos.to_dict()))
        back = engines.from_dict(data)
        assert back == pos
        assert hash(back) == hash(pos)
        assert back.legal_moves() == pos.legal_moves()

    @settings(max_examples=40, deadline=None, suppress_health_check=_SUPPRESSED)
    @given(
        seed=st.integers(0, 10**6),
        pick=st.randoms(use_true_random=False),
        text=st.one_of(st.sampled_from(GARBAGE), st.text(max_size=30)),
    )
    def test_moves_not_in_legal_moves_are_refused(
        self, seed: int, pick: random.Random, text: str
    ) -> None:
        pos = pick.choice(self._positions(seed))
        legal = set(pos.legal_moves())
        folded = " ".join(text.lower().split())
        if folded in legal:
            return
        snapshot = pos.to_dict()
        try:
            result = pos.play(text)
        except IllegalMove as exc:
            message = str(exc)
            assert message and "\n" not in message
        else:
            # Only another spelling of a legal move may be accepted.
            assert result.last_move in legal, f"{text!r} accepted as {result.last_move!r}"
        assert pos.to_dict() == snapshot

    def test_non_text_moves_are_refused(self) -> None:
        pos = engines.new(self.game, **self.option_sets[0])
        junk: Any
        for junk in (None, 5, b"a1", ["a1"]):
            try:
                pos.play(junk)
            except IllegalMove:
                pass
            else:
                raise AssertionError(f"{junk!r} was accepted as a move")

    def test_positions_are_values(self) -> None:
        a = engines.new(self.game, **self.option_sets[0])
        b = engines.new(self.game, **self.option_sets[0])
        assert a == b and hash(a) == hash(b)
        assert a.play(a.legal_moves()[0]) == b.play(b.legal_moves()[0])
        assert a.to_move in (0, 1) and a.ply == 0 and a.last_move is None and a.outcome is None
