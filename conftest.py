"""The checkout's own conftest: the project's packages are compiled to bytecode once, in the
controlling process before any test worker starts.

Every test worker imports them, and so does every bot process the tests start (the
real-process tests, the bot's search workers, the command-line tests): about a hundred Python
processes.  Where the environment sets ``PYTHONDONTWRITEBYTECODE`` (as CI machines and
containers often do), Python reads ``.pyc`` files but never writes them, so each of those
processes compiled every module again from source (~0.7 CPU s each for the bot).  ``compileall``
writes the files whatever that setting says; they are ignored by git (``__pycache__/``).
"""

from __future__ import annotations

import compileall

import pytest

#: The packages every bot process imports.
PACKAGES = ("engines", "render", "bot")


def pytest_configure(config: pytest.Config) -> None:
    """Compile :data:`PACKAGES` once, in the controlling process only (a worker has
    ``workerinput``), on every core."""
    if hasattr(config, "workerinput"):
        return
    for package in PACKAGES:
        # A module that does not compile fails at its import with the real error; a read-only
        # checkout just goes on without the files.
        compileall.compile_dir(config.rootpath / package, quiet=2, workers=0)
