"""Draw a game's thread and the Move picker as a Discord user sees them, from the messages the
bot really sent: a real game is played through the test fake of Discord (the real
:class:`~bot.adapters.discord.DiscordBot` and discord.py, in this process, as the adapter tests
run it), the messages, embeds, attachments and components the fake recorded are laid out as
HTML in a Discord-like dark layout, and headless Chromium (Debian's ``/usr/bin/chromium``,
driven by Playwright, as the web tests use it) photographs that.

The Discord client cannot run here, so these are drawings, not client screenshots: the
layout (colours, avatars, spacing) is an approximation of Discord's; the words, fields,
pictures, buttons and menus are exactly what the fake recorded
(``tests/adapters/test_discord_snapshot.py`` checks that the HTML holds the recorded components,
no more and no fewer).

Run from the repository: ``.venv/bin/python docs/tools/discord_snapshot.py`` (writes
``docs/img/discord-thread.png`` and ``docs/img/discord-picker.png``).
"""

from __future__ import annotations

import asyncio
import base64
import copy
import html
import random
import re
import sys
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import engines
from tests.adapters.discord_kit import (
    ALICE,
    BOB,
    CHANNEL,
    DEADLINE,
    GUILD,
    button,
    fake_discord,
    labels,
    running,
)
from tests.adapters.test_discord_picker import choose, pick, press, selects
from tests.fakes.discord_fake import FakeDiscord, StoredMessage

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
OUT = ROOT / "docs" / "img"
#: Moves played through the picker before the pictures are taken.
MOVES = 2
#: The width Discord's desktop client gives a message's image at most (pixels).
IMAGE_WIDTH = 520
NAMES = {ALICE: "alice", BOB: "bob"}
BOT_NAME = "Hexhall"


@dataclass
class Shot:
    """One message as the fake held it at one moment (a deep copy: later edits do not
    change it), and who sees it."""

    message: StoredMessage
    note: str = ""


@dataclass
class Scene:
    """What the pictures show: the channel's card, the thread (its name, its messages), and
    the picker at its steps (each a moment of the one private message)."""

    thread_name: str
    card: Shot
    thread: list[Shot]
    board: Shot
    picker: list[Shot] = field(default_factory=list)
    viewer: int = 0

    def shots(self) -> list[Shot]:
        """Every message drawn, in the order drawn."""
        return [self.card, *self.thread, self.board, *self.picker]


def _shot(message: StoredMessage, note: str = "") -> Shot:
    return Shot(copy.deepcopy(message), note)


async def record(db: Path) -> Scene:
    """Play a Maphex game in its thread through the fake, moves entered by the picker, then
    open the picker for the player to move and walk it to the preview."""
    async with fake_discord() as fake, running(fake, db, pictures=True) as run:
        fake.grant_threads(GUILD)
        card = await run.answer(
            ALICE, "challenge", {"game": "maphex", "opponent": BOB, "size": 9, "first": "me"}
        )
        await run.click(BOB, card, "Accept")
        await fake.wait_until(lambda: bool(fake.threads_in(CHANNEL)), timeout=DEADLINE)
        (thread,) = fake.threads_in(CHANNEL)
        await fake.wait_until(lambda: bool(fake.messages_in(thread)), timeout=DEADLINE)
        board = fake.messages_in(thread)[0]
        position = engines.new("maphex", size=9)
        rng = random.Random(25)
        for _ in range(MOVES):
            (mover,) = board.pinged_users
            move = rng.choice(position.legal_moves())
            board = await pick(fake, mover, board, move)
            position = position.play(move)
        public = [m for m in fake.messages_in(thread) if not m.ephemeral]
        # As it stays: an older board loses its buttons just after the newer one is posted.
        await fake.wait_until(lambda: not any(labels(m) for m in public[:-1]), timeout=DEADLINE)
        scene = Scene(
            thread_name=thread.name,
            card=_shot(card),
            thread=[_shot(m) for m in public[-2:]],
            board=_shot(board),
        )
        (mover,) = board.pinged_users
        scene.viewer = mover
        await _walk_picker(fake, scene, mover, board, rng.choice(position.legal_moves()))
        return scene


