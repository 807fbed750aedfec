"""The pieces every sentence is made of: players, sides and results, and the refusals
several commands share.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from datetime import datetime

from bot.core import i18n
from bot.core.status import GameResult
from bot.messages import Mention, Moment, Segment, Text, say, say_n

#: A sentence said when rendered (:func:`bot.messages.say`), and one with plural forms.
_p = say
_pn = say_n


#: A button id that is not one of ours (or from a version that no longer exists).
NOT_MY_BUTTON = _p("That button is not one of mine (or is too old).")


def _t(*parts: Segment | Text) -> Text:
    return Text.of(*parts)


def _when(moment: datetime) -> Text:
    """A date and time, said when the sentence is (in its reader's words: ``Mar 9, 2026,
    14:05 UTC``, ``2026年3月9日 14:05 UTC``)."""
    return Text.of(Moment.of(moment))


def _word(value: object) -> str:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return i18n.number(value)
    return str(value)


def _s(msgid: str, /, **args: object) -> str:
    """A sentence said now, in the language in use, as a plain string (button labels, alt
    texts, picture words: what is made where the reader's language is already known)."""
    return i18n.fill(i18n.gettext(msgid), {k: _word(v) for k, v in args.items()})


def _sn(singular: str, plural: str, count: float, /, **args: object) -> str:
    """Like :func:`_s`, with the form for ``count``."""
    form = int(count) if float(count).is_integer() else 2
    values = {"count": _word(count)} | {k: _word(v) for k, v in args.items()}
    return i18n.fill(i18n.ngettext(singular, plural, form), values)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs; it is said where it is used."""
    return message


#: How games end (``engines.base.Termination``'s values, and the pictures' ``time``), said in
#: the reader's language where a sentence names the reason.
ENDINGS = frozenset(
    {
        N_("connection"), N_("one group"), N_("two 6-high stacks"), N_("home row"),
        N_("last piece captured"), N_("no legal turn"), N_("no legal move"),
        N_("relocation impossible"), N_("win"), N_("draw"), N_("resignation"),
        N_("agreement"), N_("timeout"), N_("time"), N_("no first move"), N_("aborted"),
    }
)  # fmt: skip
#: The sides the games name (``engines.*.SIDES``).
SIDES = frozenset({N_("Red"), N_("Blue"), N_("Light"), N_("Dark"), N_("White"), N_("Black")})


def _ending(reason: str | None) -> Text | str:
    """A game's ending, said in the reader's language when it is one of ours."""
    if reason is None:
        return ""
    return _p(reason) if reason in ENDINGS else reason


def _side(name: str) -> Text | str:
    """A side's name (``Red``), said in the reader's language."""
    return _p(name) if name in SIDES else name


def _games(count: int) -> Text:
    return _pn("{count} game", "{count} games", count)


def _days(count: float) -> Text:
    return _pn("{count} day", "{count} days", count)


def _hours(count: float) -> Text:
    return _pn("{count} hour", "{count} hours", count)


def _players(count: int) -> Text:
    return _pn("{count} player", "{count} players", count)


def _moves(count: int) -> Text:
    return _pn("{count} move", "{count} moves", count)


def _ids(ids: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"#{i}" for i in ids[:10])


# -- players and results ------------------------------------------------------------------


def side(player: Mention, side_name: str) -> Text:
    """A player with the side they play, e.g. ``Ada (Red)``."""
    return _p("{player} ({side_name})", player=player, side_name=_side(side_name))


def result(
    game_id: int, result: GameResult | None, reason: str | None, winner: Text | None
) -> Text:
    """How a finished game ended: ``result`` is the stored result (win, draw, none)."""
    if result == GameResult.DRAW:
        return _p("#{game_id} is drawn ({reason}).", game_id=game_id, reason=_ending(reason))
    if result == GameResult.NONE:
        return _p("#{game_id} was aborted ({reason}).", game_id=game_id, reason=_ending(reason))
    if winner is None:
        return _p("#{game_id} is over ({reason}).", game_id=game_id, reason=_ending(reason))
    return _p(
        "{winner} wins #{game_id} ({reason}).",
        winner=winner,
        game_id=game_id,
        reason=_ending(reason),
    )


# -- refusals shared by several commands -------------------------------------------------


def no_such(what: str, shown_id: str) -> Text:
    """There is no game (challenge) with that id (``#`` marks games only)."""
    if what == "game":
        return _p("There is no game #{shown_id}.", shown_id=shown_id)
    return _p("There is no challenge {shown_id}.", shown_id=shown_id)


def no_game_here(game_id: int) -> Text:
    """A game of another chat asked about by someone who does not play in it."""
    return _p("There is no game #{game_id} here.", game_id=game_id)


def no_challenge_here(challenge_id: int) -> Text:
    """A challenge of another chat, not addressed to the one asking (or not in their direct
    chat with the bot)."""
    return _p("There is no challenge {challenge_id} here.", challenge_id=challenge_id)


def no_such_game_name(shown_name: str, games: list[str]) -> Text:
    """A game name that is not one of ours."""
    return _p(
        "There is no game {shown_name}: choose one of {games}.",
        shown_name=f"{shown_name!r}",
        games=", ".join(games),
    )


def set_aside(game_id: int) -> Text:
    """A game damaged in storage."""
    return _p("Game #{game_id} is damaged in storage and has been set aside.", game_id=game_id)


def cannot_be_read(game_id: int, reason: str) -> Text:
    """A game found damaged just now."""
    return _p(
        "Game #{game_id} cannot be read (damaged in storage: {reason}); it has been set aside.",
        game_id=game_id,
        reason=reason,
    )


#: The answer when the database stayed locked longer than the busy timeout.
BUSY = _p("The database is busy, try again.")
#: The answer when the database cannot take a request (a full disk, an unreachable server).
UNAVAILABLE = _p("The database is unavailable, try again.")
#: The answer when the database's storage is full (a full disk, a quota): it lasts until
#: whoever runs the bot frees space, so "try again" would mislead.
STORAGE_FULL = _p(
    "The bot's storage is full: nothing was changed. Please tell whoever runs the bot."
)
#: The answer to a tap whose chat the platform's flood control holds back (what it changed is
#: stored; a board it made follows through the outbox).
FLOOD_WAIT = N_("Telegram holds my messages in this chat back for a moment: nothing is lost.")


def row_unreadable(table: str, row_id: object) -> Text:
    """A stored row that cannot be read: a game or challenge is set aside, anything else is
    only reported."""
    if table == "games":
        return _p(
            "Game #{row_id} cannot be read (damaged in storage); it has been set aside.",
            row_id=row_id,
        )
    if table != "challenges":
        return _p(
            "Something stored cannot be read ({table} #{row_id}).", table=table, row_id=row_id
        )
    return _p(
        "Challenge {row_id} cannot be read (damaged in storage); it has been set aside.",
        row_id=row_id,
    )


def player_missing(player_id: int) -> Text:
    """A game names a player the store does not have."""
    return _p("player {player_id} is missing from the database", player_id=player_id)


def no_active_game_here() -> Text:
    """No game id given and none to guess (the adapter says how to name one)."""
    return _p("You have no active game here.")


def which_game(count: int, ids: list[int]) -> Text:
    """No game id given and several would do."""
    return _p("You have {count} active games here ({ids}): which one?", count=count, ids=_ids(ids))


def changed_meanwhile(game_id: int | None = None) -> Text:
    """The game changed between reading and writing it."""
    if game_id is None:
        return _p("The game moved on meanwhile: look at it and try again.")
    return _p("The game #{game_id} moved on meanwhile: look at it and try again.", game_id=game_id)


def not_playing(game_id: int, what: str | None = None) -> Text:
    """Only a game's players may do this."""
    if what is None:
        return _p("You are not playing in #{game_id}.", game_id=game_id)
    verbs = (N_("resign"), N_("rematch"), N_("agree to a draw"), N_("take moves back"))
    return _p(
        "You are not playing in #{game_id}: only its players can {what}.",
        game_id=game_id,
        what=_p(what) if what in verbs else what,
    )


def is_over(game_id: int, outcome: Text) -> Text:
    """The game has ended already."""
    return _p("#{game_id} is over: {outcome}", game_id=game_id, outcome=outcome)
