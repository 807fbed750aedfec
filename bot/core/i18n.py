"""Which language a sentence is said in, and its words in that language (GNU gettext catalogs
read through Babel).

English is the source: every sentence a player sees is written in English in
:mod:`bot.sessions.texts` (and the picture words in :mod:`render`), marked for extraction, and
translated in ``bot/locales/<code>/LC_MESSAGES/hexhall.po`` (compiled to ``.mo`` next to it; see
the README's *Languages*).  The language in use is a :class:`~contextvars.ContextVar`, so two
handlers running at once (one for a Japanese player, one for a Spanish one) never see each
other's: :func:`use` sets it for a block, :func:`current` reads it.

Sentences are kept unrendered (:class:`bot.messages.Phrase`) until a surface renders them, so
the language is the one in use *when a message is rendered*: the player's for a private answer,
the chat's for a post everyone reads, the recipient's for a notice delivered later.

>>> with use("es"):
...     gettext("Really resign #{game_id}?")
'¿Seguro que abandonas la partida #{game_id}?'
>>> gettext("Really resign #{game_id}?")
'Really resign #{game_id}?'
>>> supported("pt-br"), supported("es-419"), supported("ko"), supported("ja")
('pt_BR', 'es', None, 'ja')
>>> with use(PSEUDO):
...     gettext("Really resign #{game_id}?")
'⟦Really resign #{game_id}?⟧'
"""

from __future__ import annotations

import gettext as _gettext
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime, timedelta
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal

from babel import Locale
from babel.dates import format_skeleton, format_timedelta
from babel.numbers import format_decimal

from bot.messages import speak_with

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LOCALES_DIR",
    "NP_",
    "N_",
    "PSEUDO",
    "SOURCE",
    "BadValue",
    "adopt",
    "current",
    "day",
    "duration",
    "fill",
    "from_environment",
    "gettext",
    "language_name",
    "moment",
    "ngettext",
    "number",
    "pgettext",
    "supported",
    "use",
]

#: The catalogs' domain (``hexhall.po`` / ``hexhall.mo``).
DOMAIN = "hexhall"
#: Where the catalogs live: ``<code>/LC_MESSAGES/hexhall.po`` and its compiled ``.mo``.
LOCALES_DIR = Path(__file__).resolve().parent.parent / "locales"
#: The language every sentence is written in.
SOURCE = "en"
#: The languages that ship, source first (catalog codes: Babel's, ``pt_BR`` with an underscore).
LANGUAGES: tuple[str, ...] = ("en", "es", "ja", "de", "fr", "pt_BR")
#: A pseudo-locale for checks: every translated string comes out wrapped in ``⟦ ⟧``, so any
#: text that reaches a player unwrapped escaped the catalogs.
PSEUDO = "qps"

_current: ContextVar[str] = ContextVar("hexhall_language", default=SOURCE)

#: Platform codes that do not reduce to a catalog by their first part.
_ALIASES: Mapping[str, str] = {"pt": "pt_BR", "pt-br": "pt_BR", "pt-pt": "pt_BR"}

_PLACEHOLDER = re.compile(r"\{(\w+)(?:!r)?\}")


@lru_cache(maxsize=256)  # asked on every update and every Discord command string
def supported(code: str | None) -> str | None:
    """The catalog for a platform's language code (Telegram's IETF ``language_code`` such as
    ``pt-br``, Discord's locale such as ``es-ES``), or ``None`` when none of ours fits."""
    if not code:
        return None
    key = code.strip().replace("_", "-").lower()
    if key == PSEUDO:
        return PSEUDO
    if key in _ALIASES:
        return _ALIASES[key]
    base = key.split("-", 1)[0]
    if base in _ALIASES:
        return _ALIASES[base]
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str]) -> str | None:
    """The catalog of the language a console's environment asks for, as GNU gettext reads it
    (``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``; ``de_DE.UTF-8`` is German), or
    ``None`` (unset, ``C``, ``POSIX`` or none of ours).

    >>> from_environment({"LANG": "de_DE.UTF-8"}), from_environment({"LANG": "C.UTF-8"})
    ('de', None)
    >>> from_environment({"LANGUAGE": "pt_BR:en", "LANG": "ja_JP.UTF-8"})
    'pt_BR'
    """
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        for wanted in value.split(":"):
            code = wanted.split(".", 1)[0].split("@", 1)[0]
            found = supported(code) if code not in ("C", "POSIX") else None
            if found is not None:
                return found
    return None


