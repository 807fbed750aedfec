"""The ``hexhall`` command: games, render, play, run; every failure a clear line and a
non-zero exit, never a traceback (issue 8, "Console play and the CLI")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import engines
from bot.cli import main
from tests.bot.session_kit import finishing_moves

ROOT = Path(__file__).resolve().parents[2]


def hexhall(
    tmp_path: Path, *args: str, stdin: bytes = b"", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[bytes]:
    """Run ``hexhall`` (as ``python -m bot``) in ``tmp_path`` with a clean environment."""
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    environ.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        env=environ,
        timeout=120,
        check=False,
    )


def test_games_lists_every_game_and_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for spec in engines.GAMES.values():
        assert f"{spec.name}: {spec.title}" in out
        for opt in spec.options:
            assert f"  {opt.name}=" in out


@pytest.mark.parametrize("game", list(engines.GAMES))
def test_render_draws_the_position_after_the_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str
) -> None:
    moves = finishing_moves(game)[:6]
    out = tmp_path / "board.png"
    assert main(["render", game, "; ".join(moves), "-o", str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert str(out) in capsys.readouterr().out


def test_render_splits_moves_on_spaces_too(tmp_path: Path) -> None:
    out = tmp_path / "board.png"
    assert main(["render", "maphex", "5 E5 d4", "size=9", "-o", str(out)]) == 0
    assert out.exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["render", "maphex", "5 zz", "-o", "x.png"], "move 2 ('zz') is illegal"),
        (["render", "chess", "e4", "-o", "x.png"], "unknown game 'chess'"),
        (["render", "maphex", "5", "colour=red", "-o", "x.png"], "no option 'colour'"),
        (["render", "maphex", "5", "size=10", "-o", "x.png"], "size must be one of"),
        (["render", "maphex", "5"], "required"),
        (["render", "maphex", "5", "-o", "/nonexistent/dir/x.png"], "cannot write"),
        (["play", "chess"], "unknown game"),
        (["rules", "chess"], "unknown game"),
        (["play", "maphex", "size"], "not option=value"),
        (["fly"], "invalid choice"),
    ],
)
def test_bad_arguments_give_one_clear_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("hexhall: ") and message in err and err.count("\n") == 1


def test_no_command_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "render" in capsys.readouterr().out


def test_run_with_no_token_starts_the_console(tmp_path: Path) -> None:
    done = hexhall(tmp_path, "run", stdin=b"help\nquit\n")
    assert done.returncode == 0, done.stderr
    assert b"Hexhall console" in done.stdout and b"challenge <player|open>" in done.stdout
    assert (tmp_path / "h.db").exists()


# Discord runs now: see tests/adapters/test_discord_process.py; Telegram: the next test.
def test_run_reads_dot_env(tmp_path: Path) -> None:
    # The token from .env starts the Telegram adapter; nothing listens at the API URL (port 9
    # of 127.0.0.1), so it stops with one line that does not show the token.
    (tmp_path / ".env").write_text(
        "# local settings\nTELEGRAM_TOKEN='123:abcsecret'\n"
        "TELEGRAM_API_URL=http://127.0.0.1:9/bot\n",
        encoding="utf-8",
    )
    done = hexhall(tmp_path, "run", env={"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1"})
    assert done.returncode == 3 and b"cannot connect to Telegram" in done.stderr
    assert b"abcsecret" not in done.stderr + done.stdout


def test_bad_dot_env_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("this is not a setting\n", encoding="utf-8")
    done = hexhall(tmp_path, "run")
    assert done.returncode == 2
    assert done.stderr.decode() == "hexhall: .env: line 1 is not KEY=VALUE\n"


@pytest.mark.parametrize("where", ["missing folder", "a folder", "not a database"])
def test_bad_database_path_is_a_clear_error(tmp_path: Path, where: str) -> None:
    if where == "missing folder":
        db = tmp_path / "no" / "such" / "h.db"
    elif where == "a folder":
        db = tmp_path
    else:
        db = tmp_path / "junk.db"
        db.write_bytes(b"\x00junk" * 500)
    done = hexhall(tmp_path, "run", env={"HEXHALL_DB": str(db)}, stdin=b"games\n")
    err = done.stderr.decode()
    assert done.returncode == 2
    assert err.startswith("hexhall: cannot") and "database" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_unreadable_input_stops_with_a_message(tmp_path: Path) -> None:
    done = hexhall(tmp_path, "run", stdin=b"help\n\xff\xfe\n")
    assert done.returncode == 2
    assert b"not UTF-8" in done.stderr and b"Traceback" not in done.stderr


def test_play_starts_a_local_game_directly(tmp_path: Path) -> None:
    done = hexhall(tmp_path, "play", "maphex", "size=16", stdin=b"7\nboard\n")
    out = done.stdout.decode()
    assert done.returncode == 0, done.stderr
    assert "game #1 Maphex" in out and "player2 (Blue) to move" in out
    assert "move 1: player2 (Blue) played 7. player1 (Red) to move." in out
    assert "Maphex 16x16" in out
