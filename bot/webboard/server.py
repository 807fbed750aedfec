"""The public web board's HTTP side (aiohttp): the pages, the JSON API, the live events.

Routes (everything else is a 404; no health or metrics here, they stay on the private
endpoint of :mod:`bot.web`):

- ``GET /g/<slug>``: the game's page; ``/g/<slug>/board.png`` (the current board, the link
  preview's image), ``/g/<slug>/game.gif``, ``/g/<slug>/record.txt``; ``GET /app``: the
  Telegram Mini App's entry; ``/static/<hash>/<name>``: the page's script and style sheet
  (:mod:`~bot.webboard.assets`, kept by browsers for good).
- ``GET /api/games/<slug>``: the game as JSON (who the asker is, when they say).
- ``GET /api/games/<slug>/next?prefix=...``: the parts that can follow ``prefix`` (the
  picker's :func:`~bot.sessions.picker.next_parts`), and the position after a whole move.
- ``POST /api/games/<slug>/moves`` ``{"move": ..., "ply": ...}``: play, through
  :meth:`Games.move <bot.sessions.services.games.Games.move>`, the path of every
  chat move (its checks, its commit, its notifications in the chat); answered here, so the
  move's board is due in the game's chat at once and this process's outboxes are woken.
- ``POST /api/games/<slug>/actions`` ``{"action": "resign"|"draw"|"takeback", "answer": ...,
  "confirm": ...}``: a player's resignation, draw offer or answer, takeback request or answer,
  through the session manager (the same decisions as the chat's commands).
- ``GET /api/games/<slug>/review``: the review of the game (:mod:`bot.webboard.reviewing`):
  the moves that changed it most; refused (403) for a rated game between people in progress.
- ``GET /api/games/<slug>/events``: server-sent events, one each time the game changes
  (:mod:`bot.webboard.live`), with the spectator count (distinct addresses; ``?player=1``: a
  player's own page, not counted).

The asker is who ``Authorization`` says (:mod:`bot.webboard.auth`): ``tma <initData>`` or
``Bearer <token>``; without it, a spectator.  Every answer, 404s and errors too, carries a strict
Content-Security-Policy (scripts and styles from this origin only, no inline script) and the
rest of :data:`SECURITY_HEADERS`, and no version banner.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from datetime import datetime, timedelta
from typing import Any

from aiohttp import web

import render
from bot.core import i18n
from bot.core.lru import Lru
from bot.core.status import GameStatus
from bot.messages import Chat, TurnRefusal, User
from bot.outcomes import NeedsConfirm
from bot.refusal import Refusal
from bot.sessions import reviews, texts, turns
from bot.sessions.manager import SessionManager
from bot.sessions.services.players import PlayerRow
from bot.sessions.webview import GameView
from bot.webboard import actions, assets, auth, page, plans, proxies, speaking, steps, view
from bot.webboard.activity import ActivityConfig
from bot.webboard.activity import add_routes as add_activity
from bot.webboard.files import Renderings
from bot.webboard.limits import STREAMS_RETRY_AFTER, Buckets, StreamFull, Streams
from bot.webboard.live import COUNT_TTL, Live
from bot.webboard.reviewing import Reviews
from bot.workers import worker_name

__all__ = ["CSP", "SECURITY_HEADERS", "WebBoard"]

log = logging.getLogger(__name__)

#: The Content-Security-Policy of every answer: scripts, styles, pictures and requests from this
#: origin only, no inline script, no eval, framed only by Telegram (the Mini App reads its
#: ``initData`` from the launch address, so Telegram's own script is not needed).
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org"
)
# Views and step answers kept per game version (bounded: least recently used go first).
_CACHE = 64
_MAX_BODY = 2048
# The owner, in the worker pool's fair queue, of the reviews spectators ask for (a player's
# own are theirs, by their player id).
_SPECTATORS = "web spectators"
_MAX_PREFIX = 200
# What a refused download's Retry-After says (seconds).
_DOWNLOAD_RETRY_AFTER = 5
# An event stream's checks that its page is still there, and its comment line that keeps the
# operator's proxy from closing a quiet stream (seconds).
_GONE_EVERY = 1.0
_KEEP_ALIVE = 15.0


def _json(data: Any, status: int = 200) -> web.Response:
    return web.json_response(data, status=status, dumps=lambda d: json.dumps(d, ensure_ascii=False))


def _refusal(text: object, status: int, code: TurnRefusal | None = None) -> web.Response:
    answer: dict[str, Any] = {"ok": False, "text": str(text)}
    if code is not None:
        answer["code"] = code.value  # why the asker may not move (see bot.sessions.turns)
    return _json(answer, status)


#: The headers of every answer: pages, files, the API, the event streams, 404s and errors.
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    # No version in the banner (aiohttp's default names Python's and its own).
    "Server": "hexhall",
}


# The answers sent compressed (to a browser that accepts it): text, never the event stream
# (each event must leave at once) nor the pictures (compressed already).
_COMPRESSED = frozenset(
    {"text/html", "text/css", "text/javascript", "text/plain", "application/json"}
)


async def _headers(request: web.Request, response: web.StreamResponse) -> None:
    """Sets :data:`SECURITY_HEADERS` on ``response`` as it is sent (aiohttp's
    ``on_response_prepare``: also for the answers made of an exception, 404s and 500s)."""
    own = response.headers.get("Content-Security-Policy")
    response.headers.update(SECURITY_HEADERS)
    if own is not None:  # a page framed elsewhere says so (the Discord Activity's)
        response.headers["Content-Security-Policy"] = own


@web.middleware
async def _compress(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """Compresses a handler's answer when it is text (the event stream is sent already)."""
    response = await handler(request)
    if not response.prepared and response.content_type in _COMPRESSED:
        response.enable_compression()
        response.headers["Vary"] = "Accept-Encoding"
    return response


