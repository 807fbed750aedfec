"""Hardening (issue 14): each class of bad input, as a property over the whole class.

- numbers are ASCII digits, range-checked where they are parsed (typed ids, action ids);
- the services refuse values that do not fit (checked where they enter) in one line;
- nothing typed comes back unbounded, and names and ids are bounded;
- a refusal changes nothing (the player named at the pending limit is not created, and no one
  renames another player by typing their name);
- the fuzz driver's short run: 0 exceptions, 0 changed rows, every reply bounded.
"""

from __future__ import annotations

import asyncio
import math
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.adapters.commands import COMMAND, COMMANDS, execute, split_id
from bot.adapters.console import console_user
from bot.core.settings import parse_quiet_hours, parse_utc_offset
from bot.limits import ECHO_LIMIT, MAX_ID, MAX_PAGE, MAX_PLY, NAME_LIMIT, TEXT_LIMIT
from bot.messages import ACTION_FIELDS, ActionKind, Chat, Reply, User, parse_action
from bot.sessions.clock import FakeClock, parse_time_control
from bot.sessions.manager import SessionManager
from bot.sessions.records import parse
from bot.sessions.validate import REFUSAL_LIMIT
from bot.storage import SqliteStore
from tests.bot.fuzz_kit import dump, fuzz_game
from tests.bot.session_kit import migrated

ALICE = console_user("alice")
BOB = console_user("bob")
ROOM = Chat("console", "local")
FAST = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))

#: Every non-ASCII character Unicode calls a digit or a number (``²``, ``①``, ``٣`` ...).
OTHER_DIGITS = st.characters(categories=["Nd", "No"]).filter(lambda c: not c.isascii())
NUMBER_WORDS = st.one_of(
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.text(OTHER_DIGITS | st.sampled_from("0123456789"), min_size=1, max_size=30),
    st.text(max_size=30),
)


def _run(body: Callable[[SessionManager, Path], Awaitable[None]]) -> None:
    """Run ``body`` with a manager on a fresh SQLite file where Alice and Bob play #1."""

    async def main() -> None:
        import tempfile

        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "h.db"
            store = await SqliteStore.open(migrated(path))
            try:
                m = SessionManager(store, FakeClock(), pictures=False, rng=random.Random(1))
                made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB, {}, "me")
                assert (await m.challenges.accept(BOB, ROOM, made.challenge_id)).ok
                await body(m, path)
            finally:
                await store.close()

    asyncio.run(main())


def _one_line(reply: Reply) -> None:
    assert not reply.ok, reply.text
    assert reply.text and "\n" not in reply.text and len(reply.text) <= REFUSAL_LIMIT


# -- numbers: ASCII digits only, range-checked once where parsed ----------------------------


@FAST
@given(st.text(OTHER_DIGITS, min_size=1, max_size=3))
def test_quiet_hours_days_and_record_move_numbers_take_only_ascii_digits(digits: str) -> None:
    """The parsers outside the typed-command layer: quiet hours, time per move, records."""
    with pytest.raises(ValueError):
        parse_quiet_hours(f"{digits}-7")
    with pytest.raises(ValueError):
        parse_utc_offset(f"+{digits}")
    with pytest.raises(ValueError):
        parse_time_control(digits)
    record = "Game: pathagon\n\n" + f"{digits}. d4\n"
    with pytest.raises(ValueError, match="line 3"):
        parse(record)


@FAST
@given(st.sampled_from(sorted(ACTION_FIELDS)), st.lists(NUMBER_WORDS, min_size=1, max_size=5))
def test_a_parsed_action_id_holds_only_ascii_numbers_in_range(kind: str, fields: list[str]) -> None:
    action_id = ":".join([kind, *fields])
    parsed = parse_action(action_id)
    if parsed is None:
        return
    highs = ActionKind(kind).numbers  # each numeric field's range, as the kind declares it
    assert highs and set(highs) <= {MAX_ID, MAX_PLY, MAX_PAGE}
    for field, high in zip(parsed[1], highs, strict=False):
        assert field.isascii() and field.isdigit()
        assert 0 <= int(field) <= high


@given(OTHER_DIGITS, st.sampled_from(sorted(ACTION_FIELDS)))
def test_no_digit_but_ascii_is_an_id_anywhere(digit: str, kind: str) -> None:
    assert split_id([f"#{digit}", "e5"]) == (None, [f"#{digit}", "e5"])
    assert split_id([digit]) == (None, [digit])
    assert parse_action(f"{kind}:{digit}" + ":1:e5" * (ACTION_FIELDS[kind] > 1)) is None
    assert parse_action(f"mv:1:{digit}:e5") is None


