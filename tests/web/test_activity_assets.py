"""The Embedded App SDK the Activity's page loads: one committed file built from the exact
versions pinned in ``docs/tools/discord_sdk`` (package.json and its lock), served from the
bot's own origin at an address naming its content, with its licenses beside it."""

from __future__ import annotations

import json
from pathlib import Path

from bot.webboard import assets

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "docs" / "tools" / "discord_sdk"
STATIC = ROOT / "bot" / "webboard" / "static"


def test_the_sdk_is_pinned_exactly() -> None:
    wanted = json.loads((TOOL / "package.json").read_text())["dependencies"]
    assert wanted == {"@discord/embedded-app-sdk": "2.5.0"}
    lock = json.loads((TOOL / "package-lock.json").read_text())
    locked = lock["packages"]["node_modules/@discord/embedded-app-sdk"]
    assert locked["version"] == "2.5.0" and locked["integrity"].startswith("sha512-")


def test_the_bundle_and_its_licenses_are_committed_and_served() -> None:
    bundle = (STATIC / "discord-sdk.js").read_bytes()
    assert b"HexhallDiscord" in bundle and b"DiscordSDKMock" in bundle
    assert b"new Function" not in bundle  # the page's CSP allows no eval
    licenses = (STATIC / "discord-sdk.LICENSE.txt").read_text()
    lock = json.loads((TOOL / "package-lock.json").read_text())["packages"]
    for name in ("@discord/embedded-app-sdk", "zod", "eventemitter3", "uuid", "big-integer"):
        version = lock[f"node_modules/{name}"]["version"]
        assert f"==== {name} {version} (" in licenses
    served = assets.ASSETS["discord-sdk.js"]
    assert served.body == bundle and served.kind == "text/javascript"
    assert assets.url("discord-sdk.js") == f"/static/{served.version}/discord-sdk.js"
