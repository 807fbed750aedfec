"""Moves (with the race and repeat rules of correspondence play) and resigning.

Concurrency: moves of one game are serialised by a per-game ``asyncio.Lock`` in this process and
by the store's optimistic check (``WHERE ply = ? AND version = ?``) across processes.
"""

from __future__ import annotations

from dataclasses import replace

from bot import metrics
from bot.core.ending import Termination
from bot.core.notification import BOT_USER_ID, Kind, Notification
from bot.core.status import GameResult, GameStatus
from bot.delivery.notify import dedupe_key
from bot.messages import Action, ActionKind, Chat, Reply, TurnRefusal, User
from bot.outcomes import AlreadyPlayed, Asks, Ended, Moved, NeedsConfirm, Question, Refused
from bot.sessions import (
    clocks,
    digest,
    endings,
    finish,
    loading,
    policy,
    premoves,
    presentation,
    questions,
    texts,
    turns,
)
from bot.sessions.context import Context, Refusal
from bot.sessions.loading import Loaded
from bot.storage import GameRow, PlayerRow, RatingEnd
from bot.storage.sql_premoves import PlannedMove
from engines import IllegalMove, Position

__all__ = ["commit", "move", "resign"]


async def move(
    ctx: Context,
    user: User,
    chat: Chat,
    text: str,
    game_id: int | None = None,
    expected_ply: int | None = None,
    confirm: bool = False,
    answered_in_chat: bool = True,
) -> Reply:
    """Play ``text`` in a game (your only active game here when no id is given).

    ``expected_ply`` is the ply the player saw (buttons carry it): if the game has moved on
    since, the move is refused as "the position changed" unless it is the same move the
    same player already made at that ply (judged by the stored move, whichever process
    stored it), which is answered for that player alone (a private one-line reply) and
    posts nothing new.

    A legal move that would lose the game for its player (inpHeXion and Lines of Fixation
    have such moves) is not played: the reply warns and offers to play it anyway.
    ``confirm`` plays it without asking.

    ``answered_in_chat``: the surface answers the move in ``chat`` (its answer there is the
    move's board, when ``chat`` is the game's).  ``False`` for the web board, which answers on
    its page: the board in the game's chat is then due at once and the outboxes are woken.
    """
    if not isinstance(text, str):
        raise Refusal(texts.move_is_text())
    me = await loading.player(ctx, user)
    if game_id is None and expected_ply is None and answered_in_chat:
        played = await _alone(ctx, me, chat, text, confirm)
        if played is not None:
            return played
    gid = await loading.pick_game(ctx, me, chat, game_id, turn=True)
    # What the player saw when they sent the move: a racing submission is judged against it.
    # Only when another submission holds the lock is there a race to judge; otherwise the
    # fresh stored state is what the player is answered against.
    lock = ctx.lock(gid)
    seen = ctx.positions.get(gid)
    if expected_ply is None and seen is not None and lock.locked():
        expected_ply = seen[1].ply
    async with lock:
        for fresh in (False, True):
            loaded = await loading.load(ctx, gid, fresh)
            reply = await _try_move(
                ctx, me, chat, loaded, text, expected_ply, confirm, answered_in_chat
            )
            if reply is not None:
                return reply
            if not loaded.cached:
                # Another process changed the game between our read and our write.
                ctx.positions.pop(gid, None)
                row = await ctx.store.get_game(gid)
                seat = loading.seat(me, loaded.row)
                if row is None or seat is None:
                    raise Refusal(texts.no_such("game", str(gid)))
                return await _stale(ctx, row, seat, text, loaded.row.ply)
            # Our cached row was stale (another process wrote): judge again, fresh.
            ctx.positions.pop(gid, None)
        raise AssertionError("unreachable: the fresh attempt returns or raises")


