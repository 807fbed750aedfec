"""The session layer's services: a few plain classes with typed methods, each over the shared
:class:`~bot.sessions.context.Context`, each method handing over to the session module of its
concern.  :class:`~bot.sessions.manager.SessionManager` owns one of each (``manager.games``,
``manager.challenges``, ``manager.tournaments``, ``manager.players``, ``manager.posts``,
``manager.web``); surfaces call them and never the store.

The values a surface passes are checked where they enter (:mod:`bot.sessions.validate`);
a method that answers with a reply never raises: a refusal, a value that does not fit or a
failing store is a one-line refusal (:func:`~bot.sessions.services.base.answered`).
"""

from bot.sessions.services.challenges import Challenges
from bot.sessions.services.games import Games
from bot.sessions.services.players import Players
from bot.sessions.services.posts import Posts
from bot.sessions.services.tournaments import Tournaments
from bot.sessions.services.web import Web

__all__ = ["Challenges", "Games", "Players", "Posts", "Tournaments", "Web"]
