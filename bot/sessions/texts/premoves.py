"""Conditional moves (issue 46): prepared lines, told to their owner alone, and the board that
shows a prepared reply played.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Mention, Segment, Text
from bot.sessions.texts.base import _days, _ending, _hours, _moves, _p, _pn, _t


def _line(moves: Sequence[str]) -> Text:
    """A line as "if c3, then c5; if d4, then d5"."""
    parts: list[Segment | Text] = []
    for n in range(0, len(moves) - 1, 2):
        if parts:
            parts.append("; ")
        parts.append(_p("if {their}, then {mine}", their=Code(moves[n]), mine=Code(moves[n + 1])))
    return _t(*parts)


def premove_set(game_id: int, number: int, moves: Sequence[str]) -> Text:
    """A line was prepared (told to its owner alone)."""
    return _p(
        "Line {number} prepared in #{game}: {line}. Only you can see it until it is played.",
        number=number,
        game=game_id,
        line=_line(moves),
    )


def premove_listing(game_id: int, lines: Sequence[Sequence[str]]) -> Text:
    """The owner's prepared lines of a game, first line first (the first that matches wins)."""
    if not lines:
        return _p("You have no prepared lines in #{game}.", game=game_id)
    head = _p("Your prepared lines in #{game} (the first that matches wins):", game=game_id)
    parts: list[Segment | Text] = [head]
    for number, moves in enumerate(lines, 1):
        parts += [f"\n{number}. ", _line(moves)]
    return _t(*parts)


def premove_cleared(game_id: int, count: int) -> Text:
    """The owner dropped their lines."""
    return _pn(
        "Dropped {count} prepared line in #{game}.",
        "Dropped {count} prepared lines in #{game}.",
        count,
        game=game_id,
    )


def premove_not_now(game_id: int) -> Text:
    """Lines are prepared during the opponent's turn only."""
    return _p(
        "It is your turn in #{game}: replies are prepared during your opponent's turn.",
        game=game_id,
    )


def premove_not_against_bot(game_id: int) -> Text:
    """The bot answers at once: nothing to prepare."""
    return _p(
        "#{game} is against the bot, which answers at once: nothing to prepare.", game=game_id
    )


def premove_malformed() -> Text:
    """A line that is not pairs of moves."""
    return _p(
        "A prepared line is pairs of moves: their move, then your reply (for example {example}).",
        example=Code("c3 => c5; d4 => d5"),
    )


def premove_too_many(game_id: int, most_lines: int, most_moves: int) -> Text:
    """Too many lines, or too long a line."""
    return _p(
        "Too much prepared in #{game}: at most {lines} of at most {moves} each.",
        game=game_id,
        lines=_pn("{count} line", "{count} lines", most_lines),
        moves=_moves(most_moves),
    )


def premove_illegal(game_id: int, step: int, move: str, reason: Text | str) -> Text:
    """A line with an illegal move: the rule it breaks, as for any move."""
    return _p(
        "Prepared line refused in #{game}: move {step} of the line ({move}) is illegal there: "
        "{reason}",
        game=game_id,
        step=step,
        move=Code(move),
        reason=reason,
    )


def premove_game_over(game_id: int, step: int, move: str) -> Text:
    """A line that goes on after a move that ends the game."""
    return _p(
        "Prepared line refused in #{game}: the game would be over after move {step} of the line "
        "({move}), so nothing can follow it.",
        game=game_id,
        step=step,
        move=Code(move),
    )


def premove_played(
    game_id: int, title: str, mover: Mention, move: str, owner: Mention, reply: str
) -> Text:
    """The board's line when a prepared reply answered the opponent's move."""
    return _p(
        "#{game} {title}: {mover} played {move}; {owner} replied {reply} (prepared).",
        game=game_id,
        title=title,
        mover=mover,
        move=Code(move),
        owner=owner,
        reply=Code(reply),
    )


def premove_reply_line(owner: Text, reply: str) -> Text:
    """After "Bob played c3", in the answer to the opponent's move."""
    return _t(" ", _p("{owner} replied {reply} (prepared).", owner=owner, reply=Code(reply)))


def premove_dropped_note(game_id: int, title: str, mover: Mention, move: str) -> Text:
    """The opponent's move matched none of the owner's lines: all of them were dropped."""
    return _p(
        "Your prepared lines in #{game} {title} were dropped: {mover} played {move}, which none "
        "of them expected. It is your turn.",
        game=game_id,
        title=title,
        mover=mover,
        move=Code(move),
    )


def premove_stopped_note(game_id: int, title: str, reply: str, reason: Text | str) -> Text:
    """A prepared reply that would lose at once was not played: the line stopped."""
    return _p(
        "Your prepared reply {reply} in #{game} {title} was not played: it would lose at once "
        "({reason}). Your prepared lines there were dropped. It is your turn.",
        reply=Code(reply),
        game=game_id,
        title=title,
        reason=_ending(str(reason)) if isinstance(reason, str) else reason,
    )


# -- the daily digest -------------------------------------------------------------------------


def digest_head(count: int) -> Text:
    """The first line of a daily digest."""
    return _pn(
        "Your daily digest: it is your turn in {count} game.",
        "Your daily digest: it is your turn in {count} games.",
        count,
    )


def digest_left(left_seconds: float | None) -> Text:
    """The time a game of the digest has left, said when the digest is read (days and hours,
    or hours and minutes)."""
    if left_seconds is None:
        return _p("no clock")
    if left_seconds <= 0:
        return _p("time is up")
    minutes = max(int(left_seconds // 60), 1)
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        span = _t(_days(days), " ", _hours(hours)) if hours else _days(days)
    elif hours:
        span = _t(_hours(hours), " ", _minutes(minutes)) if minutes else _hours(hours)
    else:
        span = _minutes(minutes)
    return _p("{span} left", span=span)


def _minutes(count: int) -> Text:
    return _pn("{count} minute", "{count} minutes", count)


def digest_line(game_id: int, title: str, opponent: Mention, left: Text, where: str) -> Text:
    """One game of the digest: its opponent, the time left and where it lives."""
    return _t(
        "\n",
        _p(
            "#{game} {title} against {opponent}: {left}{where}.",
            game=game_id,
            title=title,
            opponent=opponent,
            left=left,
            where=where,
        ),
    )


def digest_set(at: str, offset: str, dm_turned_on: bool) -> Text:
    """The digest was turned on (or moved)."""
    said = _p(
        "Daily digest at {at} (UTC{offset}): one private message listing your turns; turn "
        "notices by direct message are folded into it (the last-day warning still comes).",
        at=at,
        offset=offset,
    )
    if not dm_turned_on:
        return said
    return _t(said, " ", _p("Direct messages are now on: the digest comes as one."))


def digest_off(was_on: bool) -> Text:
    """The digest was turned off."""
    return _p("Daily digest off.") if was_on else _p("Your daily digest was already off.")


def digest_bad(value: str) -> Text:
    """A digest time that cannot be read."""
    return _p(
        "{value} is not a digest time: say a time of day with an optional UTC offset (for "
        "example 08:00 +01:00), or off.",
        value=repr(value[:24]),
    )


def digest_is(at: str, offset: str) -> Text:
    """The digest in a player's settings, when it is on."""
    return _t("; ", _p("daily digest at {at} (UTC{offset})", at=at, offset=offset))
