"""Posts in SQL (:class:`SqlPosts`, a part of :class:`~bot.storage.sql.SqlStore`), and a chat
that changes its id.

Table ``posts`` (migration 4 of :mod:`bot.storage.schema`; ``tournament_id`` since migration
12 -> 13): one row per bot message an adapter may edit later, keyed by (platform, chat, message
id); ``live`` says whether it still has buttons.  A message id is only meaningful in its own
chat: when a chat changes its id, its posts stay under the old id.  Message ids are text
(Telegram's are numbers per chat, Discord's snowflakes).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.storage.dbapi import Conn, Row, from_ts, to_ts
from bot.storage.posts import Post, PostKind
from bot.storage.sql_base import SqlBase

__all__ = ["SqlPosts"]

log = logging.getLogger(__name__)

_COLUMNS = (
    "platform, chat_id, message_id, kind, game_id, challenge_id, live, created_at, tournament_id"
)


def _post(row: Row) -> Post | None:
    try:
        return Post(
            platform=str(row["platform"]),
            chat_id=str(row["chat_id"]),
            message_id=str(row["message_id"]),
            kind=PostKind(row["kind"]),
            game_id=row["game_id"],
            challenge_id=row["challenge_id"],
            live=bool(row["live"]),
            created_at=from_ts(row["created_at"]),
            tournament_id=row["tournament_id"],
        )
    except (TypeError, ValueError):
        log.error("skipping a post that cannot be read: %s", dict(row))
        return None


class SqlPosts(SqlBase):
    """The posts methods of the store."""

    async def remember_post(self, post: Post, now: datetime) -> list[Post]:
        """Store ``post`` (live).  For a board, the game's other live boards and its open move
        pickers stop being live in the same transaction and are returned, oldest first (the
        adapter takes their buttons away, or the picker itself)."""

        async def remember(conn: Conn) -> list[Row]:
            await conn.execute(
                f"INSERT INTO posts ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) "
                "ON CONFLICT (platform, chat_id, message_id) DO UPDATE SET kind = excluded.kind, "
                "game_id = excluded.game_id, challenge_id = excluded.challenge_id, live = 1, "
                "tournament_id = excluded.tournament_id",
                (
                    post.platform,
                    post.chat_id,
                    post.message_id,
                    str(PostKind(post.kind)),
                    post.game_id,
                    post.challenge_id,
                    to_ts(now),
                    post.tournament_id,
                ),
            )
            if post.kind is not PostKind.BOARD or post.game_id is None:
                return []
            # A picker opened in the same chat after this board was sent (a newer message:
            # ids grow within a chat; text, so by length first) is under this board: kept.
            mid, picker = post.message_id, str(PostKind.PICKER)
            rows: list[Row] = await conn.fetch(
                "UPDATE posts SET live = 0 WHERE platform = ? AND game_id = ? "
                "AND kind IN (?, ?) AND live = 1 AND NOT (chat_id = ? AND message_id = ?) "
                "AND NOT (kind = ? AND chat_id = ? AND (length(message_id) > ? "
                "OR (length(message_id) = ? AND message_id > ?))) "
                f"RETURNING {_COLUMNS}",
                (
                    *(post.platform, post.game_id, str(PostKind.BOARD), picker, post.chat_id, mid),
                    *(picker, post.chat_id, len(mid), len(mid), mid),
                ),
            )
            return rows

        rows = await self._write(remember)
        return sorted(
            (p for p in map(_post, rows) if p is not None),
            key=lambda p: (p.created_at or now, p.message_id),
        )

    async def posts_for(
        self,
        platform: str,
        *,
        game_id: int | None = None,
        challenge_id: int | None = None,
        kind: PostKind | None = None,
        live: bool | None = None,
        tournament_id: int | None = None,
    ) -> list[Post]:
        """The remembered posts on ``platform`` of a game, a challenge, a tournament, a kind,
        live or not (whichever are given), oldest first; one that cannot be read is left out
        with a log line."""
        where: list[str] = ["platform = ?"]
        args: list[str | int] = [platform]
        for column, value in (
            ("game_id", game_id),
            ("challenge_id", challenge_id),
            ("tournament_id", tournament_id),
        ):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if kind is not None:
            where.append("kind = ?")
            args.append(str(PostKind(kind)))
        if live is not None:
            where.append("live = ?")
            args.append(int(live))
        # Message ids are text: by length first, so numeric ids sort as numbers.
        sql = (
            f"SELECT {_COLUMNS} FROM posts WHERE {' AND '.join(where)} "
            "ORDER BY created_at, length(message_id), message_id"
        )
        rows = await self._read(lambda c: c.fetch(sql, args))
        return [p for p in map(_post, rows) if p is not None]

    async def retire_posts(self, posts: Sequence[Post]) -> None:
        """Mark posts as no longer live (their buttons were taken away)."""
        keys = [(p.platform, p.chat_id, p.message_id) for p in posts]
        if keys:
            await self._write(
                lambda c: c.executemany(
                    "UPDATE posts SET live = 0 WHERE platform = ? AND chat_id = ? "
                    "AND message_id = ?",
                    keys,
                )
            )

    async def move_chat(self, platform: str, old_chat_id: str, new_chat_id: str) -> int:
        """A chat changed its id (a Telegram group became a supergroup): its games,
        challenges and undelivered notifications move to ``new_chat_id`` in one transaction,
        and its ratings and leaderboard with them when the chat was its own community; its
        posts stay in the old chat (their message ids are the old chat's), no longer live.  How
        many games, challenges, notifications and retired posts that made."""

        async def move(conn: Conn) -> int:
            moved = 0
            args: tuple[Any, ...] = (new_chat_id, platform, old_chat_id)
            for table in ("games", "challenges"):
                moved += await conn.execute(
                    f"UPDATE {table} SET chat_id = ?, community = CASE WHEN community = chat_id "
                    "THEN ? ELSE community END WHERE platform = ? AND chat_id = ?",
                    (new_chat_id, *args),
                )
            # The old chat's messages stay in the old chat: a message id means something only
            # in its own chat (the new one numbers its messages afresh, so the same id there is
            # another message).  They are retired: the old chat takes no edits any more.
            moved += await conn.execute(
                "UPDATE posts SET live = 0 WHERE platform = ? AND chat_id = ? AND live = 1",
                (platform, old_chat_id),
            )
            moved += await conn.execute(
                "UPDATE notifications SET chat_id = ? WHERE platform = ? AND chat_id = ? "
                "AND done_at IS NULL",
                args,
            )
            # The chat's own ratings (issue 27: a rating is per community) move with it; a
            # rating already kept under the new id stays (both databases: no UPDATE OR IGNORE).
            await conn.execute(
                "UPDATE ratings SET community = ? WHERE platform = ? AND community = ? "
                "AND NOT EXISTS (SELECT 1 FROM ratings r WHERE r.platform = ratings.platform "
                "AND r.community = ? AND r.pool = ratings.pool AND r.player = ratings.player)",
                (*args, new_chat_id),
            )
            await conn.execute(
                "UPDATE rating_changes SET community = ? WHERE platform = ? AND community = ?",
                args,
            )
            return moved

        return await self._write(move)
