"""The bot as an opponent: games against Hexhall itself (issue 17).

``challenge bot <game>`` starts a game at once (no challenge to accept).  The bot is a stored
player, one per platform (user id :data:`~bot.core.notification.BOT_USER_ID`, named
:data:`~bot.sessions.texts.BOT_NAME`), so every sentence that names a player names it too; the
game stores the bot's seat and level (:attr:`~bot.storage.GameRow.bot_seat`,
:attr:`~bot.storage.GameRow.bot_level`) and is never rated for the player (origin ``bot``):
its result moves the bot's level's rating instead (issue 49, :mod:`bot.sessions.standings`).

The bot's move:

- :func:`wake` starts it when the bot is to move (after the player's move, at the start of a
  game, after a takeback): a task per game, never two for one game in this process.
- The search runs in a worker process (:class:`~bot.sessions.thinker.Thinker`), outside the
  game's lock: other games' moves, and this game's board and takeback, are answered meanwhile.
- The move is stored by :func:`bot.sessions.moves.commit`, the path of every move, with the
  store's ply-and-version check: if the game changed while the bot thought (a takeback), the
  search is thrown away and made again for the new position; if another process stored the
  bot's move first, this one is simply not stored.  So a move is made exactly once.
- The player is told as for any move: a "your turn" notification (or "game over") through the
  outbox.  Notifications to the bot itself are not delivered (see the outbox).
- The bot has no clock (:meth:`~bot.sessions.context.Context.turn_deadline`); the player keeps
  the time per move of the challenge.
- :func:`resume`, part of the sweep, finds the games where the bot is to move (say, after the
  process died while it thought) and wakes them.

Takebacks are granted at once (the player's last move and the bot's reply go); a rematch starts
the next game at once.

Draws (issue 49, :mod:`engines.ai.draws`): the bot accepts a draw offer when its evaluation
says the game is held for both (each of its last six assessments gives seat 0 a chance between
0.40 and 0.60), and declines it otherwise; after 150 plies without progress the player's
``draw`` is a claim, granted whatever the evaluation.  After its own move the bot offers a draw
when the game has just become held, or has gone 100 plies without progress (the player answers
with ``draw accept`` or ``draw decline``, or the offer lapses with their move).  The
assessments run in the worker processes, a search of at most the level's own budget each.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from datetime import timedelta

import engines
from bot.core.notification import BOT_USER_ID, Kind
from bot.core.status import GameStatus
from bot.messages import Action, ActionKind, Chat, Reply, Text, User
from bot.ratings import Origin
from bot.sessions import (
    challenges,
    endings,
    finish,
    leases,
    loading,
    moves,
    policy,
    presentation,
    texts,
)
from bot.sessions.context import DEFAULT_TIME_PER_MOVE, Context, Refusal
from bot.storage import GameRow, NewGame, PlayerRow, StoreError
from engines import IllegalMove, Position
from engines.ai.draws import CLAIM_AFTER, OFFER_AFTER
from engines.base import shown
from engines.levels import Level

__all__ = [
    "after_move",
    "answer_draw",
    "bot_user",
    "close",
    "decline_draw",
    "idle",
    "is_bot",
    "parse_level",
    "rematch",
    "resume",
    "run",
    "start",
    "takeback",
    "wake",
]

log = logging.getLogger(__name__)

#: A move the bot searched for is thrown away when the game changed meanwhile; after this many
#: tries in a row it waits for the next sweep.
TRIES = 5

#: How long a game's bot move stays with the process searching it without word from it: the
#: holder renews the lease every third of it while it waits and searches, so only a process
#: that died (on another machine: one on this one is replaced at once) lets it run out, and
#: the next sweep's wake after that takes the move over.
THINK_LEASE = timedelta(seconds=30)


def bot_user(platform: str) -> User:
    """The bot as a user of ``platform``."""
    return User(platform, BOT_USER_ID, texts.BOT_NAME)


def is_bot(player: PlayerRow) -> bool:
    """Whether ``player`` is the bot itself."""
    return player.user_id == BOT_USER_ID


def parse_level(level: Level | str) -> Level:
    """``level`` as a :class:`~engines.levels.Level` (its name, any case); :class:`Refusal` if
    there is no such level."""
    if isinstance(level, Level):
        return level
    try:
        return Level(str(level).strip().lower())
    except ValueError:
        raise Refusal(texts.bad_level(shown(str(level)), [lv.value for lv in Level])) from None


def _bot_to_move(row: GameRow) -> bool:
    return (
        row.status == GameStatus.ACTIVE and row.bot_seat is not None and row.to_move == row.bot_seat
    )


async def start(
    ctx: Context,
    user: User,
    chat: Chat,
    game: str,
    level: Level | str = Level.NORMAL,
    options: dict[str, object] | None = None,
    first: str = "random",
    time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    rematch_of: int | None = None,
) -> Reply:
    """Start a game of ``game`` between ``user`` and the bot at ``level`` in ``chat``, at
    once.  ``first`` is who takes seat 0 (``me``: the player, ``them``: the bot, ``random``);
    ``time_per_move`` (days) is the player's clock (the bot has none)."""
    name, spec, resolved = challenges.checked_terms(game, options, first, time_per_move)
    chosen = parse_level(level)
    if user.user_id == BOT_USER_ID:
        raise Refusal(texts.not_yourself())
    me = await loading.player(ctx, user)
    # One start at a time per player in this process, so a burst cannot pass the limit.
    async with ctx.player_lock(me.id):
        if await ctx.store.count_bot_games(me.id) >= ctx.max_bot_games:
            raise Refusal(texts.too_many_bot_games(ctx.max_bot_games))
        return await _start(ctx, me, chat, name, spec.title, chosen, resolved, first,
                            time_per_move, rematch_of)  # fmt: skip


