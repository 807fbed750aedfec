"""What follows posting a board or answering a question, written once for every chat platform:
remembering a game's latest board, closing the pickers opened under older boards, taking the
buttons from boards that no longer act, closing a game's offers once they lapse or the game
ends, and making every copy of an answered challenge's card say the answer.

Which message is which game's board, picker or offer, or which challenge's card, is in the
store (:mod:`bot.sessions.posts`); a platform only does the few things to one of its own
messages that :class:`PostSurface` names (Discord: :mod:`bot.adapters.discord.posts`;
Telegram: :mod:`bot.adapters.telegram.retiring`), and says whether a new board takes the
buttons from the game's older boards at once (:attr:`PostSurface.retires_each_board`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from typing import Protocol

from bot.core.lru import Lru
from bot.core.posts import PostKind
from bot.messages import Reply
from bot.sessions.manager import SessionManager

__all__ = [
    "Place",
    "PostSurface",
    "board_posted",
    "card_answered",
    "close_lapsed_offers",
    "close_offers",
    "close_pickers",
    "game_over",
]


class Place(Protocol):
    """Where one of the bot's messages is (a remembered :class:`~bot.storage.Post` is one)."""

    @property
    def chat_id(self) -> str:
        """The chat (channel, group) it is in, as the platform names it."""
        ...

    @property
    def message_id(self) -> str:
        """The message, as the platform names it."""
        ...


class PostSurface(Protocol):
    """What a platform does to one of the bot's remembered messages (at a :class:`Place`).
    A message gone, or in a chat out of the bot's reach, is left as it is (nothing raised)."""

    @property
    def platform(self) -> str:
        """The platform's name, as its posts are remembered under."""
        ...

    @property
    def retires_each_board(self) -> bool:
        """Whether a new board of a game takes the buttons from its older boards at once
        (``False``: only once the game is over, e.g. where every edit counts toward a chat's
        rate limit and an older board's buttons still act)."""
        ...

    async def drop_buttons(self, post: Place) -> None:
        """Take the message's buttons away."""

    async def close_picker(self, post: Place) -> None:
        """Close a move picker (delete it, or take its buttons away)."""

    async def close_offer(self, post: Place) -> None:
        """Take an offer's answer buttons away."""

    async def show_answer(self, post: Place, reply: Reply) -> None:
        """Edit a challenge's card to ``reply`` (the answer to it), without buttons."""


async def board_posted(
    manager: SessionManager,
    surface: PostSurface,
    chat_id: str,
    message_id: str,
    game_id: int,
    *,
    over: bool = False,
) -> None:
    """Message ``message_id`` in ``chat_id`` is now ``game_id``'s latest board (``over``:
    the game is over): remembered, and the messages it replaces tidied (a picker opened under
    an older board is closed; an older board loses its buttons when the platform retires each
    board, or once the game is over)."""
    older = await manager.posts.remember_post(
        surface.platform, chat_id, message_id, PostKind.BOARD, game_id=game_id
    )
    for post in older:
        if post.kind is PostKind.PICKER:
            await surface.close_picker(post)
        elif surface.retires_each_board or (over and post.kind is PostKind.BOARD):
            await surface.drop_buttons(post)


async def _close_live(
    manager: SessionManager,
    surface: PostSurface,
    game_id: int,
    kind: PostKind,
    close: Callable[[Place], Awaitable[None]],
) -> None:
    """Every live post of ``kind`` of ``game_id`` closed by ``close``, then retired."""
    live = await manager.posts.posts_for(surface.platform, game_id=game_id, kind=kind, live=True)
    for post in live:
        await close(post)
    if live:
        await manager.posts.retire_posts(live)


async def close_pickers(manager: SessionManager, surface: PostSurface, game_id: int) -> None:
    """Every open picker of ``game_id`` closed."""
    await _close_live(manager, surface, game_id, PostKind.PICKER, surface.close_picker)


async def close_offers(manager: SessionManager, surface: PostSurface, game_id: int) -> None:
    """Every live copy of ``game_id``'s offer (a draw offer, a takeback request) loses its
    answer buttons."""
    await _close_live(manager, surface, game_id, PostKind.OFFER, surface.close_offer)


async def close_lapsed_offers(
    manager: SessionManager, surface: PostSurface, posted: Lru[int, None], game_id: int
) -> None:
    """A draw offer stands until the other player moves, a takeback request until it is
    answered: once ``game_id`` has neither (a move lapsed it), every copy of its offer loses
    the answer buttons.  Only the games in ``posted`` (whose copies this process posted) are
    looked up, so a move costs no read for offers."""
    if game_id not in posted or await manager.games.offer_standing(game_id) is not False:
        return
    posted.pop(game_id)
    await close_offers(manager, surface, game_id)


async def game_over(manager: SessionManager, surface: PostSurface, game_id: int) -> None:
    """``game_id`` is over: its pickers close, its offers lose their answer buttons, and its
    boards that still have live buttons lose them."""
    await close_pickers(manager, surface, game_id)
    await close_offers(manager, surface, game_id)
    await _close_live(manager, surface, game_id, PostKind.BOARD, surface.drop_buttons)


async def card_answered(
    manager: SessionManager,
    surface: PostSurface,
    challenge_id: int,
    reply: Reply,
    skip: Collection[tuple[str, str]] = (),
) -> None:
    """Challenge ``challenge_id`` was answered (``reply``): every live copy of its card but
    those in ``skip`` (chat and message ids: the pressed card, which its handler edits, or a
    card that became the game's board) says the answer, without buttons, and none of them
    is a live card any more."""
    cards = await manager.posts.posts_for(
        surface.platform, challenge_id=challenge_id, kind=PostKind.CARD, live=True
    )
    for card in cards:
        if (card.chat_id, card.message_id) not in skip:
            await surface.show_answer(card, reply)
    if cards:
        await manager.posts.retire_posts(cards)
