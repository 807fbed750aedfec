"""Every sentence the sessions say to players, in one place so wording is reviewed and changed
here.

Each function returns a :class:`~bot.messages.Text`: players are :class:`~bot.messages.Mention`
segments (each platform mentions and escapes them its own way), moves and notation are
:class:`~bot.messages.Code` spans.  Nothing here says how to type or press anything: that is each
adapter's business (see :mod:`bot.adapters.commands` for the typed forms).

>>> ada = Mention("console", "ada", "Ada")
>>> str(declined(ada, 4, Mention("console", "bo", "Bo")))
'Ada declined challenge 4 from Bo.'
>>> [type(s).__name__ for s in moved(3, "Maphex", 1, side(ada, "Red"), "e5").segments]
['str', 'Mention', 'str', 'Code', 'str']
"""

from __future__ import annotations

from datetime import datetime

from bot.core.status import GameResult, GameStatus
from bot.messages import Code, Mention, Segment, Strong, Text

__all__ = [
    "NOT_MY_BUTTON",
    "side",
]

#: A button id that is not one of ours (or from a version that no longer exists).
NOT_MY_BUTTON = Text.of("That button is not one of mine (or is too old).")


def _t(*parts: Segment | Text) -> Text:
    return Text.of(*parts)


def _when(moment: datetime) -> str:
    return f"{moment:%Y-%m-%d %H:%M} UTC"


def _plural(count: int | float, word: str) -> str:
    return f"{count:g} {word}{'s' if count != 1 else ''}"


def _ids(ids: list[int] | tuple[int, ...]) -> str:
    return ", ".join(f"#{i}" for i in ids[:10])


# -- players and results ------------------------------------------------------------------


def side(player: Mention, side_name: str) -> Text:
    """A player with the side they play, e.g. ``Ada (Red)``."""
    return _t(player, f" ({side_name})")


def result(
    game_id: int, result: GameResult | None, reason: str | None, winner: Text | None
) -> Text:
    """How a finished game ended: ``result`` is the stored result (win, draw, none)."""
    if result == GameResult.DRAW:
        return _t(f"#{game_id} is drawn ({reason}).")
    if result == GameResult.NONE:
        return _t(f"#{game_id} was aborted ({reason}).")
    if winner is None:
        return _t(f"#{game_id} is over ({reason}).")
    return _t(winner, f" wins #{game_id} ({reason}).")


# -- refusals shared by several commands -------------------------------------------------


def no_such(what: str, shown_id: str) -> Text:
    """There is no game (challenge) with that id (``#`` marks games only)."""
    return _t(f"There is no {what} {'#' if what == 'game' else ''}{shown_id}.")


def no_such_game_name(shown_name: str, games: list[str]) -> Text:
    """A game name that is not one of ours."""
    return _t(f"There is no game {shown_name!r}: choose one of {', '.join(games)}.")


def set_aside(game_id: int) -> Text:
    """A game damaged in storage."""
    return _t(f"Game #{game_id} is damaged in storage and has been set aside.")


def cannot_be_read(game_id: int, reason: str) -> Text:
    """A game found damaged just now."""
    return _t(
        f"Game #{game_id} cannot be read (damaged in storage: {reason}); it has been set aside."
    )


#: The answer when the database stayed locked longer than the busy timeout.
BUSY = Text.of("The database is busy, try again.")


def row_unreadable(table: str, row_id: object) -> Text:
    """A stored row that cannot be read: a game or challenge is set aside, anything else is
    only reported."""
    what = {"games": "Game #", "challenges": "Challenge "}.get(table)
    if what is None:
        return _t(f"Something stored cannot be read ({table} #{row_id}).")
    return _t(f"{what}{row_id} cannot be read (damaged in storage); it has been set aside.")


def player_missing(player_id: int) -> Text:
    """A game names a player the store does not have."""
    return _t(f"player {player_id} is missing from the database")


def no_active_game_here() -> Text:
    """No game id given and none to guess (the adapter says how to name one)."""
    return _t("You have no active game here.")


def which_game(count: int, ids: list[int]) -> Text:
    """No game id given and several would do."""
    return _t(f"You have {count} active games here ({_ids(ids)}): which one?")


