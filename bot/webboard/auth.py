"""Who is asking, for the web board: a Telegram Mini App's ``initData`` or a personal link's
signed token.  Pure functions of their inputs and the time; every comparison of a signature is
constant-time (:func:`hmac.compare_digest`).

- **Telegram** (``Authorization: tma <initData>``): validated as Telegram documents it
  ("Validating data received via the Mini App", core.telegram.org/bots/webapps): the
  data-check-string is every received field but ``hash``, sorted by key, as ``key=value``
  lines joined by ``\\n``; the secret key is HMAC-SHA256 of the bot token keyed with
  ``"WebAppData"``; ``hash`` must be the hex HMAC-SHA256 of the data-check-string under that
  key; and ``auth_date`` may be at most :data:`INIT_DATA_MAX_AGE` old.
- **Discord and the console** (``Authorization: Bearer <token>``): a personal link's token,
  :func:`sign_link` / :func:`check_link`: the game, the player's platform and user id and an
  expiry, signed with HMAC-SHA256 under the process's link key (:func:`link_key`).

>>> from datetime import UTC, datetime
>>> now = datetime(2026, 1, 5, tzinfo=UTC)
>>> data = sign_init_data({"id": 7, "first_name": "Ada"}, "123:abc", now)
>>> check_init_data(data, "123:abc", now)
Identity(platform='telegram', user_id='7', name='Ada', language=None)
>>> key = link_key("secret")
>>> token = sign_link(key, 3, Identity("discord", "42", "Bo"), now + LINK_TTL)
>>> check_link(key, token, 3, now)
Identity(platform='discord', user_id='42', name='Bo', language=None)
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import parse_qsl, urlencode

from bot.sessions import texts

__all__ = [
    "INIT_DATA_MAX_AGE",
    "LINK_TTL",
    "AuthError",
    "Identity",
    "check_init_data",
    "check_link",
    "link_key",
    "sign_init_data",
    "sign_link",
]

#: How old a Mini App's ``initData`` may be (its ``auth_date``).
INIT_DATA_MAX_AGE = timedelta(hours=24)
#: How long a personal "Open board" link lets its player move.
LINK_TTL = timedelta(hours=1)
# Longest header value read (Telegram's initData is a few hundred bytes).
_MAX_LEN = 4096


class AuthError(ValueError):
    """Credentials that do not prove who is asking (the message says why, in one line)."""


@dataclass(frozen=True)
class Identity:
    """A person as the chat platforms know them: platform, user id, display name."""

    platform: str
    user_id: str
    name: str
    #: the language the platform says they use now (Telegram's ``user.language_code``)
    language: str | None = field(default=None, compare=False)


def _telegram_key(bot_token: str) -> bytes:
    return hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()


def _check_string(fields: Mapping[str, str]) -> bytes:
    return "\n".join(f"{k}={fields[k]}" for k in sorted(fields) if k != "hash").encode()


def check_init_data(
    init_data: str, bot_token: str, now: datetime, max_age: timedelta = INIT_DATA_MAX_AGE
) -> Identity:
    """The Telegram user a Mini App's ``initData`` was signed for (see the module docstring);
    :class:`AuthError` when it is not signed with ``bot_token``, too old, or has no user."""
    if not bot_token:
        raise AuthError(texts.web_sign_in_refused("not_set_up"))
    if len(init_data) > _MAX_LEN:
        raise AuthError(texts.web_sign_in_refused("too_long"))
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise AuthError(texts.web_sign_in_refused("unreadable")) from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise AuthError(texts.web_sign_in_refused("repeats"))
    expected = hmac.new(_telegram_key(bot_token), _check_string(fields), hashlib.sha256)
    if not hmac.compare_digest(expected.hexdigest(), fields.get("hash", "")):
        raise AuthError(texts.web_sign_in_refused("not_signed"))
    try:
        signed_at = datetime.fromtimestamp(int(fields.get("auth_date", "")), now.tzinfo)
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, TypeError, KeyError, OverflowError, OSError):
        raise AuthError(texts.web_sign_in_refused("no_user")) from None
    if now - signed_at > max_age:
        raise AuthError(texts.web_sign_in_refused("too_old"))
    name = " ".join(
        str(user.get(part) or "") for part in ("first_name", "last_name") if user.get(part)
    )
    said = user.get("language_code")
    language = said if isinstance(said, str) and len(said) <= 35 else None
    return Identity("telegram", str(user_id), name or str(user_id), language)


def sign_init_data(user: Mapping[str, Any], bot_token: str, signed_at: datetime) -> str:
    """``initData`` for ``user`` signed with ``bot_token`` at ``signed_at``, as Telegram makes
    it (tests and local tools; the bot itself only checks)."""
    fields = {
        "auth_date": str(int(signed_at.timestamp())),
        "query_id": "AAF" + str(int(signed_at.timestamp())),
        "user": json.dumps(dict(user), separators=(",", ":")),
    }
    digest = hmac.new(_telegram_key(bot_token), _check_string(fields), hashlib.sha256)
    return urlencode({**fields, "hash": digest.hexdigest()})


def link_key(secret: str) -> bytes:
    """The key personal links are signed with, from the operator's ``HEXHALL_WEB_SECRET``
    (or the chat tokens): the same on every process that shares ``secret``."""
    return hmac.new(b"hexhall web link", secret.encode(), hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign_link(key: bytes, game_id: int, who: Identity, expires: datetime) -> str:
    """A token letting ``who`` move in game ``game_id`` until ``expires``."""
    body = json.dumps(
        {
            "g": game_id,
            "p": who.platform,
            "u": who.user_id,
            "n": who.name,
            "e": int(expires.timestamp()),
        },
        separators=(",", ":"),
    ).encode()
    mac = hmac.new(key, body, hashlib.sha256).digest()
    return f"{_b64(body)}.{_b64(mac)}"


def check_link(key: bytes, token: str, game_id: int, now: datetime) -> Identity:
    """Who ``token`` speaks for in game ``game_id``; :class:`AuthError` when it is forged,
    for another game, or expired."""
    if len(token) > _MAX_LEN or token.count(".") != 1:
        raise AuthError(texts.web_sign_in_refused("not_mine"))
    body_text, mac_text = token.split(".")
    try:
        body, mac = _unb64(body_text), _unb64(mac_text)
    except ValueError:
        raise AuthError(texts.web_sign_in_refused("not_mine")) from None
    if not hmac.compare_digest(hmac.new(key, body, hashlib.sha256).digest(), mac):
        raise AuthError(texts.web_sign_in_refused("not_mine"))
    try:
        fields = json.loads(body)
        game, expires = int(fields["g"]), int(fields["e"])
        who = Identity(str(fields["p"]), str(fields["u"]), str(fields["n"]))
    except (ValueError, TypeError, KeyError):
        raise AuthError(texts.web_sign_in_refused("not_mine")) from None
    if game != game_id:
        raise AuthError(texts.web_sign_in_refused("other_game"))
    if now.timestamp() >= expires:
        raise AuthError(texts.web_sign_in_refused("expired"))
    return who
