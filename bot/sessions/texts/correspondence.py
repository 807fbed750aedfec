"""Correspondence play: clocks, vacations, settings, draws and takebacks, records, and
the notifications told to a player outside their own commands.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from datetime import datetime

from bot.messages import Code, Mention, Segment, Text
from bot.sessions.texts.base import _plural, _t, _when, not_playing

# -- correspondence -------------------------------------------------------------------------


def settings_are(described: str) -> Text:
    """A player's notification settings."""
    return _t(f"Your settings: {described}.")


def game_changed_try_again() -> Text:
    """A vacation change raced a game change."""
    return _t("One of your games changed meanwhile: try again.")


def away_needs_days() -> Text:
    """``away`` without a number."""
    return _t("away takes a number of days, e.g. ", Code("away 5"), ".")


def sentence(message: str) -> Text:
    """A library's message as a sentence (capital first letter, full stop)."""
    return _t(message[:1].upper() + message[1:] + ".")


def sentence_as_is(message: str) -> Text:
    """A library's message that is already a sentence (e.g. a settings check)."""
    return _t(message)


def away(me: Mention, until: datetime, paused: int, left_days: int) -> Text:
    """A vacation started (vacation is counted in whole days: each day begun counts)."""
    return _t(
        me,
        f" is away until {_when(until)}; clocks are paused ({_plural(paused, 'game')} waiting "
        f"on you). {_plural(left_days, 'whole day')} of vacation left this year (each day "
        "begun counts).",
    )


def not_away() -> Text:
    """``back`` while not away."""
    return _t("You are not away.")


def welcome_back(me: Mention) -> Text:
    """A vacation ended early."""
    return _t("Welcome back, ", me, ": your clocks run again.")


def draw_answers() -> Text:
    """``draw`` with a bad answer."""
    return _t("draw takes accept or decline, or nothing to offer one.")


def draw_already_offered(game_id: int) -> Text:
    """A second draw offer."""
    return _t(f"You already offered a draw in #{game_id}.")


def draw_offered(me: Mention, game_id: int, opponent: Mention) -> Text:
    """A draw offer was made."""
    return _t(me, f" offers a draw in #{game_id}; it stands until ", opponent, " moves.")


def no_draw_offer(game_id: int) -> Text:
    """Answering a draw offer that is not there."""
    return _t(f"There is no draw offer in #{game_id}.")


def own_draw_offer(game_id: int, opponent: Mention) -> Text:
    """Accepting one's own draw offer."""
    return _t(f"You offered the draw in #{game_id}: ", opponent, " may accept it.")


def draw_declined(me: Mention, game_id: int) -> Text:
    """A draw offer was declined."""
    return _t(me, f" declined the draw in #{game_id}.")


def draw_agreed(me: Mention, game_id: int) -> Text:
    """A draw offer was accepted."""
    return _t(me, f" accepted the draw: #{game_id} is drawn (agreement).")


def takeback_answers() -> Text:
    """``takeback`` with a bad answer."""
    return _t("takeback takes accept or decline, or nothing to ask for one.")


def only_own_last_move(game_id: int, opponent: Mention) -> Text:
    """A takeback that is not of one's own last move."""
    return _t(
        f"You can only take back your own last move in #{game_id}, before ", opponent, " moves."
    )


def takeback_already_asked(move: str, game_id: int) -> Text:
    """A second takeback request."""
    return _t("You already asked to take back ", Code(move), f" in #{game_id}.")


def takeback_asked(me: Mention, move: str, game_id: int) -> Text:
    """A takeback was requested."""
    return _t(me, " asks to take back ", Code(move), f" in #{game_id}.")


def no_takeback_request(game_id: int) -> Text:
    """Answering a takeback request that is not there."""
    return _t(f"There is no takeback request in #{game_id}.")


def own_takeback_request(game_id: int, opponent: Mention) -> Text:
    """Allowing one's own takeback."""
    return _t(f"You asked for the takeback in #{game_id}: ", opponent, " decides.")


def takeback_refused(me: Mention, game_id: int) -> Text:
    """A takeback was refused."""
    return _t(me, f" refused the takeback in #{game_id}.")


def taken_back(me: Mention, game_id: int, move: str | None, who: Text) -> Text:
    """A takeback was allowed."""
    undone: Segment = Code(move) if move is not None else "the last move"
    return _t(
        me, f" allowed the takeback in #{game_id}: ", undone, " is taken back. ", who, " to move."
    )


def no_finished_game_here() -> Text:
    """``rematch`` without a game and none to guess."""
    return _t("You have no finished game here.")


def rematch_not_player(game_id: int) -> Text:
    """A rematch asked by someone who did not play."""
    return not_playing(game_id, "rematch")


def still_going(game_id: int) -> Text:
    """A rematch of a game that has not ended."""
    return _t(f"#{game_id} is still going: a rematch comes after the game.")


def rematch_exists(game_id: int, new_game_id: int | None) -> Text:
    """The rematch was played already."""
    return _t(f"The rematch of #{game_id} is already game #{new_game_id}.")


def rematch_already_asked(game_id: int, challenge_id: int) -> Text:
    """A second rematch request."""
    return _t(f"You already asked for a rematch of #{game_id}: challenge {challenge_id}.")


def rematch_asked(
    me: Mention, opponent: Mention, game_id: int, title: str, challenge_id: int
) -> Text:
    """A rematch was asked for."""
    return _t(
        me,
        " asks ",
        opponent,
        f" for a rematch of #{game_id} {title} (seats swapped): challenge {challenge_id}.",
    )


# -- records --------------------------------------------------------------------------------


def history_head(
    game_id: int, title: str, names: tuple[Mention, Mention] | tuple[Text, Text]
) -> Text:
    """The first line of a move list (the players, with their sides)."""
    return _t(f"#{game_id} {title}: ", names[0], " vs ", names[1])