def current() -> str:
    """The language in use here (a catalog code)."""
    return _current.get()


def adopt(code: str | None) -> str:
    """Say everything in ``code`` from here to the end of the current task (a platform's
    handler of one update: each runs in a task of its own); the catalog code in use."""
    chosen = supported(code) or SOURCE
    _current.set(chosen)
    return chosen


@contextmanager
def use(code: str | None) -> Iterator[str]:
    """Say everything in ``code`` (a catalog code or a platform's; unknown: English) for the
    block; yields the catalog code in use."""
    chosen = supported(code) or SOURCE
    token = _current.set(chosen)
    try:
        yield chosen
    finally:
        _current.reset(token)


class _Pseudo(_gettext.NullTranslations):
    """The pseudo-locale: the English wrapped, so unwrapped text shows what escaped."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return f"⟦{msgid1 if n == 1 else msgid2}⟧"

    def pgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"


@cache
def _catalog(code: str) -> _gettext.NullTranslations:
    if code == PSEUDO:
        return _Pseudo()
    if code == SOURCE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, LOCALES_DIR, languages=[code], fallback=True)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs where it is written (a command's description, a
    name in a table); it is said where it is used, with :func:`gettext`."""
    return message


def NP_(context: str, message: str) -> str:
    """Marks ``message`` for the catalogs under ``context`` (a word that reads one way as a
    Discord command's name and another elsewhere: ``NP_("command", "move")``); it is said
    where it is used, with :func:`pgettext`."""
    return message


def pgettext(context: str, message: str) -> str:
    """``message`` marked under ``context`` (:func:`NP_`) in the language in use."""
    return _catalog(current()).pgettext(context, message)


