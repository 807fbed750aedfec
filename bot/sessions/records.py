"""Plain-text game records: ``export`` writes one, ``parse`` reads it back and replays it.

A record is a header of ``Key: value`` lines, a blank line, then the moves numbered from 1, one
per line (every move is one turn, whoever made it)::

    Hexhall game record
    Game: Maphex (maphex)
    Options: size=9
    Red: Alice
    Blue: Bob
    Time per move: 3 days
    Started: 2026-01-05T12:00:00Z
    Ended: 2026-01-07T09:13:00Z
    Result: 1-0 (connection)

    1. 5
    2. e5

The side lines name the player in each seat by the side that seat starts with (a pie rule may
swap sides later).  ``Result`` is ``1-0`` (first seat wins), ``0-1``, ``1/2-1/2`` (draw),
``aborted`` or ``*`` (still going), followed by the reason in brackets.  Lines starting with
``#`` are comments.  Only ``Game`` and the moves are required.

>>> rec = Record("maphex", {"size": 9}, ("Alice", "Bob"), ("5", "e5"))
>>> parse(export(rec)) == rec
True
>>> try:
...     parse("Game: maphex\\n\\n1. 5\\n2. a1")
... except RecordError as exc:
...     print(exc)
line 4: move 2 (a1) is illegal: a1 is not in the target sub-board (centre, 5)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from types import MappingProxyType
from typing import Any

import engines
from bot.core.ending import Termination
from bot.messages import Text
from bot.sessions.clock import TIME_CONTROLS, describe_time_control, parse_time_control
from bot.sessions.texts import bad_time_control, option_refused
from bot.sessions.texts import records as said
from bot.sessions.texts.illegal import illegal_said
from engines import IllegalMove, Position

__all__ = ["Record", "RecordError", "Result", "export", "parse"]

HEADLINE = "Hexhall game record"
# re.ASCII: move numbers are ASCII digits (\d alone would take ``٣``).
_MOVE_LINE = re.compile(r"^(\d+)\s*\.\s*(.*)$", re.ASCII)
_RESULT = re.compile(r"^(1-0|0-1|1/2-1/2|aborted|\*)\s*(?:\((.*)\))?$", re.IGNORECASE)
_CODES = {0: "1-0", 1: "0-1", None: "1/2-1/2"}
#: Longest player name kept in a record; names are one line of printable text.
MAX_NAME = 64


@dataclass(frozen=True)
class Result:
    """How a game ended: ``winner`` seat (``None`` for a draw), the ``reason`` in a few words
    (the rules' outcome, ``resignation``, ``timeout``, ``agreement``), or ``aborted``."""

    winner: int | None
    reason: str
    aborted: bool = False

    def code(self) -> str:
        """The record's result code: ``1-0``, ``0-1``, ``1/2-1/2`` or ``aborted``."""
        return "aborted" if self.aborted else _CODES[self.winner]


@dataclass(frozen=True)
class Record:
    """One game: what the header says and the moves.  ``players`` are the display names of
    seat 0 and seat 1; ``time_per_move`` is in days (``None``: no limit); ``result`` is
    ``None`` while the game is going on."""

    game: str
    options: Mapping[str, Any]
    players: tuple[str, str]
    moves: tuple[str, ...]
    result: Result | None = None
    started: datetime | None = None
    ended: datetime | None = None
    time_per_move: int | None = None
    game_id: str | None = None

    def __post_init__(self) -> None:
        # Options are part of the value: freeze them so a record hashes and compares safely.
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def replay(self) -> Position:
        """The position after every move (``ValueError`` on an unknown game or bad option,
        :class:`~engines.IllegalMove` naming the move number on an illegal move)."""
        return engines.position_after(self.game, self.moves, **self.options)


def _clean_name(name: str) -> str:
    text = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split())
    return text[:MAX_NAME] or "?"


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def export(record: Record) -> str:
    """The plain-text record of ``record`` (see the module docstring for the format)."""
    game = engines.GAMES[record.game]
    lines = [HEADLINE, f"Game: {game.title} ({game.name})"]
    options = ", ".join(f"{k}={_option_text(v)}" for k, v in record.options.items())
    lines.append(f"Options: {options or 'none'}")
    for side, name in zip(game.sides, record.players, strict=True):
        lines.append(f"{side}: {_clean_name(name)}")
    lines.append(f"Time per move: {describe_time_control(record.time_per_move)}")
    if record.game_id is not None:
        lines.append(f"Id: {_clean_name(record.game_id)}")
    if record.started is not None:
        lines.append(f"Started: {_stamp(record.started)}")
    if record.ended is not None:
        lines.append(f"Ended: {_stamp(record.ended)}")
    if record.result is None:
        lines.append("Result: *")
    else:
        reason = _clean_name(record.result.reason)
        lines.append(f"Result: {record.result.code()} ({reason})")
    lines.append("")
    lines.extend(f"{number}. {move}" for number, move in enumerate(record.moves, 1))
    return "\n".join(lines) + "\n"