async def _walk_picker(
    fake: FakeDiscord, scene: Scene, user: int, board: StoredMessage, move: str
) -> None:
    """The picker's moments: opened (its menus), then the move's preview (Play it /
    Cancel), as in ``tests.adapters.test_discord_picker.pick``."""
    opened = await press(fake, user, board, "Move")
    picker = await fake.original(opened, timeout=DEADLINE)
    scene.picker.append(_shot(picker, "Only you can see this"))
    for _ in range(20):
        if "Play it" in labels(picker):
            break
        chosen = None
        for menu in selects(picker):
            for option in menu["options"]:
                part = option["value"].split(":", 4)[4][1:]
                if move.startswith(part) and move[len(part) : len(part) + 1] in ("", " ", ">"):
                    chosen = (menu["custom_id"], option["value"])
        if chosen is not None:
            await choose(fake, user, picker, *chosen)
        elif any(lb.startswith("Preview") for lb in labels(picker)):
            await press(fake, user, picker, f"Preview {move}")
        else:
            await press(fake, user, picker, "▶")
    scene.picker.append(_shot(picker, "Only you can see this"))
    assert button(picker, "Play it")


# ---- HTML ---------------------------------------------------------------------------------

_STYLE = """
body { margin: 0; background: #313338; color: #dbdee1; font: 15px/1.375 'Noto Sans',
  'Helvetica Neue', Arial, sans-serif; }
.pane { width: 640px; padding: 8px 0 16px; background: #313338; }
.head { padding: 10px 16px; border-bottom: 1px solid #1f2023; font-weight: 600; color: #f2f3f5; }
.head .sub { color: #949ba4; font-weight: 400; font-size: 13px; }
.msg { display: flex; padding: 8px 16px; }
.msg.ephemeral { background: rgba(88,101,242,.08); border-left: 2px solid #5865f2; }
.avatar { width: 40px; height: 40px; border-radius: 50%; background: #5865f2; color: #fff;
  display: flex; align-items: center; justify-content: center; font-weight: 700;
  flex: none; margin-right: 16px; }
.body { min-width: 0; flex: 1; }
.name { color: #f2f3f5; font-weight: 500; }
.tag { background: #5865f2; color: #fff; font-size: 10px; border-radius: 3px; padding: 1px 4px;
  margin-left: 4px; vertical-align: 2px; }
.content { white-space: pre-wrap; word-wrap: break-word; }
.mention { background: rgba(88,101,242,.3); color: #c9cdfb; border-radius: 3px; padding: 0 2px; }
code { background: #2b2d31; border: 1px solid #1f2023; border-radius: 4px; padding: 0 3px;
  font-size: 13px; }
.embed { margin-top: 4px; max-width: 520px; background: #2b2d31; border-left: 4px solid #1e1f22;
  border-radius: 4px; padding: 8px 16px 12px 12px; display: grid; gap: 8px;
  grid-template-columns: repeat(3, 1fr); }
.embed .title { grid-column: 1 / -1; font-weight: 600; color: #f2f3f5; }
.field.wide { grid-column: 1 / -1; }
.field .fname { font-weight: 600; font-size: 13px; color: #f2f3f5; }
.field .fvalue { font-size: 13px; white-space: pre-wrap; }
.attachment { margin-top: 6px; }
.attachment img { max-width: 520px; border-radius: 8px; display: block; }
.row { display: flex; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
.button { border-radius: 3px; padding: 2px 16px; min-height: 32px; color: #fff; font-size: 14px;
  font-weight: 500; display: inline-flex; align-items: center; }
.s1 { background: #5865f2; } .s2 { background: #4e5058; } .s3 { background: #248046; }
.s4 { background: #da373c; } .s5 { background: #4e5058; }
.select { width: 400px; background: #1e1f22; border: 1px solid #1e1f22; border-radius: 4px;
  padding: 8px 12px; color: #949ba4; display: flex; justify-content: space-between; }
.options { width: 426px; background: #2b2d31; border: 1px solid #1e1f22; border-radius: 0 0 4px 4px;
  margin-top: -8px; }
.option { padding: 6px 12px; color: #dbdee1; }
.option + .option { border-top: 1px solid #313338; }
.more { padding: 6px 12px; color: #949ba4; font-size: 13px; }
.note { color: #949ba4; font-size: 12px; margin-top: 6px; }
.note b { color: #00a8fc; font-weight: 400; }
.thread-link { margin-top: 6px; background: #2b2d31; border-radius: 4px; padding: 6px 10px;
  max-width: 400px; font-size: 14px; color: #f2f3f5; }
.thread-link span { color: #00a8fc; }
.scene { display: flex; gap: 2px; background: #1f2023; width: max-content; }
"""

