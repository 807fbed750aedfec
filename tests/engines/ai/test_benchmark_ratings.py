"""The level ratings' benchmark (``benchmarks/ai_ratings.py``, issue 49) rates the games the
accumulating series recorded on a pool's board between the pool's own players, after its
round-robin's games: only finished games, by the game's current computer player, with the
series' depth-2 Padfoot-like player under the pool's name for it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.ratings import Pool
from tests.scripts import load_script


def _record(matchup: str, seat: int, score: float | None, **changes: Any) -> dict[str, Any]:
    record = {
        "game": "isopath",
        "options": {"size": 5},
        "series": "isopath5",
        "game_no": 0,
        "date": "2026-12-06T12:00:00+00:00",
        "matchup": matchup,
        "seat": seat,
        "score": score,
        "plies": 120,
        "cpu": [[1.0, 2.0], [0.5]],
    }
    return {**record, **changes}


def test_the_series_games_of_a_pool_are_rated_after_its_own(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bench = load_script("benchmarks/ai_ratings.py")
    records = [
        _record("hard-normal", 1, 0.0),  # normal, White, won
        _record("hard-padfoot2", 0, 0.5),  # drawn
        _record("normal-easy", 0, 1.0),
        _record("hard-ab", 0, 1.0),  # the series' alpha-beta is not the pool's
        _record("hard-padfoot3", 0, 1.0),  # nor its deeper Padfoot-like player
        _record("hard-normal", 0, None),  # not finished
        _record("hard-normal", 0, 1.0, options={"size": 4}),  # the other pool
        _record("hard-normal", 0, 1.0, game="pathagon", options={}),
    ]
    records = [{**r, "game_no": n} for n, r in enumerate(records)]
    found = bench.series_games(Pool("isopath5"), records)
    assert [(g.seats, g.winner, g.plies, g.cpu) for g in found] == [
        (("normal", "hard"), 0, 120, 3.5),
        (("hard", "padfoot"), None, 120, 3.5),
        (("normal", "easy"), 0, 120, 3.5),
    ]
    # A game played before its game's computer player last changed is left out.
    later = bench.ai_series.Change("2026-12-07T00:00:00+00:00", "test")
    monkeypatch.setitem(bench.ai_series.PLAYER_CHANGES, "isopath", later)
    assert bench.series_games(Pool("isopath5"), records) == []
    monkeypatch.undo()
    # A game played again counts as recorded last: game 0, won by `normal`, now by `hard`.
    again = _record("hard-normal", 1, 1.0, date="2026-12-06T13:00:00+00:00")
    replayed = bench.series_games(Pool("isopath5"), [*records, again])
    assert [(g.seats, g.winner) for g in replayed] == [
        (("hard", "padfoot"), None),
        (("normal", "easy"), 0),
        (("normal", "hard"), 1),
    ]

    # Rated without playing: the three games, each player's record in the table.
    monkeypatch.setattr(bench, "_series_records", lambda: records)
    bench.main(["--only", "isopath5", "--minutes", "0", "--hard-games", "0", "--series"])
    table = {
        line.split()[1]: line.split()[5:9]
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("isopath5 ") and len(line.split()) == 9
    }
    # games, won, lost, drawn
    assert table["hard"] == ["2", "0", "1", "1"]
    assert table["normal"] == ["2", "2", "0", "0"]
    assert table["easy"] == ["1", "0", "1", "0"]
    assert table["padfoot"] == ["1", "0", "0", "1"]
    assert table["random"] == ["0", "0", "0", "0"]
