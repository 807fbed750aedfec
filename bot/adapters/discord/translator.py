"""The slash commands in every language that ships: discord.py's ``app_commands.Translator``
(issue 43).  With it set on the command tree, the uploaded commands carry
``description_localizations`` for each Discord locale one of our catalogs covers (``es-ES``
and ``es-419`` both read Spanish, ``pt-BR`` Brazilian Portuguese), for the commands, their
options and their choices' names.

Command and option names stay as typed (``/move``, ``game``): they are what the help, the
cards and players' habits name, in every language; Discord shows the localized description
beside them.  Discord allows 1-100 characters for a description: a longer translation is cut.
"""

from __future__ import annotations

from discord import Locale
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import TranslationContextTypes, Translator, locale_str

from bot.core import i18n

__all__ = ["CatalogTranslator"]

#: Where a translation is given: descriptions (names stay as they are typed).
_DESCRIBED = frozenset(
    {Where.command_description, Where.group_description, Where.parameter_description}
)
#: Discord's limit for a description.
DESCRIPTION_LIMIT = 100


class CatalogTranslator(Translator):
    """Descriptions from the catalogs (:mod:`bot.core.i18n`); ``None`` (Discord shows the
    English) for a locale we have no catalog for, for names, and where nothing changes."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        """``string`` in ``locale``'s language, if we speak it and it is a description."""
        code = i18n.supported(locale.value)
        if code is None or code in (i18n.SOURCE, i18n.PSEUDO) or context.location not in _DESCRIBED:
            return None
        with i18n.use(code):
            said = i18n.gettext(string.message)
        return said[:DESCRIPTION_LIMIT] if said != string.message else None
