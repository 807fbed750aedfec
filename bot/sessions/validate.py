"""The manager's boundary: every argument of a public method checked before any of it is used.

Adapters are code too, and a buggy one sends ``rematch(game_id=2**70)``, ``game_id=[1]``,
``expected_ply="1"``, ``settings(name=5)``, a name holding a lone surrogate.  One mechanism
checks them all: :func:`checked_call` binds a call to the method's signature and checks each
argument against its type hint (with a range for numbers, a length for texts), so a new method
is covered by writing its hints.  A value that does not fit raises :class:`BadArgument` (the
manager's :func:`~bot.sessions.context.guard` answers with one line); nothing is stored.

Players get one more step: a :class:`~bot.messages.User` whose platform id is longer than
:data:`~bot.limits.NAME_LIMIT` is refused (no platform makes such ids), and its name is cut to
that length and made printable for display (:func:`player_name`), whoever supplied it.

>>> player_name("Ada\\ud800 Lovelace" + "x" * 40)
'Ada? Lovelacexxxxxxxxxxxxxxxxxx…'
"""

from __future__ import annotations

import functools
import inspect
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from bot.limits import ECHO_LIMIT, MAX_ID, MAX_PAGE, MAX_PLY, NAME_LIMIT, TEXT_LIMIT, cut
from bot.messages import Chat, Reply, Segment, Text, User
from bot.sessions import texts
from engines.base import shown

__all__ = [
    "REFUSAL_LIMIT",
    "BadArgument",
    "bounded",
    "check_chat",
    "check_text",
    "check_user",
    "checked_call",
    "cut_text",
    "player_name",
]


class BadArgument(ValueError):
    """An argument that does not fit its parameter; ``text`` is the one-line refusal."""

    def __init__(self, text: Text) -> None:
        super().__init__(str(text))
        self.text = text


#: Longest refusal in characters: one line, far below the smallest platform limit
#: (:data:`~bot.messages.MESSAGE_LIMITS`).
REFUSAL_LIMIT = 500

# Ranges of whole-number arguments by parameter name (any other int: 0..MAX_ID).
_RANGES: dict[str, tuple[int, int]] = {
    "game_id": (1, MAX_ID),
    "challenge_id": (1, MAX_ID),
    "expected_ply": (0, MAX_PLY),
    "page": (1, MAX_PAGE),
    # How many suggestions an autocomplete asks for (Discord shows 25 at most).
    "limit": (0, 100),
}
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


def player_name(name: str) -> str:
    """A display name as shown: printable (a lone surrogate or a control character becomes
    ``?``) and at most :data:`~bot.limits.NAME_LIMIT` characters (cut with ``…``)."""
    clean = "".join("?" if not ch.isprintable() or _has_surrogate(ch) else ch for ch in name)
    return cut(" ".join(clean.split()) or "?", NAME_LIMIT)


def check_text(value: object, name: str, limit: int = TEXT_LIMIT) -> str:
    """``value`` as a text argument: a ``str`` of at most ``limit`` characters that UTF-8 can
    store (no lone surrogate); :class:`BadArgument` otherwise."""
    if not isinstance(value, str):
        raise BadArgument(texts.bad_argument(name, "text"))
    if len(value) > limit:
        raise BadArgument(texts.bad_argument(name, f"at most {limit} characters"))
    if _has_surrogate(value):
        raise BadArgument(texts.bad_argument(name, "text without lone surrogates"))
    return value


def _platform_id(value: object, name: str) -> str:
    text = check_text(value, name, TEXT_LIMIT)
    if not text or not text.isprintable():
        raise BadArgument(texts.bad_argument(name, "a printable id"))
    if len(text) > NAME_LIMIT:
        raise BadArgument(texts.id_too_long(NAME_LIMIT))
    return text


def check_user(value: object, name: str = "user") -> User:
    """``value`` as a player: a :class:`User` with sane platform and user ids (refused if
    longer than :data:`~bot.limits.NAME_LIMIT`), its name made displayable."""
    if not isinstance(value, User):
        raise BadArgument(texts.bad_argument(name, "a user"))
    _platform_id(value.platform, f"{name}.platform")
    _platform_id(value.user_id, f"{name}.user_id")
    if not isinstance(value.name, str):
        raise BadArgument(texts.bad_argument(f"{name}.name", "text"))
    shown_name = player_name(value.name[: NAME_LIMIT * 4])
    return value if shown_name == value.name else replace(value, name=shown_name)


