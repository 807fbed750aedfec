"""Tournaments in a chat: sign-up (``tournament new``, ``join``, ``leave``), the start with
every game at once, withdrawals, replays of aborted games, the standings and the end.

The pure rules are :mod:`bot.tournaments` (pairings with the first player balanced, groups by
rating, the table with its tie-breaks); this module feeds them the stored games and stores
what they decide.  The standings are never stored: they are worked out from the tournament's
games whenever they are asked for, so a result counts the moment its game ends, whatever the
order correspondence games end in.

The sweep (:func:`sweep`, run by the clock sweep) starts tournaments that are full or whose
sign-up ended (cancelling those with too few players), withdraws players with three losses on
time, makes the replays of aborted games, posts the standings at most once a day and the
result once every game is over.  Each of these is a conditional change in the store, so of
several processes one does it, once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

import engines
from bot.core.ending import Termination
from bot.core.notification import Kind, Notification
from bot.core.status import GameResult, GameStatus
from bot.messages import Action, ActionKind, Chat, Mention, Reply, ReplyKind, Text, User
from bot.outcomes import SignUp
from bot.ratings import pool_of
from bot.sessions import (
    challenges,
    digest,
    finish,
    loading,
    policy,
    posts,
    presentation,
    standings,
    texts,
)
from bot.sessions.context import Context, Refusal, checked_id
from bot.storage import Community, GameRow, NewGame, PlayerRow, StoreError
from bot.storage.sql_tournaments import Joined
from bot.storage.tournament_rows import (
    EntrantRow,
    NewTournament,
    TournamentGameRow,
    TournamentNewGame,
    TournamentRow,
    TournamentStatus,
)
from bot.tournaments import (
    MIN_PLAYERS,
    Entrant,
    Outcome,
    Played,
    Standing,
    half_points,
    plan,
    table,
    to_withdraw,
)
from render.standings import StandingsRow, standings_png

__all__ = [
    "DAYS",
    "DEFAULT_MAX",
    "LIVE",
    "MOST_PLAYERS",
    "SIGN_UP",
    "STANDINGS_EVERY",
    "Progress",
    "cancel",
    "display_name",
    "join",
    "leave",
    "listing",
    "new",
    "pick",
    "progress",
    "show",
    "start",
    "sweep",
]

log = logging.getLogger(__name__)

#: How long sign-up stays open: then the tournament starts with enough players, or is
#: cancelled.
SIGN_UP = timedelta(hours=48)
#: The least time between two standings updates in the chat.
STANDINGS_EVERY = timedelta(days=1)
#: The players a tournament takes unless ``max=`` says otherwise (one group).
DEFAULT_MAX = 10
#: The most players ``max=`` may allow (five groups of ten).
MOST_PLAYERS = 50
#: Days per move a tournament may have (it needs a clock, to end).
DAYS = (1.0, 3.0, 7.0, 14.0)

_LEFT = "left"
_TIME = "time"


def _title(t: TournamentRow) -> str:
    try:
        return pool_of(t.game, t.options).title
    except ValueError:
        game = engines.GAMES.get(t.game)
        return game.title if game else t.game


def display_name(t: TournamentRow) -> str:
    """The tournament's name as players read it."""
    return texts.tournament_name(t.id, _title(t))


def _chat_note(
    ctx: Context, to: PlayerRow, t: TournamentRow, text: Text, now: datetime, dedupe: str
) -> Notification:
    """A notice for the tournament's chat, posted in the chat at once (not held for anyone's
    quiet hours).  The outbox addresses every notification to someone: ``to`` is a player the
    text names (the platforms put an addressee not named in front), so nobody else is
    singled out."""
    note = policy.note(ctx, to, Kind.TOURNAMENT, text, now, chat_id=t.chat_id, dedupe=dedupe)
    return replace(note, direct=False, deliver_after=now)


async def _mentions(ctx: Context, ids: Sequence[int]) -> list[Mention]:
    return [presentation.mention(await loading.player_by_id(ctx, i)) for i in ids]


# -- sign-up ----------------------------------------------------------------------------------


