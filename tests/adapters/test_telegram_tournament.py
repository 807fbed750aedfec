"""A whole tournament through the Telegram adapter and the fake Bot API (issue 29): opened
with /tournament new, joined by the card's Join button, started, its games played with
/resign and /draw, the standings as a picture, the start and the result posted in the group
by the real outbox.

Telegram fact relied on: an inline keyboard button's ``callback_data`` ("Data to be sent in a
callback query to the bot when the button is pressed, 1-64 bytes",
https://core.telegram.org/bots/api#inlinekeyboardbutton, as quoted by
https://grammy.dev/ref/types/inlinekeyboardbutton/callbackbutton) comes back as it was sent,
so the Join button's id carries its whole meaning (``tj:<tournament>``, a few bytes)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest
import telegram

from bot.adapters.telegram.taps import Taps
from bot.sessions import policy, texts
from bot.storage import PostKind
from bot.storage.dbapi import Conn, to_ts
from tests.adapters.telegram_kit import DEADLINE, Bot, running


async def _answer(
    bot: Bot, user: telegram.User, chat: telegram.Chat, text: str, expect: str
) -> telegram.Message:
    """``user`` writes ``text``; the first bot message after it that holds ``expect`` (the
    real outbox posts notices in the group meanwhile)."""
    await bot.fake.send_text(user, chat, text)
    after = bot.fake.last_message_id(chat)
    found: list[telegram.Message] = []

    def check() -> bool:
        found[:] = [
            m for m in bot.fake.sent_after(chat, after) if expect in (m.text or m.caption or "")
        ][:1]
        return bool(found)

    await bot.fake.wait_until(check, timeout=DEADLINE)
    return found[0]


#: The answer's grace in these tests: boards committed for an answer (a move's, a result's) are
#: still held until the answer is out (milliseconds), without waiting the real 10 s.
GRACE = timedelta(seconds=1)
#: How often the outbox looks for due notes when nothing wakes it (the kit's default is 1 s).
POLL = 0.1


@pytest.fixture(autouse=True)
def short_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """The boards' grace scaled down (the order it keeps is the same)."""
    monkeypatch.setattr(policy, "ANSWER_GRACE", GRACE)


