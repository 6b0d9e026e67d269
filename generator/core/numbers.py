"""The one grammar of typed numbers, for every command and page that reads them: a list of numbers
(stacks, payouts, blinds), one number (an ante, a blind, a seat's stack) and payouts that may be
percentages of the pool. The browser's twin is ``templates/assets/js/engines/number-list.js`` (parseNumberList,
parseNumber, parsePayouts), checked against this module on the goldens of ``spec/number-list.json`` (``spec/engines/number_list.py``)."""

from __future__ import annotations

import math
import re

from generator.core.errors import InputError
from kernels.constants import PERCENT_ROUNDING, SHOWN_ENTRY

# The list grammar, shared with templates/assets/js/engines/number-list.js (parseNumberList; goldens in
# spec/number-list.json): entries are separated by white space, new lines, ';', or a comma
# next to white space or at either end ("500, 300, 200"). A comma between two characters ("10,000")
# is a thousands separator when the list has other separators, and must then group digits by three;
# in a list with no other separator ("500,300,200", the URL and CLI form) it separates entries, unless
# the list is digit groups of three of which one after the first starts with 0 ("10,000", "1,050"): no
# one types a stack as "000" or "050", so that reads as one number as much as a list, and is refused.
SEPARATORS = re.compile("[ \t\n\r\f\v\u00a0;]+")
# ASCII digits only (re.ASCII: Python's \d also takes full-width and Arabic-Indic digits, which JavaScript's does not)
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)
NON_FINITE = re.compile(r"[+-]?(inf|infinity|nan)", re.IGNORECASE)
GROUPED = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?", re.ASCII)


def shown_entry(text: str) -> str:
    """An entry for a message: printable ASCII kept, anything else as '?', at most 24 characters."""
    printable = "".join(c if " " <= c <= "~" else "?" for c in text)
    return printable if len(printable) <= SHOWN_ENTRY else printable[: SHOWN_ENTRY - 3] + "..."


def entry_number(text: str, name: str, index: int) -> float:
    """One entry (no commas left) as a finite float; InputError saying why not."""
    if NON_FINITE.fullmatch(text):
        raise InputError(f"{name}: entry {index} must be a finite number, got {shown_entry(text)}")
    if not NUMBER.fullmatch(text):
        raise InputError(f"{name}: entry {index} is not a number ({shown_entry(text) if text else 'empty'})")
    number = float(text)
    if not math.isfinite(number):
        raise InputError(f"{name}: entry {index} must be a finite number, got {shown_entry(text)}")
    return number


def parse_number_list(text: str, name: str) -> list[float]:
    """'10,000 5,000 2,500' or '500, 300, 200' or '500,300,200' -> floats, by the grammar above;
    InputError with one message saying why not (bad entry, bad digit grouping, ambiguous commas)."""
    chunks = [chunk.strip(",") for chunk in SEPARATORS.split(text)]
    chunks = [chunk for chunk in chunks if chunk]
    if len(chunks) == 1 and "," in chunks[0]:
        parts = chunks[0].split(",")
        if GROUPED.fullmatch(chunks[0]) and any(part.startswith("0") for part in parts[1:]):
            raise InputError(
                f'{name}: "{shown_entry(chunks[0])}" is ambiguous: one number ({shown_entry("".join(parts))}) or '
                f"{len(parts)} entries ({', '.join(parts)})? Separate entries with a space or a comma and a space "
                f"({', '.join(parts)}), or write the number without commas"
            )
        return [entry_number(part, name, index) for index, part in enumerate(parts, start=1)]
    numbers = []
    for index, chunk in enumerate(chunks, start=1):
        if "," in chunk:
            if not GROUPED.fullmatch(chunk):
                raise InputError(
                    f"{name}: entry {index} ({shown_entry(chunk)}): a comma inside a number must group digits by "
                    "three (10,000); separate entries with spaces, new lines or a comma and a space"
                )
            chunk = chunk.replace(",", "")
        numbers.append(entry_number(chunk, name, index))
    return numbers


