"""How numbers read on the site (also the Jinja filters of the same names)."""

from __future__ import annotations

#: What a page shows in place of a number whose data file (or table) the build has not produced.
NOT_COMPUTED = '<span class="missing">not computed yet</span>'


def pct(value: float | None, digits: int = 1) -> str:
    """0.8520 → ``"85.2%"``; ``None`` → an en dash."""
    if value is None:
        return "–"
    return f"{100 * value:.{digits}f}%"


def count(value: int | None) -> str:
    """1712304 → ``"1,712,304"``."""
    return "–" if value is None else f"{int(value):,}"


def big(value: int | None) -> str:
    """Large counts in words: 2.1e9 → ``"2.10 billion"``."""
    if value is None:
        return "–"
    for size, word in ((1e18, "quintillion"), (1e15, "quadrillion"), (1e12, "trillion"), (1e9, "billion"), (1e6, "million")):
        if value >= size:
            return f"{value / size:.2f} {word}"
    return count(value)


def scientific(value: float, digits: int = 1) -> str:
    """9.9e-07 → ``"9.9 × 10⁻⁷"`` (for prose; plain decimals for 0 and for 0.01 ≤ |value| < 1000)."""
    if value == 0 or 0.01 <= abs(value) < 1000:
        return f"{value:.{digits + 1}g}"
    mantissa, exponent = f"{value:.{digits}e}".split("e")
    return f"{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def day(stamp: str | None) -> str:
    """ISO timestamp → its date part (``"2026-11-22"``)."""
    return stamp[:10] if stamp else "not yet"


def factor(value: float | None) -> str:
    """A ratio such as a variance reduction: 2.8134 → ``"2.8×"``; ``None`` → an en dash."""
    return "–" if value is None else f"{value:.1f}×"


FILTERS = {"pct": pct, "count": count, "big": big, "day": day, "factor": factor}


def knockout_rule(share: float) -> str:
    """How a knockout pays a bounty: ``"PKO: 50% of a bounty paid in cash at a knockout, 50% added to the winner's
    own bounty"``, or the regular KO's ``share`` 1 (the CLI's model line and the PKO chart pages say it so)."""
    if share == 1:
        return "regular KO: a bounty is paid in full to whoever knocks its player out"
    return (f"PKO: {100 * share:.10g}% of a bounty paid in cash at a knockout, {100 * (1 - share):.10g}% added to "
            "the winner's own bounty")


def number_runs(numbers) -> str:
    """Whole numbers as words with runs folded: ``[2, 3, 4, 5, 6, 9]`` → ``"2 to 6 and 9"``, ``[2, 3]`` → ``"2 and 3"``."""
    runs = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    parts = []
    for first, last in runs:
        parts += [str(first)] if first == last else [str(first), str(last)] if last == first + 1 else [f"{first} to {last}"]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
