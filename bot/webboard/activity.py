"""The board inside Discord: a Discord Activity (issue 44).

Discord opens an Activity as an iframe of ``https://<app id>.discordsays.com/?instance_id=...``
and proxies it, through the app's URL mapping ``/`` → the bot's public host, to this board's
``/`` (Discord's Activities, "Development Guides": the URL of the application's html is the
``/`` route).  So:

- ``GET /`` is the Activity's page (:func:`~bot.webboard.page.activity_page`): the Embedded App
  SDK (``static/discord-sdk.js``, the npm package ``@discord/embedded-app-sdk`` built by
  ``docs/tools/discord_sdk/build.sh``) and ``static/activity.js``.  Its script asks Discord to
  authorize the app (``authorize``: an OAuth2 code), posts the code here, authenticates the
  SDK with the access token it gets back, then shows the board of the chosen game in place
  (the game's own page, with the player's personal link token, so the board plays exactly as
  the web board does).  Every address it uses is a path on the page's own origin (under an
  older proxy's ``/.proxy/`` prefix when the page was served there).
- ``POST /api/activity/session`` ``{"code": ..., "channel": ...}``: the code is exchanged at
  Discord's token endpoint (``<oauth_url>/oauth2/token``, the app's client id and secret),
  the person read from ``<oauth_url>/users/@me`` with that token, mapped to the player the
  Discord adapter knows (platform ``discord``, the user id; the name Discord shows), and
  answered with the access token and the person's games, each with its page and, where they
  play, their personal link token (:meth:`~bot.webboard.server.WebBoard.personal_link`): the
  game the person just opened with "Open board" first (:mod:`bot.sessions.launches`), then
  the games of this channel, the ones where it is their turn first.

The client secret and the tokens are never logged.  The page picks the SDK's own mock
(``DiscordSDKMock``) only when :attr:`ActivityConfig.sdk_mock` is set, which only tests do.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiohttp
from aiohttp import web

from bot.messages import User
from bot.sessions import texts
from bot.sessions.manager import SessionManager
from bot.webboard import page, proxies, speaking
from bot.webboard.auth import Identity
from bot.webboard.limits import Buckets

__all__ = [
    "FRAME_ANCESTORS",
    "ActivityConfig",
    "Board",
    "DiscordOAuth",
    "SignInRefused",
    "SignInUnavailable",
    "add_routes",
]

log = logging.getLogger(__name__)

#: Who may frame the Activity's page: Discord's clients (the web and desktop apps at
#: discord.com and its ptb/canary subdomains) and the Activity's own proxy origin.
FRAME_ANCESTORS = "'self' https://discord.com https://*.discord.com https://*.discordsays.com"
# Longest sign-in code read (Discord's are 30 characters).
_MAX_CODE = 200
_MAX_BODY = 1024
# The games listed on the page.
_GAMES = 25
# Discord's answers are awaited at most this long (seconds).
_TIMEOUT = 10.0


@dataclass(frozen=True)
class ActivityConfig:
    """The app's OAuth2 client (the Developer Portal's OAuth2 page) and where its token
    endpoint is; ``sdk_mock`` (tests only) makes the page use the SDK's ``DiscordSDKMock``;
    ``sign_in_rate`` limits the sign-ins per address."""

    client_id: str
    client_secret: str = field(repr=False)
    oauth_url: str = "https://discord.com/api/v10"
    sdk_mock: bool = False
    #: Sign-ins per second an address may start, and in a row (each costs two requests to
    #: Discord).
    sign_in_rate: tuple[float, int] = (0.2, 5)


class Board(Protocol):
    """What the Activity uses of the web board (:class:`~bot.webboard.server.WebBoard`)."""

    manager: SessionManager
    trusted_proxies: proxies.Networks

    async def link(self, game_id: int) -> str:
        """The address of game ``game_id``'s page."""
        ...

    async def personal_link(self, game_id: int, who: Identity | User) -> str:
        """``who``'s own link to game ``game_id``'s page (its token in the fragment)."""
        ...


