"""Leaving a tournament on Discord (issue 45): the sign-up card's Leave and a typed
``/tournament leave`` only ask, privately (an ephemeral message: "only the user
receiving the message can see it"), with a "Yes, leave" button whose id names the asker and
until when it may be pressed (:func:`bot.sessions.questions.leave_button`).  Nothing public
changes until that yes.

The yes, pressed in time by the asker: the question is edited to the answer's first line and
loses its button (a second tap finds nothing to press; a concurrent one is refused by the
manager, privately), and the channel is told once: the sign-up card edited to the new list
(an open tournament), else one new message (the withdrawal from a running one, or a card
where none is known), pinging nobody.  A yes after the question lapsed is refused with a
one-line private answer and the question stays as it was.

:class:`TournamentLeaving` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.adapters.discord.buttons import action_view
from bot.adapters.discord.followups import Followups
from bot.adapters.discord.format import TEXT_LIMIT, markdown, mentions_only, user_of
from bot.adapters.discord.languages import speakers_of
from bot.adapters.discord.threads import chat_here
from bot.core import i18n
from bot.messages import Action, Reply
from bot.outcomes import SignUp
from bot.sessions.manager import SessionManager

__all__ = ["TournamentLeaving"]


class TournamentLeaving:
    """The "Yes, leave" press of a :class:`~bot.adapters.discord.adapter.DiscordBot` (see
    the module docstring)."""

    manager: SessionManager
    followups: Followups

    if TYPE_CHECKING:  # supplied by the bot (and its MovePicker part)

        async def _soon(
            self, interaction: discord.Interaction, work: Awaitable[Any], *, new: bool
        ) -> tuple[Any, bool]: ...

        async def _private_line(
            self, interaction: discord.Interaction, reply: Reply, deferred: bool, *, new: bool
        ) -> None: ...

        async def _update_sign_up(
            self, interaction: discord.Interaction, reply: Reply, tournament_id: int
        ) -> bool: ...

        def _wake(self) -> None: ...

        async def _remember_card(
            self, interaction: discord.Interaction, message_id: int, tournament_id: int
        ) -> None: ...

    async def _leave_confirmed(self, interaction: discord.Interaction, action_id: str) -> None:
        """Yes to "Really leave?" (pressed on the asker's ephemeral question)."""
        user, chat = user_of(interaction.user), chat_here(interaction)
        said = await speakers_of(self.manager, interaction)
        with i18n.use(said.chat):  # the card and the withdrawal are the channel's
            reply, deferred = await self._soon(
                interaction, self.manager.games.press(user, chat, action_id), new=False
            )
        assert isinstance(reply, Reply)
        if not reply.ok:
            with i18n.use(said.player):
                await self._private_line(interaction, reply, deferred, new=False)
            return
        with i18n.use(said.player):
            line = markdown(reply.body.first_paragraph())[:TEXT_LIMIT]
        settled: dict[str, Any] = {
            "content": line, "view": None, "allowed_mentions": discord.AllowedMentions.none(),
        }  # fmt: skip
        if deferred:
            await interaction.edit_original_response(**settled)
        else:
            await interaction.response.edit_message(**settled)
        with i18n.use(said.chat):
            await self._tell_leaving(interaction, reply, Action("", action_id).subject)
        self._wake()

    async def _tell_leaving(
        self, interaction: discord.Interaction, reply: Reply, tournament_id: int | None
    ) -> None:
        """The channel told once that the presser left: its sign-up card edited to the new
        list, else one new public message (pinging nobody; a card remembered as such)."""
        card = reply.outcome.tournament_id if isinstance(reply.outcome, SignUp) else None
        if card is not None and await self._update_sign_up(interaction, reply, card):
            return
        fields: dict[str, Any] = {
            "content": markdown(reply.body)[:TEXT_LIMIT],
            "allowed_mentions": mentions_only(),
        }
        view = action_view(reply.actions)
        if view is not None:
            fields["view"] = view
        sent = await self.followups.send(interaction, **fields, wait=True)
        if sent is not None and card is not None and tournament_id is not None:
            await self._remember_card(interaction, sent.id, tournament_id)