def changed_meanwhile(game_id: int | None = None) -> Text:
    """The game changed between reading and writing it."""
    if game_id is None:
        return _t("The game moved on meanwhile: look at it and try again.")
    return _t(f"The game #{game_id} moved on meanwhile: look at it and try again.")


def not_playing(game_id: int, what: str | None = None) -> Text:
    """Only a game's players may do this."""
    if what is None:
        return _t(f"You are not playing in #{game_id}.")
    return _t(f"You are not playing in #{game_id}: only its players can {what}.")


def is_over(game_id: int, outcome: Text) -> Text:
    """The game has ended already."""
    return _t(f"#{game_id} is over: ", outcome)


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


# -- looking --------------------------------------------------------------------------------


def board_head(
    game_id: int, title: str, seats: tuple[Text, Text], plies: int, tail: Text, over: bool = False
) -> Text:
    """The line above a board after ``plies`` moves: the move to make, or once the game is
    over how many moves it took (as the picture's description says it)."""
    when = f"after {_plural(plies, 'move')}" if over else f"move {plies + 1}"
    return _t(f"#{game_id} {title}: ", seats[0], " vs ", seats[1], f", {when}. ", tail)


def to_move_line(who: Text) -> Text:
    """Whose turn it is, as a sentence."""
    return _t(who, " to move.")


def game_line(game_id: int, title: str, other: Mention, state: Text) -> Text:
    """One game in a player's list."""
    return _t(f"#{game_id} {title} vs ", other, ": ", state)


def your_turn_state(move_number: int) -> Text:
    """A listed game waiting on the player."""
    return _t(f"your turn (move {move_number})")


def their_turn_state(other: Mention, move_number: int) -> Text:
    """A listed game waiting on the opponent."""
    return _t(other, f" to move (move {move_number})")


def finished_state(
    status: GameStatus, result: GameResult | None, reason: str | None, won: bool
) -> Text:
    """How a listed finished game ended, for the player."""
    if status == GameStatus.CORRUPT:
        return _t("damaged, set aside")
    if result == GameResult.DRAW:
        return _t(f"draw ({reason})")
    if result == GameResult.NONE:
        return _t(f"aborted ({reason})")
    return _t(f"{'won' if won else 'lost'} ({reason})")


def bad_page() -> Text:
    """A page of the game list that is not a whole number from 1."""
    return _t("A page of your games is a whole number from 1, e.g. 2.")


def no_such_page(page: int, pages: int) -> Text:
    """A page of the game list past the last one."""
    return _t(f"There is no page {page} of your games (there are {pages}).")


def page_of(page: int, pages: int) -> Text:
    """The last line of a page of the game list."""
    return _t(f"Finished games, page {page} of {pages}.")


def no_games_yet() -> Text:
    """An empty game list."""
    return _t("You have no games yet: challenge someone!")


def rules_missing(title: str) -> Text:
    """A rules file that cannot be read."""
    return _t(f"The rules of {title} are not available.")


def rules(markdown: str) -> Text:
    """A rules page (Markdown) as text: ``**bold**`` becomes emphasis, backticks notation and
    headings emphasised lines, so no platform shows the marks themselves.

    >>> rules("# Maphex\\n\\nPlay **one** disc: `e5`.").segments
    (Strong(text='Maphex'), '\\n\\nPlay ', Strong(text='one'), ' disc: ', Code(text='e5'), '.')

    A table becomes one line per row, its first cell before a colon (no pipes):

    >>> str(rules("| row | cells |\\n|---|---|\\n| a | a1, a2 |"))
    'row: cells\\na: a1, a2'
    """
    out: list[Segment | Text] = []
    lines = [_table_row(line) for line in markdown.strip().split("\n")]
    for number, line in enumerate(line for line in lines if line is not None):
        if number:
            out.append("\n")
        heading = line.lstrip("#")
        if heading != line and heading.startswith(" "):
            out.append(Strong(heading.strip()))
            continue
        out.append(_inline(line))
    return _t(*out)


