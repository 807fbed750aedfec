"""Games: moves, boards, lists, records and the requests players make during a game (draws,
takebacks, rematches, conditional moves), and the lookups a platform's card or autocompletion
asks for.  Each method hands over to the module of its concern with the shared context."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from bot.limits import MAX_PAGE, MAX_PLY
from bot.messages import Chat, Reply, Text, User
from bot.sessions import (
    browse,
    buttons,
    history,
    loading,
    moves,
    opponent,
    picker,
    premoves,
    preview,
    rematch,
    requests,
    reviews,
    standings,
    views,
)
from bot.sessions.context import Refusal, checked_id
from bot.sessions.preview import BoardFacts, GameChoice
from bot.sessions.services.base import Service, answered, or_else
from bot.sessions.thinker import Reviewed
from bot.sessions.validate import said, some_id, whole
from bot.storage import GameRow, PlayerRow

__all__ = ["Games"]

#: How many suggestions an autocompletion may ask for (Discord shows 25 at most).
MAX_SUGGESTIONS = 100


def _ply(ply: int | None, name: str = "expected_ply") -> int | None:
    return None if ply is None else whole(ply, name, 0, MAX_PLY)


def _limit(limit: int) -> int:
    return whole(limit, "limit", 0, MAX_SUGGESTIONS)


class Games(Service):
    """Playing and looking at games."""

    async def move(
        self,
        user: User,
        chat: Chat,
        text: str,
        game_id: int | None = None,
        expected_ply: int | None = None,
        confirm: bool = False,
        answered_in_chat: bool = True,
    ) -> Reply:
        """Play ``text`` in a game (your only active game here when no id is given).

        ``expected_ply`` is the ply the player saw (buttons carry it): if the game has moved on
        since, the move is refused as "the position changed" unless it is the same move the
        same player already made at that ply (judged by the stored move, whichever process
        stored it), which is answered for that player alone (a private one-line reply) and
        posts nothing new.

        A legal move that would lose the game for its player (inpHeXion and Lines of Fixation
        have such moves) is not played: the reply warns and offers to play it anyway.
        ``confirm`` plays it without asking (typed commands confirm with a trailing ``!``).
        ``answered_in_chat=False``: the surface answers elsewhere than ``chat`` (the web board,
        on its page), so the move's board is posted in the game's chat at once.
        """
        ctx = self._ctx

        async def run() -> Reply:
            reply = await moves.move(
                ctx,
                user,
                chat,
                said(text, "text"),
                some_id(game_id, "game"),
                _ply(expected_ply),
                confirm,
                answered_in_chat,
            )
            return await opponent.after_move(ctx, reply)

        return await answered(run)

    async def press(self, user: User, chat: Chat, action_id: str) -> Reply:
        """Resolve a button press by its action id (works after a restart: ids hold it all)."""
        ctx = self._ctx

        async def run() -> Reply:
            reply = await buttons.press(ctx, user, chat, said(action_id, "action_id"))
            return await opponent.after_move(ctx, reply)

        return await answered(run)

    async def resign(
        self, user: User, chat: Chat, game_id: int | None = None, confirm: bool = True
    ) -> Reply:
        """Resign a game (asked first unless ``confirm``)."""
        return await answered(
            lambda: moves.resign(self._ctx, user, chat, some_id(game_id, "game"), confirm)
        )

    async def board(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """A game's board."""
        return await answered(lambda: views.board(self._ctx, user, chat, some_id(game_id, "game")))

    async def browse(
        self, user: User, chat: Chat, game_id: int | None = None, ply: int | None = None
    ) -> Reply:
        """A game's position after ``ply`` plies, with buttons to step through it."""
        return await answered(
            lambda: browse.browse(self._ctx, user, chat, some_id(game_id, "game"), _ply(ply, "ply"))
        )

    async def history(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """A game's moves."""
        return await answered(
            lambda: history.history(self._ctx, user, chat, some_id(game_id, "game"))
        )

    async def review(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """A finished game's costliest moves, by the bot's search."""
        return await answered(
            lambda: reviews.review(self._ctx, user, chat, some_id(game_id, "game"))
        )

    async def costliest(
        self, row: GameRow, moves: Sequence[str], owner: Hashable = None
    ) -> list[Reviewed]:
        """The review's computation (see :func:`bot.sessions.reviews.costliest`)."""
        return await reviews.costliest(self._ctx, row, moves, owner)

    async def export(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """A game's record, as a file."""
        return await answered(
            lambda: history.export(self._ctx, user, chat, some_id(game_id, "game"))
        )

    async def import_record(self, user: User, chat: Chat, text: str, opponent: User) -> Reply:
        """A game played elsewhere, from its record, stored as finished."""
        return await answered(
            lambda: history.import_record(self._ctx, user, chat, said(text, "text"), opponent)
        )

    async def games(self, user: User, page: int = 1) -> Reply:
        """``user``'s games, a page at a time."""
        return await answered(
            lambda: views.games(self._ctx, user, whole(page, "page", 1, MAX_PAGE))
        )

    async def rules(self, game: str) -> Reply:
        """A game's rules."""
        return await answered(lambda: views.rules(self._ctx, said(game, "game")))

    async def help(self) -> Reply:
        """The commands, in a few lines."""
        return await views.help(self._ctx)

    async def draw(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "offer"
    ) -> Reply:
        """Offer a draw, or answer one (``accept``/``decline``)."""
        return await answered(
            lambda: requests.draw(
                self._ctx, user, chat, some_id(game_id, "game"), said(answer, "answer")
            )
        )

    async def takeback(
        self, user: User, chat: Chat, game_id: int | None = None, answer: str = "ask"
    ) -> Reply:
        """Ask to take the last move back, or answer such a request."""
        return await answered(
            lambda: requests.takeback(
                self._ctx, user, chat, some_id(game_id, "game"), said(answer, "answer")
            )
        )

    async def rematch(self, user: User, chat: Chat, game_id: int | None = None) -> Reply:
        """Challenge the other player of a finished game again, seats swapped."""
        return await answered(
            lambda: rematch.rematch(self._ctx, user, chat, some_id(game_id, "game"))
        )

    async def preview(self, user: User, chat: Chat, text: str, game_id: int | None = None) -> Reply:
        """The board after ``text`` without playing it."""
        return await answered(
            lambda: preview.preview(
                self._ctx, user, chat, said(text, "text"), some_id(game_id, "game")
            )
        )

    async def premove(
        self, user: User, chat: Chat, game_id: int | None = None, text: str = ""
    ) -> Reply:
        """Conditional moves: prepare, list or clear your replies in a game."""
        return await answered(
            lambda: premoves.premove(
                self._ctx, user, chat, some_id(game_id, "game"), said(text, "text")
            )
        )

    async def premove_lines(self, user: User, game_id: int) -> list[tuple[str, ...]]:
        """Your prepared lines of a game, as moves (the web board's plan mode)."""
        return await premoves.lines_of(self._ctx, user, game_id)

    async def pick(self, user: User, chat: Chat, action_id: str) -> picker.Picker | Reply:
        """A step of the move picker for a ``pk`` or ``pp`` button (see
        :mod:`~bot.sessions.picker`), or a refusal when ``user`` may not use it now."""
        try:
            return await picker.pick(self._ctx, user, chat, said(action_id, "action_id"))
        except Refusal as refusal:
            return Reply.refuse(str(refusal), refusal=refusal.code)

    async def suggest_moves(
        self, user: User, chat: Chat, game_id: int | None, typed: str, limit: int = 25
    ) -> list[str]:
        """Moves completing ``typed`` in ``user``'s game (Discord's autocompletion)."""
        return await or_else(
            lambda: picker.suggestions(
                self._ctx, user, chat, some_id(game_id, "game"), said(typed, "typed"), _limit(limit)
            ),
            [],
        )

    async def suggest_line(
        self, user: User, chat: Chat, game_id: int | None, typed: str, limit: int = 25
    ) -> list[str]:
        """The line typed so far completed with legal moves along it (Discord's
        autocompletion of conditional moves)."""
        return await or_else(
            lambda: premoves.suggestions(
                self._ctx, user, chat, some_id(game_id, "game"), said(typed, "typed"), _limit(limit)
            ),
            [],
        )

    async def game_choices(self, user: User, typed: str = "", limit: int = 25) -> list[GameChoice]:
        """``user``'s active games whose label contains ``typed`` (autocompletion)."""
        return await or_else(
            lambda: preview.game_choices(self._ctx, user, said(typed, "typed"), _limit(limit)),
            [],
        )

    async def board_facts(self, game_id: int) -> BoardFacts | None:
        """A game at a glance for a platform's card (``None`` if there is no such game)."""
        return await or_else(
            lambda: preview.board_facts(self._ctx, checked_id(game_id, "game")), None
        )

    async def board_ratings(self, game_id: int) -> Text:
        """Both players' ratings in game ``game_id``'s pool, or that it is casual, for a
        platform's card beside a board (the one fact a board's reply does not carry: reading
        them is left to the platforms that show them)."""

        async def run() -> Text:
            loaded = await loading.load(self._ctx, checked_id(game_id, "game"), fresh=False)
            return await standings.board_line(self._ctx, loaded.row)

        return await or_else(run, Text())

    async def player_to_move(self, game_id: int) -> PlayerRow | None:
        """The player whose turn it is in an active game (``None`` if none or not active)."""
        return await or_else(
            lambda: loading.player_to_move(self._ctx, checked_id(game_id, "game")), None
        )

    async def against_bot(self, game_id: int) -> bool:
        """Whether one seat of game ``game_id`` is the bot itself (``False``: no such game)."""
        return await or_else(
            lambda: loading.against_bot(self._ctx, checked_id(game_id, "game")), False
        )

    async def seated(self, user: User, game_id: int) -> bool:
        """Whether ``user`` holds a seat in game ``game_id``."""
        return await loading.seated(self._ctx, user, game_id)

    async def offer_standing(self, game_id: int) -> bool | None:
        """Whether game ``game_id`` has a draw offer or a takeback request standing
        (``None``: no such game)."""
        row = await self._ctx.store.get_game(game_id)
        if row is None:
            return None
        return row.draw_offer_by is not None or row.takeback_by is not None

    async def game_chat(self, game_id: int) -> str | None:
        """The chat game ``game_id`` is played in, as the store keeps it (``None``: no such
        game)."""
        row = await self._ctx.store.get_game(game_id)
        return None if row is None else row.chat_id