def check_chat(value: object, name: str = "chat") -> Chat:
    """``value`` as a chat: a :class:`Chat` whose ids are sane texts."""
    if not isinstance(value, Chat):
        raise BadArgument(texts.bad_argument(name, "a chat"))
    _chat_id(value.platform, f"{name}.platform")
    _chat_id(value.chat_id, f"{name}.chat_id")
    if value.community is not None:
        _chat_id(value.community, f"{name}.community")
    return value


def _chat_id(value: object, name: str) -> str:
    # Chat ids (channel, group, server) are platform numbers: bounded like user ids, twice.
    text = check_text(value, name, 2 * NAME_LIMIT)
    if not text or not text.isprintable():
        raise BadArgument(texts.bad_argument(name, "a printable id"))
    return text


def _whole(value: object, name: str) -> int:
    low, high = _RANGES.get(name, (0, MAX_ID))
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadArgument(texts.bad_argument(name, "a whole number"))
    if not low <= value <= high:
        if name in ("game_id", "challenge_id"):
            raise BadArgument(texts.no_such(name.removesuffix("_id"), shown(str(value))))
        raise BadArgument(texts.bad_argument(name, f"a whole number from {low} to {high}"))
    return value


def _number(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadArgument(texts.bad_argument(name, "a number"))
    if isinstance(value, int):
        return _whole(value, name)
    if not math.isfinite(value) or abs(value) > MAX_ID:
        raise BadArgument(texts.bad_argument(name, "a finite number"))
    return value


def _options(value: object, name: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise BadArgument(texts.bad_argument(name, "option names and values"))
    if len(value) > _MAX_OPTIONS:
        raise BadArgument(texts.bad_argument(name, f"at most {_MAX_OPTIONS} options"))
    for key, item in value.items():
        check_text(key, f"{name} name", _OPTION_LIMIT)
        if isinstance(item, str):
            check_text(item, f"{name} value", _OPTION_LIMIT)
        elif not isinstance(item, bool | int):
            raise BadArgument(texts.bad_argument(f"{name} value", "text or a whole number"))
        elif not isinstance(item, bool):
            _whole(item, f"{name} value")
    return value


# Checkers by the type a hint names (a union tries each of its members).
_CHECKERS: dict[object, Callable[[object, str], object]] = {
    User: check_user,
    Chat: check_chat,
    str: check_text,
    int: _whole,
    float: _number,
    Mapping: _options,
}


_NAMES: dict[object, str] = {
    User: "a user",
    Chat: "a chat",
    str: "text",
    int: "a whole number",
    float: "a number",
    bool: "yes or no (a bool)",
    Mapping: "option names and values",
    type(None): "nothing (None)",
}


def _matches(hint: object, value: object) -> bool:
    # Whether ``value`` is of the type ``hint`` names (a bool is not taken as a number).
    kind = typing.get_origin(hint) or hint
    if kind is bool:
        return isinstance(value, bool)
    if kind is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(kind, type) and isinstance(value, kind)


def _check(hint: object, value: object, name: str) -> object:
    if hint is Any or hint is object:
        return value
    origin = typing.get_origin(hint)
    members = typing.get_args(hint) if origin in (types.UnionType, typing.Union) else (hint,)
    for member in members:
        if _matches(member, value):
            kind = typing.get_origin(member) or member
            checker = _CHECKERS.get(kind)
            return value if checker is None else checker(value, name)
    expected = " or ".join(_NAMES.get(typing.get_origin(m) or m, "set") for m in members)
    raise BadArgument(texts.bad_argument(name, expected))


@functools.cache
def _signature(method: Callable[..., object]) -> tuple[inspect.Signature, dict[str, Any]]:
    return inspect.signature(method), typing.get_type_hints(method)


def checked_call(
    method: Callable[..., object], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """``args`` and ``kwargs`` of a call to ``method`` with every argument checked against
    its type hint (players' names made displayable); :class:`BadArgument` for one that does not
    fit or a call that does not fit the signature."""
    signature, hints = _signature(method)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as exc:
        raise BadArgument(texts.bad_argument("the call", shown(str(exc), 80))) from None
    for name, value in list(bound.arguments.items()):
        if name == "self" or name not in hints:
            continue
        bound.arguments[name] = _check(hints[name], value, name)
    return bound.args, bound.kwargs


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
