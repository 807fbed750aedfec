"""Tournaments: the sign-up card, starting, standings, withdrawals, the result.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.messages import Mention, Segment, Strong, Text
from bot.sessions.texts.base import _plural, _t, _when


def tournament_name(tournament_id: int, title: str) -> str:
    """How a tournament is named: ``tournament 5 (Maphex 9×9)``."""
    return f"tournament {tournament_id} ({title})"


def tournament_terms(days: float | None, rounds: int, rated: bool, most: int) -> str:
    """A tournament's terms on one line."""
    clock = "no clock" if days is None else f"{_plural(days, 'day')} per move"
    legs = "each pairing twice, seats swapped" if rounds == 2 else "each pairing once"
    return f"{clock}, {legs}, {'rated' if rated else 'casual'}, at most {most} players"


def tournament_card(
    tournament_id: int,
    title: str,
    terms: str,
    players: Sequence[Mention],
    starts_by: datetime,
    least: int,
) -> Text:
    """The sign-up card: the terms, who has joined, when it starts."""
    parts: list[Segment | Text] = [
        Strong(f"Tournament {tournament_id}: {title}"),
        f" round-robin, every game at once ({terms}).\n",
        f"Joined ({len(players)}): ",
    ]
    for index, player in enumerate(players):
        parts += [", " if index else "", player]
    parts.append(
        f".\nIt starts when full, or at {_when(starts_by)} with at least {least} players "
        "(else it is cancelled); its creator may start it sooner."
    )
    return _t(*parts)


def tournament_joined(player: Mention, name: str, count: int, most: int) -> Text:
    """Someone signed up."""
    return _t(player, f" joined {name}: {count} of at most {most} players.")


def tournament_left_open(player: Mention, name: str, count: int) -> Text:
    """Someone left before the start."""
    return _t(player, f" left {name}: {_plural(count, 'player')} now.")


def tournament_already_in(name: str) -> Text:
    """Joining twice."""
    return _t(f"You are already in {name}.")


def tournament_full(name: str) -> Text:
    """Joining a full tournament."""
    return _t(f"{name[:1].upper()}{name[1:]} is full.")


def tournament_not_open(name: str) -> Text:
    """Joining or starting one that is no longer open for sign-up."""
    return _t(f"{name[:1].upper()}{name[1:]} is no longer open for sign-up.")


def tournament_not_in(name: str) -> Text:
    """Leaving one you are not in."""
    return _t(f"You are not in {name}.")


def tournament_over(name: str) -> Text:
    """Leaving one that has ended."""
    return _t(f"{name[:1].upper()}{name[1:]} is over.")


def tournament_only_creator(name: str, creator: Mention, what: str) -> Text:
    """Only the creator may start or cancel."""
    return _t("Only ", creator, f", who opened {name}, may {what} it.")


def tournament_too_few(name: str, count: int, least: int) -> Text:
    """Starting with too few players."""
    return _t(f"{name[:1].upper()}{name[1:]} needs at least {least} players ({count} so far).")


def no_tournament(tournament_id: int) -> Text:
    """No tournament by that id in this chat."""
    return _t(f"There is no tournament {tournament_id} in this chat.")


def no_tournament_here() -> Text:
    """No tournament to act on in this chat."""
    return _t("There is no tournament here: open one with tournament new <game>.")


def which_tournament(ids: Sequence[int]) -> Text:
    """Several would do."""
    listed = ", ".join(str(i) for i in ids[:10])
    return _t(f"Which tournament? Several are here: {listed}.")


def tournament_needs_clock() -> Text:
    """``tournament new`` without a clock, or another one."""
    return _t("A tournament needs a clock: days=1, 3, 7 or 14.")


def bad_tournament_rounds() -> Text:
    """``rounds=`` other than 1 or 2."""
    return _t("rounds=1 or rounds=2.")


def bad_tournament_max(least: int, most: int) -> Text:
    """``max=`` out of range."""
    return _t(f"max= takes {least} to {most} players.")


