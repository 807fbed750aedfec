"""Languages in SQL (:class:`SqlLanguages`): the language a player chose (``settings language``),
the one their platform last reported for them, and the one a chat's managers chose for what
everyone there reads (``settings chat-language``), one row each in ``languages``."""

from __future__ import annotations

import enum
from time import monotonic

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


#: How long a language read is kept in this process (seconds): every request reads its
#: asker's and its chat's, and a choice changes only by ``settings language`` /
#: ``settings chat-language``, which this process applies to what it keeps at once; another
#: process's change is seen here at the latest this long after it.
LANGUAGE_TTL = 30.0

_Key = tuple[str, LanguageKind, str]


class _Kept:
    """The languages this process read lately, each with when it goes stale (monotonic
    seconds), and a count of the writes, so a read that a write overtook keeps nothing."""

    def __init__(self) -> None:
        self.codes: dict[_Key, tuple[str | None, float]] = {}
        self.writes = 0

    def get(self, keys: list[_Key]) -> dict[_Key, str | None] | None:
        """Every one of ``keys`` still fresh, or ``None`` (then all are read again)."""
        now, found = monotonic(), {}
        for key in keys:
            kept = self.codes.get(key)
            if kept is None or kept[1] <= now:
                return None
            found[key] = kept[0]
        return found

    def put(self, found: dict[_Key, str | None], writes: int) -> None:
        if writes != self.writes:
            return  # a write came while this was read: what was read may be older than it
        if len(self.codes) > 10_000:
            self.codes.clear()  # bounded: the few people active now are read again
        until = monotonic() + LANGUAGE_TTL
        self.codes.update((key, (code, until)) for key, code in found.items())

    def wrote(self, key: _Key) -> None:
        self.writes += 1
        self.codes.pop(key, None)


class SqlLanguages(SqlBase):
    """The language methods of the store."""

    _kept_languages: _Kept | None = None

    def _kept(self) -> _Kept:
        if self._kept_languages is None:
            self._kept_languages = _Kept()
        return self._kept_languages

    async def languages(
        self, platform: str, keys: tuple[tuple[LanguageKind, str], ...]
    ) -> dict[tuple[LanguageKind, str], str]:
        """The stored language of each (kind, key) that has one, in one read; kept in this
        process for :data:`LANGUAGE_TTL` seconds (a write here replaces it at once)."""
        if not keys:
            return {}
        wanted = [(platform, kind, key) for kind, key in keys]
        kept = self._kept()
        found = kept.get(wanted)
        if found is None:
            writes = kept.writes
            where = " OR ".join("(kind = ? AND key = ?)" for _ in keys)
            args: list[str] = [platform]
            for kind, key in keys:
                args += [str(kind), key]
            rows = await self._rows(
                f"SELECT kind, key, code FROM languages WHERE platform = ? AND ({where})", args
            )
            read = {
                (platform, LanguageKind(r["kind"]), str(r["key"])): str(r["code"]) for r in rows
            }
            found = {key: read.get(key) for key in wanted}
            kept.put(found, writes)
        return {(kind, key): code for (_, kind, key), code in found.items() if code is not None}

    async def set_language(
        self, platform: str, kind: LanguageKind, key: str, code: str | None
    ) -> None:
        """Store (``None``: forget) the language of (kind, key)."""
        self._kept().wrote((platform, kind, key))
        try:
            await self._set_language(platform, kind, key, code)
        finally:
            self._kept().wrote((platform, kind, key))

    async def _set_language(
        self, platform: str, kind: LanguageKind, key: str, code: str | None
    ) -> None:
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
