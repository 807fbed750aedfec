"""A player's own settings: direct messages, reminders, quiet hours."""

from __future__ import annotations

from bot.core.i18n import BadValue
from bot.messages import Chat, Reply, Text, User
from bot.sessions import digest, languages, loading, policy, texts
from bot.sessions.context import Context, Refusal

__all__ = ["settings"]


async def settings(
    ctx: Context, user: User, name: str | None = None, value: str = "", chat: Chat | None = None
) -> Reply:
    """Show your notification settings, or change one: ``dm on|off``, ``reminders
    on|off``, ``quiet 22:00-07:00 +01:00`` or ``quiet off``; ``language <code>|auto`` and
    ``chat-language <code>|auto`` (in ``chat``) are :func:`bot.sessions.languages.change`'s."""
    if name is not None and name.lower() in languages.NAMES:
        here = chat or Chat(user.platform, user.user_id, direct=True)
        return await languages.change(ctx, user, here, name.lower(), value)
    me = await loading.player(ctx, user)
    current = policy.settings_of(me)
    if name is None:
        return Reply(texts.settings_are(current, await digest.describe(ctx, me)))
    if name.strip().lower() == "digest":
        return await digest.set_digest(ctx, me, value)
    try:
        new = current.change(name, value)
    except BadValue as exc:
        raise Refusal(texts.bad_value(exc)) from None
    except ValueError as exc:
        raise Refusal(texts.sentence_as_is(str(exc))) from None
    await ctx.store.set_settings(me.id, new)
    loading.forget_player(ctx, me.id)
    return Reply(texts.settings_are(new, Text.of()))
