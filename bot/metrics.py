"""The bot's Prometheus metrics (``prometheus_client``), all in one registry of this module.

Each figure is recorded at the one place where it happens:

- :data:`MOVES`: a move stored (:func:`bot.sessions.moves.commit`, after the store took it).
- :data:`REPLIES`: an answer to a player's command, button or message handed to the platform
  (each adapter's one path that shows the manager's answer).
- :data:`DELIVERY_LAG`: a notification sent by the outbox (:mod:`bot.delivery.outbox`), how
  long after it fell due.
- :data:`SWEEP_SECONDS`: one clock sweep (:func:`bot.sessions.clocks.run_clocks`).
- :data:`STORAGE_FULL`: a request the database refused because its storage is full (disk,
  quota): :meth:`bot.storage.full.FullAlarm.full`, where a store meets it.  Any increase is
  worth an alert: it lasts until someone frees space.
- :data:`OUTBOX_DEPTH` and :data:`OUTBOX_LAG`: read from the database when the metrics are
  scraped (:func:`set_backlog`, called by :mod:`bot.web`).  They describe the whole
  database, so every process on one database reports the same figures: aggregate them with
  ``max``, not ``sum``.  The counters and histograms are this process's own.

:data:`REGISTRY` is not ``prometheus_client``'s global default registry: what a library
registers there never shows up here, and tests read exact figures from it.

>>> before = REGISTRY.get_sample_value("hexhall_moves_total", {"game": "hex"}) or 0.0
>>> moved("hex")
>>> REGISTRY.get_sample_value("hexhall_moves_total", {"game": "hex"}) - before
1.0
"""

from __future__ import annotations

from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.process_collector import ProcessCollector

from bot.storage.full import when_full
from bot.storage.rows import Backlog

__all__ = [
    "DELIVERY_LAG",
    "MOVES",
    "OUTBOX_DEPTH",
    "OUTBOX_LAG",
    "REGISTRY",
    "REPLIES",
    "STORAGE_FULL",
    "SWEEP_SECONDS",
    "delivered",
    "moved",
    "replied",
    "set_backlog",
    "storage_full",
]

#: The one registry every Hexhall metric is in (what ``GET /metrics`` shows).
REGISTRY = CollectorRegistry(auto_describe=True)
# CPU, memory and open files of this process (``process_*``; read from /proc on Linux).
ProcessCollector(registry=REGISTRY)

MOVES = Counter(
    "hexhall_moves",
    "Moves stored, by game (the bot's own moves too).",
    ["game"],
    registry=REGISTRY,
)
REPLIES = Counter(
    "hexhall_replies",
    "Answers to players' commands, buttons and messages handed to the platform, by platform.",
    ["platform"],
    registry=REGISTRY,
)
OUTBOX_DEPTH = Gauge(
    "hexhall_outbox_depth",
    "Notifications due now and not yet delivered, by platform (the whole database, read "
    "when scraped).",
    ["platform"],
    registry=REGISTRY,
)
OUTBOX_LAG = Gauge(
    "hexhall_outbox_lag_seconds",
    "How long the oldest due, undelivered notification has waited since it fell due, by "
    "platform (0 when none is due; the whole database, read when scraped).",
    ["platform"],
    registry=REGISTRY,
)
DELIVERY_LAG = Histogram(
    "hexhall_delivery_lag_seconds",
    "From when a notification fell due to when this process delivered it, by platform.",
    ["platform"],
    # From "at once" to "the platform was down for an hour".
    buckets=(0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600),
    registry=REGISTRY,
)
SWEEP_SECONDS = Histogram(
    "hexhall_clock_sweep_seconds",
    "How long one clock sweep (reminders and losses on time that fell due) took.",
    # The sweeper runs every 30 s: its top buckets say when a sweep nears that.
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60),
    registry=REGISTRY,
)
STORAGE_FULL = Counter(
    "hexhall_storage_full",
    "Requests the database refused because its storage is full (disk full, quota): players "
    "are told the bot's storage is full; it lasts until space is freed.",
    registry=REGISTRY,
)

# The platforms whose backlog gauges were ever set: a platform whose backlog emptied shows 0
# (a series that vanishes would read as "no data", not "nothing waiting").
_backlog_platforms: set[str] = set()


def moved(game: str) -> None:
    """Count one stored move of ``game`` (an :data:`engines.GAMES` name)."""
    MOVES.labels(game).inc()


def replied(platform: str) -> None:
    """Count one answer handed to ``platform``."""
    REPLIES.labels(platform).inc()


def storage_full() -> None:
    """Count one request refused because the database's storage is full (called by every
    store: see :func:`bot.storage.full.when_full`)."""
    STORAGE_FULL.inc()


when_full(storage_full)


def delivered(platform: str, lag: float) -> None:
    """Record one notification delivered on ``platform``, ``lag`` seconds after it fell due
    (a negative lag, from a clock that stepped back, counts as 0)."""
    DELIVERY_LAG.labels(platform).observe(max(lag, 0.0))


def set_backlog(backlog: Iterable[Backlog]) -> None:
    """Set the outbox gauges to ``backlog`` (the store's
    :meth:`~bot.storage.sql_outbox.SqlOutbox.outbox_backlog`); platforms it does not name, but an
    earlier call did, are set to 0.

    >>> set_backlog([Backlog("doctest", 3, 12.5)])
    >>> REGISTRY.get_sample_value("hexhall_outbox_depth", {"platform": "doctest"})
    3.0
    >>> set_backlog([])
    >>> REGISTRY.get_sample_value("hexhall_outbox_lag_seconds", {"platform": "doctest"})
    0.0
    """
    current = {row.platform: row for row in backlog}
    for platform in _backlog_platforms - current.keys():
        OUTBOX_DEPTH.labels(platform).set(0)
        OUTBOX_LAG.labels(platform).set(0.0)
    for platform, row in current.items():
        OUTBOX_DEPTH.labels(platform).set(row.due)
        OUTBOX_LAG.labels(platform).set(max(row.oldest_wait, 0.0))
        _backlog_platforms.add(platform)
