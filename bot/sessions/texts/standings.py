"""Ratings and leaderboards, the bot as an opponent, finding and browsing games.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.messages import Code, Mention, Segment, Strong, Text
from bot.sessions.texts.base import _plural, _t

# -- ratings ------------------------------------------------------------------------------


def rated_terms(title: str, ratings: tuple[tuple[Mention, str], ...]) -> Text:
    """A rated challenge or game: both players' ratings in its pool (``"1500?"``)."""
    parts: list[Segment | Text] = [f" Rated ({title}): "]
    for index, (player, rating) in enumerate(ratings):
        parts += [", " if index else "", player, f" {rating}"]
    return _t(*parts, ".")


CASUAL = Text.of(" Casual game (not rated).")


def too_many_bot_games(limit: int) -> Text:
    """The limit of a player's unfinished games against the bot is reached."""
    return _t(
        f"You already have {limit} unfinished games against the bot: finish or resign one first."
    )


#: In place of a rating that is damaged in storage (on a challenge card or a board).
DAMAGED_RATING = "(damaged)"


def rating_unreadable(game_id: int, title: str) -> Text:
    """A rated game cannot end: a player's stored rating in its pool is damaged."""
    return _t(
        f"Game #{game_id} cannot end now: a player's {title} rating is damaged in storage. "
        "The game stays as it is until the bot's keeper repairs it."
    )


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
    """The first line of a leaderboard (ratings are per community: everywhere, each player's
    best one)."""
    where = "everywhere, each player's best community" if everywhere else "here"
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


def stats_scope(elsewhere: int) -> Text:
    """``stats`` of a player also rated in ``elsewhere`` other communities: which ratings
    these are."""
    return _t(
        "\nRatings are kept per server or group: these are this one's "
        f"(also rated in {elsewhere} other {'community' if elsewhere == 1 else 'communities'})."
    )


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
