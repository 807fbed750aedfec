"""The buttons of the bot's messages: each an :class:`ActionButton` over one of the manager's
compact action ids (see :mod:`bot.messages`), so a board's buttons keep working after a restart
(discord.py rebuilds a dynamic item from its custom id alone); coloured by what they do (red
for what gives something up, green for what goes on with a game)."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.adapters.discord.picker import PickerClient
from bot.core.i18n import gettext
from bot.messages import ACTION_PREFIX, Action, ActionKind

__all__ = ["ActionButton", "action_view"]

_DANGER = {
    ActionKind.DECLINE,
    ActionKind.CANCEL,
    ActionKind.RESIGN,
    ActionKind.RESIGN_CONFIRMED,
    ActionKind.MOVE_ANYWAY,
}
_SUCCESS = {
    ActionKind.ACCEPT,
    ActionKind.MOVE,
    ActionKind.DRAW_ACCEPT,
    ActionKind.TAKEBACK_ACCEPT,
    ActionKind.REMATCH,
}


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=rf"(?P<id>{ACTION_PREFIX}[^\n]{{1,95}})",
):
    """A button carrying a manager action id (see :mod:`bot.messages`); it works after a
    restart because discord.py rebuilds it from the custom id alone."""

    def __init__(self, action: Action) -> None:
        kind = action.kind
        style = (
            discord.ButtonStyle.primary
            if kind is ActionKind.PICK
            else discord.ButtonStyle.danger
            if kind in _DANGER
            else discord.ButtonStyle.success
            if kind in _SUCCESS
            else discord.ButtonStyle.secondary
        )
        super().__init__(
            discord.ui.Button(
                label=gettext(action.label)[:80] or "?", custom_id=action.id, style=style
            )
        )
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ActionButton:
        """The button again, from its custom id."""
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(Action(label or "", match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Hand the press to the bot (errors are answered by its ``report``)."""
        client = interaction.client
        if not isinstance(client, PickerClient):
            return
        try:
            await client.on_press(interaction, self.action.id)
        except Exception as error:
            await client.report(interaction, error)


def action_view(actions: tuple[Action, ...]) -> discord.ui.View | None:
    """A view of buttons for ``actions`` (five to a row, at most five rows; one button per
    action id), or ``None``."""
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    seen: set[str] = set()
    for action in actions:
        # Discord wants custom ids unique in a message: of two buttons doing the same (the
        # position browser's "next" that is also the "last"), the first stays.
        if action.id in seen or len(seen) == 25:
            continue
        seen.add(action.id)
        view.add_item(ActionButton(action))
    return view
