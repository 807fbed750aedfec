"""What the store raises is a shared value (:mod:`bot.core.errors`: the surfaces catch it too):
named here too for the store's own modules."""

from bot.core.errors import BadRow, StoreBusy, StoreError, StoreFull, StoreUnavailable

__all__ = ["BadRow", "StoreBusy", "StoreError", "StoreFull", "StoreUnavailable"]
