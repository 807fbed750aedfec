"""The console in each language that ships (issue 43): the local players choose theirs with
``settings language <code>``; help, a challenge, the accept, a move, the board, an illegal move
and the picture's words then read in it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.adapters.commands import help_text
from bot.core import i18n
from tests.bot.test_console import run_console
from tests.i18n_words import WORDS


@pytest.mark.parametrize("code", list(WORDS))
async def test_a_game_at_the_console_in_each_language(tmp_path: Path, code: str) -> None:
    words = WORDS[code]
    script = [
        b"as alice\n",
        f"settings language {code}\n".encode(),
        b"as bob\n",
        f"settings language {code}\n".encode(),
        b"help\n",
        b"as alice\n",
        b"challenge bob maphex size=9 first=them days=none\n",
        b"as bob\n",
        b"accept\n",
        b"5\n",
        b"move e5\n",
        b"move e5\n",  # bob to move now: e5 is taken
        b"board\n",
        b"quit\n",
    ]
    status, out, _ = await run_console(tmp_path, script)
    assert status == 0
    with i18n.use(code):
        chosen = i18n.gettext(
            "Your language: {name} (your choice; settings language auto follows your app)."
        )
    assert chosen.split("{name}")[0] in out  # the answer is said in the language just chosen
    with i18n.use(code):
        help_words = help_text().splitlines()[0]
        red, blue = i18n.gettext("Red"), i18n.gettext("Blue")
    assert help_words in out
    assert words.challenge in out
    assert words.to_move in out  # the accept names who moves first
    assert words.played in out
    assert f"! {words.illegal}" in out or words.illegal in out
    assert words.games in out  # the board's head: "alice vs bob" in the language's words
    # The sides are the language's own, in sentences and in the picture's description.
    assert blue in out and red in out
    assert "Illegal move" not in out and " played " not in out