PERCENT_SIGN = re.compile(r"%(?=$|[\s;,])")
# Percentages typed with rounding (33.34% 33.33% 33.34%, a long MTT table) add up to 100% give or take a
# little: a total within PERCENT_ROUNDING percentage points of 100 is the whole pool (the prizes are scaled to
# add up to exactly 100%); more is refused; less is a part of the pool (spec/constants.json).


#: What adding typed decimals in binary floating point can be off by (33.3 + 33.3 + 33.3 = 99.89999999999999): the
#: comparisons with 100 ± PERCENT_ROUNDING allow it, so that a total exactly 0.1 point off counts as rounding in both
#: languages, far below any typed precision (number-list.js uses the same).
SUM_SLACK = 1e-9


def parse_payouts(text: str, name: str) -> tuple[list[float], bool]:
    """(prizes, in_percent): the list grammar above, where every entry may instead end in "%" — the
    prizes as percentages of the pool ("50% 30% 20%"; all or none, adding up to at most 100%: a total
    within PERCENT_ROUNDING of 100% is rounding, scaled to exactly 100%).
    Shared with icm.js (parsePayouts; goldens in spec/number-list.json)."""
    signs = text.count("%")
    if not signs:
        return parse_number_list(text, name), False
    stripped = PERCENT_SIGN.sub("", text)
    if "%" in stripped:
        raise InputError(f"{name}: a % sign must end an entry (50% 30% 20%)")
    values = parse_number_list(stripped, name)
    if signs != len(values):
        raise InputError(f"{name}: give every prize as a percentage of the pool (50% 30% 20%) or none")
    total = 0.0
    for value in values:  # left to right, as icm.js adds (Python 3.12's sum() compensates)
        total += value
    if total > 100 + PERCENT_ROUNDING + SUM_SLACK:
        raise InputError(
            f"{name}: the percentages add up to {shown_total(total)}%, more than the whole pool "
            f"(100%, give or take {PERCENT_ROUNDING:g} for rounding)"
        )
    if abs(total - 100) <= PERCENT_ROUNDING + SUM_SLACK:
        values = [value * 100 / total for value in values]  # rounded shares of the whole pool, made exact
    return values, True


def shown_total(total: float) -> str:
    """``total`` with the fewest decimals that still show it above 100 + PERCENT_ROUNDING (never "100")."""
    for decimals in range(17):
        shown = f"{total:.{decimals}f}"
        if float(shown) > 100 + PERCENT_ROUNDING + SUM_SLACK:
            return shown
    return repr(total)


def parse_number(text: str, name: str) -> float:
    """One number, typed as a list entry is ("10,000", "2.5e3", " 7 "), where a comma can only group
    digits by three; InputError saying why not (nothing, several entries, a stray comma, not a number)."""
    chunks = [chunk for chunk in SEPARATORS.split(text) if chunk]
    if not chunks:
        raise InputError(f"{name}: give a number")
    if len(chunks) > 1:
        raise InputError(f"{name}: give one number, got {len(chunks)} entries ({shown_entry(text.strip())})")
    chunk = chunks[0]
    if "," in chunk:
        if not GROUPED.fullmatch(chunk):
            raise InputError(f"{name}: give one number ({shown_entry(chunk)}): a comma inside a number must group digits by three (10,000)")
        chunk = chunk.replace(",", "")
    if not NUMBER.fullmatch(chunk) or NON_FINITE.fullmatch(chunk):
        why = "must be a finite number, got" if NON_FINITE.fullmatch(chunk) else "not a number:"
        raise InputError(f"{name}: {why} {shown_entry(chunk)}")
    number = float(chunk)
    if not math.isfinite(number):
        raise InputError(f"{name}: must be a finite number, got {shown_entry(chunk)}")
    return number
