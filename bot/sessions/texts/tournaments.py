"""Tournaments: the sign-up card, starting, standings, withdrawals, the result.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.messages import Mention, Strong, Text
from bot.sessions.texts.base import _games, _p, _players, _pn, _s, _side, _sn, _when


def _cap(name: str) -> str:
    return name[:1].upper() + name[1:]


def tournament_name(tournament_id: int, title: str) -> str:
    """How a tournament is named: ``tournament 5 (Maphex 9×9)``."""
    return _s("tournament {tournament_id} ({title})", tournament_id=tournament_id, title=title)


def tournament_terms(days: float | None, rounds: int, rated: bool, most: int) -> str:
    """A tournament's terms on one line."""
    clock = (
        _s("no clock")
        if days is None
        else _sn("{count} day per move", "{count} days per move", days)
    )
    legs = _s("each pairing twice, seats swapped") if rounds == 2 else _s("each pairing once")
    kind = _s("rated") if rated else _s("casual")
    return _s(
        "{clock}, {legs}, {kind}, at most {most} players",
        clock=clock,
        legs=legs,
        kind=kind,
        most=most,
    )


def tournament_card(
    tournament_id: int,
    title: str,
    terms: str,
    players: Sequence[Mention],
    starts_by: datetime,
    least: int,
) -> Text:
    """The sign-up card: the terms, who has joined, when it starts."""
    joined = Text.join(players, ", ")
    head = Strong(tournament_title(tournament_id, title))
    return _p(
        "{head} round-robin, every game at once ({terms}).\nJoined ({count}): {joined}.\n"
        "It starts when full, or at {when} with at least {least} players (else it is "
        "cancelled); its creator may start it sooner.",
        head=head,
        terms=terms,
        count=len(players),
        joined=joined,
        when=_when(starts_by),
        least=least,
    )


def tournament_joined(player: Mention, name: str, count: int, most: int) -> Text:
    """Someone signed up."""
    return _p(
        "{player} joined {name}: {count} of at most {most} players.",
        player=player,
        name=name,
        count=count,
        most=most,
    )


def tournament_left_open(player: Mention, name: str, count: int) -> Text:
    """Someone left before the start."""
    return _p(
        "{player} left {name}: {count} now.",
        player=player,
        name=name,
        count=_players(count),
    )


def tournament_already_in(name: str) -> Text:
    """Joining twice."""
    return _p("You are already in {name}.", name=name)


def tournament_full(name: str) -> Text:
    """Joining a full tournament."""
    return _p("{name} is full.", name=_cap(name))


def tournament_not_open(name: str) -> Text:
    """Joining or starting one that is no longer open for sign-up."""
    return _p("{name} is no longer open for sign-up.", name=_cap(name))


def tournament_not_in(name: str) -> Text:
    """Leaving one you are not in."""
    return _p("You are not in {name}.", name=name)


def tournament_over(name: str) -> Text:
    """Leaving one that has ended."""
    return _p("{name} is over.", name=_cap(name))


def tournament_only_creator(name: str, creator: Mention, what: str) -> Text:
    """Only the creator may start or cancel."""
    if what == "start":
        return _p("Only {creator}, who opened {name}, may start it.", creator=creator, name=name)
    return _p("Only {creator}, who opened {name}, may cancel it.", creator=creator, name=name)


def tournament_too_few(name: str, count: int, least: int) -> Text:
    """Starting with too few players."""
    return _p(
        "{name} needs at least {least} players ({count} so far).",
        name=_cap(name),
        least=least,
        count=count,
    )


def no_tournament(tournament_id: int) -> Text:
    """No tournament by that id in this chat."""
    return _p("There is no tournament {tournament_id} in this chat.", tournament_id=tournament_id)


def no_tournament_here() -> Text:
    """No tournament to act on in this chat."""
    return _p("There is no tournament here: open one with tournament new <game>.")


def which_tournament(ids: Sequence[int]) -> Text:
    """Several would do."""
    listed = ", ".join(str(i) for i in ids[:10])
    return _p("Which tournament? Several are here: {listed}.", listed=listed)


def tournament_needs_clock() -> Text:
    """``tournament new`` without a clock, or another one."""
    return _p("A tournament needs a clock: days=1, 3, 7 or 14.")


def bad_tournament_rounds() -> Text:
    """``rounds=`` other than 1 or 2."""
    return _p("rounds=1 or rounds=2.")


def bad_tournament_max(least: int, most: int) -> Text:
    """``max=`` out of range."""
    return _p("max= takes {least} to {most} players.", least=least, most=most)


def tournament_started(name: str, games: int, groups: int, players: Sequence[Mention]) -> Text:
    """The chat is told a tournament started."""
    head = Strong(_s("{name} has started", name=_cap(name)))
    if groups > 1:
        return _p(
            "{head}: {players} play {games} at once in {groups} groups by rating. Good luck!",
            head=head,
            players=Text.join(players, ", "),
            games=_games(games),
            groups=groups,
        )
    return _p(
        "{head}: {players} play {games} at once. Good luck!",
        head=head,
        players=Text.join(players, ", "),
        games=_games(games),
    )


