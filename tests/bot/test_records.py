"""Plain-text game records: export, parse, replay, and clear refusals for bad records."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest

import engines
from bot.sessions.records import Record, Result, export, parse

STARTED = datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
ENDED = datetime(2026, 1, 9, 8, 30, tzinfo=UTC)


def random_record(game: str, seed: int, max_plies: int = 300) -> tuple[Record, engines.Position]:
    """A record of a random legal game with random options, and its final position."""
    rng = random.Random(seed)
    options: dict[str, Any] = {o.name: rng.choice(o.values) for o in engines.GAMES[game].options}
    pos = engines.new(game, **options)
    moves = []
    while pos.outcome is None and len(moves) < max_plies:
        move = pos.random_move(rng)
        moves.append(move)
        pos = pos.play(move)
    result = None
    if pos.outcome is not None:
        result = Result(pos.outcome.winner, pos.outcome.termination)
    elif seed % 3 == 1:
        result = Result(1 - pos.to_move, "timeout")
    record = Record(
        game,
        engines.GAMES[game].resolve_options(**options),
        ("Alice Ångström", "bob_42"),
        tuple(moves),
        result,
        STARTED,
        ENDED if result else None,
        rng.choice([None, 1, 3, 7, 14]),
        f"#{seed}",
    )
    return record, pos


@pytest.mark.parametrize("game", list(engines.GAMES))
@pytest.mark.parametrize("seed", range(6))
def test_export_then_parse_round_trips_and_replays_to_the_same_position(
    game: str, seed: int
) -> None:
    record, final = random_record(game, seed)
    text = export(record)
    back = parse(text)
    assert back == record
    assert back.replay() == final
    assert export(back) == text


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_unfinished_games_round_trip_too(game: str) -> None:
    record, final = random_record(game, 99, max_plies=5)
    back = parse(export(record))
    assert back.moves == record.moves
    assert back.replay() == final


def test_record_layout_header_then_numbered_moves() -> None:
    record = Record(
        "maphex",
        {"size": 9},
        ("Alice", "Bob"),
        ("5", "e5", "d5"),
        None,
        STARTED,
        None,
        3,
        "#42",
    )
    assert export(record) == (
        "Hexhall game record\n"
        "Game: Maphex (maphex)\n"
        "Options: size=9\n"
        "Red: Alice\n"
        "Blue: Bob\n"
        "Time per move: 3 days\n"
        "Id: #42\n"
        "Started: 2026-01-05T12:00:00Z\n"
        "Result: *\n"
        "\n"
        "1. 5\n"
        "2. e5\n"
        "3. d5\n"
    )


def test_results_of_every_kind_are_read_back() -> None:
    for result in (
        Result(0, "resignation"),
        Result(1, "timeout"),
        Result(None, "agreement"),
        Result(None, "no first move", aborted=True),
    ):
        record = Record("maphex", {"size": 9}, ("A", "B"), ("5",), result, STARTED, ENDED)
        assert parse(export(record)).result == result


def test_hand_written_records_are_read_with_defaults_and_canonical_moves() -> None:
    record = parse("# from a forum post\nGAME: maphex\n\n1.  5\n2.E5\n 3. D5 \n")
    assert record.options == {"size": 9}
    assert record.moves == ("5", "e5", "d5")
    assert record.players == ("?", "?")
    assert record.result is None


def test_player_names_are_kept_to_one_printable_line() -> None:
    record = Record("maphex", {"size": 9}, ("Eve\nResult: 1-0", "\x00"), ())
    back = parse(export(record))
    assert back.players == ("Eve Result: 1-0", "?")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1. 5\n", "line 1: the moves come after the header"),
        ("Red: Alice\n", "line 1: the record does not say which game"),
        ("Game: chess\n\n1. e4\n", "line 1: unknown game 'chess'"),
        ("Game: maphex\nOptions: size=11\n", "line 2: bad option: option size must be one of"),
        ("Game: maphex\nOptions: colour=red\n", "line 2: bad option: Maphex has no option"),
        ("Game: maphex\nOptions: size\n", "line 2: options are name=value"),
        ("Game: maphex\n\n1. 5\n2. a1\n", r"line 4: move 2 \(a1\) is illegal: a1 is not in"),
        ("Game: maphex\n\n1. 5\n3. e5\n", "line 4: expected move 2, found 3"),
        ("Game: maphex\n\n1. 5\n2.\n", "line 4: move 2 is empty"),
        ("Game: maphex\n\n1. 5\ne5\n", "line 4: expected a numbered move"),
        ("Game: maphex\nthis is not a header\n", "line 2: expected 'Key: value'"),
        ("Game: maphex\nColour: red\n", "line 2: unknown header 'colour'"),
        ("Game: maphex\nResult: 2-0\n", "line 2: result is 1-0, 0-1, 1/2-1/2, aborted or"),
        ("Game: maphex\nStarted: yesterday\n", "line 2: 'yesterday' is not a date"),
        ("Game: maphex\nTime per move: 2 days\n", "line 2: time per move must be one of"),
    ],
)
def test_bad_records_are_refused_with_the_line_and_the_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse(text)


def test_moves_after_the_game_ended_are_refused() -> None:
    record, final = random_record("maphex", 1)
    assert final.outcome is not None
    text = export(record) + f"{len(record.moves) + 1}. a1\n"
    with pytest.raises(ValueError, match=f"move {len(record.moves) + 1} .* the game is over"):
        parse(text)


def test_a_result_that_contradicts_the_moves_is_refused() -> None:
    record, final = random_record("maphex", 2)
    assert final.outcome is not None and final.outcome.winner is not None
    wrong = Result(1 - final.outcome.winner, "resignation")
    text = export(Record(record.game, record.options, record.players, record.moves, wrong))
    with pytest.raises(ValueError, match="does not match the moves"):
        parse(text)
