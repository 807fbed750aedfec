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
import ipaddress
import os
import re
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv.parser import parse_stream

__all__ = [
    "Address",
    "ConfigError",
    "Secret",
    "Settings",
    "load_env",
    "parse_env",
    "settings",
]


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


# A host name or IPv4 address: letters, digits, dots and hyphens (IPv6 goes in brackets).
_HOST = re.compile(r"[A-Za-z0-9.-]{1,253}", re.ASCII)


@dataclass(frozen=True)
class Address:
    """A ``host:port`` to listen on (``str`` gives it back, IPv6 hosts in brackets).

    >>> Address.parse("127.0.0.1:9100", "HEXHALL_HTTP_ADDR")
    Address(host='127.0.0.1', port=9100)
    >>> str(Address.parse(" [::1]:80 ", "HEXHALL_HTTP_ADDR"))
    '[::1]:80'
    >>> Address.parse("", "HEXHALL_HTTP_ADDR") is None
    True
    >>> Address.parse("9100", "HEXHALL_HTTP_ADDR")
    Traceback (most recent call last):
    bot.config.ConfigError: HEXHALL_HTTP_ADDR must be host:port (like 127.0.0.1:9100), not '9100'
    >>> Address.parse("127.0.0.1:0", "HEXHALL_WEB_ADDR", any_port=True)
    Address(host='127.0.0.1', port=0)
    """

    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    @classmethod
    def parse(cls, value: str, name: str, *, any_port: bool = False) -> Address | None:
        """The address in ``value`` (``None`` when empty); a :class:`ConfigError` naming the
        setting ``name`` when it is not ``host:port`` with a port from 1 to 65535 (or 0 with
        ``any_port``: the system picks a free port, which the server then logs)."""
        text = value.strip()
        if not text:
            return None
        bad = ConfigError(f"{name} must be host:port (like 127.0.0.1:9100), not {text[:40]!r}")
        host, sep, port = text.rpartition(":")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
            try:
                ipaddress.IPv6Address(host)
            except ValueError:
                raise bad from None
        elif not _HOST.fullmatch(host):
            raise bad
        if not sep or not port.isascii() or not port.isdigit() or len(port) > 5:
            raise bad
        lowest = 0 if any_port else 1
        if not lowest <= int(port) <= 65535:
            raise ConfigError(f"{name}: the port must be {lowest} to 65535, not {int(port)}")
        return cls(host, int(port))


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


#: Telegram's own Bot API (``TELEGRAM_API_URL`` when unset).
DEFAULT_TELEGRAM_API_URL = "https://api.telegram.org/bot"


def _url_passwords(url: str) -> list[str]:
    """The passwords a database URL holds (in its user part or as ``password=``)."""
    if "://" not in url:
        return []
    parts = urlsplit(url)
    found = re.findall(r"(?i)(?:^|&)password=([^&]+)", parts.query)
    try:
        password = parts.password
    except ValueError:
        password = None
    return [password, *found] if password else found


