"""Languages in SQL (:class:`SqlLanguages`): the language a player chose (``settings language``),
the one their platform last reported for them, and the one a chat's managers chose for what
everyone there reads (``settings chat-language``), one row each in ``languages``."""

from __future__ import annotations

import enum

from bot.storage.sql_base import SqlBase

__all__ = ["LanguageKind", "SqlLanguages"]


class LanguageKind(enum.StrEnum):
    """Whose language a row holds (its ``kind``): ``key`` is a user id or a chat id."""

    #: the player's own choice (``settings language <code>``)
    CHOSEN = "chosen"
    #: what the player's platform last said (Telegram's language_code, Discord's locale): the
    #: language of notices delivered when the player is not there to say it
    SEEN = "seen"
    #: a chat's choice for what everyone in it reads (``settings chat-language <code>``)
    CHAT = "chat"
    #: what the platform last said of a chat (a Discord server's preferred locale): the
    #: language of its posts delivered later, when nobody chose one
    CHAT_SEEN = "chat-seen"


class SqlLanguages(SqlBase):
    """The language methods of the store."""

    async def languages(
        self, platform: str, keys: tuple[tuple[LanguageKind, str], ...]
    ) -> dict[tuple[LanguageKind, str], str]:
        """The stored language of each (kind, key) that has one, in one read."""
        if not keys:
            return {}
        where = " OR ".join("(kind = ? AND key = ?)" for _ in keys)
        args: list[str] = [platform]
        for kind, key in keys:
            args += [str(kind), key]
        rows = await self._rows(
            f"SELECT kind, key, code FROM languages WHERE platform = ? AND ({where})", args
        )
        return {(LanguageKind(r["kind"]), str(r["key"])): str(r["code"]) for r in rows}

    async def set_language(
        self, platform: str, kind: LanguageKind, key: str, code: str | None
    ) -> None:
        """Store (``None``: forget) the language of (kind, key)."""
        if code is None:
            await self._write(
                lambda c: c.execute(
                    "DELETE FROM languages WHERE platform = ? AND kind = ? AND key = ?",
                    (platform, str(kind), key),
                )
            )
            return
        await self._write(
            lambda c: c.execute(
                "INSERT INTO languages (platform, kind, key, code) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, kind, key) DO UPDATE SET code = excluded.code",
                (platform, str(kind), key, code),
            )
        )