async def new(
    ctx: Context,
    user: User,
    chat: Chat,
    game: str,
    options: dict[str, object] | None = None,
    days: float | None = 3.0,
    rounds: int = 1,
    rated: bool | str = True,
    max_players: int = DEFAULT_MAX,
) -> Reply:
    """Open a round-robin of ``game`` (with ``options``) for sign-up in ``chat``: ``days``
    per move (1, 3, 7 or 14), ``rounds`` 1 or 2 (each pairing twice, seats swapped),
    ``rated``, at most ``max_players``.  Its creator joins it; the reply is the sign-up card
    with Join / Leave buttons."""
    me = await loading.player(ctx, user)
    name, _, resolved = challenges.checked_terms(game, options, "random", days)
    if days not in DAYS:
        raise Refusal(texts.tournament_needs_clock())
    if rounds not in (1, 2):
        raise Refusal(texts.bad_tournament_rounds())
    if not isinstance(max_players, int) or not MIN_PLAYERS <= max_players <= MOST_PLAYERS:
        raise Refusal(texts.bad_tournament_max(MIN_PLAYERS, MOST_PLAYERS))
    counts = standings.parse_rated(rated)
    now = ctx.now()
    t = await ctx.store.create_tournament(
        NewTournament(
            platform=chat.platform,
            chat_id=chat.chat_id,
            community=chat.community_id,
            creator=me.id,
            game=name,
            options=resolved,
            time_per_move=days,
            rounds=rounds,
            rated=counts,
            max_players=max_players,
        ),
        now,
        now + SIGN_UP,
    )
    return await _card(ctx, t)


async def _card(ctx: Context, t: TournamentRow, head: Text | None = None) -> Reply:
    entrants = await ctx.store.entrants(t.id)
    players = await _mentions(ctx, [e.player_id for e in entrants])
    terms = texts.tournament_terms(t.time_per_move, t.rounds, t.rated, t.max_players)
    card = texts.tournament_card(t.id, _title(t), terms, players, t.starts_by, MIN_PLAYERS)
    text = card if head is None else Text.of(head, "\n\n", card)
    actions = (
        Action.make("Join", ActionKind.TOURNAMENT_JOIN, t.id),
        Action.make("Leave", ActionKind.TOURNAMENT_LEAVE, t.id),
    )
    if t.status is not TournamentStatus.OPEN:
        return Reply(text)
    return Reply(text, actions=actions, outcome=SignUp(t.id))


async def pick(
    ctx: Context, chat: Chat, tournament_id: int | None, statuses: Sequence[TournamentStatus]
) -> TournamentRow:
    """The tournament named, or the only one of ``statuses`` in this chat."""
    if tournament_id is not None:
        number = checked_id(tournament_id, "tournament")
        found = await ctx.store.get_tournament(number)
        if found is None or (found.platform, found.chat_id) != (chat.platform, chat.chat_id):
            raise Refusal(texts.no_tournament(number))
        return found
    here = [
        t
        for t in await ctx.store.chat_tournaments(chat.platform, chat.chat_id)
        if t.status in statuses
    ]
    if not here:
        raise Refusal(texts.no_tournament_here())
    if len(here) > 1:
        raise Refusal(texts.which_tournament([t.id for t in here]))
    return here[0]


_OPEN = (TournamentStatus.OPEN,)
#: The statuses of a tournament still going on (open for sign-up or running).
LIVE = (TournamentStatus.OPEN, TournamentStatus.RUNNING)


async def join(ctx: Context, user: User, chat: Chat, tournament_id: int | None = None) -> Reply:
    """Sign up for a tournament open here (the only one when no id is given); a tournament
    that becomes full starts at once."""
    me = await loading.player(ctx, user)
    t = await pick(ctx, chat, tournament_id, _OPEN)
    now = ctx.now()
    joined = await ctx.store.join_tournament(t.id, me.id, now)
    if joined is Joined.ALREADY:
        raise Refusal(texts.tournament_already_in(display_name(t)))
    if joined is Joined.FULL:
        raise Refusal(texts.tournament_full(display_name(t)))
    if joined is Joined.CLOSED:
        raise Refusal(texts.tournament_not_open(display_name(t)))
    count = len(await ctx.store.entrants(t.id))
    head = texts.tournament_joined(presentation.mention(me), display_name(t), count, t.max_players)
    if count >= t.max_players:
        started = await _start(ctx, t, now, answered=True)
        if started is not None:
            return Reply(Text.of(head, "\n", started))
    return await _card(ctx, t, head)


