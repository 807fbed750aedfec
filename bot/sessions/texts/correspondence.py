"""Correspondence play: clocks, vacations, settings, draws and takebacks, records, and
the notifications told to a player outside their own commands.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from datetime import datetime

from bot.core.i18n import BadValue
from bot.core.settings import Settings
from bot.messages import Code, Mention, Text, say
from bot.sessions.texts.base import (
    _ending,
    _games,
    _hours,
    _p,
    _pn,
    _s,
    _side,
    _t,
    _when,
    not_playing,
)

# -- correspondence -------------------------------------------------------------------------


def settings_are(settings: Settings, digest: Text) -> Text:
    """A player's notification settings (``on``/``off`` as they are typed), and the digest
    part (:func:`digest_is`, empty while it is off)."""
    quiet = settings.quiet.describe() if settings.quiet else None
    described = _p(
        "direct messages {direct}, reminders {reminders}, quiet hours {quiet}",
        direct="on" if settings.direct else "off",
        reminders="on" if settings.reminders else "off",
        quiet=quiet or _p("none"),
    )
    return _p("Your settings: {described}.", described=_t(described, digest))


def game_changed_try_again() -> Text:
    """A vacation change raced a game change."""
    return _p("One of your games changed meanwhile: try again.")


def away_needs_days() -> Text:
    """``away`` without a number."""
    return _p("away takes a number of days, e.g. {value}.", value=Code("away 5"))


def sentence(message: str) -> Text:
    """A library's message as a sentence (capital first letter, full stop)."""
    return _t(message[:1].upper() + message[1:] + ".")


def bad_value(exc: BadValue) -> Text:
    """A value a player typed that does not fit: the check's own sentence, said in the
    reader's words."""
    return say(exc.template, **exc.values)


def sentence_as_is(message: str) -> Text:
    """A library's message that is already a sentence (e.g. a settings check)."""
    return _t(message)


def away(me: Mention, until: datetime, paused: int, left_days: int) -> Text:
    """A vacation started (vacation is counted in whole days: each day begun counts)."""
    return _p(
        "{me} is away until {until}; clocks are paused ({paused} waiting on you). {left_days} of "
        "vacation left this year (each day begun counts).",
        me=me,
        until=_when(until),
        paused=_games(paused),
        left_days=_pn("{count} whole day", "{count} whole days", left_days),
    )


def not_away() -> Text:
    """``back`` while not away."""
    return _p("You are not away.")


def welcome_back(me: Mention) -> Text:
    """A vacation ended early."""
    return _p("Welcome back, {me}: your clocks run again.", me=me)


def draw_answers() -> Text:
    """``draw`` with a bad answer."""
    return _p("draw takes accept or decline, or nothing to offer one.")


def draw_already_offered(game_id: int) -> Text:
    """A second draw offer."""
    return _p("You already offered a draw in #{game_id}.", game_id=game_id)


def draw_offered(me: Mention, game_id: int, opponent: Mention) -> Text:
    """A draw offer was made."""
    return _p(
        "{me} offers a draw in #{game_id}; it stands until {opponent} moves.",
        me=me,
        game_id=game_id,
        opponent=opponent,
    )


def no_draw_offer(game_id: int) -> Text:
    """Answering a draw offer that is not there."""
    return _p("There is no draw offer in #{game_id}.", game_id=game_id)


def own_draw_offer(game_id: int, opponent: Mention) -> Text:
    """Accepting one's own draw offer."""
    return _p(
        "You offered the draw in #{game_id}: {opponent} may accept it.",
        game_id=game_id,
        opponent=opponent,
    )


def draw_declined(me: Mention, game_id: int) -> Text:
    """A draw offer was declined."""
    return _p("{me} declined the draw in #{game_id}.", me=me, game_id=game_id)


def draw_agreed(me: Mention, game_id: int) -> Text:
    """A draw offer was accepted."""
    return _p("{me} accepted the draw: #{game_id} is drawn (agreement).", me=me, game_id=game_id)


def takeback_answers() -> Text:
    """``takeback`` with a bad answer."""
    return _p("takeback takes accept or decline, or nothing to ask for one.")


def only_own_last_move(game_id: int, opponent: Mention) -> Text:
    """A takeback that is not of one's own last move."""
    return _p(
        "You can only take back your own last move in #{game_id}, before {opponent} moves.",
        game_id=game_id,
        opponent=opponent,
    )


def takeback_already_asked(move: str, game_id: int) -> Text:
    """A second takeback request."""
    return _p(
        "You already asked to take back {move} in #{game_id}.", move=Code(move), game_id=game_id
    )


def takeback_asked(me: Mention, move: str, game_id: int) -> Text:
    """A takeback was requested."""
    return _p(
        "{me} asks to take back {move} in #{game_id}.", me=me, move=Code(move), game_id=game_id
    )


def no_takeback_request(game_id: int) -> Text:
    """Answering a takeback request that is not there."""
    return _p("There is no takeback request in #{game_id}.", game_id=game_id)


