"""Ratings in play: the changes a game that ends makes (handed to the store's transaction that
ends it), ratings on challenge cards and boards, ``leaderboard``, ``stats`` and rebuilding.

The maths and the rule of which games count are :mod:`bot.ratings`'; the numbers live in the
store (:mod:`bot.storage.standings`).  Ratings count games of their own community only (a
Telegram group, a Discord server, a direct chat, the console): a game reads and changes its
players' ratings in the community it is played in, a leaderboard is its chat's community's,
``stats`` shows the ratings of the community it is asked in.

A game counts when it is rated (``rated=no`` makes a casual one), came from a challenge
between two people (not a game against the bot, not an imported one) and ended with a result
(an aborted game has none).

The bot is rated too, by level (issue 49): each level's rating in each pool starts where the
round-robin between the levels and reference players measured it (:mod:`bot.level_ratings`)
and moves with every game against the bot that ends with a result, against the player's
rating in the game's community; the player's own rating never moves for it.  ``challenge bot``
(without a game) and ``stats bot`` show them.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from bot import level_ratings
from bot.core.i18n import gettext
from bot.core.notification import BOT_USER_ID
from bot.core.status import GameResult
from bot.messages import Chat, Mention, Reply, ReplyKind, Text, User
from bot.ratings import (
    FinishedGame,
    Origin,
    Pool,
    Rating,
    RatingChange,
    RatingPoint,
    Result,
    bot_result,
    head_to_head,
    pool_from_text,
    pool_of,
    rate,
    records_by_pool,
    streak,
)
from bot.sessions import loading, presentation, texts
from bot.sessions.context import Context, Damaged, Refusal
from bot.storage import (
    BadRow,
    BotRatedEnd,
    Community,
    GameRow,
    PlayerRow,
    RatedEnd,
    RatingEnd,
    RebuildSummary,
)
from engines.base import shown
from engines.levels import Level
from render.chart import rating_chart_png

__all__ = [
    "board_line",
    "bot_levels",
    "bot_stats",
    "challenge_line",
    "change_line",
    "ended_line",
    "leaderboard",
    "parse_rated",
    "rebuild",
    "settle",
    "stats",
]

log = logging.getLogger(__name__)

#: Lines of a leaderboard.
LEADERBOARD_SIZE = 10


def parse_rated(value: object) -> bool:
    """``rated=`` as typed or passed: ``True``/``False``, or yes/no/on/off/true/false/1/0;
    :class:`Refusal` otherwise.

    >>> parse_rated("no"), parse_rated(True), parse_rated("Yes")
    (False, True, True)
    """
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word in ("yes", "on", "true", "1", "rated"):
        return True
    if word in ("no", "off", "false", "0", "casual"):
        return False
    raise Refusal(texts.bad_rated(shown(str(value), 24)))


def community_of(row: GameRow) -> Community:
    """The community whose ratings ``row`` counts in: its own (its chat when it has none)."""
    return Community(row.platform, row.chat_id if row.community is None else row.community)


def here(chat: Chat) -> Community:
    """The community of ``chat`` (whose ratings and leaderboard are shown there)."""
    return Community(chat.platform, chat.community_id)


def _pool(row: GameRow) -> Pool | None:
    try:
        return pool_of(row.game, row.options)
    except (ValueError, TypeError):
        return None


def _finished(row: GameRow, pool: Pool, winner: int | None, result: GameResult) -> FinishedGame:
    outcome = None if result is GameResult.NONE else Result.from_winner(winner)
    return FinishedGame(
        id=row.id,
        pool=pool,
        players=row.seats,
        result=outcome,
        finished_at=row.updated_at,
        rated=row.rated,
        origin=Origin.BOT if row.against_bot else row.origin,
    )


async def settle(
    ctx: Context, row: GameRow, winner: int | None, result: GameResult
) -> RatingEnd | None:
    """The rating changes of ``row`` ending with ``winner`` / ``result`` (``None`` if the
    game does not count), from the ratings stored now: pass them to the store call that ends
    the game, which writes them in its transaction (and refuses them with
    :class:`~bot.storage.standings.RatingsMoved` if a rating changed in between).  A game
    against the bot with a result moves the bot's level's rating (:func:`_bot_end`)."""
    pool = _pool(row)
    if pool is None:
        return None
    if row.against_bot:
        return await _bot_end(ctx, row, pool, winner, result)
    if not _finished(row, pool, winner, result).counts:
        return None
    where = community_of(row)
    try:
        before = (
            await ctx.store.rating(row.seat0, pool, where),
            await ctx.store.rating(row.seat1, pool, where),
        )
    except BadRow as exc:  # the game cannot end rated; every other game goes on
        raise Damaged(texts.rating_unreadable(row.id, pool.title), row.id, exc) from None
    outcome = Result.from_winner(None if result is GameResult.DRAW else winner)
    return RatedEnd(pool, rate(before[0], before[1], outcome))


async def _bot_end(
    ctx: Context, row: GameRow, pool: Pool, winner: int | None, result: GameResult
) -> BotRatedEnd | None:
    """The bot's level's rating change of a game against it that ends with a result: against
    the player's rating in the game's community (a new player's if theirs is unreadable: the
    game still ends, and the player's rating is not touched either way)."""
    if result is GameResult.NONE or row.bot_seat is None or row.bot_level is None:
        return None
    player = row.seats[1 - row.bot_seat]
    try:
        theirs = await ctx.store.rating(player, pool, community_of(row))
    except BadRow as exc:
        log.error("%s; the bot's level is rated against a new player's rating", exc)
        theirs = Rating()
    outcome = bot_result(None if result is GameResult.DRAW else winner, row.bot_seat)
    level = row.bot_level
    return BotRatedEnd(pool, level, theirs, outcome, level_ratings.start(pool, level))


async def change_line(ctx: Context, row: GameRow, rated: RatingEnd | None) -> Text:
    """How each rating changes, for the game-over messages (empty when not rated, and for a
    game against the bot: the player's rating does not move)."""
    if not isinstance(rated, RatedEnd):
        return Text.of("")
    return await _changes(ctx, row, rated.pool, rated.changes)


async def _changes(
    ctx: Context, row: GameRow, pool: Pool, changes: tuple[RatingChange, RatingChange]
) -> Text:
    a, b = await presentation.mentions(ctx, row)
    return texts.rating_changes(pool.title, ((a, str(changes[0])), (b, str(changes[1]))))


async def ended_line(ctx: Context, row: GameRow) -> Text:
    """How each rating changed when ``row`` ended, as stored (empty when it was not rated):
    the same answer whenever it is asked again."""
    pool = _pool(row)
    changes = await ctx.store.rating_changes(row.id)
    if pool is None or changes is None:
        return Text.of("")
    return await _changes(ctx, row, pool, changes)


async def _ratings(
    ctx: Context, pool: Pool, players: tuple[PlayerRow, ...], where: Community
) -> tuple[tuple[Mention, str], ...]:
    found = []
    for player in players:
        try:
            shown_rating = (await ctx.store.rating(player.id, pool, where)).format()
        except BadRow as exc:  # shown as damaged; the card or board itself still answers
            log.error("%s; shown as damaged", exc)
            shown_rating = gettext(texts.DAMAGED_RATING)
        found.append((presentation.mention(player), shown_rating))
    return tuple(found)


async def challenge_line(
    ctx: Context,
    game: str,
    options: dict[str, object],
    rated: bool,
    players: tuple[PlayerRow, ...],
    chat: Chat,
) -> Text:
    """For a challenge card made in ``chat``: the players' ratings in the game's pool of the
    chat's community (where the game will count), or "casual"."""
    if not rated:
        return texts.CASUAL
    try:
        pool = pool_of(game, options)
    except (ValueError, TypeError):
        return Text.of("")
    return texts.rated_terms(pool.title, await _ratings(ctx, pool, players, here(chat)))


async def board_line(ctx: Context, row: GameRow) -> Text:
    """For a board's caption: both players' ratings in the game's pool of its community, or
    "casual"."""
    if not row.rated or row.origin is not Origin.CHALLENGE or row.against_bot:
        return texts.CASUAL
    pool = _pool(row)
    if pool is None:
        return Text.of("")
    seats = (await loading.player_by_id(ctx, row.seat0), await loading.player_by_id(ctx, row.seat1))
    return texts.rated_terms(pool.title, await _ratings(ctx, pool, seats, community_of(row)))


async def leaderboard(
    ctx: Context, chat: Chat, game: str, everywhere: bool = False, limit: int = LEADERBOARD_SIZE
) -> Reply:
    """The top players of ``game``'s pool (``maphex``, ``maphex 16``, ``isopath h5``,
    ``maphex16``): this chat's community's ratings (from the rated games played in it), or
    when ``everywhere`` each player's best rating in any community."""
    try:
        pool = pool_from_text(game)
    except ValueError as exc:
        raise Refusal(texts.no_pool(str(exc))) from None
    if isinstance(limit, bool) or not isinstance(limit, int):
        limit = LEADERBOARD_SIZE
    if everywhere:
        lines = await ctx.store.leaderboard(pool, limit=limit)
    else:
        lines = await ctx.store.leaderboard(
            pool, platform=chat.platform, community=chat.community_id, limit=limit
        )
    if not lines:
        return Reply(texts.leaderboard_empty(pool.title, everywhere))
    text = texts.leaderboard_head(pool.title, everywhere)
    for line in lines:
        text += texts.leaderboard_line(line.rank, line.name, str(line.rating), line.rating.games)
    if any(line.rating.provisional for line in lines):
        text += texts.PROVISIONAL_NOTE
    return Reply(text)


async def _level_ratings(ctx: Context) -> dict[tuple[Pool, Level], Rating]:
    """Every level's rating in every pool where it has one: stored, else measured."""
    stored = await ctx.store.bot_ratings()
    found: dict[tuple[Pool, Level], Rating] = {}
    for pool in Pool:
        for level in Level:
            rating = stored.get((pool, level)) or level_ratings.measured(pool, level)
            if rating is not None:
                found[(pool, level)] = rating
    return found


def _levels_text(ratings: dict[tuple[Pool, Level], Rating], counts: bool) -> Text:
    """One line per pool: each level with its rating (and, when ``counts``, its games)."""
    text = Text.of("")
    for pool in Pool:
        shown_levels = []
        for level in Level:
            rating = ratings.get((pool, level))
            if rating is None:
                shown_levels.append(texts.level_unmeasured(level.value))
            elif counts:
                # Provisional (``?``) while fewer games than a player's back it, as players'.
                number = rating.format()
                shown_levels.append(texts.level_rating_games(level.value, number, rating.games))
            else:
                shown_levels.append(texts.level_rating(level.value, rating.format()))
        text += texts.levels_pool(pool.title, Text.join(shown_levels, ", "))
    return text


async def bot_levels(ctx: Context) -> Reply:
    """``challenge bot`` without a game: how to play the bot, and its levels' ratings in
    every pool (their shown numbers, as players' ratings are shown)."""
    return Reply(texts.bot_levels_head() + _levels_text(await _level_ratings(ctx), False))


async def bot_stats(ctx: Context, chat: Chat) -> Reply:
    """``stats bot``: each level's rating in every pool with the games it rests on."""
    bot = Mention(chat.platform, BOT_USER_ID, texts.BOT_NAME)
    text = texts.stats_head(bot) + _levels_text(await _level_ratings(ctx), True)
    return Reply(text + texts.BOT_RATINGS_NOTE)


async def stats(ctx: Context, user: User, chat: Chat, player: User | None = None) -> Reply:
    """``player``'s (the asker's by default; the bot's: :func:`bot_stats`) rating in
    ``chat``'s community and record per game (and, when they are rated in other communities
    too, that these are this one's), current streak, record against the asker, and a chart
    of their rating here over time in the game they played most rated games of here (the
    reply's image)."""
    if player is not None and player.user_id == BOT_USER_ID:
        return await bot_stats(ctx, chat)
    me = await loading.player(ctx, user)
    if player is None or (player.platform, player.user_id) == (user.platform, user.user_id):
        them = me
    else:
        found = await ctx.store.find_player(player.platform, player.user_id)
        if found is None:
            raise Refusal(texts.unknown_player(shown(player.name, 32)))
        them = found
    where = here(chat)
    ratings = await ctx.store.ratings_of(them.id, where)
    games = await ctx.store.finished_games(them.id)
    records = records_by_pool(games, them.id, rated_only=False)
    text = texts.stats_head(presentation.mention(them))
    pools = [p for p in Pool if p in ratings or p in records]
    if not pools:
        text += texts.stats_nothing()
    for pool in pools:
        rating = ratings.get(pool)
        text += texts.stats_pool(
            pool.title, None if rating is None else rating.format(), str(records[pool])
        )
    elsewhere = await ctx.store.rated_communities(them.id) - (1 if ratings else 0)
    if elsewhere > 0:
        text += texts.stats_scope(elsewhere)
    current = streak(games, them.id, rated_only=False)
    if current is not None:
        text += texts.stats_streak(str(current))
    played, won = await ctx.store.tournament_record(them.id)
    if played:
        text += texts.stats_tournaments(played, won)
    if them.id != me.id:
        text += texts.stats_head_to_head(
            presentation.mention(me), str(head_to_head(games, them.id, me.id, rated_only=False))
        )
    reply = Reply(text)
    if ctx.pictures and ratings:
        pool = max(ratings, key=lambda p: (ratings[p].games, -list(Pool).index(p)))
        history = await ctx.store.rating_history(them.id, pool, where)
        points = _chart_points(history)
        png = await asyncio.to_thread(rating_chart_png, points, title=pool.title)
        alt = texts.chart_alt(pool.title, len(history), ratings[pool].format())
        reply = Reply(text, image=png, alt=alt, kind=ReplyKind.CHART)
    return reply


def _chart_points(history: list[RatingPoint]) -> list[tuple[datetime, float]]:
    """The chart's points: where the player started (a new player's rating, at their first
    rated game), then their rating after each game."""
    if not history:
        return []
    start = (history[0].at, float(Rating().value))
    return [start, *((point.at, float(point.rating.value)) for point in history)]


async def rebuild(ctx: Context) -> RebuildSummary:
    """Recompute every rating from the stored games in order (``hexhall ratings rebuild``)."""
    return await ctx.store.rebuild_ratings()