class RecordError(ValueError):
    """A record that cannot be read: ``said`` names the line and what is wrong, in the
    reader's language when rendered (``str()`` says it in the language in use)."""

    def __init__(self, said: Text) -> None:
        super().__init__(said)
        self.said = said

    def __str__(self) -> str:
        return str(self.said)


def _fail(number: int, problem: Text) -> RecordError:
    return RecordError(said.on_line(number, problem))


def _parse_game(value: str, number: int) -> str:
    value = value.strip()
    match = re.search(r"\(([^()]*)\)\s*$", value)
    name = (match.group(1) if match else value).strip().lower()
    if name not in engines.GAMES:
        known = ", ".join(engines.GAMES)
        raise _fail(number, said.unknown_game(repr(value[:24]), known))
    return name


def _parse_options(value: str, game: str, number: int) -> dict[str, Any]:
    given: dict[str, str] = {}
    if value.strip().lower() not in ("", "none"):
        for part in value.split(","):
            key, sep, val = part.partition("=")
            if not sep or not key.strip():
                raise _fail(number, said.not_an_option(repr(part.strip()[:24])))
            given[key.strip().lower()] = val.strip()
    try:
        return engines.GAMES[game].resolve_options(**given)
    except engines.OptionError as exc:
        raise _fail(number, said.bad_option(option_refused(exc))) from None
    except ValueError as exc:  # an option's own check of its value
        raise _fail(number, said.bad_option(str(exc))) from None


def _parse_time(value: str, number: int) -> datetime:
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise _fail(number, said.not_a_date(repr(value[:32]))) from None
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _parse_result(value: str, number: int) -> Result | None:
    match = _RESULT.match(value.strip())
    if not match:
        raise _fail(number, said.bad_result(repr(value[:24])))
    code, reason = match.group(1).lower(), (match.group(2) or "").strip()
    if code == "*":
        return None
    if code == "aborted":
        return Result(None, reason or "aborted", aborted=True)
    winner = {"1-0": 0, "0-1": 1, "1/2-1/2": None}[code]
    return Result(winner, reason or ("draw" if winner is None else "win"))