def _table_row(line: str) -> str | None:
    # A Markdown table row as "first: rest"; ``None`` for the |---| line under the header.
    if not line.startswith("|"):
        return line
    cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
    if all(set(cell) <= set(":-") for cell in cells):
        return None
    return f"{cells[0]}: {'; '.join(cells[1:])}" if len(cells) > 1 else cells[0]


def _inline(line: str) -> Text:
    # `code` first (it may hold asterisks), then **strong**; a single *emphasis* keeps its words.
    out: list[Segment | Text] = []
    for i, part in enumerate(line.split("`")):
        if i % 2 and i < len(line.split("`")) - 1:
            out.append(Code(part))
            continue
        for j, bit in enumerate(part.split("**")):
            out.append(Strong(bit) if j % 2 and bit else bit.replace("*", ""))
    return _t(*out)


#: What players can do, without saying how (each adapter lists its own commands or buttons).
HELP = Text.of(
    "What you can do here: challenge a player (or anyone here) to a game; accept, decline or "
    "cancel a challenge; move; look at a game's board, its moves or its plain-text record; "
    "resign; offer or answer a draw; ask for or answer a takeback; ask for a rematch; go away "
    "on vacation (your clocks stop) and come back; change your notification settings; list "
    "your games; read the rules of a game."
)


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


# -- ratings ------------------------------------------------------------------------------


def rated_terms(title: str, ratings: tuple[tuple[Mention, str], ...]) -> Text:
    """A rated challenge or game: both players' ratings in its pool (``"1500?"``)."""
    parts: list[Segment | Text] = [f" Rated ({title}): "]
    for index, (player, rating) in enumerate(ratings):
        parts += [", " if index else "", player, f" {rating}"]
    return _t(*parts, ".")


CASUAL = Text.of(" Casual game (not rated).")


def rating_changes(title: str, changes: tuple[tuple[Mention, str], ...]) -> Text:
    """How each rating changed when a rated game ended (``"1500? → 1579? (+79)"``)."""
    parts: list[Segment | Text] = [f" Ratings ({title}): "]
    for index, (player, change) in enumerate(changes):
        parts += [", " if index else "", player, f" {change}"]
    return _t(*parts, ".")


def bad_rated(shown_value: str) -> Text:
    """``rated=`` takes yes or no."""
    return _t(f"rated={shown_value}? Use rated=yes (the default) or rated=no for a casual game.")


def no_pool(message: str) -> Text:
    """``leaderboard`` named no game or pool."""
    return _t(f"{message}.")


def leaderboard_head(title: str, everywhere: bool) -> Text:
    """The first line of a leaderboard."""
    where = "everywhere" if everywhere else "here"
    return _t(Strong(f"{title} leaderboard ({where})"))


def leaderboard_line(rank: int, name: str, rating: str, games: int) -> Text:
    """One player of a leaderboard (names are not mentions: nobody is pinged)."""
    return _t(f"\n{rank}. {name} {rating} ({_plural(games, 'game')})")


def leaderboard_empty(title: str, everywhere: bool) -> Text:
    """Nobody has a rating in the pool yet."""
    where = "" if everywhere else " here"
    return _t(f"No rated {title} games{where} yet.")


PROVISIONAL_NOTE = Text.of("\n? = provisional (fewer than 10 rated games).")


def unknown_player(name: str) -> Text:
    """``stats`` named someone who never played."""
    return _t(f"{name} has not played here yet.")


def stats_head(player: Mention) -> Text:
    """The first line of ``stats``."""
    return _t(Strong("Stats of "), player)


def stats_pool(title: str, rating: str | None, record: str) -> Text:
    """One game (pool) of ``stats``: the rating (``None``: not rated yet) and the record."""
    shown_rating = "unrated" if rating is None else rating
    return _t(f"\n{title}: {shown_rating}, {record}")


def stats_nothing() -> Text:
    """``stats`` of a player without finished games."""
    return _t("\nNo finished games yet.")


def stats_streak(streak: str) -> Text:
    """The current streak line of ``stats``."""
    return _t(f"\nCurrent streak: {streak}")


def stats_head_to_head(asker: Mention, record: str) -> Text:
    """The record of the player against the asker."""
    return _t("\nAgainst ", asker, f": {record}")


