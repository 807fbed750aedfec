"""Taps per move with the Telegram move picker, and the largest keyboard each step shows, over
the moves of random games (page turns ▶ included; Move and, where there is one, Play it too).

* *before*: the picker as it was before issue 26's two steps: the move's notation split into
  parts, a part the rules force taken for the player, the part that completes the move plays
  it (no Play tap), 48 parts to a page.  For Iso-Path this meant up to ~140 tile moves at the
  start, paged, labelled with notation fragments.
* *now*: the same for the other four games; Iso-Path's turn is two steps, each one keyboard
  laid out as the board (``bot.sessions.building``): step 1 the build (the tile, then where it
  goes), step 2 the piece move (the piece, then where it goes), a capture in place of either,
  forced choices skipped, ending in the preview with Play it / Cancel.

"largest" is the most buttons one keyboard of that step showed (Telegram allows 100, 8 a row);
step 1 is the build, step 2 the piece move (for the other games: step 1 the first part, step 2
the rest).

    .venv/bin/python benchmarks/picker_taps.py [--games 3] [--plies 30] [--seed 1] [--size 4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

# The repository in place of this script's folder, whose telegram.py would hide the library.
sys.path[0] = str(Path(__file__).resolve().parents[1])

import engines
from bot.adapters.telegram.watch import picker_markup
from bot.sessions import building
from bot.sessions.picker import PAGE_SIZE, board_step, next_parts, split_parts
from engines import Position
from engines.isopath import IsopathPosition

#: Buttons beside the parts on a paged step: Back, Cancel, Play, ◀ and ▶ at most.
_CONTROLS = 5


def _page_turns(parts: tuple[str, ...], part: str) -> int:
    return parts.index(part) // PAGE_SIZE


def taps_before(position: Position, move: str) -> tuple[int, list[int]]:
    """Move, each part that is a real choice (and its page turns); Play only when the last
    part does not end every move it starts.  With the largest keyboard per step."""
    taps, prefix, largest = 1, "", [0, 0]
    step = next_parts(position, prefix)
    last = False
    for index, part in enumerate(split_parts(move)):
        forced = len(step.parts) == 1 and not step.complete and part not in step.final
        if not forced:
            taps += 1 + _page_turns(step.parts, part)
            shown = min(len(step.parts), PAGE_SIZE) + _CONTROLS
            largest[min(index, 1)] = max(largest[min(index, 1)], shown)
        last = part in step.final
        prefix += part
        step = next_parts(position, prefix)
    return (taps if last else taps + 1), largest


def taps_now(position: Position, move: str) -> tuple[int, list[int]]:
    """Taps with the picker as it is now (Iso-Path: the two steps, then Play it on the
    preview), and the largest keyboard of each step as Telegram lays it out."""
    if not isinstance(position, IsopathPosition):
        return taps_before(position, move)
    path = building.choices_for(position, move)
    taps, selection, largest = 1, "", [0, 0]
    while True:
        step = board_step(1, position.ply, position, selection)
        if step.move is not None:
            return taps + 1, largest  # Play it on the preview
        markup = picker_markup(step)
        assert markup is not None
        buttons = sum(len(row) for row in markup.inline_keyboard)
        stage = building.screen(position, selection).stage.step - 1
        largest[stage] = max(largest[stage], buttons)
        chosen = [a for a in step.parts if a.id.split(":", 4)[4][1:] in path]
        assert len(chosen) == 1, (move, selection, [a.id for a in step.parts])
        selection = chosen[0].id.split(":", 4)[4][1:]
        taps += 1


def main() -> None:
    """Print, per game, the average taps per move and the largest keyboard per step, before
    and now."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", type=int, default=4, help="Iso-Path's board: 4 or 5")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{'game':<10} {'moves':>6} {'taps before':>11} {'taps now':>9} "
        f"{'largest before (1/2)':>21} {'largest now (1/2)':>18}"
    )
    for name in engines.GAMES:
        before: list[int] = []
        now: list[int] = []
        big_before, big_now = [0, 0], [0, 0]
        options = {"size": args.size} if name == "isopath" else {}
        for _ in range(args.games):
            position = engines.new(name, **options)
            for _ in range(args.plies):
                if position.outcome is not None:
                    break
                move = rng.choice(position.legal_moves())
                taps, largest = taps_before(position, move)
                before.append(taps)
                big_before = [max(a, b) for a, b in zip(big_before, largest, strict=True)]
                taps, largest = taps_now(position, move)
                now.append(taps)
                big_now = [max(a, b) for a, b in zip(big_now, largest, strict=True)]
                position = position.play(move)
        label = f"{name} h{args.size}" if name == "isopath" else name
        print(
            f"{label:<10} {len(now):>6} {statistics.fmean(before):>11.2f} "
            f"{statistics.fmean(now):>9.2f} {big_before[0]:>13} / {big_before[1]:<5} "
            f"{big_now[0]:>10} / {big_now[1]:<5}"
        )


if __name__ == "__main__":
    main()
