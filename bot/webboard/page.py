"""The HTML of a game's page: a shell the script (``static/board.js``) draws the board into,
with everything a screen reader or a link preview needs already in it (the title, the players,
the board in words, the move list, the result, the downloads), every name escaped.
"""

from __future__ import annotations

import functools
import math
from html import escape

import engines
import render
from bot.core import i18n
from bot.sessions import texts
from bot.sessions.reviews import reviewable
from bot.sessions.webview import GameView
from bot.webboard import assets, view
from engines.base import Position

__all__ = ["activity_page", "app_page", "game_page"]

_HEAD = """<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{title}</title>
<link rel="stylesheet" href="{css}">
{meta}
<script src="{host}" defer></script>
{parts}<script src="{js}" defer></script>
</head>
"""


def _lang() -> str:
    """The page's ``lang``: the language in use, as HTML writes it (``pt-BR``)."""
    return i18n.current().replace("_", "-")


def _labels() -> dict[str, str]:
    """The page's words in the language in use (:func:`~bot.sessions.texts.board_labels`)."""
    return _labels_in(i18n.current())


@functools.cache
def _labels_in(code: str) -> dict[str, str]:
    with i18n.use(code):
        return texts.board_labels()


def _said(key: str) -> str:
    """An element's text from its label ``key``, marked so board.js can say it again in the
    signed-in player's language: `` data-label="key">words`` (the tag's ``>`` included)."""
    return f' data-label="{key}">{escape(_labels()[key])}'


def _aria(key: str) -> str:
    """An element's ``aria-label`` from its label ``key``, marked as :func:`_said` marks."""
    return f' aria-label="{escape(_labels()[key])}" data-label-aria="{key}"'


def _plan_words() -> str:
    """plan.js's words, as data attributes of the plan's section (``data-plan_add`` ...)."""
    words = _labels()
    return "".join(
        f' data-{key.replace("_", "-")}="{escape(value)}"'
        for key, value in words.items()
        if key.startswith("plan_") or key == "back"
    )


def _parts() -> str:
    """The script tags of board.js's parts (:data:`~bot.webboard.assets.BOARD_PARTS`), run
    before it in order (deferred, as it is; the Activity's page loads board.js later, after
    them)."""
    return "".join(f'<script src="{assets.url(n)}" defer></script>\n' for n in assets.BOARD_PARTS)


def _head(title: str, meta: str) -> str:
    return _HEAD.format(
        lang=_lang(),
        title=escape(title),
        meta=meta,
        css=assets.url("board.css"),
        host=assets.url("host.js"),
        parts=_parts(),
        js=assets.url("board.js"),
    )


def _title(view: GameView) -> str:
    row = view.row
    game = view.position.game
    return f"#{row.id} {game_title(game)}: {view.players[0].name} v {view.players[1].name}"


def _board_box(game: str, options: dict[str, object]) -> str:
    """The board's place, kept before the script draws it: an empty drawing of the board's own
    box (the ``viewBox`` board.js draws in, from the same :func:`~bot.webboard.view.geometry`)
    with its cells' spacing, sized at once by ``boardbox.js`` (not deferred: before anything
    under it is laid out) by the rule board.js sizes the board by, and the board's tools under
    it, so nothing on the page moves when the board arrives."""
    g = view.geometry(game, options)
    box = " ".join(f"{v:g}" for v in g["box"])
    cell = (2 if g["kind"] == "square" else math.sqrt(3)) * g["r"]
    return (
        '<div id="board" class="board">'
        + f'<svg viewBox="{box}" data-cell="{cell:.3f}" aria-hidden="true"></svg></div>'
        + f'<script src="{assets.url("boardbox.js")}"></script>'
        + '<div id="board-tools" class="board-tools">'
        + f'<button type="button" id="flip" aria-pressed="false" disabled{_said("flip")}'
        + "</button>"
        + f'<button type="button" id="zoom-out"{_aria("zoom_out")} disabled>'
        + "−</button>"
        + f'<button type="button" id="zoom-in"{_aria("zoom_in")} disabled>'
        + "+</button></div>"
    )


def game_title(game: str) -> str:
    """The game's own name (``Maphex``, ``inpHeXion`` ...)."""
    known = engines.GAMES.get(game)
    return known.title if known else game


def _moves(moves: tuple[str, ...]) -> str:
    items = "".join(
        f'<li><button type="button" data-ply="{i + 1}">{escape(m)}</button></li>'
        for i, m in enumerate(moves)
    )
    return f'<ol id="moves" class="moves"{_aria("moves")}>{items}</ol>'


def _sides(view: GameView, position: Position) -> str:
    rows = []
    for seat, player in enumerate(view.players):
        side = position.seat_sides[seat]
        rows.append(
            f'<li data-seat="{seat}"><span class="swatch" data-side="{escape(side)}"></span>'
            f"{escape(player.name)} ({escape(texts.side_word(side))})</li>"
        )
    return f'<ul id="players" class="players">{"".join(rows)}</ul>'


def _review(view: GameView) -> str:
    """The review's control and table (filled by the script), there only while
    :func:`~bot.sessions.reviews.reviewable` allows a review (the script follows it).  The
    control is enabled by the script once the game's state (and so its words) has loaded: a
    tap before that would show an empty answer."""
    hidden = "" if reviewable(view.row) else " hidden"
    head = "".join(
        f'<th scope="col"{_said(key)}</th>'
        for key in ("review_move", "review_player", "review_played", "review_better", "review_cost")
    )
    return (
        f'\n<section id="review" class="review" aria-labelledby="review-title"{hidden}>'
        + f'<h2 id="review-title"{_said("review")}</h2>'
        + f'<button type="button" id="review-ask" disabled{_said("review")}</button>'
        + '<p id="review-text" class="review-text" aria-live="polite"></p>'
        + '<table id="review-moves" class="review-moves" hidden>'
        + f"<thead><tr>{head}</tr></thead><tbody></tbody></table>"
        + '<p id="review-hint" class="review-hint"></p>'
        + '<p id="review-at" class="review-at" aria-live="polite"></p>'
        + "</section>"
    )