def chart_alt(title: str, points: int, latest: str) -> str:
    """The description of the rating chart."""
    return f"Rating in {title} over {_plural(points, 'rated game')}, now {latest}."


# -- the bot as opponent ------------------------------------------------------------------

#: The name of Hexhall's own player, the computer opponent.
BOT_NAME = "Hexhall bot"


def bad_level(shown_value: str, levels: list[str]) -> Text:
    """A level of the bot that does not exist."""
    return _t(f"There is no level {shown_value}: choose {', '.join(levels)}.")


def bot_game_started(
    game_id: int, title: str, level: str, seats: tuple[Text, Text], to_move: Text
) -> Text:
    """A game against the bot started (``seats`` as "X plays Side")."""
    return _t(
        f"Game #{game_id} {title} against the bot ({level}) starts: ",
        seats[0],
        ", ",
        seats[1],
        ". ",
        to_move,
        " to move.",
    )


def bot_thinking(bot: Mention) -> Text:
    """Said after a move that makes the bot's turn."""
    return _t(" ", bot, " is thinking: its move comes as a message.")


def bot_declines_draw(bot: Mention, game_id: int) -> Text:
    """A draw offered to the bot."""
    return _t(bot, f" declines the draw in #{game_id}: it plays on (you may resign).")


def bot_no_takeback(game_id: int) -> Text:
    """A takeback against the bot before the player has moved."""
    return _t(f"You have no move to take back in #{game_id}.")


def bot_taken_back(
    me: Mention, game_id: int, move: str, reply: tuple[Mention, str] | None, who: Text
) -> Text:
    """A takeback against the bot: the player's last move and the bot's ``reply`` to it."""
    if reply is None:
        return _t(me, " took back ", Code(move), f" in #{game_id}. ", who, " to move.")
    bot, answer = reply
    return _t(
        me,
        " took back ",
        Code(move),
        " and ",
        bot,
        "'s reply ",
        Code(answer),
        f" in #{game_id}. ",
        who,
        " to move.",
    )


# -- finding games and browsing ---------------------------------------------------------------


