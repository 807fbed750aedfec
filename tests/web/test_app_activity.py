"""The Discord Activity as ``hexhall run`` wires it (:func:`bot.app.web_board`): with
``HEXHALL_DISCORD_ACTIVITY=1`` the web board serves the Activity's page at ``/`` (the app's
client id in it, never the secret, the real SDK: no mock outside tests) and exchanges codes at
``DISCORD_OAUTH_URL`` with the app's client id and secret."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from bot.app import opened, web_board
from bot.config import settings
from tests.fakes.discord_oauth import FakeDiscordOAuth, OAuthUser


async def test_the_activity_as_hexhall_run_serves_it(tmp_path: Path) -> None:
    db = str(tmp_path / "h.db")
    async with FakeDiscordOAuth(client_id="123456789", client_secret="cs-s3cret") as oauth:
        config = settings(
            {
                "HEXHALL_DB": db,
                "HEXHALL_WEB_ADDR": "127.0.0.1:0",
                "HEXHALL_PUBLIC_URL": "https://h.example",
                "HEXHALL_DISCORD_ACTIVITY": "1",
                "DISCORD_CLIENT_ID": "123456789",
                "DISCORD_CLIENT_SECRET": "cs-s3cret",
                "DISCORD_OAUTH_URL": oauth.api_base,
            }
        )
        async with opened(db) as manager, web_board(config, manager) as endpoint:
            assert endpoint is not None
            url = f"http://127.0.0.1:{endpoint.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(f"{url}/?frame_id=f&instance_id=i&platform=desktop") as page:
                    html = await page.text()
                    assert page.status == 200
                assert 'data-client-id="123456789"' in html and "s3cret" not in html
                assert "data-mock" not in html
                code = oauth.issue(OAuthUser(42, "someone"))
                async with http.post(f"{url}/api/activity/session", json={"code": code}) as ok:
                    body = await ok.json()
                    assert ok.status == 200 and body["user"]["id"] == "42", body
