"""Uploading the slash commands only when they changed.

discord.py's ``tree.sync()`` uploads the whole command list on every call, and its maintainers
advise against syncing on every start: a crash loop would upload the list at each restart
(Discord rate-limits that route and counts command creations per day). Here the list the bot
would upload is compared with the one Discord holds (one ``GET``): only when they differ is
it uploaded. Comparing with Discord itself, rather than with a hash kept on our side, also
catches a list changed elsewhere (another deployment, the developer portal).

A guild's commands (``DISCORD_GUILD_ID``, for development) get no global-only fields:
``contexts``, ``integration_types`` and ``dm_permission`` are "only for globally-scoped
commands" (Discord's application command object, as nyxx's ApplicationCommandBuilder quotes
it).

>>> digest([{"name": "b", "options": []}, {"name": "a", "nsfw": False}]) == digest(
...     [{"name": "a"}, {"name": "b", "id": "7", "version": "9"}])
True
>>> canonical({"name": "moves", "min_value": 0, "required": False})
{'name': 'moves', 'min_value': 0}
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import discord
from discord import app_commands

__all__ = ["GLOBAL_ONLY", "canonical", "digest", "payload", "sync_if_changed"]

log = logging.getLogger(__name__)

#: Fields of a command that only global commands have.
GLOBAL_ONLY = frozenset({"contexts", "integration_types", "dm_permission"})
#: The command type of an Activity's Entry Point command (``PRIMARY_ENTRY_POINT``).
ENTRY_POINT = 4
#: Fields Discord adds to what it stores (not part of what the bot says).
_SERVER_FIELDS = frozenset({"id", "application_id", "guild_id", "version"})


async def payload(tree: app_commands.CommandTree[Any], *, guild: bool) -> list[dict[str, Any]]:
    """The command list the bot would upload: its global commands (with their localizations
    when the tree has a translator), without the global-only fields when it goes to one
    guild."""
    translator = tree.translator
    commands = [
        await command.get_translated_payload(tree, translator)
        if translator is not None
        else command.to_dict(tree)
        for command in tree.get_commands()
    ]
    if guild:
        commands = [{k: v for k, v in c.items() if k not in GLOBAL_ONLY} for c in commands]
    return commands


def _as_sent(command: Mapping[str, Any]) -> dict[str, Any]:
    """A command Discord holds, as a command list to upload says it (no server fields)."""
    return {str(k): v for k, v in command.items() if k not in _SERVER_FIELDS}


def canonical(value: Any) -> Any:
    """``value`` (a command list, or part of one) without what does not change its meaning:
    fields Discord adds, empty and default values (``None``, ``False``, ``[]``, ``{}``), and
    the order of the commands (by type and name)."""
    if isinstance(value, Mapping):
        kept = {str(k): canonical(v) for k, v in value.items() if k not in _SERVER_FIELDS}
        return {k: v for k, v in kept.items() if not _empty(v)}
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        if all(isinstance(i, dict) and "name" in i for i in items):
            items.sort(key=lambda i: (i.get("type", 1), str(i["name"])))
        return items
    return value


def _empty(value: Any) -> bool:
    """Whether a field's value says nothing a missing field would not (0 says something)."""
    return value is None or value is False or value == [] or value == {}


def digest(commands: Sequence[Mapping[str, Any]]) -> str:
    """A short hash of a command list's meaning (see :func:`canonical`)."""
    text = json.dumps(canonical(list(commands)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


async def sync_if_changed(
    client: discord.Client, tree: app_commands.CommandTree[Any], guild_id: int | None
) -> bool:
    """Upload the command list (globally, or to ``guild_id``) if it differs from the one
    Discord holds; whether it was uploaded."""
    application_id = client.application_id
    if application_id is None:
        raise app_commands.MissingApplicationID
    http = client.http
    wanted = await payload(tree, guild=guild_id is not None)
    if guild_id is None:
        held = await http.get_global_commands(application_id)
        # The Activity's Entry Point command (Discord makes "Launch" when Activities are
        # enabled) is no command of the bot's: uploading the list without it would delete
        # it, so it goes back as Discord holds it.
        wanted += [_as_sent(c) for c in held if c.get("type") == ENTRY_POINT]
    else:
        held = await http.get_guild_commands(application_id, guild_id)
    mine, theirs = digest(wanted), digest(held)
    if mine == theirs:
        log.info("slash commands unchanged (%s): not uploaded", mine)
        return False
    if guild_id is None:
        await http.bulk_upsert_global_commands(application_id, payload=wanted)
    else:
        await http.bulk_upsert_guild_commands(application_id, guild_id, payload=wanted)
    log.info("slash commands uploaded (%s, Discord had %s)", mine, theirs)
    return True
