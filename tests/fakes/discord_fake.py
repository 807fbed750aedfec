"""A fake Discord on 127.0.0.1 for the adapter tests: REST under ``/api/v10`` and a gateway
websocket, so a real discord.py 2.7 client does real work (login, gateway, command sync, option
transformers, views, multipart uploads, error mapping) against it.

Point discord.py at it with :func:`point_discord_py_at` (it sets ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and restores them), start the client with a
small ``guild_ready_timeout``, wait for :meth:`FakeDiscord.wait_connected`, then drive it:

* world: :meth:`~FakeDiscord.guild`, :meth:`~FakeDiscord.channel`, :meth:`~FakeDiscord.member`,
  :meth:`~FakeDiscord.user`, :meth:`~FakeDiscord.dm_channel`,
  :meth:`~FakeDiscord.private_channel`, :meth:`~FakeDiscord.close_dms`;
* gateway: :meth:`~FakeDiscord.wait_connected`, :attr:`~FakeDiscord.sessions`,
  :meth:`~FakeDiscord.dispatch` (any event to every identified session, or one shard's);
* shards, as Discord routes them: ``FakeDiscord(shard_count=N)`` answers ``/gateway/bot``
  with ``N`` shards; each session holds the shard its IDENTIFY names (``shard: [id, count]``,
  ``[0, 1]`` when absent); a guild's events (its GUILD_CREATE, interactions in it) reach only
  the sessions whose shard holds it, ``(guild_id >> 22) % count`` (:func:`shard_of`), and
  events outside guilds (DMs) shard 0.  Several clients may be connected at once (one
  process per shard): :meth:`~FakeDiscord.wait_shards`, :meth:`~FakeDiscord.sessions_on`,
  :attr:`GatewaySession.guilds`, :attr:`InteractionRecord.shards`, and
  :func:`guild_on_shard` to pick guild ids for a shard;
* users acting: :meth:`~FakeDiscord.slash`, :meth:`~FakeDiscord.autocomplete` (or
  :meth:`~FakeDiscord.autocomplete_interaction` without waiting), :meth:`~FakeDiscord.click`
  (each dispatches an INTERACTION_CREATE built like Discord's; :class:`ImpossibleInteraction`
  for what a user could not do);
* what the bot did: :meth:`~FakeDiscord.response` (first accepted response),
  :meth:`~FakeDiscord.followups`, :meth:`~FakeDiscord.original`,
  :meth:`~FakeDiscord.wait_message`, :attr:`~FakeDiscord.messages`, and every HTTP request in
  ``calls`` (``Call.method`` is the route template, e.g. ``"POST /channels/{channel_id}/messages"``,
  ``Call.data`` is ``{"params", "query", "body"}``, ``Call.response`` is ``{"status", "body"}``);
* faults: :meth:`~FakeDiscord.rate_limit`, ``response_deadline`` (the 3-second rule),
  :meth:`~FakeDiscord.drop_sessions` (RESUME replays missed events; ``allow_resume=False``
  answers op 9 and discord.py identifies afresh after its own 5 s pause).

The fake answers like Discord where it matters to a bot: unknown routes 404 (code 0), Discord's
limits enforced with 400 code 50035 "Invalid Form Body" (content, embeds, components, custom ids,
autocomplete choices, command schema), one first response per interaction (400, 40060), the
first response within ``response_deadline`` seconds (else 404, 10062), DMs to a user who closed
them refused (403, 50007), JSON with ``Content-Type`` exactly ``application/json``.

The platform's refusals a bot meets in real use (see "Platform refusals" below): the same id
twice in ``allowed_mentions`` (400, 50035 ``SET_TYPE_ALREADY_CONTAINS_VALUE``); posting or
editing through REST in a channel the bot is not in (403, 50001); interaction tokens used after
``token_lifetime`` (15 minutes, measured on ``clock``: a :class:`~tests.fakes.base.ManualClock`
lets a test move time) answer 401, 50027; more than 5 followups to an interaction authorised
only by a user install (400, 40094); opening a DM channel with a user who cannot be DMed
(:meth:`~FakeDiscord.refuse_dm_channel`: 400, 50007); the commands of a user-installed app
usable only by users who installed it (:meth:`~FakeDiscord.uninstall_app`).

>>> fake = FakeDiscord()
>>> fake.channel(fake.guild(1, "Hall"), 10, "games").name
'games'
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import secrets
import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final

import discord.gateway
import discord.http
import yarl
from aiohttp import BodyPartReader, WSMsgType, web

from tests.fakes.base import DEFAULT_DEADLINE, FakeServer, ManualClock

if TYPE_CHECKING:
    # discord.py's own payload TypedDicts (its types package is only importable for typing).
    from discord.types.gateway import ReadyEvent
    from discord.types.member import Member as MemberPayload
    from discord.types.user import User as UserPayload

__all__ = [
    "API_PREFIX",
    "CallbackAttempt",
    "ChannelKind",
    "DiscordError",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeUser",
    "GatewaySession",
    "ImpossibleInteraction",
    "InteractionContext",
    "InteractionKind",
    "InteractionRecord",
    "NotConnected",
    "ResponseKind",
    "ResponseRefused",
    "StaleOption",
    "StoredMessage",
    "guild_on_shard",
    "point_discord_py_at",
    "shard_of",
]

#: Path prefix of the REST API (discord.py's ``Route.BASE`` is ``<fake.url>/api/v10``).
API_PREFIX: Final = "/api/v10"
#: Path of the gateway websocket.
GATEWAY_PATH: Final = "/gateway"
DISCORD_EPOCH_MS: Final = 1_420_070_400_000

# Message flags the fake looks at.
FLAG_SUPPRESS_EMBEDS: Final = 1 << 2
FLAG_EPHEMERAL: Final = 1 << 6
FLAG_LOADING: Final = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS: Final = 1 << 12
FLAG_COMPONENTS_V2: Final = 1 << 15

# Permission bits of threads (Discord's permissions reference): a bot needs the first to start a
# public thread and the second to post in one.
CREATE_PUBLIC_THREADS: Final = 1 << 35
SEND_MESSAGES_IN_THREADS: Final = 1 << 38
#: The thread archive durations Discord takes, in minutes.
ARCHIVE_DURATIONS: Final = (60, 1440, 4320, 10080)

# Permission bits granted to everyone in the fake's guilds: view, send, embed, attach, history,
# reactions, use application commands (enough for a game bot; the fake does not check them).
EVERYONE_PERMISSIONS: Final = str(
    (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31)
)


class InteractionKind(IntEnum):
    """Discord's interaction types."""

    PING = 1
    APPLICATION_COMMAND = 2
    MESSAGE_COMPONENT = 3
    AUTOCOMPLETE = 4
    MODAL_SUBMIT = 5


class ResponseKind(IntEnum):
    """Discord's interaction callback (response) types."""

    PONG = 1
    CHANNEL_MESSAGE = 4
    DEFERRED_CHANNEL_MESSAGE = 5
    DEFERRED_UPDATE_MESSAGE = 6
    UPDATE_MESSAGE = 7
    AUTOCOMPLETE_RESULT = 8
    MODAL = 9
    #: Launch the app's Activity: "Only available for apps with Activities enabled" (Discord's
    #: Receiving and Responding, Interaction Callback Type); see FakeDiscord.activities.
    LAUNCH_ACTIVITY = 12


class InteractionContext(IntEnum):
    """Where an interaction happened (``context`` in the payload)."""

    GUILD = 0
    BOT_DM = 1
    PRIVATE_CHANNEL = 2


class ChannelKind(IntEnum):
    """The channel types the fake hosts."""

    TEXT = 0
    DM = 1
    GROUP_DM = 3
    PUBLIC_THREAD = 11


class OptionKind(IntEnum):
    """Application command option types."""

    SUB_COMMAND = 1
    SUB_COMMAND_GROUP = 2
    STRING = 3
    INTEGER = 4
    BOOLEAN = 5
    USER = 6
    CHANNEL = 7
    ROLE = 8
    MENTIONABLE = 9
    NUMBER = 10
    ATTACHMENT = 11


# Which response types Discord accepts for which interaction type. Autocomplete answers only
# with choices (it cannot be deferred); a command cannot "update" a message it did not make.
ALLOWED_RESPONSES: Final[Mapping[InteractionKind, frozenset[int]]] = {
    InteractionKind.PING: frozenset({ResponseKind.PONG}),
    InteractionKind.APPLICATION_COMMAND: frozenset(
        {
            ResponseKind.CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_CHANNEL_MESSAGE,
            ResponseKind.MODAL,
            ResponseKind.LAUNCH_ACTIVITY,
        }
    ),
    InteractionKind.MESSAGE_COMPONENT: frozenset(
        {
            ResponseKind.CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
            ResponseKind.UPDATE_MESSAGE,
            ResponseKind.MODAL,
            ResponseKind.LAUNCH_ACTIVITY,
        }
    ),
    InteractionKind.AUTOCOMPLETE: frozenset({ResponseKind.AUTOCOMPLETE_RESULT}),
    InteractionKind.MODAL_SUBMIT: frozenset(
        {
            ResponseKind.CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_CHANNEL_MESSAGE,
            ResponseKind.DEFERRED_UPDATE_MESSAGE,
            ResponseKind.UPDATE_MESSAGE,
            ResponseKind.LAUNCH_ACTIVITY,
        }
    ),
}
#: The application flag of an app with an Activity (``EMBEDDED``, Discord's Application Flags).
APP_EMBEDDED: Final = 1 << 17
#: The command type of an Activity's Entry Point command (``PRIMARY_ENTRY_POINT``).
ENTRY_POINT: Final = 4


# --------------------------------------------------------------------------------------------
# Errors


class DiscordError(Exception):
    """An error the fake answers with Discord's JSON body (raised inside route handlers)."""

    def __init__(
        self, status: int, code: int, message: str, errors: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> dict[str, Any]:
        """The JSON body Discord sends for this error."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


class ImpossibleInteraction(ValueError):
    """A test asked for something a user could not do in Discord's client (a command that was
    never synced, a choice that is not offered, a button that is not on the message)."""


class ResponseRefused(AssertionError):
    """The bot's first interaction response was refused by the fake (see ``attempt``)."""

    def __init__(self, attempt: CallbackAttempt) -> None:
        super().__init__(f"the fake refused the response: {attempt.status} {attempt.body}")
        self.attempt = attempt


class NotConnected(AssertionError):
    """No identified gateway session to dispatch to (start the bot and wait_connected first)."""


class _FormErrors:
    """Collects Discord's nested "Invalid Form Body" errors; raises them all at once."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: Sequence[str | int], code: str, message: str) -> None:
        node = self.errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def length(self, path: Sequence[str | int], value: object, low: int, high: int) -> None:
        """Check a string's length is within ``low``..``high`` (Discord counts characters)."""
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Value must be a string.")
        elif len(value) > high and low == 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def count(self, path: Sequence[str | int], value: Sequence[Any], high: int) -> None:
        """Check a list has at most ``high`` entries."""
        if len(value) > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")

    def raise_if_any(self) -> None:
        if self.errors:
            raise DiscordError(400, 50035, "Invalid Form Body", self.errors)


# --------------------------------------------------------------------------------------------
# The world: users, guilds, channels


def _iso(moment: datetime) -> str:
    return moment.isoformat()


@dataclass
class FakeUser:
    """A Discord user (a player, or the bot itself)."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: Whether opening a DM channel with this user is refused (400, 50007).
    dm_channel_refused: bool = False
    #: Whether the user installed the app to their account (a user install): only then are
    #: its user-installable commands offered to them.
    has_app: bool = True

    def payload(self) -> UserPayload:
        """The user object as Discord sends it."""
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class FakeMember:
    """A user's membership of a guild."""

    guild_id: int
    user: FakeUser
    nick: str | None = None
    joined_at: datetime = field(default_factory=lambda: datetime.now(UTC))

    def payload(self, *, with_permissions: bool = False) -> MemberPayload:
        """The guild member object (``flags`` included: discord.py 2.7 reads it)."""
        data: MemberPayload = {
            "user": self.user.payload(),
            "roles": [],
            "joined_at": _iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
        }
        if self.nick is not None:
            data["nick"] = self.nick
        if with_permissions:
            data["permissions"] = EVERYONE_PERMISSIONS
        return data


@dataclass
class FakeChannel:
    """A text channel of a guild, a DM with the bot, or a private channel (DM between users or
    group DM) where only a user-installed app can answer interactions."""

    id: int
    name: str
    kind: ChannelKind = ChannelKind.TEXT
    guild_id: int | None = None
    recipients: tuple[int, ...] = ()
    position: int = 0
    #: True for DMs and group DMs the bot is not part of (it cannot post there through REST).
    bot_is_member: bool = True
    #: A thread's channel (the channel it was started in).
    parent_id: int | None = None
    #: A thread's creator.
    owner_id: int | None = None
    #: A thread's auto-archive duration in minutes.
    archive_after: int = 1440

    def payload(self, users: Mapping[int, FakeUser]) -> dict[str, Any]:
        """The full channel object (interactions carry it; discord.py builds the channel)."""
        if self.kind is ChannelKind.PUBLIC_THREAD:
            return {
                "id": str(self.id),
                "type": int(self.kind),
                "guild_id": str(self.guild_id),
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "name": self.name,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "flags": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": self.archive_after,
                    "archive_timestamp": _iso(datetime.now(UTC)),
                    "locked": False,
                },
            }
        if self.kind is ChannelKind.TEXT:
            return {
                "id": str(self.id),
                "type": int(self.kind),
                "guild_id": str(self.guild_id),
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
                "topic": None,
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
            }
        recipients = [users[uid].payload() for uid in self.recipients if uid in users]
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": int(self.kind),
            "last_message_id": None,
            "flags": 0,
            "recipients": recipients,
        }
        if self.kind is ChannelKind.GROUP_DM:
            data.update(name=self.name, icon=None, owner_id=str(self.recipients[0]))
        return data


