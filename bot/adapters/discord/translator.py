"""The slash commands in every language that ships: discord.py's ``app_commands.Translator``
(issue 43).  With it set on the command tree, the uploaded commands carry
``name_localizations`` and ``description_localizations`` for each Discord locale one of our
catalogs covers (``es-ES`` and ``es-419`` both read Spanish, ``pt-BR`` Brazilian Portuguese):
the commands' and groups' names and descriptions, their options' names and descriptions, and
their choices' names.

A name is the catalog's word under its context (``NP_("command", "move")``,
``NP_("option", "game")``, ``NP_("choice", "me")``): the same English word may read otherwise
as a command and as a choice.  A command's or option's name in another language follows
Discord's rule for names (:func:`valid_name`); one that does not is left out (Discord shows the
English).  The English names stay what is typed, on the console and Telegram too; Discord
sends the English name of whatever a player picks in their language.  Discord allows 1-100
characters for a description or a choice's name: a longer translation is cut.

>>> valid_name("tablero"), valid_name("指す"), valid_name("Board"), valid_name("a b")
(True, True, False, False)
"""

from __future__ import annotations

import functools
import unicodedata

from discord import Locale
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes, Translator, locale_str

from bot.core import i18n

__all__ = ["CatalogTranslator", "valid_name"]

#: Where a translation is a description.
_DESCRIBED = frozenset(
    {Where.command_description, Where.group_description, Where.parameter_description}
)
#: Where a translation is a name, and the catalog context it is marked under.
_NAMED = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
    Where.choice_name: "choice",
}
#: Discord's limit for a description or a choice's name.
DESCRIPTION_LIMIT = 100
#: Discord's limit for a command's or option's name.
NAME_LIMIT = 32
#: Scripts whose marks Discord allows in a name besides letters and digits.
_SCRIPTS = ("DEVANAGARI", "THAI")


def valid_name(name: str) -> bool:
    """Whether ``name`` is a valid command or option name on Discord:
    ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lower case where a letter has
    one (Discord's *Application Command Naming*; its docs now allow ``'`` too, which we do
    not use)."""
    if not 1 <= len(name) <= NAME_LIMIT or name != name.lower():
        return False
    return all(_name_char(c) for c in name)


def _name_char(c: str) -> bool:
    if c in "-_" or unicodedata.category(c)[0] in "LN":
        return True
    return unicodedata.name(c, "").startswith(_SCRIPTS)


class CatalogTranslator(Translator):
    """Names and descriptions from the catalogs (:mod:`bot.core.i18n`); ``None`` (Discord
    shows the English) for a locale we have no catalog for, and where nothing changes."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        """``string`` in ``locale``'s language, if we speak it."""
        code = i18n.supported(locale.value)
        if code is None or code in (i18n.SOURCE, i18n.PSEUDO):
            return None
        template = string.extras.get("template")
        values = string.extras.get("values") or {}
        return _translated(
            code,
            context.location,
            string.message,
            template if isinstance(template, str) else "",
            tuple((str(k), str(v)) for k, v in values.items()),
        )


@functools.cache
def _translated(
    code: str, where: Where, message: str, template: str, values: tuple[tuple[str, str], ...]
) -> str | None:
    """:meth:`CatalogTranslator.translate`'s answer, remembered: the catalogs do not change
    while the process runs, and discord.py asks for every string in every Discord locale each
    time it builds the command list (about 6,700 asks)."""
    with i18n.use(code):
        if where in _DESCRIBED:
            said = _described(message, template, dict(values))
        elif where in _NAMED:
            said = i18n.pgettext(_NAMED[where], message)
        else:
            return None
    if said == message:
        return None
    if where in _DESCRIBED or where is Where.choice_name:
        return said[:DESCRIPTION_LIMIT]
    return said if valid_name(said) else None


def _described(message: str, template: str, values: dict[str, str]) -> str:
    """A description in the language in use: its catalog template filled in with its values
    (:class:`bot.adapters.kinds.Described`), or its text."""
    if template:
        return i18n.fill(i18n.gettext(template), values)
    return i18n.gettext(message)