async def leave(ctx: Context, user: User, chat: Chat, tournament_id: int | None = None) -> Reply:
    """Leave a tournament: before it starts, off the list; once it runs, you are withdrawn
    (your unfinished games end as losses, your finished ones stand)."""
    me = await loading.player(ctx, user)
    t = await pick(ctx, chat, tournament_id, LIVE)
    if t.status is TournamentStatus.OPEN:
        if not await ctx.store.leave_open_tournament(t.id, me.id):
            raise Refusal(texts.tournament_not_in(display_name(t)))
        count = len(await ctx.store.entrants(t.id))
        return await _card(
            ctx, t, texts.tournament_left_open(presentation.mention(me), display_name(t), count)
        )
    if t.status is not TournamentStatus.RUNNING:
        raise Refusal(texts.tournament_over(display_name(t)))
    mine = [e for e in await ctx.store.entrants(t.id) if e.player_id == me.id]
    if not mine or mine[0].withdrawn_at is not None:
        raise Refusal(texts.tournament_not_in(display_name(t)))
    # The answer in the chat is the notice: the outbox does not post it a second time.
    said = await _withdraw(ctx, t, me.id, _LEFT, ctx.now(), answered=True)
    if said is None:
        raise Refusal(texts.tournament_not_in(display_name(t)))
    return Reply(said)


async def start(ctx: Context, user: User, chat: Chat, tournament_id: int | None = None) -> Reply:
    """Start a tournament now (its creator, once at least three players have joined)."""
    me = await loading.player(ctx, user)
    t = await pick(ctx, chat, tournament_id, _OPEN)
    if t.creator != me.id:
        creator = presentation.mention(await loading.player_by_id(ctx, t.creator))
        raise Refusal(texts.tournament_only_creator(display_name(t), creator, "start"))
    count = len(await ctx.store.entrants(t.id))
    if count < MIN_PLAYERS:
        raise Refusal(texts.tournament_too_few(display_name(t), count, MIN_PLAYERS))
    started = await _start(ctx, t, ctx.now(), answered=True)
    if started is None:
        raise Refusal(texts.tournament_not_open(display_name(t)))
    return Reply(started)


async def cancel(ctx: Context, user: User, chat: Chat, tournament_id: int | None = None) -> Reply:
    """Cancel a tournament still open for sign-up (its creator); everyone signed up is
    told."""
    me = await loading.player(ctx, user)
    t = await pick(ctx, chat, tournament_id, _OPEN)
    if t.creator != me.id:
        creator = presentation.mention(await loading.player_by_id(ctx, t.creator))
        raise Refusal(texts.tournament_only_creator(display_name(t), creator, "cancel"))
    if not await _cancel(ctx, t, ctx.now()):
        raise Refusal(texts.tournament_not_open(display_name(t)))
    return Reply(texts.tournament_cancelled_reply(display_name(t)))


# -- start and cancel -----------------------------------------------------------------------


async def _game(
    ctx: Context,
    t: TournamentRow,
    seat0: int,
    seat1: int,
    now: datetime,
    group: int,
    leg: int,
    replay_of: int | None = None,
    *,
    grace: bool = False,
) -> TournamentNewGame:
    """A game of ``t`` between ``seat0`` and ``seat1`` from the start position, with its
    clock running, posted in the chat as any game is: its first board, naming (pinging) the
    first mover, is committed with it and posted by the outbox (held a moment when ``grace``:
    an answer in the chat goes first).  A first mover who turned direct messages on is told
    privately too, as on any turn; nothing else about the game is posted."""
    position = engines.new(t.game, **t.options)
    seats = (await loading.player_by_id(ctx, seat0), await loading.player_by_id(ctx, seat1))
    mover = seats[position.to_move]
    shown = texts.tournament_first_board(display_name(t), "{game}")
    board = policy.first_board_note(
        ctx, mover, Chat(t.platform, t.chat_id), shown, now, grace=grace
    )
    said = texts.tournament_first_turn(
        display_name(t), "{game}", _title(t), position.seat_sides[position.to_move]
    )
    private = policy.private_notes(
        ctx,
        mover,
        Kind.YOUR_TURN,
        said,
        now,
        dedupe="your_turn:{game}:0",
        ply=0,
        actions=(Action.make("Board", ActionKind.BOARD, "{game}"),),
    )
    private = await digest.fold(ctx, private)  # with the digest on, it lists the turn
    game = NewGame(
        game=t.game,
        options=t.options,
        seat0=seat0,
        seat1=seat1,
        platform=t.platform,
        chat_id=t.chat_id,
        to_move=position.to_move,
        snapshot=position.to_dict(),
        time_per_move=t.time_per_move,
        deadline_at=policy.turn_deadline(ctx, mover, t.time_per_move, now),
        rated=t.rated,
        community=t.community,
    )
    return TournamentNewGame(game, group, leg, replay_of=replay_of, notes=(board, *private))


