"""The board's "Open board" button and the Discord Activity: with the Activity on
(``HEXHALL_DISCORD_ACTIVITY``) the real Discord adapter answers the press with
``LAUNCH_ACTIVITY`` (callback type 12, which discord.py 2.7 sends with
``InteractionResponse.launch_activity``); with it off, with the presser's own link as before;
and when Discord refuses the launch (the app has no Activities enabled) with the link too,
so the press is never left unanswered."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.adapters.discord.format import PLATFORM
from bot.messages import User
from bot.sessions import texts
from tests.adapters.discord_kit import ALICE, CHANNEL, DEADLINE, button
from tests.fakes.discord_fake import FLAG_EPHEMERAL, InteractionRecord, ResponseKind
from tests.web.activity_kit import Activity, activity

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _press_open_board(site: Activity) -> tuple[int, int, InteractionRecord]:
    gid, board = await site.game()
    mover = await site.run.to_move(gid)
    record = await site.fake.click(mover, board, button(board, "Open board"))
    await site.fake.wait_until(lambda: record.response is not None, timeout=DEADLINE)
    return gid, mover, record


def _linked(site: Activity, record: InteractionRecord) -> str:
    """The private answer's text (the presser's own link to the game's page)."""
    response = record.response
    assert response is not None and response.type == ResponseKind.CHANNEL_MESSAGE
    assert int(response.data.get("flags") or 0) & FLAG_EPHEMERAL
    content = str(response.data.get("content"))
    assert f"{site.url}/g/" in content and "#t=" in content, content
    return content


async def test_open_board_launches_the_activity(tmp_path: Path) -> None:
    async with activity(tmp_path / "a.db") as site:
        gid, mover, record = await _press_open_board(site)
        assert record.response is not None
        assert record.response.type == ResponseKind.LAUNCH_ACTIVITY
        assert [a.type for a in record.attempts] == [ResponseKind.LAUNCH_ACTIVITY]
        assert site.run.manager.web.launched_game(User(PLATFORM, str(mover), "")) == gid


async def test_open_board_answers_with_the_link_when_the_activity_is_off(tmp_path: Path) -> None:
    async with activity(tmp_path / "a.db", launches=False) as site:
        _, mover, record = await _press_open_board(site)
        _linked(site, record)
        assert [a.type for a in record.attempts] == [ResponseKind.CHANNEL_MESSAGE]
        assert not site.fake.launched
        assert site.run.manager.web.launched_game(User(PLATFORM, str(mover), "")) is None


async def test_a_refused_launch_falls_back_to_the_link(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.adapters.discord.launching")
    async with activity(tmp_path / "a.db", activities=False) as site:
        _, _, record = await _press_open_board(site)
        refused, answered = record.attempts
        assert refused.type == ResponseKind.LAUNCH_ACTIVITY and refused.status == 400
        assert answered.ok
        _linked(site, record)
        assert "cannot launch the Activity (400)" in caplog.text


@pytest.mark.parametrize("launches", [True, False])
async def test_the_entry_point_command_sent_to_the_app(tmp_path: Path, launches: bool) -> None:
    """With the Entry Point handler ``APP_HANDLER`` (the operator's choice) the bot answers it:
    the Activity, or, with the Activity off here, a private one-liner."""
    async with activity(tmp_path / "a.db", launches=launches) as site:
        (launch,) = [c for c in site.fake.synced[None] if c["type"] == 4]
        launch["handler"] = 1  # as Edit Global Application Command would set it
        record = await site.fake.entry_point(ALICE, CHANNEL)
        assert record is not None
        await site.fake.wait_until(lambda: record.response is not None, timeout=DEADLINE)
        response = record.response
        assert response is not None
        if launches:
            assert response.type == ResponseKind.LAUNCH_ACTIVITY
        else:
            assert response.type == ResponseKind.CHANNEL_MESSAGE
            assert response.data["content"] == str(texts.activity_off())
            assert int(response.data["flags"]) & FLAG_EPHEMERAL


async def test_the_default_entry_point_is_discords_own(tmp_path: Path) -> None:
    """With Discord's default handler, ``DISCORD_LAUNCH_ACTIVITY``, Discord opens the Activity
    itself: the bot hears nothing and needs to do nothing."""
    async with activity(tmp_path / "a.db") as site:
        calls = len(site.fake.calls)
        assert await site.fake.entry_point(ALICE, CHANNEL) is None
        assert site.fake.launched_by_discord == [(ALICE, CHANNEL)]
        assert not site.fake.launched and len(site.fake.calls) == calls
