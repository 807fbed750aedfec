"""Challenges: made, accepted (which starts the game), declined, cancelled, expired."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import engines
from bot.core.notification import Kind
from bot.core.status import ChallengeStatus
from bot.messages import Action, ActionKind, Chat, Mention, Need, NeedKind, Reply, ReplyKind, User
from bot.outcomes import ChallengeRefusal, Refused, Started
from bot.sessions import digest, loading, policy, posts, presentation, standings, texts
from bot.sessions.context import (
    DEFAULT_TIME_PER_MOVE,
    FIRST_CHOICES,
    TIME_CHOICES,
    Context,
    Refusal,
    checked_id,
)
from bot.storage import ChallengeRow, First, NewGame, PlayerRow
from engines.base import option_text, shown

__all__ = ["accept", "cancel", "challenge", "checked_handle", "decline", "expire_challenges"]

# A platform username as Telegram allows them (letters, digits, underscores).
_HANDLE = re.compile(r"[A-Za-z0-9_]{1,32}")


def checked_handle(typed: str) -> str:
    """A username to invite (``@`` in front allowed), in lower case: usernames match without
    regard to case; :class:`Refusal` when it cannot be one.

    >>> checked_handle("@Bob_7")
    'bob_7'
    """
    name = typed.removeprefix("@") if isinstance(typed, str) else ""
    if not _HANDLE.fullmatch(name):
        raise Refusal(texts.bad_handle(shown(str(typed))))
    return name.lower()


def _has_handle(user: User, handle: str | None) -> bool:
    """Whether ``user`` is the player a challenge to ``handle`` invites."""
    return handle is not None and (user.username or "").lower() == handle


def checked_terms(
    game: str, options: Mapping[str, Any] | None, first: str, time_per_move: float | None
) -> tuple[str, engines.Game, dict[str, Any]]:
    """The name, the game and its resolved options for a challenge's terms (also a game
    against the bot); :class:`Refusal` for a term that is not valid."""
    name = game.strip().lower() if isinstance(game, str) else ""
    spec = engines.GAMES.get(name)
    if spec is None:
        raise Refusal(texts.no_such_game_name(shown(str(game)), list(engines.GAMES)))
    try:
        resolved = spec.resolve_options(**dict(options or {}))
    except engines.OptionError as exc:
        raise Refusal(texts.option_refused(exc)) from None
    except ValueError as exc:  # an option's own check of its value
        raise Refusal(str(exc)) from None
    except TypeError:
        raise Refusal(texts.options_need_values()) from None
    if first not in FIRST_CHOICES:
        raise Refusal(texts.bad_first(FIRST_CHOICES, shown(str(first))))
    if time_per_move not in TIME_CHOICES:
        choices = ", ".join("none" if t is None else f"{t}" for t in TIME_CHOICES)
        raise Refusal(texts.bad_days(choices))
    return name, spec, resolved


async def challenge(
    ctx: Context,
    user: User,
    chat: Chat,
    game: str,
    opponent: User | None = None,
    options: Mapping[str, Any] | None = None,
    first: str = "random",
    time_per_move: float | None = DEFAULT_TIME_PER_MOVE,
    rated: bool | str = True,
    username: str | None = None,
) -> Reply:
    """Challenge ``opponent`` (or anyone in the chat, if ``None``) to ``game``.

    ``options`` are the game's options (text values are accepted, e.g. ``{"size": "16"}``);
    ``first`` is who takes seat 0 (``me``, ``them`` or ``random``); ``time_per_move`` is in
    days (``None``, 1, 3, 7 or 14); ``rated=False`` (or ``"no"``) makes a casual game.
    ``username`` (with no ``opponent``) invites the player with that platform username, whose
    id is not known yet: only they can accept, which binds their id.
    """
    name, spec, resolved = checked_terms(game, options, first, time_per_move)
    is_rated = standings.parse_rated(rated)
    handle = None if opponent is not None or username is None else checked_handle(username)
    if _has_handle(user, handle):
        raise Refusal(texts.not_yourself())
    me = await loading.player(ctx, user)
    target: PlayerRow | None = None
    if opponent is not None:
        if opponent.platform != user.platform:
            raise Refusal(texts.other_platform_player())
        if opponent.user_id == user.user_id:
            raise Refusal(texts.not_yourself())
    now = ctx.now()
    # At the limit nothing is stored, not even the player named (the store checks the limit
    # again in the transaction that adds the challenge).
    pending = await ctx.store.pending_challenges(me.id, now)
    if sum(c.challenger == me.id for c in pending) >= ctx.max_pending:
        raise Refusal(texts.too_many_pending(ctx.max_pending))
    if opponent is not None:
        target = await loading.someone(ctx, opponent)
    # A repeat of a pending challenge points to it instead of piling up.
    for twin in pending:
        same = (twin.challenger, twin.target, twin.target_name, twin.chat_id, twin.game) == (
            me.id, None if target is None else target.id, handle, chat.chat_id, name
        )  # fmt: skip
        terms_alike = (twin.options, twin.first, twin.time_per_move, twin.rated)
        if same and terms_alike == (resolved, first, time_per_move, is_rated):
            raise Refusal(texts.same_challenge_pending(twin.id))
    options_said = ", ".join(f"{k}={option_text(v)}" for k, v in resolved.items())
    opener = engines.new(name, **resolved).to_move
    terms = texts.terms(spec.title, options_said, first, spec.sides, opener or 0, time_per_move)
    players = (me,) if target is None else (me, target)
    ratings = await standings.challenge_line(ctx, name, resolved, is_rated, players, chat)
    notes = []
    if target is not None:
        # The card answering the challenge names the challenged player in the chat; they
        # hear privately too only if they asked for direct messages.
        notes = policy.private_notes(
            ctx,
            target,
            Kind.CHALLENGE,
            texts.challenge_note(presentation.mention(me), terms, "{challenge}") + ratings,
            now,
            actions=(
                Action.make("Accept", ActionKind.ACCEPT, "{challenge}"),
                Action.make("Decline", ActionKind.DECLINE, "{challenge}"),
            ),
        )
    created = await ctx.store.create_challenge(
        challenger=me.id,
        target=None if target is None else target.id,
        platform=chat.platform,
        chat_id=chat.chat_id,
        game=name,
        options=resolved,
        first=First(first),
        time_per_move=time_per_move,
        now=now,
        expires_at=now + ctx.challenge_ttl,
        limit=ctx.max_pending,
        notes=notes,
        rated=is_rated,
        community=chat.community_id,
        target_name=handle,
    )
    if created is None:
        raise Refusal(texts.too_many_pending(ctx.max_pending))
    hours = ctx.challenge_ttl.total_seconds() / 3600
    whom: Mention | str | None = None if handle is None else texts.invited_handle(handle)
    if target is not None:
        whom = presentation.mention(target)
    text = texts.challenged(presentation.mention(me), whom, terms, created.id, hours) + ratings
    addressed = target is not None or handle is not None
    actions = (
        Action.make("Accept", ActionKind.ACCEPT, created.id),
        Action.make(
            "Decline" if addressed else "Cancel",
            ActionKind.DECLINE if addressed else ActionKind.CANCEL,
            created.id,
        ),
    )
    return Reply(text, actions=actions, challenge_id=created.id, kind=ReplyKind.CARD)


async def _pick_challenge(
    ctx: Context,
    player: PlayerRow,
    chat: Chat,
    challenge_id: int | None,
    role: str,
    user: User | None = None,
) -> ChallengeRow:
    now = ctx.now()
    if challenge_id is not None:
        challenge = await ctx.store.get_challenge(checked_id(challenge_id, "challenge"))
        if challenge is None:
            raise Refusal(texts.no_such_challenge(challenge_id))
        return challenge
    pending = await ctx.store.pending_challenges(player.id, now)
    if role == "challenger":
        mine = [c for c in pending if c.challenger == player.id]
    else:
        mine = [c for c in pending if c.target == player.id]
        if role == "accepter":
            mine += [
                c
                for c in await ctx.store.open_challenges(chat.platform, chat.chat_id, now)
                if c.challenger != player.id
                and (
                    c.target_name is None or (user is not None and _has_handle(user, c.target_name))
                )
            ]
    if not mine:
        raise Refusal(texts.no_pending_challenge(), Need(NeedKind.CHALLENGE))
    if len(mine) > 1:
        ids = [c.id for c in mine]
        raise Refusal(
            texts.which_challenge(len(mine), ids), Need(NeedKind.CHALLENGE, tuple(ids[:10]))
        )
    return mine[0]


#: The ends of a challenge after which its cards show nothing else (not an accepted one:
#: its card may have become the game's board).
_CLOSED = frozenset({ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED, ChallengeStatus.EXPIRED})


def _closed(challenge_id: int, status: str, *, lapsed: bool = False) -> Refusal:
    """The refusal of an answer to a challenge that is no longer pending (``status``; its
    time up while still pending: ``lapsed``), with its typed outcome
    (:class:`~bot.outcomes.ChallengeRefusal`)."""
    code = ChallengeRefusal.CLOSED if status in _CLOSED else ChallengeRefusal.TAKEN
    typed = Refused(code, {"challenge_id": challenge_id, "status": str(status)})
    if lapsed:
        return Refusal(texts.challenge_expired(challenge_id), refused=typed)
    return Refusal(texts.challenge_closed(challenge_id, status), refused=typed)


def _check_pending(ctx: Context, challenge: ChallengeRow) -> None:
    if challenge.status != ChallengeStatus.PENDING:
        raise _closed(challenge.id, challenge.status)
    if challenge.expires_at <= ctx.now():
        raise _closed(challenge.id, ChallengeStatus.EXPIRED, lapsed=True)


def _accepted_here(challenge: ChallengeRow, me: PlayerRow, user: User, chat: Chat) -> None:
    """A challenge belongs to the chat it was made in: an open one is accepted there only; one
    addressed to someone (by player or by handle) is accepted by them there or in their direct
    chat with the bot.  :class:`Refusal` ("no such challenge here") otherwise."""
    if (challenge.platform, challenge.chat_id) == (chat.platform, chat.chat_id):
        return
    addressee = challenge.target == me.id or (
        challenge.target is None
        and challenge.target_name is not None
        and _has_handle(user, challenge.target_name)
    )
    if not (addressee and chat.direct):
        raise Refusal(texts.no_challenge_here(challenge.id))


async def accept(ctx: Context, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
    """Accept a challenge (the only one for you here when no id is given); starts the game."""
    me = await loading.player(ctx, user)
    challenge = await _pick_challenge(ctx, me, chat, challenge_id, "accepter", user)
    _check_pending(ctx, challenge)
    if challenge.platform != chat.platform:
        raise Refusal(texts.challenge_elsewhere(challenge.id))
    _accepted_here(challenge, me, user, chat)
    if challenge.target is None:
        if challenge.challenger == me.id:
            raise Refusal(texts.own_open_challenge())
        if challenge.target_name is not None and not _has_handle(user, challenge.target_name):
            raise Refusal(texts.challenge_for_handle(challenge.id, challenge.target_name))
    elif challenge.target != me.id:
        target = await loading.player_by_id(ctx, challenge.target)
        raise Refusal(texts.challenge_for_other(challenge.id, presentation.mention(target)))
    try:
        position = engines.new(challenge.game, **challenge.options)
    except (ValueError, TypeError) as exc:
        await ctx.store.close_challenge(challenge.id, ChallengeStatus.CORRUPT, ctx.now())
        raise Refusal(texts.challenge_unreadable(challenge.id, shown(str(exc), 80))) from None
    challenger = await loading.player_by_id(ctx, challenge.challenger)
    if challenge.first == "me":
        seats = (challenger, me)
    elif challenge.first == "them":
        seats = (me, challenger)
    else:
        seats = (challenger, me) if ctx.rng.random() < 0.5 else (me, challenger)
    now = ctx.now()
    sides = position.seat_sides
    to_move = seats[position.to_move]
    title = engines.GAMES[challenge.game].title
    # Accepting edits the card and posts the first board (naming the player to move) in the
    # chat: nothing more there.  Who asked for direct messages hears privately too.
    notes = policy.private_notes(
        ctx,
        challenger,
        Kind.CHALLENGE_ACCEPTED,
        texts.accepted_note(presentation.mention(me), challenge.id, "{game}", title),
        now,
    )
    if to_move.id != me.id:
        notes += policy.private_notes(
            ctx,
            to_move,
            Kind.YOUR_TURN,
            texts.first_turn_note("{game}", title, sides[position.to_move]),
            now,
            dedupe="your_turn:{game}:0",
            ply=0,
        )
        notes = await digest.fold(ctx, notes)  # with the digest on, it lists the turn
    row = await ctx.store.accept_challenge(
        challenge.id,
        me.id,
        NewGame(
            game=challenge.game,
            options=challenge.options,
            seat0=seats[0].id,
            seat1=seats[1].id,
            platform=challenge.platform,
            chat_id=challenge.chat_id,
            to_move=position.to_move,
            snapshot=position.to_dict(),
            time_per_move=challenge.time_per_move,
            deadline_at=policy.turn_deadline(ctx, to_move, challenge.time_per_move, now),
            rematch_of=challenge.rematch_of,
            challenge_id=challenge.id,
            rated=challenge.rated,
            community=challenge.community,
        ),
        now,
        notes,
    )
    if row is None:
        fresh = await ctx.store.get_challenge(challenge.id)
        status = "taken" if fresh is None else fresh.status
        raise _closed(challenge.id, status)
    ctx.positions[row.id] = (row, position)
    text = texts.accepted(
        presentation.mention(me),
        challenge.id,
        row.id,
        title,
        (
            texts.plays(presentation.mention(seats[0]), sides[0]),
            texts.plays(presentation.mention(seats[1]), sides[1]),
        ),
        texts.side(presentation.mention(to_move), sides[position.to_move]),
    )
    reply = Reply(
        text,
        actions=presentation.game_actions(row),
        game_id=row.id,
        challenge_id=challenge.id,
        outcome=Started(row.id),
    )
    reply = await presentation.picture(ctx, position, reply, row)
    return await presentation.as_board(ctx, reply, row, position, live=True)


async def decline(ctx: Context, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
    """Decline a challenge addressed to you."""
    me = await loading.player(ctx, user)
    challenge = await _pick_challenge(ctx, me, chat, challenge_id, "target")
    invited = challenge.target is None and _has_handle(user, challenge.target_name)
    if challenge.target != me.id and not invited:
        if challenge.challenger == me.id:
            raise Refusal(texts.yours_cancel_instead(challenge.id))
        if challenge.target_name is not None and challenge.target is None:
            raise Refusal(texts.challenge_for_handle(challenge.id, challenge.target_name))
        raise Refusal(texts.not_addressed_to_you(challenge.id))
    _check_pending(ctx, challenge)
    challenger = await loading.player_by_id(ctx, challenge.challenger)
    now = ctx.now()
    # The card in the chat is edited to say so: the challenger hears privately only if they
    # asked for direct messages.
    notes = policy.private_notes(
        ctx,
        challenger,
        Kind.CHALLENGE_DECLINED,
        texts.declined_note(presentation.mention(me), challenge.id),
        now,
    )
    if not await ctx.store.close_challenge(challenge.id, ChallengeStatus.DECLINED, now, notes):
        raise Refusal(texts.no_longer_pending(challenge.id))
    return Reply(
        texts.declined(presentation.mention(me), challenge.id, presentation.mention(challenger)),
        challenge_id=challenge.id,
    )


async def cancel(ctx: Context, user: User, chat: Chat, challenge_id: int | None = None) -> Reply:
    """Withdraw your own pending challenge."""
    me = await loading.player(ctx, user)
    challenge = await _pick_challenge(ctx, me, chat, challenge_id, "challenger")
    if challenge.challenger != me.id:
        raise Refusal(texts.not_yours_to_cancel(challenge.id))
    _check_pending(ctx, challenge)
    if not await ctx.store.close_challenge(challenge.id, ChallengeStatus.CANCELLED, ctx.now()):
        raise Refusal(texts.no_longer_pending(challenge.id))
    return Reply(texts.cancelled(presentation.mention(me), challenge.id), challenge_id=challenge.id)


async def expire_challenges(ctx: Context) -> list[ChallengeRow]:
    """Mark every challenge whose time is up as expired (a sweeper may call this); their
    cards are edited through the outbox (:func:`bot.sessions.posts.expire_challenges`)."""
    return await posts.expire_challenges(ctx)