def tournament_cancelled(name: str, count: int, least: int, players: Sequence[Mention]) -> Text:
    """Sign-up ended with too few players (or the creator cancelled)."""
    if count < least:
        head = _p(
            "{name} is cancelled: {count} signed up, it needs {least}.",
            name=_cap(name),
            count=_players(count),
            least=least,
        )
    else:
        head = _p("{name} is cancelled.", name=_cap(name))
    if not players:
        return head
    return _p(
        "{head} {players}: no games were started.", head=head, players=Text.join(players, ", ")
    )


def tournament_cancelled_reply(name: str) -> Text:
    """The creator cancelled."""
    return _p("{name} is cancelled.", name=_cap(name))


def tournament_withdrawn(player: Mention, name: str, why: str, ended: int) -> Text:
    """A player was withdrawn (left, or three losses on time)."""
    if why == "left":
        head = _p("{player} left and is withdrawn from {name}", player=player, name=name)
    else:
        head = _p(
            "{player} lost three games on time and is withdrawn from {name}",
            player=player,
            name=name,
        )
    if not ended:
        return head + "."
    return _pn(
        "{head}; {count} unfinished game ends as a loss.",
        "{head}; {count} unfinished games end as losses.",
        ended,
        head=head,
    )


def tournament_first_turn(name: str, game_id: int | str, title: str, side_name: str) -> Text:
    """A tournament game started and you move first."""
    return _p(
        "{name}: your turn in #{game_id} {title} ({side_name}).",
        name=_cap(name),
        game_id=game_id,
        title=title,
        side_name=_side(side_name),
    )


def tournament_first_board(name: str, game_id: int | str) -> Text:
    """Above a tournament game's first board in the chat (the caption names who moves)."""
    return _p(
        "{name}: game #{game_id} begins.",
        name=_cap(name),
        game_id=game_id,
    )


def standings_head(name: str, done: int, total: int) -> Text:
    """The head of the standings."""
    standings = Strong(_s("Standings of {name}", name=name))
    return _p(
        "{name} ({done} of {total} played)",
        name=standings,
        done=done,
        total=_games(total),
    )


def standings_update(creator: Mention) -> Text:
    """The head of the daily standings update in the chat."""
    return _p("The day's standings (tournament opened by {creator}):", creator=creator)


def standings_group(index: int) -> str:
    """A group's heading."""
    return _s("Group {letter}", letter=chr(ord("A") + index))


def standings_line(
    place: int,
    player: Mention | str,
    points: str,
    wins: int,
    draws: int,
    losses: int,
    tie_break: str,
    withdrawn: bool,
) -> Text:
    """One line of the text version of the standings (a plain name: a daily table pings
    nobody)."""
    line = _p(
        "{place}. {player} {points} (won {wins}, drawn {draws}, lost {losses}; SB {tie_break})",
        place=place,
        player=player,
        points=points,
        wins=wins,
        draws=draws,
        losses=losses,
        tie_break=tie_break,
    )
    return _p("{line} withdrawn", line=line) if withdrawn else line


def tournament_title(tournament_id: int, title: str) -> str:
    """The head of the standings picture (``Tournament 3: Maphex 9×9``)."""
    return _s("Tournament {tournament_id}: {title}", tournament_id=tournament_id, title=title)


def games_played_of(settled: int, pairings: int) -> str:
    """Under the standings picture's head: how far the tournament has come."""
    return _sn(
        "{count} of {total} game played",
        "{count} of {total} games played",
        pairings,
        count=settled,
        total=pairings,
    )


def standings_alt(name: str, lines: int) -> str:
    """What the standings picture shows, for screen readers (the text says it in full)."""
    return _sn(
        "Standings table of {name}: {count} player, best first.",
        "Standings table of {name}: {count} players, best first.",
        lines,
        name=name,
    )


def tournament_result(name: str, winners: Sequence[Mention], points: str) -> Text:
    """The final result naming the winner (several: a shared first place)."""
    head = Strong(_s("{name} is over", name=_cap(name)))
    one = points == "1"  # "1 point"; "1.5 points", "2 points"
    if len(winners) == 1:
        if one:
            return _p("{head}: {winner} wins with {points} point.", head=head, winner=winners[0],
                      points=points)  # fmt: skip
        return _p("{head}: {winner} wins with {points} points.", head=head, winner=winners[0],
                  points=points)  # fmt: skip
    together = _p("{some} and {last}", some=Text.join(winners[:-1], ", "), last=winners[-1])
    if one:
        return _p("{head}: {winners} win with {points} point.", head=head, winners=together,
                  points=points)  # fmt: skip
    return _p("{head}: {winners} win with {points} points.", head=head, winners=together,
              points=points)  # fmt: skip


def tournament_list_line(name: str, status: str, players: int) -> Text:
    """A tournament in the list of a chat's tournaments."""
    return _p(
        "{name}: {status}, {players}.",
        name=_cap(name),
        status=status,
        players=_players(players),
    )


def no_tournaments() -> Text:
    """Nothing to list."""
    return _p("No tournaments here yet: open one with tournament new <game>.")


def stats_tournaments(played: int, won: int) -> Text:
    """A player's tournaments in ``stats``."""
    return _p("\nTournaments: {played} played, {won} won.", played=played, won=won)
