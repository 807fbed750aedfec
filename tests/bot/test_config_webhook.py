"""The Telegram webhook settings: ``TELEGRAM_WEBHOOK_URL`` (empty: long polling),
``TELEGRAM_WEBHOOK_SECRET`` (required with a URL, Telegram's characters, never shown) and
``TELEGRAM_WEBHOOK_LISTEN``."""

from __future__ import annotations

import pytest

from bot.config import Address, ConfigError, settings

SECRET = "s3cret_Token-42"


def test_polling_is_the_default() -> None:
    config = settings({"TELEGRAM_TOKEN": "1:abc"})
    assert config.telegram_webhook_url == ""
    assert not config.telegram_webhook_secret
    assert config.telegram_webhook_listen == Address("0.0.0.0", 8443)


def test_a_webhook_url_with_its_secret_and_listen_address() -> None:
    config = settings(
        {
            "TELEGRAM_WEBHOOK_URL": " https://bot.example.org:8443/telegram/hook?x=1 ",
            "TELEGRAM_WEBHOOK_SECRET": f" {SECRET} ",
            "TELEGRAM_WEBHOOK_LISTEN": "[::]:9000",
        }
    )
    assert config.telegram_webhook_url == "https://bot.example.org:8443/telegram/hook?x=1"
    assert config.telegram_webhook_path == "/telegram/hook"
    assert config.telegram_webhook_secret.reveal() == SECRET
    assert config.telegram_webhook_listen == Address("::", 9000)
    assert SECRET not in repr(config) and SECRET not in str(config)


def test_a_url_without_a_path_is_served_at_the_root() -> None:
    config = settings(
        {"TELEGRAM_WEBHOOK_URL": "https://bot.example.org", "TELEGRAM_WEBHOOK_SECRET": SECRET}
    )
    assert config.telegram_webhook_path == "/"


def test_the_secret_is_required_with_a_url() -> None:
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET must be set when"):
        settings({"TELEGRAM_WEBHOOK_URL": "https://bot.example.org/hook"})
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_SECRET must be set when"):
        settings(
            {"TELEGRAM_WEBHOOK_URL": "https://bot.example.org/h", "TELEGRAM_WEBHOOK_SECRET": " "}
        )


@pytest.mark.parametrize(
    "secret", ["has space", "semi;colon", "ü-umlaut", "x" * 257, "tab\there", "a/b", "a+b=="]
)
def test_a_secret_outside_telegrams_rule_is_refused_without_showing_it(secret: str) -> None:
    env = {"TELEGRAM_WEBHOOK_URL": "https://bot.example.org/h", "TELEGRAM_WEBHOOK_SECRET": secret}
    with pytest.raises(ConfigError, match="1 to 256 characters of A-Z") as caught:
        settings(env)
    assert secret not in str(caught.value)


def test_the_longest_secret_is_allowed() -> None:
    secret = "Az09_-" * 42 + "abcd"
    assert len(secret) == 256
    env = {"TELEGRAM_WEBHOOK_URL": "https://bot.example.org/h", "TELEGRAM_WEBHOOK_SECRET": secret}
    assert settings(env).telegram_webhook_secret.reveal() == secret


@pytest.mark.parametrize(
    "url",
    [
        "http://bot.example.org/hook",  # Telegram's servers push only over HTTPS
        "bot.example.org/hook",
        "https:///hook",
        "ftp://bot.example.org/hook",
        "https://bot.example.org/hook#part",
        "https://bot.example.org:port/hook",
        "https://bot.example.org:0/hook",
        "https://[::1/hook",
    ],
)
def test_a_bad_webhook_url_is_refused(url: str) -> None:
    env = {"TELEGRAM_WEBHOOK_URL": url, "TELEGRAM_WEBHOOK_SECRET": SECRET}
    with pytest.raises(ConfigError, match="TELEGRAM_WEBHOOK_URL must be an absolute https://"):
        settings(env)


def test_a_self_hosted_bot_api_server_may_push_over_http() -> None:
    env = {
        "TELEGRAM_API_URL": "http://127.0.0.1:8081/bot",
        "TELEGRAM_WEBHOOK_URL": "http://10.0.0.5:8443/hook",
        "TELEGRAM_WEBHOOK_SECRET": SECRET,
    }
    assert settings(env).telegram_webhook_url == "http://10.0.0.5:8443/hook"
    with pytest.raises(ConfigError, match=r"https:// or http://"):
        settings({**env, "TELEGRAM_WEBHOOK_URL": "ws://10.0.0.5/hook"})


@pytest.mark.parametrize(
    ("listen", "message"),
    [
        ("8443", "must be host:port"),
        ("0.0.0.0:", "must be host:port"),
        (":8443", "must be host:port"),
        ("0.0.0.0:84x3", "must be host:port"),
        ("[::1:8443", "must be host:port"),
        ("0.0.0.0:0", "the port must be 1 to 65535, not 0"),
        ("0.0.0.0:70000", "the port must be 1 to 65535, not 70000"),
    ],
)
def test_a_bad_listen_address_is_refused(listen: str, message: str) -> None:
    with pytest.raises(ConfigError, match=f"TELEGRAM_WEBHOOK_LISTEN.*{message}"):
        settings({"TELEGRAM_WEBHOOK_LISTEN": listen})
