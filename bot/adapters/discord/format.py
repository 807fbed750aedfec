"""Discord's form of the manager's values: markdown with names escaped, mentions as ``<@id>``,
``allowed_mentions`` that ping only the player to move, the board embed, and the users and
chats the manager knows.

>>> from bot.messages import Code, Mention, Strong, Text
>>> ada = Mention(PLATFORM, "42", "Ada")
>>> markdown(Text.of(ada, " played ", Code("e5"), " in ", Strong("#3"), " *ok*"))
'<@42> played `e5` in **\\\\#3** \\\\*ok\\\\*'
>>> markdown(Text.of(Mention("telegram", "7", "@everyone_*")))
'@\\u200beveryone\\\\_\\\\*'
"""

from __future__ import annotations

from datetime import datetime

import discord

from bot.core.i18n import gettext
from bot.messages import (
    MESSAGE_LIMITS,
    Chat,
    Code,
    GameFacts,
    Mention,
    Strong,
    Text,
    User,
    sections,
)

__all__ = [
    "ALT_LIMIT",
    "BOARD_FILE",
    "CHART_FILE",
    "PLATFORM",
    "TEXT_LIMIT",
    "board_embed",
    "chat_of",
    "markdown",
    "markdown_sections",
    "mentions_only",
    "plain",
    "timestamp",
    "user_of",
]

PLATFORM = "discord"
#: The longest message content Discord takes.
TEXT_LIMIT = MESSAGE_LIMITS[PLATFORM]
#: The longest alt text (an attachment's description).
ALT_LIMIT = 1024
#: The board picture's file name (the embed shows it through ``attachment://``).
BOARD_FILE = "board.png"
#: The file name of another picture (a player's rating chart).
CHART_FILE = "chart.png"
_FIELD_LIMIT = 1024


def _escape(text: str) -> str:
    # Markdown first, then mentions: a name may not format, nor ping @everyone or a role.
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def _mention(mention: Mention) -> str:
    if mention.platform == PLATFORM and mention.user_id.isdigit():
        return f"<@{mention.user_id}>"
    return _escape(mention.name)


def markdown(text: Text) -> str:
    """``text`` as Discord markdown: names and plain pieces escaped, mentions as ``<@id>``,
    code spans raw (markdown does not apply inside them; a backtick would end one)."""
    out = []
    for segment in text.segments:
        if isinstance(segment, Mention):
            out.append(_mention(segment))
        elif isinstance(segment, Strong):
            out.append(f"**{_escape(segment.text)}**")
        elif isinstance(segment, Code):
            out.append("`" + segment.text.replace("`", "'") + "`")
        else:
            out.append(_escape(segment))
    return "".join(out)


def markdown_sections(text: Text, limit: int = TEXT_LIMIT) -> list[str]:
    """``text`` as Discord markdown in messages of at most ``limit`` characters *as sent*: the
    marks and escapes count too, so a text cut at ``limit`` plain characters whose markdown is
    longer is cut again, finer (a rules page with many ``**`` spans and escaped characters).

    >>> [len(s) for s in markdown_sections(Text.of("a_b " * 300), 1000)]
    [911, 589]
    """
    size = limit
    while True:
        out = [markdown(s) for s in sections(text, size)]
        if size <= 1 or all(len(s) <= limit for s in out):
            return out
        size = max(1, size * 9 // 10)


def plain(text: Text, limit: int) -> str:
    """``text`` without markup, cut to ``limit`` characters (embed fields, alt text)."""
    flat = str(text)
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def mentions_only(*who: Mention | None) -> discord.AllowedMentions:
    """Allowed mentions that ping exactly these Discord players, each once (never @everyone or
    roles). Discord refuses a message whose ``allowed_mentions.users`` lists an id twice (400,
    50035 ``SET_TYPE_ALREADY_CONTAINS_VALUE``; discord/discord-api-docs#5484), and a card may
    name its player twice, so the ids are de-duplicated here, where every message gets them.

    >>> ada = Mention(PLATFORM, "42", "Ada")
    >>> [u.id for u in mentions_only(ada, None, ada).users]
    [42]
    """
    ids = dict.fromkeys(
        int(m.user_id)
        for m in who
        if m is not None and m.platform == PLATFORM and m.user_id.isdigit()
    )
    users = [discord.Object(user_id) for user_id in ids]
    return discord.AllowedMentions(everyone=False, roles=False, users=users, replied_user=False)


def timestamp(moment: datetime) -> str:
    """A Discord timestamp that each client shows in its own time zone, relative (``in 3
    days``)."""
    return discord.utils.format_dt(moment, "R")


def board_embed(facts: GameFacts, ratings: Text, *, image: bool) -> discord.Embed:
    """The card of a board message: game, players, move number, last move, whose turn and the
    deadline (or the result), the players' ``ratings``, with the attached board picture when
    ``image``."""
    embed = discord.Embed(title=f"#{facts.game_id} {facts.title}")
    embed.add_field(
        name=gettext("Players"),
        value=plain(Text.join(facts.players, gettext(" vs ")), _FIELD_LIMIT),
        inline=False,
    )
    embed.add_field(name=gettext("Moves played"), value=str(facts.ply))
    if facts.last_move:
        embed.add_field(name=gettext("Last move"), value=f"`{facts.last_move}`")
    if facts.to_move_side is not None:
        embed.add_field(name=gettext("To move"), value=markdown(facts.to_move_side)[:_FIELD_LIMIT])
    if facts.deadline is not None:
        embed.add_field(
            name=gettext("Deadline"),
            value=f"{discord.utils.format_dt(facts.deadline, 'f')} ({timestamp(facts.deadline)})",
        )
    if facts.result is not None:
        embed.add_field(
            name=gettext("Result"), value=plain(facts.result, _FIELD_LIMIT), inline=False
        )
    shown = plain(ratings, _FIELD_LIMIT).strip()
    if shown:
        embed.add_field(name=gettext("Ratings"), value=shown, inline=False)
    if image:
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return embed


def user_of(user: discord.User | discord.Member) -> User:
    """The manager's user for a Discord user."""
    return User(PLATFORM, str(user.id), user.display_name or user.name or str(user.id))


def chat_of(channel_id: int | None, guild_id: int | None = None, bot_dm: bool = False) -> Chat:
    """The manager's chat for a Discord channel (a server channel, a DM, a group DM); a
    server channel's community is its server (whose leaderboard it shows), a DM has none.
    ``bot_dm``: the interaction came from the user's DM with the bot (interaction context
    type ``BOT_DM`` = 1, "within DMs with the app's bot user"; ``PRIVATE_CHANNEL`` = 2 is a
    DM between people or a group DM): a ``direct`` chat.

    >>> chat_of(5, 7).community, chat_of(5).community, chat_of(5, bot_dm=True).direct
    ('7', None, True)
    """
    community = None if guild_id is None else str(guild_id)
    return Chat(PLATFORM, str(channel_id or 0), community=community, direct=bot_dm)