@dataclass(frozen=True)
class Settings:
    """What the bot reads: the chat tokens (empty = that adapter does not start) and the
    database path."""

    discord_token: Secret
    telegram_token: Secret
    #: ``HEXHALL_DB``: an SQLite path or a PostgreSQL URL, which may hold a password: left
    #: out of ``repr`` (shown through :func:`bot.storage.redact_url` where it is named).
    db_path: str = field(repr=False)
    #: The Bot API base URLs (a self-hosted Bot API server, or a test's fake); the token is
    #: appended to them.
    telegram_api_url: str = "https://api.telegram.org/bot"
    telegram_file_url: str = "https://api.telegram.org/file/bot"
    #: Discord's REST base and gateway (a Discord-compatible server, or a test's fake), and
    #: the one server to sync the commands to at once (development; ``None``: globally).
    discord_api_url: str = "https://discord.com/api/v10"
    discord_gateway_url: str = "wss://gateway.discord.gg/"
    discord_guild_id: int | None = None
    #: Discord's gateway shards: how many there are in all (``None``: one connection, no
    #: sharding) and which of them this process runs (``None``: all of them).
    discord_shard_count: int | None = None
    discord_shard_ids: tuple[int, ...] | None = None
    #: Where the health check and the Prometheus metrics are served (``None``: nowhere).
    http_addr: Address | None = None
    #: Telegram's webhook mode (empty URL: long polling, the default): the public HTTPS URL
    #: given to ``setWebhook`` (a load balancer in front of every process), the secret token
    #: Telegram sends back with every update, and the address this process listens on.
    telegram_webhook_url: str = ""
    telegram_webhook_secret: Secret = Secret("")
    telegram_webhook_listen: Address = Address("0.0.0.0", 8443)
    #: The public web board (:mod:`bot.webboard`): where this process listens (``None``: off),
    #: the address players reach it at (behind the operator's TLS proxy), the key its personal
    #: links are signed with (shared by every process; empty: derived from the chat tokens),
    #: and the short name of the Telegram Mini App registered with BotFather's ``/newapp``.
    web_addr: Address | None = None
    public_url: str = ""
    web_secret: Secret = Secret("")
    telegram_web_app: str = ""
    #: ``HEXHALL_TRUSTED_PROXIES``: the operator's proxies in front of the web board, whose
    #: ``X-Forwarded-For`` names the client (empty: nobody's is believed, the peer is the client).
    web_trusted_proxies: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()
    #: ``HEXHALL_CLOCK_FILE``, for tests only: a file holding the time the process takes for
    #: now (:class:`bot.sessions.clock.FileClock`, which a test rewrites to move time for a
    #: running ``hexhall run``); empty: the real clock.
    clock_file: str = ""
    #: ``HEXHALL_TELEGRAM_PACE``, for tests only: the Telegram pacer's windows (one message a
    #: second per chat, 20 a minute per group) scaled by this factor, in (0, 1]; 1: Telegram's.
    telegram_pace: float = 1.0
    #: The Discord Activity (:mod:`bot.webboard.activity`): ``HEXHALL_DISCORD_ACTIVITY=1`` makes
    #: "Open board" launch the board inside Discord (interaction callback ``LAUNCH_ACTIVITY``)
    #: instead of answering with a link; the app's OAuth2 client id and secret sign players in
    #: (``DISCORD_CLIENT_ID``, ``DISCORD_CLIENT_SECRET``), against ``DISCORD_OAUTH_URL`` (Discord's
    #: API, or a test's fake token endpoint; ``DISCORD_API_URL`` when unset).
    discord_activity: bool = False
    discord_client_id: str = ""
    discord_client_secret: Secret = Secret("")
    discord_oauth_url: str = "https://discord.com/api/v10"

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every secret of these settings, for the log redactor: both chat tokens, the
        webhook's secret and the database password (if its URL holds one).

        >>> Settings(Secret("t"), Secret(""), "postgresql://u:pw@db/x").secrets
        ('t', 'pw')
        """
        found = [
            self.discord_token.reveal(),
            self.telegram_token.reveal(),
            self.telegram_webhook_secret.reveal(),
            self.web_secret.reveal(),
            self.discord_client_secret.reveal(),
            *_url_passwords(self.db_path),
        ]
        return tuple(secret for secret in found if secret)

    @property
    def telegram_webhook_path(self) -> str:
        """The path the webhook is served at: the webhook URL's (``/`` when it has none)."""
        return urlsplit(self.telegram_webhook_url).path or "/"


#: ``TELEGRAM_WEBHOOK_LISTEN`` when unset.
DEFAULT_WEBHOOK_LISTEN = Address("0.0.0.0", 8443)
# Telegram's rule for setWebhook's secret_token.
_WEBHOOK_SECRET = re.compile(r"[A-Za-z0-9_-]{1,256}", re.ASCII)


def _webhook_url(value: str, api_url: str) -> str:
    """``TELEGRAM_WEBHOOK_URL``: empty for long polling, else an absolute URL.  Telegram's
    own servers push only to HTTPS; a self-hosted Bot API server (another ``api_url``) may
    also push to plain HTTP."""
    text = value.strip()
    if not text:
        return ""
    schemes = ("https",) if api_url == DEFAULT_TELEGRAM_API_URL else ("https", "http")
    try:
        parts = urlsplit(text)
        valid = parts.port is None or parts.port > 0  # a port that is no number raises
    except ValueError:
        valid = False
    if not valid or parts.scheme not in schemes or not parts.hostname or parts.fragment:
        wanted = " or ".join(f"{scheme}://" for scheme in schemes)
        raise ConfigError(
            f"TELEGRAM_WEBHOOK_URL must be an absolute {wanted} URL without a #fragment, "
            f"not {text[:60]!r}"
        )
    return text


def _webhook_secret(value: str, url: str) -> Secret:
    """``TELEGRAM_WEBHOOK_SECRET``: required with a webhook URL; never repeated in errors."""
    text = value.strip()
    if url and not text:
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET must be set when TELEGRAM_WEBHOOK_URL is: Telegram sends "
            "it with every update, and requests without it are refused"
        )
    if text and not _WEBHOOK_SECRET.fullmatch(text):
        raise ConfigError(
            "TELEGRAM_WEBHOOK_SECRET must be 1 to 256 characters of A-Z, a-z, 0-9, _ and - "
            "(Telegram's rule for a webhook's secret token)"
        )
    return Secret(text)


