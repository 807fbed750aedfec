"""The interface the sessions and the outbox are typed against: :class:`Store`.

:class:`~bot.storage.sqlite.SqliteStore` and :class:`~bot.storage.postgres.PostgresStore`
(several bot processes on one database) implement it with the same SQL.  Every method is one
transaction: a change and the notifications it causes commit together, and a change of a game
also cancels the undelivered notifications it makes obsolete.  Failures are
:class:`~bot.storage.errors.StoreError`s: :class:`~bot.storage.errors.StoreBusy` when the
database cannot take the change now (nothing changed; try again),
:class:`~bot.storage.errors.BadRow` for a stored value that cannot be read (a game is set aside
first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from bot.core.notification import Notification
from bot.core.settings import Settings
from bot.core.status import ChallengeStatus, GameResult, GameStatus
from bot.storage.posts import PostsStore
from bot.storage.rows import Backlog, ChallengeRow, First, GameRow, MoveRow, NewGame, PlayerRow
from bot.storage.standings import RatedEnd, StandingsStore

__all__ = ["Store"]


class Store(StandingsStore, PostsStore, Protocol):
    """What the bot needs from a database (see the module docstring)."""

    async def close(self) -> None:
        """Run ``PRAGMA optimize`` and close the connection."""
        ...

    async def schema_version(self) -> int:
        """The schema version of the open database."""
        ...

    async def player(self, platform: str, user_id: str, name: str, now: datetime) -> PlayerRow:
        """The player (platform, user_id), created if new; the display name is kept current."""
        ...

    async def get_player(self, player_id: int) -> PlayerRow | None:
        """The player with this id, if any."""
        ...

    async def find_player(self, platform: str, user_id: str) -> PlayerRow | None:
        """The player (platform, user_id), if known."""
        ...

    async def set_settings(self, player_id: int, settings: Settings) -> None:
        """Store a player's notification settings."""
        ...

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
        ``target_name`` the invited player's username (lower case) while their id is unknown."""
        ...

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        """The challenge with this id, if any."""
        ...

    async def pending_challenges(self, player_id: int, now: datetime) -> list[ChallengeRow]:
        """Pending, unexpired challenges made by or addressed to ``player_id``, oldest first."""
        ...

    async def open_challenges(
        self, platform: str, chat_id: str, now: datetime
    ) -> list[ChallengeRow]:
        """Pending, unexpired open challenges in a chat, oldest first."""
        ...

    async def close_challenge(
        self,
        challenge_id: int,
        status: ChallengeStatus,
        now: datetime,
        notes: Sequence[Notification] = (),
    ) -> bool:
        """Mark a pending challenge ``status`` (with its notifications); ``False`` if it was
        no longer pending."""
        ...

    async def expire_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Mark every pending challenge whose time is up as expired; return them."""
        ...

    async def rematches_of(self, game_id: int) -> list[ChallengeRow]:
        """Challenges made as rematches of a game, oldest first."""
        ...

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
        ...

    async def create_game(
        self, new: NewGame, now: datetime, notes: Sequence[Notification] = ()
    ) -> GameRow:
        """Create an active game directly (no challenge), with its notifications."""
        ...

    async def get_game(self, game_id: int) -> GameRow | None:
        """The game with this id, if any.  Raises :class:`BadRow` (after setting the game
        aside) if it cannot be read."""
        ...

    async def game_with_moves(self, game_id: int) -> tuple[GameRow, list[MoveRow]] | None:
        """A game and its moves read in one transaction, so they agree with each other even
        while another process is writing."""
        ...

    async def moves(self, game_id: int) -> list[MoveRow]:
        """The moves of a game in order."""
        ...

    async def move_at(self, game_id: int, ply: int) -> MoveRow | None:
        """The move played at ``ply`` in a game, if any."""
        ...

    async def games_of(
        self,
        player_id: int,
        statuses: Sequence[GameStatus],
        *,
        limit: int = 50,
        offset: int = 0,
    ) -> list[GameRow]:
        """Games where ``player_id`` sits with one of ``statuses``, newest first: ``limit``
        of them after skipping ``offset`` (pages through all of them)."""
        ...

    async def count_games_of(self, player_id: int, statuses: Sequence[GameStatus]) -> int:
        """How many games :meth:`games_of` pages through."""
        ...

    async def active_games_in_chat(
        self, player_id: int, platform: str, chat_id: str
    ) -> list[GameRow]:
        """Active games of ``player_id`` that live in this chat."""
        ...

    async def apply_move(
        self,
        game: GameRow,
        move: str,
        seat: int,
        snapshot: Mapping[str, Any],
        to_move: int | None,
        now: datetime,
        notes: Sequence[Notification] = (),
        finish: tuple[int | None, GameResult, str] | None = None,
        deadline_at: datetime | None = None,
        rating: RatedEnd | None = None,
        alone_in: tuple[int, str, str] | None = None,
    ) -> GameRow | None:
        """Append ``move`` at ``game.ply`` and update the game, in one transaction: the game
        row (checked against ``game.ply`` and ``game.version``), the moves row, the
        notifications the move makes obsolete cancelled, and ``notes`` inserted.

        ``finish`` is ``(winner seat or None, result, reason)`` when the move ends the game.
        ``None`` if the stored game is no longer at ``game.ply`` / ``game.version`` or not
        active (another submission won the race): then nothing is written.  ``rating`` (with
        ``finish``): the players' rating changes, written in the same transaction
        (:class:`~bot.storage.standings.RatingsMoved` if a rating changed since they were
        computed: nothing is written).
        ``alone_in`` is ``(player id, platform, chat id)`` when the move was sent without
        naming its game and this must be that player's only active game in that chat (the
        check a typed move's choice of game needs, made in the write itself): ``None``
        (nothing written) when it is not.
        """
        ...

    async def finish_game(
        self,
        game: GameRow,
        status: GameStatus,
        winner: int | None,
        result: GameResult,
        reason: str,
        now: datetime,
        notes: Sequence[Notification] = (),
        rating: RatedEnd | None = None,
    ) -> GameRow | None:
        """End an active game without a move (resignation, timeout, agreement, abort), cancel
        what that makes obsolete and add ``notes``, in one transaction.  ``None`` if the game
        changed meanwhile or is not active.  ``rating``: the players' rating changes, written
        in the same transaction (as in :meth:`apply_move`)."""
        ...

    async def update_game(
        self,
        game: GameRow,
        now: datetime,
        notes: Sequence[Notification] = (),
        **columns: int | datetime | None,
    ) -> GameRow | None:
        """Set some of ``draw_offer_by``, ``takeback_by``, ``reminder_sent_for_ply`` and
        ``deadline_at`` if the game is still at ``game.version`` (bumping the version), cancel
        what that makes obsolete (a withdrawn request) and add ``notes``; ``None`` if it
        changed meanwhile."""
        ...

    async def mark_corrupt(self, game_id: int, reason: str) -> None:
        """Set a game aside: status ``corrupt`` with the reason (its rows are kept as they are)."""
        ...

    async def take_back(
        self,
        game: GameRow,
        snapshot: Mapping[str, Any],
        to_move: int,
        now: datetime,
        deadline_at: datetime | None,
        notes: Sequence[Notification] = (),
    ) -> GameRow | None:
        """Undo the last move of an active game in one transaction: its moves row goes, the
        game returns to ``snapshot`` with ``to_move`` to play, and the "your turn" / reminder
        of the undone ply are cancelled (so the move played instead is announced again).
        ``None`` if the game changed meanwhile."""
        ...

    async def import_game(
        self,
        new: NewGame,
        moves: Sequence[str],
        seats: Sequence[int],
        now: datetime,
        finish: tuple[GameStatus, int | None, GameResult, str] | None,
    ) -> GameRow:
        """Store a game read from a record, with all its moves, in one transaction.

        ``seats[i]`` is the seat that played ``moves[i]``; ``finish`` is ``(status, winner,
        result, reason)`` for a game that is over.  ``new.snapshot`` is the final position."""
        ...

    async def clock_games(self, horizon: datetime) -> list[GameRow]:
        """Active games whose deadline is at or before ``horizon`` (the sweeper asks for
        ``now`` + the longest reminder lead, so every due reminder is among them).  A game that
        cannot be read is set aside with a log line; the others are returned."""
        ...

    async def bot_turn_games(self, limit: int = 1000) -> list[GameRow]:
        """Active games against the bot where the bot is to move, oldest first (at most
        ``limit``; the opponent's sweep finds them after a restart).  A game that cannot be
        read is set aside with a log line; the others are returned."""
        ...

    async def next_deadline(self) -> datetime | None:
        """The earliest deadline of any active game (games whose deadline cannot be read are
        set aside)."""
        ...

    async def away_spans(self, player_id: int) -> list[tuple[datetime, datetime]]:
        """A player's vacations as (start, end), oldest first."""
        ...

    async def set_away(
        self,
        player_id: int,
        now: datetime,
        until: datetime | None,
        deadlines: Sequence[tuple[GameRow, datetime]],
        notes: Sequence[Notification] = (),
    ) -> bool:
        """In one transaction: cut a vacation running at ``now`` short, start a new one until
        ``until`` (``None``: just come back), move the given games' deadlines, and queue the
        notes.  ``False`` (nothing changed) if one of the games changed meanwhile."""
        ...

    async def notifications_for(self, player_id: int) -> list[Notification]:
        """Every notification addressed to a player that is still to be delivered or was
        delivered, oldest first (for tests and tools; cancelled ones are left out)."""
        ...

    async def due_notifications(
        self, platform: str, now: datetime, limit: int = 50
    ) -> list[Notification]:
        """Undelivered notifications for ``platform`` whose delivery time has come, oldest
        first, without claiming them (for tests and tools: workers use :meth:`claim_due`)."""
        ...

    async def claim_due(
        self, platform: str, owner: str, now: datetime, lease: timedelta, limit: int = 20
    ) -> list[Notification]:
        """Claim up to ``limit`` due notifications of ``platform`` for the worker ``owner``
        until ``now + lease``, oldest first; obsolete ones are dropped instead (and not
        returned), as is a row that cannot be read (with a log line).

        One conditional ``UPDATE ... RETURNING``: a row is taken only if it is unclaimed or
        its lease has ended, so two workers never hold the same one (PostgreSQL adds ``FOR
        UPDATE SKIP LOCKED`` to the inner select so they do not wait on each other either).
        """
        ...

    async def mark_sent(self, note_id: int, owner: str, now: datetime) -> bool:
        """Record that the worker ``owner`` delivered a notification it claimed; ``False`` if
        it no longer held the claim (its lease ended and another worker took it)."""
        ...

    async def give_up(self, note_id: int, owner: str, now: datetime, error: str) -> bool:
        """Stop trying to deliver a claimed notification (``error`` says why)."""
        ...

    async def retry_later(
        self, note_id: int, owner: str, when: datetime, error: str, *, direct: bool | None = None
    ) -> bool:
        """Release a claimed notification to be tried again at ``when``, counting a failed
        attempt (``direct=False``: deliver it in the game's chat from now on, the fallback for
        a refused direct message, which does not count as an attempt)."""
        ...

    async def cancel_obsolete(self, game_id: int, now: datetime) -> int:
        """Cancel a game's undelivered notifications that its current state makes obsolete;
        how many.  (Every change of a game in this store already does this inside its own
        transaction; this is for tools and other writers.)"""
        ...

    async def prune_notifications(self, before: datetime) -> int:
        """Delete notifications delivered (or dropped) before ``before``; how many."""
        ...

    async def claim_owners(self, platform: str, now: datetime) -> list[str]:
        """The workers holding unexpired claims on ``platform``'s undelivered notifications."""
        ...

    async def release_claims(self, platform: str, owner: str) -> int:
        """Free ``owner``'s claims on ``platform``'s undelivered notifications; how many."""
        ...

    async def outbox_backlog(self, now: datetime) -> list[Backlog]:
        """Per platform: notifications due and undelivered at ``now``, and how many seconds
        the oldest of them has waited."""
        ...

    async def claim_lease(
        self,
        name: str,
        owner: str,
        now: datetime,
        lease: timedelta,
        *,
        replacing: str | None = None,
    ) -> bool:
        """Take or renew the lease on the chore ``name`` for ``owner`` until ``now + lease``;
        ``False`` while another owner (other than ``replacing``, known to be gone) holds it."""
        ...

    async def lease_holder(self, name: str) -> str | None:
        """Who holds (or last held) the lease on ``name``, if anyone."""
        ...

    async def prune_leases(self, now: datetime) -> int:
        """Delete the leases that ended before ``now``; how many."""
        ...

    async def release_lease(self, name: str, owner: str) -> None:
        """Give up the lease on ``name`` if ``owner`` holds it."""
        ...
