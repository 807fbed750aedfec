"""Challenges in SQL (:class:`SqlChallenges`): stored with their notifications, listed,
closed, expired, and accepted into a game in one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.core.notification import Notification
from bot.core.status import ChallengeStatus
from bot.storage.dbapi import Conn, Row, one, to_ts
from bot.storage.errors import BadRow
from bot.storage.rows import ChallengeRow, First, GameRow, NewGame
from bot.storage.sql_base import SqlBase
from bot.storage.sql_games import insert_game
from bot.storage.sql_outbox import filled, insert_notes
from bot.storage.sql_rows import CHALLENGE_COLUMNS, Lenient, dumps, read_challenge, read_game

__all__ = ["SqlChallenges"]

log = logging.getLogger(__name__)


class SqlChallenges(SqlBase):
    """The challenge methods of the store."""

    async def create_challenge(
        self,
        *,
        challenger: int,
        target: int | None,
        platform: str,
        chat_id: str,
        game: str,
        options: Mapping[str, Any],
        first: First,
        time_per_move: float | None,
        now: datetime,
        expires_at: datetime,
        limit: int,
        notes: Sequence[Notification] = (),
        rematch_of: int | None = None,
        rated: bool = True,
        community: str | None = None,
        target_name: str | None = None,
    ) -> ChallengeRow | None:
        """Store a pending challenge and its notifications; ``None`` if the challenger already
        has ``limit`` pending challenges.  The count and the insert are one transaction that
        holds the write lock, so two processes cannot both slip under the limit.  ``rated``
        is false for a casual game; ``community`` is the group or server (``None``: the chat);
        ``target_name`` the invited player's username while their id is unknown."""
        values = (
            challenger,
            target,
            platform,
            chat_id,
            game,
            dumps(dict(options)),
            str(First(first)),
            time_per_move,
            to_ts(now),
            to_ts(expires_at),
            rematch_of,
            int(bool(rated)),
            chat_id if community is None else community,
            target_name,
        )

        async def create(conn: Conn) -> Row | None:
            # Lock the challenger's row first: two processes counting the same player's
            # challenges then take turns (a PostgreSQL row lock until commit; SQLite's write
            # lock already serialises every writer), so neither slips under the limit.
            await conn.execute("UPDATE players SET id = id WHERE id = ?", (challenger,))
            count = one(
                await conn.fetchrow(
                    "SELECT COUNT(*) FROM challenges WHERE challenger = ? AND status = 'pending' "
                    "AND expires_at > ?",
                    (challenger, to_ts(now)),
                )
            )[0]
            if count >= limit:
                return None
            row = one(
                await conn.fetchrow(
                    "INSERT INTO challenges (challenger, target, platform, chat_id, game, options, "
                    "first, time_per_move, status, created_at, expires_at, rematch_of, rated, "
                    "community, target_name) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?, ?) "
                    f"RETURNING {CHALLENGE_COLUMNS}",
                    values,
                )
            )
            await insert_notes(conn, [filled(n, challenge_id=row["id"]) for n in notes])
            return row

        row = await self._write(create)
        return None if row is None else read_challenge(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with this id, if any.  One that cannot be read is set aside (status
        ``corrupt``) and :class:`BadRow` raised; once set aside it is returned as far as it
        can be read."""
        row = await self._row(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        if row is None:
            return None
        try:
            return read_challenge(row)
        except BadRow as exc:
            if row["status"] == ChallengeStatus.CORRUPT:
                aside = read_challenge(row, Lenient("challenges", row))
                return replace(aside, status=ChallengeStatus.CORRUPT)
            log.error("setting aside a challenge that cannot be read: %s", exc)
            await self._write(
                lambda c: c.execute(
                    "UPDATE challenges SET status = 'corrupt' WHERE id = ?", (challenge_id,)
                )
            )
            raise

    async def pending_challenges(self, player_id: int, now: datetime) -> list[ChallengeRow]:
        """Pending, unexpired challenges made by or addressed to ``player_id``, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND challenger = ? AND expires_at > ? "
            f"UNION SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND target = ? AND expires_at > ? ORDER BY id",
            (player_id, to_ts(now), player_id, to_ts(now)),
        )
        return [read_challenge(r) for r in rows]

    async def open_challenges(
        self, platform: str, chat_id: str, now: datetime
    ) -> list[ChallengeRow]:
        """Pending, unexpired open challenges in a chat, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'pending' "
            "AND target IS NULL AND platform = ? AND chat_id = ? AND expires_at > ? ORDER BY id",
            (platform, chat_id, to_ts(now)),
        )
        return [read_challenge(r) for r in rows]

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> bool:
        """Mark a pending challenge ``status`` (with its notifications); ``False`` if it was
        no longer pending."""

        async def close(conn: Conn) -> bool:
            changed = await conn.execute(
                "UPDATE challenges SET status = ?, closed_at = ? "
                "WHERE id = ? AND status = 'pending'",
                (str(ChallengeStatus(status)), to_ts(now), challenge_id),
            )
            if changed != 1:
                return False
            await insert_notes(conn, [filled(n, challenge_id=challenge_id) for n in notes])
            return True

        return await self._write(close)

    async def expire_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Mark every pending challenge whose time is up as expired; return them."""
        rows = await self._write(
            lambda c: c.fetch(
                "UPDATE challenges SET status = 'expired', closed_at = ? "
                f"WHERE status = 'pending' AND expires_at <= ? RETURNING {CHALLENGE_COLUMNS}",
                (to_ts(now), to_ts(now)),
            )
        )
        return [read_challenge(r) for r in rows]

    async def rematches_of(self, game_id: int) -> list[ChallengeRow]:
        """Challenges made as rematches of a game, oldest first."""
        rows = await self._rows(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE rematch_of = ? ORDER BY id",
            (game_id,),
        )
        return [read_challenge(r) for r in rows]

    async def accept_challenge(
        self,
        challenge_id: int,
        target: int,
        new: NewGame,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> GameRow | None:
        """Turn a pending challenge into a game (one transaction, notifications included;
        ``{game}`` in them becomes the new game's id).  ``target`` is the accepting player
        (filled in for an open challenge).  ``None`` if the challenge was no longer pending or
        has expired (someone was faster)."""

        async def accept(conn: Conn) -> Row | None:
            changed = await conn.execute(
                "UPDATE challenges SET status = 'accepted', closed_at = ?, target = ? "
                "WHERE id = ? AND status = 'pending' AND expires_at > ?",
                (to_ts(now), target, challenge_id, to_ts(now)),
            )
            if changed != 1:
                return None
            row = await insert_game(conn, new, now)
            await conn.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (row["id"], challenge_id)
            )
            await insert_notes(conn, [filled(n, game_id=row["id"]) for n in notes])
            return row

        row = await self._write(accept)
        return None if row is None else read_game(row)
