"""Typed command lines read at the edge: the words after a command word turned into
:class:`~bot.adapters.args.Args` (or a one-line refusal), and the small helpers typed commands
need (a game id like ``#42``, the hint that says how to type a missing one, the line to type
instead of pressing a button).  The commands themselves are described in
:mod:`bot.adapters.commands`.

>>> split_id(["#12", "e5"])
(12, ['e5'])
>>> split_id(["5"], digits=False)
(None, ['5'])
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from typing import Any

import engines
from bot.adapters.args import (
    AnswerArgs,
    AwayArgs,
    BrowseArgs,
    ChallengeArgs,
    ChallengeRef,
    GameArgs,
    GameRef,
    LeaderboardArgs,
    MoveArgs,
    Named,
    NoArgs,
    PageArgs,
    ResignArgs,
    SettingsArgs,
    StatsArgs,
)
from bot.adapters.kinds import (
    FIRST_MOVER,
    Answer,
    Days,
    GameId,
    Kind,
    Number,
    Player,
    Unreadable,
)
from bot.core.i18n import N_, fill, gettext
from bot.limits import ECHO_LIMIT, MAX_ID, MAX_PAGE, NAME_LIMIT, ascii_number
from bot.messages import Action, ActionKind, NeedKind, Reply
from bot.sessions import texts
from bot.sessions.clock import DEFAULT_TIME_CONTROL
from engines.base import shown

__all__ = [
    "MAX_NAME",
    "bad_id",
    "command_word",
    "split_id",
    "typed_action",
    "typed_hint",
    "unknown",
]

#: The kinds the typed forms read with (each one described in :mod:`bot.adapters.kinds`).
GAME_ID = GameId()
PAGE = Number(1, MAX_PAGE)
PLAYER = Player()
DAYS = Days()

#: The longest name a typed player may have (``as <name>``, ``challenge <name> ...``): the
#: one limit on names (:data:`bot.limits.NAME_LIMIT`).
MAX_NAME = NAME_LIMIT


def split_id(words: list[str], digits: bool = True) -> tuple[int | None, list[str]]:
    """Take a leading ``#42`` (or ``42`` when ``digits``) off ``words``."""
    if words:
        head = words[0]
        number = head[1:] if head.startswith("#") else head if digits else ""
        # ASCII digits in range only (``isdigit`` takes "²", ``int`` takes "٣").
        value = ascii_number(number, MAX_ID, low=1)
        if value is not None:
            return value, words[1:]
    return None, words


def bad_id(words: list[str]) -> str | None:
    """The refusal for a leading ``#...`` that is not an id (``#²``, ``#x``, ``#0``, an id
    beyond :data:`~bot.limits.MAX_ID`), else ``None``.

    >>> bad_id(["#\u00b2"])
    "'#²' is not an id: an id is # and digits 0-9, e.g. #12."
    >>> bad_id(["#12", "e5"]) is None
    True
    """
    if words and words[0].startswith("#"):
        try:
            GAME_ID.parse(words[0], lambda _: None)
        except Unreadable as unreadable:
            return str(unreadable)
    return None


def game_id_only(name: str, challenge: bool = False) -> Callable[[list[str], Named], Any]:
    """The typed form of a command that takes only an optional id (a game's, or with
    ``challenge`` a challenge's): ``board [#game]``, ``accept [challenge]``."""

    def parse(words: list[str], _: Named) -> GameRef | ChallengeRef | Reply:
        wrong = bad_id(words)
        if wrong is not None:
            return Reply.refuse(wrong)
        number, extra = split_id(words)
        if extra:
            return Reply.refuse(_f("{name} takes only an optional id, e.g. {name} #12.", name=name))
        return ChallengeRef(number) if challenge else GameRef(number)

    return parse