async def _start(
    ctx: Context,
    me: PlayerRow,
    chat: Chat,
    name: str,
    title: str,
    chosen: Level,
    resolved: dict[str, object],
    first: str,
    time_per_move: float | None,
    rematch_of: int | None,
) -> Reply:
    bot = await loading.player(ctx, bot_user(chat.platform))
    try:
        position = engines.new(name, **resolved)
    except (ValueError, TypeError) as exc:
        raise Refusal(str(exc)) from None
    if first == "me" or (first == "random" and ctx.rng.random() < 0.5):
        seats, bot_seat = (me, bot), 1
    else:
        seats, bot_seat = (bot, me), 0
    now = ctx.now()
    to_move = seats[position.to_move]
    row = await ctx.store.create_game(
        NewGame(
            game=name,
            options=resolved,
            seat0=seats[0].id,
            seat1=seats[1].id,
            platform=chat.platform,
            chat_id=chat.chat_id,
            to_move=position.to_move,
            snapshot=position.to_dict(),
            time_per_move=time_per_move,
            deadline_at=policy.turn_deadline(ctx, to_move, time_per_move, now),
            rematch_of=rematch_of,
            rated=False,
            origin=Origin.BOT,
            community=chat.community_id,
            bot_seat=bot_seat,
            bot_level=chosen,
        ),
        now,
    )
    ctx.positions[row.id] = (row, position)
    sides = position.seat_sides
    text = texts.bot_game_started(
        row.id,
        title,
        chosen.value,
        (
            texts.plays(presentation.mention(seats[0]), sides[0]),
            texts.plays(presentation.mention(seats[1]), sides[1]),
        ),
        texts.side(presentation.mention(to_move), sides[position.to_move]),
    )
    if wake(ctx, row):
        text += texts.bot_thinking(presentation.mention(bot))
    reply = Reply(text, actions=presentation.game_actions(row), game_id=row.id)
    reply = await presentation.picture(ctx, position, reply)
    return await presentation.as_board(ctx, reply, row, position, live=True)


