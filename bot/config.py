"""Settings from the environment and an optional ``.env`` file (read with python-dotenv).

Tokens are :class:`Secret` values: they never show in ``repr`` or ``str``, so a settings object
that reaches a log line does not leak them.

>>> parse_env('# note\\nA=1\\nexport B = "two words"\\nC=\\'x\\' # not a comment inside quotes')
{'A': '1', 'B': 'two words', 'C': 'x'}
>>> parse_env("TOKEN='abc\\n")
Traceback (most recent call last):
bot.config.ConfigError: line 1 has an unterminated quote
>>> Secret("abc")
Secret('***')
"""

from __future__ import annotations

import io
import os
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv.parser import parse_stream

__all__ = ["ConfigError", "Secret", "Settings", "load_env", "parse_env", "settings"]


class ConfigError(ValueError):
    """A settings file that cannot be read or parsed (the message says where)."""


@dataclass(frozen=True)
class Secret:
    """A token: shown as ``'***'`` (or ``''`` when unset) everywhere but :meth:`reveal`."""

    value: str = field(repr=False)

    def reveal(self) -> str:
        """The token itself, for the one call that needs it (logging in to a platform)."""
        return self.value

    def __bool__(self) -> bool:
        return bool(self.value)

    def __repr__(self) -> str:
        return f"Secret({'***' if self.value else ''!r})"

    __str__ = __repr__


def parse_env(text: str) -> dict[str, str]:
    """``KEY=VALUE`` lines: ``#`` comments, blank lines, optional ``export`` and quotes.

    Raises :class:`ConfigError` naming the first line that is not ``KEY=VALUE`` (an
    unterminated quote is such a line: it must not become part of a token).
    """
    values: dict[str, str] = {}
    for binding in parse_stream(io.StringIO(text)):
        # Blank lines ahead of a binding belong to it: name the line of the key itself.
        raw = binding.original.string
        number = binding.original.line + len(raw) - len(raw.lstrip("\n"))
        if binding.error:
            line = raw.strip().splitlines()[0]
            _, sep, value = line.partition("=")
            if sep and value.strip()[:1] in ("'", '"'):
                raise ConfigError(f"line {number} has an unterminated quote")
            raise ConfigError(f"line {number} is not KEY=VALUE")
        if binding.key is None:
            continue
        if binding.value is None:
            raise ConfigError(f"line {number} is not KEY=VALUE")
        values[binding.key] = binding.value
    return values


def load_env(
    path: Path = Path(".env"), environ: MutableMapping[str, str] | None = None
) -> list[str]:
    """Copy the settings of ``path`` (if it exists) into ``environ`` without overriding what
    is already set there; returns the keys it set."""
    env = os.environ if environ is None else environ
    if not path.exists():
        return []
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None
    try:
        parsed = parse_env(text)
    except ConfigError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    added = [key for key in parsed if key not in env]
    for key in added:
        env[key] = parsed[key]
    return added


@dataclass(frozen=True)
class Settings:
    """What the bot reads: the chat tokens (empty = that adapter does not start) and the
    database path."""

    discord_token: Secret
    telegram_token: Secret
    db_path: str
    #: The Bot API base URLs (a self-hosted Bot API server, or a test's fake); the token is
    #: appended to them.
    telegram_api_url: str = "https://api.telegram.org/bot"
    telegram_file_url: str = "https://api.telegram.org/file/bot"
    #: Discord's REST base and gateway (a Discord-compatible server, or a test's fake), and
    #: the one server to sync the commands to at once (development; ``None``: globally).
    discord_api_url: str = "https://discord.com/api/v10"
    discord_gateway_url: str = "wss://gateway.discord.gg/"
    discord_guild_id: int | None = None


def _guild_id(value: str) -> int | None:
    """``DISCORD_GUILD_ID``: empty for none, else a server id (a snowflake)."""
    text = value.strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 20:
        raise ConfigError(f"DISCORD_GUILD_ID must be a server id (digits), not {text[:24]!r}")
    return int(text)


def settings(environ: MutableMapping[str, str] | None = None) -> Settings:
    """The settings in ``environ`` (``os.environ`` by default)."""
    env = os.environ if environ is None else environ
    return Settings(
        discord_token=Secret(env.get("DISCORD_TOKEN", "").strip()),
        telegram_token=Secret(env.get("TELEGRAM_TOKEN", "").strip()),
        db_path=env.get("HEXHALL_DB", "").strip() or "hexhall.db",
        telegram_api_url=env.get("TELEGRAM_API_URL", "").strip() or "https://api.telegram.org/bot",
        telegram_file_url=(
            env.get("TELEGRAM_FILE_URL", "").strip() or "https://api.telegram.org/file/bot"
        ),
        discord_api_url=env.get("DISCORD_API_URL", "").strip() or "https://discord.com/api/v10",
        discord_gateway_url=(
            env.get("DISCORD_GATEWAY_URL", "").strip() or "wss://gateway.discord.gg/"
        ),
        discord_guild_id=_guild_id(env.get("DISCORD_GUILD_ID", "")),
    )
