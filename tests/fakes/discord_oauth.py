"""A fake of Discord's OAuth2 token endpoint and ``/users/@me`` on 127.0.0.1, for the Discord
Activity's sign-in (:mod:`bot.webboard.activity`), under ``/api/v10`` as Discord serves them.

What it holds to, as Discord documents it (OAuth2, "Authorization Code Grant" and "Access
Token Exchange"; the token endpoint's metadata at ``/.well-known/oauth-authorization-server``):

- ``POST /oauth2/token`` takes ``application/x-www-form-urlencoded`` only, with
  ``grant_type=authorization_code`` and the code; the client authenticates with its id and
  secret in the form (``client_secret_post``) or HTTP Basic (``client_secret_basic``); a wrong
  client is ``401 {"error": "invalid_client"}``; an unknown, already used or expired code is
  ``400 {"error": "invalid_grant"}`` (a code is good once); another grant type is
  ``400 {"error": "unsupported_grant_type"}``.  The answer: ``access_token``, ``token_type``
  ``Bearer``, ``expires_in``, ``refresh_token``, ``scope``.
- ``GET /users/@me`` with ``Authorization: Bearer <access token>``: the user object (``id``,
  ``username``, ``global_name``, ...); anything else ``401 {"message": "401: Unauthorized",
  "code": 0}``.

A test issues codes (:meth:`FakeDiscordOAuth.issue`), as Discord's ``authorize`` would for a
person; every request is in ``calls`` (the client secret is never recorded).
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from urllib.parse import unquote

from aiohttp import web

from tests.fakes.base import FakeServer

__all__ = ["FakeDiscordOAuth", "OAuthUser"]

API_PREFIX = "/api/v10"


@dataclass(frozen=True)
class OAuthUser:
    """A Discord user as ``/users/@me`` shows them."""

    id: int
    username: str
    global_name: str | None = None
    #: the user's chosen language (Discord sends it with the ``identify`` scope)
    locale: str = "en-US"


class FakeDiscordOAuth(FakeServer):
    """The token endpoint of one app (``client_id``, ``client_secret``) and ``/users/@me``."""

    def __init__(self, client_id: str = "900000000000000001", client_secret: str = "s3cret"):
        super().__init__()
        self.client_id = client_id
        self.client_secret = client_secret
        self._codes: dict[str, OAuthUser] = {}
        self._tokens: dict[str, OAuthUser] = {}
        self.app.router.add_post(f"{API_PREFIX}/oauth2/token", self._token)
        self.app.router.add_get(f"{API_PREFIX}/users/@me", self._me)

    @property
    def api_base(self) -> str:
        """What the bot's OAuth base URL must be."""
        return f"{self.url}{API_PREFIX}"

    def issue(self, user: OAuthUser, code: str | None = None) -> str:
        """A fresh authorization code for ``user`` (or ``code`` itself), good once."""
        code = code or secrets.token_urlsafe(22)
        self._codes[code] = user
        return code

    def _client(self, request: web.Request, form: dict[str, str]) -> tuple[str, str]:
        header = request.headers.get("Authorization", "")
        if header.startswith("Basic "):
            try:
                pair = base64.b64decode(header[6:], validate=True).decode()
            except ValueError:
                return "", ""
            client_id, _, secret = pair.partition(":")
            return unquote(client_id), unquote(secret)
        return form.get("client_id", ""), form.get("client_secret", "")

    async def _token(self, request: web.Request) -> web.Response:
        if request.content_type != "application/x-www-form-urlencoded":
            self.record("oauth2/token", {"content_type": request.content_type}, response=400)
            return web.json_response({"error": "invalid_request"}, status=400)
        form = {k: str(v) for k, v in (await request.post()).items()}
        client_id, secret = self._client(request, form)
        seen = {k: v for k, v in form.items() if k != "client_secret"}
        if client_id != self.client_id or not secrets.compare_digest(secret, self.client_secret):
            self.record("oauth2/token", seen, response=401)
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            self.record("oauth2/token", seen, response=400)
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        user = self._codes.pop(form.get("code", ""), None)
        if user is None:
            self.record("oauth2/token", seen, response=400)
            return web.json_response(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'},
                status=400,
            )
        token = secrets.token_urlsafe(24)
        self._tokens[token] = user
        self.record("oauth2/token", seen, response=200)
        return web.json_response(
            {
                "access_token": token,
                "token_type": "Bearer",
                "expires_in": 604800,
                "refresh_token": secrets.token_urlsafe(24),
                "scope": "identify",
            }
        )

    async def _me(self, request: web.Request) -> web.Response:
        header = request.headers.get("Authorization", "")
        user = self._tokens.get(header[7:]) if header.startswith("Bearer ") else None
        if user is None:
            self.record("users/@me", {}, response=401)
            return web.json_response({"message": "401: Unauthorized", "code": 0}, status=401)
        self.record("users/@me", {"id": user.id}, response=200)
        return web.json_response(
            {
                "id": str(user.id),
                "username": user.username,
                "global_name": user.global_name,
                "locale": user.locale,
                "discriminator": "0",
                "avatar": None,
            }
        )
