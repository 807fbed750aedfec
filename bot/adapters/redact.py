"""Keeping a chat platform's token out of the logs: one log filter shared by every adapter.

A token can reach a log line in a message (a URL with the token in it, an error that repeats
a request) or in a traceback (an exception's arguments).  :class:`TokenRedactor` rewrites
both before any handler formats the record.

>>> import logging
>>> record = logging.LogRecord("x", logging.INFO, "", 1, "GET /bot%s/me", ("1:ab",), None)
>>> TokenRedactor("1:ab").filter(record), record.getMessage()
(True, 'GET /bot***/me')
"""

from __future__ import annotations

import logging
import traceback

__all__ = ["MASK", "TokenRedactor"]

#: What a token is replaced with.
MASK = "***"


class TokenRedactor(logging.Filter):
    """Replaces ``token`` in a log record's message and traceback with :data:`MASK`; an empty
    token changes nothing.  Add it to the handlers (a filter on a logger does not see records
    that propagate from its children)."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` without the token; always keeps it."""
        if not self.token:
            return True
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, MASK), None
        if record.exc_info and record.exc_info[1] is not None:
            text = "".join(traceback.format_exception(record.exc_info[1]))
            record.exc_text = text.replace(self.token, MASK).rstrip("\n")
            # The traceback is kept as text only: formatting exc_info again would bring the
            # token back.
            record.exc_info = None
        elif record.exc_text and self.token in record.exc_text:
            record.exc_text = record.exc_text.replace(self.token, MASK)
        return True