async def _start(
    ctx: Context, t: TournamentRow, now: datetime, *, answered: bool = False
) -> Text | None:
    """Start ``t`` with every game at once; the chat's notice, or ``None`` if it was no
    longer open.  ``answered``: the notice is the answer to a command in the chat (``start``,
    the ``join`` that filled it), so it is not queued a second time, and the games' boards
    wait a moment for it; else (the sweep) it is queued before the boards."""
    entrants = await ctx.store.entrants(t.id)
    pool = pool_of(t.game, t.options)
    # Grouped by their ratings in the tournament's community (the only ones its games count in).
    where = Community(t.platform, t.community)
    ratings = {
        e.player_id: (await ctx.store.rating(e.player_id, pool, where)).value for e in entrants
    }
    made = plan([Entrant(e.player_id, ratings[e.player_id]) for e in entrants], t.rounds)
    games = [
        await _game(ctx, t, p.first, p.second, now, p.group, p.leg, grace=answered)
        for p in made.pairings
    ]
    name = display_name(t)
    players = await _mentions(ctx, [e.player_id for e in entrants])
    said = texts.tournament_started(name, len(games), len(made.groups), players)
    notes = []
    if not answered:
        creator = await loading.player_by_id(ctx, t.creator)
        notes.append(_chat_note(ctx, creator, t, said, now, f"tournament:{t.id}:start"))
    placed = {pid: (made.group_of(pid), ratings[pid]) for pid in ratings}
    rows = await ctx.store.start_tournament(t.id, placed, games, now, notes)
    return None if rows is None else said


async def _cancel(ctx: Context, t: TournamentRow, now: datetime) -> bool:
    """Cancel an open tournament, telling everyone signed up; ``False`` if it was no longer
    open."""
    entrants = await ctx.store.entrants(t.id)
    players = [await loading.player_by_id(ctx, e.player_id) for e in entrants]
    said = texts.tournament_cancelled(
        display_name(t), len(players), MIN_PLAYERS, [presentation.mention(p) for p in players]
    )
    notes = [
        policy.note(
            ctx,
            p,
            Kind.TOURNAMENT,
            said,
            now,
            chat_id=t.chat_id,
            dedupe=f"tournament:{t.id}:cancelled:{p.id}",
        )
        for p in players
    ]
    return await ctx.store.close_tournament(
        t.id, TournamentStatus.OPEN, TournamentStatus.CANCELLED, now, notes
    )


# -- progress: the games as they stand --------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """A tournament's games as they stand: the players signed up, the games (each with its
    row), the results per group, the active games, the aborted games due a replay, and how
    many of its pairings are settled out of how many."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    games: tuple[tuple[TournamentGameRow, GameRow], ...]
    played: tuple[tuple[Played, ...], ...]
    active: tuple[GameRow, ...]
    replays_due: tuple[tuple[TournamentGameRow, GameRow], ...]
    settled: int
    pairings: int

    @property
    def over(self) -> bool:
        """Whether every pairing is settled."""
        return not self.active and not self.replays_due

    @property
    def withdrawn(self) -> frozenset[int]:
        """The withdrawn players."""
        return frozenset(e.player_id for e in self.entrants if e.withdrawn_at is not None)

    def groups(self) -> tuple[tuple[int, ...], ...]:
        """Each group's players in the order they signed up."""
        count = 1 + max((e.group or 0 for e in self.entrants), default=0)
        return tuple(
            tuple(e.player_id for e in self.entrants if (e.group or 0) == g) for g in range(count)
        )

    def tables(self) -> tuple[tuple[Standing, ...], ...]:
        """Each group's standings."""
        return tuple(
            table(members, self.played[g] if g < len(self.played) else (), self.withdrawn)
            for g, members in enumerate(self.groups())
        )


