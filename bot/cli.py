"""The ``hexhall`` command (a first version: local Maphex in the terminal)."""

from __future__ import annotations

import sys

import engines


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``hexhall`` console script."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] not in ("run", "play"):
        print(f"hexhall: unknown command {args[0]!r} (commands: run, play)", file=sys.stderr)
        return 2
    pos = engines.new("maphex")
    sides = engines.GAMES["maphex"].sides
    print("Maphex on 9x9. Type a move (e.g. 5, then e5), or 'quit'.")
    while pos.outcome is None:
        try:
            line = input(f"{sides[pos.to_move]} to move> ")
        except EOFError:
            return 0
        if line.strip().lower() in ("quit", "exit"):
            return 0
        try:
            pos = pos.play(line)
        except engines.IllegalMove as exc:
            print(exc)
    winner = pos.outcome.winner
    print(f"{sides[winner] if winner is not None else 'Nobody'} wins ({pos.outcome.reason}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
