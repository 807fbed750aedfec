"""The console speaks its local player's language (issue 43): ``settings language`` chooses it,
else the environment's (``LANG``); the ``as`` lines, the help line, the pictures' labels and the
command line's import errors are said through the catalogs."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from bot import app, cli
from bot.adapters.console import Console
from bot.core import i18n
from bot.sessions.clock import FakeClock
from bot.sessions.manager import SessionManager
from bot.storage import SqliteStore
from tests.bot.session_kit import migrated
from tests.bot.test_console import feeder


async def _console(tmp_path: Path, lines: list[bytes], language: str | None = None) -> str:
    store = await SqliteStore.open(migrated(tmp_path / "h.db"))
    out = io.StringIO()
    try:
        manager = SessionManager(store, FakeClock())
        console = Console(
            manager, tmp_path / "boards", out=out, err=io.StringIO(),
            read_line=feeder(lines), language=language,
        )  # fmt: skip
        assert await console.run() == 0
    finally:
        await store.close()
    return out.getvalue()


async def test_a_players_choice_says_every_console_line(tmp_path: Path) -> None:
    out = await _console(
        tmp_path,
        [
            b"as alice\n",
            b"settings language de\n",
            b"help\n",
            b"as " + b"x" * 40 + b"\n",
            b"challenge bob maphex first=them days=none\n",
            b"as bob\n",  # bob has chosen nothing: English (the environment says none)
            b"accept\n",
            b"5\n",  # the console switches to alice: her German again
            b"board\n",
        ],
    )
    assert "as <Name>   lokalen Spieler wechseln;   quit   beenden" in out  # the help line
    assert "! Aufruf: as <Name> (ein Wort, höchstens" in out
    assert "(now playing as bob)" in out  # bob's line is his (English)
    assert "(jetzt spielt alice)" in out  # the switch back to alice is said in hers
    # The board picture written, named in each player's words; alice's alt text in German.
    assert "\nboard: " in out and "\nBrett: " in out
    assert "Rot am Zug, Teilbrett Mitte, 5." in out


async def test_the_environments_language_is_the_consoles_platform_language(
    tmp_path: Path,
) -> None:
    out = await _console(tmp_path, [b"as ada\n", b"help\n", b"games\n"], language="ja")
    assert "（現在のプレイヤー：ada）" in out
    assert "ローカルのプレイヤーを切り替え" in out
    assert i18n.from_environment({"LANG": "ja_JP.UTF-8"}) == "ja"


def test_the_command_lines_errors_follow_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    monkeypatch.setenv("HEXHALL_DB", str(tmp_path / "h.db"))
    record = tmp_path / "bad.txt"
    record.write_bytes(b"\xff\xfe not text")
    assert cli.main(["import", str(record)]) != 0
    said = capsys.readouterr().err
    assert f"impossible de lire {record} : pas du texte UTF-8" in said, said
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert cli.main(["import", str(record)]) != 0
    assert "cannot read" in capsys.readouterr().err


def test_a_missing_render_package_is_said_in_the_readers_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import builtins

    import engines

    real = builtins.__import__

    def without_render(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "render":
            raise ImportError("no render")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", without_render)
    with i18n.use("es"), pytest.raises(app.AppError, match="falta el paquete render"):
        app.render_position(engines.new("maphex"), "-")