def _played(row: GameRow) -> Played | None:
    if row.status is not GameStatus.FINISHED or row.result is None:
        return None
    if row.result is GameResult.DRAW:
        return Played(row.seat0, row.seat1, Outcome.DRAW)
    if row.result is not GameResult.WIN or row.winner not in (0, 1):
        return None
    outcome = Outcome.FIRST_WINS if row.winner == 0 else Outcome.SECOND_WINS
    return Played(row.seat0, row.seat1, outcome, on_time=row.reason is Termination.TIMEOUT)


async def progress(ctx: Context, t: TournamentRow) -> Progress:
    """Where tournament ``t``'s games stand (see :class:`Progress`)."""
    entrants = tuple(await ctx.store.entrants(t.id))
    withdrawn = {e.player_id for e in entrants if e.withdrawn_at is not None}
    listed = await ctx.store.tournament_game_rows(t.id)
    replayed = {g.replay_of for g, _ in listed if g.replay_of is not None}
    groups = 1 + max((g.group for g, _ in listed), default=0)
    played: list[list[Played]] = [[] for _ in range(groups)]
    games, active, due = [], [], []
    settled = 0
    for g, row in listed:
        games.append((g, row))
        if row.status is GameStatus.ACTIVE:
            active.append(row)
            continue
        if row.status is GameStatus.ABORTED and g.replay_of is None:
            if g.game_id in replayed:
                continue  # its replay settles the pairing
            quitter = next((s for s in (row.seat0, row.seat1) if s in withdrawn), None)
            if quitter is None and t.status is TournamentStatus.RUNNING:
                due.append((g, row))
                continue
            if quitter is not None:  # never replayed: the withdrawn player loses it
                lost = Outcome.SECOND_WINS if quitter == row.seat0 else Outcome.FIRST_WINS
                played[g.group].append(Played(row.seat0, row.seat1, lost))
        else:
            result = _played(row)
            if result is not None:
                played[g.group].append(result)
        settled += 1
    pairings = sum(1 for g, _ in listed if g.replay_of is None)
    return Progress(
        t,
        entrants,
        tuple(games),
        tuple(tuple(p) for p in played),
        tuple(active),
        tuple(due),
        settled,
        pairings,
    )


# -- withdrawals ------------------------------------------------------------------------------


async def _withdraw(
    ctx: Context,
    t: TournamentRow,
    player_id: int,
    why: str,
    now: datetime,
    *,
    answered: bool = False,
) -> Text | None:
    """Withdraw a player from running tournament ``t`` and end their unfinished games as
    losses; the chat's notice, or ``None`` if they already were withdrawn.  ``answered``:
    the notice is the answer to the player's own ``leave`` in the chat (no chat notice is
    queued besides, which would say it twice)."""
    state = await progress(ctx, t)
    theirs = [r for r in state.active if player_id in (r.seat0, r.seat1)]
    player = await loading.player_by_id(ctx, player_id)
    said = texts.tournament_withdrawn(
        presentation.mention(player), display_name(t), why, len(theirs)
    )
    dedupe = f"tournament:{t.id}:withdrawn:{player_id}"
    notes = [] if answered else [_chat_note(ctx, player, t, said, now, dedupe)]
    if not await ctx.store.withdraw(t.id, player_id, why, now, notes):
        return None
    await _end_games_of(ctx, theirs, player_id, now)
    return said


