"""The move picker's presses on Discord: a board's Move opens the picker privately for the
presser, each step edits it in place (deferred first when slow: Discord's 3 s), a whole move
shows its preview there with Play it / Cancel, and a refusal goes to the presser alone.  The
picker's messages themselves are built in :mod:`bot.adapters.discord.picker`.

:class:`MovePicker` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`, which
composes the preview's board.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from bot.adapters.discord.buttons import ActionButton
from bot.adapters.discord.followups import Followups
from bot.adapters.discord.format import TEXT_LIMIT, markdown, mentions_only, user_of
from bot.adapters.discord.outgoing import Outgoing
from bot.adapters.discord.picker import picker_view
from bot.adapters.discord.threads import chat_here
from bot.messages import Action, ActionKind, Reply, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.picker import PREFIX_MARK, Picker

__all__ = ["MovePicker"]


class MovePicker:
    """The move picker's handlers of a :class:`~bot.adapters.discord.adapter.DiscordBot` (see
    the module docstring)."""

    manager: SessionManager
    defer_after: float
    followups: Followups

    if TYPE_CHECKING:  # supplied by the bot

        async def _compose(
            self, reply: Reply, caller: User, *, file_name: str | None = None, board: bool = True
        ) -> Outgoing: ...

    async def _soon(
        self, interaction: discord.Interaction, work: Awaitable[Any], *, new: bool
    ) -> tuple[Any, bool]:
        """``work``'s result, deferring the interaction first when it is slow (Discord's 3 s);
        ``new``: the answer is a new private message, else the pressed message edited."""
        task = asyncio.ensure_future(work)
        waited = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        budget = self.defer_after - min(max(waited, 0.0), self.defer_after)
        if budget > 0 and (await asyncio.wait({task}, timeout=budget))[0]:
            return task.result(), False
        if new:
            await interaction.response.defer(ephemeral=True, thinking=True)
        else:
            await interaction.response.defer()
        return await task, True

    async def _private_line(
        self, interaction: discord.Interaction, reply: Reply, deferred: bool, *, new: bool
    ) -> None:
        """A refusal, privately to the presser (the pressed message is left as it was)."""
        text = markdown(reply.body)[:TEXT_LIMIT]
        if deferred and new:
            await interaction.edit_original_response(content=text, allowed_mentions=mentions_only())
        elif deferred:
            await self.followups.send(
                interaction, text, ephemeral=True, allowed_mentions=mentions_only()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=mentions_only()
            )

    async def _pick(self, interaction: discord.Interaction, action_id: str, *, new: bool) -> None:
        """A picker step: from a board's Move button a new private message (``new``), from
        the picker itself the same message, edited; a whole move goes to its preview."""
        user, chat = user_of(interaction.user), chat_here(interaction)
        manager = self.manager

        async def step_or_preview() -> Picker | Reply:
            step = await manager.games.pick(user, chat, action_id)
            if isinstance(step, Picker) and step.prefix and not step.parts and not new:
                # Nothing can follow: the move is whole, show what it does.
                return await manager.games.preview(user, chat, step.prefix, step.game_id)
            return step

        step, deferred = await self._soon(interaction, step_or_preview(), new=new)
        if isinstance(step, Reply) and step.ok:
            await self._show_preview(interaction, step, deferred)
            return
        if isinstance(step, Reply):
            await self._private_line(interaction, step, deferred, new=new)
            return
        assert isinstance(step, Picker)
        fields: dict[str, Any] = {
            "content": discord.utils.escape_markdown(step.text),
            "view": picker_view(step, ActionButton),
            "allowed_mentions": mentions_only(),
        }
        if new and not deferred:
            await interaction.response.send_message(**fields, ephemeral=True)
        elif new:
            await interaction.edit_original_response(**fields)
        elif deferred:
            await interaction.edit_original_response(**fields, embed=None, attachments=[])
        else:
            await interaction.response.edit_message(**fields, embed=None, attachments=[])

    async def on_preview(
        self, interaction: discord.Interaction, game_id: int, ply: int, move: str
    ) -> None:
        """The picker's preview button: the board after ``move`` in place of the picker,
        with Play it / Cancel, if the game is still at ``ply`` and the presser to move."""
        user, chat = user_of(interaction.user), chat_here(interaction)

        async def check_and_preview() -> Reply:
            try:
                step_id = Action.make("", ActionKind.PICK_STEP, game_id, ply, 0, PREFIX_MARK + move)
            except ValueError:
                return Reply.refuse(texts.NOT_MY_BUTTON)
            step = await self.manager.games.pick(user, chat, step_id.id)
            if isinstance(step, Reply):
                return step
            return await self.manager.games.preview(user, chat, move, game_id)

        reply, deferred = await self._soon(interaction, check_and_preview(), new=False)
        await self._show_preview(interaction, reply, deferred)

    async def _show_preview(
        self, interaction: discord.Interaction, reply: Reply, deferred: bool
    ) -> None:
        """A preview in place of the (private) picker; a refusal privately beside it."""
        if not reply.ok:
            await self._private_line(interaction, reply, deferred, new=False)
            return
        out = await self._compose(reply, user_of(interaction.user))
        edit = dict(out.fields)
        edit["attachments"] = [edit.pop("file")] if "file" in edit else []
        edit.setdefault("content", "")
        edit.setdefault("embed", None)
        edit.setdefault("view", None)
        if deferred:
            await interaction.edit_original_response(**edit)
        else:
            await interaction.response.edit_message(**edit)