def own_takeback_request(game_id: int, opponent: Mention) -> Text:
    """Allowing one's own takeback."""
    return _p(
        "You asked for the takeback in #{game_id}: {opponent} decides.",
        game_id=game_id,
        opponent=opponent,
    )


def takeback_refused(me: Mention, game_id: int) -> Text:
    """A takeback was refused."""
    return _p("{me} refused the takeback in #{game_id}.", me=me, game_id=game_id)


def taken_back(me: Mention, game_id: int, move: str | None, who: Text) -> Text:
    """A takeback was allowed."""
    undone: Text = Text.of(Code(move)) if move is not None else _p("the last move")
    return _p(
        "{me} allowed the takeback in #{game_id}: {undone} is taken back. {who} to move.",
        me=me,
        game_id=game_id,
        undone=undone,
        who=who,
    )


def no_finished_game_here() -> Text:
    """``rematch`` without a game and none to guess."""
    return _p("You have no finished game here.")


def rematch_not_player(game_id: int) -> Text:
    """A rematch asked by someone who did not play."""
    return not_playing(game_id, "rematch")


def still_going(game_id: int) -> Text:
    """A rematch of a game that has not ended."""
    return _p("#{game_id} is still going: a rematch comes after the game.", game_id=game_id)


def rematch_exists(game_id: int, new_game_id: int | None) -> Text:
    """The rematch was played already."""
    return _p(
        "The rematch of #{game_id} is already game #{new_game_id}.",
        game_id=game_id,
        new_game_id=new_game_id,
    )


def rematch_already_asked(game_id: int, challenge_id: int) -> Text:
    """A second rematch request."""
    return _p(
        "You already asked for a rematch of #{game_id}: challenge {challenge_id}.",
        game_id=game_id,
        challenge_id=challenge_id,
    )


def rematch_asked(
    me: Mention, opponent: Mention, game_id: int, title: str, challenge_id: int
) -> Text:
    """A rematch was asked for."""
    return _p(
        "{me} asks {opponent} for a rematch of #{game_id} {title} (seats swapped): challenge "
        "{challenge_id}.",
        me=me,
        opponent=opponent,
        game_id=game_id,
        title=title,
        challenge_id=challenge_id,
    )


# -- records --------------------------------------------------------------------------------


def history_head(
    game_id: int, title: str, names: tuple[Mention, Mention] | tuple[Text, Text]
) -> Text:
    """The first line of a move list (the players, with their sides)."""
    return _p(
        "#{game_id} {title}: {names_0} vs {names_1}",
        game_id=game_id,
        title=title,
        names_0=names[0],
        names_1=names[1],
    )


def history_line(number: int, move: str, player: Mention) -> Text:
    """One numbered move of a move list."""
    return _p("{number}. {move} ({player})", number=number, move=Code(move), player=player)


def no_moves_yet() -> Text:
    """A move list with no moves."""
    return _p("No moves yet.")


def cannot_import(reason: Text | str) -> Text:
    """A record that cannot be read."""
    return _p("Cannot import that record: {reason}", reason=reason)


def import_needs_two_players() -> Text:
    """A record imported against oneself."""
    return _p("The two players of an imported game must differ.")


def imported(
    title: str, game_id: int, seats: tuple[Mention, Mention], moves: int, tail: Text
) -> Text:
    """A record was stored as a game."""
    return _p(
        "Imported {title} as game #{game_id}: {seats_0} vs {seats_1}, {moves} moves. {tail}",
        title=title,
        game_id=game_id,
        seats_0=seats[0],
        seats_1=seats[1],
        moves=moves,
        tail=tail,
    )


def preview_of(game_id: int, title: str, move_number: int, who: Text, move: str) -> Text:
    """The board after a move that is not played yet (a preview)."""
    return _p(
        "#{game_id} {title}, move {move_number}: if {who} plays {move}. Nothing is played yet.",
        game_id=game_id,
        title=title,
        move_number=move_number,
        who=who,
        move=Code(move),
    )


def game_choice(game_id: int, title: str, opponent: str, your_turn: bool) -> str:
    """One active game in a short list to choose from (plain: autocompletion shows no markup)."""
    if your_turn:
        return _s(
            "#{game_id} {title} vs {opponent} (your turn)",
            game_id=game_id,
            title=title,
            opponent=opponent,
        )
    return _s("#{game_id} {title} vs {opponent}", game_id=game_id, title=title, opponent=opponent)


# -- notifications ----------------------------------------------------------------------------
# Told to a player outside their own commands.  ``challenge_id`` / ``game_id`` may be the
# store's placeholders (``"{challenge}"``, ``"{game}"``) filled in when the row is written.


def challenge_note(me: Mention, what: str | Text, challenge_id: int | str) -> Text:
    """You were challenged."""
    return _p(
        "{me} challenges you to {what}: challenge {challenge_id}.",
        me=me,
        what=what,
        challenge_id=challenge_id,
    )


