"""Conditional moves ("premoves", issue 46): during the opponent's turn a player prepares
replies, ``c3 => c5; d4 => d5`` ("if they play c3, I reply c5; then if they play d4, I reply
d5"), each line checked move by move in the position it would be played in when it is set.
A player's lines of one game form a tree: the first line whose next move is the one the
opponent played wins.

When the opponent moves, :func:`follow_up` (called by :func:`bot.sessions.moves.commit`) finds
the matching line: the prepared reply is stored in the same transaction as the opponent's move
(:meth:`~bot.storage.sql_premoves.SqlPremoves.apply_with_reply`), and the chat gets one board
showing both.  A move that matches no line drops the game's lines and tells their owner
privately, once; so does a reply that would lose at once, which is never played.  Lines are
the owner's alone until played: only :func:`premove` (answered privately) and the move that
plays them read them, and every other change of the game (its end, a takeback, a draw agreed)
drops them in its own transaction (:func:`~bot.storage.sql_premoves.drop_stale_premoves`).

Iso-Path's two-part turns and inpHeXion's relocations are whole moves here as everywhere: a
line holds each turn as the one text :meth:`engines.Position.play` takes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from bot.core.notification import Kind, Notification
from bot.core.status import GameStatus
from bot.messages import Chat, Reply, Text, User
from bot.sessions import loading, policy, presentation, texts
from bot.sessions.context import Context, Refusal
from bot.sessions.picker import matches
from bot.storage import GameRow, PlayerRow
from bot.storage.sql_premoves import MOST_LINES, MOST_MOVES
from engines import IllegalMove, Position

__all__ = [
    "FollowUp",
    "check_line",
    "follow_up",
    "lines_of",
    "parse_line",
    "premove",
    "suggestions",
]

#: What separates the opponent's move from the reply, and one pair from the next.
ARROW = "=>"
PAIRS = ";"
#: The longest suggestion (Discord's limit on an autocompletion's value).
SUGGESTION_LIMIT = 100


@dataclass(frozen=True)
class FollowUp:
    """What a move into a game with prepared lines brings: the prepared ``reply`` (the
    position after it) by ``owner`` in ``seat``, with the owner's lines that go on past it
    (``kept``, each from the opponent's next move on); or no reply and ``notes`` telling the
    owner their lines were dropped."""

    owner: PlayerRow
    seat: int
    reply: Position | None = None
    kept: tuple[tuple[str, ...], ...] = ()
    notes: tuple[Notification, ...] = ()


def parse_line(text: str) -> list[str] | None:
    """The moves of a typed line, theirs then yours in turn; ``None`` if it is not pairs.

    >>> parse_line("c3 => c5; d4 => d5")
    ['c3', 'c5', 'd4', 'd5']
    >>> parse_line("b1>b2 a1-b2 => f1>b1 g1-f1")
    ['b1>b2 a1-b2', 'f1>b1 g1-f1']
    >>> parse_line("c3 => ; d4"), parse_line("c3")
    (None, None)
    """
    moves: list[str] = []
    for pair in text.split(PAIRS):
        parts = [p.strip() for p in pair.split(ARROW)]
        if len(parts) != 2 or not all(parts):
            return None
        moves += parts
    return moves


def check_line(game_id: int, position: Position, moves: list[str]) -> tuple[str, ...]:
    """``moves`` played one by one from ``position``, as their canonical texts: a
    :class:`Refusal` naming the broken rule (the engines' own sentence for it) at the first
    illegal one, or at a move that would end the game with more of the line after it."""
    canonical: list[str] = []
    for step, text in enumerate(moves, 1):
        try:
            position = position.play(text)
        except IllegalMove as exc:
            raise Refusal(
                texts.premove_illegal(game_id, step, text, texts.illegal_said(exc))
            ) from None
        played = position.last_move or text
        canonical.append(played)
        if position.outcome is not None and step < len(moves):
            raise Refusal(texts.premove_game_over(game_id, step, played))
    return tuple(canonical)


async def premove(
    ctx: Context, user: User, chat: Chat, game_id: int | None = None, text: str = ""
) -> Reply:
    """``premove [#game] <their move> => <your reply> [; ...]``: prepare a line (checked, then
    kept after your other lines); with no line your lines, with ``clear`` none.  Every answer
    is for the player alone."""
    me = await loading.player(ctx, user)
    gid = await loading.pick_game(ctx, me, chat, game_id)
    words = text.strip()
    async with ctx.lock(gid):
        loaded = await loading.load(ctx, gid)
        row, position = loaded.row, loaded.position
        seat = loading.seat(me, row)
        if seat is None:
            raise Refusal(texts.not_playing(gid, "prepare moves in"))
        if words.lower() == "clear":
            dropped = await ctx.store.clear_premoves(gid, me.id)
            ctx.positions.pop(gid, None)  # its row counts the game's lines (a move checks it)
            return _private(texts.premove_cleared(gid, dropped), gid)
        mine = await ctx.store.premoves_of(gid, me.id)
        if not words:
            return _private(texts.premove_listing(gid, [line.moves for line in mine]), gid)
        if row.status != GameStatus.ACTIVE:
            raise Refusal(texts.already_over(gid))
        if row.against_bot:
            raise Refusal(texts.premove_not_against_bot(gid))
        if row.to_move == seat:
            raise Refusal(texts.premove_not_now(gid))
        moves = parse_line(words)
        if moves is None:
            raise Refusal(texts.premove_malformed())
        if len(mine) >= MOST_LINES or len(moves) > MOST_MOVES:
            raise Refusal(texts.premove_too_many(gid, MOST_LINES, MOST_MOVES))
        line = check_line(gid, position, moves)
        added = await ctx.store.add_premove_lines(gid, me.id, row.ply, [line], ctx.now())
        ctx.positions.pop(gid, None)  # its row counts the game's lines (a move checks it)
        if not added:
            raise Refusal(texts.changed_meanwhile(gid))
        return _private(texts.premove_set(gid, len(mine) + 1, line), gid)


async def lines_of(ctx: Context, user: User, game_id: int) -> list[tuple[str, ...]]:
    """``user``'s prepared lines of game ``game_id``, first line first (none for anyone who
    does not play in it)."""
    me = await loading.player(ctx, user)
    return [line.moves for line in await ctx.store.premoves_of(game_id, me.id)]


async def suggestions(
    ctx: Context, user: User, chat: Chat, game_id: int | None, typed: str, limit: int = 25
) -> list[str]:
    """The line typed so far completed with each legal move (or beginning of one, see
    :func:`~bot.sessions.picker.matches`) for its last, partly typed move, computed along the
    line: the opponent's moves after ``;`` (or at the start), yours after ``=>``.  Empty where
    ``user`` could not prepare a line, or the line so far is illegal (autocompletion never
    refuses)."""
    try:
        me = await loading.player(ctx, user)
        gid = await loading.pick_game(ctx, me, chat, game_id)
        loaded = await loading.load(ctx, gid)
    except Refusal:
        return []
    row, position = loaded.row, loaded.position
    seat = loading.seat(me, row)
    if seat is None or row.status != GameStatus.ACTIVE or row.to_move == seat:
        return []
    parts = [p.strip() for pair in typed.split(PAIRS) for p in pair.split(ARROW)]
    done, partial = parts[:-1], parts[-1]
    if any(not p for p in done):
        return []
    try:
        line = check_line(gid, position, done) if done else ()
    except Refusal:
        return []
    for move in line:
        position = position.play(move)
    if position.outcome is not None:
        return []
    head = "".join(
        move + (f" {ARROW} " if n % 2 == 0 else f"{PAIRS} ") for n, move in enumerate(line)
    )
    found = [head + move for move in matches(position, partial, limit)]
    return [text for text in found if len(text) <= SUGGESTION_LIMIT]


def _private(text: Text, game_id: int) -> Reply:
    return Reply(text, game_id=game_id, private=True)


async def follow_up(
    ctx: Context, row: GameRow, after: Position, mover: PlayerRow
) -> FollowUp | None:
    """What ``mover``'s move, which made ``after`` from ``row``, brings from the prepared
    lines of the player to move next (see :class:`FollowUp`); ``None`` when they have none
    (or the move ended the game, which ends its lines too).  A game that keeps no lines, as
    its stored row counts them (``GameRow.premove_lines``), costs no read."""
    if after.outcome is not None or not row.premove_lines:
        return None
    seat = after.to_move
    owner_id = row.seats[seat]
    lines = [line for line in await ctx.store.premove_lines(row.id, row.ply)]
    lines = [line for line in lines if line.player_id == owner_id and len(line.moves) >= 2]
    if not lines:
        return None
    owner = await loading.player_by_id(ctx, owner_id)
    title = presentation.title(row)
    their = after.last_move or ""
    match = next((line for line in lines if line.moves[0] == their), None)
    if match is None:
        said = texts.premove_dropped_note(row.id, title, presentation.mention(mover), their)
        return FollowUp(owner, seat, notes=_told(ctx, owner, row, said))
    try:
        reply = after.play(match.moves[1])
    except IllegalMove as exc:  # checked when set: only a change of the rules gets here
        said = texts.premove_stopped_note(row.id, title, match.moves[1], texts.illegal_said(exc))
        return FollowUp(owner, seat, notes=_told(ctx, owner, row, said))
    outcome = reply.outcome
    if outcome is not None and outcome.winner not in (None, seat):
        said = texts.premove_stopped_note(
            row.id, title, reply.last_move or match.moves[1], outcome.termination
        )
        return FollowUp(owner, seat, notes=_told(ctx, owner, row, said))
    kept = tuple(
        line.moves[2:]
        for line in lines
        if line.moves[:2] == match.moves[:2] and len(line.moves) > 2
    )
    return FollowUp(owner, seat, reply, kept)


def _told(ctx: Context, owner: PlayerRow, row: GameRow, said: Text) -> tuple[Notification, ...]:
    """``said`` to ``owner`` alone, once for this ply of the game (a direct message, held
    through their quiet hours)."""
    now = ctx.now()
    note = policy.note(
        ctx, owner, Kind.PREMOVE, said, now, game_id=row.id, dedupe=f"premove:{row.id}:{row.ply}"
    )
    return (replace(note, chat=None, direct=True),)