@given(st.integers(min_value=MAX_ID + 1, max_value=2**200) | st.integers(max_value=0))
def test_ids_out_of_range_are_no_ids(number: int) -> None:
    assert split_id([f"#{number}"])[0] is None
    assert parse_action(f"rm:{number}") is None
    assert parse_action(f"mv:1:{number}:e5") is None or 0 <= number <= MAX_PLY


@FAST
@given(
    # Commands without parameters (``tournaments``, ``back``, ``help``) ignore what follows,
    # so they have nothing to refuse; every command that reads a number is here.
    st.sampled_from([c for c in COMMANDS if c not in ("rules", "challenge") and COMMAND[c].params]),
    st.lists(OTHER_DIGITS, min_size=1, max_size=3).map("".join),
    st.booleans(),
)
def test_typed_commands_with_other_digits_are_refused(word: str, digits: str, hash_: bool) -> None:
    line = f"{word} {'#' if hash_ else ''}{digits}"

    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        reply = await execute(m, ALICE, ROOM, line, console_user)
        _one_line(reply)
        assert dump(path) == before

    _run(body)


# -- the services' edge: values that do not fit ----------------------------------------------
# The kinds are mypy's (strict): what is checked where a value enters is what no type says.

NUMBERS = st.integers(min_value=MAX_ID + 1, max_value=2**100) | st.integers(max_value=-1)
TEXTS = st.one_of(
    st.just("\ud800"),
    st.text(min_size=1, max_size=3).map(lambda s: s + "\udfff"),
    st.integers(1, 20).map(lambda n: "a" * (TEXT_LIMIT + n)),
)
FLOATS = st.floats(allow_nan=True, allow_infinity=True).filter(
    lambda f: math.isnan(f) or abs(f) > MAX_ID
)
# Naming no option of any game (``{}`` and ``{"size": 9}`` are good options), or too many.
OPTIONS = st.dictionaries(
    st.text(max_size=3).filter(lambda k: k not in ("pie", "size")),
    st.integers() | st.text(max_size=3),
    min_size=1,
    max_size=20,
) | st.fixed_dictionaries({"size": NUMBERS | TEXTS})
LONG_IDS = st.text(st.characters(codec="utf-8"), min_size=NAME_LIMIT + 1, max_size=100).map(
    lambda user_id: User("console", user_id, "zed")
)
BAD: dict[str, st.SearchStrategy[Any]] = {
    "number": NUMBERS,
    "text": TEXTS,
    "float": FLOATS,
    "options": OPTIONS,
    "user": LONG_IDS,
}

# (service, method, good arguments, the argument replaced by a bad value, its kind)
CALLS: list[tuple[str, str, dict[str, Any], str, str]] = [
    ("games", "rematch", {"user": ALICE, "chat": ROOM, "game_id": 1}, "game_id", "number"),
    ("games", "board", {"user": ALICE, "chat": ROOM, "game_id": 1}, "game_id", "number"),
    (
        "games",
        "move",
        {"user": ALICE, "chat": ROOM, "text": "a1", "game_id": 1},
        "expected_ply",
        "number",
    ),
    ("games", "move", {"user": ALICE, "chat": ROOM, "text": "a1", "game_id": 1}, "text", "text"),
    ("players", "settings", {"user": ALICE, "name": "dm", "value": "on"}, "name", "text"),
    ("players", "settings", {"user": ALICE, "name": "dm", "value": "on"}, "value", "text"),
    ("games", "press", {"user": ALICE, "chat": ROOM, "action_id": "bd:1"}, "action_id", "text"),
    (
        "games",
        "import_record",
        {"user": ALICE, "chat": ROOM, "text": "x", "opponent": BOB},
        "text",
        "text",
    ),
    (
        "games",
        "import_record",
        {"user": ALICE, "chat": ROOM, "text": "x", "opponent": BOB},
        "opponent",
        "user",
    ),
    ("games", "games", {"user": ALICE, "page": 1}, "page", "number"),
    ("players", "away", {"user": ALICE, "days": 2}, "days", "number"),
    (
        "challenges",
        "accept",
        {"user": ALICE, "chat": ROOM, "challenge_id": 1},
        "challenge_id",
        "number",
    ),
    (
        "challenges",
        "challenge",
        {"user": ALICE, "chat": ROOM, "game": "maphex", "opponent": BOB},
        "options",
        "options",
    ),
    (
        "challenges",
        "challenge",
        {"user": ALICE, "chat": ROOM, "game": "maphex", "opponent": BOB},
        "rated",
        "text",
    ),
    (
        "challenges",
        "challenge",
        {"user": ALICE, "chat": ROOM, "game": "maphex", "opponent": BOB},
        "time_per_move",
        "float",
    ),
    ("games", "board", {"user": ALICE, "chat": ROOM, "game_id": 1}, "user", "user"),
    *(
        (
            "tournaments",
            "tournament_new",
            {"user": ALICE, "chat": ROOM, "game": "maphex"},
            name,
            kind,
        )
        for name, kind in (
            ("game", "text"),
            ("options", "options"),
            ("days", "float"),
            ("rounds", "number"),
            ("rated", "text"),
            ("max_players", "number"),
        )
    ),
    *(
        (
            "tournaments",
            method,
            {"user": ALICE, "chat": ROOM, "tournament_id": 1},
            "tournament_id",
            "number",
        )
        for method in ("tournament_join", "tournament_leave", "tournament_standings")
    ),
]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(CALLS), st.data())
def test_a_service_refuses_a_value_that_does_not_fit_in_one_line(
    call: tuple[str, str, dict[str, Any], str, str], data: st.DataObject
) -> None:
    service, method, good, name, kind = call
    bad = data.draw(BAD[kind])

    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        reply = await getattr(getattr(m, service), method)(**{**good, name: bad})
        _one_line(reply)
        assert dump(path) == before

    _run(body)


