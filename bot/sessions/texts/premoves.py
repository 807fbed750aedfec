"""Conditional moves (issue 46): prepared lines, told to their owner alone, and the board that
shows a prepared reply played.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.messages import Code, Mention, Segment, Text
from bot.sessions.texts.base import _pn, _t


def _line(moves: Sequence[str]) -> Text:
    """A line as "if c3, then c5; if d4, then d5"."""
    parts: list[Segment | Text] = []
    for n in range(0, len(moves) - 1, 2):
        if parts:
            parts.append("; ")
        parts += ["if ", Code(moves[n]), ", then ", Code(moves[n + 1])]
    return _t(*parts)


def premove_set(game_id: int, number: int, moves: Sequence[str]) -> Text:
    """A line was prepared (told to its owner alone)."""
    return _t(
        f"Line {number} prepared in #{game_id}: ",
        _line(moves),
        ". Only you can see it until it is played.",
    )


def premove_listing(game_id: int, lines: Sequence[Sequence[str]]) -> Text:
    """The owner's prepared lines of a game, first line first (the first that matches wins)."""
    if not lines:
        return _t(f"You have no prepared lines in #{game_id}.")
    head = f"Your prepared lines in #{game_id} (the first that matches wins):"
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
    return _t(f"It is your turn in #{game_id}: replies are prepared during your opponent's turn.")


def premove_not_against_bot(game_id: int) -> Text:
    """The bot answers at once: nothing to prepare."""
    return _t(f"#{game_id} is against the bot, which answers at once: nothing to prepare.")


def premove_malformed() -> Text:
    """A line that is not pairs of moves."""
    return _t(
        "A prepared line is pairs of moves: their move, then your reply (for example ",
        Code("c3 => c5; d4 => d5"),
        ").",
    )


def premove_too_many(game_id: int, most_lines: int, most_moves: int) -> Text:
    """Too many lines, or too long a line."""
    return _t(
        f"Too much prepared in #{game_id}: at most {most_lines} lines of at most "
        f"{most_moves} moves each."
    )


def premove_illegal(game_id: int, step: int, move: str, reason: str) -> Text:
    """A line with an illegal move: the rule it breaks, as for any move."""
    return _t(
        f"Prepared line refused in #{game_id}: move {step} of the line (",
        Code(move),
        f") is illegal there: {reason}",
    )


def premove_game_over(game_id: int, step: int, move: str) -> Text:
    """A line that goes on after a move that ends the game."""
    return _t(
        f"Prepared line refused in #{game_id}: the game would be over after move {step} of the "
        "line (",
        Code(move),
        "), so nothing can follow it.",
    )


def premove_played(
    game_id: int, title: str, mover: Mention, move: str, owner: Mention, reply: str
) -> Text:
    """The board's line when a prepared reply answered the opponent's move."""
    return _t(
        f"#{game_id} {title}: ", mover, " played ", Code(move), "; ",
        owner, " replied ", Code(reply), " (prepared).",
    )  # fmt: skip


def premove_reply_line(owner: Text, reply: str) -> Text:
    """After "Bob played c3", in the answer to the opponent's move."""
    return _t(" ", owner, " replied ", Code(reply), " (prepared).")


def premove_dropped_note(game_id: int, title: str, mover: Mention, move: str) -> Text:
    """The opponent's move matched none of the owner's lines: all of them were dropped."""
    return _t(
        f"Your prepared lines in #{game_id} {title} were dropped: ",
        mover,
        " played ",
        Code(move),
        ", which none of them expected. It is your turn.",
    )


def premove_stopped_note(game_id: int, title: str, reply: str, reason: str) -> Text:
    """A prepared reply that would lose at once was not played: the line stopped."""
    return _t(
        "Your prepared reply ",
        Code(reply),
        f" in #{game_id} {title} was not played: it would lose at once ({reason}). "
        "Your prepared lines there were dropped. It is your turn.",
    )


# -- the daily digest -------------------------------------------------------------------------


def digest_head(count: int) -> Text:
    """The first line of a daily digest."""
    return _pn(
        "Your daily digest: it is your turn in {count} game.",
        "Your daily digest: it is your turn in {count} games.",
        count,
    )


def digest_line(game_id: int, title: str, opponent: Mention, left: str, where: str) -> Text:
    """One game of the digest: its opponent, the time left and where it lives."""
    return _t(f"\n#{game_id} {title} against ", opponent, f": {left}{where}.")


def digest_set(at: str, offset: str, dm_turned_on: bool) -> Text:
    """The digest was turned on (or moved)."""
    tail = " Direct messages are now on: the digest comes as one." if dm_turned_on else ""
    return _t(
        f"Daily digest at {at} (UTC{offset}): one private message listing your turns; "
        f"turn notices by direct message are folded into it (the last-day warning still "
        f"comes).{tail}"
    )


def digest_off(was_on: bool) -> Text:
    """The digest was turned off."""
    return _t("Daily digest off." if was_on else "Your daily digest was already off.")


def digest_bad(value: str) -> Text:
    """A digest time that cannot be read."""
    return _t(
        f"{value[:24]!r} is not a digest time: say a time of day with an optional UTC offset "
        "(for example 08:00 +01:00), or off."
    )


def digest_is(at: str, offset: str) -> Text:
    """The digest in a player's settings, when it is on."""
    return _t(f"; daily digest at {at} (UTC{offset})")
