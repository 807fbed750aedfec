"""The allocations that grew between two tracemalloc snapshots of a ``hexhall run``.

Run: ``.venv/bin/python benchmarks/memtrace/diff.py OLD.pickle NEW.pickle [--by traceback]``.
"""

from __future__ import annotations

import argparse
import tracemalloc


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--by", default="lineno", choices=("lineno", "filename", "traceback"))
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    old = tracemalloc.Snapshot.load(args.old)
    new = tracemalloc.Snapshot.load(args.new)
    print(
        f"traced: {sum(s.size for s in old.statistics('filename')) / 2**20:.1f} MiB -> "
        f"{sum(s.size for s in new.statistics('filename')) / 2**20:.1f} MiB"
    )
    for stat in new.compare_to(old, args.by)[: args.top]:
        where = stat.traceback.format()[0 if args.by != "traceback" else -1].strip()
        print(
            f"{stat.size_diff / 1024:+9.0f} KiB {stat.count_diff:+8d} blocks  "
            f"(now {stat.size / 1024:.0f} KiB)  {where}"
        )
        if args.by == "traceback":
            for line in stat.traceback.format()[-12:]:
                print("      " + line)


if __name__ == "__main__":
    main()
