"""Buttons: what each one does and the compact id that carries its whole meaning.

An action's ``id`` is at most 64 bytes (Telegram's callback-data limit) and holds everything
the manager needs to resolve it after a restart, e.g. ``acc:17`` (accept challenge 17) or
``mv:42:3:e5`` (play e5 in game 42 at ply 3).  It is parsed once, here, into typed fields
(:func:`parse_action`, :attr:`Action.kind`); nobody else splits one.  Re-exported by
:mod:`bot.messages`, where the values the manager answers with live.

>>> Action.make("Accept", ActionKind.ACCEPT, 17).id
'acc:17'
>>> parse_action("mv:42:3:c1>e6 a4-b4")
(<ActionKind.MOVE: 'mv'>, ['42', '3', 'c1>e6 a4-b4'])
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from bot.limits import MAX_ID, MAX_PAGE, MAX_PLY, ascii_number

__all__ = [
    "ACTION_FIELDS",
    "ACTION_ID_LIMIT",
    "ACTION_PREFIX",
    "Action",
    "ActionKind",
    "parse_action",
]

#: Longest action id in bytes (Telegram's callback_data limit).
ACTION_ID_LIMIT = 64


class ActionKind(enum.StrEnum):
    """What a button does: its value is the wire code an action id starts with (buttons
    already posted carry these codes, so they never change), :attr:`fields` how many
    ``':'``-separated fields follow it (the last may hold ``':'``-free text with spaces: a
    move), :attr:`numbers` the largest value of each leading numeric field (every kind's
    first field is a game or challenge id).

    >>> ActionKind("mv"), ActionKind.MOVE.fields, ActionKind.PICK_STEP.numbers
    (<ActionKind.MOVE: 'mv'>, 3, (9007199254740991, 100000, 1000000))
    """

    #: ``acc:<challenge>`` accept
    ACCEPT = "acc"
    #: ``dec:<challenge>`` decline
    DECLINE = "dec"
    #: ``can:<challenge>`` cancel
    CANCEL = "can"
    #: ``bd:<game>`` board
    BOARD = "bd"
    #: ``hi:<game>`` history
    HISTORY = "hi"
    #: ``rs:<game>`` ask to confirm resigning
    RESIGN = "rs"
    #: ``rsy:<game>:<player>:<until>`` resign, confirmed: only by the player whose question it
    #: is (their player id), until the Unix time ``until`` (the question is short-lived)
    RESIGN_CONFIRMED = "rsy"
    #: ``mv:<game>:<ply>:<move>`` move
    MOVE = "mv"
    #: ``mvy:<game>:<ply>:<move>`` play a move that loses, after the warning
    MOVE_ANYWAY = "mvy"
    #: ``dra:<game>`` accept the draw offer
    DRAW_ACCEPT = "dra"
    #: ``drd:<game>`` decline the draw offer
    DRAW_DECLINE = "drd"
    #: ``tba:<game>`` accept the takeback request
    TAKEBACK_ACCEPT = "tba"
    #: ``tbd:<game>`` decline the takeback request
    TAKEBACK_DECLINE = "tbd"
    #: ``rm:<game>`` ask for a rematch of a finished game
    REMATCH = "rm"
    #: ``pk:<game>`` open the move picker at the current ply
    PICK = "pk"
    #: ``pp:<game>:<ply>:<page>:=<prefix>`` a step of the move picker
    PICK_STEP = "pp"
    #: ``pc:<game>`` close the move picker
    PICK_CLOSE = "pc"
    #: ``dro:<game>`` offer a draw
    OFFER_DRAW = "dro"
    #: ``ds:<game>`` describe the board in words
    DESCRIBE = "ds"
    #: ``pvc:<game>`` cancel a move preview (nothing was stored)
    PREVIEW_CANCEL = "pvc"
    #: ``br:<game>:<ply>`` the position after <ply> moves, with first/previous/next/last
    BROWSE = "br"
    #: ``bro:<game>`` "Step through" under a move list: the browser from the game's start, in a
    #: message of its own (the list stays)
    BROWSE_OPEN = "bro"
    #: ``tj:<tournament>`` sign up for a tournament
    TOURNAMENT_JOIN = "tj"
    #: ``tl:<tournament>`` leave a tournament
    TOURNAMENT_LEAVE = "tl"
    #: ``wb:<game>`` the presser's own link to the game's web page (answered privately)
    WEB_BOARD = "wb"
    #: ``qx:<game>:<player>`` put away a question asked of that player (nothing changes)
    QUESTION_CLOSE = "qx"
    #: ``tly:<tournament>:<player>:<until>`` leave a tournament, confirmed: only by the player
    #: whose question it is, until the Unix time ``until`` (issue 45)
    TOURNAMENT_LEAVE_CONFIRMED = "tly"

    @property
    def fields(self) -> int:
        """How many fields follow the kind in an id."""
        return _FIELDS.get(self, 1)

    @property
    def browses(self) -> bool:
        """A step of the position browser, or the button that opens one."""
        return self in (ActionKind.BROWSE, ActionKind.BROWSE_OPEN)

    @property
    def numbers(self) -> tuple[int, ...]:
        """The largest value of each leading numeric field (range-checked by
        :func:`parse_action`, so nothing after it converts an unchecked number)."""
        return _NUMBERS.get(self, (MAX_ID,))

    @property
    def on_card(self) -> bool:
        """Whether this kind answers a challenge on its card."""
        return self in (ActionKind.ACCEPT, ActionKind.DECLINE, ActionKind.CANCEL)

    @property
    def updates_card(self) -> bool:
        """Whether this kind changes the sign-up card it is pressed on (the card is edited in
        place to the answer, buttons and all)."""
        return self in (ActionKind.TOURNAMENT_JOIN, ActionKind.TOURNAMENT_LEAVE)

    @property
    def plays(self) -> bool:
        """Whether this kind plays a move."""
        return self in (ActionKind.MOVE, ActionKind.MOVE_ANYWAY)

    @property
    def confirms(self) -> bool:
        """Whether this kind says yes to a question asked of one player (resigning, a move
        that loses): its id names whose question it is (a player, or the ply whose player is
        to move), so nobody else's press can count."""
        return self in (ActionKind.RESIGN_CONFIRMED, ActionKind.MOVE_ANYWAY)


