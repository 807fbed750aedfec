"""What the store keeps of the bot's own messages on the chat platforms ("posts"): which
message shows which game's board, which challenge's card or which tournament's standings, so an
adapter can edit it later (a challenge card when the challenge expires, the older boards of a
game that lose their buttons, the standings by the next day's update) even after a restart.
:class:`~bot.storage.sql_posts.SqlPosts` stores them; :mod:`bot.sessions.posts` is how adapters
use them (through the session manager's posts service, :class:`~bot.sessions.services.posts.Posts`).

>>> PostKind("board") is PostKind.BOARD
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Post", "PostKind"]


class PostKind(enum.StrEnum):
    """What a remembered message shows."""

    #: a game's board (only a game's latest board keeps live buttons)
    BOARD = "board"
    #: a challenge's card (edited in place when the challenge is closed)
    CARD = "card"
    #: a move picker opened under a game's board (deleted once the move is played or the
    #: picker cancelled)
    PICKER = "picker"
    #: a draw offer's or a takeback request's answer buttons (closed once answered)
    OFFER = "offer"
    #: a tournament's standings in its chat (edited in place by the next day's update)
    STANDINGS = "standings"
    #: a game's own thread (``chat_id`` the thread, ``message_id`` the card it was started
    #: from): where the platform's notices about the game go
    THREAD = "thread"


@dataclass(frozen=True)
class Post:
    """One bot message: where it is (platform, chat, the platform's message id, all text),
    what it shows (a game's board, a challenge's card, a tournament's standings), and whether
    it still has live buttons."""

    platform: str
    chat_id: str
    message_id: str
    kind: PostKind
    game_id: int | None = None
    challenge_id: int | None = None
    live: bool = True
    created_at: datetime | None = None
    tournament_id: int | None = None
