"""What is wrong with a plain-text game record that cannot be read (:mod:`bot.sessions.records`):
each problem a sentence, said where it is read (``cannot import: line 4: ...``).

The record's own words (``Game:``, ``Result:``, ``1-0``, ``aborted``) are its notation and stay
as typed.  Part of :mod:`bot.sessions.texts`; :mod:`bot.sessions.records` imports it directly.
"""

from __future__ import annotations

from bot.messages import Text
from bot.sessions.texts.base import _p
from bot.sessions.texts.illegal import ILLEGAL_MOVES
from engines import IllegalMoveCode

__all__ = [
    "bad_option",
    "bad_result",
    "header_after_moves",
    "illegal_in_record",
    "malformed_line",
    "move_empty",
    "move_out_of_order",
    "moves_before_header",
    "no_game",
    "not_a_date",
    "not_an_option",
    "on_line",
    "result_not_matching",
    "result_without_ending",
    "unknown_game",
    "unknown_header",
]


def on_line(number: int, problem: Text) -> Text:
    """A problem of the record, with the line it is on."""
    return _p("line {number}: {problem}", number=str(number), problem=problem)


def unknown_game(value: str, known: str) -> Text:
    return _p("unknown game {value} (games: {known})", value=value, known=known)


def not_an_option(part: str) -> Text:
    return _p("options are name=value, not {part}", part=part)


def bad_option(reason: Text | str) -> Text:
    return _p("bad option: {reason}", reason=reason)


def not_a_date(value: str) -> Text:
    return _p("{value} is not a date (2026-01-05T12:00:00Z)", value=value)


def bad_result(value: str) -> Text:
    return _p("result is 1-0, 0-1, 1/2-1/2, aborted or *, not {value}", value=value)


def moves_before_header() -> Text:
    return _p("the moves come after the header (Game: ...)")


def move_out_of_order(expected: int, found: str) -> Text:
    return _p("expected move {expected}, found {found}", expected=str(expected), found=found)


def move_empty(number: int) -> Text:
    return _p("move {number} is empty", number=str(number))


def header_after_moves(line: str) -> Text:
    return _p("expected a numbered move, not {line}", line=line)


def malformed_line(line: str) -> Text:
    return _p("expected 'Key: value' or a numbered move, not {line}", line=line)


def no_game() -> Text:
    return _p("the record does not say which game it is (Game: ...)")


def unknown_header(key: str, known: str) -> Text:
    return _p("unknown header {key} (headers: {known}, ...)", key=key, known=known)


def illegal_in_record(number: int, move: str, reason: Text) -> Text:
    """Move ``number`` of the record is illegal (the sentence of a move in a list)."""
    return _p(ILLEGAL_MOVES[IllegalMoveCode.IN_LIST], number=str(number), move=move, reason=reason)


def result_without_ending(code: str, reason: str) -> Text:
    return _p(
        "result {code} ({reason}) does not follow from the moves, which do not end the game (a "
        "game that goes on ends by resignation or timeout, or is drawn by agreement)",
        code=code,
        reason=reason,
    )


def result_not_matching(said: str, actual: str) -> Text:
    return _p(
        "result {said} does not match the moves, which end {actual}", said=said, actual=actual
    )
