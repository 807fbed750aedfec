"""What the web board (:mod:`bot.webboard`) shows of a game: the stored game, its players,
every position from the start, the result in the chat's words and the plain-text record.

Only what the chat would show anyone in the game's chat: names, sides, moves, the result (the
hardening issue's scope rules; a page link is a capability, like a lichess game link).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

import engines
from bot.core.status import GameStatus
from bot.messages import Chat, Reply, User
from bot.sessions import history, loading, presentation, records, texts
from bot.sessions.context import Context, Refusal, checked_id
from bot.storage import GameRow, PlayerRow
from engines import Position

__all__ = ["GameView", "game_view", "next_turn", "web_link"]


@dataclass(frozen=True)
class GameView:
    """A game as its page shows it: ``positions[i]`` is the position after ``i`` moves (the
    last one is the current position), ``result`` the chat's sentence for a game that is over
    (empty while it goes on), ``record`` what ``export`` gives."""

    row: GameRow
    players: tuple[PlayerRow, PlayerRow]
    moves: tuple[str, ...]
    positions: tuple[Position, ...]
    result: str
    record: str

    @property
    def position(self) -> Position:
        """The current position."""
        return self.positions[-1]


async def game_view(ctx: Context, game_id: int) -> GameView:
    """The view of game ``game_id``; :class:`~bot.sessions.context.Refusal` when there is no
    such game (or it was set aside as damaged)."""
    gid = checked_id(game_id, "game")
    loaded = await loading.load(ctx, gid)
    row = loaded.row
    stored = await ctx.store.moves(gid)
    if len(stored) != row.ply:
        # A move landed between the two reads: read the game again with its moves.
        loaded = await loading.load(ctx, gid)
        row = loaded.row
        stored = (await ctx.store.moves(gid))[: row.ply]
    moves = tuple(m.move for m in stored)
    positions = tuple(engines.replay(row.game, moves, **dict(row.options)))
    players = (
        await loading.player_by_id(ctx, row.seat0),
        await loading.player_by_id(ctx, row.seat1),
    )
    result = ""
    if row.status != GameStatus.ACTIVE:
        result = str(await presentation.result_text(ctx, row, positions[-1]))
    names = (players[0].name, players[1].name)
    record = records.export(history.record_of(ctx, row, names, stored))
    return GameView(row, players, moves, positions, result, record)


async def web_link(ctx: Context, user: User, chat: Chat, game_id: int) -> Reply:
    """The answer to "Open board" (shown to ``user`` alone): their own link to the game's page,
    which lets them move there for a while when they play in it; a watching link otherwise."""
    me = await loading.player(ctx, user)
    gid = checked_id(game_id, "game")
    row = (await loading.load(ctx, gid)).row
    loading.shown_here(me, chat, row)  # a game of another chat is not shown here
    if ctx.pages is None:
        raise Refusal(texts.web_off())
    if loading.seat(me, row) is None:
        return Reply(texts.web_watch_link(gid, await ctx.pages.link(gid)), game_id=gid)
    link = await ctx.pages.personal_link(gid, user)
    return Reply(texts.web_link(gid, link), game_id=gid)


async def next_turn(ctx: Context, player_id: int, game_id: int) -> int | None:
    """The game other than ``game_id`` where it is ``player_id``'s turn, the one whose
    deadline comes first (``None``: no other game waits for them)."""
    games = await ctx.store.games_of(player_id, (GameStatus.ACTIVE,), limit=100)
    waiting = [
        g
        for g in games
        if g.id != game_id and g.to_move is not None and g.seats[g.to_move] == player_id
    ]
    if not waiting:
        return None
    far = datetime.max.replace(tzinfo=UTC)
    return min(waiting, key=lambda g: (g.deadline_at or far, g.id)).id
