"""Notification policy: when a notification to a player may be delivered (their quiet
hours), the deadline a move gets (time per move, vacations, none for the bot), and the
notifications themselves, built for the store to insert with the change that causes them."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.core.notification import BOT_USER_ID, Kind, Notification, Recipient
from bot.core.settings import Settings
from bot.delivery.notify import delivery_time
from bot.messages import (
    Action,
    Chat,
    Segment,
    Text,
)
from bot.sessions import clock as clk
from bot.sessions import presentation, texts
from bot.sessions.context import Context
from bot.storage import GameRow, PlayerRow

__all__ = [
    "ANSWER_GRACE",
    "START_HOLD",
    "board_note",
    "deadline",
    "deliver_after",
    "first_board_note",
    "note",
    "note_for_chat",
    "private_notes",
    "recap_notes",
    "settings_of",
    "turn_deadline",
]


#: How long after a move its committed board waits for the adapter answering the move to claim
#: it (milliseconds, normally) before any outbox may post it instead.
ANSWER_GRACE = timedelta(seconds=10)
#: How long the first boards of a tournament started by a command in its chat wait, so that
#: the answer announcing the start (posted at once, in milliseconds) comes before them.
START_HOLD = timedelta(seconds=2)


def board_note(
    ctx: Context,
    player: PlayerRow,
    row: GameRow,
    ply: int,
    text: Text,
    now: datetime,
    *,
    answered_there: bool = True,
) -> Notification:
    """The board of ``row``'s game at ``ply``, committed with the move that made it, for its
    chat (naming ``player``, the one to move or told the result): see
    :attr:`~bot.core.notification.Kind.BOARD`.  A chat message: no quiet hours, never direct.

    ``answered_there``: the move was made in the game's chat, whose answer claims this board
    (so the outbox holds it for :data:`ANSWER_GRACE`); a move made elsewhere (privately, for
    a game in a group) is answered where it was made, which claims nothing: the board is due
    at once."""
    return Notification(
        kind=Kind.BOARD,
        recipient=Recipient(player.platform, player.user_id, player.name, player.id),
        text=text,
        deliver_after=now + ANSWER_GRACE if answered_there else now,
        chat=Chat(row.platform, row.chat_id),
        game_id=row.id,
        ply=ply,
        direct=False,
        dedupe=f"board:{row.id}:{ply}",
        created_at=now,
    )


def first_board_note(
    ctx: Context, player: PlayerRow, chat: Chat, text: Text, now: datetime, *, grace: bool
) -> Notification:
    """The first board of a game made in the transaction that commits this note (its id is
    ``{game}`` until then), for its chat, naming ``player`` who moves first: a tournament's
    games, which no answer posts.  ``grace``: held for :data:`START_HOLD`, so that an answer
    posted at once in the same chat (the start of a tournament by command) comes first."""
    return Notification(
        kind=Kind.BOARD,
        recipient=Recipient(player.platform, player.user_id, player.name, player.id),
        text=text,
        deliver_after=now + START_HOLD if grace else now,
        chat=chat,
        ply=0,
        direct=False,
        dedupe="board:{game}:0",
        created_at=now,
    )


def settings_of(player: PlayerRow) -> Settings:
    """A player's notification settings as stored."""
    return player.settings


def deliver_after(ctx: Context, player: PlayerRow, now: datetime) -> datetime:
    """When a notification to ``player`` raised at ``now`` may be delivered: at once, or
    when the player's quiet hours end.  (Whether a reminder is sent at all is decided
    before it is made: see :meth:`sweep`.)"""
    return delivery_time(Kind.YOUR_TURN, settings_of(player), now) or now


def deadline(time_per_move: float | None, now: datetime) -> datetime | None:
    """The deadline of the next move for a game with this time per move (days)."""
    if time_per_move is None:
        return None
    return now + timedelta(days=time_per_move)