# The service methods that answer with something other than a reply (for autocompletion,
# cards and the move picker): a value that does not fit gets an empty answer, never an error.
LOOKUPS: list[tuple[str, dict[str, Any], str, str, object]] = [
    ("player_to_move", {"game_id": 1}, "game_id", "number", None),
    ("board_facts", {"game_id": 1}, "game_id", "number", None),
    (
        "suggest_moves",
        {"user": ALICE, "chat": ROOM, "game_id": 1, "typed": ""},
        "game_id",
        "number",
        [],
    ),
    (
        "suggest_moves",
        {"user": ALICE, "chat": ROOM, "game_id": 1, "typed": ""},
        "typed",
        "text",
        [],
    ),
    (
        "suggest_moves",
        {"user": ALICE, "chat": ROOM, "game_id": 1, "typed": ""},
        "limit",
        "number",
        [],
    ),
    ("game_choices", {"user": ALICE, "typed": ""}, "user", "user", []),
    ("game_choices", {"user": ALICE, "typed": ""}, "typed", "text", []),
]


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(LOOKUPS), st.data())
def test_a_lookup_with_a_value_that_does_not_fit_answers_nothing(
    call: tuple[str, dict[str, Any], str, str, object], data: st.DataObject
) -> None:
    method, good, name, kind, nothing = call
    bad = data.draw(BAD[kind])

    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        lookup = getattr(m.games, method)
        assert await lookup(**good) not in (None, [])  # the good call answers
        assert await lookup(**{**good, name: bad}) == nothing
        assert dump(path) == before

    _run(body)


def test_a_picker_step_with_a_bad_id_is_refused() -> None:
    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        for bad in (f"pk:{2**70}:0", "\ud800", "pk:" + "1" * (TEXT_LIMIT + 1), ""):
            answer = await m.games.pick(ALICE, ROOM, bad)
            assert isinstance(answer, Reply)
            _one_line(answer)
        assert dump(path) == before

    _run(body)


def test_the_examples_of_the_issue_are_refused() -> None:
    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        for reply in (
            await m.games.rematch(ALICE, ROOM, game_id=2**70),
            await m.games.rematch(ALICE, ROOM, game_id=-1),
            await m.games.move(ALICE, ROOM, "a1", 1, expected_ply=2**70),
            await m.players.settings(ALICE, name="\ud800"),
            await m.players.settings(ALICE, "dm", "x" * (TEXT_LIMIT + 1)),
            await m.games.press(ALICE, ROOM, "\ud800:1"),
            await m.games.import_record(ALICE, ROOM, "\udfff", BOB),
        ):
            _one_line(reply)
        assert dump(path) == before

    _run(body)


# -- sizes: echoes cut, names and ids bounded ----------------------------------------------

