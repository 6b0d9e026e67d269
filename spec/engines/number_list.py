"""Golden cases of the typed-number grammar: generator/core/numbers.py ↔ templates/assets/js/engines/number-list.js.

Text as people type it into the stacks, payouts, blinds and ante fields (and the CLI's options): a list of
numbers (``parse_number_list``), one number (``parse_number``) and payouts that may be percentages of the pool
(``parse_payouts``), each with Python's numbers or Python's message.
"""

from __future__ import annotations

from generator.core.errors import InputError
from generator.core.numbers import parse_number, parse_number_list, parse_payouts

NAME = "number-list"
TOLERANCE = 0.0  # decimal text read to the nearest double in both languages

LISTS = [
    "10,000 5,000 2,500", "10,000\n5,000\n2,500\n", "10,000, 5,000, 2,500", "1,234,567.5; 2,000", "500, 300, 200",
    "500 300 200", "1500,1000,500", "50,30,20", "600,400,0", " 1e3,2.5E-2,.5 ", "500, 300, 200,", "+7 0.0 -3", "",
    " , ", "500,300,200", "10,000", "600,400", "1,050", "1,000,500", "1,234.5", "10,00 5,000", "1,2,3 4", "5,,3",
    "abc 1", "1_000 2", "0x10 1", "500,inf", "-Infinity", "NaN 1", "1e999 1", "1 2 \u00e9\u0001xyz", "\u00a0500\u00a0300",
]
NUMBERS = [
    "10,000", " 7 ", "2.5e3", "-0.25", "+3", ".5", "1,234,567.5", "0", "", "  ", "5,3", "5, 3", "1 2", "10,00", ",5",
    "5,", "abc", "1_000", "0x10", "inf", "-Infinity", "NaN", "1e999", "1e-999", "3%", "\u00a07\u00a0",
]
PAYOUTS = [
    "50% 30% 20%", "50%,30%,20%", "50%, 30%, 20%", "65% 35", "50 %", "60% 50%", "12.5% 12.5%", "100%", "1e2%",
    "33.4% 33.3% 33.3%", "50%% 50%", "%50 50%", "600 400",
    # rounding: within 0.1 point of 100% is the whole pool; beyond it refused, saying by how much
    "33.34% 33.33% 33.34%", "33.33% 33.33% 33.33%", "50% 30% 20.1%", "50% 30% 20.10001%", "50% 30% 20.2%",
    "50% 30% 21%", "99.85%", " ".join(["0.13333466667%"] * 750),
    # exactly 0.1 point off, whatever floating-point addition makes of it (33.3 · 3 is 99.89999999999999)
    "\uff11\uff12 \uff13", "\u0665\u0660 30 20", "5\u00b2",  # digits only ASCII ones, as JavaScript reads them
    "33.3% 33.3% 33.3%", "49.9% 30% 20%", "50.1% 30% 20%", "33.4% 33.4% 33.3%", "10% 10% 10% 10% 10% 10% 10% 10% 10% 9.9%",
]


def _answer(read, text: str, key: str) -> dict:
    try:
        return {"text": text, key: read(text)}
    except InputError as error:
        return {"text": text, "error": str(error)}


def _payouts(text: str) -> dict:
    values, percent = parse_payouts(text, "payouts")
    return {"values": values, "percent": percent}


def build() -> dict:
    return {
        "about": "generator/core/numbers.py's answers (numbers, or the message) for typed text; field names "
                 "\"stacks\" (lists), \"ante\" (one number), \"payouts\" (payouts).",
        "lists": [_answer(lambda t: parse_number_list(t, "stacks"), text, "values") for text in LISTS],
        "numbers": [_answer(lambda t: parse_number(t, "ante"), text, "value") for text in NUMBERS],
        "payouts": [_answer(_payouts, text, "payouts") for text in PAYOUTS],
    }
