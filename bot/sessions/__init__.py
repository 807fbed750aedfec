"""Game sessions: the platform-neutral :class:`~bot.sessions.manager.SessionManager` and the
modules it hands over to, one per concern (see :mod:`bot.sessions.manager`)."""
