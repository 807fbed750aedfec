"""Challenges and moves: making, answering and closing challenges, playing and resigning.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Mention, Strong, Text
from bot.sessions.texts.base import _plural, _t

# -- challenges -----------------------------------------------------------------------------


def options_need_values() -> Text:
    """Options that are not name=value pairs."""
    return _t("Options must be given as name=value.")


def bad_first(choices: tuple[str, ...], shown_first: str) -> Text:
    """``first`` is not one of its choices."""
    return _t(f"first must be one of {', '.join(choices)}, not {shown_first!r}.")


def bad_days(choices: str) -> Text:
    """A time per move that is not offered."""
    return _t(f"Days per move must be one of {choices}.")


def other_platform_player() -> Text:
    """A challenge across platforms."""
    return _t("You can only challenge players on the same platform.")


def not_yourself() -> Text:
    """A challenge to oneself."""
    return _t("You cannot challenge yourself.")


def too_many_pending(limit: int) -> Text:
    """The pending-challenge limit is reached."""
    return _t(f"You already have {limit} pending challenges: cancel one first.")


def terms(
    title: str,
    options: str,
    first: str,
    sides: tuple[str, str],
    opener: int,
    days: float | None,
) -> str:
    """A challenge's game, options, sides and clock in words.  ``first`` is who takes seat 0
    (``me``: the challenger, ``them``, ``random``), ``sides`` the seats' sides and ``opener``
    the seat that makes the first move (Maphex: Blue opens, though Red is seat 0)."""
    clock = "no clock" if days is None else f"{_plural(days, 'day')} per move"
    if first == "random":
        who = f"sides drawn by lot, {sides[opener]} opens"
    else:
        mine = 0 if first == "me" else 1
        opens = " and opens" if mine == opener else f", {sides[opener]} opens"
        who = f"the challenger plays {sides[mine]}{opens}"
    return title + (f" ({options})" if options else "") + f"; {who}; {clock}"


def challenged(
    me: Mention, whom: Mention | str | None, what: str, challenge_id: int, hours: float
) -> Text:
    """A challenge was made (``whom`` a text: a player invited by username)."""
    return _t(
        me,
        " challenges ",
        "anyone here" if whom is None else whom,
        f" to {what}. Challenge {challenge_id} expires in {hours:g} hours.",
    )


def no_such_challenge(challenge_id: int) -> Text:
    """No challenge with that id."""
    return _t(f"There is no challenge {challenge_id}.")


def no_pending_challenge() -> Text:
    """No challenge id given and none to guess."""
    return _t("There is no pending challenge for you here.")


def which_challenge(count: int, ids: list[int]) -> Text:
    """No challenge id given and several would do (challenges are numbered without ``#``,
    which marks games)."""
    listed = ", ".join(str(i) for i in ids[:10])
    return _t(f"There are {count} pending challenges ({listed}): which one?")


def challenge_closed(challenge_id: int, status: str) -> Text:
    """The challenge was accepted, declined, cancelled ... already."""
    return _t(f"Challenge {challenge_id} was already {status}.")


def challenge_expired(challenge_id: int) -> Text:
    """The challenge's time is up."""
    return _t(f"Challenge {challenge_id} has expired.")


def challenge_elsewhere(challenge_id: int) -> Text:
    """A challenge made on another platform."""
    return _t(f"Challenge {challenge_id} was made on another platform.")


def own_open_challenge() -> Text:
    """Accepting one's own open challenge."""
    return _t("You cannot accept your own challenge: anyone else can.")


def challenge_for_other(challenge_id: int, target: Mention) -> Text:
    """A challenge addressed to someone else."""
    return _t(f"Challenge {challenge_id} is for ", target, ", not for you.")


def challenge_unreadable(challenge_id: int, reason: str) -> Text:
    """A challenge damaged in storage."""
    return _t(f"Challenge {challenge_id} cannot be read ({reason}); it has been set aside.")


