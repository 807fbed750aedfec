"""How many private notices a player of a 10-player round-robin gets a day, with and without
the daily digest (issue 46).

Run: ``.venv/bin/python benchmarks/digest.py`` (``--days 7 --players 10 --seed 1``).

Ten players, every pair playing one Pathagon game at three days per move (9 games at once per
player, as in a round-robin tournament), all with direct messages on.  Each simulated day every
game gets two moves at random times of day (whoever is to move plays a random legal move):
each player answers once a day in each of their games.  The real
session manager on a fresh SQLite file with the injected clock stores every move and every
notice; the clock sweep runs every hour (reminders, and the digests).  Counted per player and
day: the private notices (turn notices, reminders, digests) the outbox was given to send.  The
board in each game's chat, which names the player to move, is counted apart (the digest
changes nothing there).  Run once with nobody's digest on, once with everyone's at 08:00.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.messages import Chat, User
from bot.sessions.clock import FakeClock
from bot.sessions.loading import from_snapshot
from bot.sessions.manager import SessionManager
from bot.storage import open_store

ROOM = Chat("bench", "tournament-room")
START = datetime(2026, 1, 5, 0, 0, tzinfo=UTC)


async def run(
    players: int, days: int, seed: int, digest: bool
) -> tuple[float, float, Counter[str]]:
    """Private notices and chat boards per player per day, and the private ones by kind."""
    rng = random.Random(seed)
    clock = FakeClock(START)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(Path(tmp) / "bench.db")
        m = SessionManager(store, clock, pictures=False, rng=random.Random(seed))
        users = [User("bench", str(n), f"p{n}") for n in range(players)]
        for user in users:
            assert (await m.players.settings(user, "dm", "on")).ok
            if digest:
                assert (await m.players.settings(user, "digest", "08:00")).ok
        games: list[int] = []
        for a in range(players):
            for b in range(a + 1, players):
                made = await m.challenges.challenge(
                    users[a], ROOM, "pathagon", users[b], {}, "random", 3
                )
                assert made.challenge_id is not None, made.text
                accepted = await m.challenges.accept(users[b], ROOM, made.challenge_id)
                assert accepted.game_id is not None, accepted.text
                games.append(accepted.game_id)
        # Notices from an hour after the start are counted (not the challenges' and first turns').
        counted_from = clock.now() + timedelta(hours=1)
        clock.set(counted_from)
        by_user = {u.user_id: u for u in users}
        for day in range(days):
            morning = counted_from + timedelta(days=day)
            # Two moves a game a day: each of its players answers once a day.
            plan = sorted((rng.uniform(0, 86400), gid) for gid in games + games)
            hour = 0
            for at, gid in plan:
                while hour * 3600 <= at:
                    clock.set(morning + timedelta(hours=hour))
                    await m.sweep()
                    hour += 1
                clock.set(morning + timedelta(seconds=at))
                row = await store.get_game(gid)
                if row is None or row.to_move is None:
                    continue
                mover = await store.get_player(row.seats[row.to_move])
                assert mover is not None
                position = from_snapshot(row)
                assert position is not None
                move = rng.choice(position.legal_moves())
                await m.games.move(by_user[mover.user_id], ROOM, move, gid)
            while hour < 24:
                clock.set(morning + timedelta(hours=hour))
                await m.sweep()
                hour += 1
        rows = await store._rows(
            "SELECT kind, chat_id IS NULL AS private, count(*) AS n FROM notifications "
            "WHERE created_at >= ? AND player_id IN (SELECT id FROM players WHERE platform = ?) "
            "GROUP BY kind, chat_id IS NULL",
            (counted_from.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "bench"),
        )
        await m.close()
        await store.close()
    kinds: Counter[str] = Counter()
    boards = 0
    for r in rows:
        if r["private"]:
            kinds[str(r["kind"])] += int(r["n"])
        elif r["kind"] == "board":
            boards += int(r["n"])
    per = players * days
    return sum(kinds.values()) / per, boards / per, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{args.players}-player round-robin, {args.days} days, every player DMs on:")
    for digest in (False, True):
        private, boards, kinds = asyncio.run(run(args.players, args.days, args.seed, digest))
        label = "with the digest   " if digest else "without the digest"
        detail = ", ".join(f"{k} {n / (args.players * args.days):.1f}" for k, n in kinds.items())
        print(
            f"  {label}: {private:.1f} private notices per player per day ({detail}); "
            f"{boards:.1f} boards in the chat naming them"
        )


if __name__ == "__main__":
    main()