class SignInRefused(Exception):
    """Discord refused the code or the token (used already, expired, another app's)."""


class SignInUnavailable(Exception):
    """Discord could not be reached, or answered what it never answers."""


class DiscordOAuth:
    """Discord's OAuth2 authorization-code exchange and ``/users/@me`` for one app."""

    def __init__(self, config: ActivityConfig) -> None:
        self.config = config

    async def sign_in(self, code: str) -> tuple[str, Identity]:
        """The access token ``code`` is worth and the person it speaks for;
        :class:`SignInRefused` or :class:`SignInUnavailable`."""
        base = self.config.oauth_url.rstrip("/")
        form = {
            "client_id": self.config.client_id,
            "client_secret": self.config.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        timeout = aiohttp.ClientTimeout(total=_TIMEOUT)
        try:
            async with aiohttp.ClientSession(timeout=timeout) as http:
                async with http.post(f"{base}/oauth2/token", data=form) as answer:
                    granted = await self._read(answer, "token")
                token = granted.get("access_token")
                if not isinstance(token, str) or not token:
                    raise SignInUnavailable("no access token in the token endpoint's answer")
                headers = {"Authorization": f"Bearer {token}"}
                async with http.get(f"{base}/users/@me", headers=headers) as answer:
                    user = await self._read(answer, "user")
        except (aiohttp.ClientError, TimeoutError) as exc:
            raise SignInUnavailable(type(exc).__name__) from None
        user_id, name = user.get("id"), user.get("global_name") or user.get("username")
        if not isinstance(user_id, str) or not user_id.isdigit():
            raise SignInUnavailable("no user id in /users/@me")
        said = user.get("locale")  # the user's chosen language (scope identify)
        language = said if isinstance(said, str) and len(said) <= 35 else None
        return token, Identity("discord", user_id, str(name or user_id)[:100], language)

    @staticmethod
    async def _read(answer: aiohttp.ClientResponse, what: str) -> dict[str, Any]:
        """The JSON object of a 200; the refusal (4xx) or failure it is otherwise."""
        try:
            body = await answer.json(content_type=None)
        except (ValueError, aiohttp.ContentTypeError):
            body = None
        if answer.status in (400, 401, 403):
            error = body.get("error") if isinstance(body, dict) else None
            log.info("Discord refused the Activity's %s request: %s %s", what, answer.status, error)
            raise SignInRefused(what)
        if answer.status != 200 or not isinstance(body, dict):
            raise SignInUnavailable(f"{what}: {answer.status}")
        return body


def _refusal(text: object, status: int) -> web.Response:
    body = json.dumps({"ok": False, "text": str(text)}, ensure_ascii=False)
    return web.json_response(text=body, status=status)


async def _body(request: web.Request) -> bytes:
    """The request's body, at most :data:`_MAX_BODY` bytes (read to its end, however the
    client split it); ``ValueError`` when it says or turns out to be longer."""
    if (request.content_length or 0) > _MAX_BODY:
        raise ValueError("body too long")
    body = bytearray()
    while chunk := await request.content.read(_MAX_BODY + 1 - len(body)):
        body += chunk
        if len(body) > _MAX_BODY:
            raise ValueError("body too long")
    return bytes(body)


def _code_of(raw: bytes) -> tuple[str, str]:
    """The code and channel id of a sign-in request's body; ``ValueError`` for any other."""
    body = json.loads(raw)
    if not isinstance(body, dict):
        raise ValueError("not an object")
    code, channel = body.get("code"), body.get("channel") or ""
    if not isinstance(code, str) or not 0 < len(code) <= _MAX_CODE or not code.isprintable():
        raise ValueError("no code")
    if not isinstance(channel, str) or len(channel) > 20 or (not channel.isdigit() and channel):
        raise ValueError("bad channel")
    return code, channel


class _Activity:
    """The Activity's routes on one web board."""

    def __init__(self, board: Board, config: ActivityConfig, csp: str) -> None:
        self.board = board
        self.config = config
        # Framed by Discord's clients, not Telegram's; everything else as on every page.
        self.csp = csp.split("frame-ancestors ", 1)[0] + "frame-ancestors " + FRAME_ANCESTORS
        self.oauth = DiscordOAuth(config)
        self._per_address = Buckets(*config.sign_in_rate)

    async def page(self, request: web.Request) -> web.Response:
        html = page.activity_page(self.config.client_id, mock=self.config.sdk_mock)
        return web.Response(
            text=html, content_type="text/html", headers={"Content-Security-Policy": self.csp}
        )

    async def session(self, request: web.Request) -> web.Response:
        address = proxies.client(
            request.remote or "",
            request.headers.get("X-Forwarded-For", ""),
            self.board.trusted_proxies,
        )
        if not self._per_address.take(address[:64], time.monotonic()):
            return _refusal(texts.activity_too_fast(), 429)
        try:
            code, channel = _code_of(await _body(request))
        except (ValueError, RecursionError):
            return _refusal(texts.activity_bad_request(), 400)
        try:
            access_token, who = await self.oauth.sign_in(code)
        except SignInRefused:
            return _refusal(texts.activity_code_refused(), 401)
        except SignInUnavailable as exc:
            log.warning("the Activity's sign-in failed: %s", exc)
            return _refusal(texts.activity_unavailable(), 502)
        await speaking.speak_to(self.board.manager, who)  # the list in the player's words
        games = await self._games(who, channel)
        answer = {
            "ok": True,
            "access_token": access_token,
            "user": {"id": who.user_id, "name": who.name},
            "games": games,
            "title": str(texts.activity_games()),
            "text": "" if games else str(texts.activity_no_games()),
        }
        return web.json_response(text=json.dumps(answer, ensure_ascii=False))

    async def _games(self, who: Identity, channel: str) -> list[dict[str, Any]]:
        """``who``'s games as the page lists them (see the module docstring)."""
        manager = self.board.manager
        user = User(who.platform, who.user_id, who.name)
        launched = manager.web.launched_game(user)
        games: list[dict[str, Any]] = []
        for choice in await manager.games.game_choices(user, "", _GAMES):
            path, token = await self._personal(choice.game_id, who)
            chat = await manager.games.game_chat(choice.game_id)
            games.append(
                {
                    "id": choice.game_id,
                    "label": choice.label,
                    "path": path,
                    "token": token,
                    "here": bool(channel) and chat == channel,
                    "your_turn": choice.your_turn,
                }
            )
        if launched is not None and all(g["id"] != launched for g in games):
            watched = await self._watched(launched)
            if watched is not None:
                games.append(watched)
        # Stable: within each group, the manager's order (their turn first, newest first).
        games.sort(key=lambda g: (g["id"] != launched, not g["here"]))
        return games

    async def _personal(self, game_id: int, who: Identity) -> tuple[str, str]:
        """The path of game ``game_id``'s page and ``who``'s token to move there."""
        link = urlsplit(await self.board.personal_link(game_id, who))
        return link.path, link.fragment.removeprefix("t=")

    async def _watched(self, game_id: int) -> dict[str, Any] | None:
        """A game opened by someone who does not play in it: its page, to watch."""
        view = await self.board.manager.web.web_view(game_id)
        if view is None:
            return None
        title = page.game_title(view.row.game)
        first, second = view.players[0].name, view.players[1].name
        return {
            "id": game_id,
            "label": str(texts.activity_game_label(game_id, title, first, second)),
            "path": urlsplit(await self.board.link(game_id)).path,
            "token": None,
            "here": False,
            "your_turn": False,
        }


def add_routes(
    application: web.Application, board: Board, config: ActivityConfig, csp: str
) -> None:
    """The Activity's page at ``/`` (with ``csp``, the board's policy, framed by Discord) and
    its sign-in at ``/api/activity/session``."""
    activity = _Activity(board, config, csp)
    application.router.add_get("/", activity.page)
    application.router.add_post("/api/activity/session", activity.session)