async def _alone(ctx: Context, me: PlayerRow, chat: Chat, text: str, confirm: bool) -> Reply | None:
    """A move that names no game, played at once in the one active game of ``me`` in
    ``chat`` this process knows of, the store checking in the write itself that it is still
    their only active game here (what :meth:`~bot.sessions.context.Context.pick_game` would
    read first).  ``None`` for anything but a plain move played there: then the move takes
    the ordinary way, which answers everything else."""
    known = [
        row
        for row, _ in ctx.positions.values()
        if row.status == GameStatus.ACTIVE
        and (row.platform, row.chat_id) == (chat.platform, chat.chat_id)
        and me.id in row.seats
    ]
    if len(known) != 1 or ctx.lock(known[0].id).locked():
        return None
    gid = known[0].id
    async with ctx.lock(gid):
        cached = ctx.positions.get(gid)
        if cached is None:
            return None
        row, position = cached
        decided = turns.may_move(row, position, me.id, ctx.now())
        if not isinstance(decided, turns.MayMove):
            return None
        seat = decided.seat
        try:
            after = position.play(text)
        except IllegalMove:
            return None
        outcome = after.outcome
        if not confirm and outcome is not None and outcome.winner not in (None, seat):
            return None
        alone = (me.id, chat.platform, chat.chat_id)
        updated = await commit(ctx, row, after, me, seat, alone_in=alone)
        if updated is None:
            return None
        return await _move_reply(ctx, updated, row.ply, seat, after, _prepared(ctx, updated, row))


async def _try_move(
    ctx: Context,
    me: PlayerRow,
    chat: Chat,
    loaded: Loaded,
    text: str,
    expected_ply: int | None,
    confirm: bool = False,
    answered_in_chat: bool = True,
) -> Reply | None:
    """Check and commit one move made in ``chat``; ``None`` if the store refused the write as
    stale."""
    row, position, gid = loaded.row, loaded.position, loaded.row.id
    decided = turns.may_move(row, position, me.id, ctx.now(), expected_ply)
    if isinstance(decided, turns.Refused):
        return await _refused(ctx, loaded, decided, text, expected_ply)
    seat = decided.seat
    try:
        after = position.play(text)
    except IllegalMove as exc:
        refused = Refused(exc.code, exc.arguments)
        raise Refusal(texts.illegal(gid, texts.illegal_said(exc)), refused=refused) from None
    outcome = after.outcome
    if not confirm and outcome is not None and outcome.winner not in (None, seat):
        move = after.last_move or text
        winner = await presentation.who(ctx, row, position, outcome.winner)
        return Reply(
            texts.careful(move, gid, winner, outcome.termination),
            actions=(Action.make("Play it anyway", ActionKind.MOVE_ANYWAY, gid, row.ply, move),),
            ok=False,
            game_id=gid,
            outcome=NeedsConfirm(gid, row.ply, move, outcome.termination),
        )
    # The board posted as the answer claims the committed one only in the game's own chat.
    there = answered_in_chat and (chat.platform, chat.chat_id) == (row.platform, row.chat_id)
    return await _commit(ctx, row, after, me, seat, there)


async def _refused(
    ctx: Context, loaded: Loaded, refused: turns.Refused, text: str, expected_ply: int | None
) -> Reply | None:
    """What ``/move`` does when the player may not move now (see
    :func:`~bot.sessions.turns.may_move`): a repeat of the move they already made is answered
    as such, a cached game is judged again from the store (``None``) before a refusal that
    depends on who moved last, and a passed deadline has time called; else the refusal."""
    row, position, code, seat = loaded.row, loaded.position, refused.code, refused.seat
    if seat is None:
        raise await turns.refusal(ctx, row, position, refused)
    if loaded.cached and code is not TurnRefusal.OVER:
        return None  # check against the stored state before calling it stale, late or not yours
    if code is TurnRefusal.MOVED_ON:
        assert expected_ply is not None  # only a move for a given ply has moved on
        return await _stale(ctx, row, seat, text, expected_ply)
    if code is TurnRefusal.OUT_OF_TIME:
        # The deadline passed before the sweeper got to it: time is called now.
        ended = await clocks.expire(ctx, row, ctx.now())
        if ended is None:
            return None
        raise await turns.refusal(ctx, ended, position, refused)
    repeat = await _repeat(ctx, row, seat, text, row.ply - 1)
    if repeat is not None:
        return repeat
    raise await turns.refusal(ctx, row, position, refused)