async def _end_games_of(
    ctx: Context, rows: Sequence[GameRow], player_id: int, now: datetime
) -> int:
    """End the active games ``rows`` of a withdrawn player as their losses (as a resignation:
    a rated game counts for ratings as any); how many were ended."""
    ended = 0
    for row in rows:
        async with ctx.lock(row.id):
            current = await ctx.store.get_game(row.id)
            if current is None or current.status is not GameStatus.ACTIVE:
                continue
            seat = 0 if current.seat0 == player_id else 1
            done = await finish.finish(ctx, current, None, finish.WITHDRAWAL, 1 - seat, (), now)
            ctx.positions.pop(row.id, None)
            ended += done is not None
    return ended


# -- the sweep --------------------------------------------------------------------------------


async def sweep(ctx: Context) -> int:
    """The tournaments' share of the clock sweep (see the module docstring); how many pieces
    of work it did.  A tournament that fails is logged and left for the next round."""
    done = 0
    for t in await ctx.store.live_tournaments():
        try:
            done += await _tend(ctx, t, ctx.now())
        except (Refusal, StoreError, ValueError):
            log.exception("tournament %s: sweep failed", t.id)
    return done


async def _tend(ctx: Context, t: TournamentRow, now: datetime) -> int:
    if t.status is TournamentStatus.OPEN:
        count = len(await ctx.store.entrants(t.id))
        if count >= t.max_players or (now >= t.starts_by and count >= MIN_PLAYERS):
            return int(await _start(ctx, t, now) is not None)
        if now >= t.starts_by:
            return int(await _cancel(ctx, t, now))
        return 0
    last = t.standings_at or t.started_at or t.created_at
    fingerprint, ended = await ctx.store.tournament_fingerprint(t.id)
    news = ended is not None and ended > last
    if t.swept == fingerprint and not (news and now - last >= STANDINGS_EVERY):
        return 0  # no game changed since the last look, and no standings are due
    work = 0
    state = await progress(ctx, t)
    every = [p for group in state.played for p in group]
    for player_id in to_withdraw(every, state.withdrawn):
        work += await _withdraw(ctx, t, player_id, _TIME, now) is not None
    if work:
        state = await progress(ctx, t)
    for player_id in state.withdrawn:  # games a stopped process left running
        theirs = [r for r in state.active if player_id in (r.seat0, r.seat1)]
        if theirs:
            work += await _end_games_of(ctx, theirs, player_id, now)
    if state.replays_due:
        work += len(await ctx.store.add_replays(t.id, await _replays(ctx, t, state, now), now))
    state = await progress(ctx, t)
    if state.over:
        return work + int(await _finish(ctx, state, now))
    news = any(r.finished_at is not None and r.finished_at > last for _, r in state.games)
    if news and now - last >= STANDINGS_EVERY:
        creator = await loading.player_by_id(ctx, t.creator)
        head = texts.standings_update(presentation.mention(creator))
        text = Text.of(head, "\n", await _standings_text(ctx, state))
        # Edited in place by the adapters where they can (see bot.sessions.posts).
        note = replace(
            _chat_note(ctx, creator, t, text, now, posts.standings_key(t.id, t.standings_at)),
            kind=Kind.STANDINGS,
        )
        work += await ctx.store.claim_standings_post(t.id, t.standings_at, now, [note])
    # What was read, as the store counts it: a later change of any game shows.
    await ctx.store.mark_swept(t.id, sum(r.version for _, r in state.games) + len(state.games))
    return work


async def _replays(
    ctx: Context, t: TournamentRow, state: Progress, now: datetime
) -> list[TournamentNewGame]:
    """The replays of the aborted games due one: the same seats, a fresh clock."""
    return [
        await _game(ctx, t, row.seat0, row.seat1, now, g.group, g.leg, replay_of=g.game_id)
        for g, row in state.replays_due
    ]


