"""The typed tournament commands (the console's lines, Telegram's commands) run through the
registry: opening with terms, joining, starting, the standings, the list, and typed mistakes
answered with the usage."""

from __future__ import annotations

from pathlib import Path

from bot.adapters.commands import HELP, execute
from bot.messages import Chat, User
from tests.bot.session_kit import session

ROOM = Chat("console", "local")
ADA, BO, CY = (User("console", n, n) for n in ("ada", "bo", "cy"))


async def test_a_tournament_typed(tmp_path: Path) -> None:
    assert "tournament new <game> [option=value ...] [days=1|3|7|14]" in HELP
    async with session(tmp_path / "t.db") as m:

        async def run(user: User, line: str) -> str:
            reply = await execute(m, user, ROOM, line, lambda _: None)
            return ("" if reply.ok else "refused: ") + reply.text

        opened = await run(ADA, "tournament new maphex size=16 days=7 rounds=2 max=4 rated=no")
        assert "Tournament 1: Maphex 16×16" in opened
        assert "7 days per move, each pairing twice, seats swapped, casual, at most 4" in opened
        assert "bo joined tournament 1" in await run(BO, "tournament join")
        assert "cy joined" in await run(CY, "tournament join 1")
        assert "6 games at once" in await run(ADA, "tournament start #1")
        t = await m.store.get_tournament(1)
        assert t is not None and dict(t.options) == {"size": 16} and t.time_per_move == 7
        standings = await run(CY, "tournament")
        assert standings.startswith("Standings of tournament 1 (Maphex 16×16) (0 of 6 games")
        assert "running, 3 players" in await run(BO, "tournaments")
        left = await run(CY, "tournament leave")
        assert "cy left and is withdrawn" in left and "4 unfinished games end as losses" in left
        for line, said in (
            ("tournament new", "refused: Usage: tournament new <game>"),
            ("tournament new maphex rounds=3", "refused: rounds=1 or rounds=2."),
            ("tournament new maphex max=x", "refused: max= takes a number"),
            ("tournament new maphex days=2", "refused: time per move must be one of"),
            ("tournament new maphex days=none", "refused: A tournament needs a clock"),
            ("tournament new maphex size", "refused: 'size' is not option=value"),
            ("tournament join x", "refused: Usage: tournament join|leave|start|cancel [id]"),
            ("tournament 9", "refused: There is no tournament 9 in this chat."),
            ("tournament soon", "refused: Usage: tournament new"),
        ):
            assert (await run(ADA, line)).startswith(said), line
