"""One live set of answer buttons per question, on Telegram: a challenge's Accept/Decline, a
draw offer's or a takeback request's answers.

Every message that carries such buttons is remembered in the store (a challenge's as
:attr:`~bot.storage.PostKind.CARD`, an offer's as :attr:`~bot.storage.PostKind.OFFER`).  A
notification delivered in a chat that already shows the question with its buttons (the
opponent's direct message failed, so the outbox posts it in the game's chat: see
:mod:`bot.delivery.outbox`) comes without buttons: it only tells the opponent, by a mention,
where to answer.  When the question is answered, cancelled or expires, every remembered copy
(the group's card and a direct message's) is closed, not only the one that was tapped.
"""

from __future__ import annotations

from collections.abc import Sequence

from telegram import Bot, Message

from bot.adapters import afterpost
from bot.adapters.telegram.format import PLATFORM
from bot.adapters.telegram.retiring import TelegramPosts
from bot.adapters.telegram.state import state_of
from bot.adapters.telegram.topics import place
from bot.core.notification import Kind, Notification
from bot.core.posts import Post, PostKind
from bot.messages import Action, ActionKind, Reply
from bot.outcomes import Answered, Ended, Offered
from bot.sessions.manager import SessionManager

__all__ = [
    "ANSWERS",
    "OFFER_KINDS",
    "after_typed",
    "answers_offer",
    "card_place",
    "remember_copy",
    "remember_offer",
    "shown_in",
]

#: The notifications that ask a question about a game with answer buttons.
OFFER_KINDS = frozenset({Kind.DRAW_OFFERED, Kind.TAKEBACK_REQUESTED})
#: The buttons that answer a draw offer or a takeback request.
ANSWERS = frozenset(
    {
        ActionKind.DRAW_ACCEPT,
        ActionKind.DRAW_DECLINE,
        ActionKind.TAKEBACK_ACCEPT,
        ActionKind.TAKEBACK_DECLINE,
    }
)


# The typed commands that answer an offer (by the registry's names).
_OFFER_COMMANDS = frozenset({"draw", "takeback"})


def _live_in(posts: Sequence[Post], chat_id: int) -> bool:
    return any(post.chat_id == str(chat_id) and post.live for post in posts)


async def shown_in(manager: SessionManager | None, chat_id: int, note: Notification) -> bool:
    """Whether the chat ``chat_id`` shows ``note``'s question with live buttons (so a copy
    posted there needs none)."""
    if chat_id > 0 or note.chat is None or place(note.chat.chat_id)[0] != chat_id:
        return False
    if manager is not None and note.challenge_id is not None and note.kind is Kind.CHALLENGE:
        # The card answers /challenge in the challenge's chat; the outbox may deliver this
        # before that card is sent (none known yet).  Only a card known to be elsewhere
        # (Rematch pressed in a private chat) leaves this chat without buttons.
        cards = await manager.posts.posts_for(
            PLATFORM, challenge_id=note.challenge_id, kind=PostKind.CARD
        )
        return not cards or any(card.chat_id == str(chat_id) for card in cards)
    if manager is not None and note.game_id is not None and note.kind in OFFER_KINDS:
        offers = await manager.posts.posts_for(
            PLATFORM, game_id=note.game_id, kind=PostKind.OFFER, live=True
        )
        return _live_in(offers, chat_id)
    return False


async def remember_copy(
    manager: SessionManager | None, message: Message, note: Notification
) -> None:
    """Remember a delivered notification that carries answer buttons (closed with the rest)."""
    if manager is None:
        return
    chat, mid = str(message.chat.id), str(message.message_id)
    if note.challenge_id is not None and note.kind is Kind.CHALLENGE:
        await manager.posts.remember_post(
            PLATFORM, chat, mid, PostKind.CARD, challenge_id=note.challenge_id
        )
    elif note.game_id is not None and note.kind in OFFER_KINDS:
        await manager.posts.remember_post(PLATFORM, chat, mid, PostKind.OFFER, game_id=note.game_id)
        _posted(manager, note.game_id)


async def remember_offer(manager: SessionManager, message: Message, reply: Reply) -> None:
    """Remember an answer that made an offer (:class:`~bot.outcomes.Offered`: it shows the
    offer's answer buttons)."""
    if not isinstance(reply.outcome, Offered) or reply.game_id is None:
        return
    await manager.posts.remember_post(
        PLATFORM, str(message.chat.id), str(message.message_id), PostKind.OFFER,
        game_id=reply.game_id,
    )  # fmt: skip
    _posted(manager, reply.game_id)


def _posted(manager: SessionManager, game_id: int) -> None:
    # Only the games whose offer copies this process posted are looked up after a move (so a
    # move costs no read for offers).  A copy posted by another process, or before a
    # restart, keeps its buttons, and a press is answered "no offer".
    state_of(manager).offers_posted[game_id] = None


async def after_typed(bot: Bot, manager: SessionManager, command: str, reply: Reply) -> None:
    """Close the copies of a game's offer after ``/draw`` or ``/undo`` answered it (its
    outcome :class:`~bot.outcomes.Answered`, or :class:`~bot.outcomes.Ended` by a draw
    agreed; an offer made anew carries the answer buttons itself).  A challenge is answered
    on Telegram by its buttons only (see :func:`bot.adapters.afterpost.card_answered`)."""
    answered = isinstance(reply.outcome, Answered | Ended)
    if command in _OFFER_COMMANDS and answered and reply.game_id is not None:
        await afterpost.close_offers(manager, TelegramPosts(bot), reply.game_id)


def answers_offer(data: str) -> int | None:
    """The game whose offer a button answers (``None`` for another button)."""
    action = Action("", data)
    return action.subject if action.kind in ANSWERS else None


async def card_place(
    manager: SessionManager | None, tournament_id: int
) -> tuple[int, int | None] | None:
    """Where a tournament's last sign-up card is (its chat and forum topic), if one is known."""
    if manager is None:
        return None
    cards = await manager.posts.posts_for(PLATFORM, tournament_id=tournament_id, kind=PostKind.CARD)
    return place(cards[-1].chat_id) if cards else None