async def test_a_tournament_from_sign_up_to_result(tmp_path: Path) -> None:
    async with running(tmp_path / "t.db", deliver=True, poll=POLL) as bot:
        fake = bot.fake
        ada, bo, cy = (
            fake.user(31, "Ada", "ada"),
            fake.user(32, "Bo", "bo"),
            fake.user(33, "Cy", "cy"),
        )
        group = fake.group(-300, "Hex club")
        card = await bot.say(ada, group, "/tournament new pathagon days=1")
        assert card.text is not None and "Tournament 1: Pathagon" in card.text, card.text
        assert bot.labels(card) == ["Join", "Leave"]
        for player in (bo, cy):
            _, alert_text, alert = await bot.press(player, card, bot.button(card, "Join"))
            assert not alert, alert_text
            # The card is edited in place (after the press is answered): who joined, and its
            # buttons kept.
            said = f"{player.first_name} joined"
            await fake.wait_until(
                lambda said=said: said in (fake.message(group, card.message_id).text or ""),
                timeout=DEADLINE,
            )
            edited = fake.message(group, card.message_id)
            assert bot.labels(edited) == ["Join", "Leave"]
        # A later tap, not a double tap: no double-tap window.
        bot.adapter.taps = Taps(window=0.0)
        _, text, alert = await bot.press(bo, card, bot.button(card, "Join"))
        assert alert and text is not None and "already in" in text
        await _answer(bot, ada, group, "/tournament start", "3 games at once")
        rows = [
            await bot.manager.store.get_game(g.game_id)
            for g in await bot.manager.store.tournament_games(1)
        ]
        shown = [f"game #{row.id} begins" for row in rows if row is not None]

        def boards() -> list[telegram.Message]:
            return [
                m
                for m in fake.sent(group)
                if m.photo and any(s in (m.caption or "") for s in shown)
            ]

        # Each game is posted with its board, by the outbox, once the answer is out.
        await fake.wait_until(lambda: len(boards()) == 3, timeout=DEADLINE)
        for board, row in zip(sorted(boards(), key=bot.game_id), rows, strict=True):
            assert row is not None and bot.game_id(board) == row.id
            mover = await bot.to_move(row.id, ada, bo, cy)
            # The board's caption names (pings) the player to move: their turn notice.
            assert f'href="tg://user?id={mover.id}"' in (board.caption_html or ""), board
        users = {str(u.id): u for u in (ada, bo, cy)}
        ids = {}
        for u in (ada, bo, cy):
            player = await bot.manager.players.player(bot.as_user(u))
            ids[player.id] = u
        # Each game: the second player resigns, except the last, drawn by agreement.  A day
        # after each of the first two results, the sweep updates the standings: the first
        # update is posted, the second edits it in place.
        updates: list[telegram.Message] = []
        for done, row in enumerate(rows[:-1], start=1):
            assert row is not None
            loser = ids[row.seat1]
            await _answer(bot, loser, group, f"/resign #{row.id} !", "resign")
            await _a_day_later(bot, 1)
            await bot.manager.sweep()
            said = f"({done} of 3 games played)"

            def updated(said: str = said) -> bool:
                updates[:] = [m for m in fake.sent(group) if "day's standings" in _shown(m)]
                return bool(updates) and said in _shown(fake.message(group, updates[0].message_id))

            await fake.wait_until(updated, timeout=DEADLINE)
            assert len(updates) == 1, "the second update edits the first message"
            await bot.eventually(lambda: _remembered(bot))
            # The table picture with the text as its caption, the picture replaced too.
            now = fake.message(group, updates[0].message_id)
            assert now.photo and len(fake.photo_bytes(now)) > 1000
            # The day's standings ping nobody: no text mention, nobody put in front.
            assert not any(
                e.type == "text_mention" or (e.url or "").startswith("tg://user")
                for e in now.caption_entities
            )
            assert (now.caption or "").startswith("Tournament 1") or "day's" in (
                now.caption or ""
            ).split("\n")[0]
        assert [c.method for c in fake.calls].count("editMessageMedia") == 1
        last = rows[-1]
        assert last is not None
        await _answer(bot, ids[last.seat0], group, f"/draw #{last.id}", "draw")
        await _answer(bot, ids[last.seat1], group, f"/draw #{last.id} accept", "draw")
        await bot.manager.sweep()
        await fake.wait_until(
            lambda: any("is over" in (m.text or "") for m in fake.sent(group)[-8:]),
            timeout=30,
        )
        standings = await _answer(bot, cy, group, "/tournament 1", "Standings of tournament 1")
        assert standings.photo, "the standings come as a picture"
        png = fake.photo_bytes(standings)
        assert len(png) > 1000
        assert standings.caption is not None and "Standings of tournament 1" in standings.caption
        assert users  # every player was a Telegram user of the group
        # Nothing about the start was posted twice: one start message, one board per game.
        assert sum("has started" in (m.text or "") for m in fake.sent(group)) == 1
        assert len(boards()) == 3
        # The final result is a new message; the day's standings stayed one message.
        assert sum("day's standings" in _shown(m) for m in fake.sent(group)) == 1


async def _remembered(bot: Bot) -> bool:
    """Whether tournament 1's standings message is remembered (right after it is sent)."""
    return bool(
        await bot.manager.posts.posts_for("telegram", tournament_id=1, kind=PostKind.STANDINGS)
    )


def _shown(message: telegram.Message) -> str:
    return message.text or message.caption or ""


async def _a_day_later(bot: Bot, tournament_id: int) -> None:
    """As if the tournament's last standings were posted two days ago (the bot runs on the
    real clock): the next sweep may post the day's update."""
    when = to_ts(bot.manager.now() - timedelta(days=2))

    async def back(conn: Conn) -> None:
        await conn.execute(
            "UPDATE tournaments SET standings_at = ? WHERE id = ?", (when, tournament_id)
        )

    await bot.manager.store._write(back)