async def _finish(ctx: Context, state: Progress, now: datetime) -> bool:
    """End a tournament whose games are all over: the places, and the result in the chat."""
    t = state.tournament
    tables = state.tables()
    places = {s.player: s.place for group in tables for s in group}
    lines = []
    first: PlayerRow | None = None
    for index, group in enumerate(tables):
        if not group:
            continue
        best = [s for s in group if s.place == 1]
        first = first or await loading.player_by_id(ctx, best[0].player)
        winners = await _mentions(ctx, [s.player for s in best])
        name = (
            display_name(t)
            if len(tables) == 1
            else f"{display_name(t)}, {texts.standings_group(index)}"
        )
        lines.append(texts.tournament_result(name, winners, half_points(best[0].points)))
    text = Text.join([*lines, await _standings_text(ctx, state)], "\n\n")
    # Addressed to a winner, whom the text names (no one else is singled out).
    to = first or await loading.player_by_id(ctx, t.creator)
    note = _chat_note(ctx, to, t, text, now, f"tournament:{t.id}:result")
    return await ctx.store.close_tournament(
        t.id, TournamentStatus.RUNNING, TournamentStatus.FINISHED, now, [note], places
    )


# -- standings --------------------------------------------------------------------------------


async def _standings_text(ctx: Context, state: Progress) -> Text:
    t = state.tournament
    parts: list[Text] = [texts.standings_head(display_name(t), state.settled, state.pairings)]
    tables = state.tables()
    for index, group in enumerate(tables):
        if len(tables) > 1:
            parts.append(Text.of(texts.standings_group(index)))
        for s in group:
            player = (await loading.player_by_id(ctx, s.player)).name
            parts.append(
                texts.standings_line(
                    s.place,
                    player,
                    half_points(s.points),
                    s.wins,
                    s.draws,
                    s.losses,
                    half_points(s.sonneborn_berger),
                    s.withdrawn,
                )
            )
    return Text.join(parts, "\n")


async def _picture(ctx: Context, state: Progress) -> bytes:
    t = state.tournament
    groups = []
    tables = state.tables()
    for index, group in enumerate(tables):
        rows = []
        for s in group:
            player = await loading.player_by_id(ctx, s.player)
            rows.append(
                StandingsRow(
                    s.place,
                    player.name,
                    s.played,
                    s.wins,
                    s.draws,
                    s.losses,
                    half_points(s.points),
                    half_points(s.sonneborn_berger),
                    s.withdrawn,
                )
            )
        heading = texts.standings_group(index) if len(tables) > 1 else ""
        groups.append((heading, tuple(rows)))
    title = texts.tournament_title(t.id, _title(t))
    note = texts.games_played_of(state.settled, state.pairings)
    return await asyncio.to_thread(standings_png, title, groups, note)


async def show(ctx: Context, user: User, chat: Chat, tournament_id: int | None = None) -> Reply:
    """A tournament's standings (the one here when no id is given: the running or open one,
    else the last finished) as a table picture with its text version; an open one's card."""
    await loading.player(ctx, user)
    if tournament_id is None:
        here = await ctx.store.chat_tournaments(chat.platform, chat.chat_id)
        live = [t for t in here if t.status.live]
        if len(live) > 1:
            raise Refusal(texts.which_tournament([t.id for t in live]))
        shown = live or [t for t in here if t.status is TournamentStatus.FINISHED][:1]
        if not shown:
            raise Refusal(texts.no_tournament_here())
        t = shown[0]
    else:
        t = await pick(ctx, chat, tournament_id, tuple(TournamentStatus))
    if t.status in (TournamentStatus.OPEN, TournamentStatus.CANCELLED):
        return await _card(ctx, t)
    state = await progress(ctx, t)
    text = await _standings_text(ctx, state)
    if not ctx.pictures:
        return Reply(text)
    png = await _picture(ctx, state)
    alt = texts.standings_alt(display_name(t), len(state.entrants))
    return Reply(text, image=png, alt=alt, kind=ReplyKind.CHART)


async def listing(ctx: Context, user: User, chat: Chat) -> Reply:
    """This chat's tournaments: the open and running ones, and the last finished."""
    await loading.player(ctx, user)
    here = await ctx.store.chat_tournaments(chat.platform, chat.chat_id)
    shown = [t for t in here if t.status.live]
    shown += [t for t in here if t.status is TournamentStatus.FINISHED][:1]
    if not shown:
        return Reply(texts.no_tournaments())
    lines = []
    for t in sorted(shown, key=lambda t: t.id):
        count = len(await ctx.store.entrants(t.id))
        lines.append(texts.tournament_list_line(display_name(t), str(t.status), count))
    return Reply(Text.join(lines, "\n"))