_FIELDS: dict[ActionKind, int] = {
    ActionKind.RESIGN_CONFIRMED: 3,
    ActionKind.QUESTION_CLOSE: 2,
    ActionKind.MOVE: 3,
    ActionKind.MOVE_ANYWAY: 3,
    ActionKind.PICK_STEP: 4,
    ActionKind.BROWSE: 2,
    ActionKind.TOURNAMENT_LEAVE_CONFIRMED: 3,
}
_NUMBERS: dict[ActionKind, tuple[int, ...]] = {
    ActionKind.RESIGN_CONFIRMED: (MAX_ID, MAX_ID, MAX_ID),
    ActionKind.QUESTION_CLOSE: (MAX_ID, MAX_ID),
    ActionKind.MOVE: (MAX_ID, MAX_PLY),
    ActionKind.MOVE_ANYWAY: (MAX_ID, MAX_PLY),
    ActionKind.PICK_STEP: (MAX_ID, MAX_PLY, MAX_PAGE),
    ActionKind.TOURNAMENT_LEAVE_CONFIRMED: (MAX_ID, MAX_ID, MAX_ID),
}

#: How many fields each action kind's id takes after its code (from :class:`ActionKind`).
ACTION_FIELDS: dict[str, int] = {kind.value: kind.fields for kind in ActionKind}

#: A regular expression for the start of every action id: a kind's code and ``':'``.
ACTION_PREFIX = "(?:" + "|".join(sorted(ACTION_FIELDS, key=len, reverse=True)) + "):"


@dataclass(frozen=True)
class Action:
    """A button: its label and the compact id the manager resolves with ``press``.

    :attr:`kind`, :attr:`fields` and :attr:`subject` read the id (``None`` / empty for an id
    we did not make), so nobody outside this module splits one.

    >>> a = Action.make("Play", ActionKind.MOVE, 3, 8, "e5")
    >>> a.kind, a.subject, a.fields
    (<ActionKind.MOVE: 'mv'>, 3, ('3', '8', 'e5'))
    """

    label: str
    id: str

    @classmethod
    def make(cls, label: str, kind: ActionKind | str, *fields: object) -> Action:
        """Build an action id from its kind (or the kind's wire code) and fields; raises
        ``ValueError`` for a kind we do not have, the wrong number of fields, an id longer than
        :data:`ACTION_ID_LIMIT` bytes or a field holding ``':'``."""
        parts = [str(f) for f in fields]
        try:
            kind = ActionKind(kind)
        except ValueError:
            raise ValueError(f"bad action {kind!r} with {len(parts)} fields") from None
        if len(parts) != kind.fields:
            raise ValueError(f"bad action {kind!r} with {len(parts)} fields")
        if any(":" in p for p in parts[:-1]) or ":" in parts[-1]:
            raise ValueError("action fields may not contain ':'")
        action_id = ":".join([kind.value, *parts])
        if len(action_id.encode()) > ACTION_ID_LIMIT:
            raise ValueError(f"action id longer than {ACTION_ID_LIMIT} bytes")
        return cls(label, action_id)

    @property
    def kind(self) -> ActionKind | None:
        """What the button does (``None``: not an id we made)."""
        parsed = parse_action(self.id)
        return None if parsed is None else parsed[0]

    @property
    def fields(self) -> tuple[str, ...]:
        """The id's fields after its kind (empty: not an id we made)."""
        parsed = parse_action(self.id)
        return () if parsed is None else tuple(parsed[1])

    @property
    def subject(self) -> int | None:
        """The game or challenge the button is about: its id's first field."""
        parsed = parse_action(self.id)
        return None if parsed is None else int(parsed[1][0])


def parse_action(action_id: str) -> tuple[ActionKind, list[str]] | None:
    """Split an action id into its kind and fields, or ``None`` if it is not one we made.

    Every numeric field is ASCII digits within its range (ids ``1..MAX_ID``, plies up to
    ``MAX_PLY``, picker pages up to ``MAX_PAGE``: see :mod:`bot.limits`), so the fields of a
    parsed id convert with ``int()`` safely.

    >>> parse_action("rm:99999999999999999999") is None, parse_action("mvy:1:\u00b2:e5") is None
    (True, True)
    """
    if not isinstance(action_id, str):
        return None
    try:
        size = len(action_id.encode())
    except UnicodeEncodeError:  # a lone surrogate: no button of ours holds one
        return None
    if size > ACTION_ID_LIMIT:
        return None
    code, _, rest = action_id.partition(":")
    try:
        kind = ActionKind(code)
    except ValueError:
        return None
    if not rest:
        return None
    fields = rest.split(":", kind.fields - 1)
    if len(fields) != kind.fields or not all(fields):
        return None
    for i, high in enumerate(kind.numbers):
        if ascii_number(fields[i], high, low=0 if i else 1) is None:
            return None
    return kind, fields
