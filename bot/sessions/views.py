"""Looking at things: a game's board, a player's games, the rules, the list of commands."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import engines
from bot.core.status import GameStatus
from bot.messages import Chat, Mention, Reply, Text, User
from bot.sessions import presentation, standings, texts
from bot.sessions.context import Context, Refusal
from bot.storage import GameRow, PlayerRow
from engines.base import shown

__all__ = ["board", "games", "help", "rules"]


async def board(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The board of a game and whose turn it is."""
    me = await ctx.player(user)
    gid = await ctx.pick_game(me, chat, game_id, ended=True)
    loaded = await ctx.load(gid)
    row, position = loaded.row, loaded.position
    seats = (await ctx.who(row, position, 0), await ctx.who(row, position, 1))
    if row.status == GameStatus.ACTIVE:
        tail = texts.to_move_line(await ctx.who(row, position, position.to_move))
        actions = ctx.game_actions(row)
    else:
        tail = await ctx.result_text(row, position)
        actions = ()
    head = texts.board_head(gid, ctx.title(row), seats, row.ply, tail, row.status.over)
    if row.status == GameStatus.ACTIVE:
        head += await standings.board_line(ctx, row)
    else:
        head += await standings.ended_line(ctx, row)
    reply = await ctx.picture(position, Reply(head, actions=actions, game_id=gid), row)
    return await presentation.as_board(
        ctx, reply, row, position, live=row.status == GameStatus.ACTIVE
    )


#: Finished games shown per page of ``games``.
PAGE = 10
_OVER = (GameStatus.FINISHED, GameStatus.ABORTED, GameStatus.CORRUPT)


async def games(ctx: Context, user: User, page: int = 1) -> Reply:
    """Your games: on the first page the active ones (those where it is your turn on top),
    then on every page :data:`PAGE` finished ones, newest first."""
    if isinstance(page, bool) or not isinstance(page, int) or not 0 < page < 2**31:
        raise Refusal(texts.bad_page())
    me = await ctx.player(user)
    active = []
    if page == 1:
        active = await ctx.store.games_of(me.id, (GameStatus.ACTIVE,), limit=1_000_000)
    done = await ctx.store.games_of(me.id, _OVER, limit=PAGE, offset=(page - 1) * PAGE)
    pages = max(1, -(-await ctx.store.count_games_of(me.id, _OVER) // PAGE))
    # Games waiting on the player first, the nearest deadline on top.
    far = datetime.max.replace(tzinfo=UTC)
    active.sort(key=lambda g: (g.seats[g.to_move or 0] != me.id, g.deadline_at or far, -g.id))
    lines: list[Text] = []
    now = ctx.now()
    for g in active:
        seat = ctx.seat(me, g)
        other = await _other(ctx, g, seat)
        if other is None:
            lines.append(texts.damaged_line(g.id, ctx.title(g)))
            continue
        if g.to_move is not None and g.seats[g.to_move] == me.id:
            due = None if g.deadline_at is None else texts.time_left(
                (g.deadline_at - now).total_seconds()
            )  # fmt: skip
            turn = texts.your_turn_due(g.ply + 1, due)
        else:
            turn = texts.their_turn_state(other, g.ply + 1)
        lines.append(texts.game_line(g.id, ctx.title(g), other, turn))
    if page == 1:
        lines += await _challenge_lines(ctx, me)
    for g in done:
        seat = ctx.seat(me, g)
        other = await _other(ctx, g, seat)
        if other is None:
            lines.append(texts.damaged_line(g.id, ctx.title(g)))
            continue
        outcome = texts.finished_state(g.status, g.result, g.reason, g.winner == seat)
        lines.append(texts.game_line(g.id, ctx.title(g), other, outcome))
    if not lines:
        if page > 1:
            raise Refusal(texts.no_such_page(page, pages))
        return Reply(texts.no_games_yet())
    if pages > 1:
        lines.append(texts.page_of(page, pages))
    return Reply(Text.join(lines, "\n"))


async def _other(ctx: Context, g: GameRow, seat: int | None) -> Mention | None:
    """The opponent in a listed game; ``None`` when the game is damaged (a row found damaged
    while listing, or a seat naming a missing player: then it is set aside here)."""
    if g.status is GameStatus.CORRUPT:
        return None
    try:
        await ctx.check_seats(g)
    except Refusal:
        return None
    return ctx.mention(await ctx.player_by_id(g.seats[1 - (seat or 0)]))


async def _challenge_lines(ctx: Context, me: PlayerRow) -> list[Text]:
    """The player's pending challenges: those they sent, then those sent to them."""
    pending = await ctx.store.pending_challenges(me.id, ctx.now())
    pending.sort(key=lambda c: (c.challenger != me.id, c.id))
    lines = []
    for c in pending:
        title = engines.GAMES[c.game].title if c.game in engines.GAMES else c.game
        if c.challenger == me.id:
            whom: Mention | str | None = None
            if c.target is not None:
                whom = ctx.mention(await ctx.player_by_id(c.target))
            elif c.target_name is not None:  # invited by username, id not known yet
                whom = texts.invited_handle(c.target_name)
            lines.append(texts.challenge_sent_line(c.id, title, whom))
        else:
            sender = ctx.mention(await ctx.player_by_id(c.challenger))
            lines.append(texts.challenge_received_line(c.id, title, sender))
    return lines


async def rules(ctx: Context, game: str) -> Reply:
    """The rules of ``game``, as shipped inside the package (``bot/sessions/rules/``)."""
    name = game.strip().lower() if isinstance(game, str) else ""
    if name not in engines.GAMES:
        raise Refusal(texts.no_such_game_name(shown(str(game)), list(engines.GAMES)))
    path = ctx.rules_dir / f"{name}.md"
    try:
        text = await asyncio.to_thread(path.read_text, encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise Refusal(texts.rules_missing(engines.GAMES[name].title)) from None
    return Reply(texts.rules(text))


async def help(ctx: Context) -> Reply:
    """What players can do (each adapter lists its own commands or buttons for it)."""
    return Reply(texts.HELP)
