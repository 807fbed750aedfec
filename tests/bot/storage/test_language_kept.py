"""Languages kept in-process for a short while (every request reads its asker's and its
chat's; a move's statement budget has no room for the read): a write in this process is seen
here at once, another process's change at the latest :data:`LANGUAGE_TTL` seconds later.
The time is moved by hand (no sleeping).  On SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from bot.storage import LanguageKind, open_store, sql_languages
from bot.storage.sql_languages import LANGUAGE_TTL

KEYS = ((LanguageKind.CHOSEN, "7"), (LanguageKind.SEEN, "7"))


class _Time:
    """A monotonic clock moved by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


async def test_a_write_here_is_seen_at_once_and_another_process_s_within_the_ttl(
    store_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = _Time()
    monkeypatch.setattr(sql_languages, "monotonic", clock.monotonic)
    here, there = await open_store(store_url), await open_store(store_url)
    try:
        assert await here.languages("t", KEYS) == {}
        await here.set_language("t", LanguageKind.CHOSEN, "7", "fr")
        assert await here.languages("t", KEYS) == {(LanguageKind.CHOSEN, "7"): "fr"}
        # Another process's change: not yet seen here, while what was read is fresh ...
        await there.set_language("t", LanguageKind.CHOSEN, "7", "de")
        clock.now += LANGUAGE_TTL - 1
        assert await here.languages("t", KEYS) == {(LanguageKind.CHOSEN, "7"): "fr"}
        # ... and seen once it is not.
        clock.now += 1
        assert await here.languages("t", KEYS) == {(LanguageKind.CHOSEN, "7"): "de"}
        # A language forgotten here is forgotten at once.
        await here.set_language("t", LanguageKind.CHOSEN, "7", None)
        assert await here.languages("t", KEYS) == {}
    finally:
        await here.close()
        await there.close()


async def test_a_read_kept_costs_no_statement(store_url: str) -> None:
    store = await open_store(store_url)
    calls: list[object] = []
    try:
        await store.set_language("t", LanguageKind.SEEN, "8", "es")
        first = await store.languages("t", ((LanguageKind.SEEN, "8"),))
        original = store._rows

        async def counted(*args: object) -> object:
            calls.append(args)
            return await original(*args)

        store._rows = counted
        assert await store.languages("t", ((LanguageKind.SEEN, "8"),)) == first
        assert calls == []
        # A key not read before is read (with the others asked for, in one statement).
        await store.languages("t", ((LanguageKind.SEEN, "8"), (LanguageKind.CHAT, "c")))
        assert len(calls) == 1
    finally:
        await store.close()
