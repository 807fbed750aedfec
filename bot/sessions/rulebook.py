"""The rules pages as shipped inside the package, one per game and language (issue 43).

English, the source, is ``rules/<game>.md``; a translation is ``rules/<code>/<game>.md`` for a
catalog code of :data:`bot.core.i18n.LANGUAGES` (``es``, ``pt_BR``...).  A language without its
file reads the English page.
"""

from __future__ import annotations

from importlib.resources.abc import Traversable

from bot.core import i18n

__all__ = ["page", "pages"]


def _read(path: Traversable) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def pages(rules_dir: Traversable, game: str) -> dict[str, str]:
    """Every version of ``game``'s rules that ships, by language code, English first (empty
    when even the English page cannot be read)."""
    english = _read(rules_dir / f"{game}.md")
    if english is None:
        return {}
    found = {i18n.SOURCE: english}
    for code in i18n.LANGUAGES:
        if code != i18n.SOURCE and (text := _read(rules_dir / code / f"{game}.md")) is not None:
            found[code] = text
    return found


def page(rules_dir: Traversable, game: str, language: str | None = None) -> str | None:
    """``game``'s rules in ``language`` (a catalog or platform code; ``None``: the language in
    use), English when that language has no page; ``None`` when none can be read."""
    code = i18n.supported(language) if language is not None else i18n.current()
    versions = pages(rules_dir, game)
    return versions.get(code or i18n.SOURCE, versions.get(i18n.SOURCE))