def accepted(
    me: Mention,
    challenge_id: int,
    game_id: int,
    title: str,
    seats: tuple[Text, Text],
    to_move: Text,
) -> Text:
    """A challenge was accepted and its game started (``seats`` name each seat's player and
    side as "X plays Side")."""
    return _t(
        me,
        f" accepted challenge {challenge_id}: game #{game_id} {title}. ",
        seats[0],
        ", ",
        seats[1],
        ". ",
        to_move,
        " to move.",
    )


def plays(player: Mention, side_name: str) -> Text:
    """``X plays Side``."""
    return _t(player, f" plays {side_name}")


def yours_cancel_instead(challenge_id: int) -> Text:
    """Declining one's own challenge."""
    return _t(f"Challenge {challenge_id} is yours: cancel it instead.")


def not_addressed_to_you(challenge_id: int) -> Text:
    """Declining someone else's challenge."""
    return _t(f"Challenge {challenge_id} is not addressed to you.")


def no_longer_pending(challenge_id: int) -> Text:
    """The challenge closed meanwhile."""
    return _t(f"Challenge {challenge_id} is no longer pending.")


def declined(me: Mention, challenge_id: int, challenger: Mention) -> Text:
    """A challenge was declined."""
    return _t(me, f" declined challenge {challenge_id} from ", challenger, ".")


def not_yours_to_cancel(challenge_id: int) -> Text:
    """Cancelling someone else's challenge."""
    return _t(f"Challenge {challenge_id} is not yours to cancel.")


def cancelled(me: Mention, challenge_id: int) -> Text:
    """A challenge was withdrawn."""
    return _t(me, f" cancelled challenge {challenge_id}.")


# -- moves ----------------------------------------------------------------------------------


def move_is_text() -> Text:
    """A move that is not text."""
    return _t("A move is text, e.g. ", Code("e5"), ".")


def time_ran_out(game_id: int, outcome: Text) -> Text:
    """The clock ran out before the move came."""
    return _t(f"Time ran out in #{game_id}: ", outcome)


def not_your_turn(game_id: int, other: Text) -> Text:
    """Moving out of turn."""
    return _t(f"It is not your turn in #{game_id}: ", other, " is to move.")


def illegal(game_id: int, reason: str) -> Text:
    """An illegal move."""
    return _t(f"Illegal move in #{game_id}: {reason}")


def careful(move: str, game_id: int, winner: Text, reason: str) -> Text:
    """A move that would lose for its player: nothing is played until it is confirmed."""
    return _t(
        Strong("Careful:"),
        " ",
        Code(move),
        f" loses #{game_id}, ",
        winner,
        f" would win ({reason}). Nothing is played yet.",
    )


def position_changed(game_id: int, move_number: int) -> Text:
    """A move made against a position that is gone."""
    return _t(
        f"The game #{game_id} moved on: another move was stored first (it is now at move "
        f"{move_number}). Look at the board and try again."
    )


def moved(game_id: int, title: str, move_number: int, who: Text, move: str) -> Text:
    """A move was played."""
    return _t(f"#{game_id} {title}, move {move_number}: ", who, " played ", Code(move or ""), ".")


def already_played(game_id: int, title: str, move_number: int, move: str) -> Text:
    """The answer, for the player alone, to a move they had already made (a double tap, a
    retried message, a stale preview's Play it): nothing new is posted."""
    return _t(f"#{game_id} {title}, move {move_number}: you already played ", Code(move), ".")


def drawn_by(reason: str) -> Text:
    """The move drew the game."""
    return _t(f" The game is drawn ({reason}).")


def wins_by(winner: Text, reason: str) -> Text:
    """The move won (or lost) the game."""
    return _t(" ", winner, f" wins ({reason}).")


def to_move(who: Text) -> Text:
    """Whose turn it is, after a sentence."""
    return _t(" ", who, " to move.")


def already_over(game_id: int) -> Text:
    """Resigning a finished game."""
    return _t(f"#{game_id} is already over.")


def resigned(me: Mention, game_id: int, winner: Text) -> Text:
    """A player resigned."""
    return _t(me, f" resigned #{game_id}: ", winner, " wins (resignation).")


def really_resign(game_id: int) -> Text:
    """The question before resigning."""
    return _t(f"Really resign #{game_id}?")
