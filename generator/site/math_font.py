"""The font article math is set in, cut to what the articles use.

STIX Two Math (SIL OFL 1.1; the licence is ``templates/assets/fonts/STIXTwoMath-OFL.txt``) ships inside the
ziamath package as a 1.5 MB TrueType file. The site serves a subset as WOFF2: the characters of every rendered
formula plus printable ASCII, with the OpenType MATH table and the glyphs it reaches (size variants and
assemblies of stretchy brackets, radicals and bars), which fontTools' subsetter keeps (tens of KB).
"""

from __future__ import annotations

import html
import io
import re
import string
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

from generator.core.storage import atomic_write_bytes

#: The full font, found through ziamath's metadata (importing ziamath itself is not needed).
SOURCE = Path(metadata.distribution("ziamath").locate_file("ziamath/fonts/STIXTwoMath-Regular.ttf"))
#: Where the subset goes under ``site/assets/``.
ASSET = "fonts/STIXTwoMath-Regular.woff2"
#: Always kept, whatever the formulas use: digits, Latin letters, ASCII punctuation and the space, and the
#: mathematical italic Latin and Greek letters (U+1D434–U+1D467 with U+210E for h, not the unassigned U+1D455; U+1D6A4–U+1D6A5, U+1D6E2–U+1D71B):
#: browsers draw a one-letter ``<mi>x</mi>`` as U+1D465 when the font has it, and without them they slant the
#: upright letter and set its scripts differently.
MATH_ITALIC = "".join(map(chr, [*range(0x1D434, 0x1D455), *range(0x1D456, 0x1D468), 0x210E, 0x1D6A4, 0x1D6A5, *range(0x1D6E2, 0x1D71C)]))
#: Drawn by the browser without being in the formula's text: the radical sign of ``<msqrt>`` and ``<mroot>``.
IMPLICIT = "√"
BASE_CHARACTERS = string.printable.strip() + " " + MATH_ITALIC + IMPLICIT
_MATH = re.compile(r"<math\b.*?</math>", re.S)
_TAG = re.compile(r"<[^>]+>")


def math_characters(pages: Iterable[str]) -> str:
    """Every character inside the ``<math>`` elements of ``pages`` (HTML strings), sorted, with :data:`BASE_CHARACTERS`."""
    used = set(BASE_CHARACTERS)
    for page in pages:
        for formula in _MATH.findall(page):
            used.update(html.unescape(_TAG.sub("", formula)))
    return "".join(sorted(used))


def subset_font(characters: str, source: Path = SOURCE) -> bytes:
    """WOFF2 bytes of ``source`` cut to ``characters`` (OpenType layout and MATH closure kept)."""
    from fontTools import subset

    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters)
    subsetter.subset(font)
    out = io.BytesIO()
    subset.save_font(font, out, options)
    return out.getvalue()


def write_math_font(target: Path, pages: Iterable[str]) -> Path:
    """Write the subset for ``pages`` to ``target`` (``site/assets/`` + :data:`ASSET`) unless the same bytes are there."""
    data = subset_font(math_characters(pages))
    if not target.exists() or target.read_bytes() != data:
        atomic_write_bytes(target, data)
    return target
