"""The words of moving by pressing (the Move button and its picker) and of a game's own thread,
as chat adapters with such things show them.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Mention, Text
from bot.sessions.texts.base import (
    N_,
    _p,
    _s,
)

#: The label of a live board's button that opens the move picker.
MOVE_LABEL = N_("Move")
#: The longest thread name Discord takes (1 to 100 characters).
_THREAD_NAME_LIMIT = 100


def preview_label(move: str) -> str:
    """The picker's button that shows the board after ``move`` before it is played."""
    return _s("Preview {move}", move=move)[:80]


def choose_part(first: str, last: str) -> str:
    """The placeholder of a picker menu offering the parts ``first`` to ``last``."""
    if first != last:
        return _s("Choose: {first} … {last}", first=first, last=last)
    return _s("Choose: {first}", first=first)


def picker_closed() -> Text:
    """The picker after Cancel: nothing was played."""
    return _p("Move picker closed: nothing was played.")


def thread_name(game_id: int, title: str, first: str, second: str) -> str:
    """The name of a game's own thread, e.g. ``#12 Maphex: Alice vs Bob`` (at most 100
    characters, Discord's limit for a thread name).

    >>> thread_name(12, "Maphex", "Alice", "Bob")
    '#12 Maphex: Alice vs Bob'
    """
    name = f"#{game_id} {title}: {first} vs {second}"
    return name if len(name) <= _THREAD_NAME_LIMIT else name[: _THREAD_NAME_LIMIT - 1] + "…"


def game_in_thread(game_id: int) -> Text:
    """A challenge card's last words once its game went into a thread of its own."""
    return _p("Game {game_id} is played in its thread below.", game_id=Code(f"#{game_id}"))


def thread_result(name: str, result: Text) -> Text:
    """What the channel is told when a game played in its own thread ends."""
    return _p("{name}: {result}", name=name, result=result)


def unreachable(players: Sequence[Mention]) -> Text:
    """Said once in a chat where the bot cannot post by itself (only answer), when notices
    about its games reached some players neither there nor privately."""
    return _p(
        "I could not tell {players} about their games here: I cannot post in this chat, and my "
        "direct messages were refused. Allow direct messages from me to get turn notices, "
        "reminders and results.",
        players=Text.join(players, ", "),
    )


def user_install_card() -> Text:
    """Added to a challenge card where the bot is not a member (a DM or group DM between
    friends, a server without the bot): what the friends need to play there."""
    return _p(
        "I am not a member of this chat: anyone here can press my buttons (Accept, Move), without "
        "installing me; typing my commands needs the app on your own account. Turn notices, "
        "reminders and results come as direct messages from me: allow them."
    )


#: Iso-Path's picker: the choice of no tile this turn (a lone piece move that wins).
NO_TILE_LABEL = N_("No tile: just move")


def picker_start(game_id: int, number: int) -> str:
    """The move picker's first step (move ``number`` of the game)."""
    return _s(
        "#{game_id}, move {number}: choose where your move starts.",
        game_id=game_id,
        number=number,
    )


def picker_so_far(game_id: int, number: int, so_far: str, playable: bool) -> str:
    """A step of the move picker after the parts ``so_far`` (``playable``: they are a whole
    move already)."""
    if playable:
        return _s(
            "#{game_id}, move {number}: {so_far} so far; choose the next part, or play it.",
            game_id=game_id,
            number=number,
            so_far=so_far,
        )
    return _s(
        "#{game_id}, move {number}: {so_far} so far; choose the next part.",
        game_id=game_id,
        number=number,
        so_far=so_far,
    )


def picker_complete(game_id: int, number: int, move: str) -> str:
    """The move picker's last step: ``move`` is whole."""
    return _s(
        "#{game_id}, move {number}: {move} is complete; play it.",
        game_id=game_id,
        number=number,
        move=move,
    )


def picker_page(step: str, page: int, pages: int) -> str:
    """A picker step whose choices take several pages."""
    return _s("{step} (page {page} of {pages})", step=step, page=page, pages=pages)


def play_label(move: str) -> str:
    """The picker's button that plays the parts chosen (a whole move)."""
    return _s("Play {move}", move=move)


def take_label(cell: str) -> str:
    """A picker's part that captures the piece on ``cell``."""
    return _s("take {cell}", cell=cell)


def no_move_starts(game_id: int, prefix: str) -> Text:
    """A picker step for parts no legal move starts with (the position changed meanwhile)."""
    return _p("No legal move in #{game_id} starts with {prefix}.", game_id=game_id, prefix=prefix)


def capture_label(cell: str) -> str:
    """Iso-Path's picker: the button that captures the piece on ``cell``."""
    return f"✕ {cell}"


def _turn_head(game_id: int, number: int, step: int) -> str:
    return _s(
        "#{game_id}, move {number}, step {step} of 2", game_id=game_id, number=number, step=step
    )


def take_tile(game_id: int, number: int, can_capture: bool) -> str:
    """Iso-Path's picker, step 1: the tile to take (or a capture in place of the build)."""
    head = _turn_head(game_id, number, 1)
    if can_capture:
        return _s(
            "{head}, the build: tap the tile to take (or capture instead, below the board).",
            head=head,
        )
    return _s("{head}, the build: tap the tile to take.", head=head)


def put_tile(game_id: int, number: int, cell: str) -> str:
    """Iso-Path's picker, step 1: where the tile taken from ``cell`` goes."""
    head = _turn_head(game_id, number, 1)
    return _s("{head}, the build: tap where the tile from {cell} goes.", head=head, cell=cell)


def move_piece(game_id: int, number: int, done: str, can_capture: bool) -> str:
    """Iso-Path's picker, step 2 after ``done`` (the build in words): the piece to move."""
    head = _turn_head(game_id, number, 2)
    if can_capture:
        return _s(
            "{head} ({done}): tap the piece to move or an opponent's piece to capture (✕).",
            head=head,
            done=done,
        )
    return _s("{head} ({done}): tap the piece to move.", head=head, done=done)


def step_piece(game_id: int, number: int, done: str, cell: str) -> str:
    """Iso-Path's picker, step 2 after ``done``: where the piece on ``cell`` goes."""
    head = _turn_head(game_id, number, 2)
    return _s("{head} ({done}): tap where {cell} goes.", head=head, done=done, cell=cell)


def cell_mark(piece: int) -> str:
    """Iso-Path's picker: a cell that is not a choice now, showing what stands on it
    (``piece``: -1 nothing, 0 a White piece, 1 a Black piece)."""
    return {0: "○", 1: "●"}.get(piece, "·")
