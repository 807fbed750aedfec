"""The words on buttons: each label is written where its button is made (the sessions'
:class:`~bot.messages.Action`, in English, the id carrying its meaning) and said in the reader's
language where the button is drawn (:func:`label`, by each surface).

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.core import i18n
from bot.sessions.texts.base import N_

#: Every button label the sessions make, for the catalogs (the constants in the other modules
#: are marked where they are written).
LABELS = (
    N_("Accept"), N_("Cancel"), N_("Decline"), N_("Play it anyway"), N_("Offer draw"),
    N_("Board"), N_("Yes, resign"), N_("Resign"), N_("Rematch"), N_("Refuse takeback"),
    N_("Play"), N_("Play it"), N_("Move"), N_("Leave"), N_("Join"), N_("History"),
    N_("Describe"), N_("Decline draw"), N_("Allow takeback"), N_("Accept draw"),
)  # fmt: skip


def label(text: str) -> str:
    """A button's label in the language in use (a move, a cell: itself)."""
    return i18n.gettext(text)
