"""Looking at things: a game's board, a player's games, the rules, the list of commands."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime

import engines
from bot.core.status import GameStatus
from bot.messages import Action, ActionKind, Chat, Mention, Reply, Text, User, Versions
from bot.sessions import loading, presentation, rulebook, standings, texts
from bot.sessions.context import Context, Refusal
from bot.storage import GameRow, PlayerRow
from engines.base import shown

__all__ = ["board", "games", "help", "rules"]


async def board(ctx: Context, user: User, chat: Chat, game_id: int | None = None) -> Reply:
    """The board of a game and whose turn it is."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id, ended=True)
    loaded = await loading.load(ctx, gid)
    loading.shown_here(me, chat, loaded.row)
    row, position = loaded.row, loaded.position
    seats = (
        await presentation.who(ctx, row, position, 0),
        await presentation.who(ctx, row, position, 1),
    )
    if row.status == GameStatus.ACTIVE:
        tail = texts.to_move_line(await presentation.who(ctx, row, position, position.to_move))
        actions = presentation.game_actions(row)
    else:
        tail = await presentation.result_text(ctx, row, position)
        actions = ()
    head = texts.board_head(gid, presentation.title(row), seats, row.ply, tail, row.status.over)
    if row.status == GameStatus.ACTIVE:
        head += await standings.board_line(ctx, row)
    else:
        head += await standings.ended_line(ctx, row)
    reply = await presentation.picture(
        ctx, position, Reply(head, actions=actions, game_id=gid), row
    )
    shown = await presentation.as_board(
        ctx, reply, row, position, live=row.status == GameStatus.ACTIVE
    )
    # Someone not playing looks privately: a board posted for everyone would ping the player
    # to move for nothing.
    return shown if loading.seat(me, row) is not None else replace(shown, private=True)


#: Finished games shown per page of ``games``.
PAGE = 10
_OVER = (GameStatus.FINISHED, GameStatus.ABORTED, GameStatus.CORRUPT)


async def games(ctx: Context, user: User, page: int = 1) -> Reply:
    """Your games, :data:`PAGE` to a page (one message, however many games): the active ones
    first (those where it is your turn on top), then the finished ones, newest first; your
    pending challenges on the first page."""
    if isinstance(page, bool) or not isinstance(page, int) or not 0 < page < 2**31:
        raise Refusal(texts.bad_page())
    me = await loading.player(ctx, user)
    active = await ctx.store.games_of(me.id, (GameStatus.ACTIVE,), limit=1_000_000)
    # Games waiting on the player first, the nearest deadline on top.
    far = datetime.max.replace(tzinfo=UTC)
    active.sort(key=lambda g: (g.seats[g.to_move or 0] != me.id, g.deadline_at or far, -g.id))
    over = await ctx.store.count_games_of(me.id, _OVER)
    pages = max(1, -(-(len(active) + over) // PAGE))
    first = (page - 1) * PAGE
    finished_from = max(0, first - len(active))  # the finished games follow the active ones
    active = active[first : first + PAGE]
    done = []
    if len(active) < PAGE:
        done = await ctx.store.games_of(
            me.id, _OVER, limit=PAGE - len(active), offset=finished_from
        )
    lines: list[Text] = []
    boards: list[Action] = []
    now = ctx.now()
    for g in active:
        seat = loading.seat(me, g)
        other = await _other(ctx, g, seat)
        if other is None:
            lines.append(texts.damaged_line(g.id, presentation.title(g)))
            continue
        if g.to_move is not None and g.seats[g.to_move] == me.id:
            due = None if g.deadline_at is None else texts.time_left(
                (g.deadline_at - now).total_seconds()
            )  # fmt: skip
            turn = texts.your_turn_due(g.ply + 1, due)
        else:
            turn = texts.their_turn_state(other, g.ply + 1)
        lines.append(texts.game_line(g.id, presentation.title(g), other, turn))
        if ctx.pages is not None:
            lines[-1] += f" {await ctx.pages.link(g.id)}"
        # Each active game is a button away, wherever it lives (issue 46).
        boards.append(Action.make(f"#{g.id}", ActionKind.BOARD, g.id))
    if page == 1:
        lines += await _challenge_lines(ctx, me)
    for g in done:
        seat = loading.seat(me, g)
        other = await _other(ctx, g, seat)
        if other is None:
            lines.append(texts.damaged_line(g.id, presentation.title(g)))
            continue
        outcome = texts.finished_state(g.status, g.result, g.reason, g.winner == seat)
        lines.append(texts.game_line(g.id, presentation.title(g), other, outcome))
    if not lines:
        if page > 1:
            raise Refusal(texts.no_such_page(page, pages))
        return Reply(texts.no_games_yet())
    if pages > 1:
        lines.append(texts.page_of(page, pages))
    return Reply(Text.join(lines, "\n"), actions=tuple(boards))


async def _other(ctx: Context, g: GameRow, seat: int | None) -> Mention | None:
    """The opponent in a listed game; ``None`` when the game is damaged (a row found damaged
    while listing, or a seat naming a missing player: then it is set aside here)."""
    if g.status is GameStatus.CORRUPT:
        return None
    try:
        await loading.check_seats(ctx, g)
    except Refusal:
        return None
    return presentation.mention(await loading.player_by_id(ctx, g.seats[1 - (seat or 0)]))


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
                whom = presentation.mention(await loading.player_by_id(ctx, c.target))
            elif c.target_name is not None:  # invited by username, id not known yet
                whom = texts.invited_handle(c.target_name)
            lines.append(texts.challenge_sent_line(c.id, title, whom))
        else:
            sender = presentation.mention(await loading.player_by_id(ctx, c.challenger))
            lines.append(texts.challenge_received_line(c.id, title, sender))
    return lines


async def rules(ctx: Context, game: str) -> Reply:
    """The rules of ``game``, as shipped inside the package (``bot/sessions/rules/``), read in
    the language in use when the answer is rendered (English where that one has no page)."""
    name = game.strip().lower() if isinstance(game, str) else ""
    if name not in engines.GAMES:
        raise Refusal(texts.no_such_game_name(shown(str(game)), list(engines.GAMES)))
    found = await asyncio.to_thread(rulebook.pages, ctx.rules_dir, name)
    if not found:
        raise Refusal(texts.rules_missing(engines.GAMES[name].title))
    versions = tuple((code, texts.rules(text)) for code, text in found.items())
    return Reply(Text.of(Versions(versions)))


async def help(ctx: Context) -> Reply:
    """What players can do (each adapter lists its own commands or buttons for it)."""
    return Reply(texts.HELP)
