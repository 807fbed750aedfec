"""Ratings and leaderboards, the bot as an opponent, finding and browsing games.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from datetime import timedelta

from bot.core import i18n
from bot.messages import Code, Mention, Strong, Text
from bot.sessions.texts.base import (
    N_,
    _games,
    _p,
    _pn,
    _s,
    _sn,
)

# -- ratings ------------------------------------------------------------------------------


def rated_terms(title: str, ratings: tuple[tuple[Mention, str], ...]) -> Text:
    """A rated challenge or game: both players' ratings in its pool (``"1500?"``)."""
    listed = Text.join((Text.of(player, f" {rating}") for player, rating in ratings), ", ")
    return _p(" Rated ({title}): {ratings}.", title=title, ratings=listed)


CASUAL = _p(" Casual game (not rated).")


def too_many_bot_games(limit: int) -> Text:
    """The limit of a player's unfinished games against the bot is reached."""
    return _p(
        "You already have {limit} unfinished games against the bot: finish or resign one first.",
        limit=limit,
    )


#: In place of a rating that is damaged in storage (on a challenge card or a board).
DAMAGED_RATING = N_("(damaged)")


def rating_unreadable(game_id: int, title: str) -> Text:
    """A rated game cannot end: a player's stored rating in its pool is damaged."""
    return _p(
        "Game #{game_id} cannot end now: a player's {title} rating is damaged in storage. The "
        "game stays as it is until the bot's keeper repairs it.",
        game_id=game_id,
        title=title,
    )


def rating_changes(title: str, changes: tuple[tuple[Mention, str], ...]) -> Text:
    """How each rating changed when a rated game ended (``"1500? → 1579? (+79)"``)."""
    listed = Text.join((Text.of(player, f" {change}") for player, change in changes), ", ")
    return _p(" Ratings ({title}): {changes}.", title=title, changes=listed)


def bad_rated(shown_value: str) -> Text:
    """``rated=`` takes yes or no."""
    return _p(
        "rated={shown_value}? Use rated=yes (the default) or rated=no for a casual game.",
        shown_value=shown_value,
    )


def no_pool(message: str) -> Text:
    """``leaderboard`` named no game or pool."""
    return _p("{message}.", message=message)


def leaderboard_head(title: str, everywhere: bool) -> Text:
    """The first line of a leaderboard (ratings are per community: everywhere, each player's
    best one)."""
    if everywhere:
        return Text.of(
            Strong(
                _s("{title} leaderboard (everywhere, each player's best community)", title=title)
            )
        )
    return Text.of(Strong(_s("{title} leaderboard (here)", title=title)))


def leaderboard_line(rank: int, name: str, rating: str, games: int) -> Text:
    """One player of a leaderboard (names are not mentions: nobody is pinged)."""
    return _p(
        "\n{rank}. {name} {rating} ({games})",
        rank=rank,
        name=name,
        rating=rating,
        games=_games(games),
    )


def leaderboard_empty(title: str, everywhere: bool) -> Text:
    """Nobody has a rating in the pool yet."""
    if everywhere:
        return _p("No rated {title} games yet.", title=title)
    return _p("No rated {title} games here yet.", title=title)


PROVISIONAL_NOTE = _p("\n? = provisional (fewer than 10 rated games).")


def unknown_player(name: str) -> Text:
    """``stats`` named someone who never played."""
    return _p("{name} has not played here yet.", name=name)


def stats_head(player: Mention) -> Text:
    """The first line of ``stats``."""
    stats = Strong(_s("Stats of"))
    return _p("{stats} {player}", stats=stats, player=player)


def stats_pool(title: str, rating: str | None, record: str) -> Text:
    """One game (pool) of ``stats``: the rating (``None``: not rated yet) and the record."""
    shown_rating = _p("unrated") if rating is None else rating
    return _p(
        "\n{title}: {shown_rating}, {record}", title=title, shown_rating=shown_rating, record=record
    )


def stats_scope(elsewhere: int) -> Text:
    """``stats`` of a player also rated in ``elsewhere`` other communities: which ratings
    these are."""
    return _p(
        "\nRatings are kept per server or group: these are this one's (also rated in {elsewhere} "
        "other {value}).",
        elsewhere=elsewhere,
        value=_pn("community", "communities", elsewhere),
    )


def stats_nothing() -> Text:
    """``stats`` of a player without finished games."""
    return _p("\nNo finished games yet.")


def stats_streak(streak: str) -> Text:
    """The current streak line of ``stats``."""
    return _p("\nCurrent streak: {streak}", streak=streak)


