"""Refusals of bad input (ids, names, buttons), the position browser, posts and the
platforms.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Mention, Segment, Text
from bot.sessions.texts.base import (
    N_,
    _p,
    _t,
)

# -- hardening --------------------------------------------------------------------------------


def not_an_id(word: str) -> Text:
    """A typed ``#...`` that is not a game or challenge id (``word`` already cut)."""
    return _p("{word} is not an id: an id is # and digits 0-9, e.g. #12.", word=f"{word!r}")


def page_usage(word: str) -> Text:
    """``games`` with something that is not a page number (``word`` already cut)."""
    return _p("{word} is not a page: games [page], e.g. games 2.", word=f"{word!r}")


def bad_argument(name: str, expected: str) -> Text:
    """A caller (an adapter) passed a value of the wrong kind: the request is refused."""
    return _p("That request is malformed: {name} must be {expected}.", name=name, expected=expected)


def id_too_long(limit: int) -> Text:
    """A platform user or chat id longer than any platform makes."""
    return _p(
        "That player cannot be used: their id is longer than {limit} characters.", limit=limit
    )


def game_damaged(game_id: int, reason: str) -> Text:
    """A game found damaged while answering (``reason`` already cut): it is set aside."""
    return _p(
        "Game #{game_id} is damaged in storage ({reason}) and has been set aside.",
        game_id=game_id,
        reason=reason,
    )


def damaged_game_here(game_id: int) -> Text:
    """A request with no id when the player's only game here has been set aside."""
    return _p(
        "Your game here, #{game_id}, is damaged in storage and has been set aside; it cannot be "
        "played.",
        game_id=game_id,
    )


def same_challenge_pending(challenge_id: int) -> Text:
    """A challenge that repeats one still pending (the same opponent, game and terms)."""
    return _p(
        "You already made that challenge: challenge {challenge_id} is still pending.",
        challenge_id=challenge_id,
    )


def move_list(moves: list[str], per_line: int = 5) -> list[Text]:
    """A game's moves as players read them: numbered in pairs (the first side's move, then
    the answer), ``per_line`` pairs to a line.

    >>> [str(t) for t in move_list(["e5", "d4", "c3"])]
    ['1. e5 d4  2. c3']
    """
    pairs = [moves[i : i + 2] for i in range(0, len(moves), 2)]
    lines: list[Text] = []
    for start in range(0, len(pairs), per_line):
        parts: list[Segment | Text] = []
        for number, pair in enumerate(pairs[start : start + per_line], start + 1):
            parts += ["  " if parts else "", f"{number}. ", Code(pair[0])]
            parts += [" ", Code(pair[1])] if len(pair) > 1 else []
        lines.append(_t(*parts))
    return lines


def your_turn_due(move_number: int, left: str | None) -> Text:
    """A listed game waiting on the player, with the time left when there is a clock."""
    if left:
        return _p("your turn (move {move_number}, {left})", move_number=move_number, left=left)
    return _p("your turn (move {move_number})", move_number=move_number)


def challenge_sent_line(challenge_id: int, title: str, target: Mention | str | None) -> Text:
    """A pending challenge the player made, in their list (``None``: open to anyone; a text:
    a player invited by username)."""
    whom: Segment | Text = _p("anyone here") if target is None else target
    return _p(
        "challenge {challenge_id}: {title} to {whom}, waiting for an answer",
        challenge_id=challenge_id,
        title=title,
        whom=whom,
    )


def challenge_received_line(challenge_id: int, title: str, challenger: Mention) -> Text:
    """A pending challenge to the player (or open to them), in their list."""
    return _p(
        "challenge {challenge_id}: {title} from {challenger}, yours to accept or decline",
        challenge_id=challenge_id,
        title=title,
        challenger=challenger,
    )


#: The labels of the buttons that step through a game: first, previous, next, last.
STEP_LABELS = (N_("⏮ First"), N_("◀ Previous"), N_("Next ▶"), N_("Last ⏭"))


def browse_head(
    game_id: int, title: str, ply: int, last: int, mover: Text | None, move: str | None
) -> Text:
    """The line above a position shown while stepping through a game."""
    where = _p("start position") if ply == 0 else _p("after move {ply}", ply=ply)
    head = _p(
        "#{game_id} {title}, {where} of {last}",
        game_id=game_id,
        title=title,
        where=where,
        last=last,
    )
    if mover is None or move is None:
        return head + "."
    return _p("{head}: {mover} played {move}.", head=head, mover=mover, move=Code(move))


def no_such_position(game_id: int, last: int) -> Text:
    """A step to a position the game does not have."""
    return _p(
        "#{game_id} has positions 0 (the start) to {last}: choose one of them.",
        game_id=game_id,
        last=last,
    )


def damaged_line(game_id: int, title: str) -> Text:
    """A game in a player's list that is set aside as damaged."""
    return _p("#{game_id} {title}: damaged, set aside", game_id=game_id, title=title)


#: The label of the button that starts stepping through a game.
STEP_THROUGH = N_("Step through")


# -- posts and platforms ------------------------------------------------------------------


def challenge_expired_note(challenger: Mention, challenge_id: int, title: str) -> Text:
    """A challenge nobody accepted in time (the card is edited to say so)."""
    return _p(
        "{challenger}'s challenge #{challenge_id} ({title}) expired: nobody accepted it.",
        challenger=challenger,
        challenge_id=challenge_id,
        title=title,
    )


# -- discord ----------------------------------------------------------------------------------


def level_is_for_the_bot() -> Text:
    """A Discord /challenge with a level and a person as the opponent: a level means playing
    the bot."""
    return _p("A level is for a game against me: leave out the opponent (or pick me).")


# -- telegram ---------------------------------------------------------------------------------


def invited_handle(handle: str) -> str:
    """How a challenge names a player invited by username (their id not known yet)."""
    return f"@{handle}"


def bad_handle(typed: str) -> Text:
    """An invitation by a username that cannot be one."""
    return _p("{typed} is not a username: up to 32 letters, digits and _.", typed=f"{typed!r}")


def challenge_for_handle(challenge_id: int, handle: str) -> Text:
    """A challenge to a username, pressed or accepted by someone else."""
    return _p(
        "Challenge {challenge_id} is for @{handle}, not for you.",
        challenge_id=challenge_id,
        handle=handle,
    )


def not_met(handle: str) -> Text:
    """A command naming a player by a username this bot cannot look up (Telegram has no
    look-up by username)."""
    return _p(
        "I have not met @{handle} yet: ask them to send me a message, or reply to one of theirs "
        "with the command.",
        handle=handle,
    )
