"""The end of a game on Telegram with pictures on: the GIF recap follows as an animation
(drawn by the outbox's recap worker), and ``/export`` sends the record as a ``.txt``
document that ``hexhall import`` reads back."""

from __future__ import annotations

from pathlib import Path

import telegram

from bot.sessions.records import parse
from tests.adapters.telegram_kit import DEADLINE, running
from tests.bot.session_kit import finishing_moves

GAME = "inphexion"


async def test_recap_animation_and_export_document(tmp_path: Path) -> None:
    moves = finishing_moves(GAME)
    async with running(tmp_path / "t.db", deliver=True) as bot:
        fake = bot.fake
        alice, bob = fake.user(51, "Alice", "alice"), fake.user(52, "Bob", "bob")
        group = fake.group(-700, "Hex club")
        await fake.send_text(bob, group, "hi")
        card = await bot.say(alice, group, f"/challenge {GAME} first=me", reply_to=(group.id, 1))
        before = fake.last_message_id(group)
        await bot.press(bob, card, bot.button(card, "Accept"))
        board = await fake.wait_for_message(group, lambda m: bool(m.photo), timeout=DEADLINE)
        assert board.message_id > before
        game_id = bot.game_id(board)
        for move in moves:
            mover = await bot.to_move(game_id, alice, bob)
            before = fake.last_message_id(group)
            await fake.send_text(mover, group, f"/move #{game_id} {move}!")
            answer = await fake.wait_for_message(
                group,
                lambda m, b=before: m.message_id > b and bool(m.photo),
                timeout=DEADLINE,
            )
            assert answer.caption is not None and f"played {move}" in answer.caption
        assert await bot.manager.games.player_to_move(game_id) is None
        recap = await fake.wait_for_message(
            group, lambda m: m.animation is not None, timeout=DEADLINE * 2
        )
        assert recap.animation is not None and recap.animation.duration.total_seconds() > 0
        assert fake.file_bytes(recap.animation.file_id).startswith(b"GIF8")
        assert recap.caption is not None and f"#{game_id}" in recap.caption
        # Everyone's, asking nobody to act: it pings nobody (no text mention, nobody put first).
        assert not any(_mentions_someone(e) for e in recap.caption_entities)
        assert not recap.caption.startswith(("Alice:", "Bob:"))
        assert len(fake.calls_to("sendAnimation")) == 1
        # The record as a document.
        await fake.send_text(alice, group, f"/export #{game_id}")
        exported = await fake.wait_for_message(
            group, lambda m: m.document is not None and m.animation is None, timeout=DEADLINE
        )
        assert exported.document is not None
        assert exported.document.file_name == f"hexhall-{game_id}.txt"
        record = parse(fake.file_bytes(exported.document.file_id).decode())
        assert list(record.moves) == list(moves)


def _mentions_someone(entity: telegram.MessageEntity) -> bool:
    """Whether a message entity notifies a user: a text mention (``tg://user?id=`` links
    are sent for them)."""
    return entity.type == "text_mention" or (entity.url or "").startswith("tg://user")