def history_line(number: int, move: str, player: Mention) -> Text:
    """One numbered move of a move list."""
    return _t(f"{number}. ", Code(move), " (", player, ")")


def no_moves_yet() -> Text:
    """A move list with no moves."""
    return _t("No moves yet.")


def cannot_import(reason: str) -> Text:
    """A record that cannot be read."""
    return _t(f"Cannot import that record: {reason}")


def import_needs_two_players() -> Text:
    """A record imported against oneself."""
    return _t("The two players of an imported game must differ.")


def imported(
    title: str, game_id: int, seats: tuple[Mention, Mention], moves: int, tail: Text
) -> Text:
    """A record was stored as a game."""
    return _t(
        f"Imported {title} as game #{game_id}: ",
        seats[0],
        " vs ",
        seats[1],
        f", {moves} moves. ",
        tail,
    )


def preview_of(game_id: int, title: str, move_number: int, who: Text, move: str) -> Text:
    """The board after a move that is not played yet (a preview)."""
    return _t(
        f"#{game_id} {title}, move {move_number}: if ", who, " plays ", Code(move),
        ". Nothing is played yet.",
    )  # fmt: skip


def game_choice(game_id: int, title: str, opponent: str, your_turn: bool) -> str:
    """One active game in a short list to choose from (plain: autocompletion shows no markup)."""
    return f"#{game_id} {title} vs {opponent}" + (" (your turn)" if your_turn else "")


# -- notifications ----------------------------------------------------------------------------
# Told to a player outside their own commands.  ``challenge_id`` / ``game_id`` may be the
# store's placeholders (``"{challenge}"``, ``"{game}"``) filled in when the row is written.


def challenge_note(me: Mention, what: str, challenge_id: int | str) -> Text:
    """You were challenged."""
    return _t(me, f" challenges you to {what}: challenge {challenge_id}.")


def rematch_note(me: Mention, game_id: int, title: str, challenge_id: int | str) -> Text:
    """Your opponent asks for a rematch."""
    return _t(me, f" asks for a rematch of #{game_id} {title}: challenge {challenge_id}.")


def accepted_note(me: Mention, challenge_id: int, game_id: int | str, title: str) -> Text:
    """Your challenge was accepted."""
    return _t(me, f" accepted challenge {challenge_id}: game #{game_id} {title}.")


def first_turn_note(game_id: int | str, title: str, side_name: str) -> Text:
    """The game just started and you move first."""
    return _t(f"Your turn in #{game_id} {title} ({side_name}).")


def declined_note(me: Mention, challenge_id: int) -> Text:
    """Your challenge was declined."""
    return _t(me, f" declined challenge {challenge_id}.")


def your_turn_note(game_id: int, title: str, mover: Mention, move: str) -> Text:
    """Your opponent moved."""
    return _t(f"Your turn in #{game_id} {title}: ", mover, " played ", Code(move), ".")


def game_over_note(
    game_id: int, title: str, mover: Mention, move: str, you_won: bool | None, reason: str
) -> Text:
    """Your opponent's move ended the game (``you_won`` is ``None`` for a draw)."""
    head = _t(f"#{game_id} {title} is over: ", mover, " played ", Code(move), ". ")
    if you_won is None:
        return _t(head, "Draw.")
    return _t(head, f"{'You win' if you_won else 'You lose'} ({reason}).")


def resigned_note(me: Mention, game_id: int, title: str) -> Text:
    """Your opponent resigned."""
    return _t(me, f" resigned #{game_id} {title}: you win.")


def aborted_note(game_id: int, title: str, late: Mention | None) -> Text:
    """The first move never came (``late`` is ``None`` when told to the late player)."""
    if late is None:
        return _t(f"#{game_id} {title} was aborted: you did not make the first move in time.")
    return _t(f"#{game_id} {title} was aborted: ", late, " did not make the first move in time.")


def timeout_note(game_id: int, title: str, late: Mention | None, winner: Mention | None) -> Text:
    """A clock ran out: told to the late player (``late`` is ``None``) or to the winner
    (``winner`` is ``None``)."""
    if late is None:
        return _t(f"#{game_id} {title}: your time ran out. ", winner or "", " wins on time.")
    return _t(f"#{game_id} {title}: ", late, "'s time ran out. You win on time.")


def reminder_note(game_id: int, title: str, hours: int, due: datetime) -> Text:
    """The one reminder before a deadline."""
    return _t(
        f"Reminder: your move in #{game_id} {title} is due in about "
        f"{_plural(hours, 'hour')} ({_when(due)})."
    )


def away_note(me: Mention, until: datetime | None, game_id: int, title: str) -> Text:
    """Your opponent went away (``until``) or came back (``None``)."""
    if until is None:
        return _t(me, f" is back: their clock in #{game_id} {title} runs again.")
    return _t(me, f" is away until {_when(until)}: their clock in #{game_id} {title} is paused.")


def draw_offer_note(me: Mention, game_id: int, title: str) -> Text:
    """Your opponent offers a draw."""
    return _t(me, f" offers a draw in #{game_id} {title}.")


def draw_accepted_note(me: Mention, game_id: int, title: str) -> Text:
    """Your draw offer was accepted."""
    return _t(me, f" accepted your draw offer: #{game_id} {title} is drawn.")


def takeback_note(me: Mention, move: str, game_id: int, title: str) -> Text:
    """Your opponent asks to take back their last move."""
    return _t(me, " asks to take back ", Code(move), f" in #{game_id} {title}.")


def recap_note(game_id: int, title: str) -> Text:
    """The animated recap of a game that ended."""
    return _t(f"Recap of #{game_id} {title}.")