def wake(ctx: Context, row: GameRow) -> bool:
    """Start the bot's move in ``row``'s game if the bot is to move there (unless it is at it
    already); whether the bot is (now) thinking.  Call it with the game as just stored."""
    if not _bot_to_move(row):
        return False
    task = ctx.bot_tasks.get(row.id)
    if task is None or task.done():
        task = asyncio.create_task(_play(ctx, row.id), name=f"the bot's move in #{row.id}")
        ctx.bot_tasks[row.id] = task
        task.add_done_callback(functools.partial(_finished, ctx, row.id))
    return True


async def after_move(ctx: Context, reply: Reply) -> Reply:
    """``reply`` (to a move, a button press) with "the bot is thinking" added when its game is
    one where the bot is now to move, whose move is then started (:func:`wake`)."""
    if not reply.ok or reply.game_id is None:
        return reply
    cached = ctx.positions.get(reply.game_id)
    if cached is None or not wake(ctx, cached[0]):
        return reply
    row = cached[0]
    assert row.bot_seat is not None  # wake() said the bot is to move
    bot = await loading.player_by_id(ctx, row.seats[row.bot_seat])
    return replace(reply, body=Text.of(reply.body, texts.bot_thinking(presentation.mention(bot))))


def _finished(ctx: Context, game_id: int, task: asyncio.Task[None]) -> None:
    if ctx.bot_tasks.get(game_id) is task:
        del ctx.bot_tasks[game_id]
    if not task.cancelled() and task.exception() is not None:
        # The sweep tries again (resume); a store that is busy or a worker that died is
        # no reason to stop the bot for good.
        log.error("the bot's move in #%d failed", game_id, exc_info=task.exception())


async def _play(ctx: Context, game_id: int) -> None:
    """Make the bot's move in a game, as often as it is the bot's turn there (see the module
    docstring).  Of several bot processes on one database, the one holding the game's bot
    lease searches; another that wakes the same game leaves it (the lease ends after
    :data:`THINK_LEASE` should that process die, and the next sweep's wake takes it over)."""
    lease = f"bot move #{game_id}"
    if not await leases.claim(ctx, lease, THINK_LEASE):
        return
    alive = asyncio.create_task(_renew(ctx, lease), name=f"lease of the bot's move in #{game_id}")
    try:
        await _search_and_play(ctx, game_id)
    finally:
        alive.cancel()
        with contextlib.suppress(StoreError):
            await asyncio.shield(leases.release(ctx, lease))


async def _renew(ctx: Context, lease: str) -> None:
    """Renew ``lease`` every third of :data:`THINK_LEASE` until cancelled (a failed renewal
    is tried again at the next one)."""
    while True:
        await asyncio.sleep(THINK_LEASE.total_seconds() / 3)
        with contextlib.suppress(StoreError):
            await leases.claim(ctx, lease, THINK_LEASE)


async def _search_and_play(ctx: Context, game_id: int) -> None:
    for _ in range(TRIES):
        async with ctx.lock(game_id):
            try:
                row = (await loading.load(ctx, game_id)).row
            except Refusal:
                return  # the game was set aside
            if not _bot_to_move(row):
                return
            played = [m.move for m in await ctx.store.moves(game_id)]
        if len(played) != row.ply:
            continue  # moved on between the two reads
        level = row.bot_level or Level.NORMAL
        assert row.bot_seat is not None  # _bot_to_move
        player = row.seats[1 - row.bot_seat]  # searches queue fairly by the player
        move = await ctx.thinker.move(row.game, row.options, played, level, _seed(row), player)
        async with ctx.lock(game_id):
            try:
                loaded = await loading.load(ctx, game_id)
            except Refusal:
                return
            if loaded.row.version != row.version:
                continue  # a takeback, or another process: search the new position
            try:
                after = loaded.position.play(move)
            except IllegalMove:
                log.error("the bot chose an illegal move %r in #%d", move, game_id)
                return
            assert row.bot_seat is not None
            bot = await loading.player_by_id(ctx, row.seats[row.bot_seat])
            stored = await moves.commit(ctx, loaded.row, after, bot, row.bot_seat)
        if stored is not None and after.outcome is None:
            await _maybe_offer_draw(ctx, stored, after, [*played, move], level)
        # Stored, or another process stored a move first: either way look again.
    log.warning("the bot's move in #%d: the game kept changing; the sweep tries again", game_id)


