"""The move picker in Discord's form: a live board's Move button opens, for the presser only (an
ephemeral message), the steps of :mod:`bot.sessions.picker` as select menus, ending in the
move's preview with Play it / Cancel (:mod:`bot.sessions.preview`).

Discord's limits (its component reference, seen with the docs search: a string select holds
at most 25 options, each label and value at most 100 characters; a custom id at most 100
characters; at most 5 action rows, and a row with a select holds nothing else): a step's
parts (at most :data:`~bot.sessions.picker.PAGE_SIZE`, 48) go 25 to a menu, so two menus
and one row of buttons (Preview, the page buttons, Back, Cancel: at most 5) fit a message.

Every custom id carries its whole meaning, so a picker still works after a restart:

* a menu is ``hxp:<row>:<game>:<ply>``; each option's value is the step's own action id
  (``pp:<game>:<ply>:<page>:=<prefix>``, at most 64 bytes), handed to the bot as a press
  (a part that ends the move is the step of the whole move, whose preview follows);
* the preview button is ``hxv:<game>:<ply>:<move>``: the board after ``move``, if the game is
  still at ``ply``;
* the other buttons are the picker's own actions (``pp:...``, ``pc:<game>``).

>>> PREVIEW_TEMPLATE.fullmatch("hxv:12:3:b1>b2 a1-b2")["move"]
'b1>b2 a1-b2'
>>> [len(chunk) for chunk in menus_of(tuple(range(48)))]
[25, 23]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import discord

from bot.messages import Action, ActionKind
from bot.sessions import texts
from bot.sessions.picker import PREFIX_MARK, Picker

__all__ = [
    "MENU_SIZE",
    "MENU_TEMPLATE",
    "PREVIEW_TEMPLATE",
    "PickMenu",
    "PreviewButton",
    "menus_of",
    "picker_view",
]

#: Options in one select menu (Discord: at most 25).
MENU_SIZE = 25
#: A picker menu's custom id.
MENU_TEMPLATE = re.compile(r"hxp:(?P<row>[0-9]):(?P<game>[0-9]{1,16}):(?P<ply>[0-9]{1,7})")
#: The preview button's custom id (a move holds no line break; the id stays under 100).
PREVIEW_TEMPLATE = re.compile(
    r"hxv:(?P<game>[0-9]{1,16}):(?P<ply>[0-9]{1,7}):(?P<move>[^\n]{1,70})"
)

T = TypeVar("T")


@runtime_checkable
class PickerClient(Protocol):
    """What the picker's components call on the client (the Hexhall bot)."""

    async def on_press(self, interaction: discord.Interaction, action_id: str) -> None:
        """A press of an action id."""

    async def on_preview(
        self, interaction: discord.Interaction, game_id: int, ply: int, move: str
    ) -> None:
        """The preview of ``move`` in game ``game_id`` at ``ply``."""

    async def report(self, interaction: discord.Interaction, error: BaseException) -> None:
        """Log and answer an error."""


def menus_of(parts: Sequence[T]) -> list[Sequence[T]]:
    """``parts`` cut into menus of at most :data:`MENU_SIZE`."""
    return [parts[i : i + MENU_SIZE] for i in range(0, len(parts), MENU_SIZE)]


class PickMenu(
    discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
    template=MENU_TEMPLATE.pattern,
):
    """A select menu of one picker step's parts (see the module docstring)."""

    def __init__(self, row: int, game_id: int, ply: int, parts: Sequence[Action]) -> None:
        labels = [a.label for a in parts]
        options = [
            discord.SelectOption(label=(a.label or "?")[:100], value=a.id) for a in parts
        ] or [discord.SelectOption(label="?", value="?")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"hxp:{row}:{game_id}:{ply}",
                placeholder=texts.choose_part(labels[0], labels[-1])[:150] if labels else None,
                options=options,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PickMenu:
        """The menu again, from its custom id (its options are not needed: the chosen value
        is the step's action id)."""
        return cls(int(match["row"]), int(match["game"]), int(match["ply"]), ())

    async def callback(self, interaction: discord.Interaction) -> None:
        """The chosen part: its step, as a press of the step's action id."""
        client = interaction.client
        if not isinstance(client, PickerClient):
            return
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        chosen = values[0] if isinstance(values, list) and values else ""
        # Only a picker step may come from a picker menu: anything else is answered as a
        # button that is not ours (an empty id), never acted on.
        step = chosen if isinstance(chosen, str) else ""
        if Action("", step).kind is not ActionKind.PICK_STEP:
            step = ""
        try:
            await client.on_press(interaction, step)
        except Exception as error:
            await client.report(interaction, error)


class PreviewButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=PREVIEW_TEMPLATE.pattern,
):
    """The picker's last step: the board after the chosen move, with Play it / Cancel."""

    def __init__(self, game_id: int, ply: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=texts.preview_label(move),
                custom_id=f"hxv:{game_id}:{ply}:{move}",
                style=discord.ButtonStyle.success,
            )
        )
        self.game_id, self.ply, self.move = game_id, ply, move

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> PreviewButton:
        """The button again, from its custom id."""
        return cls(int(match["game"]), int(match["ply"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        """Show the preview (errors are answered by the client's ``report``)."""
        client = interaction.client
        if not isinstance(client, PickerClient):
            return
        try:
            await client.on_preview(interaction, self.game_id, self.ply, self.move)
        except Exception as error:
            await client.report(interaction, error)


def _as_step(step: Picker, play: Action) -> Action:
    """A part that plays a whole move (``mv:<game>:<ply>:<move>``) as the picker's step of
    that move (its preview follows, see :meth:`~bot.adapters.discord.adapter.DiscordBot._pick`)."""
    move = PREFIX_MARK + play.id.split(":", 3)[3]
    return Action.make(play.label, ActionKind.PICK_STEP, step.game_id, step.ply, 0, move)


def picker_view(step: Picker, button: Callable[[Action], discord.ui.Item[Any]]) -> discord.ui.View:
    """The components of one picker step: menus of its parts, then its controls as buttons
    (``button`` makes one for an action; the picker's "Play" becomes the preview button)."""
    view = discord.ui.View(timeout=None)
    # A part that ends the move plays it at once in the session's picker; here it is one more
    # step (the whole move), which shows its preview with Play it / Cancel instead.
    parts = tuple(_as_step(step, a) if a.kind is ActionKind.MOVE else a for a in step.parts)
    for row, chunk in enumerate(menus_of(parts)):
        view.add_item(PickMenu(row, step.game_id, step.ply, chunk))
    row = len(view.children)
    for action in step.controls:
        item: discord.ui.Item[Any]
        if action.kind is ActionKind.MOVE:
            item = PreviewButton(step.game_id, step.ply, step.prefix)
        else:
            item = button(action)
        item.row = row
        view.add_item(item)
    return view