async def _commit(
    ctx: Context, row: GameRow, after: Position, me: PlayerRow, seat: int, there: bool
) -> Reply | None:
    """Store the move (one transaction with its notifications) and answer it; ``None`` if
    the stored game was no longer at ``row``'s ply and version."""
    updated = await commit(ctx, row, after, me, seat, answered_there=there)
    if updated is None:
        return None
    return await _move_reply(ctx, updated, row.ply, seat, after, _prepared(ctx, updated, row))


def _prepared(ctx: Context, updated: GameRow, row: GameRow) -> Position | None:
    """The position after the prepared reply stored with the move made from ``row`` (see
    :mod:`~bot.sessions.premoves`), if one was."""
    cached = ctx.positions.get(updated.id)
    if updated.ply != row.ply + 2 or cached is None or cached[1].ply != updated.ply:
        return None
    return cached[1]


async def commit(
    ctx: Context,
    row: GameRow,
    after: Position,
    me: PlayerRow,
    seat: int,
    alone_in: tuple[int, str, str] | None = None,
    answered_there: bool = True,
) -> GameRow | None:
    """Store ``me``'s move that made ``after`` (one transaction with its notifications): the
    stored game, or ``None`` if it was no longer at ``row``'s ply and version (or, with
    ``alone_in``, no longer the player's only active game in the chat: see
    :meth:`~bot.storage.sql_games.SqlGames.apply_move`).  Every move is stored here, the bot's
    too (see :mod:`~bot.sessions.opponent`).  ``answered_there``: the move is answered in the
    game's chat (the answer claims its board); a move answered elsewhere (in a private chat,
    on the web board) has its board due at once, and this process's outboxes are woken for it
    (see :func:`~bot.sessions.policy.board_note`).

    A prepared reply of the player to move next (:mod:`~bot.sessions.premoves`) that this
    move matches is stored in the same transaction, and its board is the one committed."""
    first, notes = await _planned(ctx, row, after, me, seat, answered_there)
    follow = None if row.against_bot else await premoves.follow_up(ctx, row, after, me)
    final = after
    if follow is not None and follow.reply is not None:
        final = follow.reply
        updated = await _with_reply(ctx, row, after, me, first, follow, alone_in, answered_there)
    else:
        if follow is not None:
            notes += follow.notes
        updated = await ctx.store.apply_move(
            row,
            first.move,
            seat,
            first.snapshot,
            first.to_move,
            first.planned_at or ctx.now(),  # the now its deadline was reckoned from
            notes,
            first.finish,
            first.deadline_at,
            rating=first.rating,
            alone_in=alone_in,
        )
    if updated is not None:
        ctx.positions[row.id] = (updated, final)
        for _ in range(updated.ply - row.ply):
            metrics.moved(row.game)
        if ctx.pages is not None:
            ctx.pages.changed(row.id)
        if not answered_there and me.user_id != BOT_USER_ID:
            ctx.bell.ring()  # no answer posts the board: the outboxes post it now
    return updated


async def _with_reply(
    ctx: Context,
    row: GameRow,
    after: Position,
    me: PlayerRow,
    first: PlannedMove,
    follow: premoves.FollowUp,
    alone_in: tuple[int, str, str] | None,
    answered_there: bool,
) -> GameRow | None:
    """Store ``me``'s move that made ``after`` and the prepared reply ``follow`` in one
    transaction, with the notes of the reply alone (the chat gets one board, showing both)."""
    assert follow.reply is not None
    mid = replace(row, ply=row.ply + 1, version=row.version + 1)
    owner, reply = follow.owner, follow.reply
    planned, notes = await _planned(ctx, mid, reply, owner, follow.seat, answered_there)
    both = texts.premove_played(
        row.id,
        presentation.title(row),
        presentation.mention(me),
        first.move,
        presentation.mention(owner),
        planned.move,
    )
    # The board's line says both moves (and the result, when the reply ended the game).
    said = both if reply.outcome is None else None
    notes = [
        replace(n, text=said or both + " " + n.text) if n.kind == Kind.BOARD else n for n in notes
    ]
    return await ctx.store.apply_with_reply(
        row, first, planned, owner.id, follow.kept, planned.planned_at or ctx.now(), notes, alone_in
    )


