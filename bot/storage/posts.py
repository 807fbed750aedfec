"""What the store keeps of the bot's own messages on the chat platforms ("posts"): which
message shows which game's board or which challenge's card, so an adapter can edit it later
(a challenge card when the challenge expires, the older boards of a game that lose their
buttons) even after a restart.  :class:`PostsStore` is the part of
:class:`~bot.storage.protocol.Store` that does it; :mod:`bot.sessions.posts` is how adapters
use it (through the session manager).

>>> PostKind("board") is PostKind.BOARD
True
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from bot.core.notification import Notification

__all__ = ["Post", "PostKind", "PostsStore"]


class PostKind(enum.StrEnum):
    """What a remembered message shows."""

    #: a game's board (only a game's latest board keeps live buttons)
    BOARD = "board"
    #: a challenge's card (edited in place when the challenge is closed)
    CARD = "card"


@dataclass(frozen=True)
class Post:
    """One bot message: where it is (platform, chat, the platform's message id, all text),
    what it shows, and whether it still has live buttons."""

    platform: str
    chat_id: str
    message_id: str
    kind: PostKind
    game_id: int | None = None
    challenge_id: int | None = None
    live: bool = True
    created_at: datetime | None = None


class PostsStore(Protocol):
    """The posts methods of the store (part of :class:`~bot.storage.protocol.Store`)."""

    async def remember_post(self, post: Post, now: datetime) -> list[Post]:
        """Store ``post`` (live).  For a board, the game's other live boards stop being live
        in the same transaction and are returned (the adapter takes their buttons away)."""
        ...

    async def posts_for(
        self,
        platform: str,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
        kind: PostKind | None = None,
        live: bool | None = None,
    ) -> list[Post]:
        """The remembered posts of a game or a challenge on ``platform``, oldest first."""
        ...

    async def retire_posts(self, posts: Sequence[Post]) -> None:
        """Mark posts as no longer live (their buttons were taken away)."""
        ...

    async def queue_notes(self, notes: Sequence[Notification]) -> None:
        """Store notifications no other change carries (the edit of an expired challenge's
        card), in one transaction; duplicates by ``dedupe`` are not added."""
        ...

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A chat changed its id (a Telegram group became a supergroup): its games,
        challenges, posts and undelivered notifications move to ``new_chat_id`` in one
        transaction; how many rows moved."""
        ...