def parse(text: str) -> Record:
    """Read a record written by :func:`export` (or by hand) and replay it.

    Raises :class:`RecordError` (a ``ValueError``) with the line number for anything wrong:
    an unknown game, a bad option, a malformed line, a move number out of sequence or an
    illegal move.
    """
    game: str | None = None
    option_text: tuple[str, int] | None = None
    header: dict[str, tuple[str, int]] = {}
    moves: list[str] = []
    move_lines: list[int] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or (line == HEADLINE and not moves):
            continue
        numbered = _MOVE_LINE.match(line)
        if numbered:
            if game is None:
                raise _fail(number, said.moves_before_header())
            if int(numbered.group(1)) != len(moves) + 1:
                raise _fail(number, said.move_out_of_order(len(moves) + 1, numbered.group(1)))
            if not numbered.group(2).strip():
                raise _fail(number, said.move_empty(len(moves) + 1))
            moves.append(numbered.group(2).strip())
            move_lines.append(number)
            continue
        if moves:
            raise _fail(number, said.header_after_moves(repr(shown_line(line))))
        key, sep, value = line.partition(":")
        if not sep:
            raise _fail(number, said.malformed_line(repr(shown_line(line))))
        key = key.strip().lower()
        if key == "game":
            game = _parse_game(value, number)
        elif key == "options":
            option_text = (value, number)
        else:
            header[key] = (value.strip(), number)
    if game is None:
        raise _fail(1, said.no_game())
    options = (
        _parse_options(option_text[0], game, option_text[1])
        if option_text
        else engines.GAMES[game].resolve_options()
    )
    sides = [s.lower() for s in engines.GAMES[game].sides]
    players = ["?", "?"]
    result: Result | None = None
    started = ended = None
    time_per_move: int | None = None
    game_id: str | None = None
    for key, (value, number) in header.items():
        if key in sides:
            players[sides.index(key)] = _clean_name(value)
        elif key == "result":
            result = _parse_result(value, number)
        elif key == "started":
            started = _parse_time(value, number)
        elif key == "ended":
            ended = _parse_time(value, number)
        elif key == "time per move":
            try:
                time_per_move = parse_time_control(value)
            except ValueError:
                allowed = ", ".join(describe_time_control(days) for days in TIME_CONTROLS)
                raise _fail(number, bad_time_control(allowed, repr(value[:24]))) from None
        elif key == "id":
            game_id = value
        else:
            known = ", ".join(["Game", "Options", *engines.GAMES[game].sides, "Result"])
            raise _fail(number, said.unknown_header(repr(key), known))
    pos = engines.new(game, **options)
    canonical: list[str] = []
    for index, move in enumerate(moves):
        try:
            pos = pos.play(move)
        except IllegalMove as exc:
            wrong = said.illegal_in_record(index + 1, shown_line(move), illegal_said(exc))
            raise _fail(move_lines[index], wrong) from None
        # Keep the engines' spelling, so a record typed by hand exports canonically.
        canonical.append(pos.last_move or move)
    _check_result(result, pos, header.get("result", ("", 1))[1])
    return Record(
        game,
        options,
        (players[0], players[1]),
        tuple(canonical),
        result,
        started,
        ended,
        time_per_move,
        game_id,
    )


#: The reasons a game ends for that its moves do not show: a win by resignation or on time,
#: a draw by agreement.
#: The endings off the board a record may state for moves that do not end the game, and whether
#: each has a winner.
OFF_BOARD = {Termination.RESIGNATION: True, Termination.TIMEOUT: True, Termination.AGREEMENT: False}


def _off_board(reason: str) -> bool | None:
    """Whether the ending ``reason`` names off the board has a winner (``None``: it is none)."""
    try:
        return OFF_BOARD.get(Termination(reason))
    except ValueError:
        return None


def _check_result(result: Result | None, pos: Position, number: int) -> None:
    outcome = pos.outcome
    if result is None or (outcome is None and result.aborted):
        return
    if outcome is None:
        # The moves do not end the game: only an ending outside the board explains the result.
        if _off_board(result.reason) is not (result.winner is not None):
            wrong = said.result_without_ending(result.code(), shown_line(result.reason))
            raise _fail(number, wrong)
        return
    if result.aborted or result.winner != outcome.winner:
        wrong = said.result_not_matching(result.code(), _CODES[outcome.winner])
        raise _fail(number, wrong)


def shown_line(text: str, limit: int = 32) -> str:
    """``text`` shortened for quoting in an error message."""
    return engines.base.shown(text, limit)
