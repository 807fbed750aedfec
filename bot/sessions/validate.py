"""Values checked where they enter the sessions: each service method
(:mod:`bot.sessions.services`) checks the values a surface passes it by calling these (no
runtime checker reads its hints: the types are mypy's, strict).

Numbers and ids a person typed or tapped are range-checked where they are parsed (typed
commands, :func:`~bot.messages.parse_action`, the web board's routes); what is checked here is
what no type says: a text's length and encoding, a number's range, a game's options' size, a
platform user's ids and display name.  A value that does not fit raises
:class:`~bot.sessions.context.Refusal` (the service answers with one line); nothing is stored.

Players get one more step where they are stored (:func:`sane_user`): a platform id longer
than :data:`~bot.limits.NAME_LIMIT` is refused (no platform makes such ids).

>>> whole(7, "page", 1, 9)
7
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from bot.limits import ECHO_LIMIT, MAX_ID, NAME_LIMIT, TEXT_LIMIT
from bot.messages import Reply, Segment, Text, User
from bot.sessions import texts
from bot.sessions.context import Refusal, checked_id

__all__ = [
    "REFUSAL_LIMIT",
    "bounded",
    "cut_text",
    "finite",
    "game_options",
    "said",
    "sane_user",
    "some_id",
    "whole",
]

#: Longest refusal in characters: one line, far below the smallest platform limit
#: (:data:`~bot.messages.MESSAGE_LIMITS`).
REFUSAL_LIMIT = 500

# Most options a game takes, and the longest option name or value (no game has a longer one,
# so a refusal that quotes one stays short).
_MAX_OPTIONS = 16
_OPTION_LIMIT = ECHO_LIMIT


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def said(value: str, name: str, limit: int = TEXT_LIMIT) -> str:
    """``value``, a text a surface passed on: at most ``limit`` characters that UTF-8 can
    store (no lone surrogate); :class:`Refusal` otherwise."""
    if len(value) > limit:
        raise Refusal(texts.bad_argument(name, f"at most {limit} characters"))
    if _has_surrogate(value):
        raise Refusal(texts.bad_argument(name, "text without lone surrogates"))
    return value


def some_id(value: int | None, what: str) -> int | None:
    """``value``, a game's (``what`` is ``"game"``), a challenge's or a tournament's id when
    given, as :func:`~bot.sessions.context.checked_id` checks it: "there is no such" for one
    out of range."""
    return None if value is None else checked_id(value, what)


def whole(value: int, name: str, low: int = 0, high: int = MAX_ID) -> int:
    """``value`` if ``low <= value <= high``; :class:`Refusal` otherwise."""
    if not low <= value <= high:
        raise Refusal(texts.bad_argument(name, f"a whole number from {low} to {high}"))
    return value


def finite(value: float, name: str) -> float:
    """``value``, a finite number no larger than :data:`~bot.limits.MAX_ID` either way."""
    if isinstance(value, int):
        return whole(value, name)
    if not math.isfinite(value) or abs(value) > MAX_ID:
        raise Refusal(texts.bad_argument(name, "a finite number"))
    return value


def game_options(value: Mapping[str, object] | None, name: str = "options") -> dict[str, object]:
    """A game's options as a surface passed them: at most a few, each name and text value
    short, each number in range (which options a game takes is the engine's to say)."""
    if value is None:
        return {}
    if len(value) > _MAX_OPTIONS:
        raise Refusal(texts.bad_argument(name, f"at most {_MAX_OPTIONS} options"))
    for key, item in value.items():
        said(key, f"{name} name", _OPTION_LIMIT)
        if isinstance(item, str):
            said(item, f"{name} value", _OPTION_LIMIT)
        elif isinstance(item, int) and not isinstance(item, bool):
            whole(item, f"{name} value")
        elif not isinstance(item, bool):
            raise Refusal(texts.bad_argument(f"{name} value", "text or a whole number"))
    return dict(value)


def _platform_id(value: str, name: str, limit: int) -> str:
    said(value, name)
    if not value or not value.isprintable():
        raise Refusal(texts.bad_argument(name, "a printable id"))
    if len(value) > limit:
        raise Refusal(texts.id_too_long(NAME_LIMIT))
    return value


def sane_user(user: User) -> User:
    """``user`` as a player may be stored: sane platform and user ids (refused if longer than
    :data:`~bot.limits.NAME_LIMIT`; the name is made displayable where a
    :class:`~bot.messages.User` is made, :func:`bot.limits.display_name`)."""
    _platform_id(user.platform, "user.platform", NAME_LIMIT)
    _platform_id(user.user_id, "user.user_id", NAME_LIMIT)
    return user


def cut_text(text: Text, limit: int) -> Text:
    """``text`` with at most ``limit`` characters (plain form); a cut one ends in ``…``."""
    if len(str(text)) <= limit:
        return text
    out: list[Segment] = []
    room = limit - 1
    for segment in text.segments:
        plain = str(segment)
        if len(plain) > room:
            out.append(plain[:room])
            break
        out.append(segment)
        room -= len(plain)
    return Text.of(*out, "…")


def bounded(reply: Reply) -> Reply:
    """``reply`` with a refusal no longer than :data:`REFUSAL_LIMIT` (a net under the cut
    echoes: whatever a refusal quotes, it stays one short line)."""
    if reply.ok or len(reply.text) <= REFUSAL_LIMIT:
        return reply
    return replace(reply, body=cut_text(reply.body, REFUSAL_LIMIT))