def rematch_note(me: Mention, game_id: int, title: str, challenge_id: int | str) -> Text:
    """Your opponent asks for a rematch."""
    return _p(
        "{me} asks for a rematch of #{game_id} {title}: challenge {challenge_id}.",
        me=me,
        game_id=game_id,
        title=title,
        challenge_id=challenge_id,
    )


def accepted_note(me: Mention, challenge_id: int, game_id: int | str, title: str) -> Text:
    """Your challenge was accepted."""
    return _p(
        "{me} accepted challenge {challenge_id}: game #{game_id} {title}.",
        me=me,
        challenge_id=challenge_id,
        game_id=game_id,
        title=title,
    )


def first_turn_note(game_id: int | str, title: str, side_name: str) -> Text:
    """The game just started and you move first."""
    return _p(
        "Your turn in #{game_id} {title} ({side_name}).",
        game_id=game_id,
        title=title,
        side_name=_side(side_name),
    )


def declined_note(me: Mention, challenge_id: int) -> Text:
    """Your challenge was declined."""
    return _p("{me} declined challenge {challenge_id}.", me=me, challenge_id=challenge_id)


def your_turn_note(game_id: int, title: str, mover: Mention, move: str) -> Text:
    """Your opponent moved."""
    return _p(
        "Your turn in #{game_id} {title}: {mover} played {move}.",
        game_id=game_id,
        title=title,
        mover=mover,
        move=Code(move),
    )


def game_over_note(
    game_id: int, title: str, mover: Mention, move: str, you_won: bool | None, reason: str
) -> Text:
    """Your opponent's move ended the game (``you_won`` is ``None`` for a draw)."""
    what = dict(game_id=game_id, title=title, mover=mover, move=Code(move), reason=_ending(reason))
    if you_won is None:
        return _p("#{game_id} {title} is over: {mover} played {move}. Draw.", **what)
    if you_won:
        return _p("#{game_id} {title} is over: {mover} played {move}. You win ({reason}).", **what)
    return _p("#{game_id} {title} is over: {mover} played {move}. You lose ({reason}).", **what)


def resigned_note(me: Mention, game_id: int, title: str) -> Text:
    """Your opponent resigned."""
    return _p("{me} resigned #{game_id} {title}: you win.", me=me, game_id=game_id, title=title)


def aborted_note(game_id: int, title: str, late: Mention | None) -> Text:
    """The first move never came (``late`` is ``None`` when told to the late player)."""
    if late is None:
        return _p(
            "#{game_id} {title} was aborted: you did not make the first move in time.",
            game_id=game_id,
            title=title,
        )
    return _p(
        "#{game_id} {title} was aborted: {late} did not make the first move in time.",
        game_id=game_id,
        title=title,
        late=late,
    )


def timeout_note(game_id: int, title: str, late: Mention | None, winner: Mention | None) -> Text:
    """A clock ran out: told to the late player (``late`` is ``None``) or to the winner
    (``winner`` is ``None``)."""
    if late is None:
        return _p(
            "#{game_id} {title}: your time ran out. {winner} wins on time.",
            game_id=game_id,
            title=title,
            winner=winner or "",
        )
    return _p(
        "#{game_id} {title}: {late}'s time ran out. You win on time.",
        game_id=game_id,
        title=title,
        late=late,
    )


def reminder_note(game_id: int, title: str, hours: int, due: datetime) -> Text:
    """The one reminder before a deadline."""
    return _p(
        "Reminder: your move in #{game_id} {title} is due in about {hours} ({due}).",
        game_id=game_id,
        title=title,
        hours=_hours(hours),
        due=_when(due),
    )


def away_note(me: Mention, until: datetime | None, game_id: int, title: str) -> Text:
    """Your opponent went away (``until``) or came back (``None``)."""
    if until is None:
        return _p(
            "{me} is back: their clock in #{game_id} {title} runs again.",
            me=me,
            game_id=game_id,
            title=title,
        )
    return _p(
        "{me} is away until {until}: their clock in #{game_id} {title} is paused.",
        me=me,
        until=_when(until),
        game_id=game_id,
        title=title,
    )


def draw_offer_note(me: Mention, game_id: int, title: str) -> Text:
    """Your opponent offers a draw."""
    return _p("{me} offers a draw in #{game_id} {title}.", me=me, game_id=game_id, title=title)


def draw_accepted_note(me: Mention, game_id: int, title: str) -> Text:
    """Your draw offer was accepted."""
    return _p(
        "{me} accepted your draw offer: #{game_id} {title} is drawn.",
        me=me,
        game_id=game_id,
        title=title,
    )


def takeback_note(me: Mention, move: str, game_id: int, title: str) -> Text:
    """Your opponent asks to take back their last move."""
    return _p(
        "{me} asks to take back {move} in #{game_id} {title}.",
        me=me,
        move=Code(move),
        game_id=game_id,
        title=title,
    )


def recap_note(game_id: int, title: str) -> Text:
    """The animated recap of a game that ended."""
    return _p("Recap of #{game_id} {title}.", game_id=game_id, title=title)
