"""The web board page's words (issue 44): the move builder's prompts and the labels of the
page's controls, sent to the page by the JSON API so that its script holds no sentence.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import _t
from bot.sessions.texts.questions import NOT_NOW, YES_RESIGN

#: The labels of the page's controls, by the key the page's script knows them by.
BOARD_LABELS: dict[str, str] = {
    "flip": "Turn board",
    "zoom_in": "Zoom in",
    "zoom_out": "Zoom out",
    "typed": "Type a move",
    "typed_send": "Play typed",
    "resign": "Resign",
    "draw": "Offer a draw",
    "draw_accept": "Accept the draw",
    "draw_decline": "Decline the draw",
    "takeback": "Ask to take back",
    "takeback_accept": "Allow the takeback",
    "takeback_decline": "Refuse the takeback",
    "next_turn": "Next game where it is your turn",
    "resign_sure": YES_RESIGN,
    "cancel": NOT_NOW,
    "anyway": "Play it anyway",
}


def web_start_move() -> Text:
    """The page's move builder before any choice."""
    return _t("Tap where your move starts.")


def web_choose_region() -> Text:
    """The page's move builder when the move is a region of the board (Maphex's opening)."""
    return _t("Tap the sub-board where the first disc must go.")


def web_next_part(so_far: str) -> Text:
    """The page's move builder after ``so_far``: more to choose."""
    return _t(f"{so_far}: choose the next part.")


def web_move_ready(move: str, more: bool) -> Text:
    """The page's move builder with a whole move ``move`` (``more``: it may also go on)."""
    return _t(f"{move}: play it, or choose more." if more else f"{move}: play it.")


def web_draw_offered(side: str) -> Text:
    """The page, while ``side`` offers a draw."""
    return _t(f"{side} offers a draw.")


def web_takeback_asked(side: str) -> Text:
    """The page, while ``side`` asks to take their last move back."""
    return _t(f"{side} asks to take their last move back.")


def web_not_your_game() -> Text:
    """A page action (resign, draw, takeback) from someone who does not play in the game."""
    return _t("Only the game's players can do that.")


def web_no_such_start(prefix: str) -> Text:
    """The page's move builder asked about a prefix no legal move starts with."""
    return _t(f"No legal move starts with {prefix}.")


def web_bad_action_request() -> Text:
    """A page action that is not ``{"action": "resign"|"draw"|"takeback", ...}``."""
    return _t('An action is sent as {"action": "resign", "draw" or "takeback", "answer": ...}.')
