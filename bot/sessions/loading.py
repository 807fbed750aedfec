"""Loading and caching: the stored players and games a request is about, their positions
(replayed and checked against the stored snapshot), and which game a request that names none
is about.  What can be rebuilt from the store is cached in the :class:`~bot.sessions.context.
Context`; a game whose rows do not agree is set aside here."""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass

import engines
from bot.core.status import GameStatus
from bot.limits import cut
from bot.messages import (
    Chat,
    Need,
    NeedKind,
    User,
)
from bot.sessions import texts
from bot.sessions.context import Context, Refusal, checked_id, on_refusal
from bot.sessions.validate import sane_user
from bot.storage import BadRow, GameRow, MoveRow, PlayerRow
from engines import Position

__all__ = [
    "Loaded",
    "against_bot",
    "check_seats",
    "damaged_here",
    "forget_player",
    "from_snapshot",
    "load",
    "own_game",
    "pick_game",
    "player",
    "player_by_id",
    "player_to_move",
    "recent_game",
    "replay",
    "seat",
    "seated",
    "shown_here",
    "someone",
    "store_row",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Loaded:
    """A stored game and its position; ``cached`` when both came from this process's cache."""

    row: GameRow
    position: Position
    cached: bool = False


async def player(ctx: Context, user: User) -> PlayerRow:
    """The stored player for ``user`` (created on first contact; :class:`Refusal` for ids no
    platform makes, :func:`~bot.sessions.validate.sane_user`)."""
    sane_user(user)
    key = (user.platform, user.user_id)
    cached = ctx.by_user.get(key)
    if cached is not None and cached.name == user.name:
        return cached
    before = cached or await ctx.store.find_player(user.platform, user.user_id)
    if before is not None and before.name == user.name:
        row = before
    else:
        row = await ctx.store.player(user.platform, user.user_id, user.name, ctx.now())
        # A refused request leaves no player behind, and no display name changed.
        on_refusal(functools.partial(_undo_contact, ctx, row, before))
    ctx.by_user[key] = row
    ctx.players[row.id] = row
    return row


async def _undo_contact(ctx: Context, row: PlayerRow, before: PlayerRow | None) -> None:
    """Undo :func:`player`'s creation (``before`` is ``None``) or renaming of ``row``."""
    forget_player(ctx, row.id)
    if before is None:
        await ctx.store.drop_new_player(row.id)
    else:
        await ctx.store.player(row.platform, row.user_id, before.name, ctx.now())


async def someone(ctx: Context, user: User) -> PlayerRow:
    """The stored player for ``user`` named by someone else (a challenge's opponent, an
    imported record's other player): created on first mention, but an existing player's
    display name is never changed by what another player typed (only by their own
    requests, through :meth:`player`)."""
    sane_user(user)
    known = ctx.by_user.get((user.platform, user.user_id))
    if known is None:
        known = await ctx.store.find_player(user.platform, user.user_id)
    if known is None:
        return await player(ctx, user)
    ctx.by_user[(user.platform, user.user_id)] = known
    ctx.players[known.id] = known
    return known


async def player_by_id(ctx: Context, player_id: int) -> PlayerRow:
    cached = ctx.players.get(player_id)
    if cached is not None:
        return cached
    row = await ctx.store.get_player(player_id)
    if row is None:
        raise Refusal(texts.player_missing(player_id))
    ctx.players[player_id] = row
    return row


async def player_to_move(ctx: Context, game_id: int) -> PlayerRow | None:
    """The player whose turn it is in an active game (``None`` if none or not active)."""
    row = await ctx.store.get_game(game_id)
    if row is None or row.status != GameStatus.ACTIVE or row.to_move not in (0, 1):
        return None
    try:
        await check_seats(ctx, row)
    except Refusal:
        return None
    return await player_by_id(ctx, row.seats[row.to_move])


async def against_bot(ctx: Context, game_id: int) -> bool:
    """Whether one seat of game ``game_id`` is the bot itself (``False`` for no such game);
    from this process's cache when it holds the game (the seats never change)."""
    cached = ctx.positions.get(game_id)
    if cached is not None:
        return cached[0].against_bot
    try:
        row = await ctx.store.get_game(game_id)
    except BadRow:
        return False
    return row is not None and row.against_bot


def forget_player(ctx: Context, player_id: int) -> None:
    """Drop a cached player row (call after changing their settings in the store)."""
    row = ctx.players.pop(player_id, None)
    if row is not None:
        ctx.by_user.pop((row.platform, row.user_id), None)


async def replay(
    ctx: Context, row: GameRow, moves: list[MoveRow] | None = None, upto: int | None = None
) -> Position:
    """The position of a stored game after ``upto`` plies (all of them by default, checked
    against the stored snapshot; ``moves`` must then come from the same read as ``row``).

    Raises :class:`Refusal` after setting the game aside when its rows cannot be decoded
    or do not agree with each other.
    """
    try:
        if moves is None:
            moves = await ctx.store.moves(row.id)
        options = dict(row.options)
        count = row.ply if upto is None else upto
        if [m.ply for m in moves[:count]] != list(range(count)) or (
            upto is None and len(moves) != row.ply
        ):
            raise ValueError(f"{len(moves)} stored moves for ply {count}")
        position = engines.position_after(row.game, [m.move for m in moves[:count]], **options)
        if upto is None and json.loads(json.dumps(position.to_dict())) != row.snapshot:
            raise ValueError("replayed moves do not match the stored snapshot")
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        # IllegalMove and json.JSONDecodeError are ValueErrors too.
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        log.error("game #%d is corrupt: %s", row.id, reason)
        await ctx.store.mark_corrupt(row.id, reason)
        ctx.positions.pop(row.id, None)
        raise Refusal(texts.cannot_be_read(row.id, reason)) from None
    return position


def from_snapshot(row: GameRow) -> Position | None:
    """The position stored with ``row`` (``None`` if the snapshot is not a position of that
    game at that ply, or does not read back as stored: then the moves are replayed)."""
    try:
        position = engines.from_dict(row.snapshot)
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if position.game != row.game or position.ply != row.ply:
        return None
    if json.loads(json.dumps(position.to_dict())) != row.snapshot:
        return None
    return position


async def _last_move_agrees(ctx: Context, row: GameRow, position: Position) -> bool:
    """Whether the stored last move is the snapshot's (one indexed row read): a damaged
    move, or a row and moves from two moments, takes the replaying way, which tells."""
    if row.ply == 0:
        return True
    try:
        last = await ctx.store.move_at(row.id, row.ply - 1)
    except BadRow:  # the store has set the game aside
        raise Refusal(texts.set_aside(row.id)) from None
    return last is not None and last.move == (position.last_move or "")


async def load(ctx: Context, game_id: int, fresh: bool = True) -> Loaded:
    """The game and its position; ``fresh=False`` trusts this process's cache (a move
    does: the store's optimistic check catches a stale row, and the move is retried)."""
    cached = ctx.positions.get(game_id)
    if not fresh and cached is not None:
        return Loaded(cached[0], cached[1], cached=True)
    try:
        row = await ctx.store.get_game(game_id)
    except BadRow:  # the store has set it aside
        raise Refusal(texts.set_aside(game_id)) from None
    if row is None:
        raise Refusal(texts.no_such("game", str(game_id)))
    if row.status == GameStatus.CORRUPT:
        raise Refusal(texts.set_aside(game_id))
    if cached is not None and cached[0].version == row.version:
        return Loaded(row, cached[1])
    position = from_snapshot(row)
    if position is not None and await _last_move_agrees(ctx, row, position):
        # The stored snapshot, without replaying every move.
        await check_seats(ctx, row)
        ctx.positions[game_id] = (row, position)
        return Loaded(row, position)
    # A snapshot that cannot be read: the moves tell what is wrong.  Read the row again with
    # its moves in one transaction: another process may be writing, and a row and moves from
    # two moments would look corrupt.
    try:
        both = await ctx.store.game_with_moves(game_id)
    except BadRow:
        raise Refusal(texts.set_aside(game_id)) from None
    if both is None:
        raise Refusal(texts.no_such("game", str(game_id)))
    row, moves = both
    if row.status == GameStatus.CORRUPT:
        raise Refusal(texts.set_aside(game_id))
    await check_seats(ctx, row)
    position = await replay(ctx, row, moves)
    ctx.positions[game_id] = (row, position)
    return Loaded(row, position)


async def pick_game(
    ctx: Context,
    player: PlayerRow,
    chat: Chat,
    game_id: int | None,
    *,
    turn: bool = False,
    ended: bool = False,
) -> int:
    """The game a request without an id is about: the player's only active game in this
    chat; with ``turn`` (a move) the only one where it is their turn, when several are
    active; with ``ended`` (looking at a game) their most recent game in this chat when
    none is active.  :class:`Refusal` with a :class:`Need` when it is not clear."""
    if game_id is not None:
        return checked_id(game_id, "game")
    games = await ctx.store.active_games_in_chat(player.id, chat.platform, chat.chat_id)
    # A game found damaged while reading the list is set aside: not a candidate.
    damaged = [g.id for g in games if g.status is GameStatus.CORRUPT]
    games = [g for g in games if g.status is not GameStatus.CORRUPT]
    if len(games) > 1 and turn:
        mine = [g for g in games if g.to_move is not None and g.seats[g.to_move] == player.id]
        if len(mine) == 1:
            return mine[0].id
    if not games and ended:
        recent = await recent_game(ctx, player, chat)
        if recent is not None:
            return recent
    if not games:
        damaged += await damaged_here(ctx, player, chat)
        if damaged:
            # Naming the damaged game says more than "no game here".
            raise Refusal(texts.damaged_game_here(damaged[0]))
        raise Refusal(texts.no_active_game_here(), Need(NeedKind.GAME))
    if len(games) > 1:
        ids = [g.id for g in games]
        raise Refusal(texts.which_game(len(games), ids), Need(NeedKind.GAME, tuple(ids[:10])))
    return games[0].id


async def damaged_here(ctx: Context, player: PlayerRow, chat: Chat, scan: int = 20) -> list[int]:
    """Ids of ``player``'s games in ``chat`` set aside as damaged (among their ``scan``
    newest such games), newest first."""
    rows = await ctx.store.games_of(player.id, (GameStatus.CORRUPT,), limit=scan)
    return [r.id for r in rows if (r.platform, r.chat_id) == (chat.platform, chat.chat_id)]


async def check_seats(ctx: Context, row: GameRow) -> None:
    """Read both seats' players; a game whose seat names a missing or unreadable player is
    set aside (:class:`Refusal` naming it), so it does not block the player's other games."""
    for player_id in row.seats:
        try:
            await player_by_id(ctx, player_id)
        except (Refusal, BadRow) as exc:
            reason = cut(" ".join(str(exc).split()), 200)
            log.error("game #%d is corrupt: %s", row.id, reason)
            await ctx.store.mark_corrupt(row.id, reason)
            ctx.positions.pop(row.id, None)
            raise Refusal(texts.game_damaged(row.id, cut(reason, 80))) from None


async def recent_game(ctx: Context, player: PlayerRow, chat: Chat, scan: int = 200) -> int | None:
    """The id of ``player``'s most recent game in ``chat`` (among their ``scan`` newest
    games), if any."""
    statuses = (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABORTED)
    for row in await ctx.store.games_of(player.id, statuses, limit=scan):
        if (row.platform, row.chat_id) == (chat.platform, chat.chat_id):
            return row.id
    return None


async def seated(ctx: Context, user: User, game_id: int) -> bool:
    """Whether ``user`` holds a seat in game ``game_id`` (``False`` for no such game or an
    unknown user; reads only, creating no player)."""
    known = ctx.by_user.get((user.platform, user.user_id))
    if known is None:
        known = await ctx.store.find_player(user.platform, user.user_id)
    if known is None:
        return False
    try:
        row = await ctx.store.get_game(checked_id(game_id, "game"))
    except (BadRow, Refusal):
        return False
    return row is not None and seat(known, row) is not None


def shown_here(player: PlayerRow, chat: Chat, row: GameRow) -> None:
    """A game belongs to the chat it was made in: shown to anyone asking there and to its
    players anywhere; :class:`Refusal` ("no such game here") to anyone else."""
    if (row.platform, row.chat_id) != (chat.platform, chat.chat_id) and player.id not in row.seats:
        raise Refusal(texts.no_game_here(row.id))


def seat(player: PlayerRow, row: GameRow) -> int | None:
    if row.seat0 == player.id:
        return 0
    if row.seat1 == player.id:
        return 1
    return None


def store_row(ctx: Context, updated: GameRow | None, position: Position) -> GameRow:
    if updated is None:
        raise Refusal(texts.changed_meanwhile())
    ctx.positions[updated.id] = (updated, position)
    return updated


async def own_game(
    ctx: Context, user: User, chat: Chat, game_id: int | None
) -> tuple[PlayerRow, int]:
    me = await player(ctx, user)
    return me, await pick_game(ctx, me, chat, game_id)
