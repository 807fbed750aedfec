"""The values every layer of the bot shares, at the bottom of its imports.

Notifications and their kinds (:mod:`bot.core.notification`), a player's settings
(:mod:`bot.core.settings`), where a game or a challenge stands (:mod:`bot.core.status`) and how
a game ended (:mod:`bot.core.ending`).  Nothing here imports the storage, the delivery, the
sessions or an adapter: they all import from here (the notification is made of the text values
of :mod:`bot.messages`, a leaf module).  The computer player's levels are
:class:`engines.levels.Level`, below the bot altogether.
"""
