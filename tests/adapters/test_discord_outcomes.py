"""The Discord adapter decides from the answers' typed outcomes (bot.outcomes), never from
their words: a stale challenge card is closed by its own press in German, and after the
sessions word the refusal differently."""

from __future__ import annotations

import types
from pathlib import Path

import pytest

from bot.core import i18n
from bot.messages import Text, say
from bot.sessions import challenges, texts
from bot.sessions.clock import FakeClock
from tests.adapters.discord_kit import ALICE, BOB, CAROL, DEADLINE, labels, running
from tests.fakes.discord_fake import FakeDiscord, ResponseKind, StoredMessage


def _accept_id(card: StoredMessage) -> str:
    """The custom id of a card's Accept button, whatever language its label is in."""
    for component in card.walk_components():
        if component.get("type") == 2 and str(component.get("custom_id", "")).startswith("acc:"):
            return str(component["custom_id"])
    raise AssertionError(f"no Accept on the card (has {labels(card)})")


@pytest.mark.parametrize("reworded", [False, True])
async def test_a_stale_card_is_closed_by_its_outcome_in_any_words(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, reworded: bool
) -> None:
    """Bob, whose client speaks German, presses Accept on a card whose challenge expired: the
    press edits that very card to the refusal, buttons gone.  ``reworded``: the sessions say
    the refusal in words of their own (as a catalog change would), which the adapter never
    compares with anything: the card is closed all the same."""
    if reworded:

        def expired(challenge_id: int) -> Text:
            return say("Too late for challenge {challenge_id}.", challenge_id=challenge_id)

        worded = types.SimpleNamespace(**{n: getattr(texts, n) for n in dir(texts)})
        worded.challenge_expired = expired
        monkeypatch.setattr(challenges, "texts", worded)
    clock = FakeClock()
    friends = fake.private_channel(3_001, [ALICE, BOB, CAROL], name="trio")
    async with running(fake, tmp_path / "h.db", clock=clock) as run:
        card = await run.answer(
            ALICE, "challenge", {"game": "pathagon", "opponent": BOB}, channel=friends
        )
        accept = _accept_id(card)
        cid = int(accept.split(":")[1])
        clock.advance(hours=25)
        pressed = await fake.click(BOB, card, accept, locale="de")
        response = await fake.response(pressed, timeout=DEADLINE)
        assert response.type == ResponseKind.UPDATE_MESSAGE
        assert labels(card) == []
        with i18n.use("de"):
            german = str(texts.challenge_expired(cid))
        assert german != str(texts.challenge_expired(cid))  # (said in German indeed)
        words = "Too late for challenge" if reworded else german
        assert words in card.content, card.content