#: How many options of the first select menu are drawn opened (as when a user clicks it).
OPEN_OPTIONS = 6


def _markdown(text: str, users: dict[int, str]) -> str:
    """Discord markdown as HTML: mentions, timestamps, bold, code, escapes (what the bot's
    messages use)."""
    out = html.escape(text, quote=False)
    out = re.sub(
        r"&lt;@!?(\d+)&gt;",
        lambda m: f'<span class="mention">@{html.escape(users.get(int(m[1]), m[1]))}</span>',
        out,
    )
    out = re.sub(r"&lt;t:(\d+):([a-zA-Z])&gt;", lambda m: _when(int(m[1]), m[2]), out)
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", out)
    return re.sub(r"\\([\\*_`~#>|\-\[\]()])", r"\1", out)


def _when(unix: int, style: str, now: datetime | None = None) -> str:
    """A Discord timestamp as the client shows it (in UTC here; relative to ``now``)."""
    moment = datetime.fromtimestamp(unix, UTC)
    if style != "R":
        return moment.strftime("%-d %B %Y %H:%M")
    seconds = (moment - (now or datetime.now(UTC))).total_seconds()
    hours = round(abs(seconds) / 3600)
    amount = f"{round(hours / 24)} days" if hours >= 36 else f"{hours} hours"
    return f"in {amount}" if seconds > 0 else f"{amount} ago"


def _component(item: dict[str, Any], opened: bool) -> str:
    kind = item.get("type")
    if kind == 1:  # an action row
        inner = "".join(_component(c, opened) for c in item.get("components", []))
        return f'<div class="row">{inner}</div>'
    if kind == 2:
        label = html.escape(str(item.get("label", "")))
        cid = html.escape(str(item.get("custom_id", "")))
        return (
            f'<span class="button s{int(item.get("style", 2))}" data-kind="button" '
            f'data-custom-id="{cid}" data-label="{label}">{label}</span>'
        )
    if kind == 3:
        cid = html.escape(str(item.get("custom_id", "")))
        placeholder = html.escape(str(item.get("placeholder", "")))
        options = item.get("options", [])
        drawn = (
            f'<div class="select" data-kind="select" data-custom-id="{cid}" '
            f'data-options="{len(options)}"><span>{placeholder}</span><span>⌄</span></div>'
        )
        if opened:
            rows = "".join(
                f'<div class="option">{html.escape(str(o.get("label", "")))}</div>'
                for o in options[:OPEN_OPTIONS]
            )
            more = len(options) - OPEN_OPTIONS
            rows += f'<div class="more">… {more} more</div>' if more > 0 else ""
            drawn += f'<div class="options">{rows}</div>'
        return f'<div class="row" style="flex-direction:column">{drawn}</div>'
    return ""


def _embed(embed: dict[str, Any], users: dict[int, str]) -> str:
    parts = [f'<div class="title">{_markdown(str(embed.get("title", "")), users)}</div>']
    for f in embed.get("fields", []):
        wide = "" if f.get("inline", True) else " wide"
        parts.append(
            f'<div class="field{wide}"><div class="fname">{html.escape(f["name"])}</div>'
            f'<div class="fvalue">{_markdown(str(f["value"]), users)}</div></div>'
        )
    return f'<div class="embed">{"".join(parts)}</div>'


