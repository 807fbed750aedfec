"""SQL behind the store's methods, on either backend, for tests that look at or damage rows
as a hand or a bad disk might."""

from __future__ import annotations

from typing import Any

from bot.storage.sql import SqlStore


async def raw(store: SqlStore, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Run ``sql`` (``?`` placeholders) on the store's own connection in one transaction; its
    rows as tuples (none for a statement that returns none)."""
    return [tuple(r) for r in await store._write(lambda c: c.fetch(sql, args))]
