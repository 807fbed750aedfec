"""Challenges and moves: making, answering and closing challenges, playing and resigning.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Mention, Strong, Text
from bot.sessions.texts.base import N_, _days, _ending, _p, _s, _side
from engines import OptionError

#: A closed challenge's status, as the store keeps it.
_STATUSES = frozenset({N_("accepted"), N_("declined"), N_("cancelled"), N_("expired")})

# -- challenges -----------------------------------------------------------------------------


def option_refused(exc: OptionError) -> Text:
    """A game's option that does not exist, or a value the option does not take (a part of
    a sentence, as ``bad option: ...`` in a record shows it)."""
    allowed = ", ".join(exc.allowed)
    if exc.value is not None:
        return _p(
            "option {name} must be one of {allowed}, not {value}",
            name=exc.name,
            allowed=allowed,
            value=repr(exc.value),
        )
    if not exc.allowed:
        return _p("{game} takes no options (not {name})", game=exc.game, name=repr(exc.name))
    return _p(
        "{game} has no option {name} (options: {allowed})",
        game=exc.game,
        name=repr(exc.name),
        allowed=allowed,
    )


def options_need_values() -> Text:
    """Options that are not name=value pairs."""
    return _p("Options must be given as name=value.")


def bad_first(choices: tuple[str, ...], shown_first: str) -> Text:
    """``first`` is not one of its choices."""
    return _p(
        "first must be one of {choices}, not {shown_first}.",
        choices=", ".join(choices),
        shown_first=f"{shown_first!r}",
    )


def bad_days(choices: str) -> Text:
    """A time per move that is not offered."""
    return _p("Days per move must be one of {choices}.", choices=choices)


def bad_time_control(allowed: str, value: str) -> Text:
    """A time per move typed (or in a record) that is not one of ``allowed``."""
    return _p("time per move must be one of {allowed}, not {value}.", allowed=allowed, value=value)


def other_platform_player() -> Text:
    """A challenge across platforms."""
    return _p("You can only challenge players on the same platform.")


def not_yourself() -> Text:
    """A challenge to oneself."""
    return _p("You cannot challenge yourself.")


def too_many_pending(limit: int) -> Text:
    """The pending-challenge limit is reached."""
    return _p("You already have {limit} pending challenges: cancel one first.", limit=limit)


def terms(
    title: str,
    options: str,
    first: str,
    sides: tuple[str, str],
    opener: int,
    days: float | None,
) -> Text:
    """A challenge's game, options, sides and clock in words.  ``first`` is who takes seat 0
    (``me``: the challenger, ``them``, ``random``), ``sides`` the seats' sides and ``opener``
    the seat that makes the first move (Maphex: Blue opens, though Red is seat 0)."""
    clock = _p("no clock") if days is None else _p("{days} per move", days=_days(days))
    if first == "random":
        who = _p("sides drawn by lot, {side} opens", side=_side(sides[opener]))
    else:
        mine = 0 if first == "me" else 1
        if mine == opener:
            who = _p("the challenger plays {side} and opens", side=_side(sides[mine]))
        else:
            who = _p(
                "the challenger plays {side}, {opener} opens",
                side=_side(sides[mine]),
                opener=_side(sides[opener]),
            )
    head: Text | str = f"{title} ({options})" if options else title
    return Text.join((Text.of(head), who, clock), "; ")


def challenged(
    me: Mention,
    whom: Mention | str | None,
    what: str | Text,
    challenge_id: int,
    hours: float,
) -> Text:
    """A challenge was made (``whom`` a text: a player invited by username)."""
    return _p(
        "{me} challenges {whom} to {what}. Challenge {challenge_id} expires in {hours} hours.",
        me=me,
        whom=_p("anyone here") if whom is None else whom,
        what=what,
        challenge_id=challenge_id,
        hours=hours,
    )


def no_such_challenge(challenge_id: int) -> Text:
    """No challenge with that id."""
    return _p("There is no challenge {challenge_id}.", challenge_id=challenge_id)


def no_pending_challenge() -> Text:
    """No challenge id given and none to guess."""
    return _p("There is no pending challenge for you here.")


def which_challenge(count: int, ids: list[int]) -> Text:
    """No challenge id given and several would do (challenges are numbered without ``#``,
    which marks games)."""
    listed = ", ".join(str(i) for i in ids[:10])
    return _p(
        "There are {count} pending challenges ({listed}): which one?", count=count, listed=listed
    )


def challenge_closed(challenge_id: int, status: str) -> Text:
    """The challenge was accepted, declined, cancelled ... already."""
    return _p(
        "Challenge {challenge_id} was already {status}.",
        challenge_id=challenge_id,
        status=_p(status) if status in _STATUSES else status,
    )


def challenge_expired(challenge_id: int) -> Text:
    """The challenge's time is up."""
    return _p("Challenge {challenge_id} has expired.", challenge_id=challenge_id)


def challenge_elsewhere(challenge_id: int) -> Text:
    """A challenge made on another platform."""
    return _p("Challenge {challenge_id} was made on another platform.", challenge_id=challenge_id)


def own_open_challenge() -> Text:
    """Accepting one's own open challenge."""
    return _p("You cannot accept your own challenge: anyone else can.")


def challenge_for_other(challenge_id: int, target: Mention) -> Text:
    """A challenge addressed to someone else."""
    return _p(
        "Challenge {challenge_id} is for {target}, not for you.",
        challenge_id=challenge_id,
        target=target,
    )