def stats_head_to_head(asker: Mention, record: str) -> Text:
    """The record of the player against the asker."""
    return _p("\nAgainst {asker}: {record}", asker=asker, record=record)


def chart_alt(title: str, points: int, latest: str) -> str:
    """The description of the rating chart."""
    return _sn(
        "Rating in {title} over {count} rated game, now {latest}.",
        "Rating in {title} over {count} rated games, now {latest}.",
        points,
        title=title,
        latest=latest,
    )


# -- the bot as opponent ------------------------------------------------------------------

#: The name of Hexhall's own player, the computer opponent.
BOT_NAME = "Hexhall bot"


def bot_levels_head() -> Text:
    """``challenge bot`` without a game: how to play the bot, before its levels' ratings."""
    return _p(
        "Play me: {usage}. My levels, rated as players are (first measured in games between "
        "the levels and reference players; each game against me then moves the rating of its "
        "level, never yours):",
        usage=Code("challenge bot <game> [level=easy|normal|hard]"),
    )


def levels_pool(title: str, levels: Text) -> Text:
    """One pool's line of the bot's levels: ``levels`` are :func:`level_rating` and the like,
    joined."""
    return _p("\n{title}: {levels}", title=title, levels=levels)


def level_rating(level: str, rating: str) -> Text:
    """A level of the bot with its rating's shown number: ``normal ≈ 1480``."""
    return _p("{level} ≈ {rating}", level=level, rating=rating)


def level_rating_games(level: str, rating: str, games: int) -> Text:
    """A level with its rating and the games it rests on (``stats bot``)."""
    return _p("{level} ≈ {rating} ({games})", level=level, rating=rating, games=_games(games))


def level_unmeasured(level: str) -> Text:
    """A level of the bot without a rating in a pool (never measured there)."""
    return _p("{level}: not measured yet", level=level)


BOT_RATINGS_NOTE = _p(
    "\nEach level's rating was first measured in games between the levels and reference "
    "players; every game against me moves it (never the player's rating)."
)


def bad_level(shown_value: str, levels: list[str]) -> Text:
    """A level of the bot that does not exist."""
    return _p(
        "There is no level {shown_value}: choose {levels}.",
        shown_value=shown_value,
        levels=", ".join(levels),
    )


def bot_game_started(
    game_id: int, title: str, level: str, seats: tuple[Text, Text], to_move: Text
) -> Text:
    """A game against the bot started (``seats`` as "X plays Side")."""
    return _p(
        "Game #{game_id} {title} against the bot ({level}) starts: {seats_0}, {seats_1}. "
        "{to_move} to move.",
        game_id=game_id,
        title=title,
        level=level,
        seats_0=seats[0],
        seats_1=seats[1],
        to_move=to_move,
    )


def bot_thinking(bot: Mention) -> Text:
    """Said after a move that makes the bot's turn."""
    return _p(" {bot} is thinking: its move comes as a message.", bot=bot)


def bot_declines_draw(bot: Mention, game_id: int) -> Text:
    """A draw offered to the bot."""
    return _p(
        "{bot} declines the draw in #{game_id}: it plays on (you may resign).",
        bot=bot,
        game_id=game_id,
    )


def bot_no_takeback(game_id: int) -> Text:
    """A takeback against the bot before the player has moved."""
    return _p("You have no move to take back in #{game_id}.", game_id=game_id)


def bot_taken_back(
    me: Mention, game_id: int, move: str, reply: tuple[Mention, str] | None, who: Text
) -> Text:
    """A takeback against the bot: the player's last move and the bot's ``reply`` to it."""
    if reply is None:
        return _p(
            "{me} took back {move} in #{game_id}. {who} to move.",
            me=me,
            move=Code(move),
            game_id=game_id,
            who=who,
        )
    bot, answer = reply
    return _p(
        "{me} took back {move} and {bot}'s reply {answer} in #{game_id}. {who} to move.",
        me=me,
        move=Code(move),
        bot=bot,
        answer=Code(answer),
        game_id=game_id,
        who=who,
    )


# -- finding games and browsing ---------------------------------------------------------------


def time_left(left_seconds: float) -> str:
    """The time the player to move has left, as shown on a board (``"2 days 4 hr left"``, in
    the language's own units).

    >>> time_left(2 * 86400 + 4 * 3600 + 59), time_left(3000), time_left(-5)
    ('2 days 4 hr left', '50 min left', 'time is up')
    """
    if left_seconds <= 0:
        return _s("time is up")
    minutes = max(int(left_seconds // 60), 1)
    span = i18n.duration(timedelta(minutes=minutes), fine=True)
    return _s("{span} left", span=span)
