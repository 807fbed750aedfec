"""Whole tournaments played through the manager, on a real database: sign-up (by button too),
the start with every game at once, results by resignation, agreement, time and withdrawal,
the replay of an aborted game, the standings and the result, against tables worked out by
hand (:mod:`tests.bot.tournaments.test_table` checks the same rules on their own)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from bot.core.notification import Kind, Notification
from bot.messages import Chat, User
from bot.ratings import Rating, pool_of
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.sessions.policy import START_HOLD
from bot.sessions.posts import standings_tournament
from bot.storage import Community, GameRow
from bot.storage.dbapi import Conn, to_ts
from bot.storage.tournament_rows import TournamentStatus
from bot.tournaments import first_counts
from bot.tournaments.pairing import Pairing
from tests.bot.session_kit import finishing_moves, session

ROOM = Chat("test", "club")
GAME = "pathagon"
NAMES = ("ada", "bo", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo", "kim")
PLAYERS = tuple(User("test", str(i + 1), name) for i, name in enumerate(NAMES))
A, B, C, D = PLAYERS[:4]


async def _ids(m: SessionManager, users: tuple[User, ...]) -> dict[int, User]:
    return {(await m.players.player(u)).id: u for u in users}


async def _open(m: SessionManager, users: tuple[User, ...], *words: object) -> int:
    """``users[0]`` opens a tournament; the others join (every other one by the button)."""
    opened = await m.tournaments.tournament_new(users[0], ROOM, GAME, {}, *words)
    assert opened.ok, opened.text
    join = next(a for a in opened.actions if a.label == "Join")
    tid = join.subject
    assert tid is not None
    for i, user in enumerate(users[1:]):
        if i % 2:
            joined = await m.tournaments.tournament_join(user, ROOM, tid)
        else:
            joined = await m.games.press(user, ROOM, join.id)
        assert joined.ok, joined.text
    return tid


async def _games(m: SessionManager, tid: int) -> list[GameRow]:
    rows = []
    for g in await m.store.tournament_games(tid):
        row = await m.store.get_game(g.game_id)
        assert row is not None
        rows.append(row)
    return rows


def _between(rows: list[GameRow], first: int, second: int) -> GameRow:
    (row,) = [r for r in rows if (r.seat0, r.seat1) == (first, second) and r.status == "active"]
    return row


async def _resign(m: SessionManager, users: dict[int, User], row: GameRow, loser: int) -> None:
    done = await m.games.resign(users[loser], ROOM, row.id, confirm=True)
    assert done.ok, done.text


async def _draw(m: SessionManager, users: dict[int, User], row: GameRow) -> None:
    offered = await m.games.draw(users[row.seat0], ROOM, row.id, "offer")
    assert offered.ok, offered.text
    agreed = await m.games.draw(users[row.seat1], ROOM, row.id, "accept")
    assert agreed.ok, agreed.text


async def _notes(m: SessionManager, kind: str = "tournament") -> list[str]:
    far = m.now() + timedelta(days=400)
    return [
        str(n.text) for n in await m.store.due_notifications("test", far, 500) if n.kind == kind
    ]


async def _due(m: SessionManager) -> list[Notification]:
    far = m.now() + timedelta(days=400)
    return list(await m.store.due_notifications("test", far, 500))


async def test_the_start_posts_each_games_board_once(store_url: str) -> None:
    """Each game is posted as any game is: its first board in the chat, naming the player to
    move (the board is their turn notice, issue 24), once; nothing else about the games.
    Started by command, the answer is the start message and the boards wait a moment for it;
    started by the sweep, the start message is queued before the boards."""
    clock = FakeClock()
    async with session(store_url, clock) as m:
        users = await _ids(m, (A, B, C))
        tid = await _open(m, (A, B, C), 1.0)
        assert (await m.tournaments.tournament_start(A, ROOM, tid)).ok
        rows = await _games(m, tid)
        due = await _due(m)
        boards = [n for n in due if n.kind is Kind.BOARD]
        assert sorted(n.game_id or 0 for n in boards) == sorted(r.id for r in rows)
        for n in boards:
            row = next(r for r in rows if r.id == n.game_id)
            mover = (row.seat0, row.seat1)[row.to_move]
            assert n.recipient.player_id == mover and users[mover].name == n.recipient.name
            assert (n.chat, n.ply, n.direct) == (ROOM, 0, False)
            assert f"game #{row.id} begins" in str(n.text)
            assert n.deliver_after == m.now() + START_HOLD
        # Nothing else: no "your turn" in the chat (nobody turned direct messages on), no
        # second start message.
        assert [n.kind for n in due if n.kind is not Kind.BOARD] == []

        # Opened and left to the sweep: after 48 hours it starts with the three signed up.
        later = await _open(m, (B, C, D), 1.0)
        before = {n.id for n in await _due(m)}
        clock.advance(hours=49)
        await m.sweep()
        t = await m.store.get_tournament(later)
        assert t is not None and t.status is TournamentStatus.RUNNING
        fresh = {r.id for r in await _games(m, later)}
        # (The first tournament's games timed out meanwhile: their news is left out.)
        new = [
            n
            for n in await _due(m)
            if n.id not in before and (n.game_id in fresh or "has started" in str(n.text))
        ]
        assert [n.kind for n in new] == [Kind.TOURNAMENT] + [Kind.BOARD] * 3
        assert "has started" in str(new[0].text)
        assert {n.game_id for n in new[1:]} == fresh
        assert all(n.deliver_after == m.now() for n in new)


async def test_three_players_a_draw_an_aborted_game_replayed(store_url: str) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        users = await _ids(m, (A, B, C))
        a, b, c = users
        tid = await _open(m, (A, B, C), 1.0)
        too_soon = await m.tournaments.tournament_start(B, ROOM, tid)
        assert not too_soon.ok and "Only ada" in too_soon.text
        started = await m.tournaments.tournament_start(A, ROOM)
        assert started.ok and "3 games at once" in started.text, started.text
        rows = await _games(m, tid)
        # Equal ratings: the order of signing up; first player balanced: one game first each.
        assert [(r.seat0, r.seat1) for r in rows] == [(a, b), (c, a), (b, c)]
        assert first_counts(Pairing(r.seat0, r.seat1) for r in rows) == {a: 1, b: 1, c: 1}
        # The start was the answer in the chat: it is not queued to be posted again.
        assert not any("started" in n for n in await _notes(m))
        late = await m.tournaments.tournament_join(PLAYERS[4], ROOM, tid)
        assert not late.ok and "no longer open" in late.text
        await _resign(m, users, _between(rows, a, b), b)
        await _draw(m, users, _between(rows, c, a))
        # Nobody moves in b-c: it is aborted, and the sweep replays it once.
        clock.advance(days=1, minutes=1)
        await m.sweep()
        rows = await _games(m, tid)
        assert [r.status for r in rows] == ["finished", "finished", "aborted", "active"]
        replay = rows[3]
        assert (replay.seat0, replay.seat1) == (b, c)
        assert [g.replay_of for g in await m.store.tournament_games(tid)][-1] == rows[2].id
        # The replay is posted as any game: its first board, naming bo (to move), once.
        told = [n for n in await _due(m) if n.game_id == replay.id]
        assert [(n.kind, n.ply, n.recipient.name) for n in told] == [(Kind.BOARD, 0, "bo")]
        await m.sweep()
        assert len([n for n in await _due(m) if n.game_id == replay.id]) == 1
        # A day passed with results: one standings update, not two.
        assert sum("Standings" in n for n in await _notes(m, "standings")) == 1
        await m.sweep()
        assert sum("Standings" in n for n in await _notes(m, "standings")) == 1
        # The update names its tournament, for the adapters to edit the earlier one in place.
        (update,) = [n for n in await _due(m) if n.kind is Kind.STANDINGS]
        assert standings_tournament(update) == tid and (update.chat, update.direct) == (ROOM, False)
        # Nothing changed since: the sweep passes over the tournament (one query).
        assert await m.sweep() == 0
        shown = await m.tournaments.tournament_standings(C, ROOM)
        assert shown.ok and "(2 of 3 games played)" in shown.text
        await _resign(m, users, replay, c)
        await m.sweep()
        t = await m.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.FINISHED
        # ada 1 + ½ = 1½, bo 0 + 1 = 1, cy ½ + 0 = ½; SB ada: bo's 1 + ½·cy's ½ = 1¼,
        # bo: cy's ½, cy: ½·ada's 1½ = ¾
        final = await m.tournaments.tournament_standings(B, ROOM, tid)
        assert final.text.splitlines()[1:] == [
            "1. ada 1½ (won 1, drawn 1, lost 0; SB 1¼)",
            "2. bo 1 (won 1, drawn 0, lost 1; SB ½)",
            "3. cy ½ (won 0, drawn 1, lost 1; SB ¾)",
        ]
        result = [n for n in await _notes(m) if "is over" in n]
        assert len(result) == 1 and "ada wins with 1½ points" in result[0]
        await m.sweep()
        assert len([n for n in await _notes(m) if "is over" in n]) == 1
        # Rated by default: the games count for ratings as any rated game.
        here = Community(ROOM.platform, ROOM.community_id)
        assert (await m.store.ratings_of(a, here)) and (await m.store.ratings_of(c, here))
        stats = await m.players.stats(A, ROOM)
        assert "Tournaments: 1 played, 1 won." in stats.text
        listed = await m.tournaments.tournament_list(A, ROOM)
        assert "finished, 3 players" in listed.text


async def test_four_players_head_to_head_and_a_withdrawal(store_url: str) -> None:
    async with session(store_url) as m:
        users = await _ids(m, (A, B, C, D))
        a, b, c, d = users
        tid = await _open(m, (A, B, C, D))
        assert (await m.tournaments.tournament_start(A, ROOM, tid)).ok
        rows = await _games(m, tid)
        assert [(r.seat0, r.seat1) for r in rows] == [
            (a, b), (c, a), (a, d), (b, c), (d, b), (c, d),
        ]  # fmt: skip
        assert first_counts(Pairing(r.seat0, r.seat1) for r in rows) == {a: 2, b: 1, c: 2, d: 1}
        # ada beats bo, cy beats ada, ada-di drawn, bo-cy drawn, di beats bo and cy.
        await _resign(m, users, _between(rows, a, b), b)
        await _resign(m, users, _between(rows, c, a), a)
        await _draw(m, users, _between(rows, a, d))
        await _draw(m, users, _between(rows, b, c))
        await _resign(m, users, _between(rows, d, b), b)
        await _resign(m, users, _between(rows, c, d), c)
        await m.sweep()
        final = await m.tournaments.tournament_standings(A, ROOM, tid)
        # di 2½; cy and ada 1½ with Sonneborn-Berger 1¾ each, cy first by their game; bo ½.
        assert final.text.splitlines()[1:] == [
            "1. di 2½ (won 2, drawn 1, lost 0; SB 2¾)",
            "2. cy 1½ (won 1, drawn 1, lost 1; SB 1¾)",
            "3. ada 1½ (won 1, drawn 1, lost 1; SB 1¾)",
            "4. bo ½ (won 0, drawn 1, lost 2; SB ¾)",
        ]
        assert any("di wins with 2½ points" in n for n in await _notes(m))

    async with session(store_url + ("" if "://" in store_url else "-2")) as m:
        users = await _ids(m, (A, B, C, D))
        a, b, c, d = users
        tid = await _open(m, (A, B, C, D))
        assert (await m.tournaments.tournament_start(A, ROOM, tid)).ok
        rows = await _games(m, tid)
        await _resign(m, users, _between(rows, a, b), b)
        await _resign(m, users, _between(rows, d, b), b)  # di's finished game stands
        left = await m.tournaments.tournament_leave(D, ROOM, tid)
        assert left.ok and "di left and is withdrawn" in left.text
        assert "2 unfinished games end as losses" in left.text
        # The answer in the chat says it: the outbox does not post it again (issue 45).
        assert not any("withdrawn" in n for n in await _notes(m))
        again = await m.tournaments.tournament_leave(D, ROOM, tid)
        assert not again.ok
        await _draw(m, users, _between(rows, c, a))
        await _resign(m, users, _between(rows, b, c), c)
        await m.sweep()
        final = await m.tournaments.tournament_standings(A, ROOM, tid)
        # ada 1 + ½ + 1 = 2½ (SB: bo's 1 + di's 1 + ½·cy's 1½ = 2¾); cy ½ + 0 + 1 = 1½
        # (SB: ½·ada's 2½ + di's 1 = 2¼); bo 0 + 0 + 1 = 1 (SB: cy's 1½); di 1 (SB: bo's
        # 1), withdrawn: di's finished game stands, the two unfinished are di's losses.
        assert final.text.splitlines()[1:] == [
            "1. ada 2½ (won 2, drawn 1, lost 0; SB 2¾)",
            "2. cy 1½ (won 1, drawn 1, lost 1; SB 2¼)",
            "3. bo 1 (won 1, drawn 0, lost 2; SB 1½)",
            "4. di 1 (won 1, drawn 0, lost 2; SB 1) withdrawn",
        ]


async def test_double_round_time_loss_breaks_the_last_tie(store_url: str) -> None:
    clock = FakeClock()
    async with session(store_url, clock) as m:
        users = await _ids(m, (A, B, C))
        a, b, c = users
        tid = await _open(m, (A, B, C), 1.0, 2, "no")
        assert (await m.tournaments.tournament_start(A, ROOM, tid)).ok
        rows = await _games(m, tid)
        pairs = [(r.seat0, r.seat1) for r in rows]
        assert pairs == [(a, b), (c, a), (b, c), (b, a), (a, c), (c, b)]
        assert set(first_counts(Pairing(*p) for p in pairs).values()) == {2}
        await _resign(m, users, _between(rows, a, b), b)
        for first, second in ((c, a), (b, c), (a, c), (c, b)):
            await _draw(m, users, _between(rows, first, second))
        # bo moves first against ada, and ada never answers: a loss on time.
        played = await m.games.move(B, ROOM, finishing_moves(GAME)[0], rows[3].id)
        assert played.ok, played.text
        clock.advance(days=1, minutes=1)
        await m.sweep()
        row = await m.store.get_game(rows[3].id)
        assert row is not None and (row.reason, row.winner) == ("timeout", 0)
        t = await m.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.FINISHED
        final = await m.tournaments.tournament_standings(A, ROOM, tid)
        # Everyone 2 points, Sonneborn-Berger 4 and 2 against the other two: ada, who lost
        # on time, is placed after bo and cy, who share first place.
        assert final.text.splitlines()[1:] == [
            "1. bo 2 (won 1, drawn 2, lost 1; SB 4)",
            "1. cy 2 (won 0, drawn 4, lost 0; SB 4)",
            "3. ada 2 (won 1, drawn 2, lost 1; SB 4)",
        ]
        assert any("bo and cy win with 2 points" in n for n in await _notes(m))
        # rated=no: casual games
        assert await m.store.ratings_of(a, Community(ROOM.platform, ROOM.community_id)) == {}


async def test_eleven_players_two_groups_by_rating_and_three_losses_on_time(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    async with session(tmp_path / "t.db", clock) as m:
        users = await _ids(m, PLAYERS)
        ids = list(users)
        # Ratings in this chat's community rising with the order of signing up: the last six
        # form the first group.  Their ratings in another server fall with it: the
        # tournament groups by its own community's ratings only (issue 27).
        pool = pool_of(GAME)
        for i, pid in enumerate(ids):
            here = Rating(mu=25.0 + i, sigma=3.0, games=12)
            elsewhere = Rating(mu=40.0 - i, sigma=3.0, games=12)
            for community, rating in ((ROOM.community_id, here), ("another-server", elsewhere)):

                async def put(
                    conn: Conn, pid: int = pid, rating: Rating = rating, community: str = community
                ) -> None:
                    await conn.execute(
                        "INSERT INTO ratings (platform, community, player, pool, mu, sigma, "
                        "games, value, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (
                            ROOM.platform,
                            community,
                            pid,
                            pool.key,
                            rating.mu,
                            rating.sigma,
                            12,
                            rating.value,
                            to_ts(m.now()),
                        ),
                    )

                await m.store._write(put)
        tid = await _open(m, PLAYERS, 1.0, 1, "yes", 11)  # full at 11: starts by itself
        t = await m.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.RUNNING
        entrants = {e.player_id: e for e in await m.store.entrants(tid)}
        top = ids[::-1][:6]  # strongest first
        low = ids[::-1][6:]
        assert [pid for pid in top if entrants[pid].group == 0] == top
        assert [pid for pid in low if entrants[pid].group == 1] == low
        rows = await _games(m, tid)
        assert len(rows) == 15 + 10
        assert set(
            first_counts(Pairing(r.seat0, r.seat1) for r in rows if r.seat0 in top).values()
        ) <= {2, 3}
        assert set(
            first_counts(Pairing(r.seat0, r.seat1) for r in rows if r.seat0 in low).values()
        ) == {2}
        # Every game is won by the player who moves first, except those of the weakest player
        # (ada, the first to sign up): three lost on time, the fourth ended by the withdrawal.
        kim = low[-1]
        mine = [r for r in rows if kim in (r.seat0, r.seat1)]
        for r in rows:
            if r not in mine:
                await _resign(m, users, r, r.seat1)
        opening = finishing_moves(GAME)
        for index, r in enumerate(mine):
            if index == 3:
                clock.advance(hours=12)  # the fourth runs later: it is not timed out
            plies = 2 if r.seat0 == kim else 1
            for ply in range(plies):
                player = users[(r.seat0, r.seat1)[ply % 2]]
                assert (await m.games.move(player, ROOM, opening[ply], r.id)).ok
        clock.advance(hours=12, minutes=1)
        await m.sweep()
        ended = {r.id: await m.store.get_game(r.id) for r in mine}
        assert [g.reason for g in ended.values() if g is not None] == [
            "timeout", "timeout", "timeout", "resignation",
        ]  # fmt: skip
        t = await m.store.get_tournament(tid)
        assert t is not None and t.status is TournamentStatus.FINISHED
        final = (await m.tournaments.tournament_standings(A, ROOM, tid)).text.splitlines()
        name = {pid: users[pid].name for pid in ids}
        # Group A (places by group index 0..5, first player wins): points 3,2,3,2,3,2;
        # Sonneborn-Berger 6,6,7,5,8,4 -> index 4, 2, 0, 1, 3, 5.
        group_a = final[final.index("Group A") + 1 : final.index("Group B")]
        order = [top[i] for i in (4, 2, 0, 1, 3, 5)]
        assert [line.split(" ")[1] for line in group_a] == [name[p] for p in order]
        assert [line.split(" ")[2] for line in group_a] == ["3", "3", "3", "2", "2", "2"]
        # Group B: 3 (SB 5), 3 (SB 4), 2 (SB 3), 2 (SB 2), the weakest 0, withdrawn.
        group_b = final[final.index("Group B") + 1 :]
        order = [low[i] for i in (2, 0, 1, 3, 4)]
        assert [line.split(" ")[1] for line in group_b] == [name[p] for p in order]
        assert group_b[-1].endswith("withdrawn") and " 0 (won 0, drawn 0, lost 4" in group_b[-1]
        said = f"{name[kim]} lost three games on time and is withdrawn"
        assert any(said in n and "1 unfinished game ends as a loss" in n for n in await _notes(m))
