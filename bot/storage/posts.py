"""The posts the store keeps are shared values (:mod:`bot.core.posts`): named here too for the
store's own modules."""

from bot.core.posts import Post, PostKind

__all__ = ["Post", "PostKind"]