def message_html(shot: Shot, users: dict[int, str], *, thread: str = "") -> str:
    """One message as Discord lays it out: the bot's name, the text, the embeds, the
    attachments (pictures at the width Discord gives them), the components."""
    m = shot.message
    body = [f'<div class="name">{BOT_NAME}<span class="tag">APP</span></div>']
    if m.content:
        body.append(f'<div class="content">{_markdown(m.content, users)}</div>')
    body += [_embed(e, users) for e in m.embeds]
    files = m.files
    for a in m.attachments:
        name = str(a["filename"])
        raw = files.get(name, b"")
        if name.endswith(".png"):
            data = base64.b64encode(raw).decode()
            alt = html.escape(str(a.get("description", "")))
            body.append(
                f'<div class="attachment" data-kind="attachment" '
                f'data-filename="{html.escape(name)}">'
                f'<img src="data:image/png;base64,{data}" alt="{alt}"></div>'
            )
        else:
            body.append(
                f'<div class="attachment" data-kind="attachment" '
                f'data-filename="{html.escape(name)}">{html.escape(name)}</div>'
            )
    for i, row in enumerate(m.components):
        body.append(_component(row, opened=i == 0))
    if thread:
        body.append(f'<div class="thread-link"><span>#</span> {html.escape(thread)}</div>')
    if shot.note:
        body.append(f'<div class="note">{shot.note} · <b>Dismiss message</b></div>')
    kind = "msg ephemeral" if m.ephemeral else "msg"
    return (
        f'<div class="{kind}" data-message="{m.id}"><div class="avatar">H</div>'
        f'<div class="body">{"".join(body)}</div></div>'
    )


def thread_html(scene: Scene) -> str:
    """The channel with the game's card, and the game's thread with its last boards."""
    users = dict(NAMES)
    channel = (
        '<div class="pane"><div class="head"># games</div>'
        + message_html(scene.card, users, thread=scene.thread_name)
        + "</div>"
    )
    thread = (
        f'<div class="pane"><div class="head">{html.escape(scene.thread_name)} '
        '<span class="sub">thread of # games · its last two messages</span></div>'
        + "".join(message_html(s, users) for s in scene.thread)
        + "</div>"
    )
    return _page(f'<div class="scene" id="shot">{channel}{thread}</div>')


def picker_html(scene: Scene) -> str:
    """The board's Move pressed by the player to move: the picker's menus, then the
    preview with Play it / Cancel (one private message at two moments)."""
    users = dict(NAMES)
    board = (
        f'<div class="pane"><div class="head">{html.escape(scene.thread_name)} '
        f'<span class="sub">as {html.escape(users[scene.viewer])} sees it</span></div>'
        + message_html(scene.board, users)
        + message_html(scene.picker[0], users)
        + "</div>"
    )
    preview = (
        '<div class="pane"><div class="head">… after choosing the cell '
        '<span class="sub">the same private message</span></div>'
        + message_html(scene.picker[-1], users)
        + "</div>"
    )
    return _page(f'<div class="scene" id="shot">{board}{preview}</div>')


def _page(inner: str) -> str:
    head = f"<head><meta charset='utf-8'><style>{_STYLE}</style></head>"
    return f"<!doctype html><html>{head}<body>{inner}</body></html>"


async def photograph(pages: dict[Path, str]) -> None:
    """Each page's ``#shot`` element as a PNG at ``path``, by headless Chromium."""
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": 1400, "height": 900})
            for path, text in pages.items():
                await page.set_content(text)
                await page.locator("#shot").screenshot(path=str(path))
        finally:
            await browser.close()


async def main() -> None:
    """Record a game through the fake, draw it, photograph it into ``docs/img``."""
    with tempfile.TemporaryDirectory() as folder:
        scene = await record(Path(folder) / "hexhall.db")
    pages = {
        OUT / "discord-thread.png": thread_html(scene),
        OUT / "discord-picker.png": picker_html(scene),
    }
    await photograph(pages)
    for path in pages:
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    asyncio.run(main())
