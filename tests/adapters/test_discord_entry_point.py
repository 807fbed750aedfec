"""The bot's command sync and the Activity's Entry Point command: Discord creates the
default Entry Point command ("Launch", handler DISCORD_LAUNCH_ACTIVITY) when the app's
Activities are enabled, and the bot's bulk upload of its global commands overwrites the
whole list (Discord's "Bulk Overwrite Global Application Commands"), so the bot keeps that
command as Discord holds it, and does not upload again when nothing else changed."""

from __future__ import annotations

from pathlib import Path

from tests.adapters.discord_kit import fake_discord, running


async def test_the_entry_point_command_survives_the_command_sync(tmp_path: Path) -> None:
    async with fake_discord() as fake:
        fake.enable_activities()
        (launch,) = fake.synced[None]
        async with running(fake, tmp_path / "a.db"):
            pass
        commands = fake.synced[None]
        assert len(commands) > 1
        kept = [c for c in commands if c["type"] == 4]
        assert [(c["id"], c["name"], c["handler"]) for c in kept] == [(launch["id"], "launch", 2)]
        uploads = len(fake.calls_to("PUT /applications/{application_id}/commands"))
        assert uploads == 1
        async with running(fake, tmp_path / "a.db"):
            pass
        assert len(fake.calls_to("PUT /applications/{application_id}/commands")) == uploads
        assert [c for c in fake.synced[None] if c["type"] == 4] == kept