def answered(name: str, kind: Answer) -> Callable[[list[str], Named], AnswerArgs | Reply]:
    """The typed form of ``draw`` / ``takeback``: ``[#game] [accept|decline]`` (``yes`` /
    ``no`` too, read by ``kind``); with no answer, the request (offer, ask)."""

    def parse(words: list[str], named: Named) -> AnswerArgs | Reply:
        wrong = bad_id(words)
        if wrong is not None:
            return Reply.refuse(wrong)
        number, extra = split_id(words)
        try:
            answer = kind.parse(extra[0], named) if len(extra) == 1 else kind.values[0]
        except Unreadable:
            extra = [*extra, ""]
        if len(extra) > 1:
            return Reply.refuse(_f("Usage: {name} [#game] [accept|decline]", name=name))
        return AnswerArgs(number, answer)

    return parse


def move_words(words: list[str], _: Named) -> MoveArgs | Reply:
    """``move [#game] <move>``: the game (``#`` required: a bare number is a move) and the
    move, ``!`` at its end playing a losing move anyway."""
    wrong = bad_id(words)
    if wrong is not None:
        return Reply.refuse(wrong)
    game_id, move = split_id(words, digits=False)
    if not move:
        return Reply.refuse(gettext("Which move? move [#game] <move>, e.g. move e5."))
    return bare_move(" ".join(move), game_id)


def bare_move(text: str, game_id: int | None = None) -> MoveArgs:
    """A move typed without a command word (``e5``, ``e5 !``), in ``game_id`` if given."""
    # A move ending in "!" is played even if it loses (the typed "Play it anyway").
    confirm = text.rstrip().endswith("!")
    return MoveArgs(text.rstrip()[:-1] if confirm else text, game_id, confirm=confirm)


def resign_words(words: list[str], _: Named) -> ResignArgs | Reply:
    """``resign [#game] [!]``: asks first, unless the line ends in ``!``."""
    wrong = bad_id(words)
    if wrong is not None:
        return Reply.refuse(wrong)
    # Resigning asks first; a trailing "!" is the typed "Yes, resign".
    tail = " ".join(words).rstrip()
    number, extra = split_id(tail.removesuffix("!").split())
    if extra:
        return Reply.refuse(gettext("Usage: resign [#game] [!], e.g. resign #12."))
    return ResignArgs(number, confirm=tail.endswith("!"))


def games_words(words: list[str], named: Named) -> PageArgs | Reply:
    """``games [page]``."""
    if not words:
        return PageArgs()
    try:
        page = PAGE.parse(words[0], named)
    except Unreadable:
        page = None
    if page is None or len(words) > 1:
        return Reply.refuse(texts.page_usage(shown(words[0], ECHO_LIMIT)))
    return PageArgs(page)


def rules_words(words: list[str], _: Named) -> GameArgs | Reply:
    """``rules <game>``."""
    if not words:
        return Reply.refuse(
            _f("Which game? rules <game> ({games}).", games=", ".join(engines.GAMES))
        )
    return GameArgs(words[0])


def stats_words(words: list[str], named: Named) -> StatsArgs | Reply:
    """``stats [player]``: the player looked up by ``named``."""
    if len(words) > 1:
        return Reply.refuse(gettext("Usage: stats [player]"))
    if words and words[0].lower() == "bot":
        return StatsArgs(bot=True)
    try:
        return StatsArgs(PLAYER.parse(words[0], named) if words else None)
    except Unreadable as unknown_name:
        return Reply.refuse(str(unknown_name))


def away_words(words: list[str], _: Named) -> AwayArgs | Reply:
    """``away <days>``."""
    if len(words) != 1:
        return Reply.refuse(gettext("Usage: away <days>, e.g. away 5."))
    return AwayArgs(words[0])


def settings_words(words: list[str], _: Named) -> SettingsArgs | Reply:
    """``settings [name value ...]``."""
    if not words:
        return SettingsArgs()
    return SettingsArgs(words[0], " ".join(words[1:]))


