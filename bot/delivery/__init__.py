"""Delivery of notifications: what the bot tells players outside their own commands.

The session manager writes :class:`~bot.core.notification.Notification` values into the
store's outbox in the same transaction as the change they report; adapters deliver them through
the outbox.  Nothing here imports an adapter or a chat library.
"""
