"""Keeping secrets out of the logs: one redactor for the whole process, holding every secret
(both chat tokens, Telegram's webhook secret, the database password).

A secret can reach a log line in a message (a URL with the token in it, an error that repeats
a request) or in a traceback (an exception's arguments).  :class:`Redactor` rewrites both
before any handler formats the record.  :func:`hide` adds secrets to the process's one
redactor, :data:`REDACTOR`, and installs it on the log handlers (once each): the app hands it
every secret of its settings at start, and each adapter the ones it is given (so an adapter
built on its own, as the tests do, is covered too).

>>> import logging
>>> record = logging.LogRecord("x", logging.INFO, "", 1, "GET /bot%s/me", ("1:ab",), None)
>>> Redactor("1:ab").filter(record), record.getMessage()
(True, 'GET /bot***/me')
>>> Redactor("s3cret", "1:ab").redact("postgresql://u:s3cret@db/x and 1:ab")
'postgresql://u:***@db/x and ***'
"""

from __future__ import annotations

import logging
import traceback

__all__ = ["MASK", "REDACTOR", "Redactor", "TokenRedactor", "hide"]

#: What a secret is replaced with.
MASK = "***"


class Redactor(logging.Filter):
    """Replaces every one of its secrets in a log record's message and traceback with
    :data:`MASK` (empty secrets are ignored).  Install it on the handlers (a filter on a logger
    does not see records that propagate from its children): :meth:`install`."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self._secrets: list[str] = []
        self.add(*secrets)

    def add(self, *secrets: str) -> None:
        """Hold these secrets too."""
        for secret in secrets:
            if secret and secret not in self._secrets:
                self._secrets.append(secret)
        # The longest first: a secret that holds another is masked whole.
        self._secrets.sort(key=len, reverse=True)

    def redact(self, text: str) -> str:
        """``text`` with every secret masked."""
        for secret in self._secrets:
            text = text.replace(secret, MASK)
        return text

    def _holds(self, text: str) -> bool:
        return any(secret in text for secret in self._secrets)

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` without the secrets; always keeps it."""
        if not self._secrets:
            return True
        message = record.getMessage()
        if self._holds(message):
            record.msg, record.args = self.redact(message), None
        if record.exc_info and record.exc_info[1] is not None:
            text = "".join(traceback.format_exception(record.exc_info[1]))
            record.exc_text = self.redact(text).rstrip("\n")
            # The traceback is kept as text only: formatting exc_info again would bring the
            # secret back.
            record.exc_info = None
        elif record.exc_text and self._holds(record.exc_text):
            record.exc_text = self.redact(record.exc_text)
        return True

    def install(self, *loggers: logging.Logger) -> None:
        """Filter every handler of the root logger (and the ``loggers`` themselves), adding
        this redactor only where it is not yet."""
        for handler in logging.getLogger().handlers:
            if self not in handler.filters:
                handler.addFilter(self)
        for logger in loggers:
            if self not in logger.filters:
                logger.addFilter(self)


#: The name the adapters knew it by (one token each); the same class.
TokenRedactor = Redactor

#: The process's one redactor.
REDACTOR = Redactor()


def hide(*secrets: str, loggers: tuple[logging.Logger, ...] = ()) -> Redactor:
    """Add ``secrets`` to :data:`REDACTOR` and install it (see :meth:`Redactor.install`)."""
    REDACTOR.add(*secrets)
    REDACTOR.install(*loggers)
    return REDACTOR
