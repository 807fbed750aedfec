"""The console adapter: local players take turns at one keyboard, with the chat commands.

It uses the same manager and store as the chat adapters, so a console game survives a restart.
After every reply it prints the text, the board description (``render.describe``) and the path
of the board PNG it wrote.  ``as <name>`` switches the local player; after a move the console
switches to the player to move by itself (never to the bot, which moves by itself: playing
it, the person at the keyboard stays the local player while it thinks).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TextIO

from bot import metrics
from bot.adapters.commands import MAX_NAME, execute, typed_action
from bot.core import i18n
from bot.core.errors import StoreError, StoreFull
from bot.core.i18n import N_, fill, gettext
from bot.core.notification import BOT_USER_ID, Kind, Notification
from bot.messages import Action, Chat, Mention, Reply, User
from bot.outcomes import Asks
from bot.sessions import texts
from bot.sessions.manager import SessionManager

__all__ = ["PLATFORM", "Console", "read_stdin_line"]

PLATFORM = "console"
CHAT = Chat(PLATFORM, "local")
BAD_INPUT_EXIT = 2

log = logging.getLogger(__name__)


def _names_bot(notification: Notification) -> bool:
    """Whether the bot is named in ``notification`` (a "your turn" after the bot's move)."""
    return any(
        isinstance(s, Mention) and s.user_id == BOT_USER_ID for s in notification.text.segments
    )


def console_user(name: str) -> User:
    """The console player called ``name`` (names are case-insensitive ids)."""
    return User(PLATFORM, name.lower(), name)


async def read_stdin_line() -> bytes:
    """One raw line of standard input (``b""`` at the end), read off the event loop."""
    return await asyncio.to_thread(sys.stdin.buffer.readline)


class Console:
    """A read-eval-print loop over a :class:`SessionManager`."""

    def __init__(
        self,
        manager: SessionManager,
        board_dir: Path,
        *,
        player: str = "player1",
        out: TextIO | None = None,
        err: TextIO | None = None,
        read_line: Callable[[], Awaitable[bytes]] = read_stdin_line,
        prompt: bool = False,
        language: str | None = None,
    ) -> None:
        self.manager = manager
        self.board_dir = board_dir
        self.user = console_user(player)
        #: the game of the last reply about one (see :func:`~bot.adapters.commands.execute`)
        self.current_game: int | None = None
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.read_line = read_line
        self.prompt = prompt
        #: what the console's "platform" says of its language: the environment's (``LANG``...)
        #: unless given; a player's ``settings language`` wins over it
        self.language = language or i18n.from_environment(os.environ)
        #: the language the local player was last spoken to in (said in when the store fails)
        self.spoken: str | None = self.language
        #: delivers the console's notifications (after each command, and from :mod:`bot.app`'s
        #: worker for those the clocks cause meanwhile)
        self.outbox = manager.outbox()
        self.recaps = manager.recaps()

    async def speaking(self) -> str:
        """The local player's language: their ``settings language``, else the environment's."""
        self.spoken = (await self.manager.players.speakers(self.user, CHAT, self.language)).player
        return self.spoken

    def playing_as(self) -> None:
        """Say who plays at the keyboard now."""
        playing = gettext("(now playing as {name})")
        self.say(fill(playing, {"name": self.user.name}))

    def say(self, text: str) -> None:
        """Print a line and flush (a pipe reader waits on it)."""
        print(text, file=self.out, flush=True)

    async def _save(
        self, data: bytes | None, stem: str, suffix: str, label: str, what: str
    ) -> None:
        """Write a picture of the reply next to the database and print its path."""
        if data is None:
            return
        path = self.board_dir / f"{stem}.{suffix}"
        try:
            self.board_dir.mkdir(parents=True, exist_ok=True)
            await asyncio.to_thread(path.write_bytes, data)
        except OSError as exc:
            said = {"what": gettext(what), "error": str(exc)}
            failed = fill(gettext("cannot write {what}: {error}"), said)
            self.say(f"! {failed}")
        else:
            self.say(f"{gettext(label)}: {path}")

    async def show(self, reply: Reply) -> None:
        """Print a reply: its text, the board description and where the board PNG went."""
        metrics.replied(PLATFORM)
        await self._print(reply)
        if reply.ok and reply.game_id is not None:
            # The game last shown is the one a line naming none goes to, when unclear.
            self.current_game = reply.game_id
            # A question ("Really resign?") is answered by whoever asked it.
            if not isinstance(reply.outcome, Asks):
                await self._follow(reply.game_id)
        await self._deliver()

    async def _print(self, reply: Reply) -> None:
        self.say(reply.text if reply.ok else f"! {reply.text}")
        if reply.alt:
            self.say(reply.alt)
        if reply.page is not None and reply.game_id is not None:
            # The board's web page: the local player's own link (they may move there).
            self.say((await self.manager.web.web_link(self.user, CHAT, reply.game_id)).text)
        if reply.game_id is not None:
            stem = f"hexhall-game-{reply.game_id}"
            await self._save(reply.image, stem, "png", N_("board"), N_("the board picture"))
            await self._save(reply.animation, stem, "gif", N_("recap"), N_("the game recap"))
        else:  # a picture about no game: the rating chart of ``stats``
            await self._save(
                reply.image, "hexhall-picture", "png", N_("picture"), N_("the picture")
            )
        for action in reply.actions:
            typed = typed_action(action)
            typing = fill(gettext("(or type {typed})"), {"typed": typed}) if typed else ""
            self.say(f"  [{gettext(action.label)}] {action.id}" + (f"  {typing}" if typing else ""))

    async def _follow(self, game_id: int) -> None:
        # At one keyboard the next player is whoever is to move in the game just played, but
        # never the bot: it moves by itself, and the person at the keyboard stays who they
        # are while it thinks (a line typed meanwhile is theirs).
        player = await self.manager.games.player_to_move(game_id)
        if (
            player is not None
            and player.platform == PLATFORM
            and player.user_id != BOT_USER_ID
            and player.user_id != self.user.user_id
        ):
            self.user = console_user(player.name)
            with i18n.use(await self.speaking()):  # the next player's own language
                self.playing_as()

    async def _deliver(self) -> None:
        await self.outbox.deliver_due(PLATFORM, self)

    async def send(self, notification: Notification) -> None:
        """The console's outbox sender.  The console is its own chat: "your turn" is already
        in the reply, so it is not shown again, except after the bot's move (no reply said
        it): then the board follows.  A recap is drawn and saved as a GIF."""
        game_id = notification.game_id
        if notification.kind is Kind.BOARD:
            return  # the console's answer printed the board (nothing survives a crash here)
        if notification.kind is Kind.RECAP:
            if game_id is not None:
                gif = await self.recaps.gif(game_id)
                name = f"hexhall-game-{game_id}"
                await self._save(gif, name, "gif", N_("recap"), N_("the game recap"))
        elif notification.kind is not Kind.YOUR_TURN:
            self.say(f"» to {notification.recipient.user_id}: {notification.text}")
        elif game_id is not None and _names_bot(notification):
            self.say(f"» to {notification.recipient.user_id}: {notification.text}")
            who = User(PLATFORM, notification.recipient.user_id, notification.recipient.name)
            await self._print(await self.manager.games.board(who, CHAT, game_id))
            await self._follow(game_id)

    async def handle(self, line: str) -> bool:
        """Run one line; ``False`` when the player asked to quit."""
        words = line.split()
        if not words:
            return True
        if words[0].lower() in ("quit", "exit"):
            return False
        if words[0].lower() == "as":
            if len(words) != 2 or len(words[1]) > MAX_NAME or not words[1].isprintable():
                with i18n.use(await self.speaking()):
                    usage = gettext("Usage: as <name> (one word, at most {count} characters)")
                    refused = fill(usage, {"count": str(MAX_NAME)})
                    self.say(f"! {refused}")
            else:
                self.user = console_user(words[1])
                with i18n.use(await self.speaking()):  # the new player's own language
                    self.playing_as()
            return True
        # Issue 43: the local player's language (``settings language <code>``, else the
        # environment's) says it all.
        with i18n.use(await self.speaking()):
            if words[0].lower() == "help":
                self.say(gettext("as <name>   switch the local player;   quit   leave"))
            if Action("", line.strip()).kind is not None:  # a button id typed, e.g. acc:3
                reply = await self.manager.games.press(self.user, CHAT, line.strip())
            else:
                reply = await execute(
                    self.manager, self.user, CHAT, line, console_user, self.current_game
                )
            await self.show(reply)
        return True

    async def run(self) -> int:
        """Read and run lines until the end of input or ``quit``; the exit status."""
        while True:
            if self.prompt:
                print(f"{self.user.name}> ", end="", file=self.out, flush=True)
            raw = await self.read_line()
            if not raw:
                return 0
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                with i18n.use(await self.speaking()):
                    stop = gettext("hexhall: input is not UTF-8 text; stopping.")
                print(stop, file=self.err, flush=True)
                return BAD_INPUT_EXIT
            try:
                going_on = await self.handle(line)
            except StoreFull:
                # Said to the operator by the store (a metric and a log line).
                with i18n.use(self.spoken):  # the store cannot say the player's choice now
                    self.say(f"! {texts.STORAGE_FULL}")
                going_on = True
            except StoreError as exc:
                # Whatever was not guarded already (a delivery, a follow-up read): the player
                # is told and the console goes on; nothing was changed.
                log.warning("console: %s", exc)
                with i18n.use(self.spoken):
                    self.say(f"! {texts.UNAVAILABLE}")
                going_on = True
            if not going_on:
                return 0