def game_page(view: GameView, slug: str, public_url: str) -> str:
    """The page of ``view``'s game at ``public_url``/g/``slug``."""
    title = _title(view)
    position = view.position
    words = render.describe(position)
    url = f"{public_url}/g/{slug}"
    meta = "\n".join(
        f'<meta property="{k}" content="{escape(v)}">'
        for k, v in (
            ("og:type", "website"),
            ("og:title", title),
            ("og:description", view.result or words),
            ("og:image", f"{url}/board.png?v={view.row.version}"),
            ("og:url", url),
        )
    )
    meta += '\n<meta name="twitter:card" content="summary_large_image">'
    result = f'<p id="result" class="result">{escape(view.result)}</p>'
    return (
        _head(title, meta)
        + f'<body data-slug="{escape(slug)}">\n<main>\n'
        + f'<h1 id="title">{escape(title)}</h1>\n'
        + _sides(view, position)
        + '\n<p id="turn" class="turn" aria-live="polite"></p>'
        + '\n<p id="watchers" class="watchers"></p>'
        + "\n"
        + _board_box(view.row.game, dict(view.row.options))
        + '\n<div id="play" class="play" hidden>'
        + '<p id="prompt" class="prompt" aria-live="polite"></p>'
        + '<div id="choices" class="choices"></div>'
        + f'<div class="controls"><button type="button" id="back"{_said("back")}</button>'
        + f'<button type="button" id="clear"{_said("clear")}</button>'
        + f'<button type="button" id="send" class="send" disabled{_said("send")}</button></div>'
        + "</div>"
        + '\n<p id="status" class="status" role="status" aria-live="assertive"'
        + f' data-failed="{escape(str(texts.web_play_failed()))}"></p>'
        + f'\n<nav class="steps"{_aria("steps")}>'
        + f'<button type="button" id="first"{_aria("first")}>«</button>'
        + f'<button type="button" id="prev"{_aria("prev")}>◀</button>'
        + '<span id="at" class="at"></span>'
        + f'<button type="button" id="next"{_aria("next")}>▶</button>'
        + f'<button type="button" id="last"{_aria("last")}>»</button></nav>\n'
        + result
        + _review(view)
        + f'\n<h2{_said("words")}</h2>\n<p id="words" class="words">{escape(words)}</p>\n'
        + f"<h2{_said('moves')}</h2>\n"
        + _moves(view.moves)
        + f'\n<p class="downloads"><a href="/g/{escape(slug)}/game.gif" download{_said("gif")}</a> '
        + f'<a href="/g/{escape(slug)}/record.txt" download{_said("record")}</a></p>\n'
        # Plan mode (issue 46): a signed-in player's conditional moves, by its own script.
        + f'<section id="plan" class="plan"{_plan_words()} hidden>'
        + '<ol id="plan-lines"></ol></section>\n'
        + f'<script src="{assets.url("plan.js")}" defer></script>\n'
        # Resign, draw, takeback and the typed move (board.js fills it for a player) at the end:
        # a player's page grows there, under what a phone shows at first, not above it.
        + '<div id="game-actions" class="game-actions"></div>\n'
        + "</main>\n</body>\n</html>\n"
    )


def app_page() -> str:
    """The Telegram Mini App's entry page: its script opens the game the link named
    (``startapp=g_<slug>``)."""
    return (
        _head("Hexhall", "")
        + f'<body data-app="1" data-no-game="{escape(_labels()["no_game_link"])}">'
        + "<main><h1>Hexhall</h1>"
        + f'<p id="status" role="status">{escape(_labels()["opening"])}</p></main></body></html>\n'
    )


def activity_page(client_id: str, *, mock: bool = False) -> str:
    """The Discord Activity's page (:mod:`~bot.webboard.activity`): its script signs the player
    in through the Embedded App SDK, then shows their game's board in place.  ``mock`` (tests
    only) makes it use the SDK's own ``DiscordSDKMock``."""
    data = {
        "activity": "1",
        "client-id": client_id,
        "board-box-js": assets.url("boardbox.js"),
        "board-js": assets.url("board.js"),
        "outside": str(texts.activity_not_in_discord()),
        "refused": str(texts.activity_refused()),
        "no-games": str(texts.activity_no_games()),
    }
    if mock:
        data["mock"] = "1"
    attributes = "".join(f' data-{k}="{escape(v)}"' for k, v in data.items())
    return (
        _HEAD.format(
            lang=_lang(),
            title="Hexhall",
            meta="",
            css=assets.url("board.css"),
            # host.js speaks only to Telegram (it stays quiet in Discord's frame); board.js,
            # loaded later by activity.js, finds it and its parts as on every page.
            host=assets.url("host.js"),
            parts=_parts(),
            js=assets.url("discord-sdk.js"),
        ).replace(
            "</head>",
            f'<link rel="stylesheet" href="{assets.url("activity.css")}">\n'
            f'<script src="{assets.url("activity.js")}" defer></script>\n</head>',
        )
        + f"<body{attributes}><main><h1>Hexhall</h1>"
        + f'<p id="status" class="status" role="status">{escape(str(texts.activity_signing_in()))}'
        + "</p></main></body></html>\n"
    )
