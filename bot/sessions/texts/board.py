"""The web board page's words (issue 44): the move builder's prompts and the labels of the
page's controls, sent to the page by the JSON API so that its script holds no sentence.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import N_, _p, _s, _side
from bot.sessions.texts.questions import NOT_NOW, YES_RESIGN
from bot.sessions.texts.web import web_play_failed

#: The labels of the page's controls, by the key the page's script knows them by.
BOARD_LABELS: dict[str, str] = {
    "flip": N_("Turn board"),
    "zoom_in": N_("Zoom in"),
    "zoom_out": N_("Zoom out"),
    "typed": N_("Type a move"),
    "typed_send": N_("Play typed"),
    "resign": N_("Resign"),
    "draw": N_("Offer a draw"),
    "draw_accept": N_("Accept the draw"),
    "draw_decline": N_("Decline the draw"),
    "takeback": N_("Ask to take back"),
    "takeback_accept": N_("Allow the takeback"),
    "takeback_decline": N_("Refuse the takeback"),
    "next_turn": N_("Next game where it is your turn"),
    "resign_sure": YES_RESIGN,
    "cancel": NOT_NOW,
    "anyway": N_("Play it anyway"),
    # The page's own words (page.py writes them; board.js says them again in the signed-in
    # player's language, found by their ``data-label`` / ``data-label-aria`` keys).
    "back": N_("Back"),
    "clear": N_("Clear"),
    "send": N_("Play"),
    "steps": N_("Step through the game"),
    "first": N_("First position"),
    "prev": N_("Previous move"),
    "next": N_("Next move"),
    "last": N_("Latest position"),
    "review": N_("Review"),
    "review_move": N_("Move"),
    "review_player": N_("Player"),
    "review_played": N_("Played"),
    "review_better": N_("Better"),
    "review_cost": N_("Cost"),
    "words": N_("Board in words"),
    "moves": N_("Moves"),
    "gif": N_("Animation (GIF)"),
    "record": N_("Record"),
    # board.js's sentences ({name} parts filled in by the script).
    "no_game_link": N_("This link names no game."),
    "opening": N_("Opening the board…"),
    "reviewing": N_("Reviewing the game…"),
    "your_turn": N_("Your turn ({side})."),
    "to_move": N_("{name} ({side}) to move."),
    "time_up": N_("Time is up."),
    "left_days": N_("{days} d {hours} h left."),
    "left_hours": N_("{hours} h {minutes} min left."),
    "watching": N_("{count} watching"),
    "reconnecting": N_("reconnecting…"),
    "board_named": N_("{title} board"),
    "colour": N_("colour {number}"),
    "no_tile": N_("no tile"),
    "one_tile": N_("one tile"),
    "two_tiles": N_("two tiles"),
    "stack": N_("stack of {count}"),
    "can_choose": N_("can be chosen"),
    "win_path": N_("winning path"),
    "better_move": N_("the better move"),
    "played_move": N_("the move played"),
    # plan.js's words (page.py writes them on the plan's section).
    "plan_heading": N_("Plan replies (only you see them)"),
    "plan_add": N_("Add move"),
    "plan_save": N_("Save line"),
    "plan_drop": N_("Drop my lines"),
    "plan_new": N_("New line"),
    "plan_prompt_reply": N_("{line}: tap your reply."),
    "plan_prompt_theirs": N_("{line}: tap their move."),
}


def board_labels() -> dict[str, str]:
    """:data:`BOARD_LABELS` said in the language in use (what the page's script shows)."""
    said = {key: _s(label) for key, label in BOARD_LABELS.items()}
    said["failed"] = str(web_play_failed())
    return said


def side_word(name: str) -> str:
    """A side's name (``Red``) said in the language in use, for the page."""
    return str(_side(name))


def web_start_move() -> Text:
    """The page's move builder before any choice."""
    return _p("Tap where your move starts.")


def web_choose_region() -> Text:
    """The page's move builder when the move is a region of the board (Maphex's opening)."""
    return _p("Tap the sub-board where the first disc must go.")


def web_next_part(so_far: str) -> Text:
    """The page's move builder after ``so_far``: more to choose."""
    return _p("{so_far}: choose the next part.", so_far=so_far)


def web_move_ready(move: str, more: bool) -> Text:
    """The page's move builder with a whole move ``move`` (``more``: it may also go on)."""
    if more:
        return _p("{move}: play it, or choose more.", move=move)
    return _p("{move}: play it.", move=move)


def web_draw_offered(side: str) -> Text:
    """The page, while ``side`` offers a draw."""
    return _p("{side} offers a draw.", side=_side(side))


def web_takeback_asked(side: str) -> Text:
    """The page, while ``side`` asks to take their last move back."""
    return _p("{side} asks to take their last move back.", side=_side(side))


def web_not_your_game() -> Text:
    """A page action (resign, draw, takeback) from someone who does not play in the game."""
    return _p("Only the game's players can do that.")


def web_no_such_start(prefix: str) -> Text:
    """The page's move builder asked about a prefix no legal move starts with."""
    return _p("No legal move starts with {prefix}.", prefix=prefix)


def web_bad_action_request() -> Text:
    """A page action that is not ``{"action": "resign"|"draw"|"takeback", ...}``."""
    return _p('An action is sent as {{"action": "resign", "draw" or "takeback", "answer": ...}}.')


#: The labels of the page's plan mode (issue 46), by the key ``plan.js`` knows them by.
PLAN_LABELS: dict[str, str] = {
    "heading": N_("Plan replies (only you see them)"),
    "start": N_("Plan replies on the board"),
    "leave": N_("Show the game"),
    "banner": N_("Planning — only you see this"),
    "add": N_("Add to the line"),
    "back": N_("Back"),
    "clear": N_("Clear"),
    "save": N_("Save line"),
    "drop": N_("Drop my lines"),
}


def plan_labels() -> dict[str, str]:
    """:data:`PLAN_LABELS` said in the language in use (what the plan script shows)."""
    return {key: _s(label) for key, label in PLAN_LABELS.items()}


def plan_prompt(line: str, theirs: bool) -> Text:
    """Plan mode's prompt after the moves ``line`` (empty: none yet): tap the opponent's
    move (``theirs``) or the player's reply."""
    if not line:
        return _p("Tap their move on the board.")
    if theirs:
        return _p("{line}: tap their next move on the board.", line=line)
    return _p("{line}: tap your reply on the board.", line=line)
