"""What a challenge's card becomes once the challenge is answered, in Discord's fields: every
copy other than the one that became the game's board says the answer (accepted: where the game
stands, with a Board button answered privately to whoever presses it; declined, cancelled,
expired: the answer alone), with Accept / Decline gone."""

from __future__ import annotations

from typing import Any

from bot.adapters.discord.buttons import action_view
from bot.adapters.discord.format import TEXT_LIMIT, markdown, mentions_only
from bot.messages import ActionKind, Reply
from bot.sessions import texts

__all__ = ["closed_fields", "copy_fields"]


def closed_fields(reply: Reply) -> dict[str, Any]:
    """A card edited to ``reply``'s words alone: no embed, picture or buttons, pinging no one
    (an edit never pings anyway)."""
    return {
        "content": markdown(reply.body)[:TEXT_LIMIT],
        "embed": None,
        "attachments": [],
        "view": None,
        "allowed_mentions": mentions_only(),
    }


def copy_fields(reply: Reply) -> dict[str, Any]:
    """Another copy of a card answered by ``reply``: its words; once accepted (``reply``
    names the game), where the game stands and a Board button."""
    fields = closed_fields(reply)
    board = next((a for a in reply.actions if a.kind is ActionKind.BOARD), None)
    if reply.game_id is not None:
        begun = f"{markdown(reply.body)}\n{markdown(texts.game_begun(reply.game_id))}"
        fields["content"] = begun[:TEXT_LIMIT]
        fields["view"] = None if board is None else action_view((board,))
    return fields
