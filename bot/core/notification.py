"""The notification value: what the session manager puts in the outbox for an adapter.

A notification is structured, not a pre-rendered sentence: whom it is for, which chat the game
lives in, what it is about (:class:`Kind`), the game or challenge, the text with the players it
names as :class:`~bot.messages.Mention` segments, and the buttons that belong with it.  Each
adapter turns it into a message its own way.

>>> from datetime import UTC, datetime
>>> ada = Recipient("console", "ada", "Ada", player_id=1)
>>> n = Notification(
...     kind=Kind.YOUR_TURN,
...     recipient=ada,
...     text=Text.of(ada.mention(), ", it is your turn in #3."),
...     deliver_after=datetime(2026, 1, 5, tzinfo=UTC),
...     chat=Chat("console", "local"),
...     game_id=3,
...     ply=4,
... )
>>> str(n.text)
'Ada, it is your turn in #3.'
>>> n.direct
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

from bot.messages import Action, Chat, Mention, Text

__all__ = ["BOT_USER_ID", "Kind", "Notification", "Recipient"]


class Kind(enum.StrEnum):
    """What a notification is about (every kind the bot sends has a member here)."""

    CHALLENGE = "challenge"
    CHALLENGE_ACCEPTED = "challenge_accepted"
    CHALLENGE_DECLINED = "challenge_declined"
    #: a challenge nobody accepted in time (adapters edit its card, see bot.sessions.posts)
    CHALLENGE_EXPIRED = "challenge_expired"
    YOUR_TURN = "your_turn"
    REMINDER = "reminder"
    GAME_OVER = "game_over"
    DRAW_OFFERED = "draw_offered"
    TAKEBACK_REQUESTED = "takeback_requested"
    OPPONENT_AWAY = "opponent_away"
    #: the animated recap of a finished game, drawn when it is delivered
    RECAP = "recap"
    #: a tournament's news in its chat: it started, was cancelled, its standings, its result
    TOURNAMENT = "tournament"
    #: a running tournament's standings of the day in its chat: the adapters edit the
    #: tournament's earlier standings message in place where they can (bot.sessions.posts)
    STANDINGS = "standings"
    #: a move's board in its game's chat, committed with the move: the adapter answering the
    #: move claims it and posts the board at once; the outbox posts it only if that answer
    #: never went out (the process died, or the platform kept refusing)
    BOARD = "board"
    #: to a player alone: their prepared lines of a game were dropped or stopped (issue 46)
    PREMOVE = "premove"
    #: to a player alone, once a day at their chosen time: every game where it is their turn
    DIGEST = "digest"

    @property
    def quiet(self) -> bool:
        """Whether it is posted for the whole chat without notifying anyone (a recap, the
        day's standings): nobody is asked to act, so the players it names are shown by name,
        never mentioned, and its recipient is not put in front.

        >>> Kind.RECAP.quiet, Kind.STANDINGS.quiet, Kind.YOUR_TURN.quiet
        (True, True, False)
        """
        return self in (Kind.RECAP, Kind.STANDINGS)

    @property
    def about_ply(self) -> bool:
        """Whether it concerns one ply of its game ("your turn", the reminder): obsolete once
        that ply has been played or taken back."""
        return self in (Kind.YOUR_TURN, Kind.REMINDER, Kind.BOARD)

    @property
    def lapses_when_game_ends(self) -> bool:
        """Whether it is obsolete once its game is over (all about a running game; the
        game-over note, the recap and the challenge kinds are not).

        >>> Kind.YOUR_TURN.lapses_when_game_ends, Kind.GAME_OVER.lapses_when_game_ends
        (True, False)
        """
        return self in (
            Kind.YOUR_TURN,
            Kind.REMINDER,
            Kind.DRAW_OFFERED,
            Kind.TAKEBACK_REQUESTED,
            Kind.OPPONENT_AWAY,
        )


#: The user id of Hexhall's own player (the bot as an opponent) on every platform.  It holds a
#: space, so it is never a platform's user id (digits on Telegram and Discord, one word at the
#: console).  The bot reads nothing: the outbox delivers nothing to it.
BOT_USER_ID = "hexhall bot"


@dataclass(frozen=True)
class Recipient:
    """Who a notification is for: the platform and user id to deliver to, the display name, and
    the stored player id (``None`` only for players the store does not know yet)."""

    platform: str
    user_id: str
    name: str
    player_id: int | None = None

    def mention(self) -> Mention:
        """This player as a mention inside a text."""
        return Mention(self.platform, self.user_id, self.name)

    @property
    def is_bot(self) -> bool:
        """Whether this is Hexhall's own player (see :data:`BOT_USER_ID`)."""
        return self.user_id == BOT_USER_ID


@dataclass(frozen=True)
class Notification:
    """One outbox entry (see the module docstring).

    ``direct``: the recipient wants direct messages (otherwise, or when the platform refuses a
    direct message, it goes to ``chat`` once).  ``ply`` is the ply a "your turn" or reminder is
    about, so one made obsolete by a later move is never sent.  ``dedupe`` makes a second copy
    of the same notification a no-op.  ``id`` is set once stored; ``attempts`` counts failed
    deliveries.
    """

    kind: Kind
    recipient: Recipient
    text: Text
    deliver_after: datetime
    chat: Chat | None = None
    game_id: int | None = None
    challenge_id: int | None = None
    ply: int | None = None
    actions: tuple[Action, ...] = ()
    direct: bool = True
    dedupe: str | None = None
    created_at: datetime | None = None
    id: int | None = None
    attempts: int = 0
