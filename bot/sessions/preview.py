"""What a chat adapter needs to show a game beyond the manager's replies: a move's board before
it is played (a *preview*), the facts of a game for a platform's card (Discord's embed), and a
player's active games for a picker or autocompletion.

Nothing here changes the store (but a game whose deadline passed has time called, as the
move would: see :func:`~bot.sessions.turns.refusal_calling_time`).  A preview answers with the
board after the move and two actions: "Play it" (an ordinary ``mv:<game>:<ply>:<move>``
button, so playing it goes through :func:`~bot.sessions.moves.move` with the ply the player
saw) and "Cancel" (``pvc:<game>``, which the adapter answers itself: nothing was stored, so
there is nothing to undo).

>>> play_action(42, 3, "e5").id, cancel_action(42).id
('mv:42:3:e5', 'pvc:42')
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.core.status import GameStatus
from bot.messages import Action, ActionKind, Chat, Mention, Reply, Text, User
from bot.sessions import loading, presentation, standings, texts, turns
from bot.sessions.context import Context, Refusal
from engines import IllegalMove

__all__ = [
    "CANCEL_KIND",
    "BoardFacts",
    "GameChoice",
    "board_facts",
    "cancel_action",
    "game_choices",
    "play_action",
    "preview",
]

#: The action kind of a preview's Cancel button (see the module docstring).
CANCEL_KIND = ActionKind.PREVIEW_CANCEL


def play_action(game_id: int, ply: int, move: str) -> Action:
    """The "Play it" button of a preview: the move at the ply the player saw."""
    return Action.make("Play it", ActionKind.MOVE, game_id, ply, move)


def cancel_action(game_id: int) -> Action:
    """The "Cancel" button of a preview."""
    return Action.make("Cancel", CANCEL_KIND, game_id)


async def preview(
    ctx: Context, user: User, chat: Chat, text: str, game_id: int | None = None
) -> Reply:
    """The board after ``user`` would play ``text`` in a game (their only active one in
    ``chat`` when no id is given), with Play it / Cancel; nothing is stored.  Refused (raises
    :class:`Refusal`) exactly where :func:`~bot.sessions.moves.move` would refuse the move
    (the one decision of :func:`~bot.sessions.turns.may_move`, with its code)."""
    if not isinstance(text, str):
        raise Refusal(texts.move_is_text())
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id)
    loaded = await loading.load(ctx, gid)
    loading.shown_here(me, chat, loaded.row)
    row, position = loaded.row, loaded.position
    decided = turns.may_move(row, position, me.id, ctx.now())
    if isinstance(decided, turns.Refused):
        raise await turns.refusal_calling_time(ctx, row, position, decided)
    seat = decided.seat
    try:
        after = position.play(text)
    except IllegalMove as exc:
        raise Refusal(texts.illegal(gid, texts.illegal_said(exc))) from None
    move = after.last_move or text.strip()
    try:
        actions = (play_action(gid, row.ply, move), cancel_action(gid))
    except ValueError:  # a move too long for a button id: it can still be typed
        raise Refusal(texts.illegal(gid, "too long for a button")) from None
    who = await presentation.who(ctx, row, position, seat)
    body = texts.preview_of(gid, presentation.title(row), row.ply + 1, who, move)
    reply = await presentation.picture(ctx, after, Reply(body, actions=actions, game_id=gid), row)
    return await presentation.as_board(ctx, reply, row, position)


@dataclass(frozen=True)
class BoardFacts:
    """A game at a glance, for a platform's card: ``players`` are the seats with their sides,
    ``moves`` how many have been played, ``to_move`` the player whose turn it is (``None``
    once over) and ``to_move_side`` that player with their side, ``deadline`` when their move
    is due (``None``: no clock), ``result`` how it ended (``None`` while it runs), ``ratings``
    both players' ratings in the game's pool (or that it is casual; empty when neither),
    ``against_bot`` whether one seat is the bot itself."""

    game_id: int
    title: str
    players: tuple[Text, Text]
    moves: int
    last_move: str | None
    to_move: Mention | None
    to_move_side: Text | None
    deadline: datetime | None
    result: Text | None
    ratings: Text
    against_bot: bool = False


async def board_facts(ctx: Context, game_id: int) -> BoardFacts:
    """The facts of game ``game_id`` (raises :class:`Refusal` if there is no such game)."""
    loaded = await loading.load(ctx, game_id)
    row, position = loaded.row, loaded.position
    players = (
        await presentation.who(ctx, row, position, 0),
        await presentation.who(ctx, row, position, 1),
    )
    active = row.status == GameStatus.ACTIVE and position.outcome is None
    to_move = (await presentation.mentions(ctx, row))[position.to_move] if active else None
    return BoardFacts(
        game_id=row.id,
        title=presentation.title(row),
        players=players,
        moves=row.ply,
        last_move=position.last_move,
        to_move=to_move,
        to_move_side=await presentation.who(ctx, row, position, position.to_move)
        if active
        else None,
        deadline=row.deadline_at if active else None,
        result=None if active else await presentation.result_text(ctx, row, position),
        ratings=await standings.board_line(ctx, row),
        against_bot=row.against_bot,
    )


@dataclass(frozen=True)
class GameChoice:
    """One of a player's active games: its id, a short ``label`` (number, game, opponent) and
    whether it is the player's turn there."""

    game_id: int
    label: str
    your_turn: bool


async def game_choices(
    ctx: Context, user: User, typed: str = "", limit: int = 25
) -> list[GameChoice]:
    """``user``'s active games whose label contains ``typed`` (case-insensitive), those where
    it is their turn first, newest first within each; at most ``limit``."""
    me = await loading.player(ctx, user)
    rows = await ctx.store.games_of(me.id, (GameStatus.ACTIVE,), limit=1_000_000)
    rows.sort(key=lambda g: (g.to_move is None or g.seats[g.to_move] != me.id, -g.id))
    wanted = typed.strip().lower().lstrip("#")
    out: list[GameChoice] = []
    for row in rows:
        seat = loading.seat(me, row)
        other = await loading.player_by_id(ctx, row.seats[1 - (seat or 0)])
        mine = row.to_move is not None and row.seats[row.to_move] == me.id
        label = texts.game_choice(row.id, presentation.title(row), other.name, mine)
        if wanted and wanted not in label.lower():
            continue
        out.append(GameChoice(row.id, label, mine))
        if len(out) >= limit:
            break
    return out
