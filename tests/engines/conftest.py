"""The engines' tests read illegal moves as players do: the engines give a code and its
arguments, and the bot's sentences (:mod:`bot.sessions.texts.illegal`, loaded here) make
``str(exc)`` read the sentence a player is shown, so ``pytest.raises(..., match=...)`` checks the
words too."""

import bot.sessions.texts.illegal  # noqa: F401  (loading it sets the engines' explainer)
