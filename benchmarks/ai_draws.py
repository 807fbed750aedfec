"""The bot's draws on replayed positions (issue 49): where it offers a draw, whether it accepts
one, from which ply a player may claim one, and what a draw check costs.

Run: ``nice -n 10 .venv/bin/python benchmarks/ai_draws.py`` (or ``benchmarks/ai.py --draws``;
``--nodes N`` for another assessment budget, ``--rounds N`` for longer shuffles).

The replayed games: each game's held line and won line (``tests/engines/ai/test_draws.py``:
openings kept even, and seat 0 searching against random moves), and two Iso-Path shuffles that
make no progress: the opening's four turns that bring the start back (held), and four turns
from the won line's 11th ply where White is some 260 points ahead, repeated.  For every bot
seat it prints the plies at which the bot, having just moved there, offers a draw (``held``:
the game just became held; ``quiet``: 100 plies without progress), whether it would accept a
draw at the line's end, the plies without progress at the end and the first ply at which the
player's ``draw`` is a claim; then the median and longest processor time of one
:func:`~engines.ai.draws.should_offer` check (what the bot adds to a move).  In a shuffle only
its first 40 plies and the plies at 100 without progress are checked (the rest repeat them).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engines
from engines.ai.draws import (
    ASSESS_NODES,
    CLAIM_AFTER,
    OFFER_AFTER,
    held,
    quiet_plies,
    should_offer,
)
from tests.engines.ai.test_draws import HELD, SHUFFLE, WON
from tests.engines.ai.test_progress import SHUFFLE as AHEAD_SHUFFLE


def _moves(text: str) -> list[str]:
    return text.split(",") if "," in text else text.split()


def lines(rounds: int) -> list[tuple[str, str, list[str]]]:
    """(game, name, moves) of every replayed line."""
    out = [(game, "held", _moves(text)) for game, text in sorted(HELD.items())]
    out += [(game, "won", _moves(text)) for game, text in sorted(WON.items())]
    out.append(("isopath", "shuffle (held)", SHUFFLE * rounds))
    out.append(("isopath", "shuffle (ahead)", _moves(WON["isopath"])[:11] + AHEAD_SHUFFLE * rounds))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=ASSESS_NODES, help="assessment budget")
    parser.add_argument("--rounds", type=int, default=40, help="rounds of each shuffle")
    ns = parser.parse_args(argv)
    print(f"assessments of {ns.nodes} evaluations; offer after {OFFER_AFTER} quiet plies, "
          f"claim after {CLAIM_AFTER}")  # fmt: skip
    times: list[float] = []
    for game, name, moves in lines(ns.rounds):
        positions = list(engines.replay(game, moves))
        quiet = [quiet_plies(positions[: n + 1]) for n in range(len(positions))]
        claim = next((n for n, q in enumerate(quiet) if q >= CLAIM_AFTER), None)
        for seat in (0, 1):
            offers = []
            for n in range(1, len(positions)):
                if positions[n - 1].to_move != seat or positions[n].outcome is not None:
                    continue
                if n > 40 and not OFFER_AFTER <= quiet[n] < OFFER_AFTER + 2:
                    # A shuffle's positions were judged in its first rounds: only the quiet
                    # offer is left to find (the held check repeats the same few positions).
                    continue
                start = time.process_time()
                offered = should_offer(positions[: n + 1], seat, ns.nodes)
                times.append(time.process_time() - start)
                if offered:
                    offers.append(f"{n}({'quiet' if quiet[n] >= OFFER_AFTER else 'held'})")
            accepts = held(positions, seat, nodes=ns.nodes)
            said = ", ".join(offers) or "none"
            print(
                f"{game:9} {name:15} bot seat {seat}: {len(moves):3} plies, offers at {said:22}"
                f" accepts at the end: {'yes' if accepts else 'no':3} quiet plies {quiet[-1]:3},"
                f" claim from ply {claim if claim is not None else '-'}",
                flush=True,
            )
    print(
        f"one offer check: median {statistics.median(times) * 1000:.0f} ms, "
        f"longest {max(times) * 1000:.0f} ms processor time ({len(times)} checks)"
    )


if __name__ == "__main__":
    main()
