"""What answering a challenge's card does on Discord: an accepted challenge gets its game a
thread of its own (the card, closed, stays in the channel) or, accepted on the opponent's
private card, turns the channel's card into the game's board; every other copy of the card then
says the answer; and a card pressed after its challenge closed is closed by the press itself.

:class:`ChallengeCards` is a part of :class:`~bot.adapters.discord.adapter.DiscordBot`, which
composes the answers, remembers the messages and edits them.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.adapters import afterpost
from bot.adapters.discord.cards import closed_fields, copy_fields
from bot.adapters.discord.format import PLATFORM, TEXT_LIMIT, markdown, mentions_only, user_of
from bot.adapters.discord.outgoing import Outgoing, as_board_edit
from bot.adapters.discord.posts import DiscordPosts
from bot.adapters.discord.threads import ARCHIVE_AFTER, can_thread, chat_here, thread_name_of
from bot.core.posts import Post, PostKind
from bot.messages import ActionKind, GameFacts, Reply, User
from bot.outcomes import ChallengeRefusal, Refused
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["ChallengeCards"]

log = logging.getLogger(__name__)


class ChallengeCards:
    """The challenge cards' answers of a :class:`~bot.adapters.discord.adapter.DiscordBot`
    (see the module docstring)."""

    manager: SessionManager
    posts: DiscordPosts

    if TYPE_CHECKING:  # supplied by the bot

        async def _compose(
            self, reply: Reply, caller: User, *, file_name: str | None = None, board: bool = True
        ) -> Outgoing: ...

        async def _remember(
            self, interaction: discord.Interaction, out: Outgoing, message_id: int
        ) -> None: ...

        async def edit_post(self, post: afterpost.Place, **fields: Any) -> bool: ...

    async def _accept_into_thread(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        out: Outgoing,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """An accepted challenge whose game can have its own thread: the card, closed, stays
        in the channel and says so; the thread is started from it and the board posted there
        (see :mod:`bot.adapters.discord.threads`).  When Discord refuses the thread the card
        becomes the board after all.  ``False`` (nothing done) where threads are not
        possible."""
        message, facts, game = interaction.message, reply.facts, out.board
        if pressed is not ActionKind.ACCEPT or message is None or facts is None or game is None:
            return False
        if not can_thread(interaction):
            return False
        note = markdown(texts.game_in_thread(game))
        closed: dict[str, Any] = {
            "content": f"{out.fields.get('content', '')}\n{note}".strip()[:TEXT_LIMIT],
            "embed": None,
            "attachments": [],
            "view": None,
            "allowed_mentions": mentions_only(),
        }
        if deferred:
            await interaction.edit_original_response(**closed)
        else:
            await interaction.response.edit_message(**closed)
        if not await self._into_thread(message, facts, out):
            # No thread after all (Discord refused): the card becomes the board.
            out = await self._compose(reply, user_of(interaction.user))
            await interaction.edit_original_response(**as_board_edit(out.fields))
            await self._remember(interaction, out, message.id)
        if reply.challenge_id is not None:
            await self._close_cards(reply, message)
        return True

    async def _into_thread(self, message: discord.Message, facts: GameFacts, out: Outgoing) -> bool:
        """Start the game's thread from its challenge card ``message`` and post the board
        there; ``False`` when Discord refused."""
        try:
            thread = await message.create_thread(
                name=thread_name_of(facts), auto_archive_duration=ARCHIVE_AFTER
            )
        except (discord.HTTPException, ValueError) as exc:
            log.info("no thread for game %s: %s", out.board, exc)
            return False
        # The thread itself, first: the outbox's notices about the game go there too.
        await self.manager.posts.remember_post(
            PLATFORM, str(thread.id), str(message.id), PostKind.THREAD, game_id=out.board
        )
        try:
            sent = await thread.send(**out.fields)
        except (discord.HTTPException, ValueError) as exc:
            log.info("no board in the thread of game %s: %s", out.board, exc)
            return False
        await self.manager.posts.remember_post(
            PLATFORM, str(thread.id), str(sent.id), PostKind.BOARD, game_id=out.board
        )
        return True

    async def _close_cards(
        self, reply: Reply, pressed: discord.Message | None, *, board: Post | None = None
    ) -> None:
        """A challenge was answered on one of its cards (``pressed``, edited by the caller;
        ``board``: the copy that became the game's board): every other copy says the answer
        too (an expired challenge's are edited by the outbox's sender), and none of them is
        a live card any more (:func:`bot.adapters.afterpost.card_answered`)."""
        if reply.challenge_id is None:
            return
        done = [] if pressed is None else [(str(pressed.channel.id), str(pressed.id))]
        if board is not None:
            done.append((board.chat_id, board.message_id))
        await afterpost.card_answered(self.manager, self.posts, reply.challenge_id, reply, done)

    async def _accept_from_dm(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        out: Outgoing,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """Accepted on the opponent's private card (their DM with the bot) while the
        challenge has a card elsewhere: the game belongs to the chat the challenge was made
        in, so its card there becomes the game's board (seen by both players, with Move) and
        the pressed card says the game has begun; when Discord refuses that edit (a channel
        out of the bot's reach, the card deleted) the pressed card becomes the board after
        all.  ``False`` (nothing done) when there is no such card."""
        message, game, challenge = interaction.message, out.board, reply.challenge_id
        if pressed is not ActionKind.ACCEPT or message is None or game is None:
            return False
        if challenge is None or not chat_here(interaction).direct:
            return False
        cards = await self.manager.posts.posts_for(
            PLATFORM, challenge_id=challenge, kind=PostKind.CARD
        )
        home = next((c for c in cards if c.chat_id != str(message.channel.id)), None)
        if home is None:
            return False
        if not deferred:
            # Discord's 3 s run while the other card is edited: the pressed one waits.  A
            # component's deferred update (type 6) is edited later as the original response,
            # which "will edit the message the component is on" (discord.py's defer notes,
            # gist cibere/7e1356575780e716d2e3a23ea2bcf6da; JDA's deferEdit alike).
            await interaction.response.defer()
        if await self.edit_post(home, **as_board_edit(out.fields)):
            await afterpost.board_posted(
                self.manager, self.posts, home.chat_id, home.message_id, game
            )
            await interaction.edit_original_response(**copy_fields(reply))
            await self._close_cards(reply, message, board=home)
        else:
            await interaction.edit_original_response(**as_board_edit(out.fields))
            await self._remember(interaction, out, message.id)
            await self._close_cards(reply, message)
        return True

    async def _close_stale_card(
        self,
        interaction: discord.Interaction,
        reply: Reply,
        deferred: bool,
        pressed: ActionKind | None,
    ) -> bool:
        """A card's Accept / Decline pressed after its challenge expired, was declined or
        cancelled (a card no edit could reach: in a chat the bot is not in, its token long
        expired): the press's own response edits that card to the answer, buttons gone, for
        everyone (a component's "update message" response edits the message it is on,
        whoever's).  ``False`` for any other refusal (not the presser's challenge; already
        accepted), answered privately.  The refusal's typed outcome says which it is
        (:class:`~bot.outcomes.ChallengeRefusal`), whatever its words."""
        if pressed is None or not pressed.on_card:
            return False
        refused = reply.outcome
        # Never an accepted one (TAKEN): its pressed card may be the game's board by now (a
        # second press of Accept racing the first), which the board must stay.
        if not isinstance(refused, Refused) or refused.code is not ChallengeRefusal.CLOSED:
            return False
        closed = closed_fields(reply)
        if deferred:
            await interaction.edit_original_response(**closed)
        else:
            await interaction.response.edit_message(**closed)
        return True