def time_left(left_seconds: float) -> str:
    """The time the player to move has left, as shown on a board (``"2 days 4 h left"``).

    >>> time_left(2 * 86400 + 4 * 3600 + 59), time_left(3000), time_left(-5)
    ('2 days 4 h left', '50 min left', 'time is up')
    """
    if left_seconds <= 0:
        return "time is up"
    minutes = int(left_seconds // 60)
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return f"{_plural(days, 'day')}" + (f" {hours} h" if hours else "") + " left"
    if hours:
        return f"{hours} h" + (f" {mins} min" if mins else "") + " left"
    return f"{max(mins, 1)} min left"


# -- hardening --------------------------------------------------------------------------------


def not_an_id(word: str) -> Text:
    """A typed ``#...`` that is not a game or challenge id (``word`` already cut)."""
    return _t(f"{word!r} is not an id: an id is # and digits 0-9, e.g. #12.")


def page_usage(word: str) -> Text:
    """``games`` with something that is not a page number (``word`` already cut)."""
    return _t(f"{word!r} is not a page: games [page], e.g. games 2.")


def bad_argument(name: str, expected: str) -> Text:
    """A caller (an adapter) passed a value of the wrong kind: the request is refused."""
    return _t(f"That request is malformed: {name} must be {expected}.")


def id_too_long(limit: int) -> Text:
    """A platform user or chat id longer than any platform makes."""
    return _t(f"That player cannot be used: their id is longer than {limit} characters.")


def game_damaged(game_id: int, reason: str) -> Text:
    """A game found damaged while answering (``reason`` already cut): it is set aside."""
    return _t(f"Game #{game_id} is damaged in storage ({reason}) and has been set aside.")


def damaged_game_here(game_id: int) -> Text:
    """A request with no id when the player's only game here has been set aside."""
    return _t(
        f"Your game here, #{game_id}, is damaged in storage and has been set aside; "
        "it cannot be played."
    )


def same_challenge_pending(challenge_id: int) -> Text:
    """A challenge that repeats one still pending (the same opponent, game and terms)."""
    return _t(f"You already made that challenge: challenge {challenge_id} is still pending.")


def move_list(moves: list[str], per_line: int = 5) -> list[Text]:
    """A game's moves as players read them: numbered in pairs (the first side's move, then
    the answer), ``per_line`` pairs to a line.

    >>> [str(t) for t in move_list(["e5", "d4", "c3"])]
    ['1. e5 d4  2. c3']
    """
    pairs = [moves[i : i + 2] for i in range(0, len(moves), 2)]
    lines: list[Text] = []
    for start in range(0, len(pairs), per_line):
        parts: list[Segment | Text] = []
        for number, pair in enumerate(pairs[start : start + per_line], start + 1):
            parts += ["  " if parts else "", f"{number}. ", Code(pair[0])]
            parts += [" ", Code(pair[1])] if len(pair) > 1 else []
        lines.append(_t(*parts))
    return lines


def your_turn_due(move_number: int, left: str | None) -> Text:
    """A listed game waiting on the player, with the time left when there is a clock."""
    return _t(f"your turn (move {move_number}" + (f", {left})" if left else ")"))


def challenge_sent_line(challenge_id: int, title: str, target: Mention | str | None) -> Text:
    """A pending challenge the player made, in their list (``None``: open to anyone; a text:
    a player invited by username)."""
    whom: Segment | Text = "anyone here" if target is None else target
    return _t(f"challenge {challenge_id}: {title} to ", whom, ", waiting for an answer")


def challenge_received_line(challenge_id: int, title: str, challenger: Mention) -> Text:
    """A pending challenge to the player (or open to them), in their list."""
    return _t(
        f"challenge {challenge_id}: {title} from ", challenger, ", yours to accept or decline"
    )


#: The labels of the buttons that step through a game: first, previous, next, last.
STEP_LABELS = ("⏮ First", "◀ Previous", "Next ▶", "Last ⏭")


def browse_head(
    game_id: int, title: str, ply: int, last: int, mover: Text | None, move: str | None
) -> Text:
    """The line above a position shown while stepping through a game."""
    where = "start position" if ply == 0 else f"after move {ply}"
    head = _t(f"#{game_id} {title}, {where} of {last}")
    if mover is None or move is None:
        return head + "."
    return _t(head, ": ", mover, " played ", Code(move), ".")


def no_such_position(game_id: int, last: int) -> Text:
    """A step to a position the game does not have."""
    return _t(f"#{game_id} has positions 0 (the start) to {last}: choose one of them.")


def damaged_line(game_id: int, title: str) -> Text:
    """A game in a player's list that is set aside as damaged."""
    return _t(f"#{game_id} {title}: damaged, set aside")


#: The label of the button that starts stepping through a game.
STEP_THROUGH = "Step through"


# -- posts and platforms ------------------------------------------------------------------


def challenge_expired_note(challenger: Mention, challenge_id: int, title: str) -> Text:
    """A challenge nobody accepted in time (the card is edited to say so)."""
    return _t(challenger, f"'s challenge #{challenge_id} ({title}) expired: nobody accepted it.")


# -- discord ----------------------------------------------------------------------------------


def level_is_for_the_bot() -> Text:
    """A Discord /challenge with a level and a person as the opponent: a level means playing
    the bot."""
    return _t("A level is for a game against me: leave out the opponent (or pick me).")


# -- telegram ---------------------------------------------------------------------------------


def invited_handle(handle: str) -> str:
    """How a challenge names a player invited by username (their id not known yet)."""
    return f"@{handle}"


def bad_handle(typed: str) -> Text:
    """An invitation by a username that cannot be one."""
    return _t(f"{typed!r} is not a username: up to 32 letters, digits and _.")


def challenge_for_handle(challenge_id: int, handle: str) -> Text:
    """A challenge to a username, pressed or accepted by someone else."""
    return _t(f"Challenge {challenge_id} is for @{handle}, not for you.")


def not_met(handle: str) -> Text:
    """A command naming a player by a username this bot cannot look up (Telegram has no
    look-up by username)."""
    return _t(
        f"I have not met @{handle} yet: ask them to send me a message, or reply to one of "
        "theirs with the command."
    )