async def _planned(
    ctx: Context, row: GameRow, after: Position, me: PlayerRow, seat: int, answered_there: bool
) -> tuple[PlannedMove, list[Notification]]:
    """``me``'s move that made ``after`` from ``row``, to store, and its notifications."""
    now = ctx.now()
    move = after.last_move or ""
    opponent = await loading.player_by_id(ctx, row.seats[1 - seat])
    title = presentation.title(row)
    ending: tuple[int | None, GameResult, Termination] | None = None
    rated: RatingEnd | None = None
    notes: list[Notification] = []
    # A player's move is answered with the board in the game's chat, which names the player
    # to move (or the result): that is the chat's notification, and only those who asked for
    # direct messages are told privately too.  The bot's own move has no answer of its own:
    # its notices are delivered in the chat (as the board, see the adapters' senders).
    tell = policy.note_for_chat if me.user_id == BOT_USER_ID else policy.private_notes
    deadline = None
    over = None  # the result, said to the opponent and on the final board
    if after.outcome is None:
        next_player = await loading.player_by_id(ctx, row.seats[after.to_move])
        deadline = policy.turn_deadline(ctx, next_player, row.time_per_move, now)
    if after.outcome is not None:
        winner, termination = after.outcome.winner, after.outcome.termination
        said = texts.game_over_note(
            row.id,
            title,
            presentation.mention(me),
            move,
            None if winner is None else winner != seat,
            termination,
        )
        ended = await finish.settled(
            ctx,
            row,
            finish.by_the_rules(termination),
            winner,
            [(opponent, said)],
            now,
            by=me,
            in_chat=me.user_id == BOT_USER_ID,
        )
        ending = (winner, ended.result, termination)
        rated, over = ended.rated, said + ended.changed
        notes += ended.notes
    else:
        mover = row.seats[after.to_move]
        if mover != me.id:
            target = await loading.player_by_id(ctx, mover)
            notes += tell(
                ctx,
                target,
                Kind.YOUR_TURN,
                texts.your_turn_note(row.id, title, presentation.mention(me), move),
                now,
                chat_id=row.chat_id,
                game_id=row.id,
                dedupe=dedupe_key(Kind.YOUR_TURN, row.id, after.ply),
                ply=after.ply,
            )
    if me.user_id != BOT_USER_ID:
        # The board answering this move, committed with it (posted by the adapter at once;
        # by any outbox should that answer never go out).
        told = (
            opponent
            if after.outcome is not None
            else await loading.player_by_id(ctx, row.seats[after.to_move])
        )
        moved = (
            over
            if over is not None
            else texts.your_turn_note(row.id, title, presentation.mention(me), move)
        )
        notes.append(
            policy.board_note(ctx, told, row, after.ply, moved, now, answered_there=answered_there)
        )
    to_move = None if after.outcome is not None else after.to_move
    planned = PlannedMove(move, seat, after.to_dict(), to_move, ending, deadline, rated, now)
    return planned, await digest.fold(ctx, notes)


async def _canonical(ctx: Context, row: GameRow, text: str, ply: int) -> str | None:
    """``text`` as the canonical move it would have been at ``ply``, if legal there."""
    try:
        position = await loading.replay(ctx, row, upto=ply)
        return position.play(text).last_move
    except (IllegalMove, Refusal):
        return None


async def _repeat(ctx: Context, row: GameRow, seat: int, text: str, ply: int) -> Reply | None:
    """The first answer again if ``text`` is the move ``seat`` already made at ``ply``."""
    if ply < 0:
        return None
    stored = await ctx.store.move_at(row.id, ply)
    if stored is None or stored.seat != seat:
        return None
    if await _canonical(ctx, row, text, ply) != stored.move:
        return None
    if await _answer_lost(ctx, row.id):
        # The process that stored the move died answering it (this is Telegram sending the
        # update again): its board is still to be posted, and this answer posts it (taking
        # the committed board over from the dead process).
        return await _move_reply(ctx, row, ply, seat, None)
    # Decided by the stored move, whichever process applied it: the first answer told the
    # chat (its board, or the outbox does), so this one is a line for the repeater alone.
    said = texts.already_played(row.id, presentation.title(row), ply + 1, stored.move)
    played = AlreadyPlayed(row.id, ply, stored.move)
    return Reply(said, game_id=row.id, private=True, outcome=played)


