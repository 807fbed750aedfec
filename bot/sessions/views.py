"""Looking at things: a game's board, a player's games, the rules, the list of commands."""

from __future__ import annotations

import asyncio

import engines
from bot.messages import Chat, Reply, Text, User
from bot.sessions import standings, texts
from bot.sessions.context import Context, Refusal
from bot.storage import GameStatus
from engines.base import shown

__all__ = ["board", "games", "help", "rules"]


async def board(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The board of a game and whose turn it is."""
    me = await ctx.player(user)
    gid = await ctx.pick_game(me, chat, game_id)
    loaded = await ctx.load(gid)
    row, position = loaded.row, loaded.position
    seats = (await ctx.who(row, position, 0), await ctx.who(row, position, 1))
    if row.status == "active":
        tail = texts.to_move_line(await ctx.who(row, position, position.to_move))
        actions = ctx.game_actions(row)
    else:
        tail = await ctx.result_text(row, position)
        actions = ()
    head = texts.board_head(gid, ctx.title(row), seats, row.ply + 1, tail)
    if row.status == "active":
        head += await standings.board_line(ctx, row)
    else:
        head += await standings.ended_line(ctx, row)
    return await ctx.picture(position, Reply(head, actions=actions, game_id=gid))


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
    active.sort(key=lambda g: (g.seats[g.to_move or 0] != me.id, -g.id))
    lines: list[Text] = []
    for g in active:
        seat = ctx.seat(me, g)
        other = ctx.mention(await ctx.player_by_id(g.seats[1 - (seat or 0)]))
        turn = (
            texts.your_turn_state(g.ply + 1)
            if g.to_move is not None and g.seats[g.to_move] == me.id
            else texts.their_turn_state(other, g.ply + 1)
        )
        lines.append(texts.game_line(g.id, ctx.title(g), other, turn))
    for g in done:
        seat = ctx.seat(me, g)
        other = ctx.mention(await ctx.player_by_id(g.seats[1 - (seat or 0)]))
        outcome = texts.finished_state(g.status, g.result, g.reason, g.winner == seat)
        lines.append(texts.game_line(g.id, ctx.title(g), other, outcome))
    if not lines:
        if page > 1:
            raise Refusal(texts.no_such_page(page, pages))
        return Reply(texts.no_games_yet())
    if pages > 1:
        lines.append(texts.page_of(page, pages))
    return Reply(Text.join(lines, "\n"))


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
