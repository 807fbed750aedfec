"""A reply in Discord's form: the fields of the message that shows it (its first section as the
content, a board's picture and card, an exported record as a file, the buttons), the rest
of its sections as followups, and which game's board or which challenge's card it shows (to
be remembered).

:class:`Composing` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`; the
outbox's sender uses it too (:meth:`Composing.message_fields`).
"""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.adapters.discord.buttons import action_view
from bot.adapters.discord.format import (
    ALT_LIMIT,
    BOARD_FILE,
    CHART_FILE,
    board_embed,
    markdown_sections,
    mentions_only,
)
from bot.adapters.discord.outgoing import Outgoing
from bot.messages import Action, ActionKind, Reply, ReplyKind, User
from bot.outcomes import Ended
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["Composing", "is_board"]


def is_board(reply: Reply) -> bool:
    """Whether a reply shows a game's board as the game's latest: its live board, a board
    picture, or the end of the game (its outcome :class:`~bot.outcomes.Ended`)."""
    if reply.kind is ReplyKind.LIVE_BOARD:
        return True
    return reply.kind is ReplyKind.BOARD and (
        reply.image is not None or isinstance(reply.outcome, Ended)
    )


class Composing:
    """The replies' messages of a :class:`~bot.adapters.discord.adapter.DiscordBot` (see the
    module docstring)."""

    manager: SessionManager

    async def message_fields(self, reply: Reply, caller: User) -> dict[str, Any]:
        """The fields of the first message showing ``reply`` (a board with its card, for the
        outbox's sender posting a move's committed board)."""
        return (await self._compose(reply, caller)).fields

    async def _compose(
        self, reply: Reply, caller: User, *, file_name: str | None = None, board: bool = True
    ) -> Outgoing:
        """``reply`` as Discord message fields; ``board=False`` shows a game's picture without
        the board card (a past position of the position browser)."""
        sections = markdown_sections(reply.body)
        first, rest = sections[0], sections[1:]
        fields: dict[str, Any] = {"allowed_mentions": mentions_only()}
        if reply.ok and reply.challenge_id is not None and reply.game_id is None:
            # A challenge card pings whom it challenges (never the challenger, never roles).
            named = [m for m in reply.body.mentions() if m.user_id != caller.user_id]
            fields["allowed_mentions"] = mentions_only(*named)
        actions = reply.actions
        live = reply.ok and reply.kind is ReplyKind.LIVE_BOARD
        if live and reply.game_id is not None:
            # Move opens the picker, privately, for whoever presses it (the player to move).
            move = Action.make(texts.MOVE_LABEL, ActionKind.PICK, reply.game_id)
            draw = Action.make("Offer draw", ActionKind.OFFER_DRAW, reply.game_id)
            actions = (move, *actions, draw)
        if reply.ok and reply.page is not None and reply.game_id is not None:
            # The game's web page: each presser gets their own link, privately.
            actions = (*actions, Action.make(texts.OPEN_BOARD, ActionKind.WEB_BOARD, reply.game_id))
        if file_name is not None and reply.ok:
            # The text itself is the file (an exported record).
            fields["file"] = discord.File(io.BytesIO(reply.text.encode()), filename=file_name)
            first, rest = "", []
        elif board and reply.ok and reply.facts is not None and (reply.image or live):
            # A board: the picture (with the board in words as alt text) and its card.
            facts = reply.facts
            if reply.image is not None:
                alt = reply.alt[:ALT_LIMIT] if reply.alt else None
                fields["file"] = discord.File(
                    io.BytesIO(reply.image), filename=BOARD_FILE, description=alt
                )
            ratings = await self.manager.games.board_ratings(facts.game_id)
            # The picture stays a plain attachment, which Discord shows at the message's full
            # width; inside the embed it would be cut to the embed's width (issue 25: about
            # 400 px, legend and cell labels unreadable). The facts stay in the embed.
            fields["embed"] = board_embed(facts, ratings, image=False)
            fields["allowed_mentions"] = mentions_only(facts.to_move)
        elif reply.ok and reply.image is not None:
            # Another picture (a past position, a rating chart), described by its alt text.
            alt = reply.alt[:ALT_LIMIT] if reply.alt else None
            name = BOARD_FILE if reply.game_id is not None else CHART_FILE
            fields["file"] = discord.File(io.BytesIO(reply.image), filename=name, description=alt)
        if first:
            fields["content"] = first
        view = action_view(actions)
        if view is not None:
            fields["view"] = view
        shown = reply.game_id if board and reply.ok and is_board(reply) else None
        card = reply.challenge_id if reply.ok and reply.kind is ReplyKind.CARD else None
        return Outgoing(fields, rest, shown, card)
