"""Records of stored games: the move list, the plain-text export, and importing a record."""

from __future__ import annotations

import engines
from bot.core.ending import Termination
from bot.core.status import GameResult, GameStatus
from bot.messages import Action, ActionKind, Chat, Reply, ReplyKind, Text, User
from bot.sessions import clock as clk
from bot.sessions import loading, policy, presentation, records, texts
from bot.sessions.context import Context, Refusal
from bot.storage import GameRow, MoveRow, NewGame

__all__ = ["export", "history", "import_record", "record_of"]


def record_of(
    ctx: Context, row: GameRow, names: tuple[str, str], moves: list[MoveRow]
) -> records.Record:
    """The plain-text record of a stored game."""
    result = None
    if row.status == GameStatus.ABORTED:
        result = records.Result(None, row.reason or "aborted", aborted=True)
    elif row.status == GameStatus.FINISHED:
        winner = row.winner if row.result == GameResult.WIN else None
        result = records.Result(winner, row.reason or "")
    days = row.time_per_move
    time_per_move = int(days) if days is not None and days in clk.TIME_CONTROLS else None
    return records.Record(
        row.game,
        dict(row.options),
        names,
        tuple(m.move for m in moves),
        result,
        row.created_at,
        row.finished_at,
        time_per_move,
        f"#{row.id}",
    )


async def history(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The numbered move list of a game."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id, ended=True)
    loaded = await loading.load(ctx, gid)
    loading.shown_here(me, chat, loaded.row)
    row = loaded.row
    moves = await ctx.store.moves(gid)
    # Who plays which side, then the moves numbered by turn pairs as players read them (the
    # record with its header is what export gives).
    seats = (
        await presentation.who(ctx, row, loaded.position, 0),
        await presentation.who(ctx, row, loaded.position, 1),
    )
    lines = [texts.history_head(gid, presentation.title(row), seats)]
    lines += texts.move_list([m.move for m in moves])
    if not moves:
        lines.append(texts.no_moves_yet())
    if row.status != GameStatus.ACTIVE:
        lines.append(await presentation.result_text(ctx, row, loaded.position))
    # Step through the game from its start (see bot.sessions.browse).
    steps = (Action.make(texts.STEP_THROUGH, ActionKind.BROWSE_OPEN, gid),) if moves else ()
    return Reply(Text.join(lines, "\n"), actions=steps, game_id=gid)


async def export(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The plain-text record of a game (``hexhall import`` reads it back)."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id, ended=True)
    loaded = await loading.load(ctx, gid)
    loading.shown_here(me, chat, loaded.row)
    moves = await ctx.store.moves(gid)
    record = record_of(ctx, loaded.row, await presentation.names(ctx, loaded.row), moves)
    return Reply(Text.of(records.export(record)), game_id=gid, kind=ReplyKind.RECORD)


def _ending(stated: str, instead: Termination) -> Termination:
    """The ending a record states, or ``instead`` when its words name none (a record's
    reason is free text; a game that ended by the rules takes the rules' reason)."""
    try:
        return Termination(stated)
    except ValueError:
        return instead


async def import_record(ctx: Context, user: User, chat: Chat, text: str, opponent: User) -> Reply:
    """Store the game of a plain-text record between ``user`` and ``opponent`` in
    ``chat``: finished as recorded, or active and ready to continue.  ``user`` takes the
    seat whose player has their name (the first seat otherwise)."""
    try:
        record = records.parse(text)
    except records.RecordError as exc:
        raise Refusal(texts.cannot_import(exc.said)) from None
    if (opponent.platform, opponent.user_id) == (user.platform, user.user_id):
        raise Refusal(texts.import_needs_two_players())
    me = await loading.player(ctx, user)
    other = await loading.someone(ctx, opponent)
    names = [n.lower() for n in record.players]
    mine = 1 if names[1] == user.name.lower() and names[0] != user.name.lower() else 0
    seats = (me, other) if mine == 0 else (other, me)
    positions = list(engines.replay(record.game, record.moves, **record.options))
    movers = [p.to_move for p in positions[:-1]]
    position = positions[-1]
    finish: tuple[GameStatus, int | None, GameResult, Termination] | None = None
    by_rules = None if position.outcome is None else position.outcome.termination
    if record.result is not None:
        if record.result.aborted:
            ending = _ending(record.result.reason, Termination.ABORTED)
            finish = (GameStatus.ABORTED, None, GameResult.NONE, ending)
        else:
            winner = record.result.winner
            unnamed = Termination.DRAW if winner is None else Termination.WIN
            finish = (GameStatus.FINISHED, winner,
                      GameResult.DRAW if winner is None else GameResult.WIN,
                      _ending(record.result.reason, by_rules or unnamed))  # fmt: skip
    elif position.outcome is not None and by_rules is not None:
        winner = position.outcome.winner
        finish = (GameStatus.FINISHED, winner,
                  GameResult.DRAW if winner is None else GameResult.WIN,
                  by_rules)  # fmt: skip
    now = ctx.now()
    next_player = seats[position.to_move]
    row = await ctx.store.import_game(
        NewGame(
            game=record.game,
            options=dict(record.options),
            seat0=seats[0].id,
            seat1=seats[1].id,
            platform=chat.platform,
            chat_id=chat.chat_id,
            to_move=position.to_move,
            snapshot=position.to_dict(),
            time_per_move=record.time_per_move,
            deadline_at=policy.turn_deadline(ctx, next_player, record.time_per_move, now),
        ),
        record.moves,
        movers,
        now,
        finish,
    )
    ctx.positions[row.id] = (row, position)
    title = presentation.title(row)
    players = (presentation.mention(seats[0]), presentation.mention(seats[1]))
    if row.status == GameStatus.ACTIVE:
        tail = texts.to_move_line(await presentation.who(ctx, row, position, position.to_move))
        said = texts.imported(title, row.id, players, len(record.moves), tail)
        reply = await presentation.picture(
            ctx, position, Reply(said, actions=presentation.game_actions(row), game_id=row.id), row
        )
        return await presentation.as_board(ctx, reply, row, position, live=True)
    tail = await presentation.result_text(ctx, row, position)
    said = texts.imported(title, row.id, players, len(record.moves), tail)
    reply = await presentation.picture(ctx, position, Reply(said, game_id=row.id), row)
    return await presentation.as_board(ctx, reply, row, position)
