"""The web board's plan API (issue 46): a signed-in player's conditional moves of the page's
game, read and prepared through the same session calls as the chat's ``premove``.

- ``GET /api/games/<slug>/premoves``: ``{"ok": true, "lines": [[theirs, yours, ...], ...],
  "text": ..., "labels": ...}``, the asker's own lines only (a spectator, or the opponent,
  gets theirs: none), and plan mode's labels.
- ``POST /api/games/<slug>/premoves`` with ``{"line": "c3 => c5; d4 => d5"}`` prepares a line
  (checked as in the chat: refused with the rule it breaks, ``409``), ``{"clear": true}``
  drops them.
- ``GET /api/games/<slug>/premoves/next?line=<moves so far>&prefix=<part typed>``: the board's
  tap-by-tap step in the position the line so far leads to, in ``/next``'s own format
  (:func:`~bot.webboard.steps.step`: ``choices``, ``complete``, ``move``, ``after``,
  ``selection`` ...) with ``line`` (the moves so far), ``frame`` (that position's cells) and
  plan mode's ``prompt``; ``409`` when the line so far is illegal (the rule), ``400`` for a
  prefix no legal move starts with, for a signed-in player of the game only.

Answers are for the asker alone: nothing here reaches the game's page, its events or the chat.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from aiohttp import web

from bot.messages import Chat, User
from bot.refusal import Refusal
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.sessions.premoves import ARROW, PAIRS, check_line
from bot.sessions.webview import GameView
from bot.webboard import auth, steps, view

__all__ = ["add_routes"]

#: The longest body a plan request may have (bytes), and the longest typed part of a move.
MAX_BODY = 4096
MAX_PREFIX = 200

Game = Callable[[web.Request], Awaitable[tuple[int, GameView]]]
Who = Callable[[web.Request, int], auth.Identity | None]


class Named(Protocol):
    """A stored player, as far as the plan API reads one."""

    @property
    def name(self) -> str:
        """Their name."""
        ...


Player = Callable[[auth.Identity | None], Awaitable[Named | None]]


def _json(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


def _shown(moves: list[str]) -> str:
    """A line's moves as the chat writes it: ``c3 => c5; d4``."""
    return "".join(
        ("" if i == 0 else f" {ARROW} " if i % 2 else f"{PAIRS} ") + m for i, m in enumerate(moves)
    )


def _so_far(text: str) -> list[str]:
    """The moves of a line typed so far (``c3 => c5; d4``), none for an empty one."""
    if not text.strip():
        return []
    return [m.strip() for pair in text[:MAX_BODY].split(PAIRS) for m in pair.split(ARROW)]


async def _asked_line(request: web.Request) -> str | None:
    """The line a plan request's body asks for (``clear`` to drop them); ``None`` when the
    body is not ``{"line": "..."}`` or ``{"clear": true}``."""
    try:
        if (request.content_length or 0) > MAX_BODY:
            raise ValueError("body too long")
        body = json.loads((await request.content.read(MAX_BODY + 1))[:MAX_BODY])
        if not isinstance(body, dict):
            raise ValueError("not an object")
        line = "clear" if body.get("clear") is True else body["line"]
        if not isinstance(line, str) or not line.strip():
            raise ValueError("no line")
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return line


def add_routes(
    router: web.UrlDispatcher,
    slug: str,
    manager: SessionManager,
    game: Game,
    who: Who,
    player: Player,
) -> None:
    """Add the plan API to ``router``: ``game``, ``who`` and ``player`` are the web board's
    own ways to find the page's game, the asker and their stored player."""

    async def asker(request: web.Request) -> tuple[int, GameView, User] | web.Response:
        gid, g = await game(request)
        try:
            identity = who(request, gid)
        except auth.AuthError as exc:
            return _json({"ok": False, "text": str(exc)}, 401)
        stored = await player(identity)
        if identity is None or stored is None:
            return _json({"ok": False, "text": str(texts.web_sign_in())}, 401)
        return gid, g, User(identity.platform, identity.user_id, stored.name)

    async def lines(request: web.Request) -> web.Response:
        found = await asker(request)
        if isinstance(found, web.Response):
            return found
        gid, _, user = found
        listed = await manager.games.premove_lines(user, gid)
        text = texts.premove_listing(gid, listed)
        return _json(
            {
                "ok": True,
                "lines": [list(line) for line in listed],
                "text": str(text),
                "labels": texts.plan_labels(),
            }
        )

    async def prepare(request: web.Request) -> web.Response:
        found = await asker(request)
        if isinstance(found, web.Response):
            return found
        gid, g, user = found
        line = await _asked_line(request)
        if line is None:
            return _json({"ok": False, "text": str(texts.premove_malformed())}, 400)
        chat = Chat(g.row.platform, g.row.chat_id)
        reply = await manager.games.premove(user, chat, gid, line)
        return _json({"ok": reply.ok, "text": str(reply.body)}, 200 if reply.ok else 409)

    async def step(request: web.Request) -> web.Response:
        found = await asker(request)
        if isinstance(found, web.Response):
            return found
        gid, g, _ = found
        prefix = request.query.get("prefix", "")[:MAX_PREFIX]
        try:
            played = check_line(gid, g.position, _so_far(request.query.get("line", "")))
        except Refusal as refusal:
            return _json({"ok": False, "text": str(refusal)}, 409)
        position = g.position
        for move in played:
            position = position.play(move)
        try:
            answer = steps.step(position, prefix, gid)
        except ValueError:
            return _json({"ok": False, "text": str(texts.web_no_such_start(prefix))}, 400)
        answer["prompt"] = str(texts.plan_prompt(_shown(list(played)), len(played) % 2 == 0))
        return _json({**answer, "ok": True, "line": list(played), "frame": view.frame(position)})

    router.add_get(f"/api/games/{slug}/premoves", lines)
    router.add_get(f"/api/games/{slug}/premoves/next", step)
    router.add_post(f"/api/games/{slug}/premoves", prepare)