async def test_standings_whose_message_is_gone_are_posted_anew(tmp_path: Path) -> None:
    """The standings message remembered no longer exists (deleted in the group: Telegram
    answers the edit with "message to edit not found"): the day's standings are posted as a
    new message, which the next update edits."""
    async with running(tmp_path / "t.db", deliver=True, poll=POLL) as bot:
        fake = bot.fake
        ada, bo, cy = (
            fake.user(41, "Ada", "ada"),
            fake.user(42, "Bo", "bo"),
            fake.user(43, "Cy", "cy"),
        )
        group = fake.group(-400, "Hex club")
        await bot.say(ada, group, "/tournament new pathagon days=1")
        for player in (bo, cy):
            await _answer(bot, player, group, "/tournament join", "joined")
        await _answer(bot, ada, group, "/tournament start", "3 games at once")
        gone = await bot.manager.posts.remember_post(
            "telegram", str(group.id), "999999", PostKind.STANDINGS, tournament_id=1
        )
        assert gone == []
        (first, *_) = await bot.manager.store.tournament_games(1)
        row = await bot.manager.store.get_game(first.game_id)
        assert row is not None
        seat1 = await bot.manager.store.get_player(row.seat1)
        assert seat1 is not None
        loser = next(u for u in (ada, bo, cy) if str(u.id) == seat1.user_id)
        await _answer(bot, loser, group, f"/resign #{row.id} !", "resign")
        await _a_day_later(bot, 1)
        await bot.manager.sweep()

        def posted() -> list[telegram.Message]:
            return [m for m in fake.sent(group) if "day's standings" in _shown(m)]

        await fake.wait_until(lambda: len(posted()) == 1, timeout=DEADLINE)
        (day,) = posted()
        assert day.photo and "(1 of 3 games played)" in _shown(day)

        # Remembered right after Telegram answered: the next update edits this one.
        async def remembered() -> bool:
            known = await bot.manager.posts.posts_for(
                "telegram", tournament_id=1, kind=PostKind.STANDINGS
            )
            return [p.message_id for p in known][-1] == str(day.message_id)

        await bot.eventually(remembered)


async def _leave(
    bot: Bot, user: telegram.User, group: telegram.Chat, other: telegram.User, expect: str
) -> telegram.Message:
    """``user`` types ``/tournament leave``: asked of them alone (they never opened the bot:
    under their message, naming them), ``other``'s yes refused; their yes leaves: the first
    message after it that holds ``expect``."""
    question = await _answer(bot, user, group, "/tournament leave", "Really leave")
    assert (question.text or "").startswith(f"{user.first_name}: Really leave")
    assert bot.labels(question) == [texts.YES_LEAVE, texts.NOT_NOW]
    _, said, alert = await bot.press(other, question, bot.button(question, texts.YES_LEAVE))
    assert alert, said
    after = bot.fake.last_message_id(group)
    _, said, alert = await bot.press(user, question, bot.button(question, texts.YES_LEAVE))
    assert not alert, said
    found: list[telegram.Message] = []

    def check() -> bool:
        shown = bot.fake.sent_after(group, after)
        found[:] = [m for m in shown if expect in (m.text or m.caption or "")][:1]
        return bool(found)

    await bot.fake.wait_until(check, timeout=DEADLINE)
    return found[0]


async def test_typed_join_and_leave_keep_one_card_and_a_withdrawal_is_said_once(
    tmp_path: Path,
) -> None:
    """Issue 45: a typed ``tournament join`` (or ``leave``) edits the chat's sign-up card to
    the new list and is answered with that one line, never with a second card whose count
    differs from the first's; leaving a running tournament is said once (the answer), not a
    second time by the outbox."""
    async with running(tmp_path / "t.db", deliver=True, poll=POLL) as bot:
        fake = bot.fake
        ada, bo, cy = (
            fake.user(51, "Ada", "ada"),
            fake.user(52, "Bo", "bo"),
            fake.user(53, "Cy", "cy"),
        )
        group = fake.group(-500, "Hex club")
        card = await bot.say(ada, group, "/tournament new pathagon days=1")

        def cards() -> list[telegram.Message]:
            return [m for m in fake.sent(group) if "Join" in bot.labels(m)]

        for player, line, said in (
            (bo, "/tournament join", "Bo joined tournament 1 (Pathagon): 2 of"),
            (cy, "/tournament join", "Cy joined tournament 1 (Pathagon): 3 of"),
            (cy, "/tournament leave", "Cy left tournament 1 (Pathagon): 2 players now"),
            (cy, "/tournament join", "Cy joined tournament 1 (Pathagon): 3 of"),
        ):
            if "leave" in line:  # asked of Cy alone first (issue 45), then said
                answer = await _leave(bot, cy, group, bo, said)
                continue
            answer = await _answer(bot, player, group, line, said)
            assert bot.labels(answer) == [] and "Join" not in (answer.text or "")
            assert [m.message_id for m in cards()] == [card.message_id]
            edited = fake.message(group, card.message_id).text or ""
            assert edited.startswith(said) and "Tournament 1: Pathagon" in edited
        await _answer(bot, ada, group, "/tournament start", "3 games at once")
        await _leave(bot, cy, group, bo, "Cy left and is withdrawn")

        async def settled() -> bool:
            due = await bot.manager.store.due_notifications("telegram", bot.manager.now(), 50)
            return not due

        await bot.eventually(settled)
        assert sum("withdrawn" in _shown(m) for m in fake.sent(group)) == 1