def challenge_unreadable(challenge_id: int, reason: str) -> Text:
    """A challenge damaged in storage."""
    return _p(
        "Challenge {challenge_id} cannot be read ({reason}); it has been set aside.",
        challenge_id=challenge_id,
        reason=reason,
    )


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
    return _p(
        "{me} accepted challenge {challenge_id}: game #{game_id} {title}. {seats_0}, {seats_1}. "
        "{to_move} to move.",
        me=me,
        challenge_id=challenge_id,
        game_id=game_id,
        title=title,
        seats_0=seats[0],
        seats_1=seats[1],
        to_move=to_move,
    )


def plays(player: Mention, side_name: str) -> Text:
    """``X plays Side``."""
    return _p("{player} plays {side_name}", player=player, side_name=_side(side_name))


def yours_cancel_instead(challenge_id: int) -> Text:
    """Declining one's own challenge."""
    return _p("Challenge {challenge_id} is yours: cancel it instead.", challenge_id=challenge_id)


def not_addressed_to_you(challenge_id: int) -> Text:
    """Declining someone else's challenge."""
    return _p("Challenge {challenge_id} is not addressed to you.", challenge_id=challenge_id)


def no_longer_pending(challenge_id: int) -> Text:
    """The challenge closed meanwhile."""
    return _p("Challenge {challenge_id} is no longer pending.", challenge_id=challenge_id)


def declined(me: Mention, challenge_id: int, challenger: Mention) -> Text:
    """A challenge was declined."""
    return _p(
        "{me} declined challenge {challenge_id} from {challenger}.",
        me=me,
        challenge_id=challenge_id,
        challenger=challenger,
    )


def not_yours_to_cancel(challenge_id: int) -> Text:
    """Cancelling someone else's challenge."""
    return _p("Challenge {challenge_id} is not yours to cancel.", challenge_id=challenge_id)


def cancelled(me: Mention, challenge_id: int) -> Text:
    """A challenge was withdrawn."""
    return _p("{me} cancelled challenge {challenge_id}.", me=me, challenge_id=challenge_id)


# -- moves ----------------------------------------------------------------------------------


def move_is_text() -> Text:
    """A move that is not text."""
    return _p("A move is text, e.g. {value}.", value=Code("e5"))


def time_ran_out(game_id: int, outcome: Text) -> Text:
    """The clock ran out before the move came."""
    return _p("Time ran out in #{game_id}: {outcome}", game_id=game_id, outcome=outcome)


def not_your_turn(game_id: int, other: Text) -> Text:
    """Moving out of turn."""
    return _p(
        "It is not your turn in #{game_id}: {other} is to move.", game_id=game_id, other=other
    )


def illegal(game_id: int, reason: str | Text) -> Text:
    """An illegal move (``reason``: :func:`~bot.sessions.texts.illegal.illegal_said`)."""
    return _p("Illegal move in #{game_id}: {reason}", game_id=game_id, reason=reason)


def careful(move: str, game_id: int, winner: Text, reason: str) -> Text:
    """A move that would lose for its player: nothing is played until it is confirmed."""
    careful_ = Strong(_s("Careful:"))
    return _p(
        "{value} {move} loses #{game_id}, {winner} would win ({reason}). Nothing is played yet.",
        value=careful_,
        move=Code(move),
        game_id=game_id,
        winner=winner,
        reason=_ending(reason),
    )


def position_changed(game_id: int, move_number: int) -> Text:
    """A move made against a position that is gone."""
    return _p(
        "The game #{game_id} moved on: another move was stored first (it is now at move "
        "{move_number}). Look at the board and try again.",
        game_id=game_id,
        move_number=move_number,
    )


def moved(game_id: int, title: str, move_number: int, who: Text, move: str) -> Text:
    """A move was played."""
    return _p(
        "#{game_id} {title}, move {move_number}: {who} played {move}.",
        game_id=game_id,
        title=title,
        move_number=move_number,
        who=who,
        move=Code(move or ""),
    )


def already_played(game_id: int, title: str, move_number: int, move: str) -> Text:
    """The answer, for the player alone, to a move they had already made (a double tap, a
    retried message, a stale preview's Play it): nothing new is posted."""
    return _p(
        "#{game_id} {title}, move {move_number}: you already played {move}.",
        game_id=game_id,
        title=title,
        move_number=move_number,
        move=Code(move),
    )


def drawn_by(reason: str) -> Text:
    """The move drew the game."""
    return _p(" The game is drawn ({reason}).", reason=_ending(reason))


def wins_by(winner: Text, reason: str) -> Text:
    """The move won (or lost) the game."""
    return _p(" {winner} wins ({reason}).", winner=winner, reason=_ending(reason))


def to_move(who: Text) -> Text:
    """Whose turn it is, after a sentence."""
    return _p(" {who} to move.", who=who)


def already_over(game_id: int) -> Text:
    """Resigning a finished game."""
    return _p("#{game_id} is already over.", game_id=game_id)


def resigned(me: Mention, game_id: int, winner: Text) -> Text:
    """A player resigned."""
    return _p(
        "{me} resigned #{game_id}: {winner} wins (resignation).",
        me=me,
        game_id=game_id,
        winner=winner,
    )


def really_resign(game_id: int) -> Text:
    """The question before resigning."""
    return _p("Really resign #{game_id}?", game_id=game_id)
