"""The typed form of ``premove`` (issue 46): ``premove [#game] [<their move> => <your reply>
[; ...] | clear]``, parsed into :class:`~bot.adapters.args.PremoveArgs` (the line itself is
checked by :mod:`bot.sessions.premoves`).

>>> args = premove_words(["#12", "c3", "=>", "c5;", "d4", "=>", "d5"], lambda n: None)
>>> args.game_id, args.line
(12, 'c3 => c5; d4 => d5')
"""

from __future__ import annotations

from bot.adapters.args import Named, PremoveArgs
from bot.adapters.typed import bad_id, split_id
from bot.messages import Reply

__all__ = ["PREMOVE_USAGE", "premove_words"]

PREMOVE_USAGE = "premove [#game] <their move> => <your reply> [; ...] | clear"


def premove_words(words: list[str], _: Named) -> PremoveArgs | Reply:
    """``premove [#game] [line | clear]``: the game (``#`` required: a bare number is a
    move) and the rest as one text."""
    wrong = bad_id(words)
    if wrong is not None:
        return Reply.refuse(wrong)
    game_id, rest = split_id(words, digits=False)
    return PremoveArgs(game_id, " ".join(rest))