def turn_deadline(
    ctx: Context, player: PlayerRow, time_per_move: float | None, now: datetime
) -> datetime | None:
    """The deadline of a move ``player`` gets at ``now``: the time per move, plus what is
    left of the player's vacation (their clock does not run while they are away).
    The bot as an opponent has no clock."""
    if player.user_id == BOT_USER_ID:
        return None
    due = deadline(time_per_move, now)
    until = player.away_until
    if due is None or until is None or until <= now:
        return due
    return clk.paused_deadline(due, now, [clk.AwaySpan(now, until)])


def note(
    ctx: Context,
    player: PlayerRow,
    kind: Kind,
    text: Text | Segment,
    now: datetime,
    *,
    game_id: int | None = None,
    dedupe: str | None = None,
    chat_id: str | None = None,
    at: datetime | None = None,
    ply: int | None = None,
    actions: tuple[Action, ...] = (),
) -> Notification:
    """A notification to ``player`` raised at ``now``, to deliver after their quiet hours
    (``at`` is a paced delivery time from the sweeper; quiet hours may push it later).
    ``{game}`` / ``{challenge}`` in the text, actions and dedupe key become the id of a
    game or challenge created in the same transaction."""
    return Notification(
        kind=kind,
        recipient=Recipient(player.platform, player.user_id, player.name, player.id),
        text=Text.of(text),
        deliver_after=deliver_after(ctx, player, at or now),
        chat=None if chat_id is None else Chat(player.platform, chat_id),
        game_id=game_id,
        ply=ply,
        actions=actions,
        direct=player.settings.direct,
        dedupe=dedupe,
        created_at=now,
    )


def private_notes(
    ctx: Context,
    player: PlayerRow,
    kind: Kind,
    text: Text | Segment,
    now: datetime,
    *,
    game_id: int | None = None,
    dedupe: str | None = None,
    chat_id: str | None = None,
    ply: int | None = None,
    actions: tuple[Action, ...] = (),
) -> list[Notification]:
    """What the game's chat already shows (the board naming the player to move, the card
    edited, the final board), told privately to ``player`` too when they turned direct
    messages on: one notification without a chat, or none.  The chat gets nothing more:
    the board is the notification there.  (Should the platform refuse the direct message,
    it is dropped and the refusal remembered, see :mod:`bot.delivery.outbox`.)"""
    if not player.settings.direct or player.user_id == BOT_USER_ID:
        return []
    private = note(
        ctx, player, kind, text, now, game_id=game_id, dedupe=dedupe, ply=ply, actions=actions
    )
    return [replace(private, chat=None, direct=True)]


def note_for_chat(
    ctx: Context,
    player: PlayerRow,
    kind: Kind,
    text: Text | Segment,
    now: datetime,
    *,
    game_id: int | None = None,
    dedupe: str | None = None,
    chat_id: str | None = None,
    ply: int | None = None,
    actions: tuple[Action, ...] = (),
) -> list[Notification]:
    """:func:`note` as a list (the counterpart of :func:`private_notes` for what no answer in
    the chat shows: the bot's own move, the clock's doings)."""
    told = note(
        ctx, player, kind, text, now,
        game_id=game_id, dedupe=dedupe, chat_id=chat_id, ply=ply, actions=actions,
    )  # fmt: skip
    return [told]


def recap_notes(ctx: Context, row: GameRow, player: PlayerRow, now: datetime) -> list[Notification]:
    """The animated recap of a game that just ended, as its own delivery to the game's
    chat (drawn when it is delivered, so the game-over reply does not wait for it)."""
    if not ctx.pictures:
        return []
    recap = note(
        ctx,
        player,
        Kind.RECAP,
        texts.recap_note(row.id, presentation.title(row)),
        now,
        game_id=row.id,
        chat_id=row.chat_id,
        dedupe=f"recap:{row.id}",
    )
    return [replace(recap, direct=False)]
