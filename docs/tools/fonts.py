"""Make the fallback fonts in ``render/fonts/`` again: Noto fonts (SIL Open Font License,
``render/fonts/OFL.txt``) subset with fontTools to what the pictures need.

Sources, from package registries only (no other download):

* Debian's ``fonts-noto-cjk`` (``NotoSansCJK-Regular.ttc`` / ``-Bold.ttc``, the Japanese face:
  Han characters in Japanese forms, kana, Hangul);
* Debian's ``fonts-noto-core`` (``NotoSansArabic-Regular.ttf`` / ``-Bold.ttf``);
* npm's ``@expo-google-fonts/noto-emoji`` (Noto Emoji, the outline, one-colour emoji font, which
  is drawn in the text's colour like every other glyph).

DejaVu Sans, already bundled, stays the first font: it covers Latin, Cyrillic, Greek, Hebrew
and Arabic (with the presentation forms ``render/_glyphs.py`` shapes Arabic into).  Each Noto
font keeps only what DejaVu lacks, and no OpenType layout (Pillow's basic layout, which the
pictures use on every machine, never reads it):

* ``NotoSansCJK-Regular.otf``: every character the Japanese face maps (all of CJK Unified
  Ideographs, extension A, the plane-2 characters Noto Sans CJK has, kana, Hangul, CJK symbols
  and full-width forms): no Han character Noto Sans CJK draws is lost;
* ``NotoSansCJK-Bold.otf``: the common characters only: GB 2312 (simplified Chinese), JIS X 0208
  (Japanese), KS X 1001 (Korean) and all 11,172 Hangul syllables, kana, CJK symbols and
  full-width forms.  A rarer character in bold text is drawn in the regular weight;
* ``NotoSansArabic-*.ttf``: the Arabic blocks (Persian and Urdu letters DejaVu lacks);
* ``NotoEmoji-*.ttf``: the emoji with a code point of their own (400 and 700 weights), also
  the pictographs DejaVu has (``render._fonts.EMOJI_FIRST``: Noto Emoji draws them first).

It also writes ``render/fonts/coverage.json``, the code points each font maps (``--coverage``
writes only that).

Run from the repository: ``.venv/bin/python docs/tools/fonts.py`` (it runs ``apt-get
download`` and ``npm pack`` in a temporary folder; ``--source DIR`` uses a folder where the
packages are already unpacked: ``dpkg-deb -x`` each ``.deb`` and untar the npm package there).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterable
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from render._fonts import CHAINS, COVERAGE, EMOJI_FIRST, ranges

FONTS = ROOT / "render" / "fonts"

DEBIAN = ("fonts-noto-cjk", "fonts-noto-core")
NPM = "@expo-google-fonts/noto-emoji"

#: code points kept in every CJK subset besides the legacy character sets: CJK symbols and
#: punctuation, kana, Hangul compatibility jamo, all Hangul syllables, full-width forms
CJK_BLOCKS = (
    range(0x3000, 0x3100),
    range(0x3130, 0x3190),
    range(0x31F0, 0x3200),
    range(0xAC00, 0xD7A4),
    range(0xFF00, 0xFFF0),
)
#: the legacy double-byte character sets that make the common CJK set
CJK_CODECS = ("gb2312", "euc_jp", "euc_kr")
ARABIC_BLOCKS = (
    range(0x0600, 0x0700),
    range(0x0750, 0x0780),
    range(0x08A0, 0x0900),
    range(0xFB50, 0xFE00),
    range(0xFE70, 0xFF00),
)


def codec_chars(codec: str) -> set[int]:
    """The single characters a double-byte ``codec`` encodes in two bytes."""
    found: set[int] = set()
    for lead in range(0x81, 0xFF):
        for trail in range(0x40, 0xFF):
            try:
                text = bytes((lead, trail)).decode(codec)
            except UnicodeDecodeError:
                continue
            if len(text) == 1:
                found.add(ord(text))
    return found


def common_cjk() -> set[int]:
    """The common CJK set of :data:`CJK_CODECS` and :data:`CJK_BLOCKS`."""
    chars: set[int] = set()
    for codec in CJK_CODECS:
        chars |= codec_chars(codec)
    for block in CJK_BLOCKS:
        chars.update(block)
    return chars


def cut(source: Path, unicodes: Iterable[int], target: Path, number: int = 0) -> None:
    """Save the glyphs of ``unicodes`` from ``source`` (face ``number`` of a collection) as
    ``target``, without layout tables or hinting."""
    font = TTFont(source, fontNumber=number)
    options = subset.Options()
    options.layout_features = []
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.hinting = False
    cmap = font.getBestCmap()
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=sorted(set(unicodes) & set(cmap)))
    subsetter.subset(font)
    font.save(target)
    print(f"{target.relative_to(ROOT)}: {len(font.getBestCmap())} characters, "
          f"{target.stat().st_size / 1e6:.2f} MB")  # fmt: skip


def write_coverage() -> None:
    """Write ``render/fonts/coverage.json``: the code points each font of the chains maps,
    as ranges (what ``render._fonts.covers`` reads instead of each font's ``cmap``)."""
    coverage: dict[str, list[list[int]]] = {}
    for name in dict.fromkeys(CHAINS[True]):
        with TTFont(FONTS / name, lazy=True) as font:
            coverage[name] = ranges(font.getBestCmap())
    text = "{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in coverage.items())
    COVERAGE.write_text(text + "\n}\n", encoding="utf-8")
    print(f"{COVERAGE.relative_to(ROOT)}: {sum(map(len, coverage.values()))} ranges")


def fetch(into: Path) -> None:
    """Download and unpack the source packages into ``into``."""
    subprocess.run(["apt-get", "download", *DEBIAN], cwd=into, check=True)
    for deb in into.glob("*.deb"):
        subprocess.run(["dpkg-deb", "-x", str(deb), str(into)], check=True)
    subprocess.run(["npm", "pack", NPM], cwd=into, check=True, stdout=subprocess.DEVNULL)
    for tgz in into.glob("*.tgz"):
        with tarfile.open(tgz) as archive:
            archive.extractall(into, filter="data")


def main() -> None:
    """Cut the fonts (or only write the coverage) as the arguments say."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, help="a folder with the packages unpacked")
    parser.add_argument(
        "--coverage", action="store_true", help="only write coverage.json from the fonts there"
    )
    args = parser.parse_args()
    if args.coverage:
        write_coverage()
        return
    with tempfile.TemporaryDirectory() as temp:
        source: Path = args.source or Path(temp)
        if args.source is None:
            fetch(source)
        noto = source / "usr" / "share" / "fonts"
        cjk = noto / "opentype" / "noto"
        arabic = noto / "truetype" / "noto"
        emoji = source / "package"
        for bold in (False, True):
            weight = "Bold" if bold else "Regular"
            dejavu = TTFont(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"))
            known = set(dejavu.getBestCmap())
            face = cjk / f"NotoSansCJK-{weight}.ttc"
            wanted = common_cjk() if bold else set(TTFont(face, fontNumber=0).getBestCmap())
            cut(face, wanted - known, FONTS / f"NotoSansCJK-{weight}.otf")
            blocks = {c for block in ARABIC_BLOCKS for c in block}
            cut(arabic / f"NotoSansArabic-{weight}.ttf", blocks - known,
                FONTS / f"NotoSansArabic-{weight}.ttf")  # fmt: skip
            name = (
                "700Bold/NotoEmoji_700Bold.ttf" if bold else "400Regular/NotoEmoji_400Regular.ttf"
            )
            ttf = emoji / name
            drawn = known - set(EMOJI_FIRST)
            cut(ttf, set(TTFont(ttf).getBestCmap()) - drawn, FONTS / f"NotoEmoji-{weight}.ttf")
    write_coverage()


if __name__ == "__main__":
    sys.exit(main())
