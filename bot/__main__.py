"""``python -m bot``: the ``hexhall`` command without installing the package."""

from bot.cli import main

raise SystemExit(main())
