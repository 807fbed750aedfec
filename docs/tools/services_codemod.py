"""Rewrite calls of the old session-manager facade into calls of its services (issue 42).

``manager.move(...)`` becomes ``manager.games.move(...)``, ``self.manager.accept(...)``
becomes ``self.manager.challenges.accept(...)``, ``m.tournament_new(...)`` becomes
``m.tournaments.tournament_new(...)``: the method keeps its name, only the service is put in
front, from the one table :data:`SERVICE_OF`.  A receiver is a name ending in ``manager``
(``manager``, ``self.manager``, ``bot.manager``, ``self._manager``...), ``m``, or one of
:data:`RECEIVERS`.  Two more tables: :data:`SURFACE_IMPORTS` (the shared values surfaces
imported from ``bot.storage``, now in ``bot.core``) and :data:`PATTERNS` (surfaces building
delivery over ``manager.store``).

Idempotent: a rewritten call (``manager.games.move(``) is not matched again, so running it on
a tree where some calls were migrated and others added migrates only the new ones.  Prints
every change (``path:line: old -> new``) and a count; ``--check`` changes nothing and exits 1
when something would change.

    .venv/bin/python docs/tools/services_codemod.py [--check] [paths ...]

(default paths: ``bot tests benchmarks docs/tools``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The one table: each method of the old facade, and the service that has it now (same name).
SERVICE_OF: dict[str, str] = {
    # games: playing and looking at games (bot.sessions.services.games)
    **dict.fromkeys(
        (
            "move",
            "press",
            "resign",
            "board",
            "browse",
            "history",
            "review",
            "costliest",
            "export",
            "import_record",
            "games",
            "rules",
            "help",
            "draw",
            "takeback",
            "rematch",
            "preview",
            "premove",
            "premove_lines",
            "pick",
            "suggest_moves",
            "suggest_line",
            "game_choices",
            "board_facts",
            "board_ratings",
            "player_to_move",
            "against_bot",
            "seated",
            "offer_standing",
            "game_chat",
        ),
        "games",
    ),
    # challenges and games against the bot (bot.sessions.services.challenges)
    **dict.fromkeys(
        (
            "challenge",
            "challenge_bot",
            "accept",
            "decline",
            "cancel",
            "expire_challenges",
            "challenge_answered",
        ),
        "challenges",
    ),
    # tournaments (bot.sessions.services.tournaments)
    **dict.fromkeys(
        (
            "tournament_new",
            "tournament_join",
            "tournament_leave",
            "tournament_leave_question",
            "tournament_start",
            "tournament_cancel",
            "tournament_standings",
            "tournament_list",
            "tournament_of_game",
        ),
        "tournaments",
    ),
    # players: who they are, settings, languages, time away, ratings
    **dict.fromkeys(
        (
            "player",
            "player_name",
            "settings",
            "away",
            "back",
            "speakers",
            "recipient_language",
            "chat_language",
            "direct_reachable",
            "direct_refused",
            "leaderboard",
            "stats",
            "rebuild_ratings",
        ),
        "players",
    ),
    # posts: the bot's messages on the platforms, updates and taps handled once
    **dict.fromkeys(
        (
            "remember_post",
            "posts_for",
            "retire_posts",
            "move_chat",
            "chat_players",
            "answering",
            "claim_update",
            "finish_update",
            "claim_tap",
            "end_tap",
        ),
        "posts",
    ),
    # the web board's pages and the Discord Activity
    **dict.fromkeys(
        ("web_link", "web_view", "next_turn", "page_action", "launched", "launched_game"),
        "web",
    ),
}

#: Names that hold a session manager besides ``m`` and names ending in ``manager``.
RECEIVERS: tuple[str, ...] = ("mgr", "here", "there")
#: Names that hold a session manager in one file only (elsewhere they hold other things).
FILE_RECEIVERS: dict[str, tuple[str, ...]] = {
    "benchmarks/tournaments.py": ("text", "pictured"),
    "benchmarks/web.py": ("other", "mover"),
    "tests/bot/test_manager.py": ("one", "two", "fresh", "again"),
    "tests/bot/sessions/test_repeats.py": ("first", "second"),
    "tests/bot/test_db_clock.py": ("a", "b", "ahead"),
    "tests/bot/tournaments/test_sign_up.py": ("one", "two"),
}

#: Shared values the surfaces imported from ``bot.storage``, and where they are now.
SURFACE_IMPORTS: dict[str, str] = {
    "Post": "bot.core.posts",
    "PostKind": "bot.core.posts",
    "BadRow": "bot.core.errors",
    "StoreBusy": "bot.core.errors",
    "StoreError": "bot.core.errors",
    "StoreFull": "bot.core.errors",
    "StoreUnavailable": "bot.core.errors",
}
#: Files left as they are: this one and its test (their examples are the old calls).
SKIPPED = ("docs/tools/services_codemod.py", "tests/test_services_codemod.py")
#: Where :data:`SURFACE_IMPORTS` applies (the surfaces never import the store).
SURFACES = ("bot/adapters", "bot/webboard")


def _receiver(extra: tuple[str, ...] = ()) -> str:
    return r"(?:[A-Za-z_]\w*\.)*[A-Za-z_]*manager|" + "|".join(("m", *RECEIVERS, *extra))


_RECEIVER = _receiver()

#: Literal rewrites (a regular expression, its replacement): surfaces building delivery over
#: the store get it from the manager.
PATTERNS: tuple[tuple[str, str], ...] = (
    (
        rf"\bOutbox\(\s*(?P<r>{_RECEIVER})\.store,\s*(?P=r)\.clock,\s*bell=(?P=r)\.bell\s*\)",
        r"\g<r>.outbox()",
    ),
    (rf"\bRecaps\(\s*(?P<r>{_RECEIVER})\.store\s*\)", r"\g<r>.recaps()"),
)

_METHODS = "|".join(sorted(SERVICE_OF, key=len, reverse=True))


#: Methods that may also be named without a call (``suggest = manager.suggest_moves``): all
#: but those named like a service (``manager.games`` is the service once migrated).
_REFERENCED = "|".join(sorted(set(SERVICE_OF) - set(SERVICE_OF.values()), key=len, reverse=True))


def _call(extra: tuple[str, ...] = ()) -> re.Pattern[str]:
    """A call of a method of the old facade on a receiver, or a method named without a call
    (``extra``: more receiver names)."""
    called = rf"(?<![\w.])(?P<r>{_receiver(extra)})\.(?P<name>{_METHODS})(?=\()"
    # Named without a call only on a receiver named "...manager" (``m.move`` is often a row's).
    named = (
        rf"(?<![\w.])(?P<n>(?:[A-Za-z_]\w*\.)*[A-Za-z_]*manager)\.(?P<ref>{_REFERENCED})(?![\w.(])"
    )
    return re.compile(f"{called}|{named}")


_IMPORT = re.compile(
    r"^from bot\.storage import (?:\((?P<many>[^)]*)\)|(?P<one>[^\n(]+))\n", re.MULTILINE
)


def _calls(text: str, extra: tuple[str, ...]) -> str:
    def service(m: re.Match[str]) -> str:
        receiver, name = (m["r"], m["name"]) if m["name"] else (m["n"], m["ref"])
        return f"{receiver}.{SERVICE_OF[name]}.{name}"

    def patched(m: re.Match[str]) -> str:
        return f"setattr({m['r']}.{SERVICE_OF[m['name']]}, {m['q']}{m['name']}{m['q']}"

    # A test patching a method of the manager (``monkeypatch.setattr(manager, "move", ...)``).
    setattr_ = re.compile(
        rf"setattr\((?P<r>{_receiver(extra)}),\s*(?P<q>[\"'])(?P<name>{_METHODS})(?P=q)"
    )
    return setattr_.sub(patched, _call(extra).sub(service, text))


def _imports(text: str) -> str:
    def split(m: re.Match[str]) -> str:
        names = [n.strip() for n in (m["many"] or m["one"]).replace("\n", " ").split(",")]
        names = [n for n in names if n]
        moved: dict[str, list[str]] = {}
        kept = []
        for name in names:
            if name in SURFACE_IMPORTS:
                moved.setdefault(SURFACE_IMPORTS[name], []).append(name)
            else:
                kept.append(name)
        if not moved:
            return m[0]
        lines = [f"from {module} import {', '.join(sorted(n))}\n" for module, n in moved.items()]
        if kept:
            lines.append(f"from bot.storage import {', '.join(kept)}\n")
        return "".join(sorted(lines))

    return _IMPORT.sub(split, text)


def rewrite(path: Path, text: str) -> str:
    """``text`` (the file at ``path``) with the old calls, imports and patterns rewritten."""
    relative = path.resolve().relative_to(ROOT).as_posix()
    new = _calls(text, FILE_RECEIVERS.get(relative, ()))
    for pattern, replacement in PATTERNS:
        new = re.sub(pattern, replacement, new)
    if relative.startswith(SURFACES):
        new = _imports(new)
    return new


def _report(path: Path, old: str, new: str) -> int:
    changed = 0
    old_lines, new_lines = old.splitlines(), new.splitlines()
    if len(old_lines) == len(new_lines):
        for number, (a, b) in enumerate(zip(old_lines, new_lines, strict=True), 1):
            if a != b:
                print(f"{path}:{number}: {a.strip()}  ->  {b.strip()}")
                changed += 1
    else:
        print(f"{path}: imports rearranged")
        changed += 1
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="*", default=["bot", "tests", "benchmarks", "docs/tools"])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if needed")
    args = parser.parse_args(argv)
    files = 0
    lines = 0
    for top in args.paths:
        root = Path(top) if Path(top).is_absolute() else ROOT / top
        for path in sorted([root] if root.is_file() else root.rglob("*.py")):
            relative = path.resolve().relative_to(ROOT)
            if relative.as_posix() in SKIPPED or ".venv" in relative.parts:
                continue
            old = path.read_text(encoding="utf-8")
            new = rewrite(path, old)
            if new == old:
                continue
            files += 1
            lines += _report(relative, old, new)
            if not args.check:
                path.write_text(new, encoding="utf-8")
    verb = "would change" if args.check else "changed"
    print(f"{verb} {lines} lines in {files} files")
    return 1 if args.check and files else 0


if __name__ == "__main__":
    sys.exit(main())
