"""The bot's own messages on the chat platforms, shared by every adapter: which message shows
which game's board or which challenge's card (:class:`~bot.storage.posts.Post`, kept in the
store so it survives a restart).

- After sending a board, an adapter calls :func:`remember_post` (kind ``BOARD``); it gets back
  the game's older boards that still had live buttons, and takes their buttons away: only the
  latest board of a game keeps them.
- After sending a challenge card it remembers it (kind ``CARD``).  When the challenge expires,
  the sweeper queues a :attr:`~bot.core.notification.Kind.CHALLENGE_EXPIRED` notification to
  the challenger in the challenge's chat (``challenge_id`` set, ``direct`` false); the
  adapter's sender finds the card with :func:`posts_for` and edits it in place (its buttons
  removed) instead of posting a new message, or posts the text when no card is known.
- A running tournament's standings of the day come as a
  :attr:`~bot.core.notification.Kind.STANDINGS` notification whose dedupe key
  (:func:`standings_key`) names the tournament (:func:`standings_tournament`): the sender edits
  the tournament's last standings message (kind ``STANDINGS``) in place, and posts (and
  remembers) a new one only when none is known or the platform refuses the edit.
- :func:`move_chat` follows a chat that changed its id (a Telegram group that became a
  supergroup): games, challenges and undelivered notifications move along; the posts stay in
  the old chat, retired (a message id means something only in its own chat).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

import engines
from bot.core.notification import Kind, Notification
from bot.sessions import loading, policy, presentation, texts
from bot.sessions.context import Context
from bot.storage import ChallengeRow, Post, PostKind

__all__ = [
    "expire_challenges",
    "move_chat",
    "posts_for",
    "remember_post",
    "retire_posts",
    "standings_key",
    "standings_tournament",
]

_STANDINGS = "standings"


def standings_key(tournament_id: int, after: datetime | None) -> str:
    """The dedupe key of tournament ``tournament_id``'s standings update that follows the one
    made at ``after`` (or its start): one per earlier update, whoever makes it.

    >>> from datetime import UTC
    >>> standings_key(7, datetime(2026, 5, 1, 9, 30, 5, 120, tzinfo=UTC))
    'standings:7:20260501093005000120'
    """
    stamp = "start" if after is None else f"{after:%Y%m%d%H%M%S%f}"
    return f"{_STANDINGS}:{tournament_id}:{stamp}"


def standings_tournament(note: Notification) -> int | None:
    """The tournament a :attr:`~bot.core.notification.Kind.STANDINGS` notification is about
    (from its :func:`standings_key`); ``None`` for any other notification."""
    if note.kind is not Kind.STANDINGS or note.dedupe is None:
        return None
    head, _, rest = note.dedupe.partition(":")
    number = rest.partition(":")[0]
    return int(number) if head == _STANDINGS and number.isdigit() else None


def _title(game: str) -> str:
    spec = engines.GAMES.get(game)
    return spec.title if spec else game


async def remember_post(
    ctx: Context,
    platform: str,
    chat_id: str,
    message_id: str,
    kind: PostKind,
    *,
    game_id: int | None = None,
    challenge_id: int | None = None,
    tournament_id: int | None = None,
) -> list[Post]:
    """Remember a message the bot sent; for a board, the game's older boards that had live
    buttons (now marked retired: the caller takes their buttons away)."""
    post = Post(
        platform,
        str(chat_id),
        str(message_id),
        PostKind(kind),
        game_id,
        challenge_id,
        tournament_id=tournament_id,
    )
    return await ctx.store.remember_post(post, ctx.now())


async def posts_for(
    ctx: Context,
    platform: str,
    *,
    game_id: int | None = None,
    challenge_id: int | None = None,
    kind: PostKind | None = None,
    live: bool | None = None,
    tournament_id: int | None = None,
) -> list[Post]:
    """The remembered messages of a game, a challenge or a tournament on ``platform``, oldest
    first."""
    return await ctx.store.posts_for(
        platform,
        game_id=game_id,
        challenge_id=challenge_id,
        kind=kind,
        live=live,
        tournament_id=tournament_id,
    )


async def retire_posts(ctx: Context, posts: list[Post]) -> None:
    """Mark messages as without live buttons (after taking them away)."""
    await ctx.store.retire_posts(posts)


async def expire_challenges(ctx: Context) -> list[ChallengeRow]:
    """Expire every challenge whose time is up and queue, for each, the notification that
    has its card edited (see the module docstring)."""
    expired = await ctx.store.expire_challenges(ctx.now())
    now = ctx.now()
    notes = []
    for challenge in expired:
        challenger = await loading.player_by_id(ctx, challenge.challenger)
        note = policy.note(
            ctx,
            challenger,
            Kind.CHALLENGE_EXPIRED,
            texts.challenge_expired_note(
                presentation.mention(challenger), challenge.id, _title(challenge.game)
            ),
            now,
            chat_id=challenge.chat_id,
            dedupe=f"challenge_expired:{challenge.id}",
        )
        notes.append(replace(note, challenge_id=challenge.id, direct=False))
    await ctx.store.queue_notes(notes)
    return expired


async def move_chat(ctx: Context, platform: str, old_chat_id: str, new_chat_id: str) -> int:
    """A chat changed its id: its games, challenges and notifications move to
    ``new_chat_id``, its posts are retired where they are (cached positions are dropped,
    their rows name the old chat); how many rows changed."""
    moved = await ctx.store.move_chat(platform, str(old_chat_id), str(new_chat_id))
    ctx.positions.clear()
    return moved
