"""A manager's reply in Discord's terms, between composing it and sending it: the first
message's fields and the sections that follow (:class:`Outgoing`), and those fields as the edit
of another message (:func:`as_board_edit`) or of a deferred answer's placeholder
(:func:`as_edit`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Outgoing", "as_board_edit", "as_edit"]


@dataclass
class Outgoing:
    """A reply in Discord's terms: the first message's fields and the sections that follow;
    ``board`` is the game whose board it shows (remembered as the game's latest board when
    public), ``card`` the challenge whose card it is."""

    fields: dict[str, Any]
    rest: list[str]
    board: int | None
    card: int | None


def as_board_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A message's fields as the edit that turns another message into it (what the new
    message has not is removed: its picture, embed, buttons)."""
    edit = dict(fields)
    edit["attachments"] = [edit.pop("file")] if "file" in edit else []
    edit.setdefault("content", "")
    edit.setdefault("embed", None)
    edit.setdefault("view", None)
    return edit


def as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """A deferred answer's fields as the edit of its "thinking" placeholder.  Discord's Create
    Followup Message: after a deferral the first followup edits the placeholder only "for
    backwards compatibility"; the documented way is Edit Original Interaction Response
    (discord/discord-api-docs#7091).  Such an edit counts as no followup either (a user
    install's interaction allows 5, discord/discord-api-docs#6958)."""
    edit = dict(fields)
    edit["attachments"] = [edit.pop("file")] if "file" in edit else []
    return edit
