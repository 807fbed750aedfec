"""More of the Discord adapter through the real discord.py client against the fake: ratings
(leaderboard, stats with its chart, rated / casual challenges, the board card's ratings, the
server as the community), the bot as opponent, the position browser edited in place, the
exported record as a file, the GIF recap after the game, long rules in several messages, and
the shared token redactor."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import pytest

import bot.adapters.discord.adapter as discord_adapter
from bot.adapters import redact, telegram
from bot.adapters.discord.format import TEXT_LIMIT
from bot.sessions import texts
from bot.sessions.records import parse
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    Run,
    button,
    labels,
    running,
)
from tests.fakes.discord_fake import FakeDiscord, StoredMessage


@pytest.fixture
async def run(fake: FakeDiscord, tmp_path: Path) -> Any:
    async with running(fake, tmp_path / "hexhall.db", pictures=True) as started:
        yield started


def fields_of(message: StoredMessage) -> dict[str, str]:
    return {f["name"]: f["value"] for f in message.embeds[0]["fields"]}


async def start_game(
    run: Run, game: str = "pathagon", channel: int = CHANNEL, **options: Any
) -> tuple[int, StoredMessage]:
    card = await run.answer(
        ALICE, "challenge", {"game": game, "opponent": BOB, **options}, channel=channel
    )
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
    return int(button(card, "Board").split(":")[1]), card


async def resign(run: Run, gid: int, channel: int = CHANNEL) -> StoredMessage:
    loser = await run.to_move(gid)
    asked = await run.answer(loser, "resign", {"game": str(gid)}, channel=channel)
    done = await run.click(loser, asked, "Yes, resign")
    return await run.fake.original(done, timeout=DEADLINE)


async def test_ratings_leaderboard_and_stats(run: Run) -> None:
    gid, card = await start_game(run)
    # The board card shows both players' ratings in the game's pool (provisional: "?").
    ratings = fields_of(card)["Ratings"]
    assert ratings.startswith("Rated (Pathagon): alice 1500?, bob 1500?"), ratings
    over = await resign(run, gid)
    assert not over.ephemeral and "Ratings (Pathagon)" in over.content
    here = await run.answer(ALICE, "leaderboard", {"game": "pathagon"})
    assert not here.ephemeral
    assert "alice" in here.content and "bob" in here.content
    everywhere = await run.answer(ALICE, "leaderboard", {"game": "pathagon", "scope": "all"})
    assert "alice" in everywhere.content and "bob" in everywhere.content
    # Another server is another community: nobody has played a rated game there.
    other = run.fake.guild(GUILD + 1, "Elsewhere")
    run.fake.channel(other, 5_001, "games")
    run.fake.member(other, ALICE, "alice")
    empty = await run.answer(ALICE, "leaderboard", {"game": "pathagon"}, channel=5_001)
    assert "alice" not in empty.content
    # Stats: public, with the rating chart attached (described by its alt text).
    mine = await run.answer(BOB, "stats", {})
    assert not mine.ephemeral and "Pathagon" in mine.content
    assert mine.files["chart.png"].startswith(b"\x89PNG")
    assert mine.attachments[0]["description"]
    theirs = await run.answer(BOB, "stats", {"player": ALICE})
    assert f"<@{ALICE}>" in theirs.content and theirs.pinged_users == set()


async def test_a_casual_challenge(run: Run) -> None:
    card = await run.answer(ALICE, "challenge", {"game": "maphex", "opponent": BOB, "rated": False})
    assert "not rated" in card.content
    await run.click(BOB, card, "Accept")
    await run.fake.wait_until(lambda: "Board" in labels(card), timeout=DEADLINE)
    assert fields_of(card)["Ratings"] == str(texts.CASUAL).strip()


async def test_the_bot_as_opponent_by_level_and_as_the_member(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    async with running(fake, tmp_path / "h.db", outbox=True) as run:
        await run.answer(ALICE, "settings", {"setting": "dm", "value": "off"})
        started = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "level": "easy", "first": "me"}
        )
        assert not started.ephemeral and "Resign" in labels(started)
        gid = int(button(started, "Board").split(":")[1])
        board = await run.answer(ALICE, "move", {"game": str(gid), "move": "a1"})
        assert not board.ephemeral
        # The bot answers (in a worker process); Alice hears of it in the channel.
        note = await fake.wait_message(
            lambda m: m.interaction_id is None and "Your turn" in m.content, timeout=DEADLINE
        )
        assert note.channel_id == CHANNEL and note.pinged_users == {ALICE}
        assert await run.to_move(gid) == ALICE
        # The bot itself picked as the opponent member: a game at once, never rated.
        assert run.bot.user is not None
        fake.member(GUILD, run.bot.user.id, run.bot.user.name)
        second = await run.answer(
            BOB, "challenge", {"game": "maphex", "opponent": run.bot.user.id, "first": "me"}
        )
        assert not second.ephemeral and "Resign" in labels(second)
        facts = await run.manager.games.board_facts(int(button(second, "Board").split(":")[1]))
        assert facts is not None and str(facts.ratings).strip() == str(texts.CASUAL).strip()
        # A level with a person as the opponent is refused (a level means playing the bot).
        mixed = await run.answer(
            ALICE, "challenge", {"game": "maphex", "opponent": BOB, "level": "hard"}
        )
        assert mixed.ephemeral and mixed.content == str(texts.level_is_for_the_bot())
        await run.manager.bot_idle()


async def test_the_position_browser_edits_its_message(run: Run) -> None:
    gid, _ = await start_game(run)
    for move in ("a1", "g1", "a2"):
        await run.answer(await run.to_move(gid), "move", {"game": str(gid), "move": move})
    browser = await run.answer(ALICE, "browse", {"game": str(gid)})
    first, previous, following, last = texts.STEP_LABELS
    assert browser.ephemeral and labels(browser) == [first, previous]
    assert browser.files["board.png"].startswith(b"\x89PNG") and not browser.embeds
    shown = browser.content
    await run.click(ALICE, browser, previous)
    assert browser.edits == 1 and browser.content != shown
    # "Next" and "Last" lead to the same position: one button (custom ids are unique).
    assert labels(browser) == [first, previous, following]
    await run.click(ALICE, browser, first)
    assert browser.edits == 2 and labels(browser) == [following, last]
    assert browser.files["board.png"].startswith(b"\x89PNG")
    # "Step through" on the public move list opens a private browser; the list stays.
    moves = await run.answer(BOB, "history", {"game": str(gid)})
    assert not moves.ephemeral and labels(moves) == [texts.STEP_THROUGH]
    press = await run.click(BOB, moves, texts.STEP_THROUGH)
    opened = await run.fake.original(press, timeout=DEADLINE)
    assert opened.ephemeral and opened.id != moves.id and moves.edits == 0
    assert labels(opened) == [following, last] and opened.files["board.png"]
    # Asking for a position that is not there is refused privately.
    refused = await run.answer(ALICE, "browse", {"game": str(gid), "moves": 99})
    assert refused.ephemeral and labels(refused) == []


async def test_export_attaches_the_record_as_a_text_file(run: Run) -> None:
    gid, _ = await start_game(run)
    await run.answer(await run.to_move(gid), "move", {"game": str(gid), "move": "a1"})
    exported = await run.answer(ALICE, "export", {"game": str(gid)})
    assert not exported.ephemeral and exported.content == ""
    [name] = exported.files
    assert name == f"hexhall-{gid}.txt"
    record = parse(exported.files[name].decode())
    assert record.moves[:1] == ("a1",)
    assert exported.attachments[0]["filename"] == name


async def test_the_gif_recap_follows_the_end_of_a_game(fake: FakeDiscord, tmp_path: Path) -> None:
    async with running(fake, tmp_path / "h.db", pictures=True, outbox=True) as run:
        for uid in (ALICE, BOB):
            await run.answer(uid, "settings", {"setting": "dm", "value": "off"})
        gid, _ = await start_game(run)
        for move in ("a1", "g1", "a2", "g2"):
            await run.answer(await run.to_move(gid), "move", {"game": str(gid), "move": move})
        over = await resign(run, gid)
        recap = await fake.wait_message(
            lambda m: m.interaction_id is None and f"hexhall-{gid}.gif" in m.files,
            timeout=DEADLINE * 2,
        )
        assert recap.channel_id == CHANNEL and recap.id > over.id
        gif = recap.files[f"hexhall-{gid}.gif"]
        assert gif.startswith(b"GIF8")
        assert f"#{gid}" in recap.content


async def test_long_rules_come_in_several_messages(run: Run) -> None:
    record = await run.slash(ALICE, "rules", {"game": "isopath"})
    first = await run.fake.original(record, timeout=DEADLINE)
    expected = (await run.manager.games.rules("isopath")).sections(TEXT_LIMIT)
    assert len(expected) >= 3
    rest = await run.fake.followups(record, count=len(expected) - 1, timeout=DEADLINE)
    parts = [first, *rest]
    assert len(parts) == len(expected)
    assert all(p.ephemeral and 0 < len(p.content) <= TEXT_LIMIT for p in parts)
    assert sum(len(p.content) for p in parts) > TEXT_LIMIT
    assert "Iso-Path" in first.content


def test_one_token_redactor_for_both_adapters() -> None:
    assert telegram.TokenRedactor is redact.TokenRedactor
    assert not hasattr(discord_adapter, "TokenFilter")
    token = "MTIz.secret-token"
    try:
        raise RuntimeError(f"refused {token}")
    except RuntimeError:
        record = logging.LogRecord("x", logging.ERROR, "", 1, "with %s", (token,), sys.exc_info())
    assert redact.TokenRedactor(token).filter(record)
    assert token not in record.getMessage() and token not in (record.exc_text or "")
    assert "refused ***" in (record.exc_text or "") and record.exc_info is None