async def _body(request: web.Request) -> bytes:
    """The request's body, at most :data:`_MAX_BODY` bytes; ``ValueError`` when it says or
    turns out to be longer (read to its end, however the client split it)."""
    if (request.content_length or 0) > _MAX_BODY:
        raise ValueError("body too long")
    body = bytearray()
    while chunk := await request.content.read(_MAX_BODY + 1 - len(body)):
        body += chunk
        if len(body) > _MAX_BODY:
            raise ValueError("body too long")
    return bytes(body)


def _missing(request: web.Request) -> web.HTTPNotFound:
    """The 404 of an address that names no game: JSON for the API, text for a page."""
    text = str(texts.web_no_game())
    if request.path.startswith("/api/"):
        body = json.dumps({"ok": False, "text": text}, ensure_ascii=False)
        return web.HTTPNotFound(text=body, content_type="application/json")
    return web.HTTPNotFound(text=text)


async def _no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


class WebBoard:
    """The web board of one process on ``manager``: ``public_url`` is where players reach it,
    ``telegram_token`` checks Mini App sign-ins, ``link_secret`` signs personal links."""

    def __init__(
        self,
        manager: SessionManager,
        public_url: str,
        *,
        telegram_token: str = "",
        link_secret: str = "",
        poll_every: float = 0.5,
        player_rate: tuple[float, int] = (0.5, 6),
        address_rate: tuple[float, int] = (2.0, 20),
        review_rate: tuple[float, int] = (1 / 30, 3),
        download_rate: tuple[float, int] = (1.0, 10),
        streams: Streams | None = None,
        trusted_proxies: proxies.Networks = (),
        activity: ActivityConfig | None = None,
    ) -> None:
        self.manager = manager
        self.public_url = public_url.rstrip("/")
        self._telegram_token = telegram_token
        self._link_key = auth.link_key(link_secret)
        self._worker = worker_name()
        self.live = Live(self._stamp, poll_every, self._count)
        self._views: Lru[Hashable, Any] = Lru(_CACHE)
        self._files: Lru[Hashable, Any] = Lru(_CACHE)
        self._slugs: Lru[int, str] = Lru(_CACHE * 16)
        self._per_player = Buckets(*player_rate)
        self._per_address = Buckets(*address_rate)
        # The legal parts of a step are worked out by the engine (Iso-Path has thousands of
        # turns): asked for far more often than moves, still limited per address.
        self._steps_per_address = Buckets(address_rate[0] * 10, address_rate[1] * 5)
        # A review holds a worker for seconds: the ones an address may start (a kept review,
        # or one being made, is read back at no cost).
        self._reviews_per_address = Buckets(*review_rate)
        self.reviews = Reviews(manager)
        # The board's pictures and the game's animations: each made once, however many ask at
        # once; the new ones an address may start are limited.
        self.renderings = Renderings()
        self._downloads_per_address = Buckets(*download_rate)
        # The open event streams, capped per address and in all (each holds a descriptor).
        self.streams = streams or Streams()
        # The operator's proxies (HEXHALL_TRUSTED_PROXIES): only their X-Forwarded-For is read.
        self.trusted_proxies = trusted_proxies
        # The board inside Discord (bot.webboard.activity), when the operator turned it on.
        self.activity = activity

    # -- links ------------------------------------------------------------------------------

    async def link(self, game_id: int) -> str:
        """The address of game ``game_id``'s page (made on first use; a game's slug never
        changes, so this process remembers the recent ones)."""
        slug = self._slugs.get(game_id)
        if slug is None:
            slug = await self.manager.web.slug(game_id)
            self._slugs[game_id] = slug
        return f"{self.public_url}/g/{slug}"

    async def personal_link(self, game_id: int, who: auth.Identity | User) -> str:
        """``who``'s own link to game ``game_id``'s page: it lets them move for
        :data:`~bot.webboard.auth.LINK_TTL` (the token is in the fragment, which browsers
        never send to a server)."""
        person = auth.Identity(who.platform, who.user_id, who.name)
        token = auth.sign_link(self._link_key, game_id, person, self.manager.now() + auth.LINK_TTL)
        return f"{await self.link(game_id)}#t={token}"

    def changed(self, game_id: int) -> None:
        """Game ``game_id`` changed in this process: its open pages are told at once."""
        self.live.poke(game_id)

    # -- reading ----------------------------------------------------------------------------

    async def _stamp(self, game_id: int) -> Hashable | None:
        return await self.manager.web.version(game_id)

    async def _count(self, game_id: int, here: int) -> int:
        ttl = timedelta(seconds=COUNT_TTL)
        return await self.manager.web.watch_count(game_id, self._worker, here, ttl)

    async def _game(self, request: web.Request) -> tuple[int, GameView]:
        slug = request.match_info["slug"]
        gid = await self.manager.web.game_at(slug)
        # (a game set aside as damaged has no version: no page)
        version = None if gid is None else await self.manager.web.version(gid)
        if gid is None or version is None:
            raise _missing(request)
        # A view is said in a language (its result): kept per language.
        key = (gid, version, i18n.current())
        cached = self._views.get(key)
        if cached is None:
            cached = await self.manager.web.web_view(gid)
            if cached is None:
                raise _missing(request)
            self._views[(gid, cached.row.version, i18n.current())] = cached
        return gid, cached

    def _who(self, request: web.Request, game_id: int) -> auth.Identity | None:
        """The asker (``None``: nobody said); :class:`~bot.webboard.auth.AuthError` for
        credentials that prove nothing."""
        header = request.headers.get("Authorization", "")
        now = self.manager.now()
        if header.startswith("tma "):
            return auth.check_init_data(header[4:], self._telegram_token, now)
        if header.startswith("Bearer "):
            return auth.check_link(self._link_key, header[7:], game_id, now)
        if header:
            raise auth.AuthError(texts.web_sign_in_refused("unknown"))
        return None

    async def _player(self, who: auth.Identity | None) -> PlayerRow | None:
        """The stored player the asker is (``None``: a spectator, or someone never seen)."""
        if who is None:
            return None
        await speaking.speak_to(self.manager, who)
        return await self.manager.players.find(who.platform, who.user_id)

    def _may_move(
        self, player: PlayerRow | None, g: GameView, ply: int | None = None
    ) -> turns.MayMove | turns.Refused:
        """Whether ``player`` may move in the game shown now (the one decision of every
        surface, :func:`~bot.sessions.turns.may_move`)."""
        pid = None if player is None else player.id
        return turns.may_move(g.row, g.position, pid, self.manager.now(), ply)

    def _state(self, g: GameView, slug: str) -> dict[str, Any]:
        key = ("state", g.row.id, g.row.version, i18n.current())
        cached = self._views.get(key)
        if cached is not None:
            return dict(cached)
        row, position = g.row, g.position
        palette = view.colours(row.game, dict(row.options))
        state = {
            "slug": slug,
            "id": row.id,
            "game": row.game,
            "title": page.game_title(row.game),
            "version": row.version,
            "ply": row.ply,
            "over": row.status != GameStatus.ACTIVE,
            "reviewable": reviews.reviewable(row),
            "to_move": row.to_move,
            "players": [
                {
                    "name": p.name,
                    "side": texts.side_word(position.seat_sides[seat]),
                    "colour": view.PALETTE.get(position.seat_sides[seat], "#888"),
                }
                for seat, p in enumerate(g.players)
            ],
            "colours": palette,
            "deadline": None if row.deadline_at is None else row.deadline_at.isoformat(),
            "result": g.result,
            "words": render.describe(position),
            "board": view.geometry(row.game, dict(row.options)),
            "moves": list(g.moves),
            "frames": [view.frame(p) for p in g.positions],
            # A standing draw offer or takeback request: the seat that made it.
            "offers": {"draw": row.draw_offer_by, "takeback": row.takeback_by},
            "offer_text": actions.offer_text(
                row.draw_offer_by, row.takeback_by, position.seat_sides
            ),
            "labels": texts.board_labels(),
            "lang": i18n.current().replace("_", "-"),
        }
        self._views[key] = state
        return dict(state)

    # -- handlers ---------------------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        _, g = await self._game(request)
        html = page.game_page(g, request.match_info["slug"], self.public_url)
        return web.Response(text=html, content_type="text/html")

    async def _app(self, request: web.Request) -> web.Response:
        return web.Response(text=page.app_page(), content_type="text/html")

    async def _static(self, request: web.Request) -> web.Response:
        asset = assets.ASSETS.get(request.match_info["name"])
        if asset is None:
            raise web.HTTPNotFound()
        # Kept for good at its own version's address; anywhere else (an older page's, the
        # bare name) checked again each time.
        current = request.match_info.get("version") == asset.version
        cache = assets.FOREVER if current else "no-cache"
        return web.Response(
            body=asset.body, content_type=asset.kind, headers={"Cache-Control": cache}
        )

    async def _file(self, request: web.Request) -> web.Response:
        gid, g = await self._game(request)
        what = request.match_info["what"]
        names = (g.players[0].name, g.players[1].name)
        make: Callable[[], bytes]
        if what == "board.png":
            make = functools.partial(
                render.board_png, g.position, outcome=g.row.outcome, players=names
            )
            kind, disposition = "image/png", None
        elif what == "game.gif":
            make = functools.partial(
                render.game_gif, g.positions, outcome=g.row.outcome, players=names
            )
            kind, disposition = "image/gif", f"hexhall-{gid}.gif"
        elif what == "record.txt":
            make = g.record.encode  # no rendering: the record is part of the game's view
            kind, disposition = "text/plain", f"hexhall-{gid}.txt"
        else:
            raise web.HTTPNotFound()
        key = (what, gid, g.row.version)
        if kind == "text/plain":
            body = make()
        elif self.renderings.ready(key) or self._downloads_per_address.take(
            self._address(request), time.monotonic()
        ):
            body = await self.renderings.get(key, make)
        else:
            return web.Response(
                status=429,
                text=str(texts.web_downloads_too_fast()),
                headers={"Retry-After": str(_DOWNLOAD_RETRY_AFTER)},
            )
        headers = {"Cache-Control": "max-age=60"}
        if disposition:
            headers["Content-Disposition"] = f'attachment; filename="{disposition}"'
        return web.Response(body=body, content_type=kind, headers=headers)

    async def _api_game(self, request: web.Request) -> web.Response:
        gid, g = await self._game(request)
        who: auth.Identity | None = None
        browser = i18n.current()
        try:
            who = self._who(request, gid)
            player = await self._player(who)
            told = None
        except auth.AuthError as exc:
            player, told = None, str(exc)
        if i18n.current() != browser:  # the player's language: the view said in it
            gid, g = await self._game(request)
        state = self._state(g, request.match_info["slug"])
        state["auth"] = told
        decided = self._may_move(player, g)
        state["you"] = decided.seat
        state["can_move"] = isinstance(decided, turns.MayMove)
        state["spectators"] = self.live.spectators(gid)
        state["next_turn"] = await self._next_turn(request, gid, who, player)
        return _json(state)

    async def _next_turn(
        self, request: web.Request, gid: int, who: auth.Identity | None, player: PlayerRow | None
    ) -> str | None:
        """The asker's link to their next game where it is their turn (a personal one for a
        personal link's holder; the page's own sign-in goes with a Mini App's)."""
        if who is None or player is None or player.id is None:
            return None
        other = await self.manager.web.next_turn(player.id, gid)
        if other is None:
            return None
        if request.headers.get("Authorization", "").startswith("Bearer "):
            return await self.personal_link(other, who)
        return await self.link(other)

    async def _api_next(self, request: web.Request) -> web.Response:
        if not self._steps_per_address.take(self._address(request), time.monotonic()):
            return _refusal(texts.web_too_fast(), 429)
        gid, g = await self._game(request)
        prefix = request.query.get("prefix", "")[:_MAX_PREFIX]
        # A player's prompts in their words; a spectator's in the browser's.
        with contextlib.suppress(auth.AuthError):
            await self._player(self._who(request, gid))
        key = ("next", gid, g.row.version, prefix, i18n.current())
        answer = self._files.get(key)
        if answer is None:
            try:
                answer = steps.step(g.position, prefix, gid)
            except ValueError:
                return _refusal(texts.web_no_such_start(prefix), 400)
            self._files[key] = answer
        return _json(answer)

    async def _api_action(self, request: web.Request) -> web.Response:
        """A player's resignation, draw or takeback (see the module docstring): the session
        manager decides, as for the chat's commands; the page shows its answer."""
        if not self._per_address.take(self._address(request), time.monotonic()):
            return _refusal(texts.web_too_fast(), 429)
        gid, g = await self._game(request)
        try:
            asked = actions.parse(await _body(request))
        except (ValueError, RecursionError):
            return _refusal(texts.web_bad_action_request(), 400)
        try:
            who = self._who(request, gid)
        except auth.AuthError as exc:
            return _refusal(exc, 401)
        if who is None:
            return _refusal(texts.web_sign_in(), 401)
        player = await self._player(who)
        if player is None or player.id not in g.row.seats:
            return _refusal(texts.web_not_your_game(), 403)
        user = User(who.platform, who.user_id, player.name)
        reply = await actions.run(
            self.manager, user, Chat(g.row.platform, g.row.chat_id), gid, asked
        )
        self.live.poke(gid)
        # A resignation not yet confirmed is a question: the page asks it.
        ask = asked.action == "resign" and not asked.confirm and reply.ok
        return _json(
            {"ok": reply.ok, "ask": ask, "text": str(reply.body)}, 200 if reply.ok else 409
        )

    def _address(self, request: web.Request) -> str:
        """The asker's address, for the limits per address (:func:`~bot.webboard.proxies.client`:
        ``X-Forwarded-For`` only from the operator's own proxies)."""
        forwarded = request.headers.get("X-Forwarded-For", "")
        return proxies.client(request.remote or "", forwarded, self.trusted_proxies)[:64]

    async def _api_move(self, request: web.Request) -> web.Response:
        if not self._per_address.take(self._address(request), time.monotonic()):
            return _refusal(texts.web_too_fast(), 429)
        gid, g = await self._game(request)
        try:
            body = json.loads(await _body(request))
            if not isinstance(body, dict):
                raise ValueError
            move, ply, confirm = body["move"], body["ply"], body.get("confirm", False)
            if not isinstance(move, str) or not isinstance(confirm, bool):
                raise ValueError
            if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply < 10**6:
                raise ValueError
        except (ValueError, KeyError, TypeError, RecursionError):
            # (UnicodeDecodeError and JSONDecodeError are ValueErrors; a deeply nested body is
            # a RecursionError of the decoder, caught before it ever reaches a traceback.)
            return _refusal(texts.web_bad_move_request(), 400)
        try:
            who = self._who(request, gid)
        except auth.AuthError as exc:
            return _refusal(exc, 401)
        if who is None:
            return _refusal(texts.web_sign_in(), 401)
        player = await self._player(who)
        decided = self._may_move(player, g, ply)
        if player is None or decided.seat is None:
            # Not a player: refused here.  Every other refusal is the move's own (it may be
            # a repeat of a move already stored, answered as such), with the same code.
            nobody = TurnRefusal.NOT_PLAYING
            return _refusal(texts.cannot_move(nobody, gid), 403, nobody)
        if not self._per_player.take(f"{who.platform}:{who.user_id}", time.monotonic()):
            return _refusal(texts.web_too_fast(), 429)
        reply = await self.manager.games.move(
            User(who.platform, who.user_id, player.name),
            Chat(g.row.platform, g.row.chat_id),
            move[:_MAX_PREFIX],
            game_id=gid,
            expected_ply=ply,
            confirm=confirm,
            # Answered here, not in the chat: the chat's board is due at once (no grace).
            answered_in_chat=False,
        )
        self.live.poke(gid)
        if reply.ok:
            return _json({"ok": True, "text": str(reply.body)})
        anyway = isinstance(reply.outcome, NeedsConfirm)
        code = None if reply.refusal is None else reply.refusal.value
        return _json({"ok": False, "confirm": anyway, "text": str(reply.body), "code": code}, 409)

    async def _api_review(self, request: web.Request) -> web.Response:
        gid, g = await self._game(request)
        if not reviews.reviewable(g.row):
            return _refusal(texts.review_not_yet(gid), 403)
        if self.reviews.fresh(g) and not self._reviews_per_address.take(
            self._address(request), time.monotonic()
        ):
            return _refusal(texts.web_review_too_fast(), 429)
        try:
            player = await self._player(self._who(request, gid))
        except auth.AuthError:
            player = None  # a spectator, as on the rest of the page
        if player is not None and player.id not in g.row.seats:
            player = None  # (someone else's game: a spectator there)
        # Its turn in the worker pool's queue: the player's own (with their games against
        # the bot), or the spectators' one: all of theirs together never hold more workers
        # than one player may, however many addresses ask.
        owner = _SPECTATORS if player is None else player.id
        try:
            return _json(await self.reviews.review(g, owner))
        except Refusal as refusal:
            return _refusal(refusal.text, 503)

    async def _events(self, request: web.Request) -> web.StreamResponse:
        address = self._address(request)
        try:
            with self.streams.hold(address):
                # A player's own page (it says so: saying it falsely only leaves its own
                # address out of the count) is no spectator.
                player = request.query.get("player") == "1"
                return await self._stream(request, None if player else address)
        except StreamFull:
            # A plain short answer: the page, the API and the other addresses keep serving.
            return web.Response(
                status=429,
                text=str(texts.web_too_many_pages()),
                headers={"Retry-After": str(STREAMS_RETRY_AFTER)},
            )

    async def _stream(self, request: web.Request, spectator: str | None) -> web.StreamResponse:
        gid, _ = await self._game(request)
        response = web.StreamResponse(
            headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache",
                "X-Accel-Buffering": "no",
            }
        )
        await response.prepare(request)
        async with self.live.watch(gid, spectator) as queue:
            quiet = 0.0
            try:
                while True:
                    try:
                        change = await asyncio.wait_for(queue.get(), _GONE_EVERY)
                    except TimeoutError:
                        # A page that went away gives its stream back within a second (the
                        # handler is not cancelled when the peer closes the connection).
                        if request.transport is None or request.transport.is_closing():
                            break
                        quiet += _GONE_EVERY
                        if quiet >= _KEEP_ALIVE:
                            await response.write(b": keep-alive\n\n")
                            quiet = 0.0
                        continue
                    if change is None:
                        break
                    data = json.dumps(change.to_json())
                    await response.write(f"data: {data}\n\n".encode())
            except (ConnectionResetError, ConnectionError):
                pass
        return response

    # -- the application --------------------------------------------------------------------

    def app(self) -> web.Application:
        """The routes (see the module docstring)."""
        application = web.Application(
            middlewares=[_compress, speaking.middleware], client_max_size=_MAX_BODY * 4
        )
        application.on_response_prepare.append(_headers)
        slug = "{slug:[A-Za-z0-9_-]{1,64}}"
        application.router.add_get(f"/g/{slug}", self._page)
        application.router.add_get(f"/g/{slug}/{{what}}", self._file)
        application.router.add_get("/app", self._app)
        application.router.add_get("/favicon.ico", _no_icon)
        application.router.add_get("/static/{name}", self._static)
        application.router.add_get("/static/{version:[0-9a-f]{1,64}}/{name}", self._static)
        application.router.add_get(f"/api/games/{slug}", self._api_game)
        application.router.add_get(f"/api/games/{slug}/next", self._api_next)
        application.router.add_post(f"/api/games/{slug}/moves", self._api_move)
        application.router.add_get(f"/api/games/{slug}/review", self._api_review)
        application.router.add_post(f"/api/games/{slug}/actions", self._api_action)
        application.router.add_get(f"/api/games/{slug}/events", self._events)
        plan = (self.manager, self._game, self._who, self._player)
        plans.add_routes(application.router, slug, *plan)  # conditional moves (issue 46)
        if self.activity is not None:
            add_activity(application, self, self.activity, CSP)

        async def stop(_: web.Application) -> None:
            await self.live.close()
            await self.reviews.close()

        application.on_shutdown.append(stop)
        return application

    def now(self) -> datetime:
        """The manager's time."""
        return self.manager.now()