def _seed(row: GameRow) -> int:
    # The same game and ply give the same search: a move searched again after a restart is
    # the one the bot would have played.
    return row.id * 100_003 + row.ply


async def resume(ctx: Context) -> int:
    """Wake every game where the bot is to move (after a restart, or a move that failed);
    how many there are."""
    rows = await ctx.store.bot_turn_games()
    return sum(wake(ctx, row) for row in rows)


async def idle(ctx: Context) -> None:
    """Wait until the bot has no move in the works in this process."""
    while ctx.bot_tasks:
        await asyncio.gather(*ctx.bot_tasks.values(), return_exceptions=True)


async def close(ctx: Context) -> None:
    """Stop the bot's moves in the works (the sweep of the next start makes them) and its
    worker processes."""
    tasks = list(ctx.bot_tasks.values())
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    ctx.thinker.close()


async def takeback(
    ctx: Context, me: PlayerRow, row: GameRow, position: Position, seat: int
) -> Reply:
    """Take back ``me``'s last move in a game against the bot, and the bot's reply to it if it
    made one: granted at once, it is ``me``'s turn again.  Called with the game's lock held."""
    played = await ctx.store.moves(row.id)
    keep = len(played)
    while keep > 0 and played[keep - 1].seat != seat:
        keep -= 1
    if keep == 0:
        raise Refusal(texts.bot_no_takeback(row.id))
    keep -= 1  # the player's own last move goes too
    now = ctx.now()
    current, before = row, position
    while current.ply > keep:
        before = await loading.replay(ctx, current, upto=current.ply - 1)
        next_player = await loading.player_by_id(ctx, current.seats[before.to_move])
        deadline = policy.turn_deadline(ctx, next_player, current.time_per_move, now)
        current = loading.store_row(
            ctx,
            await ctx.store.take_back(current, before.to_dict(), before.to_move, now, deadline),
            before,
        )
    assert row.bot_seat is not None
    bot = await loading.player_by_id(ctx, row.seats[row.bot_seat])
    answers = [m.move for m in played[keep + 1 :]]
    reply = (presentation.mention(bot), ", ".join(answers)) if answers else None
    who = await presentation.who(ctx, current, before, before.to_move)
    text = texts.bot_taken_back(presentation.mention(me), row.id, played[keep].move, reply, who)
    if wake(ctx, current):  # only when the player's takeback leaves the bot to move
        text += texts.bot_thinking(presentation.mention(bot))
    shown = Reply(text, actions=presentation.game_actions(current), game_id=row.id)
    shown = await presentation.picture(ctx, before, shown)
    return await presentation.as_board(ctx, shown, current, before, live=True)


async def _maybe_offer_draw(
    ctx: Context, row: GameRow, position: Position, played: list[str], level: Level
) -> None:
    """After the bot's move (stored as ``row``, ``position``, after ``played``): offer the
    player a draw if :func:`engines.ai.draws.should_offer` says so.  The assessment runs
    outside the game's lock; the offer is stored only if the game is still as it was."""
    assert row.bot_seat is not None
    player = row.seats[1 - row.bot_seat]
    try:
        offer, quiet = await ctx.thinker.draw_offered(
            row.game, row.options, played, level, row.bot_seat, player
        )
    except BrokenProcessPool:
        return  # no offer this turn; the game goes on
    if not offer:
        return
    async with ctx.lock(row.id):
        try:
            current = (await loading.load(ctx, row.id)).row
        except Refusal:
            return  # the game was set aside
        if current.version != row.version or current.draw_offer_by is not None:
            return  # the player moved meanwhile (or took back): no offer for a past position
        bot = await loading.player_by_id(ctx, row.seats[row.bot_seat])
        opponent = await loading.player_by_id(ctx, player)
        said = (
            texts.bot_offers_draw_no_progress(presentation.mention(bot), row.id, quiet)
            if quiet >= OFFER_AFTER
            else texts.bot_offers_draw(presentation.mention(bot), row.id)
        )
        answers = (
            Action.make("Accept draw", ActionKind.DRAW_ACCEPT, row.id),
            Action.make("Decline draw", ActionKind.DRAW_DECLINE, row.id),
        )
        now = ctx.now()
        notes = policy.note_for_chat(
            ctx, opponent, Kind.DRAW_OFFERED, said, now, game_id=row.id, actions=answers
        )
        updated = await ctx.store.update_game(row, now, notes, draw_offer_by=row.bot_seat)
        if updated is not None:
            loading.store_row(ctx, updated, position)


