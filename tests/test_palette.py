"""The chart palette in site.css: each colour step's text colour is the better of white and black by
WCAG 2 contrast, and reaches 4.5:1 (normal-size text, level AA)."""

from __future__ import annotations

import re
from pathlib import Path

CSS = Path(__file__).resolve().parent.parent / "templates" / "assets" / "css" / "site.css"
INKS = ("#fff", "#000")


def relative_luminance(colour: str) -> float:
    """WCAG 2 relative luminance of ``#rgb`` / ``#rrggbb`` (0 = black, 1 = white)."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(2 * d for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    low, high = sorted((relative_luminance(a), relative_luminance(b)))
    return (high + 0.05) / (low + 0.05)


def palette() -> dict[str, str]:
    root = CSS.read_text(encoding="utf-8").split("}", 1)[0]  # the light :root block
    return dict(re.findall(r"--(q\d(?:-ink)?):\s*(#[0-9a-fA-F]{3,6})\b", root))


def test_contrast_reference_values():
    assert contrast("#fff", "#000") == 21
    assert round(contrast("#767676", "#fff"), 2) == 4.54  # the usual AA grey on white


def test_each_step_uses_the_ink_with_the_higher_contrast():
    colours = palette()
    steps = [f"q{q}" for q in range(10)]
    assert all(step in colours and f"{step}-ink" in colours for step in steps), colours
    for step in steps:
        best = max(INKS, key=lambda ink: contrast(colours[step], ink))
        assert colours[f"{step}-ink"] == best, (step, colours[step], [round(contrast(colours[step], ink), 2) for ink in INKS])
        assert contrast(colours[step], best) >= 4.5, (step, round(contrast(colours[step], best), 2))