async def _answer_lost(ctx: Context, game_id: int) -> bool:
    """Whether a move's committed board is held by a worker that is gone (it died while
    answering the move): only then does a repeat answer with the board.  Held by a live
    worker (the first answer is being posted) or by nobody (the outbox posts it), a repeat
    is quiet."""
    for _, holder in await ctx.store.board_owners(game_id, ctx.now()):
        if await ctx.store.worker_gone(holder):
            return True
    return False


async def _stale(ctx: Context, row: GameRow, seat: int, text: str, ply: int) -> Reply:
    repeat = await _repeat(ctx, row, seat, text, ply)
    if repeat is not None:
        return repeat
    raise turns.moved_on(row)


async def _move_reply(
    ctx: Context,
    row: GameRow,
    ply: int,
    seat: int,
    after: Position | None,
    prepared: Position | None = None,
) -> Reply:
    """The answer to ``seat``'s move at ``ply`` (the same whenever it is asked again), and to
    the opponent's ``prepared`` reply stored with it (the position after it) if there was one."""
    if after is None or after.ply != ply + 1:
        after = await loading.replay(ctx, row, upto=ply + 1)
    stored_move = after.last_move
    who = await presentation.who(ctx, row, after, seat)
    text = texts.moved(row.id, presentation.title(row), ply + 1, who, stored_move or "")
    if prepared is not None:
        owner = await presentation.who(ctx, row, prepared, 1 - seat)
        text += texts.premove_reply_line(owner, prepared.last_move or "")
        after = prepared
    actions: tuple[Action, ...] = ()
    if after.outcome is not None:
        if after.outcome.winner is None:
            text += texts.drawn_by(after.outcome.termination)
        else:
            winner = await presentation.who(ctx, row, after, after.outcome.winner)
            text += texts.wins_by(winner, after.outcome.termination)
        ended = Ended(row.id, after.ply, after.outcome.termination, after.outcome.winner)
        over = await endings.game_over_reply(ctx, row, after, text, upto=after.ply)
        return replace(over, outcome=ended)
    text += texts.to_move(await presentation.who(ctx, row, after, after.to_move))
    actions = presentation.game_actions(row)
    reply = await presentation.picture(
        ctx, after, Reply(text, actions=actions, game_id=row.id), row
    )
    board = await presentation.as_board(ctx, reply, row, after, live=True)
    return replace(board, outcome=Moved(row.id, ply + 1, stored_move or ""))


async def resign(
    ctx: Context, user: User, chat: Chat, game_id: int | None = None, confirm: bool = True
) -> Reply:
    """Resign a game you play in; ``confirm=False`` only asks "Really resign?" with a button
    that resigns (after the same checks, so nobody else is ever asked)."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id)
    async with ctx.lock(gid):
        loaded = await loading.load(ctx, gid)
        row, position = loaded.row, loaded.position
        seat = loading.seat(me, row)
        if seat is None:
            raise Refusal(texts.not_playing(gid, "resign"))
        if row.status != GameStatus.ACTIVE:
            raise Refusal(texts.already_over(gid))
        if not confirm:
            return Reply(
                texts.really_resign(gid),
                actions=(questions.resign_button(gid, me.id, ctx.now()),),
                game_id=gid,
                outcome=Asks(Question.RESIGN, gid),
            )
        opponent = await loading.player_by_id(ctx, row.seats[1 - seat])
        said = texts.resigned_note(presentation.mention(me), gid, presentation.title(row))
        updated = await finish.finish(
            ctx, row, position, finish.RESIGNATION, 1 - seat, [(opponent, said)], ctx.now(), by=me
        )
        if updated is None:
            raise Refusal(texts.changed_meanwhile(gid))
        winner = await presentation.who(ctx, updated, position, 1 - seat)
        return await endings.game_over_reply(
            ctx, updated, position, texts.resigned(presentation.mention(me), gid, winner)
        )
