"""What a reply carries for adapters: ids without parsing, texts with mentions and no
Markdown, sections that fit each platform, and refusals that say what was missing (the typed
forms are the typed-command adapter's, not the manager's)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from bot.adapters.commands import execute
from bot.messages import (
    ACTION_FIELDS,
    MESSAGE_LIMITS,
    ActionKind,
    Code,
    Mention,
    NeedKind,
    Strong,
    Text,
    sections,
)
from bot.sessions.buttons import HANDLERS
from tests.bot.session_kit import (
    ALICE,
    BOB,
    CAROL,
    ROOM,
    finishing_moves,
    mover,
    session,
    start_game,
)


async def test_challenge_replies_carry_the_challenge_id(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        made = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        assert made.challenge_id == 1 and made.game_id is None
        assert (await m.challenges.decline(BOB, ROOM)).challenge_id == 1
        second = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        assert second.challenge_id == 2
        assert (await m.challenges.cancel(ALICE, ROOM, 2)).challenge_id == 2
        third = await m.challenges.challenge(ALICE, ROOM, "maphex", BOB)
        accepted = await m.challenges.accept(BOB, ROOM, third.challenge_id)
        assert accepted.challenge_id == 3 and accepted.game_id == 1


async def test_names_are_mentions_and_moves_are_code(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, started = await start_game(m, "maphex")
        alice = Mention(ALICE.platform, ALICE.user_id, ALICE.name)
        bob = Mention(BOB.platform, BOB.user_id, BOB.name)
        assert alice in started.body.segments and bob in started.body.segments
        moved = await m.games.move(await mover(m, gid), ROOM, "5", gid)
        assert moved.ok and Code("5") in moved.body.segments
        # Rendered for a platform, names become its mentions and no Markdown is left over.
        shown = moved.body.render(mention=lambda p: f"<@{p.user_id}>", code=lambda c: f"`{c}`")
        assert "<@2>" in shown and "`5`" in shown and "**" not in shown


async def test_no_reply_of_a_whole_game_holds_markdown_marks(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        gid, _ = await start_game(m, "pathagon")
        replies = [
            await m.games.board(ALICE, ROOM, gid),
            await m.games.games(ALICE),
            await m.games.help(),
        ]
        for move in finishing_moves("pathagon"):
            replies.append(await m.games.move(await mover(m, gid), ROOM, move, gid, confirm=True))
        replies += [await m.games.history(ALICE, ROOM, gid), await m.games.board(ALICE, ROOM, gid)]
        replies += [await m.games.rules(game) for game in ("maphex", "isopath", "fixation")]
        for reply in replies:
            assert reply.ok, reply.text
            assert "**" not in reply.text and "`" not in reply.text, reply.text


async def test_a_missing_game_id_is_a_structured_refusal(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        none = await m.games.board(ALICE, ROOM)
        assert not none.ok and none.need is not None
        assert none.need.kind is NeedKind.GAME and none.need.candidates == ()
        assert "#42" not in none.text  # how to name a game is the adapter's business
        # Both wait on Alice (Light opens Pathagon): a bare move cannot tell which.
        await start_game(m, "pathagon")
        await start_game(m, "pathagon")
        two = await m.games.move(ALICE, ROOM, "e5")
        assert two.need is not None and two.need.candidates == (1, 2)
        challenges = [
            await m.challenges.challenge(CAROL, ROOM, "maphex", ALICE, first=f)
            for f in ("me", "them")
        ]
        assert all(c.ok for c in challenges)
        which = await m.challenges.accept(ALICE, ROOM)
        assert which.need is not None and which.need.kind is NeedKind.CHALLENGE
        assert which.need.candidates == (3, 4)


async def test_typed_commands_say_how_to_type_what_is_missing(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        none = await execute(m, ALICE, ROOM, "board", lambda _: BOB)
        assert none.text == "You have no active game here. Give a game id, e.g. #42."
        await start_game(m, "pathagon")
        await start_game(m, "pathagon")
        two = await execute(m, ALICE, ROOM, "e5", lambda _: BOB)
        assert two.text.endswith("(#1, #2): which one? Put its id first, e.g. move #1 e5.")
        help_text = (await execute(m, ALICE, ROOM, "help", lambda _: BOB)).text
        assert "move [#game] <move>" in help_text and "end the line with !" in help_text
        assert "move [#game]" not in (await m.games.help()).text


async def test_every_button_of_the_table_reaches_its_command(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        alice = await m.store.player(ALICE.platform, ALICE.user_id, ALICE.name, m.clock.now())
        until = str(int(m.clock.now().timestamp()) + 600)
        # A confirmed resignation names whose question it is and until when (issue 45).
        fields = {
            ActionKind.RESIGN_CONFIRMED: [str(alice.id), until],
            ActionKind.TOURNAMENT_LEAVE_CONFIRMED: [str(alice.id), until],
        }
        for kind in HANDLERS:
            extra = fields.get(kind, ["0", "e5", "?"])[: ACTION_FIELDS[kind] - 1]
            action_id = ":".join([kind, "77", *extra])
            reply = await m.games.press(ALICE, ROOM, action_id)
            # Each kind reaches its command, which looks for game #77, challenge 77 or
            # tournament 77.
            assert "not one of mine" not in reply.text, (action_id, reply.text)
            named = ("#77", "challenge 77", "tournament 77")
            assert any(n in reply.text for n in named), (action_id, reply.text)


SEGMENTS = st.one_of(
    st.text(alphabet="ab \n", max_size=30),
    st.builds(Strong, st.text(alphabet="xy", min_size=1, max_size=12)),
    st.builds(Code, st.text(alphabet="cd", min_size=1, max_size=12)),
    st.builds(Mention, st.just("t"), st.just("1"), st.text(alphabet="NM", min_size=1, max_size=9)),
)


@given(st.lists(SEGMENTS, max_size=30), st.integers(min_value=1, max_value=40))
def test_sections_fit_and_lose_nothing_but_the_breaks_they_cut_at(
    parts: list[Strong | Code | Mention | str], limit: int
) -> None:
    text = Text.of(*parts)
    pieces = sections(text, limit)
    assert all(len(str(p)) <= limit for p in pieces)
    assert "".join(str(p) for p in pieces).replace("\n", "") == str(text).replace("\n", "")
    if len(str(text)) <= limit:
        assert pieces == (text,)


async def test_long_rules_come_in_sections_that_fit_every_platform(tmp_path: Path) -> None:
    async with session(tmp_path / "h.db") as m:
        rules = await m.games.rules("isopath")
        assert len(rules.text) > MESSAGE_LIMITS["discord"]
        for limit in MESSAGE_LIMITS.values():
            parts = rules.sections(limit)
            assert all(len(str(p)) <= limit for p in parts)
            # Cut at paragraph boundaries: each section starts a paragraph of the whole.
            assert all(f"\n\n{p}" in f"\n\n{rules.text}" for p in parts)
