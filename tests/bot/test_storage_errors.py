"""Storage errors are answers (issue 27): a full disk, an unreachable database or a refused
statement gets "The database is unavailable, try again." and the process goes on serving; the
console never exits on it.

The full disk is real: ``hexhall run`` in a subprocess whose files may not grow past a few
KiB (``RLIMIT_FSIZE``; Python ignores ``SIGXFSZ``, so a write past the limit fails with
``EFBIG`` and SQLite reports the disk full)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

from bot.messages import Chat
from bot.sessions import texts
from tests.bot.session_kit import ALICE, BOB, ROOM, session

ROOT = Path(__file__).resolve().parents[2]

#: How far the database's files may grow in the console run (the WAL file fills up first).
FILE_LIMIT = 192 * 1024


def _hexhall(
    tmp_path: Path, *args: str, stdin: bytes, limit: int | None = None
) -> subprocess.CompletedProcess[bytes]:
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "TELEGRAM_TOKEN")}
    environ.update(PYTHONPATH=str(ROOT), HEXHALL_DB=str(tmp_path / "h.db"))

    def small_files() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        env=environ,
        timeout=120,
        check=False,
        preexec_fn=small_files,
    )


def test_the_console_survives_a_full_disk(tmp_path: Path) -> None:
    # The database exists first (schema and all), with room to spare.
    made = _hexhall(tmp_path, "run", stdin=b"games\nquit\n")
    assert made.returncode == 0, made.stderr.decode()
    lines = []
    for n in range(40):
        lines += [f"as p{n}", f"challenge @q{n} pathagon"]
    lines += ["as p0", "games", "quit"]
    done = _hexhall(tmp_path, "run", stdin="\n".join(lines).encode() + b"\n", limit=FILE_LIMIT)
    out, err = done.stdout.decode(), done.stderr.decode()
    assert done.returncode == 0, err
    assert "Traceback" not in err, err
    assert out.count(f"! {texts.UNAVAILABLE}") >= 10, out
    # Some challenges were made before the disk filled up; the last command still answered.
    assert "Challenge" in out or "challenge" in out
    assert out.rstrip().splitlines()[-1].strip(), out


async def test_a_refused_statement_is_an_answer(store_url: str) -> None:
    """(SQLite and PostgreSQL.)  The database refuses every change to the challenges (a
    trigger, as a read-only table or a failing disk would): the challenge is refused with the
    sentence, the game in progress goes on being read."""
    async with session(store_url) as m:
        made = await m.challenges.challenge(ALICE, ROOM, "pathagon", BOB)
        assert made.ok and made.challenge_id is not None
        assert (await m.challenges.accept(BOB, ROOM, made.challenge_id)).ok
        if store_url.startswith("postgres"):
            statements = [
                "CREATE FUNCTION refuse() RETURNS trigger AS "
                "$$ BEGIN RAISE EXCEPTION 'disk I/O error'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER no_challenges BEFORE INSERT ON challenges "
                "FOR EACH ROW EXECUTE FUNCTION refuse()",
            ]
        else:
            statements = [
                "CREATE TRIGGER no_challenges BEFORE INSERT ON challenges "
                "BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END"
            ]
        for sql in statements:
            await m.store._write(lambda c, sql=sql: c.execute(sql))
        refused = await m.challenges.challenge(ALICE, Chat(ROOM.platform, "other"), "maphex", BOB)
        assert not refused.ok and refused.text == str(texts.UNAVAILABLE), refused.text
        board = await m.games.board(ALICE, ROOM)
        assert board.ok, board.text