LONG = st.text(st.characters(categories=["L", "N"]), min_size=ECHO_LIMIT + 20, max_size=3000)
SLOTS = (
    "challenge bob maphex size={x}",
    "challenge bob {x}",
    "challenge bob maphex {x}=1",
    "away {x}",
    "settings quiet {x}",
    "settings {x} on",
    "games {x}",
    "rules {x}",
    "board #{x}",
    "move #1 {x}",
    "{x}",
    "leaderboard {x}",
    "stats {x}",
    "draw #1 {x}",
)


@FAST
@given(st.sampled_from(SLOTS), LONG)
def test_nothing_typed_comes_back_unbounded(slot: str, text: str) -> None:
    line = slot.format(x=text)

    async def body(m: SessionManager, path: Path) -> None:
        reply = await execute(m, ALICE, ROOM, line, console_user)
        # No run of the input longer than an echo is in the reply.
        probe = text[: ECHO_LIMIT + 1]
        assert probe not in reply.text and probe.lower() not in reply.text.lower(), reply.text
        assert len(reply.text) <= (REFUSAL_LIMIT + 80 if not reply.ok else 2000)

    _run(body)


NAMES = st.text(st.characters(codec="utf-8") | st.just("\ud800"), min_size=1, max_size=200)


@FAST
@given(NAMES)
def test_a_players_name_is_stored_printable_and_bounded(name: str) -> None:
    async def body(m: SessionManager, path: Path) -> None:
        reply = await m.games.games(User("console", "zed", name))
        assert reply.ok, reply.text
        row = await m.store.find_player("console", "zed")
        assert row is not None
        assert 1 <= len(row.name) <= NAME_LIMIT and row.name.isprintable()
        row.name.encode("utf-8")

    _run(body)


@FAST
@given(st.text(st.characters(codec="utf-8"), min_size=NAME_LIMIT + 1, max_size=500))
def test_an_over_long_platform_id_is_refused_and_not_stored(user_id: str) -> None:
    async def body(m: SessionManager, path: Path) -> None:
        before = dump(path)
        _one_line(await m.games.games(User("console", user_id, "zed")))
        _one_line(
            await m.challenges.challenge(ALICE, ROOM, "maphex", User("console", user_id, "zed"))
        )
        assert dump(path) == before

    _run(body)


# -- refusals change nothing -------------------------------------------------------------


@FAST
@given(
    st.text(st.characters(categories=["Ll", "Lu", "Nd"], codec="ascii"), min_size=1, max_size=12)
)
def test_at_the_pending_limit_the_player_named_is_not_created(name: str) -> None:
    async def body(m: SessionManager, path: Path) -> None:
        for n in range(10):
            made = await m.challenges.challenge(
                ALICE, ROOM, "maphex", console_user(f"p{n}"), {}, "me"
            )
            assert made.ok, made.text
        before = dump(path)
        named = console_user("new" + name)
        _one_line(await m.challenges.challenge(ALICE, ROOM, "maphex", named, {}, "me"))
        assert dump(path) == before
        assert await m.store.find_player("console", named.user_id) is None

    _run(body)


@FAST
@given(
    st.text(st.sampled_from("bBoO"), min_size=3, max_size=3).filter(lambda s: s.lower() == "bob")
)
def test_typing_a_name_renames_no_one(typed: str) -> None:
    async def body(m: SessionManager, path: Path) -> None:
        reply = await execute(m, ALICE, ROOM, f"challenge {typed} maphex", console_user)
        assert reply.ok, reply.text
        row = await m.store.find_player("console", "bob")
        assert row is not None and row.name == "bob"
        assert "bob" in reply.text
        # Bob's own request with his own platform name does change it.
        await m.games.games(User("console", "bob", "Bobby"))
        row = await m.store.find_player("console", "bob")
        assert row is not None and row.name == "Bobby"

    _run(body)


# -- the fuzz driver, short (benchmarks/fuzz.py runs 10 000 lines per game) ------------------


def test_the_console_dispatch_survives_generated_lines(tmp_path: Path) -> None:
    import engines

    async def run() -> list[str]:
        failures = []
        for i, game in enumerate(engines.GAMES):
            counts = await fuzz_game(tmp_path / f"{game}.db", game, 150, seed=1400 + i, big=False)
            assert counts.refusals > 50 and counts.accepted > 0
            assert counts.exceptions == counts.changed_refusals == counts.unbounded == 0
            failures += counts.failures
        return failures

    assert asyncio.run(run()) == []