def _public_url(value: str, web_addr: Address | None) -> str:
    """``HEXHALL_PUBLIC_URL``: required with ``HEXHALL_WEB_ADDR``, an absolute http(s) URL
    (no trailing slash kept)."""
    text = value.strip().rstrip("/")
    if not text:
        if web_addr is not None:
            raise ConfigError(
                "HEXHALL_PUBLIC_URL must be set when HEXHALL_WEB_ADDR is: the address players "
                "reach the web board at (like https://hexhall.example)"
            )
        return ""
    parts = urlsplit(text)
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.query or parts.fragment:
        raise ConfigError(f"HEXHALL_PUBLIC_URL must be an absolute https:// URL, not {text[:60]!r}")
    return text


def _web_app(value: str) -> str:
    """``TELEGRAM_WEB_APP``: the Mini App's short name (BotFather's ``/newapp``), or empty."""
    text = value.strip()
    if text and not re.fullmatch(r"[A-Za-z0-9_]{3,30}", text, re.ASCII):
        raise ConfigError(
            "TELEGRAM_WEB_APP must be the Mini App's short name (3 to 30 of A-Z, a-z, 0-9, _), "
            f"not {text[:40]!r}"
        )
    return text


def _trusted_proxies(value: str) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    """``HEXHALL_TRUSTED_PROXIES``: comma-separated addresses or CIDR blocks, or empty.

    >>> [str(n) for n in _trusted_proxies(" 127.0.0.1, 10.0.0.0/8,::1 ")]
    ['127.0.0.1/32', '10.0.0.0/8', '::1/128']
    >>> _trusted_proxies("10.0.0.300")
    Traceback (most recent call last):
    bot.config.ConfigError: HEXHALL_TRUSTED_PROXIES: '10.0.0.300' is not an address or CIDR block
    """
    networks = []
    for item in value.split(","):
        text = item.strip()
        if not text:
            continue
        try:
            networks.append(ipaddress.ip_network(text, strict=False))
        except ValueError:
            raise ConfigError(
                f"HEXHALL_TRUSTED_PROXIES: {text[:50]!r} is not an address or CIDR block"
            ) from None
    return tuple(networks)


def _pace(value: str) -> float:
    """``HEXHALL_TELEGRAM_PACE`` (tests only): a factor in (0, 1] for the Telegram pacer's
    windows; empty: 1 (Telegram's own limits).

    >>> _pace(""), _pace(" 0.25 ")
    (1.0, 0.25)
    """
    text = value.strip()
    if not text:
        return 1.0
    try:
        factor = float(text)
    except ValueError:
        factor = 0.0
    if not 0.0 < factor <= 1.0:
        raise ConfigError(f"HEXHALL_TELEGRAM_PACE must be a number in (0, 1], not {text[:20]!r}")
    return factor


def _activity(env: MutableMapping[str, str], web_addr: Address | None) -> bool:
    """``HEXHALL_DISCORD_ACTIVITY``: ``1`` (or ``true``/``yes``) turns the Discord Activity on;
    it needs the web board and the app's OAuth2 client id and secret."""
    text = env.get("HEXHALL_DISCORD_ACTIVITY", "").strip().lower()
    if text in ("", "0", "false", "no"):
        return False
    if text not in ("1", "true", "yes"):
        raise ConfigError(f"HEXHALL_DISCORD_ACTIVITY must be 1 or 0, not {text[:20]!r}")
    missing = [
        name
        for name, present in (
            ("HEXHALL_WEB_ADDR", web_addr is not None),
            ("DISCORD_CLIENT_ID", bool(env.get("DISCORD_CLIENT_ID", "").strip())),
            ("DISCORD_CLIENT_SECRET", bool(env.get("DISCORD_CLIENT_SECRET", "").strip())),
        )
        if not present
    ]
    if missing:
        raise ConfigError(f"HEXHALL_DISCORD_ACTIVITY=1 needs {', '.join(missing)} set too")
    client_id = env.get("DISCORD_CLIENT_ID", "").strip()
    if not client_id.isascii() or not client_id.isdigit() or len(client_id) > 20:
        raise ConfigError(
            f"DISCORD_CLIENT_ID must be the app's id (digits), not {client_id[:24]!r}"
        )
    return True


def _guild_id(value: str) -> int | None:
    """``DISCORD_GUILD_ID``: empty for none, else a server id (a snowflake)."""
    text = value.strip()
    if not text:
        return None
    if not text.isdigit() or len(text) > 20:
        raise ConfigError(f"DISCORD_GUILD_ID must be a server id (digits), not {text[:24]!r}")
    return int(text)