@dataclass
class FakeGuild:
    """A Discord server with its channels and members."""

    id: int
    name: str
    owner_id: int
    channels: dict[int, FakeChannel] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    #: Whether the app is installed to the server (its bot a member): else only the commands
    #: of a user install work there, and the bot can neither post nor edit.
    bot_is_member: bool = True
    #: Permission bits the bot has here beyond everyone's (e.g. the thread permissions, see
    #: :meth:`FakeDiscord.grant_threads`); they reach the bot as ``app_permissions``.
    bot_extra: int = 0
    #: The server's preferred locale (a Community server's setting; ``en-US`` otherwise),
    #: sent with every interaction in it as ``guild_locale``.
    locale: str = "en-US"

    def bot_permissions(self) -> int:
        """The bot's permissions in the guild's channels."""
        return int(EVERYONE_PERMISSIONS) | self.bot_extra

    def everyone_role(self) -> dict[str, Any]:
        """The @everyone role (its id is the guild's id)."""
        return {
            "id": str(self.id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "position": 0,
            "permissions": EVERYONE_PERMISSIONS,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def payload(self, users: Mapping[int, FakeUser], *, all_members: bool) -> dict[str, Any]:
        """The GUILD_CREATE payload: a minimal but complete guild. Without the members intent
        Discord lists only the bot itself among the members."""
        members = [m for m in self.members.values() if all_members or m.user.bot]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone_role()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _iso(datetime.now(UTC)),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.payload() for m in members],
            "channels": [c.payload(users) for c in self.channels.values()],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


# --------------------------------------------------------------------------------------------
# What the bot sent


@dataclass
class StoredMessage:
    """A message the bot made (in a channel, or as an interaction response or followup), as the
    fake holds it after every edit. ``payload()`` is the message object Discord would return."""

    id: int
    channel_id: int
    guild_id: int | None
    author: UserPayload
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[dict[str, Any]] = field(default_factory=list)
    #: Uploaded bytes by attachment id.
    file_bytes: dict[int, bytes] = field(default_factory=dict)
    flags: int = 0
    #: Users, roles and @everyone/@here this message notified, after ``allowed_mentions``.
    pinged_users: frozenset[int] = frozenset()
    pinged_roles: frozenset[int] = frozenset()
    pinged_everyone: bool = False
    mention_payloads: list[UserPayload] = field(default_factory=list)
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    edited_at: datetime | None = None
    edits: int = 0
    deleted: bool = False
    message_type: int = 0
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    #: The interaction this message answers (response or followup), if any.
    interaction_id: int | None = None

    @property
    def ephemeral(self) -> bool:
        """Whether only the interaction's user sees it."""
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """Whether it is still a deferred "thinking…" placeholder."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        """Uploaded bytes by file name."""
        return {
            a["filename"]: self.file_bytes[int(a["id"])]
            for a in self.attachments
            if int(a["id"]) in self.file_bytes
        }

    def walk_components(self) -> Iterator[dict[str, Any]]:
        """Every component, nested ones included (rows, sections, containers…)."""
        yield from _walk_components(self.components)

    @property
    def custom_ids(self) -> list[str]:
        """The custom ids of the message's interactive components, in order."""
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """The component with that custom id, if the message has it."""
        return next((c for c in self.walk_components() if c.get("custom_id") == custom_id), None)

    def payload(self) -> dict[str, Any]:
        """The message object."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author,
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else _iso(self.edited_at),
            "tts": False,
            "mention_everyone": self.pinged_everyone,
            "mentions": self.mention_payloads,
            "mention_roles": [str(r) for r in self.pinged_roles],
            "attachments": self.attachments,
            "embeds": self.embeds,
            "pinned": False,
            "type": self.message_type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if self.message_reference is not None:
            data["message_reference"] = self.message_reference
        return data


def _walk_components(components: Sequence[Any]) -> Iterator[dict[str, Any]]:
    for component in components:
        if not isinstance(component, dict):
            continue
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from _walk_components(children)
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from _walk_components([child])


@dataclass
class CallbackAttempt:
    """One POST to an interaction's callback route and what the fake answered."""

    type: int
    data: dict[str, Any]
    files: dict[str, bytes]
    status: int
    body: Any
    at: float

    @property
    def ok(self) -> bool:
        """Whether the fake accepted it."""
        return 200 <= self.status < 300

    @property
    def ephemeral(self) -> bool:
        """Whether the response asked for an ephemeral message (flag 64)."""
        return bool(int(self.data.get("flags") or 0) & FLAG_EPHEMERAL)


@dataclass
class InteractionRecord:
    """An interaction the fake dispatched and everything the bot did about it."""

    id: int
    token: str
    kind: InteractionKind
    payload: dict[str, Any]
    user: FakeUser
    channel: FakeChannel
    guild: FakeGuild | None
    context: InteractionContext
    dispatched_at: float
    deadline: float
    #: Sessions the INTERACTION_CREATE reached.
    delivered_to: int = 0
    #: The shard ids of the sessions it reached (one entry per session).
    shards: list[int] = field(default_factory=list)
    attempts: list[CallbackAttempt] = field(default_factory=list)
    #: The first accepted response (None until the bot answers in time).
    response: CallbackAttempt | None = None
    #: The response message (type 4/5; for 6/7 the component's message), after edits.
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    #: The message a component interaction came from.
    message: StoredMessage | None = None
    #: When the token was issued, on the fake's ``clock`` (it lasts ``token_lifetime``).
    token_issued_at: float = 0.0

    @property
    def user_install_only(self) -> bool:
        """Whether only a user install authorises it (no guild install among its owners)."""
        return "0" not in self.payload["authorizing_integration_owners"]

    @property
    def expired(self) -> bool:
        """Whether the deadline for the first response has passed."""
        return time.monotonic() > self.deadline

    @property
    def choices(self) -> list[dict[str, Any]] | None:
        """The autocomplete choices the bot answered with (None before an accepted answer)."""
        if self.response is None or self.response.type != ResponseKind.AUTOCOMPLETE_RESULT:
            return None
        return list(self.response.data.get("choices", []))


@dataclass
class GatewaySession:
    """One connected gateway websocket (one bot process, or one shard of it)."""

    ws: web.WebSocketResponse
    session_id: str = ""
    shard: tuple[int, int] = (0, 1)
    sequence: int = 0
    ready: bool = False
    heartbeats: int = 0
    intents: int = 0
    #: The guilds this session holds (listed in its READY; sent as GUILD_CREATE with the
    #: GUILDS intent).
    guilds: set[int] = field(default_factory=set)
    #: Dispatches sent (or missed while disconnected), by sequence number, for RESUME.
    backlog: list[tuple[int, str, Any]] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        """Send one frame (dispatches, op 0, carry the next sequence number)."""
        seq = None
        async with self.lock:
            if op == 0:
                seq = self.keep(event or "", data)
            await self.ws.send_str(json.dumps({"op": op, "d": data, "s": seq, "t": event}))

    def keep(self, event: str, data: Any) -> int:
        """Number a dispatch and keep it for a later RESUME; return its sequence number."""
        self.sequence += 1
        self.backlog.append((self.sequence, event, data))
        del self.backlog[:-1000]
        return self.sequence

    async def replay(self, after: int) -> None:
        """Send again the dispatches numbered after ``after`` (RESUME)."""
        async with self.lock:
            for seq, event, data in self.backlog:
                if seq > after:
                    await self.ws.send_str(json.dumps({"op": 0, "d": data, "s": seq, "t": event}))


@dataclass(frozen=True)
class StaleOption:
    """An option value as a client with an old copy of the command schema sends it: its own
    option ``type`` and raw ``value``, whatever the synced schema now says (pass it among the
    options of ``slash(..., strict=False)``). Discord's clients cache the command list, so a
    changed option can arrive in its old form until the client refreshes."""

    type: int
    value: Any


@dataclass
class _RateLimit:
    route: str
    retry_after: float
    is_global: bool
    remaining: int


# --------------------------------------------------------------------------------------------
# Rate limits and nonces (issue 24)

#: The route that creates a message in a channel (the per-channel bucket, and nonces).
CREATE_MESSAGE = "POST /channels/{channel_id}/messages"
#: How long Discord remembers an enforced nonce ("checked for uniqueness in the past few
#: minutes": the fake takes five).
NONCE_MEMORY = 300.0


@dataclass(frozen=True)
class DiscordLimits:
    """Discord's rate limits, enforced with its 429 answer when given to :class:`FakeDiscord`
    (off by default, so other tests never wait on them).

    - Global: "All bots can make up to 50 requests per second to our API" (Rate Limits,
      https://discord.com/developers/docs/topics/rate-limits#global-rate-limit); interaction
      responses are not bound to it ("Interaction endpoints are not bound to the bot's Global
      Rate Limit"), nor are webhook routes with their own token.
    - Per channel: message creation is a per-route bucket keyed by its top-level resource,
      the channel ("if you exceeded a rate limit when calling one endpoint /channels/1234,
      you could still call another similar endpoint like /channels/9876"); its observed size
      is 5 messages per 5 seconds (``X-RateLimit-Limit: 5``, reset after 5 s).
    - A refusal is 429 with ``message``, ``retry_after`` (seconds, a float) and ``global`` in
      the body (Rate Limits, "Exceeding A Rate Limit") and the ``Retry-After`` /
      ``X-RateLimit-Scope`` headers.
    """

    per_channel: int = 5
    channel_period: float = 5.0
    per_second: int = 50


class _Buckets:
    """The sliding windows of :class:`DiscordLimits`, on ``clock`` (the fake's: monotonic
    unless a test passes a :class:`~tests.fakes.base.ManualClock`)."""

    def __init__(self, limits: DiscordLimits, clock: Callable[[], float]) -> None:
        self.limits = limits
        self.clock = clock
        self._global: deque[float] = deque()
        self._channels: dict[str, deque[float]] = {}

    @staticmethod
    def _wait(window: deque[float], allowed: int, period: float, now: float) -> float:
        while window and window[0] <= now - period:
            window.popleft()
        return 0.0 if len(window) < allowed else window[0] + period - now

    def take(self, route: str, channel_id: str | None) -> tuple[float, bool] | None:
        """Count one request of ``route``; ``(retry_after, is_global)`` when it is refused."""
        if " /interactions/" in route or " /webhooks/" in route:
            return None
        now = self.clock()
        wait = self._wait(self._global, self.limits.per_second, 1.0, now)
        if wait > 0:
            return round(wait, 3) or 0.001, True
        window = None
        if route == CREATE_MESSAGE and channel_id is not None:
            window = self._channels.setdefault(channel_id, deque())
            period = self.limits.channel_period
            wait = self._wait(window, self.limits.per_channel, period, now)
            if wait > 0:
                return round(wait, 3) or 0.001, False
            window.append(now)
        self._global.append(now)
        return None


def _limit_refusal(retry_after: float, is_global: bool) -> web.Response:
    body = {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": is_global,
    }
    return _json(body, 429, _rate_limit_headers(_RateLimit("", retry_after, is_global, 0)))


# --------------------------------------------------------------------------------------------
# Pointing discord.py at the fake


@contextlib.contextmanager
def point_discord_py_at(fake: FakeDiscord) -> Iterator[None]:
    """Point discord.py's REST base and gateway at ``fake`` (a running fake); restore on exit.

    These are discord.py internals (pinned ``~= 2.7.0``; a canary test guards them).
    """
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = fake.gateway_url
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


# --------------------------------------------------------------------------------------------
# Shards


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that receives a guild's events, as Discord computes it; events outside guilds
    (DMs) go to shard 0.

    >>> shard_of(guild_on_shard(3, 4), 4), shard_of(None, 4)
    (3, 0)
    """
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


def guild_on_shard(shard: int, shard_count: int, n: int = 0) -> int:
    """The ``n``-th guild id (a snowflake) that Discord puts on ``shard`` of ``shard_count``.

    >>> [shard_of(guild_on_shard(1, 2, n), 2) for n in range(3)]
    [1, 1, 1]
    """
    if not 0 <= shard < shard_count:
        raise ValueError(f"shard {shard} is not one of 0..{shard_count - 1}")
    # The timestamp bits above 22 pick the shard; a distinct low part keeps ids apart.
    return ((1_000 + n) * shard_count + shard) << 22 | (n + 1)


# --------------------------------------------------------------------------------------------
# Limits


def _valid_command_name(name: object) -> bool:
    r"""Discord's rule for a command's or option's name (and each of its localizations):
    ``^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lowercase where a letter has a
    lowercase form (Discord's *Application Command Naming*).  Discord's docs now allow ``'``
    too; the fake refuses it, as Discord did when the rule was first written."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    return all(_name_char(c) for c in name)


def _name_char(c: str) -> bool:
    if c in "-_" or unicodedata.category(c)[0] in "LN":
        return True
    # \p{sc=Deva} and \p{sc=Thai}: their vowel signs and marks are no letters.
    return unicodedata.name(c, "").startswith(("DEVANAGARI", "THAI"))


def _check_unique_names(
    items: list[Any], path: list[str | int], form: _FormErrors, code: str
) -> None:
    """Siblings (commands of one type, or the options of one command) have distinct names in
    every locale: each one's localized name, or its name where it has none."""
    locales = {
        str(locale)
        for item in items
        if isinstance(item, dict)
        for locale in (item.get("name_localizations") or {})
    }
    for locale in sorted(locales):
        seen: set[str] = set()
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            said = (item.get("name_localizations") or {}).get(locale) or item.get("name")
            if said in seen:
                form.add([*path, i, "name_localizations", locale], code, "Names must be unique")
            seen.add(str(said))


def _check_embeds(embeds: object, form: _FormErrors) -> None:
    if not isinstance(embeds, list):
        form.add(["embeds"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    form.count(["embeds"], embeds, 10)
    total = 0
    for i, embed in enumerate(embeds):
        path: list[str | int] = ["embeds", i]
        if not isinstance(embed, dict):
            form.add(path, "BASE_TYPE_DICT", "Must be an object.")
            continue
        for key, limit in (("title", 256), ("description", 4096)):
            if key in embed and embed[key] is not None:
                form.length([*path, key], embed[key], 0, limit)
                total += len(str(embed[key]))
        footer = embed.get("footer") or {}
        if "text" in footer:
            form.length([*path, "footer", "text"], footer["text"], 0, 2048)
            total += len(str(footer["text"]))
        author = embed.get("author") or {}
        if "name" in author:
            form.length([*path, "author", "name"], author["name"], 0, 256)
            total += len(str(author["name"]))
        fields = embed.get("fields") or []
        form.count([*path, "fields"], fields, 25)
        for j, fld in enumerate(fields):
            form.length([*path, "fields", j, "name"], fld.get("name"), 1, 256)
            form.length([*path, "fields", j, "value"], fld.get("value"), 1, 1024)
            total += len(str(fld.get("name", ""))) + len(str(fld.get("value", "")))
    if total > 6000:
        form.add(["embeds"], "MESSAGE_EMBEDS_TOO_LONG", "Embed size exceeds maximum size of 6000")


def _check_button(path: list[str | int], button: dict[str, Any], form: _FormErrors) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        form.add([*path, "style"], "BASE_TYPE_CHOICES", f"Value must be one of {{1..6}}: {style}")
    if "label" in button and button["label"] is not None:
        form.length([*path, "label"], button["label"], 0, 80)
    if not button.get("label") and not button.get("emoji") and style != 6:
        form.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI", "A label or an emoji is required")
    if style == 5:
        if not button.get("url") or "custom_id" in button:
            form.add(path, "BUTTON_COMPONENT_URL_REQUIRED", "A link button needs a url only")
    elif style in (1, 2, 3, 4) and "custom_id" not in button:
        form.add(path, "BUTTON_COMPONENT_CUSTOM_ID_REQUIRED", "A custom id is required")


def _check_select(path: list[str | int], select: dict[str, Any], form: _FormErrors) -> None:
    if "placeholder" in select and select["placeholder"] is not None:
        form.length([*path, "placeholder"], select["placeholder"], 0, 150)
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= 25:
            form.add(
                [*path, "options"], "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
            )
        for k, option in enumerate(options):
            form.length([*path, "options", k, "label"], option.get("label"), 1, 100)
            form.length([*path, "options", k, "value"], option.get("value"), 1, 100)
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        form.add(path, "SELECT_COMPONENT_VALUES", "min_values/max_values out of range")


def _check_chosen(select: dict[str, Any], values: list[str]) -> None:
    """What a user can choose in a select menu: between ``min_values`` and ``max_values``
    values (default 1 and 1), and in a string select only among its options' values."""
    low, high = select.get("min_values", 1), select.get("max_values", 1)
    if not low <= len(values) <= high:
        raise ImpossibleInteraction(f"a select takes {low} to {high} values, not {len(values)}")
    if select.get("type") == 3:
        offered = {option.get("value") for option in select.get("options") or []}
        strange = [v for v in values if v not in offered]
        if strange:
            raise ImpossibleInteraction(f"the select offers no {strange[0]!r}")
        if len(set(values)) != len(values):
            raise ImpossibleInteraction("a value is chosen once")


def _check_components(components: object, flags: int, form: _FormErrors) -> None:
    if not isinstance(components, list):
        form.add(["components"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    if flags & FLAG_COMPONENTS_V2:
        total = sum(1 for _ in _walk_components(components))
        if total > 40:
            form.add(["components"], "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    else:
        form.count(["components"], components, 5)
        for i, row in enumerate(components):
            path: list[str | int] = ["components", i]
            if not isinstance(row, dict) or row.get("type") != 1:
                form.add(path, "UNION_TYPE_CHOICES", "Top-level components must be action rows")
                continue
            children = row.get("components") or []
            if not 1 <= len(children) <= 5:
                form.add(
                    [*path, "components"],
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 5 in length.",
                )
            selects = [c for c in children if c.get("type") in (3, 5, 6, 7, 8)]
            if selects and len(children) > 1:
                form.add(
                    [*path, "components"],
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "The specified component exceeds the maximum width",
                )
            for j, child in enumerate(children):
                cpath: list[str | int] = [*path, "components", j]
                if child.get("type") == 2:
                    _check_button(cpath, child, form)
                elif child.get("type") in (3, 5, 6, 7, 8):
                    _check_select(cpath, child, form)
                else:
                    form.add(cpath, "UNION_TYPE_CHOICES", "Invalid component type in a row")
    seen: set[str] = set()
    for component in _walk_components(components):
        if "custom_id" not in component:
            continue
        custom_id = component["custom_id"]
        form.length(["components", "custom_id"], custom_id, 1, 100)
        if custom_id in seen:
            form.add(
                ["components"],
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                f"Component custom id cannot be duplicated: {custom_id}",
            )
        seen.add(custom_id)


MENTION_USER = re.compile(r"<@!?(\d+)>")
MENTION_ROLE = re.compile(r"<@&(\d+)>")


def _pings(
    content: str, allowed: object, form: _FormErrors
) -> tuple[frozenset[int], frozenset[int], bool]:
    """Who a message notifies: the users, roles and @everyone/@here its content mentions, as
    ``allowed_mentions`` lets through (absent: everything mentioned pings)."""
    users = {int(u) for u in MENTION_USER.findall(content)}
    roles = {int(r) for r in MENTION_ROLE.findall(content)}
    everyone = "@everyone" in content or "@here" in content
    if allowed is None:
        return frozenset(users), frozenset(roles), everyone
    if not isinstance(allowed, dict):
        form.add(["allowed_mentions"], "BASE_TYPE_DICT", "Must be an object.")
        return frozenset(), frozenset(), False
    parse = allowed.get("parse", [])
    _check_unique_mentions(allowed, form)
    listed_users = {int(u) for u in allowed.get("users", [])}
    listed_roles = {int(r) for r in allowed.get("roles", [])}
    for kind in parse:
        if kind not in ("users", "roles", "everyone"):
            form.add(["allowed_mentions", "parse"], "BASE_TYPE_CHOICES", f"Invalid: {kind}")
    if "users" in parse and listed_users:
        form.add(
            ["allowed_mentions"],
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["users"] and users: [ids...] are mutually exclusive.',
        )
    if "roles" in parse and listed_roles:
        form.add(
            ["allowed_mentions"],
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            'parse:["roles"] and roles: [ids...] are mutually exclusive.',
        )
    pinged_users = users if "users" in parse else users & listed_users
    pinged_roles = roles if "roles" in parse else roles & listed_roles
    return frozenset(pinged_users), frozenset(pinged_roles), everyone and "everyone" in parse


def _check_command(command: object, index: int, form: _FormErrors) -> None:
    path: list[str | int] = [index]
    if not isinstance(command, dict):
        form.add(path, "BASE_TYPE_DICT", "Must be an object.")
        return
    kind = command.get("type", 1)
    name = command.get("name")
    if kind == 1:
        if not _valid_command_name(name):
            form.add([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
        form.length([*path, "description"], command.get("description"), 1, 100)
        _check_localized(command, path, form)
        _check_options(command.get("options") or [], [*path, "options"], form, depth=0)
    elif kind in (2, 3):
        form.length([*path, "name"], name, 1, 32)
        if command.get("description", ""):
            form.add([*path, "description"], "BASE_TYPE_MAX_LENGTH", "Must be empty.")
    elif kind == ENTRY_POINT:
        # PRIMARY_ENTRY_POINT: the Activity's command (FakeDiscord.enable_activities); its
        # handler is APP_HANDLER (1) or DISCORD_LAUNCH_ACTIVITY (2).
        form.length([*path, "name"], name, 1, 32)
        if command.get("handler", 2) not in (1, 2):
            form.add([*path, "handler"], "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    else:
        form.add([*path, "type"], "BASE_TYPE_CHOICES", f"Invalid command type {kind}")
    contexts = command.get("contexts")
    if contexts is not None and any(c not in (0, 1, 2) for c in contexts):
        form.add([*path, "contexts"], "BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.")
    installs = command.get("integration_types")
    if installs is not None and any(i not in (0, 1) for i in installs):
        form.add([*path, "integration_types"], "BASE_TYPE_CHOICES", "Must be one of {0, 1}.")


#: The locales Discord knows (Discord's Locales reference: ``es-ES``, ``es-419``, ``ja`` ...):
#: a localization under any other key is refused.
DISCORD_LOCALES = frozenset(locale.value for locale in discord.Locale)


def _check_localizations(
    value: object,
    path: list[str | int],
    form: _FormErrors,
    check: Callable[[list[str | int], object], None],
) -> None:
    """A localization dictionary: keys are Discord locales, each value follows the same
    restrictions as the field it localizes (``check``)."""
    if value is None:
        return
    if not isinstance(value, dict):
        form.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for locale, said in value.items():
        if locale not in DISCORD_LOCALES:
            form.add(
                [*path, locale],
                "BASE_TYPE_CHOICES",
                f"Value must be one of {sorted(DISCORD_LOCALES)}.",
            )
            continue
        check([*path, locale], said)


def _check_localized(field: dict[str, Any], path: list[str | int], form: _FormErrors) -> None:
    """A command's or option's ``name_localizations`` and ``description_localizations``."""

    def name_rule(at: list[str | int], said: object) -> None:
        if not _valid_command_name(said):
            form.add(at, "APPLICATION_COMMAND_INVALID_NAME", "Name is invalid")

    _check_localizations(
        field.get("name_localizations"), [*path, "name_localizations"], form, name_rule
    )
    _check_localizations(
        field.get("description_localizations"),
        [*path, "description_localizations"],
        form,
        lambda at, said: form.length(at, said, 1, 100),
    )


def _check_options(
    options: object, path: list[str | int], form: _FormErrors, *, depth: int
) -> None:
    if not isinstance(options, list):
        form.add(path, "BASE_TYPE_ARRAY", "Must be an array.")
        return
    form.count(path, options, 25)
    _check_unique_names(options, path, form, "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS")
    names: set[str] = set()
    seen_optional = False
    for i, option in enumerate(options):
        opath = [*path, i]
        kind = option.get("type")
        _check_option_name(option.get("name"), names, opath, form)
        form.length([*opath, "description"], option.get("description"), 1, 100)
        _check_localized(option, opath, form)
        if kind in (OptionKind.SUB_COMMAND, OptionKind.SUB_COMMAND_GROUP):
            _check_subcommand(option, kind, opath, form, depth=depth)
            continue
        if kind not in {k.value for k in OptionKind}:
            form.add([*opath, "type"], "BASE_TYPE_CHOICES", f"Invalid option type {kind}")
        required = bool(option.get("required", False))
        if required and seen_optional:
            form.add(
                opath,
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            )
        seen_optional = seen_optional or not required
        _check_option_values(option, kind, opath, form)


def _check_option_name(
    name: object, names: set[str], opath: list[str | int], form: _FormErrors
) -> None:
    """An option's name is valid and unique among its siblings (``names`` so far)."""
    if not _valid_command_name(name):
        form.add([*opath, "name"], "APPLICATION_COMMAND_INVALID_NAME", "Option name is invalid")
    if name in names:
        form.add(
            [*opath, "name"],
            "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS",
            "Option names must be unique",
        )
    names.add(str(name))


def _check_subcommand(
    option: dict[str, Any], kind: object, opath: list[str | int], form: _FormErrors, *, depth: int
) -> None:
    """A subcommand or group: nested no deeper than Discord allows, a group holding
    subcommands only, and its own options checked."""
    if depth >= (1 if kind == OptionKind.SUB_COMMAND_GROUP else 2):
        form.add(opath, "APPLICATION_COMMAND_OPTION_NESTING", "Too deeply nested")
    children = option.get("options") or []
    if kind == OptionKind.SUB_COMMAND_GROUP and any(
        c.get("type") != OptionKind.SUB_COMMAND for c in children
    ):
        form.add(opath, "APPLICATION_COMMAND_OPTION_TYPE", "Groups hold subcommands only")
    _check_options(children, [*opath, "options"], form, depth=depth + 1)


#: the option types that may have choices or autocomplete
_CHOOSABLE = (OptionKind.STRING, OptionKind.INTEGER, OptionKind.NUMBER)


def _check_option_values(
    option: dict[str, Any], kind: object, opath: list[str | int], form: _FormErrors
) -> None:
    """What a value option says of its values: choices, autocomplete and length bounds."""
    choices = option.get("choices")
    if choices:
        if option.get("autocomplete"):
            form.add(
                [*opath, "autocomplete"],
                "AUTOCOMPLETE_CHOICES_EXCLUSIVE",
                "Autocomplete cannot be enabled on an option with choices",
            )
        if kind not in _CHOOSABLE:
            form.add([*opath, "choices"], "APPLICATION_COMMAND_OPTION_TYPE", "No choices here")
        form.count([*opath, "choices"], choices, 25)
        for k, choice in enumerate(choices):
            form.length([*opath, "choices", k, "name"], choice.get("name"), 1, 100)
            _check_localizations(
                choice.get("name_localizations"),
                [*opath, "choices", k, "name_localizations"],
                form,
                lambda path, value: form.length(path, value, 1, 100),
            )
            if isinstance(choice.get("value"), str):
                form.length([*opath, "choices", k, "value"], choice["value"], 1, 100)
    if option.get("autocomplete") and kind not in _CHOOSABLE:
        form.add([*opath, "autocomplete"], "APPLICATION_COMMAND_OPTION_TYPE", "No autocomplete")
    for key in ("min_length", "max_length"):
        if key in option and not 0 <= option[key] <= 6000:
            form.add([*opath, key], "NUMBER_TYPE_MAX", "Must be between 0 and 6000.")


#: what a value of each plain option type must be, as a refusal names it
_SCALARS: dict[OptionKind, tuple[Callable[[Any], bool], str]] = {
    OptionKind.STRING: (lambda v: isinstance(v, str), "a string"),
    OptionKind.INTEGER: (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    OptionKind.NUMBER: (
        lambda v: isinstance(v, int | float) and not isinstance(v, bool),
        "a number",
    ),
    OptionKind.BOOLEAN: (lambda v: isinstance(v, bool), "a boolean"),
}


def _check_choices(choices: object, form: _FormErrors) -> None:
    if not isinstance(choices, list):
        form.add(["data", "choices"], "BASE_TYPE_ARRAY", "Must be an array.")
        return
    form.count(["data", "choices"], choices, 25)
    for i, choice in enumerate(choices):
        form.length(["data", "choices", i, "name"], choice.get("name"), 1, 100)
        value = choice.get("value")
        if isinstance(value, str):
            form.length(["data", "choices", i, "value"], value, 1, 100)


def _snowflake_ms() -> int:
    return int(time.time() * 1000) - DISCORD_EPOCH_MS


@dataclass
class _Upload:
    """A request body: the JSON (or ``payload_json``) and the uploaded ``files[N]`` parts."""

    body: Any
    files: dict[int, tuple[str, bytes]]


#: Where the middleware leaves the parsed body for the route handler.
UPLOAD: Final = web.RequestKey("upload", _Upload)


# --------------------------------------------------------------------------------------------
# The fake


class FakeDiscord(FakeServer):
    """Discord's REST API (the routes a bot uses) and gateway, in one aiohttp server.

    ``response_deadline`` is the time the bot has for its first interaction response (3 s on
    Discord); ``token_lifetime`` how long followups and edits stay possible (15 min);
    ``shard_count`` the shards ``/gateway/bot`` recommends; ``clock`` the clock the token
    lifetime is measured on (``time.monotonic`` unless a test passes a ManualClock).
    """

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",
        bot_id: int = 900_000_000_000_000_001,
        bot_name: str = "Hexhall",
        response_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        heartbeat_interval_ms: int = 41_250,
        attachment_size_limit: int = 10 * 1024 * 1024,
        shard_count: int = 1,
        clock: ManualClock | None = None,
        limits: DiscordLimits | None = None,
    ) -> None:
        super().__init__()
        #: Discord's rate limits, enforced when given (see :class:`DiscordLimits`).
        self.limits = limits
        # Enforced nonces: (author id, nonce) -> (monotonic time, message id).
        self._nonces: dict[tuple[int, str], tuple[float, int]] = {}
        if shard_count < 1:
            raise ValueError(f"shard_count must be at least 1, not {shard_count}")
        self.token = token
        #: The shards ``/gateway/bot`` recommends (a client may still identify with its own).
        self.shard_count = shard_count
        self.bot = FakeUser(bot_id, bot_name, bot=True)
        self.application_id = bot_id
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        #: Measures the interaction tokens' lifetime and the rate limits' windows (a test may
        #: pass a ManualClock).
        self.clock: Callable[[], float] = clock if clock is not None else time.monotonic
        self._buckets = None if limits is None else _Buckets(limits, self.clock)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.attachment_size_limit = attachment_size_limit
        self.users: dict[int, FakeUser] = {bot_id: self.bot}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionRecord] = {}
        #: Synced commands: ``None`` for global, else by guild id.
        self.synced: dict[int | None, list[dict[str, Any]]] = {}
        self.gateway_sessions: list[GatewaySession] = []
        #: Whether a dropped session may RESUME (else op 9 and a fresh IDENTIFY).
        self.allow_resume = True
        self._resumable: dict[str, GatewaySession] = {}
        self._dm_channels: dict[int, int] = {}
        self._rate_limits: list[_RateLimit] = []
        self._ids = itertools.count(1)
        #: Whether the app has Activities enabled (the Developer Portal's Activities page):
        #: only then is LAUNCH_ACTIVITY (callback type 12) accepted, and each launch is in
        #: :attr:`launched` as (interaction, activity instance id).
        self.activities = False
        self.launched: list[tuple[InteractionRecord, str]] = []
        #: Entry Point launches Discord handled itself: (user id, channel id).
        self.launched_by_discord: list[tuple[int, int]] = []
        self.app.middlewares.append(self._middleware)
        self._add_routes()

    def enable_activities(self) -> None:
        """Enable Activities for the app, as the Developer Portal does: LAUNCH_ACTIVITY is
        accepted, and Discord creates the default Entry Point command, "launch", with the
        ``DISCORD_LAUNCH_ACTIVITY`` handler (2) (Discord's Application Commands, "Default
        Entry Point command")."""
        self.activities = True
        launch = {
            "id": str(self.new_id()),
            "application_id": str(self.application_id),
            "version": str(self.new_id()),
            "type": ENTRY_POINT,
            "name": "launch",
            "description": "",
            "handler": 2,
            "contexts": None,
            "integration_types": [0],
            "default_member_permissions": None,
            "nsfw": False,
        }
        self.synced.setdefault(None, []).append(launch)

    # ---- addresses

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return f"{self.url}{API_PREFIX}"

    @property
    def gateway_url(self) -> yarl.URL:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return yarl.URL(f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}")

    def new_id(self) -> int:
        """A fresh snowflake (time-based, so discord.py's ``created_at`` is sensible)."""
        return (_snowflake_ms() << 22) | (next(self._ids) % (1 << 22))

    # ---- the world

    def user(self, user_id: int, name: str) -> FakeUser:
        """Create (or rename) a user."""
        user = self.users.get(user_id)
        if user is None:
            user = self.users[user_id] = FakeUser(user_id, name)
        user.name = name
        return user

    def guild(
        self, guild_id: int, name: str, *, owner_id: int | None = None, with_bot: bool = True
    ) -> FakeGuild:
        """Create a guild the bot is in (the bot is a member), or with ``with_bot=False`` a
        server the app is not installed to, where only user-installed commands answer and
        the bot cannot post or edit (403, 50001). Create the world before the bot connects:
        READY and GUILD_CREATE describe what exists at IDENTIFY."""
        guild = FakeGuild(guild_id, name, owner_id or self.bot.id, bot_is_member=with_bot)
        if with_bot:
            guild.members[self.bot.id] = FakeMember(guild_id, self.bot)
        self.guilds[guild_id] = guild
        return guild

    def channel(self, guild: FakeGuild | int, channel_id: int, name: str) -> FakeChannel:
        """Create a text channel in a guild."""
        g = self._guild(guild)
        channel = FakeChannel(
            channel_id,
            name,
            ChannelKind.TEXT,
            guild_id=g.id,
            position=len(g.channels),
            bot_is_member=g.bot_is_member,
        )
        g.channels[channel_id] = channel
        self.channels[channel_id] = channel
        return channel

    def member(self, guild: FakeGuild | int, user_id: int, name: str) -> FakeMember:
        """Add a user (created if new) to a guild."""
        g = self._guild(guild)
        user = self.users.get(user_id) or self.user(user_id, name)
        member = g.members[user_id] = FakeMember(g.id, user)
        return member

    def dm_channel(self, user: FakeUser | int) -> FakeChannel:
        """The DM channel between ``user`` and the bot (made on first use, like Discord)."""
        u = self._user(user)
        channel_id = self._dm_channels.get(u.id)
        if channel_id is None:
            channel_id = self._dm_channels[u.id] = self.new_id()
            self.channels[channel_id] = FakeChannel(
                channel_id, "", ChannelKind.DM, recipients=(u.id,)
            )
        return self.channels[channel_id]

    def private_channel(
        self, channel_id: int, users: Sequence[FakeUser | int], name: str = ""
    ) -> FakeChannel:
        """A DM between two users, or a group DM, that the bot is not part of: only a
        user-installed app's interactions work there (context 2)."""
        ids = tuple(self._user(u).id for u in users)
        kind = ChannelKind.DM if len(ids) == 2 and not name else ChannelKind.GROUP_DM
        channel = FakeChannel(channel_id, name, kind, recipients=ids, bot_is_member=False)
        self.channels[channel_id] = channel
        return channel

    def grant_threads(self, guild: FakeGuild | int, granted: bool = True) -> None:
        """Give the bot (or take away) Create Public Threads and Send Messages in Threads in
        a guild (by default it has neither, as when invited without them)."""
        g = self._guild(guild)
        bits = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS
        g.bot_extra = g.bot_extra | bits if granted else g.bot_extra & ~bits

    def user_thread(self, message: StoredMessage, user: FakeUser | int, name: str) -> FakeChannel:
        """A member starts a public thread from a message (as anyone may in a server channel
        where they have Create Public Threads): the bot then cannot start another there."""
        thread = FakeChannel(
            message.id,
            name,
            ChannelKind.PUBLIC_THREAD,
            guild_id=message.guild_id,
            parent_id=message.channel_id,
            owner_id=self._user(user).id,
        )
        self.channels[thread.id] = thread
        return thread

    def threads_in(self, channel: FakeChannel | int) -> list[FakeChannel]:
        """The threads started in a channel, oldest first."""
        cid = self._channel(channel).id
        return [c for c in self.channels.values() if c.parent_id == cid]

    def close_dms(self, user: FakeUser | int) -> None:
        """The user refuses DMs from the bot: posting to their DM channel answers 403, 50007."""
        self._user(user).dms_open = False

    def open_dms(self, user: FakeUser | int) -> None:
        """The user accepts DMs again."""
        self._user(user).dms_open = True

    def refuse_dm_channel(self, user: FakeUser | int) -> None:
        """Opening a DM channel with the user is refused (400, 50007), as for a user who
        blocked the bot or shares no server with it."""
        self._user(user).dm_channel_refused = True

    def uninstall_app(self, user: FakeUser | int) -> None:
        """The user has not installed the app to their account: its user-install commands are
        not offered to them (a test sending one gets :class:`ImpossibleInteraction`)."""
        self._user(user).has_app = False

    def install_app(self, user: FakeUser | int) -> None:
        """The user installs the app to their account (the default)."""
        self._user(user).has_app = True

    def _guild(self, guild: FakeGuild | int) -> FakeGuild:
        return guild if isinstance(guild, FakeGuild) else self.guilds[guild]

    def _user(self, user: FakeUser | FakeMember | int) -> FakeUser:
        if isinstance(user, FakeUser):
            return user
        if isinstance(user, FakeMember):
            return user.user
        return self.users[user]

    def _channel(self, channel: FakeChannel | int) -> FakeChannel:
        return channel if isinstance(channel, FakeChannel) else self.channels[channel]

    # ---- faults

    def rate_limit(
        self, route: str, retry_after: float = 0.2, *, is_global: bool = False, times: int = 1
    ) -> None:
        """Answer the next ``times`` requests to ``route`` (a template such as
        ``"POST /channels/{channel_id}/messages"``) with Discord's 429, headers included so
        discord.py's own handler sleeps ``retry_after`` and retries."""
        self._rate_limits.append(_RateLimit(route, retry_after, is_global, times))

    async def drop_sessions(self, code: int = 4000) -> None:
        """Close every gateway websocket with ``code``: discord.py reconnects and RESUMEs (the
        fake replays what it missed), or identifies afresh if ``allow_resume`` is False."""
        for session in list(self.gateway_sessions):
            if session.ready:
                # Resumable from now on: the bot may send RESUME before this handler has
                # noticed the close.
                session.ready = False
                self._resumable[session.session_id] = session
            await session.ws.close(code=code)

    async def stop(self) -> None:
        """Close the gateway sessions, then stop listening."""
        for session in list(self.gateway_sessions):
            with contextlib.suppress(ConnectionError, RuntimeError):
                await session.ws.close(code=1001)
        await super().stop()

    # ---- gateway

    @property
    def sessions(self) -> list[GatewaySession]:
        """Identified (READY sent) gateway sessions."""
        return [s for s in self.gateway_sessions if s.ready]

    async def wait_connected(self, count: int = 1, *, timeout: float = DEFAULT_DEADLINE) -> None:
        """Wait until at least ``count`` sessions have identified and got READY."""
        await self.wait_until(lambda: len(self.sessions) >= count, timeout=timeout)

    def sessions_on(self, shard: int) -> list[GatewaySession]:
        """Identified sessions holding shard id ``shard``."""
        return [s for s in self.sessions if s.shard[0] == shard]

    async def wait_shards(self, *shards: int, timeout: float = DEFAULT_DEADLINE) -> None:
        """Wait until every shard id in ``shards`` is held by an identified session (e.g.
        ``wait_shards(0, 1)`` for two processes with one shard each)."""
        await self.wait_until(lambda: all(self.sessions_on(s) for s in shards), timeout=timeout)

    @staticmethod
    def holds(shard: tuple[int, int], guild_id: int | None) -> bool:
        """Whether a session identified as ``shard`` (``(id, count)``) gets the events of
        ``guild_id`` (``None``: events outside guilds, which go to shard 0)."""
        return shard_of(guild_id, shard[1]) == shard[0]

    async def dispatch(self, event: str, data: Any, *, shard: int | None = None) -> int:
        """Send a DISPATCH (op 0) to every identified session (or the sessions of one shard);
        return how many it reached."""
        reached = await self._send_where(event, data, lambda s: shard is None or s[0] == shard)
        return len(reached)

    async def dispatch_for(self, event: str, data: Any, guild_id: int | None) -> list[int]:
        """Send a DISPATCH the way Discord routes it: to the sessions whose shard holds
        ``guild_id`` (``None``: an event outside guilds, to shard 0); the shard ids of the
        sessions it reached."""
        reached = await self._send_where(event, data, lambda s: self.holds(s, guild_id))
        return [s.shard[0] for s in reached]

    async def _send_where(
        self, event: str, data: Any, wanted: Callable[[tuple[int, int]], bool]
    ) -> list[GatewaySession]:
        for dropped in self._resumable.values():
            if wanted(dropped.shard):
                dropped.keep(event, data)  # replayed if the bot resumes
        reached = []
        for session in self.sessions:
            if not wanted(session.shard):
                continue
            try:
                await session.send(0, data, event)
            except (ConnectionError, RuntimeError):
                continue
            reached.append(session)
        return reached

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        session = GatewaySession(ws)
        self.gateway_sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                await self._on_frame(session, frame.get("op"), frame.get("d"))
        finally:
            self.gateway_sessions.remove(session)
            # A session the bot closed itself (1000/1001) is over; one dropped otherwise (the
            # fake's drop_sessions, a network failure) can be resumed, as on Discord.
            if session.ready and ws.close_code not in (1000, 1001):
                self._resumable[session.session_id] = session
            self.notify()
        return ws

    async def _on_frame(self, session: GatewaySession, op: object, data: Any) -> None:
        if op == 1:
            session.heartbeats += 1
            await session.send(11, None)
            self.notify()
        elif op == 2:
            self.record("gateway IDENTIFY", {**data, "token": "<hidden>"})
            if data.get("token") != self.token:
                await session.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = data.get("shard") or [0, 1]
            session.shard = (int(shard[0]), int(shard[1]))
            if not 0 <= session.shard[0] < session.shard[1]:
                await session.ws.close(code=4010, message=b"Invalid shard.")
                return
            session.intents = int(data.get("intents", 0))
            session.session_id = secrets.token_hex(16)
            await session.send(0, self._ready(session), "READY")
            for guild in self.guilds.values():
                if guild.bot_is_member and self.holds(session.shard, guild.id):
                    # GUILD_CREATE belongs to the GUILDS intent (1 << 0): without it Discord
                    # sends none (READY still lists the shard's guilds). "If you do not
                    # specify a certain intent, you will not receive any of the gateway
                    # events that are batched into that group" (Discord's gateway docs, as
                    # nyxx's GatewayIntents quotes them); interactions come regardless.
                    session.guilds.add(guild.id)
                    if session.intents & 1:
                        payload = guild.payload(self.users, all_members=session.intents & 2 != 0)
                        await session.send(0, payload, "GUILD_CREATE")
            session.ready = True
            self.notify()
        elif op == 6:
            self.record("gateway RESUME", {"session_id": data.get("session_id")})
            wanted = str(data.get("session_id"))
            old = self._resumable.pop(wanted, None)
            if old is None:  # the old socket may not have noticed its end yet
                old = next((s for s in self.sessions if s.session_id == wanted), None)
                if old is not None:
                    old.ready = False
            if old is None or not self.allow_resume or data.get("token") != self.token:
                # Not resumable: discord.py then identifies afresh (after its own 5 s pause).
                await session.send(9, False)
                return
            session.session_id, session.shard, session.intents, session.guilds = (
                old.session_id,
                old.shard,
                old.intents,
                old.guilds,
            )
            session.sequence, session.backlog = old.sequence, old.backlog
            await session.replay(int(data.get("seq") or 0))
            # discord.py writes into the RESUMED data: it must be an object, as Discord's is.
            await session.send(0, {"_trace": ["fake-gateway"]}, "RESUMED")
            session.ready = True
            self.notify()
        elif op == 8:
            self.record("gateway REQUEST_GUILD_MEMBERS", dict(data))
            asked = self.guilds.get(int(data["guild_id"]))
            members = [] if asked is None else [m.payload() for m in asked.members.values()]
            chunk: dict[str, Any] = {
                "guild_id": str(data["guild_id"]),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if "nonce" in data:
                chunk["nonce"] = data["nonce"]
            await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")
        else:
            self.record(f"gateway op {op}", data if isinstance(data, dict) else {"d": data})

    def _ready(self, session: GatewaySession) -> ReadyEvent:
        return {
            "v": 10,
            "user": self.bot.payload(),
            "guilds": [
                {"id": str(g), "unavailable": True}
                for g, guild in self.guilds.items()
                if guild.bot_is_member and self.holds(session.shard, g)
            ],
            "session_id": session.session_id,
            "resume_gateway_url": str(self.gateway_url),
            "shard": list(session.shard),
            "application": {
                "id": str(self.application_id),
                "flags": APP_EMBEDDED if self.activities else 0,
            },
        }

    # ---- users acting: interactions

    async def slash(
        self,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        guild: FakeGuild | int | None = None,
        strict: bool = True,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """``user`` runs the slash command ``command`` (``"game move"`` for a subcommand) in
        ``channel`` with ``options`` (typed per the synced schema: str, int, float, bool,
        users as FakeUser/FakeMember/id, channels as FakeChannel/id).

        With ``strict`` (the default) the fake refuses, with :class:`ImpossibleInteraction`,
        what Discord's client would not send (unknown option, value not among the choices, out
        of range, missing required option); ``strict=False`` sends it anyway, as a stale client
        could. Returns once the interaction is dispatched."""
        return await self._command_interaction(
            InteractionKind.APPLICATION_COMMAND,
            user,
            channel,
            command,
            options or {},
            guild=guild,
            strict=strict,
            focused=None,
            locale=locale,
        )

    async def autocomplete(
        self,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        guild: FakeGuild | int | None = None,
        timeout: float = DEFAULT_DEADLINE,
    ) -> list[dict[str, Any]]:
        """``user`` is typing option ``focused`` (its partial text is ``options[focused]``);
        return the choices the bot answered (raises :class:`ResponseRefused` if the fake
        refused the answer, e.g. more than 25 choices)."""
        record = await self.autocomplete_interaction(
            user, channel, command, options, focused=focused, guild=guild
        )
        await self.response(record, timeout=timeout)
        return record.choices or []

    async def autocomplete_interaction(
        self,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        command: str,
        options: Mapping[str, Any],
        *,
        focused: str,
        guild: FakeGuild | int | None = None,
    ) -> InteractionRecord:
        """Like :meth:`autocomplete`, but return the dispatched interaction without waiting."""
        return await self._command_interaction(
            InteractionKind.AUTOCOMPLETE,
            user,
            channel,
            command,
            options,
            guild=guild,
            strict=True,
            focused=focused,
            locale="en-US",
        )

    async def click(
        self,
        user: FakeUser | FakeMember | int,
        message: StoredMessage | int,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        """``user`` presses the button (or picks ``values`` in the select) ``custom_id`` of a
        message the bot sent. The interaction carries the full message, so discord.py finds the
        View it stored under that message id, or a DynamicItem by its template."""
        stored = message if isinstance(message, StoredMessage) else self.messages[message]
        u = self._user(user)
        if stored.deleted:
            raise ImpossibleInteraction(f"message {stored.id} was deleted")
        if stored.ephemeral:
            owner = self.interactions.get(stored.interaction_id or 0)
            if owner is not None and owner.user.id != u.id:
                raise ImpossibleInteraction("only the interaction's user sees an ephemeral message")
        component = stored.component(custom_id)
        if component is None:
            raise ImpossibleInteraction(
                f"message {stored.id} has no component {custom_id!r} (has {stored.custom_ids})"
            )
        if component.get("disabled"):
            raise ImpossibleInteraction(f"component {custom_id!r} is disabled")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": component["type"]}
        if component["type"] != 2:
            data["values"] = list(values or [])
            _check_chosen(component, data["values"])
        elif values is not None:
            raise ImpossibleInteraction("a button carries no values")
        channel = self.channels[stored.channel_id]
        guild = self.guilds.get(stored.guild_id) if stored.guild_id is not None else None
        if guild is not None and u.id not in guild.members:
            raise ImpossibleInteraction(f"user {u.id} is not a member of guild {guild.id}")
        context = self._context(channel)
        record = self._new_interaction(
            InteractionKind.MESSAGE_COMPONENT,
            u,
            channel,
            guild,
            context,
            data,
            owners=None,
            locale=locale,
        )
        record.message = stored
        record.payload["message"] = stored.payload()
        if stored.interaction_metadata is not None:
            # A component on an interaction's message is authorised by that interaction's
            # installation (the user who installed the app), whoever presses it.
            owners = stored.interaction_metadata["authorizing_integration_owners"]
            record.payload["authorizing_integration_owners"] = dict(owners)
        await self._deliver(record)
        return record

    # ---- what the bot did

    async def response(
        self, interaction: InteractionRecord, *, timeout: float = DEFAULT_DEADLINE
    ) -> CallbackAttempt:
        """The bot's first accepted response to ``interaction``, waiting for it; raises
        :class:`ResponseRefused` if the bot's first attempt was refused."""
        await self.wait_until(lambda: bool(interaction.attempts), timeout=timeout)
        if interaction.response is not None:
            return interaction.response
        raise ResponseRefused(interaction.attempts[0])

    async def followups(
        self, interaction: InteractionRecord, count: int = 1, *, timeout: float = DEFAULT_DEADLINE
    ) -> list[StoredMessage]:
        """The interaction's followup messages once there are at least ``count``."""
        await self.wait_until(lambda: len(interaction.followups) >= count, timeout=timeout)
        return list(interaction.followups)

    async def original(
        self,
        interaction: InteractionRecord,
        *,
        edits: int = 0,
        loaded: bool = True,
        timeout: float = DEFAULT_DEADLINE,
    ) -> StoredMessage:
        """The original response message once it exists, has been edited ``edits`` times and
        (with ``loaded``) is no longer a deferred "thinking…" placeholder."""

        def ready() -> bool:
            msg = interaction.original
            return msg is not None and msg.edits >= edits and not (loaded and msg.loading)

        await self.wait_until(ready, timeout=timeout)
        assert interaction.original is not None
        return interaction.original

    async def wait_message(
        self,
        predicate: Callable[[StoredMessage], bool],
        *,
        timeout: float = DEFAULT_DEADLINE,
    ) -> StoredMessage:
        """The first stored message matching ``predicate``, waiting for it."""
        found: list[StoredMessage] = []

        def check() -> bool:
            found[:] = [m for m in self.messages.values() if predicate(m)][:1]
            return bool(found)

        await self.wait_until(check, timeout=timeout)
        return found[0]

    def messages_in(self, channel: FakeChannel | int) -> list[StoredMessage]:
        """The channel's live (not deleted) messages, oldest first."""
        cid = self._channel(channel).id
        return [m for m in self.messages.values() if m.channel_id == cid and not m.deleted]

    def commands(self, guild: FakeGuild | int | None = None) -> list[dict[str, Any]]:
        """The synced commands, global (``guild=None``) or of one guild."""
        key = None if guild is None else self._guild(guild).id
        return list(self.synced.get(key, []))

    # ---- building interactions

    def _context(self, channel: FakeChannel) -> InteractionContext:
        if channel.kind in (ChannelKind.TEXT, ChannelKind.PUBLIC_THREAD):
            return InteractionContext.GUILD
        return (
            InteractionContext.BOT_DM
            if channel.bot_is_member
            else InteractionContext.PRIVATE_CHANNEL
        )

    def _find_command(
        self,
        name: str,
        guild: FakeGuild | None,
        context: InteractionContext,
        user: FakeUser | None = None,
    ) -> tuple[dict[str, Any], int | None]:
        candidates: list[tuple[dict[str, Any], int | None]] = []
        if guild is not None:
            candidates += [(c, guild.id) for c in self.synced.get(guild.id, [])]
        candidates += [(c, None) for c in self.synced.get(None, [])]
        for command, guild_id in candidates:
            if command["name"] != name or command.get("type", 1) != 1:
                continue
            contexts = command.get("contexts")
            if guild_id is None and contexts is not None and context not in contexts:
                continue
            if context is InteractionContext.PRIVATE_CHANNEL and 1 not in (
                command.get("integration_types") or [0]
            ):
                continue
            installed = guild is None or guild.bot_is_member
            if user is not None and not _offered(command, guild_id, context, user, installed):
                continue
            return command, guild_id
        raise ImpossibleInteraction(f"no synced command /{name} usable here ({context.name})")

    async def entry_point(
        self, user: FakeUser | FakeMember | int, channel: FakeChannel | int
    ) -> InteractionRecord | None:
        """``user`` runs the app's Entry Point command in ``channel`` (from the App Launcher).
        With its handler ``DISCORD_LAUNCH_ACTIVITY`` (2) Discord launches the Activity itself
        and the app hears nothing (the launch is in :attr:`launched_by_discord`; ``None`` is
        returned); with ``APP_HANDLER`` (1) the app gets the interaction (Discord's
        Application Commands, "Entry Point handlers")."""
        command = next((c for c in self.synced.get(None, []) if c["type"] == ENTRY_POINT), None)
        if command is None:
            raise ImpossibleInteraction("the app has no Entry Point command")
        u, ch = self._user(user), self._channel(channel)
        g = self.guilds.get(ch.guild_id) if ch.guild_id is not None else None
        if g is not None and u.id not in g.members:
            raise ImpossibleInteraction(f"user {u.id} is not a member of guild {g.id}")
        if command.get("handler", 2) == 2:
            self.launched_by_discord.append((u.id, ch.id))
            self.notify()
            return None
        data = {"id": command["id"], "name": command["name"], "type": ENTRY_POINT}
        kind = InteractionKind.APPLICATION_COMMAND
        record = self._new_interaction(kind, u, ch, g, self._context(ch), data, owners=command)
        await self._deliver(record)
        return record

    async def _command_interaction(
        self,
        kind: InteractionKind,
        user: FakeUser | FakeMember | int,
        channel: FakeChannel | int,
        command: str,
        options: Mapping[str, Any],
        *,
        guild: FakeGuild | int | None,
        strict: bool,
        focused: str | None,
        locale: str,
    ) -> InteractionRecord:
        u = self._user(user)
        ch = self._channel(channel)
        g = self.guilds.get(ch.guild_id) if ch.guild_id is not None else None
        if guild is not None and (g is None or self._guild(guild).id != g.id):
            raise ImpossibleInteraction(f"channel {ch.id} is not in guild {guild}")
        if g is not None and u.id not in g.members:
            raise ImpossibleInteraction(f"user {u.id} is not a member of guild {g.id}")
        context = self._context(ch)
        path = command.split()
        schema, guild_id = self._find_command(path[0], g, context, u)
        resolved: dict[str, dict[str, Any]] = {}
        # Walk down subcommand groups/subcommands, building the nested option list.
        level: list[dict[str, Any]] = schema.get("options") or []
        leaf_holder: list[dict[str, Any]] = []
        outer = leaf_holder
        for part in path[1:]:
            sub = next((o for o in level if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise ImpossibleInteraction(f"/{command}: no subcommand {part!r}")
            node: dict[str, Any] = {"type": sub["type"], "name": part, "options": []}
            outer.append(node)
            outer = node["options"]
            level = sub.get("options") or []
        if any(o["type"] in (1, 2) for o in level):
            raise ImpossibleInteraction(f"/{command} needs a subcommand")
        outer.extend(self._typed_options(level, options, g, resolved, strict, focused, command))
        data: dict[str, Any] = {
            "id": schema["id"],
            "name": path[0],
            "type": 1,
            "options": leaf_holder,
        }
        if guild_id is not None:
            data["guild_id"] = str(guild_id)
        if resolved:
            data["resolved"] = resolved
        record = self._new_interaction(kind, u, ch, g, context, data, owners=schema, locale=locale)
        await self._deliver(record)
        return record

    def _typed_options(
        self,
        schema: list[dict[str, Any]],
        given: Mapping[str, Any],
        guild: FakeGuild | None,
        resolved: dict[str, dict[str, Any]],
        strict: bool,
        focused: str | None,
        command: str,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in schema}
        if strict and focused is None:
            missing = [o["name"] for o in schema if o.get("required") and o["name"] not in given]
            if missing:
                raise ImpossibleInteraction(f"/{command}: required options missing: {missing}")
        out: list[dict[str, Any]] = []
        for name, value in given.items():
            if isinstance(value, StaleOption):
                if strict:
                    raise ImpossibleInteraction(f"/{command}: a stale option needs strict=False")
                out.append({"name": name, "type": value.type, "value": value.value})
                continue
            option = by_name.get(name)
            if option is None:
                if strict:
                    raise ImpossibleInteraction(f"/{command} has no option {name!r}")
                out.append({"name": name, "type": int(OptionKind.STRING), "value": str(value)})
                continue
            kind = OptionKind(option["type"])
            if name == focused:
                # While typing, Discord sends the partial text, whatever the option's type.
                out.append({"name": name, "type": int(kind), "value": str(value), "focused": True})
                continue
            out.append(
                {
                    "name": name,
                    "type": int(kind),
                    "value": self._option_value(option, kind, value, guild, resolved, strict),
                }
            )
        return out

    def _option_value(
        self,
        option: dict[str, Any],
        kind: OptionKind,
        value: Any,
        guild: FakeGuild | None,
        resolved: dict[str, dict[str, Any]],
        strict: bool,
    ) -> Any:
        name = option["name"]

        def refuse(why: str) -> None:
            if strict:
                raise ImpossibleInteraction(f"option {name!r}: {why}")

        if kind in (OptionKind.USER, OptionKind.MENTIONABLE):
            return self._resolved_user(value, guild, resolved)
        if kind is OptionKind.CHANNEL:
            return self._resolved_channel(value, resolved)
        if kind not in _SCALARS:
            raise ImpossibleInteraction(f"option {name!r}: the fake does not send {kind.name}")
        accepts, what = _SCALARS[kind]
        if not accepts(value):
            refuse(f"{value!r} is not {what}")
        if kind is OptionKind.STRING:
            value = str(value)
            if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
                refuse(f"{value!r} has a length out of range")
        if kind in (OptionKind.INTEGER, OptionKind.NUMBER) and isinstance(value, int | float):
            if "min_value" in option and value < option["min_value"]:
                refuse(f"{value} is below {option['min_value']}")
            if "max_value" in option and value > option["max_value"]:
                refuse(f"{value} is above {option['max_value']}")
        choices = option.get("choices")
        if choices and value not in [c["value"] for c in choices]:
            refuse(f"{value!r} is not one of the choices")
        return value

    def _resolved_user(
        self, value: Any, guild: FakeGuild | None, resolved: dict[str, dict[str, Any]]
    ) -> str:
        """A user option's id, with the user (and member, in a guild) in ``resolved``."""
        u = self._user(value)
        resolved.setdefault("users", {})[str(u.id)] = dict(u.payload())
        if guild is not None and u.id in guild.members:
            member = dict(guild.members[u.id].payload(with_permissions=True))
            member.pop("user", None)
            resolved.setdefault("members", {})[str(u.id)] = member
        return str(u.id)

    def _resolved_channel(self, value: Any, resolved: dict[str, dict[str, Any]]) -> str:
        """A channel option's id, with the channel in ``resolved``."""
        ch = self._channel(value)
        payload = ch.payload(self.users)
        payload["permissions"] = EVERYONE_PERMISSIONS
        resolved.setdefault("channels", {})[str(ch.id)] = payload
        return str(ch.id)

    def _new_interaction(
        self,
        kind: InteractionKind,
        user: FakeUser,
        channel: FakeChannel,
        guild: FakeGuild | None,
        context: InteractionContext,
        data: dict[str, Any],
        *,
        owners: Mapping[str, Any] | None,
        locale: str = "en-US",
    ) -> InteractionRecord:
        interaction_id = self.new_id()
        token = f"itok-{interaction_id}-{secrets.token_hex(8)}"
        installs = list((owners or {}).get("integration_types") or [0])
        authorizing: dict[str, str] = {}
        installed_here = guild is None or guild.bot_is_member
        if 0 in installs and context is not InteractionContext.PRIVATE_CHANNEL and installed_here:
            authorizing["0"] = str(guild.id) if guild is not None else "0"
        if 1 in installs or context is InteractionContext.PRIVATE_CHANNEL or not installed_here:
            authorizing["1"] = str(user.id)
        channel_payload = channel.payload(self.users)
        channel_payload["permissions"] = EVERYONE_PERMISSIONS
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": int(kind),
            "data": data,
            "token": token,
            "version": 1,
            "channel_id": str(channel.id),
            "channel": channel_payload,
            "locale": locale,
            "app_permissions": str(guild.bot_permissions())
            if guild is not None and guild.bot_is_member
            else EVERYONE_PERMISSIONS,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": authorizing,
            "context": int(context),
            "attachment_size_limit": self.attachment_size_limit,
        }
        if guild is not None:
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["guild_locale"] = guild.locale
            payload["member"] = guild.members[user.id].payload(with_permissions=True)
        else:
            payload["user"] = user.payload()
        now = time.monotonic()
        record = InteractionRecord(
            id=interaction_id,
            token=token,
            kind=kind,
            payload=payload,
            user=user,
            channel=channel,
            guild=guild,
            context=context,
            dispatched_at=now,
            deadline=now + self.response_deadline,
        )
        self.interactions[interaction_id] = record
        return record

    async def _deliver(self, record: InteractionRecord) -> None:
        if not self.sessions:
            raise NotConnected("no identified gateway session: start the bot, wait_connected()")
        record.dispatched_at = time.monotonic()
        record.token_issued_at = self.clock()
        record.deadline = record.dispatched_at + self.response_deadline
        self._wake_after(record.deadline)
        guild_id = None if record.guild is None else record.guild.id
        record.shards = await self.dispatch_for("INTERACTION_CREATE", record.payload, guild_id)
        record.delivered_to = len(record.shards)
        self.notify()

    def _wake_after(self, moment: float) -> None:
        """Wake waiters once ``time.monotonic()`` has passed ``moment`` (a test may wait for an
        interaction to expire; the loop's timer may fire a hair early, so check and re-arm)."""
        loop = asyncio.get_running_loop()

        def fire() -> None:
            if time.monotonic() > moment:
                self.notify()
            else:
                loop.call_later(0.001, fire)

        loop.call_later(max(0.0, moment - time.monotonic()) + 0.001, fire)

    # ---- HTTP plumbing

    def _add_routes(self) -> None:
        r = self.app.router
        p = API_PREFIX
        routes: list[tuple[str, str, Callable[[web.Request, _Upload], Awaitable[Any]]]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("POST", "/users/@me/channels", self._create_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("PUT", "/applications/{application_id}/commands", self._put_commands),
            ("GET", "/applications/{application_id}/commands", self._get_commands),
            (
                "PUT",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._put_commands,
            ),
            (
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                self._get_commands,
            ),
            (
                "POST",
                "/interactions/{interaction_id}/{interaction_token}/callback",
                self._callback,
            ),
            ("POST", "/webhooks/{webhook_id}/{webhook_token}", self._followup),
            (
                "GET",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._get_webhook_message,
            ),
            (
                "PATCH",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._edit_webhook_message,
            ),
            (
                "DELETE",
                "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
                self._delete_webhook_message,
            ),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            (
                "POST",
                "/channels/{channel_id}/messages/{message_id}/threads",
                self._start_thread,
            ),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]
        for method, path, handler in routes:
            r.add_route(method, p + path, self._wrap(handler))
        r.add_get(GATEWAY_PATH, self._gateway)
        r.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)

    def _wrap(
        self, handler: Callable[[web.Request, _Upload], Awaitable[Any]]
    ) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        async def run(request: web.Request) -> web.StreamResponse:
            upload = request[UPLOAD]
            result = await handler(request, upload)
            if isinstance(result, web.StreamResponse):
                return result
            return _json(result)

        return run

    @web.middleware
    async def _middleware(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        resource = request.match_info.route.resource
        if resource is not None and not request.path.startswith(API_PREFIX):
            return await handler(request)  # the gateway websocket and the attachment "CDN"
        template = request.path if resource is None else resource.canonical
        route = f"{request.method} {template.removeprefix(API_PREFIX)}"
        upload = _Upload(None, {})
        response: web.StreamResponse
        try:
            if resource is None:
                await handler(request)  # raises: no such route, or not with this method
                raise DiscordError(404, 0, "404: Not Found")
            upload = await _read_body(request)
            request[UPLOAD] = upload
            limited = self._take_rate_limit(route)
            bucket = None
            if limited is None and self._buckets is not None:
                bucket = self._buckets.take(route, request.match_info.get("channel_id"))
            if bucket is not None:
                body = {
                    "message": "You are being rate limited.",
                    "retry_after": bucket[0],
                    "global": bucket[1],
                }
                response = _limit_refusal(*bucket)
            elif limited is not None:
                body: Any = {
                    "message": "You are being rate limited.",
                    "retry_after": limited.retry_after,
                    "global": limited.is_global,
                }
                response = _json(body, 429, _rate_limit_headers(limited))
            else:
                self._check_auth(request, route)
                response = await handler(request)
                raw = response.body if isinstance(response, web.Response) else None
                body = json.loads(raw) if isinstance(raw, bytes) and raw else None
        except DiscordError as error:
            body = error.body()
            response = _json(body, error.status)
        except web.HTTPMethodNotAllowed:
            body = {"message": "405: Method Not Allowed", "code": 0}
            response = _json(body, 405)
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            # A malformed body the checks did not foresee: answer 400 (discord.py would retry
            # a 500 for seconds) and say why, rather than hide it.
            failure = {"code": "FAKE_MALFORMED", "message": f"{type(error).__name__}: {error}"}
            body = {
                "message": "Invalid Form Body",
                "code": 50035,
                "errors": {"_fake": {"_errors": [failure]}},
            }
            response = _json(body, 400)
        except web.HTTPNotFound:
            body = {"message": "404: Not Found", "code": 0}
            response = _json(body, 404)
        self.record(
            route,
            {"params": dict(request.match_info), "query": dict(request.query), "body": upload.body},
            dict(upload.files.values()),
            {"status": response.status, "body": body},
        )
        return response

    def _check_auth(self, request: web.Request, route: str) -> None:
        # Interaction callbacks and webhook routes carry their token in the URL, not a header.
        if " /interactions/" in route or " /webhooks/" in route:
            return
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise DiscordError(401, 0, "401: Unauthorized")

    def _take_rate_limit(self, route: str) -> _RateLimit | None:
        for limit in self._rate_limits:
            if limit.route == route and limit.remaining > 0:
                limit.remaining -= 1
                return limit
        return None

    # ---- REST: identity

    async def _get_me(self, request: web.Request, upload: _Upload) -> Any:
        me = dict(self.bot.payload())
        me.update(verified=True, mfa_enabled=False, flags=0, locale="en-US")
        return me

    async def _get_application(self, request: web.Request, upload: _Upload) -> Any:
        return {
            "id": str(self.application_id),
            "name": self.bot.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": FakeUser(self.application_id + 1, "owner").payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": APP_EMBEDDED if self.activities else 0,
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "integration_types_config": {"0": {}, "1": {}},
        }

    async def _get_gateway(self, request: web.Request, upload: _Upload) -> Any:
        return {"url": str(self.gateway_url)}

    async def _get_gateway_bot(self, request: web.Request, upload: _Upload) -> Any:
        return {
            "url": str(self.gateway_url),
            "shards": self.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 1000,
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def _get_user(self, request: web.Request, upload: _Upload) -> Any:
        user = self.users.get(_int(request.match_info["user_id"]))
        if user is None:
            raise DiscordError(404, 10013, "Unknown User")
        return user.payload()

    async def _get_member(self, request: web.Request, upload: _Upload) -> Any:
        guild = self.guilds.get(_int(request.match_info["guild_id"]))
        if guild is None:
            raise DiscordError(404, 10004, "Unknown Guild")
        if not guild.bot_is_member:
            raise DiscordError(403, 50001, "Missing Access")
        member = guild.members.get(_int(request.match_info["user_id"]))
        if member is None:
            raise DiscordError(404, 10007, "Unknown Member")
        return member.payload()

    async def _create_dm(self, request: web.Request, upload: _Upload) -> Any:
        body = upload.body if isinstance(upload.body, dict) else {}
        user = self.users.get(_int(body.get("recipient_id")))
        if user is None or user.bot:
            raise DiscordError(400, 50033, "Invalid Recipient(s)")
        _check_dm_channel_allowed(user)
        return self.dm_channel(user).payload(self.users)

    async def _get_channel(self, request: web.Request, upload: _Upload) -> Any:
        return self._rest_channel(request).payload(self.users)

    # ---- REST: commands

    def _check_application(self, request: web.Request) -> int | None:
        if _int(request.match_info["application_id"]) != self.application_id:
            raise DiscordError(403, 50001, "Missing Access")
        if "guild_id" not in request.match_info:
            return None
        guild_id = _int(request.match_info["guild_id"])
        if guild_id not in self.guilds or not self.guilds[guild_id].bot_is_member:
            raise DiscordError(403, 50001, "Missing Access")
        return guild_id

    async def _put_commands(self, request: web.Request, upload: _Upload) -> Any:
        guild_id = self._check_application(request)
        commands = upload.body
        form = _FormErrors()
        if not isinstance(commands, list):
            form.add([], "BASE_TYPE_ARRAY", "Must be an array.")
            form.raise_if_any()
        assert isinstance(commands, list)
        for i, command in enumerate(commands):
            _check_command(command, i, form)
        form.raise_if_any()
        keys = [(c.get("type", 1), c["name"]) for c in commands]
        duplicated = {k for k in keys if keys.count(k) > 1}
        if duplicated:
            form.add([], "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate names: {duplicated}")
        for kind in (1, 2, 3):
            same_type = [c for c in commands if c.get("type", 1) == kind]
            _check_unique_names(same_type, [], form, "APPLICATION_COMMANDS_DUPLICATE_NAME")
        entry_points = sum(1 for k, _ in keys if k == ENTRY_POINT)
        if entry_points and (guild_id is not None or not self.activities):
            # "handler can only be set for ... PRIMARY_ENTRY_POINT for applications with the
            # EMBEDDED flag"; Entry Point commands can only be global.
            form.add([], "APPLICATION_COMMAND_INVALID", "Entry Point commands need Activities")
        if entry_points > 1:
            form.add([], "APPLICATION_COMMAND_INVALID", "An app has one Entry Point command.")
        per_kind = {kind: sum(1 for k, _ in keys if k == kind) for kind in (1, 2, 3)}
        if per_kind[1] > 100 or per_kind[2] > 15 or per_kind[3] > 15:
            form.add([], "BASE_TYPE_MAX_LENGTH", "Too many commands of one type.")
        form.raise_if_any()
        previous = {(c.get("type", 1), c["name"]): c for c in self.synced.get(guild_id, [])}
        stored: list[dict[str, Any]] = []
        for command in commands:
            old = previous.get((command.get("type", 1), command["name"]))
            entry = {
                "type": 1,
                "contexts": None,
                "integration_types": [0],
                "default_member_permissions": None,
                "nsfw": False,
                "options": [],
                **command,
                "id": old["id"] if old else str(self.new_id()),
                "application_id": str(self.application_id),
                "version": str(self.new_id()),
            }
            if guild_id is not None:
                entry["guild_id"] = str(guild_id)
            stored.append(entry)
        self.synced[guild_id] = stored
        return stored

    async def _get_commands(self, request: web.Request, upload: _Upload) -> Any:
        return self.synced.get(self._check_application(request), [])

    # ---- REST: interaction responses

    def _interaction_by_token(self, interaction_id: str, token: str) -> InteractionRecord:
        record = self.interactions.get(_int(interaction_id))
        if record is None or record.token != token:
            raise DiscordError(404, 10062, "Unknown interaction")
        return record

    async def _callback(self, request: web.Request, upload: _Upload) -> Any:
        record = self._interaction_by_token(
            request.match_info["interaction_id"], request.match_info["interaction_token"]
        )
        body = upload.body if isinstance(upload.body, dict) else {}
        kind = body.get("type")
        data = body.get("data") or {}
        attempt = CallbackAttempt(
            type=kind if isinstance(kind, int) else -1,
            data=data,
            files={name: raw for name, raw in upload.files.values()},
            status=0,
            body=None,
            at=time.monotonic(),
        )
        record.attempts.append(attempt)
        try:
            result = self._respond(record, kind, data, upload, attempt.at)
        except DiscordError as error:
            attempt.status, attempt.body = error.status, error.body()
            self.notify()
            raise
        attempt.status, attempt.body = 200, result
        record.response = attempt
        self.notify()
        if request.query.get("with_response") in ("1", "true", "True"):
            return result
        return web.Response(status=204)

    def _respond(
        self,
        record: InteractionRecord,
        kind: object,
        data: dict[str, Any],
        upload: _Upload,
        at: float,
    ) -> dict[str, Any]:
        if record.response is not None:
            raise DiscordError(400, 40060, "Interaction has already been acknowledged.")
        if at > record.deadline:
            raise DiscordError(404, 10062, "Unknown interaction")
        form = _FormErrors()
        if kind not in ALLOWED_RESPONSES[record.kind]:
            form.add(
                ["type"],
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {kind} is not valid for interaction type {int(record.kind)}",
            )
            form.raise_if_any()
        message: StoredMessage | None = None
        if kind == ResponseKind.CHANNEL_MESSAGE:
            message = self._create(
                record.channel, data, upload, interaction=record, ephemeral_ok=True
            )
            record.original = message
        elif kind == ResponseKind.DEFERRED_CHANNEL_MESSAGE:
            flags = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            message = self._new_message(record.channel, interaction=record)
            message.flags = flags | FLAG_LOADING
            self.messages[message.id] = message
            record.original = message
        elif kind == ResponseKind.DEFERRED_UPDATE_MESSAGE:
            record.original = record.message
        elif kind == ResponseKind.UPDATE_MESSAGE:
            if record.message is None:
                form.add(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", "No message to update")
                form.raise_if_any()
            assert record.message is not None
            self._edit(record.message, data, upload)
            message = record.original = record.message
        elif kind == ResponseKind.LAUNCH_ACTIVITY and not self.activities:
            # Discord documents the rule ("only available for apps with Activities enabled"),
            # not its error: refused here as a response type the app may not use.
            form.add(
                ["type"],
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Activities are not enabled for this application",
            )
        elif kind == ResponseKind.AUTOCOMPLETE_RESULT:
            _check_choices(data.get("choices"), form)
        elif kind == ResponseKind.MODAL:
            form.length(["data", "custom_id"], data.get("custom_id"), 1, 100)
            form.length(["data", "title"], data.get("title"), 1, 45)
            components = data.get("components") or []
            if not 1 <= len(components) <= 5:
                form.add(["data", "components"], "BASE_TYPE_BAD_LENGTH", "Must be 1 to 5.")
        form.raise_if_any()
        info: dict[str, Any] = {"id": str(record.id), "type": int(record.kind)}
        result: dict[str, Any] = {"interaction": info, "resource": {"type": kind}}
        if kind == ResponseKind.LAUNCH_ACTIVITY:
            # One instance per channel: a launch where one runs joins it.
            instance = next(
                (i for r, i in self.launched if r.channel.id == record.channel.id),
                f"i-{self.new_id()}",
            )
            self.launched.append((record, instance))
            info["activity_instance_id"] = instance
            result["resource"]["activity_instance"] = {"id": instance}
        if message is not None:
            info["response_message_id"] = str(message.id)
            info["response_message_loading"] = message.loading
            info["response_message_ephemeral"] = message.ephemeral
            result["resource"]["message"] = message.payload()
        return result

    def _webhook_interaction(self, request: web.Request) -> InteractionRecord:
        if _int(request.match_info["webhook_id"]) != self.application_id:
            raise DiscordError(404, 10015, "Unknown Webhook")
        token = request.match_info["webhook_token"]
        record = next((r for r in self.interactions.values() if r.token == token), None)
        if record is None or record.response is None:
            # Followups and edits need an acknowledged interaction.
            raise DiscordError(404, 10015, "Unknown Webhook")
        if self.clock() > record.token_issued_at + self.token_lifetime:
            raise DiscordError(401, 50027, "Invalid Webhook Token")
        return record

    def _webhook_message(self, request: web.Request) -> tuple[InteractionRecord, StoredMessage]:
        record = self._webhook_interaction(request)
        key = request.match_info["message_id"]
        if key == "@original":
            message = record.original
        else:
            wanted = _int(key)
            candidates = [record.original, *record.followups]
            message = next((m for m in candidates if m is not None and m.id == wanted), None)
        if message is None or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        return record, message

    async def _followup(self, request: web.Request, upload: _Upload) -> Any:
        record = self._webhook_interaction(request)
        _check_followup_allowed(record)
        body = upload.body if isinstance(upload.body, dict) else {}
        original = record.original
        if (
            record.response is not None
            and record.response.type == ResponseKind.DEFERRED_CHANNEL_MESSAGE
            and original is not None
            and original.loading
            and not original.deleted
        ):
            # Discord: the first followup after a "thinking" deferral replaces the placeholder,
            # keeping the deferral's ephemerality.
            self._edit(original, {k: v for k, v in body.items() if k != "flags"}, upload)
            message = original
        else:
            message = self._create(record.channel, body, upload, interaction=record, followup=True)
        record.followups.append(message)
        self.notify()
        if request.query.get("wait") in ("1", "true", "True"):
            return message.payload()
        return web.Response(status=204)

    async def _get_webhook_message(self, request: web.Request, upload: _Upload) -> Any:
        return self._webhook_message(request)[1].payload()

    async def _edit_webhook_message(self, request: web.Request, upload: _Upload) -> Any:
        _, message = self._webhook_message(request)
        self._edit(message, upload.body if isinstance(upload.body, dict) else {}, upload)
        self.notify()
        return message.payload()

    async def _delete_webhook_message(self, request: web.Request, upload: _Upload) -> Any:
        _, message = self._webhook_message(request)
        message.deleted = True
        self.notify()
        return web.Response(status=204)

    # ---- REST: channel messages

    def _rest_channel(self, request: web.Request) -> FakeChannel:
        channel = self.channels.get(_int(request.match_info["channel_id"]))
        if channel is None:
            raise DiscordError(404, 10003, "Unknown Channel")
        if not channel.bot_is_member:
            raise DiscordError(403, 50001, "Missing Access")
        return channel

    def _rest_message(self, request: web.Request) -> StoredMessage:
        channel = self._rest_channel(request)
        message = self.messages.get(_int(request.match_info["message_id"]))
        if message is None or message.channel_id != channel.id or message.deleted:
            raise DiscordError(404, 10008, "Unknown Message")
        if message.ephemeral:
            raise DiscordError(404, 10008, "Unknown Message")
        return message

    async def _create_message(self, request: web.Request, upload: _Upload) -> Any:
        channel = self._rest_channel(request)
        if (
            channel.kind is ChannelKind.PUBLIC_THREAD
            and channel.guild_id is not None
            and not self.guilds[channel.guild_id].bot_permissions() & SEND_MESSAGES_IN_THREADS
        ):
            raise DiscordError(403, 50013, "Missing Permissions")
        if channel.kind is ChannelKind.DM and not self.users[channel.recipients[0]].dms_open:
            raise DiscordError(403, 50007, "Cannot send messages to this user")
        body = upload.body if isinstance(upload.body, dict) else {}
        again = self._nonce_seen(body)
        if again is not None:
            return again.payload()
        message = self._create(channel, body, upload, interaction=None)
        self._nonce_keep(body, message)
        self.notify()
        return message.payload()

    async def _start_thread(self, request: web.Request, upload: _Upload) -> Any:
        """Start Thread from Message (Discord's channel resource): a public thread whose id is
        the message's, in a server's text channel, with Create Public Threads; a name of 1 to
        100 characters and an archive duration Discord offers; one thread per message."""
        channel = self._rest_channel(request)
        if channel.kind is not ChannelKind.TEXT or channel.guild_id is None:
            raise DiscordError(400, 50024, "Cannot execute action on this channel type")
        guild = self.guilds[channel.guild_id]
        if not guild.bot_permissions() & CREATE_PUBLIC_THREADS:
            raise DiscordError(403, 50013, "Missing Permissions")
        message = self._rest_message(request)
        body = upload.body if isinstance(upload.body, dict) else {}
        form = _FormErrors()
        form.length(["name"], body.get("name"), 1, 100)
        archive = body.get("auto_archive_duration", 1440)
        if archive not in ARCHIVE_DURATIONS:
            form.add(
                ["auto_archive_duration"], "BASE_TYPE_CHOICES", f"Not one of {ARCHIVE_DURATIONS}"
            )
        form.raise_if_any()
        if message.id in self.channels:
            raise DiscordError(400, 160004, "A thread has already been created for this message")
        thread = FakeChannel(
            message.id,
            str(body["name"]),
            ChannelKind.PUBLIC_THREAD,
            guild_id=guild.id,
            parent_id=channel.id,
            owner_id=self.bot.id,
            archive_after=int(archive),
        )
        self.channels[thread.id] = thread
        self.notify()
        return thread.payload(self.users)

    def _nonce_key(self, body: dict[str, Any]) -> tuple[int, str] | None:
        nonce = body.get("nonce")
        if nonce is None or body.get("enforce_nonce") is not True:
            return None
        if not isinstance(nonce, (str, int)) or len(str(nonce)) > 25:
            raise DiscordError(400, 50035, "Invalid Form Body")  # nonce: up to 25 characters
        return self.bot.id, str(nonce)

    def _nonce_seen(self, body: dict[str, Any]) -> StoredMessage | None:
        """The message an enforced nonce already made in the past few minutes (Create
        Message, ``enforce_nonce``: "If another message was created by the same author with
        the same nonce, that message will be returned and no new message will be created")."""
        key = self._nonce_key(body)
        kept = None if key is None else self._nonces.get(key)
        if kept is None or time.monotonic() - kept[0] > NONCE_MEMORY:
            return None
        return self.messages.get(kept[1])

    def _nonce_keep(self, body: dict[str, Any], message: StoredMessage) -> None:
        key = self._nonce_key(body)
        if key is not None:
            self._nonces[key] = (time.monotonic(), message.id)

    async def _get_message(self, request: web.Request, upload: _Upload) -> Any:
        return self._rest_message(request).payload()

    async def _edit_message(self, request: web.Request, upload: _Upload) -> Any:
        message = self._rest_message(request)
        if int(message.author["id"]) != self.bot.id:
            raise DiscordError(403, 50005, "Cannot edit a message authored by another user")
        self._edit(message, upload.body if isinstance(upload.body, dict) else {}, upload)
        self.notify()
        return message.payload()

    async def _delete_message(self, request: web.Request, upload: _Upload) -> Any:
        self._rest_message(request).deleted = True
        self.notify()
        return web.Response(status=204)

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        message = next(
            (
                m
                for m in self.messages.values()
                if _int(request.match_info["attachment_id"]) in m.file_bytes
            ),
            None,
        )
        if message is None:
            raise web.HTTPNotFound()
        data = message.file_bytes[_int(request.match_info["attachment_id"])]
        return web.Response(body=data, content_type="application/octet-stream")

    # ---- messages: create and edit with Discord's limits

    def _new_message(
        self,
        channel: FakeChannel,
        *,
        interaction: InteractionRecord | None,
        followup: bool = False,
    ) -> StoredMessage:
        message = StoredMessage(
            id=self.new_id(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot.payload(),
        )
        if interaction is not None:
            message.interaction_id = interaction.id
            message.webhook_id = self.application_id
            message.application_id = self.application_id
            command = interaction.kind is InteractionKind.APPLICATION_COMMAND
            message.message_type = 20 if command and not followup else 0
            metadata: dict[str, Any] = {
                "id": str(interaction.id),
                "type": int(interaction.kind),
                "user": interaction.user.payload(),
                "authorizing_integration_owners": interaction.payload[
                    "authorizing_integration_owners"
                ],
            }
            if interaction.message is not None:
                metadata["interacted_message_id"] = str(interaction.message.id)
            message.interaction_metadata = metadata
        return message

    def _create(
        self,
        channel: FakeChannel,
        body: dict[str, Any],
        upload: _Upload,
        *,
        interaction: InteractionRecord | None,
        ephemeral_ok: bool = False,
        followup: bool = False,
    ) -> StoredMessage:
        message = self._new_message(channel, interaction=interaction, followup=followup)
        flags = int(body.get("flags") or 0)
        allowed = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
        if interaction is not None and (ephemeral_ok or followup):
            allowed |= FLAG_EPHEMERAL
        message.flags = flags & allowed
        self._apply(message, body, upload, creating=True)
        if isinstance(body.get("message_reference"), dict):
            message.message_reference = body["message_reference"]
            message.message_type = 19
        self.messages[message.id] = message
        return message

    def _edit(self, message: StoredMessage, body: dict[str, Any], upload: _Upload) -> None:
        was_loading = message.loading
        if "flags" in body and body["flags"] is not None:
            keep = message.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            changeable = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
            message.flags = keep | (int(body["flags"]) & changeable)
        self._apply(message, body, upload, creating=was_loading)
        message.flags &= ~FLAG_LOADING
        message.edits += 1
        message.edited_at = None if was_loading else datetime.now(UTC)

    def _apply(
        self, message: StoredMessage, body: dict[str, Any], upload: _Upload, *, creating: bool
    ) -> None:
        """Validate the message as it would be after ``body``, then change it; a refusal
        leaves it untouched."""
        form = _FormErrors()
        content = message.content if "content" not in body else (body["content"] or "")
        embeds = message.embeds if "embeds" not in body else (body["embeds"] or [])
        components = message.components if "components" not in body else body["components"] or []
        if not isinstance(content, str):
            form.add(["content"], "BASE_TYPE_STRING", "Value must be a string.")
            content = str(content)
        form.length(["content"], content, 0, 2000)
        _check_embeds(embeds, form)
        _check_components(components, message.flags, form)
        if message.flags & FLAG_COMPONENTS_V2 and (content or embeds):
            form.add(
                ["content"],
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' and 'embeds' fields cannot be used with components v2",
            )
        attachments, new_files = self._attachments(message, body, upload, form)
        pinged = _pings(content, body.get("allowed_mentions"), form)
        form.raise_if_any()
        if creating and not (content or embeds or components or attachments):
            raise DiscordError(400, 50006, "Cannot send an empty message")
        message.content = content
        message.components = list(components)
        message.attachments = attachments
        message.file_bytes.update(new_files)
        urls = {a["filename"]: a["url"] for a in attachments}
        message.embeds = [_resolve_embed(e, urls) for e in embeds]
        users = [u for u in sorted(pinged[0]) if u in self.users]
        message.mention_payloads = [self.users[u].payload() for u in users]
        if creating:
            message.pinged_users = frozenset(users)
            message.pinged_roles = pinged[1]
            message.pinged_everyone = pinged[2]

    def _attachments(
        self, message: StoredMessage, body: dict[str, Any], upload: _Upload, form: _FormErrors
    ) -> tuple[list[dict[str, Any]], dict[int, bytes]]:
        listed = body.get("attachments")
        if listed is None and not upload.files:
            return message.attachments, {}
        listed = listed or []
        existing = {int(a["id"]): a for a in message.attachments}
        kept: list[dict[str, Any]] = []
        new_files: dict[int, bytes] = {}
        declared: set[int] = set()
        for i, entry in enumerate(listed):
            key = _int(entry.get("id"))
            if key in upload.files:
                declared.add(key)
                filename, data = upload.files[key]
                if len(data) > self.attachment_size_limit:
                    raise DiscordError(413, 40005, "Request entity too large")
                attachment_id = self.new_id()
                new_files[attachment_id] = data
                name = entry.get("filename") or filename
                url = f"{self.url}/attachments/{message.channel_id}/{attachment_id}/{name}"
                attachment: dict[str, Any] = {
                    "id": str(attachment_id),
                    "filename": name,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": _content_type(name),
                }
                if entry.get("description"):
                    attachment["description"] = entry["description"]
                kept.append(attachment)
            elif key in existing:
                kept.append(existing[key])
            else:
                form.add(["attachments", i, "id"], "ATTACHMENT_NOT_FOUND", f"Unknown id {key}")
        for index in upload.files:
            if index not in declared:
                form.add(
                    ["attachments"],
                    "ATTACHMENT_NOT_DECLARED",
                    f"files[{index}] is not listed in attachments",
                )
        form.count(["attachments"], kept, 10)
        return kept, new_files


# --------------------------------------------------------------------------------------------
# Platform refusals (issue 25): what real Discord refuses that a bot meets in real use. Each
# rule names its source; tests/fakes/test_discord_fake.py holds one test per rule.

#: Followups allowed to an interaction authorised only by a user install (Discord's change log,
#: "User-Installed Apps General Availability", 2024-06-27: "User-installed apps are now limited
#: to creating a maximum of 5 follow-ups"; discord/discord-api-docs#6958).
USER_INSTALL_FOLLOWUP_LIMIT: Final = 5


def _check_unique_mentions(allowed: dict[str, Any], form: _FormErrors) -> None:
    """``allowed_mentions.users`` and ``.roles`` are sets: an id listed twice is refused with
    ``SET_TYPE_ALREADY_CONTAINS_VALUE`` at its index (discord/discord-api-docs#5484, "clarify
    uniqueness of mentions"; seen by bots in the wild, e.g. skyra-project/skyra#1277)."""
    for key in ("users", "roles"):
        listed = allowed.get(key) or []
        seen: set[str] = set()
        for index, value in enumerate(listed):
            if str(value) in seen:
                form.add(
                    ["allowed_mentions", key, index],
                    "SET_TYPE_ALREADY_CONTAINS_VALUE",
                    "The set already contains this value",
                )
            seen.add(str(value))


def _check_followup_allowed(record: InteractionRecord) -> None:
    """At most :data:`USER_INSTALL_FOLLOWUP_LIMIT` followups when only a user install
    authorises the interaction (apps installed to the server are unaffected)."""
    if record.user_install_only and len(record.followups) >= USER_INSTALL_FOLLOWUP_LIMIT:
        raise DiscordError(
            400, 40094, "This interaction has hit the maximum number of follow up messages"
        )


def _check_dm_channel_allowed(user: FakeUser) -> None:
    """Opening a DM channel with a user who cannot be DMed answers 400, 50007 at
    ``POST /users/@me/channels`` already (aiko-chan-ai/discord.js-selfbot-v13#550 shows the
    route and status; lexicalunit/spellbot#659 the same from discord.py's ``create_dm``)."""
    if user.dm_channel_refused:
        raise DiscordError(400, 50007, "Cannot send messages to this user")


def _offered(
    command: Mapping[str, Any],
    guild_id: int | None,
    context: InteractionContext,
    user: FakeUser,
    installed_here: bool = True,
) -> bool:
    """Whether Discord's client offers ``command`` to ``user`` here. A guild command, or a
    global one where the app is installed to the guild (a guild context, or the bot's own DM),
    is offered to everyone (``installed_here``: the app is installed to this guild); otherwise
    only a user install makes it usable, and a user install
    belongs to the user who made it: "users install an app to their profile and access its
    commands in any server or in a dm" (Rapptz/discord.py#9757, quoting Discord's announcement;
    discord/discord-api-docs#6723)."""
    installs = command.get("integration_types") or [0]
    if guild_id is not None:
        return True
    if 0 in installs and context is not InteractionContext.PRIVATE_CHANNEL and installed_here:
        return True
    return 1 in installs and user.has_app


# --------------------------------------------------------------------------------------------
# Helpers


def _int(value: object) -> int:
    try:
        return int(str(value))
    except ValueError:
        raise DiscordError(404, 0, "404: Not Found") from None


def _json(body: Any, status: int = 200, headers: Mapping[str, str] | None = None) -> web.Response:
    # Exactly "application/json": discord.py compares the header with ==, and aiohttp's
    # json_response would add "; charset=utf-8".
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def _rate_limit_headers(limit: _RateLimit) -> dict[str, str]:
    headers = {
        "Retry-After": str(limit.retry_after),
        "X-RateLimit-Scope": "global" if limit.is_global else "user",
        # discord.py treats a 429 without Via as a Cloudflare ban and does not retry.
        "Via": "1.1 google",
    }
    if limit.is_global:
        headers["X-RateLimit-Global"] = "true"
    return headers


def _content_type(filename: str) -> str:
    if filename.lower().endswith(".png"):
        return "image/png"
    if filename.lower().endswith((".jpg", ".jpeg")):
        return "image/jpeg"
    if filename.lower().endswith(".txt"):
        return "text/plain; charset=utf-8"
    return "application/octet-stream"


def _resolve_embed(embed: dict[str, Any], urls: Mapping[str, str]) -> dict[str, Any]:
    """Discord resolves ``attachment://name`` in embed images to the attachment's URL."""
    out = {"type": "rich", **embed}
    for key in ("image", "thumbnail"):
        part = out.get(key)
        if isinstance(part, dict) and str(part.get("url", "")).startswith("attachment://"):
            name = part["url"].removeprefix("attachment://")
            if name in urls:
                out[key] = {**part, "url": urls[name], "proxy_url": urls[name]}
    return out


FILE_PART = re.compile(r"^files\[(\d+)\]$")


async def _read_body(request: web.Request) -> _Upload:
    """JSON, or multipart ``payload_json`` + ``files[N]`` (what discord.py sends)."""
    if request.content_type.startswith("multipart/"):
        files: dict[int, tuple[str, bytes]] = {}
        body: Any = None
        reader = await request.multipart()
        async for part in reader:
            if not isinstance(part, BodyPartReader):
                raise DiscordError(400, 50035, "Invalid Form Body")
            name = part.name or ""
            raw = bytes(await part.read())
            match = FILE_PART.match(name)
            if name == "payload_json":
                body = _parse_json(raw)
            elif match:
                files[int(match.group(1))] = (part.filename or name, raw)
            else:
                raise DiscordError(400, 50035, "Invalid Form Body", {name: {"_errors": []}})
        return _Upload(body, files)
    raw = await request.read()
    return _Upload(_parse_json(raw) if raw else None, {})


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        raise DiscordError(400, 50109, "The request body contains invalid JSON.") from None