def tournament_started(name: str, games: int, groups: int, players: Sequence[Mention]) -> Text:
    """The chat is told a tournament started."""
    parts: list[Segment | Text] = [Strong(f"{name[:1].upper()}{name[1:]} has started"), ": "]
    for index, player in enumerate(players):
        parts += [", " if index else "", player]
    split = f" in {groups} groups by rating" if groups > 1 else ""
    parts.append(f" play {_plural(games, 'game')} at once{split}. Good luck!")
    return _t(*parts)


def tournament_cancelled(name: str, count: int, least: int, players: Sequence[Mention]) -> Text:
    """Sign-up ended with too few players (or the creator cancelled)."""
    parts: list[Segment | Text] = [f"{name[:1].upper()}{name[1:]} is cancelled"]
    if count < least:
        parts.append(f": {_plural(count, 'player')} signed up, it needs {least}")
    parts.append(". ")
    for index, player in enumerate(players):
        parts += [", " if index else "", player]
    if players:
        parts.append(": no games were started.")
    return _t(*parts)


def tournament_cancelled_reply(name: str) -> Text:
    """The creator cancelled."""
    return _t(f"{name[:1].upper()}{name[1:]} is cancelled.")


def tournament_withdrawn(player: Mention, name: str, why: str, ended: int) -> Text:
    """A player was withdrawn (left, or three losses on time)."""
    reason = "left" if why == "left" else "lost three games on time"
    games = ""
    if ended == 1:
        games = "; 1 unfinished game ends as a loss"
    elif ended:
        games = f"; {ended} unfinished games end as losses"
    return _t(player, f" {reason} and is withdrawn from {name}{games}.")


def tournament_first_turn(name: str, game_id: int | str, title: str, side_name: str) -> Text:
    """A tournament game started and you move first."""
    return _t(f"{name[:1].upper()}{name[1:]}: your turn in #{game_id} {title} ({side_name}).")


def tournament_first_board(name: str, game_id: int | str) -> Text:
    """Above a tournament game's first board in the chat (the caption names who moves)."""
    return _t(f"{name[:1].upper()}{name[1:]}: game #{game_id} begins.")


def standings_head(name: str, done: int, total: int) -> Text:
    """The head of the standings."""
    return _t(Strong(f"Standings of {name}"), f" ({done} of {_plural(total, 'game')} played)")


def standings_update(creator: Mention) -> Text:
    """The head of the daily standings update in the chat."""
    return _t("The day's standings (tournament opened by ", creator, "):")


def standings_group(index: int) -> str:
    """A group's heading."""
    return f"Group {chr(ord('A') + index)}"


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
    out = f" {points} (won {wins}, drawn {draws}, lost {losses}; SB {tie_break})"
    return _t(f"{place}. ", player, out, " withdrawn" if withdrawn else "")


def standings_alt(name: str, lines: int) -> str:
    """What the standings picture shows, for screen readers (the text says it in full)."""
    return f"Standings table of {name}: {_plural(lines, 'player')}, best first."


def tournament_result(name: str, winners: Sequence[Mention], points: str) -> Text:
    """The final result naming the winner (several: a shared first place)."""
    parts: list[Segment | Text] = [Strong(f"{name[:1].upper()}{name[1:]} is over"), ": "]
    for index, player in enumerate(winners):
        last = index == len(winners) - 1
        parts += [(" and " if last else ", ") if index else "", player]
    verb = "win" if len(winners) > 1 else "wins"
    parts.append(f" {verb} with {points} point{'' if points == '1' else 's'}.")
    return _t(*parts)


def tournament_list_line(name: str, status: str, players: int) -> Text:
    """A tournament in the list of a chat's tournaments."""
    return _t(f"{name[:1].upper()}{name[1:]}: {status}, {_plural(players, 'player')}.")


def no_tournaments() -> Text:
    """Nothing to list."""
    return _t("No tournaments here yet: open one with tournament new <game>.")


def stats_tournaments(played: int, won: int) -> Text:
    """A player's tournaments in ``stats``."""
    return _t(f"\nTournaments: {played} played, {won} won.")
