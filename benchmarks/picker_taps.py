"""Taps per move with the Telegram move picker: the picker as it was (every part tapped, then
"Play") against the picker now (a part the rules force is taken for the player, the part that
completes the move plays it), over the moves of random games, page turns (▶) included.

    .venv/bin/python benchmarks/picker_taps.py [--games 4] [--plies 40] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import engines
from bot.sessions.picker import PAGE_SIZE, next_parts, split_parts
from engines import Position


def _page_turns(parts: tuple[str, ...], part: str) -> int:
    return parts.index(part) // PAGE_SIZE


def taps_before(position: Position, move: str) -> int:
    """Move, each part (and the page turns to reach it), then Play."""
    taps, prefix = 1, ""
    for part in split_parts(move):
        step = next_parts(position, prefix)
        taps += 1 + _page_turns(step.parts, part)
        prefix += part
    return taps + 1


def taps_now(position: Position, move: str) -> int:
    """Move, each part that is a real choice (and its page turns); Play only when the last
    part does not end every move it starts."""
    taps, prefix = 1, ""
    step = next_parts(position, prefix)
    for part in split_parts(move):
        forced = len(step.parts) == 1 and not step.complete and part not in step.final
        if not forced:
            taps += 1 + _page_turns(step.parts, part)
        last = part in step.final
        prefix += part
        step = next_parts(position, prefix)
    return taps if last else taps + 1


def main() -> None:
    """Print the average taps per move of each game, before and now."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(f"{'game':<10} {'moves':>6} {'before':>7} {'now':>6}")
    for name in engines.GAMES:
        before: list[int] = []
        now: list[int] = []
        for _ in range(args.games):
            position = engines.new(name)
            for _ in range(args.plies):
                if position.outcome is not None:
                    break
                move = rng.choice(position.legal_moves())
                before.append(taps_before(position, move))
                now.append(taps_now(position, move))
                position = position.play(move)
        print(
            f"{name:<10} {len(now):>6} {statistics.fmean(before):>7.2f} "
            f"{statistics.fmean(now):>6.2f}"
        )


if __name__ == "__main__":
    main()
