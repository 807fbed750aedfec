"""How any layer above the shared values answers with a one-line refusal: raise a
:class:`Refusal`.

The sessions raise it inside their operations (each service's
:func:`~bot.sessions.services.base.answer` turns it into a reply); the few pure helpers a surface
calls directly (a prepared line's check, a picker screen, a review) raise it too, so a surface
catches it from here, never from the sessions' own machinery (``tests/test_layers.py``).
"""

from __future__ import annotations

from bot.messages import Need, Text, TurnRefusal
from bot.outcomes import Refused

__all__ = ["Refusal"]


class Refusal(Exception):
    """A one-line refusal: its sentence ``text``; ``need`` says what the request lacked,
    when it did not name a game or challenge; ``code`` why the asker may not move now, when
    that is the refusal (see :mod:`~bot.sessions.turns`); ``refused`` the typed outcome (see
    :mod:`bot.outcomes`), when not just ``code``'s."""

    def __init__(
        self,
        text: Text | str,
        need: Need | None = None,
        code: TurnRefusal | None = None,
        refused: Refused | None = None,
    ) -> None:
        super().__init__(str(text))
        self.text = text if isinstance(text, Text) else Text.of(text)
        self.need = need
        self.code = code
        #: the typed outcome (see :mod:`bot.outcomes`), when not just ``code``'s
        self.refused = refused
