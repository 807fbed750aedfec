"""The Discord Activity's settings: ``HEXHALL_DISCORD_ACTIVITY`` needs the web board and the
app's OAuth2 client id and secret; the secret is a secret (never shown, redacted from logs);
the token endpoint's base is ``DISCORD_OAUTH_URL``, else ``DISCORD_API_URL``."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, settings

WEB = {"HEXHALL_WEB_ADDR": "127.0.0.1:8080", "HEXHALL_PUBLIC_URL": "https://hexhall.example"}
APP = {"DISCORD_CLIENT_ID": "123456789012345678", "DISCORD_CLIENT_SECRET": "cl-s3cret"}


def test_the_activity_is_off_by_default() -> None:
    config = settings({})
    assert config.discord_activity is False
    assert config.discord_oauth_url == "https://discord.com/api/v10"


def test_the_activity_on_with_its_client() -> None:
    config = settings({**WEB, **APP, "HEXHALL_DISCORD_ACTIVITY": "1"})
    assert config.discord_activity is True
    assert config.discord_client_id == "123456789012345678"
    assert config.discord_client_secret.reveal() == "cl-s3cret"
    assert "cl-s3cret" in config.secrets
    assert "s3cret" not in repr(config)


def test_the_oauth_base_follows_the_api_unless_set() -> None:
    fake = {"DISCORD_API_URL": "http://127.0.0.1:9/api/v10"}
    assert settings(fake).discord_oauth_url == "http://127.0.0.1:9/api/v10"
    own = {**fake, "DISCORD_OAUTH_URL": "http://127.0.0.1:7/api/v10/"}
    assert settings(own).discord_oauth_url == "http://127.0.0.1:7/api/v10"


@pytest.mark.parametrize(
    ("env", "names"),
    [
        ({**APP}, "HEXHALL_WEB_ADDR"),
        ({**WEB, "DISCORD_CLIENT_SECRET": "x"}, "DISCORD_CLIENT_ID"),
        ({**WEB, "DISCORD_CLIENT_ID": "1"}, "DISCORD_CLIENT_SECRET"),
    ],
)
def test_the_activity_needs_its_settings(env: dict[str, str], names: str) -> None:
    with pytest.raises(ConfigError, match=names):
        settings({**env, "HEXHALL_DISCORD_ACTIVITY": "1"})


def test_bad_values_are_refused() -> None:
    with pytest.raises(ConfigError, match="HEXHALL_DISCORD_ACTIVITY must be 1 or 0"):
        settings({"HEXHALL_DISCORD_ACTIVITY": "maybe"})
    with pytest.raises(ConfigError, match="DISCORD_CLIENT_ID must be the app's id"):
        settings({**WEB, **APP, "DISCORD_CLIENT_ID": "abc", "HEXHALL_DISCORD_ACTIVITY": "yes"})
