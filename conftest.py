"""The checkout's own conftest: the project's packages are compiled to bytecode once, in the
controlling process before any test worker starts.

Every test worker imports them, and so does every bot process the tests start (the
real-process tests, the bot's search workers, the command-line tests): about a hundred Python
processes.  Where the environment sets ``PYTHONDONTWRITEBYTECODE`` (as CI machines and
containers often do), Python reads ``.pyc`` files but never writes them, so each of those
processes compiled every module again from source (~0.7 CPU s each for the bot).  ``compileall``
writes the files whatever that setting says; they are ignored by git (``__pycache__/``).

It also says how many test workers ``-n auto`` starts: one per core and one more (see
:func:`pytest_xdist_auto_num_workers`).
"""

from __future__ import annotations

import compileall
import json
import os
from pathlib import Path

import pytest

#: The packages every bot process imports.
PACKAGES = ("engines", "render", "bot")


def _compiled() -> list[str]:
    """The modules the install compiled with mypyc (``engines/ai/compiled.py``: its build's
    record, read without importing the package)."""
    try:
        built = json.loads((Path(__file__).parent / "engines/ai/compiled.json").read_text())
    except (OSError, ValueError):
        return []
    return [f"engines/ai/{name}.py" for name in built]


#: The compiled modules' sources, whose doctests ``tests/engines/test_compiled.py`` runs:
#: pytest's own doctest collection imports the module named by the file, which is then the
#: compiled one, not the file.
collect_ignore = _compiled()

#: Test workers ``-n auto`` starts beyond one per core.
EXTRA_WORKERS = 1


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` starts one worker per core the process may use and :data:`EXTRA_WORKERS`
    more.

    Much of the suite waits rather than computes: on a browser, on a bot process it started,
    on a fake server's answer.  With one worker per core the cores sat idle through those
    waits; with two per core, every worker's own start (imports, collection, its servers and
    browser, its caches warmed) was paid twice as often.  Measured on 2 cores, the whole suite
    (wall, processor): 2 workers 442 s, 594 s; 3 workers 398 s, 594 s; 4 workers 430 s, 657 s.
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still decides when it is set (pytest-xdist's own rule,
    answered by returning ``None``).
    """
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + EXTRA_WORKERS


def pytest_configure(config: pytest.Config) -> None:
    """Compile :data:`PACKAGES` once, in the controlling process only (a worker has
    ``workerinput``), on every core; in a worker, rewrite its share of the test modules."""
    if hasattr(config, "workerinput"):
        _rewrite_my_share(config)
        return
    for package in PACKAGES:
        # A module that does not compile fails at its import with the real error; a read-only
        # checkout just goes on without the files.
        compileall.compile_dir(config.rootpath / package, quiet=2, workers=0)


def _rewrite_my_share(config: pytest.Config) -> None:
    """In a test worker: rewrite (pytest's assertion rewriting) and cache this worker's share
    of the test modules, each worker a different share, before collecting.

    pytest rewrites each test module's ``assert`` statements at import and caches the result in
    ``__pycache__`` — unless ``PYTHONDONTWRITEBYTECODE`` is set, when every worker rewrote all of
    them (~15 CPU s each, the most of collecting).  Here the workers split the modules; each then
    collects, reading the others' shares from the cache (or rewriting one itself if it is not
    there yet: the files are written atomically).  This reads pytest's own rewriting functions:
    if they are not there as expected, collection simply rewrites as before.
    """
    worker = getattr(config, "workerinput", None)
    if worker is None:
        return
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        index = int(str(worker["workerid"]).removeprefix("gw"))
        count = int(worker["workercount"])
        tests = sorted(
            path
            for path in (config.rootpath / "tests").rglob("*.py")
            if path.name.startswith("test_") or path.name == "conftest.py"
        )
        for source in tests[index::count]:
            cache = rewrite.get_cache_dir(source)
            pyc = cache / (source.name[:-3] + rewrite.PYC_TAIL)
            if rewrite._read_pyc(source, pyc, state.trace) is not None:
                continue
            source_hash, code = rewrite._rewrite_test(source, config)
            if rewrite.try_makedirs(cache):
                rewrite._write_pyc(state, code, source_hash, pyc)
    except (ImportError, AttributeError, KeyError, TypeError, ValueError, OSError, SyntaxError):
        return