async def answer_draw(ctx: Context, row: GameRow) -> Reply:
    """The bot's answer to the player's draw offer (called with the game's lock held): a claim
    granted after :data:`~engines.ai.draws.CLAIM_AFTER` plies without progress; else accepted
    when the game is held for both by the bot's evaluation (:func:`engines.ai.draws.held`),
    declined when it is not (the game as it was)."""
    assert row.bot_seat is not None
    bot = await loading.player_by_id(ctx, row.seats[row.bot_seat])
    me = await loading.player_by_id(ctx, row.seats[1 - row.bot_seat])
    played = [m.move for m in await ctx.store.moves(row.id)]
    level = row.bot_level or Level.NORMAL
    try:
        held, quiet = await ctx.thinker.draw_view(
            row.game, row.options, played, level, row.bot_seat, me.id
        )
    except BrokenProcessPool:
        held, quiet = False, 0
    if quiet >= CLAIM_AFTER:
        text = texts.draw_claimed(presentation.mention(me), row.id, quiet)
    elif held:
        text = texts.bot_accepts_draw(presentation.mention(bot), row.id)
    else:
        declined = texts.bot_declines_draw(presentation.mention(bot), row.id)
        if quiet >= OFFER_AFTER:
            declined = Text.of(declined, texts.claim_in(row.id, CLAIM_AFTER - quiet))
        return Reply(declined, ok=False, game_id=row.id)
    position = (await loading.load(ctx, row.id)).position
    now = ctx.now()
    ended = await finish.finish(
        ctx, row, position, finish.AGREEMENT, None, [(bot, text)], now, by=me
    )
    updated = loading.store_row(ctx, ended, position)
    return await endings.game_over_reply(ctx, updated, position, text)


#: The name :mod:`bot.sessions.requests` calls (from when the bot declined every offer).
decline_draw = answer_draw


async def rematch(ctx: Context, user: User, me: PlayerRow, row: GameRow, seat: int) -> Reply:
    """A rematch of a finished game against the bot: the next game starts at once, same game,
    options, level and time per move, seats swapped."""
    for game in await ctx.store.games_of(
        me.id, (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED), limit=50
    ):
        if game.rematch_of == row.id:
            raise Refusal(texts.rematch_exists(row.id, game.id))
    chat = Chat(row.platform, row.chat_id, row.community)
    return await start(
        ctx,
        user,
        chat,
        row.game,
        row.bot_level or Level.NORMAL,
        dict(row.options),
        "them" if seat == 0 else "me",
        row.time_per_move,
        rematch_of=row.id,
    )


async def run(ctx: Context, stop: asyncio.Event, every: float = 30.0) -> None:
    """At start-up, then every ``every`` seconds until ``stop`` is set: :func:`resume`.  A
    failing round is logged, not fatal."""
    while not stop.is_set():
        try:
            await resume(ctx)
        except StoreError as exc:  # the database busy or down: one line, no trace
            log.warning("waking the bot's moves failed: %s", exc)
        except Exception:  # anything else: the next round tries again
            log.exception("waking the bot's moves failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=every)
