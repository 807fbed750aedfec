"""Settings from the environment and an optional ``.env`` file (a small parser, no dependency).

>>> parse_env('# note\\nA=1\\nexport B = "two words"\\nC=\\'x\\' # not a comment inside quotes')
{'A': '1', 'B': 'two words', 'C': 'x'}
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

__all__ = ["ConfigError", "Settings", "load_env", "parse_env", "settings"]


class ConfigError(Exception):
    """A settings file that cannot be read or parsed (the message says where)."""


def parse_env(text: str) -> dict[str, str]:
    """``KEY=VALUE`` lines: ``#`` comments, blank lines, optional ``export`` and quotes.

    Raises :class:`ConfigError` naming the first line that is not ``KEY=VALUE``.
    """
    values: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export ") :].lstrip()
        key, sep, value = line.partition("=")
        key = key.strip()
        if not sep or not key.replace("_", "").isalnum():
            raise ConfigError(f"line {number} is not KEY=VALUE")
        value = value.strip()
        if value[:1] in ("'", '"') and value[0] in value[1:]:
            value = value[1 : value.index(value[0], 1)]
        else:
            value = value.split(" #", 1)[0].strip()
        values[key] = value
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

    discord_token: str
    telegram_token: str
    db_path: str


def settings(environ: MutableMapping[str, str] | None = None) -> Settings:
    """The settings in ``environ`` (``os.environ`` by default)."""
    env = os.environ if environ is None else environ
    return Settings(
        discord_token=env.get("DISCORD_TOKEN", "").strip(),
        telegram_token=env.get("TELEGRAM_TOKEN", "").strip(),
        db_path=env.get("HEXHALL_DB", "").strip() or "hexhall.db",
    )