def gettext(message: str) -> str:
    """``message`` in the language in use (itself where the catalog lacks it)."""
    return _catalog(current()).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of ``singular`` / ``plural`` for ``count`` in the language in use."""
    return _catalog(current()).ngettext(singular, plural, count)


def number(value: float) -> str:
    """A number in the language in use (``1.5`` is ``1,5`` in Spanish); whole numbers, which
    are ids and counts, stay plain digits."""
    if isinstance(value, int) or float(value).is_integer():
        return str(int(value))
    return format_decimal(value, locale=_babel_locale())


def duration(value: timedelta, *, fine: bool = False) -> str:
    """A span of time in the language's own words (``2 days``, ``2 días``, ``2 日``); ``fine``
    gives the language's short units, two of them where the larger is days or hours
    (``2 days 4 hr``, ``2 Tg. 4 Std.``).

    >>> duration(timedelta(days=2, hours=4, minutes=3), fine=True)
    '2 days 4 hr'
    >>> with use("ja"):
    ...     duration(timedelta(hours=3, minutes=20), fine=True)
    '3 時間 20 分'
    """
    seconds = int(max(0.0, value.total_seconds()))
    locale = _babel_locale()
    form: Literal["short", "long"] = "short" if fine else "long"

    def said(part: timedelta) -> str:
        return format_timedelta(part, threshold=1.0, format=form, locale=locale)

    if not fine:
        return said(timedelta(seconds=seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        first = said(timedelta(days=days))
        return f"{first} {said(timedelta(hours=hours))}" if hours else first
    if hours:
        first = said(timedelta(hours=hours))
        return f"{first} {said(timedelta(minutes=minutes))}" if minutes else first
    return said(timedelta(minutes=max(minutes, 1)))


def day(value: date, skeleton: str = "yMMMd") -> str:
    """A date in the language's own order and month names (a CLDR ``skeleton``: ``yMMMd``
    the full date, ``MMMd`` without the year, ``yMMM`` a month, ``y`` a year).

    >>> day(date(2026, 3, 9)), day(date(2026, 3, 9), "MMMd")
    ('Mar 9, 2026', 'Mar 9')
    >>> with use("de"):
    ...     day(date(2026, 3, 9))
    '9. März 2026'
    >>> with use("ja"):
    ...     day(date(2026, 3, 9), "yMMM")
    '2026年3月'
    """
    zone = value.tzinfo if isinstance(value, datetime) else None
    return format_skeleton(skeleton, value, locale=_babel_locale(), tzinfo=zone)


def moment(value: datetime, skeleton: str = "yMMMd") -> str:
    """A date and its time of day (24-hour ``14:05``) in the language's own words, in
    ``value``'s own time zone; ``skeleton`` says the date's part as in :func:`day`.

    >>> from datetime import UTC
    >>> moment(datetime(2026, 3, 9, 14, 5, tzinfo=UTC))
    'Mar 9, 2026, 14:05'
    >>> with use("fr"):
    ...     moment(datetime(2026, 3, 9, 14, 5, tzinfo=UTC), "MMMd")
    '9 mars, 14:05'
    """
    locale = Locale.parse(_babel_locale())
    said = format_skeleton(skeleton, value, locale=locale, tzinfo=value.tzinfo)
    time = format_skeleton("Hm", value, locale=locale, tzinfo=value.tzinfo)
    joined: str = locale.datetime_formats["medium"]
    return joined.replace("{1}", said).replace("{0}", time)


def language_name(code: str) -> str:
    """A language's own name for itself (``Español``, ``日本語``)."""
    chosen = supported(code) or SOURCE
    if chosen == PSEUDO:
        return "pseudo"
    name = Locale.parse(chosen).get_display_name(chosen) or chosen
    return name[:1].upper() + name[1:]


def _babel_locale() -> str:
    code = current()
    return SOURCE if code == PSEUDO else code


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by its value (a name without one is left as
    it is, so a translator's slip never crashes a reply).

    >>> fill("{who} played {move}.", {"who": "Ada", "move": "e5"})
    'Ada played e5.'
    """
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), template)


class BadValue(ValueError):
    """A value a player typed that does not fit, said by a catalog sentence: ``template``
    (marked with :func:`N_` where it is raised) and its ``values``.  ``str(exc)`` says it in the
    language in use; the sessions say it in their reader's (``say(exc.template, **exc.values)``).

    >>> str(BadValue(N_("{text} is not a time of day"), text="'25:00'"))
    "'25:00' is not a time of day"
    """

    def __init__(self, template: str, **values: str | int) -> None:
        super().__init__(template)
        self.template = template
        self.values: Mapping[str, str | int] = values

    def __str__(self) -> str:
        return fill(gettext(self.template), {k: str(v) for k, v in self.values.items()})


class _InUse:
    """What :mod:`bot.messages` says its phrases with: the language in use."""

    def gettext(self, message: str) -> str:
        return gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return ngettext(singular, plural, count)

    def number(self, value: float) -> str:
        return number(value)

    def moment(self, value: datetime) -> str:
        if current() == PSEUDO:  # the date's words are Babel's, not the catalogs'
            return f"⟦{moment(value)} UTC⟧"
        return f"{moment(value)} UTC"

    def language(self) -> str:
        return current()


speak_with(_InUse())


def split(template: str) -> Iterator[tuple[str, str | None]]:
    """``template`` as (plain text, placeholder name or ``None``) pieces, in order.

    >>> list(split("{a} to {b}."))
    [('', 'a'), (' to ', 'b'), ('.', None)]
    """
    start = 0
    for match in _PLACEHOLDER.finditer(template):
        yield template[start : match.start()], match.group(1)
        start = match.end()
    yield template[start:], None