def nothing(words: list[str], _: Named) -> NoArgs | Reply:
    """A command without parameters: whatever follows is ignored."""
    return NoArgs()


def browse_words(words: list[str], _: Named) -> BrowseArgs | Reply:
    """``browse`` is not typed (Discord's): whatever follows is ignored."""
    return BrowseArgs()


def leaderboard_words(words: list[str], named: Named) -> LeaderboardArgs | Reply:
    """``leaderboard <game> [size] [all]``: the game may name its size (``<game> 16``)."""
    everywhere = bool(words) and words[-1].lower() in ("all", "everywhere")
    game = words[:-1] if everywhere else words
    if not game or len(game) > 2:
        example = f"leaderboard {next(iter(engines.GAMES))} all"
        return Reply.refuse(_f("Usage: leaderboard <game> [all], e.g. {example}.", example=example))
    return LeaderboardArgs(" ".join(game), everywhere)


CHALLENGE_USAGE = (
    "challenge <player|open> <game> [option=value ...] [first=me|them|random] "
    "[days=none|1|3|7|14] [rated=no]"
)


def challenge_words(words: list[str], named: Named) -> ChallengeArgs | Reply:
    """``challenge <player|open|bot> <game> [option=value ...]``: the opponent looked up
    by ``named`` (an ``@username`` it cannot find is invited by name), ``first=``,
    ``days=``, ``rated=``, ``level=`` (against the bot) and the game's own options."""
    if words and words[0].lower() == "bot" and (len(words) == 1 or words[1].lower() == "help"):
        return ChallengeArgs(bot=True)  # no game: the bot's levels and their ratings
    if len(words) < 2:
        return Reply.refuse(_f("Usage: {usage}", usage=CHALLENGE_USAGE))
    who, game, settings = words[0], words[1], words[2:]
    if len(who) > MAX_NAME or not who.isprintable():
        # Such a player could never type "as <name>" to accept.
        too_long = N_("A player's name is one word of at most {count} characters.")
        return Reply.refuse(_f(too_long, count=str(MAX_NAME)))
    against_bot = who.lower() == "bot"
    anyone = who.lower() in ("open", "anyone")
    opponent = None if against_bot or anyone else named(who)
    # A name the adapter cannot look up: invited by username (matched when they accept).
    username = who if opponent is None and who.startswith("@") else None
    if opponent is None and username is None and not against_bot and not anyone:
        return Reply.refuse(texts.not_met(who))
    read = named_values(settings, CHALLENGE_USAGE, named, {"first": FIRST_MOVER, "days": DAYS})
    if isinstance(read, Reply):
        return read
    options = {k: v for k, v in read.items() if k not in ("first", "days", "level", "rated")}
    rated = read.get("rated")
    if against_bot and rated is not None and rated.lower() != "no":
        return Reply.refuse(gettext("Games against the bot are never rated: leave out rated=."))
    return ChallengeArgs(
        game=game,
        player=opponent,
        username=username,
        bot=against_bot,
        first=read.get("first", "random"),
        days=read.get("days", DEFAULT_TIME_CONTROL),
        level=read.get("level", "normal") if against_bot else None,
        rated="yes" if rated is None else rated,
        options=options if against_bot else {**options, **_level_as_option(read, against_bot)},
    )


def _level_as_option(read: dict[str, Any], against_bot: bool) -> dict[str, Any]:
    # level= names the bot's level; against a person it is passed on as the game's option
    # (which no game has: the manager refuses it in its words), as it always was.
    return {"level": read["level"]} if "level" in read and not against_bot else {}


