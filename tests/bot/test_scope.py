"""Scope (issue 27): a game, a challenge and their records belong to the chat they were made
in.  An open challenge is accepted only in its chat; one addressed to someone, by them where it
was made or in their direct chat with the bot.  A game's board, history, record and browser are
shown to anyone asking in its chat and to its players anywhere; elsewhere there is no such game.
On SQLite and on PostgreSQL."""

from __future__ import annotations

from bot.messages import Chat, Reply
from tests.bot.session_kit import ALICE, BOB, CAROL, session

GROUP_A = Chat("test", "group-a")
GROUP_B = Chat("test", "group-b")
#: Bob's one-to-one chat with the bot (the adapters mark it ``direct``).
BOB_DM = Chat("test", "bob-dm", direct=True)
CAROL_DM = Chat("test", "carol-dm", direct=True)


def _refused(reply: Reply, words: str) -> None:
    assert not reply.ok and words in reply.text and "\n" not in reply.text, reply.text


async def test_an_open_challenge_is_accepted_only_in_its_chat(store_url: str) -> None:
    async with session(store_url) as m:
        made = await m.challenges.challenge(ALICE, GROUP_B, "pathagon", None)
        assert made.ok and made.challenge_id is not None, made.text
        cid = made.challenge_id
        for chat in (GROUP_A, CAROL_DM):
            _refused(await m.challenges.accept(CAROL, chat, cid), f"no challenge {cid} here")
        assert (await m.store.get_challenge(cid)) is not None
        accepted = await m.challenges.accept(CAROL, GROUP_B, cid)
        assert accepted.ok and accepted.game_id is not None, accepted.text
        row = await m.store.get_game(accepted.game_id)
        assert row is not None and row.chat_id == GROUP_B.chat_id


async def test_a_directed_challenge_is_accepted_where_made_or_in_a_direct_chat(
    store_url: str,
) -> None:
    async with session(store_url) as m:
        first = await m.challenges.challenge(ALICE, GROUP_B, "pathagon", BOB)
        assert first.challenge_id is not None
        _refused(await m.challenges.accept(BOB, GROUP_A, first.challenge_id), "no challenge")
        _refused(await m.challenges.accept(CAROL, CAROL_DM, first.challenge_id), "no challenge")
        in_dm = await m.challenges.accept(BOB, BOB_DM, first.challenge_id)
        assert in_dm.ok and in_dm.game_id is not None, in_dm.text
        row = await m.store.get_game(in_dm.game_id)
        assert row is not None and row.chat_id == GROUP_B.chat_id  # the game stays in B
        second = await m.challenges.challenge(ALICE, GROUP_B, "maphex", BOB)
        assert second.challenge_id is not None
        assert (await m.challenges.accept(BOB, GROUP_B, second.challenge_id)).ok


async def test_a_game_is_shown_in_its_chat_and_to_its_players_only(store_url: str) -> None:
    async with session(store_url) as m:
        made = await m.challenges.challenge(ALICE, BOB_DM, "pathagon", BOB)
        assert made.challenge_id is not None
        accepted = await m.challenges.accept(BOB, BOB_DM, made.challenge_id)
        gid = accepted.game_id
        assert gid is not None
        assert (await m.games.move(ALICE, BOB_DM, "a2", gid)).ok
        outsider = [
            await m.games.board(CAROL, GROUP_A, gid),
            await m.games.history(CAROL, GROUP_A, gid),
            await m.games.export(CAROL, GROUP_A, gid),
            await m.games.browse(CAROL, GROUP_A, gid),
            await m.games.browse(CAROL, CAROL_DM, gid, 0),
        ]
        for reply in outsider:
            _refused(reply, f"There is no game #{gid} here.")
        # Its players anywhere, anyone in its chat.
        for user, chat in ((ALICE, GROUP_A), (BOB, CAROL_DM), (CAROL, BOB_DM)):
            for reply in (
                await m.games.board(user, chat, gid),
                await m.games.history(user, chat, gid),
                await m.games.export(user, chat, gid),
            ):
                assert reply.ok, (user, chat, reply.text)
