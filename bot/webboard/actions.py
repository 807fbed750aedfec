"""The page's resign, draw and takeback (issue 44): the request's body read strictly, the
session manager's own commands run (the same checks and commits as the chat's ``/resign``,
``/draw`` and ``/takeback``, then the answer told in the game's chat:
:mod:`bot.sessions.pageactions`), and what the page says of a standing offer.

>>> parse(b'{"action": "draw", "answer": "accept"}')
Asked(action='draw', answer='accept', confirm=False)
>>> parse(b'{"action": "draw", "answer": "maybe"}')
Traceback (most recent call last):
ValueError: draw maybe
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.messages import Chat, Reply, User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.pageactions import ACTIONS

__all__ = ["Asked", "offer_text", "parse", "run"]


@dataclass(frozen=True)
class Asked:
    """An action the page asks for: ``action``, its ``answer`` (``""``: the first asking) and
    ``confirm`` (a resignation the player has confirmed)."""

    action: str
    answer: str
    confirm: bool


def parse(body: bytes) -> Asked:
    """The action a body asks for; ``ValueError`` (``RecursionError`` for a deeply nested
    one) for anything but ``{"action": ..., "answer": ..., "confirm": ...}``."""
    data = json.loads(body)
    if not isinstance(data, dict):
        raise ValueError("not an object")
    action, answer = data.get("action"), data.get("answer", "")
    confirm = data.get("confirm", False)
    if not isinstance(action, str) or not isinstance(answer, str):
        raise ValueError("not text")
    if action not in ACTIONS or answer not in ACTIONS[action]:
        raise ValueError(f"{action} {answer}")
    if not isinstance(confirm, bool):
        raise ValueError("confirm")
    return Asked(action, answer, confirm)


async def run(manager: SessionManager, user: User, chat: Chat, gid: int, asked: Asked) -> Reply:
    """Runs ``asked`` for ``user`` in game ``gid`` of ``chat`` through the session manager
    (which tells the game's chat too)."""
    return await manager.web.page_action(user, chat, gid, asked.action, asked.answer, asked.confirm)


def offer_text(draw: int | None, takeback: int | None, sides: tuple[str, ...]) -> str:
    """What the page says of a standing draw offer or takeback request (by the seat)."""
    said = []
    if draw is not None:
        said.append(str(texts.web_draw_offered(sides[draw])))
    if takeback is not None:
        said.append(str(texts.web_takeback_asked(sides[takeback])))
    return " ".join(said)