def _shard_count(value: str) -> int | None:
    """``DISCORD_SHARD_COUNT``: empty for no sharding, else how many shards there are."""
    text = value.strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 6 or int(text) < 1:
        raise ConfigError(
            f"DISCORD_SHARD_COUNT must be a whole number of shards, 1 or more, not {text[:24]!r}"
        )
    return int(text)


def _shard_ids(value: str, count: int | None) -> tuple[int, ...] | None:
    """``DISCORD_SHARD_IDS``: empty for every shard, else this process's shards, numbered
    from 0 and each below ``DISCORD_SHARD_COUNT``."""
    text = value.strip()
    if not text:
        return None
    if count is None:
        raise ConfigError(
            "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (how many shards there are in all)"
        )
    ids: list[int] = []
    for entry in (part.strip() for part in text.split(",")):
        if not entry.isascii() or not entry.isdigit() or len(entry) > 6:
            raise ConfigError(
                "DISCORD_SHARD_IDS must be shard numbers separated by commas (e.g. 0,2), "
                f"not {text[:40]!r}"
            )
        shard = int(entry)
        if shard >= count:
            raise ConfigError(
                f"DISCORD_SHARD_IDS names shard {shard}, but with DISCORD_SHARD_COUNT={count} "
                f"the shards are 0 to {count - 1}"
            )
        if shard in ids:
            raise ConfigError(f"DISCORD_SHARD_IDS names shard {shard} twice")
        ids.append(shard)
    return tuple(ids)


def settings(environ: MutableMapping[str, str] | None = None) -> Settings:
    """The settings in ``environ`` (``os.environ`` by default)."""
    env = os.environ if environ is None else environ
    telegram_api_url = env.get("TELEGRAM_API_URL", "").strip() or DEFAULT_TELEGRAM_API_URL
    webhook_url = _webhook_url(env.get("TELEGRAM_WEBHOOK_URL", ""), telegram_api_url)
    listen = env.get("TELEGRAM_WEBHOOK_LISTEN", "")
    shard_count = _shard_count(env.get("DISCORD_SHARD_COUNT", ""))
    web_addr = Address.parse(env.get("HEXHALL_WEB_ADDR", ""), "HEXHALL_WEB_ADDR", any_port=True)
    return Settings(
        discord_token=Secret(env.get("DISCORD_TOKEN", "").strip()),
        telegram_token=Secret(env.get("TELEGRAM_TOKEN", "").strip()),
        db_path=env.get("HEXHALL_DB", "").strip() or "hexhall.db",
        telegram_api_url=telegram_api_url,
        telegram_file_url=(
            env.get("TELEGRAM_FILE_URL", "").strip() or "https://api.telegram.org/file/bot"
        ),
        discord_api_url=env.get("DISCORD_API_URL", "").strip() or "https://discord.com/api/v10",
        discord_gateway_url=(
            env.get("DISCORD_GATEWAY_URL", "").strip() or "wss://gateway.discord.gg/"
        ),
        discord_guild_id=_guild_id(env.get("DISCORD_GUILD_ID", "")),
        discord_shard_count=shard_count,
        discord_shard_ids=_shard_ids(env.get("DISCORD_SHARD_IDS", ""), shard_count),
        http_addr=Address.parse(env.get("HEXHALL_HTTP_ADDR", ""), "HEXHALL_HTTP_ADDR"),
        telegram_webhook_url=webhook_url,
        telegram_webhook_secret=_webhook_secret(
            env.get("TELEGRAM_WEBHOOK_SECRET", ""), webhook_url
        ),
        telegram_webhook_listen=(
            Address.parse(listen, "TELEGRAM_WEBHOOK_LISTEN") or DEFAULT_WEBHOOK_LISTEN
        ),
        web_addr=web_addr,
        public_url=_public_url(env.get("HEXHALL_PUBLIC_URL", ""), web_addr),
        web_secret=Secret(env.get("HEXHALL_WEB_SECRET", "").strip()),
        telegram_web_app=_web_app(env.get("TELEGRAM_WEB_APP", "")),
        web_trusted_proxies=_trusted_proxies(env.get("HEXHALL_TRUSTED_PROXIES", "")),
        clock_file=env.get("HEXHALL_CLOCK_FILE", "").strip(),
        telegram_pace=_pace(env.get("HEXHALL_TELEGRAM_PACE", "")),
        discord_activity=_activity(env, web_addr),
        discord_client_id=env.get("DISCORD_CLIENT_ID", "").strip(),
        discord_client_secret=Secret(env.get("DISCORD_CLIENT_SECRET", "").strip()),
        discord_oauth_url=(
            env.get("DISCORD_OAUTH_URL", "").strip()
            or env.get("DISCORD_API_URL", "").strip()
            or "https://discord.com/api/v10"
        ).rstrip("/"),
    )
