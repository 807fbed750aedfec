"""Looking at games: boards, lists, rules and help.

Part of :mod:`bot.sessions.texts` (which holds every sentence; import it from there)."""

from __future__ import annotations

from bot.core.status import GameResult, GameStatus
from bot.messages import Code, Mention, Segment, Strong, Text
from bot.sessions.texts.base import (
    _ending,
    _moves,
    _p,
    _t,
)

# -- looking --------------------------------------------------------------------------------


def board_head(
    game_id: int, title: str, seats: tuple[Text, Text], plies: int, tail: Text, over: bool = False
) -> Text:
    """The line above a board after ``plies`` moves: the move to make, or once the game is
    over how many moves it took (as the picture's description says it)."""
    when = _p("after {moves}", moves=_moves(plies)) if over else _p("move {n}", n=plies + 1)
    return _p(
        "#{game_id} {title}: {seats_0} vs {seats_1}, {when}. {tail}",
        game_id=game_id,
        title=title,
        seats_0=seats[0],
        seats_1=seats[1],
        when=when,
        tail=tail,
    )


def to_move_line(who: Text) -> Text:
    """Whose turn it is, as a sentence."""
    return _p("{who} to move.", who=who)


def game_line(game_id: int, title: str, other: Mention, state: Text) -> Text:
    """One game in a player's list."""
    return _p(
        "#{game_id} {title} vs {other}: {state}",
        game_id=game_id,
        title=title,
        other=other,
        state=state,
    )


def your_turn_state(move_number: int) -> Text:
    """A listed game waiting on the player."""
    return _p("your turn (move {move_number})", move_number=move_number)


def their_turn_state(other: Mention, move_number: int) -> Text:
    """A listed game waiting on the opponent."""
    return _p("{other} to move (move {move_number})", other=other, move_number=move_number)


def finished_state(
    status: GameStatus, result: GameResult | None, reason: str | None, won: bool
) -> Text:
    """How a listed finished game ended, for the player."""
    if status == GameStatus.CORRUPT:
        return _p("damaged, set aside")
    if result == GameResult.DRAW:
        return _p("draw ({reason})", reason=_ending(reason))
    if result == GameResult.NONE:
        return _p("aborted ({reason})", reason=_ending(reason))
    return _p("{value} ({reason})", value=_p("won") if won else _p("lost"), reason=_ending(reason))


def bad_page() -> Text:
    """A page of the game list that is not a whole number from 1."""
    return _p("A page of your games is a whole number from 1, e.g. 2.")


def no_such_page(page: int, pages: int) -> Text:
    """A page of the game list past the last one."""
    return _p("There is no page {page} of your games (there are {pages}).", page=page, pages=pages)


def page_of(page: int, pages: int) -> Text:
    """The last line of a page of the game list (how to ask for the next one)."""
    if page < pages:
        return _p(
            "Page {page} of {pages}. Next: games {next}.", page=page, pages=pages, next=page + 1
        )
    return _p("Page {page} of {pages}.", page=page, pages=pages)


def no_games_yet() -> Text:
    """An empty game list."""
    return _p("You have no games yet: challenge someone!")


def rules_missing(title: str) -> Text:
    """A rules file that cannot be read."""
    return _p("The rules of {title} are not available.", title=title)


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
HELP = _p(
    "What you can do here: challenge a player (or anyone here) to a game; accept, decline or "
    "cancel a challenge; move; look at a game's board, its moves or its plain-text record; "
    "resign; offer or answer a draw; ask for or answer a takeback; ask for a rematch; go away on "
    "vacation (your clocks stop) and come back; change your notification settings; list your "
    "games; read the rules of a game."
)