def named_values(
    items: list[str], usage: str, named: Named, kinds: dict[str, Kind]
) -> dict[str, Any] | Reply:
    """``name=value`` words read into values: each name in ``kinds`` by its kind (``time=``
    is ``days=``), any other as typed (a game's own option, checked by the game); a refusal
    for a word that is not ``name=value`` or a value its kind cannot read."""
    read: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name or not value:
            wrong = N_("{item} is not option=value. Usage: {usage}")
            return Reply.refuse(_f(wrong, item=repr(item[:24]), usage=usage))
        name = name.lower()
        name = "days" if name == "time" else name
        kind = kinds.get(name)
        try:
            read[name] = value if kind is None else kind.parse(value, named)
        except Unreadable as unreadable:
            return Reply.refuse(str(unreadable))
    return read


def typed_hint(reply: Reply, word: str) -> str | None:
    """How to type what a refusal says is missing (a game or challenge id), for the command
    ``word`` (``move`` for a bare move line); ``None`` if nothing is missing.

    >>> from bot.messages import Need
    >>> typed_hint(Reply.refuse("x", Need(NeedKind.GAME)), "board")
    'Give a game id, e.g. #42.'
    >>> typed_hint(Reply.refuse("x", Need(NeedKind.GAME, (3, 5))), "move")
    'Put its id first, e.g. move #3 e5.'
    """
    need = reply.need
    if need is None:
        return None
    if need.kind is NeedKind.CHALLENGE:
        # Challenges are numbered without "#", which marks games.
        if not need.candidates:
            return _f("Give a challenge number, e.g. {word} 8.", word=word)
        return _f(
            "Put its number first, e.g. {word} {number}.", word=word, number=str(need.candidates[0])
        )
    if not need.candidates:
        return gettext("Give a game id, e.g. #42.")
    example = f"{word} #{need.candidates[0]}" + (" e5" if word == "move" else "")
    return _f("Put its id first, e.g. {example}.", example=example)


def typed_action(action: Action) -> str | None:
    """The line to type instead of pressing ``action``, where one differs from its id (it
    names the game, so it can be followed as written with several games in the chat).

    >>> typed_action(Action.make("Play it anyway", ActionKind.MOVE_ANYWAY, 3, 8, "e5"))
    'move #3 e5 !'
    >>> typed_action(Action.make("Yes, resign", ActionKind.RESIGN_CONFIRMED, 3, 7, 1767226200))
    'resign #3 !'
    """
    if action.kind is ActionKind.MOVE_ANYWAY:
        return f"move #{action.subject} {action.fields[2]} !"
    if action.kind is ActionKind.RESIGN_CONFIRMED:
        return f"resign #{action.subject} !"
    return None


def _f(message: str, **values: str) -> str:
    """``message`` in the language in use, its ``{name}`` placeholders filled."""
    return fill(gettext(message), values)


def command_word(line: str) -> str:
    """The first word of ``line`` as a command word: lower case, without the ``/`` chat bots'
    users type before it (nor a Telegram-style ``@botname`` after it).

    >>> command_word("/Board@hexhall_bot #3"), command_word("e5"), command_word("")
    ('board', 'e5', '')
    """
    words = line.split()
    if not words:
        return ""
    return words[0].lower().removeprefix("/").partition("@")[0]


def unknown(word: str, known: Sequence[str] = ()) -> str:
    """The refusal of a line that is neither a command nor written like a move: with the
    nearest of the ``known`` command names when one is close (a typo such as ``/mvoe``).

    >>> unknown("/mvoe", ("move", "board"))
    "Unknown command '/mvoe'; did you mean /move? help lists them."
    >>> unknown("xyzzy", ("move",))
    "Unknown command 'xyzzy'; help lists them."
    """
    slash = "/" if word.startswith("/") else ""
    bare = word.removeprefix("/").partition("@")[0].lower()
    close = difflib.get_close_matches(bare, list(known), n=1, cutoff=0.6)
    if close:
        return _f(
            "Unknown command {word}; did you mean {command}? help lists them.",
            word=repr(shown(word)),
            command=f"{slash}{close[0]}",
        )
    return _f("Unknown command {word}; help lists them.", word=repr(shown(word)))
