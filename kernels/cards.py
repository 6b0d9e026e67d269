"""Cards, hands and the 169 canonical starting-hand classes.

Card ids are ``4 * rank + suit`` with ranks ``23456789TJQKA`` (0..12) and suits ``cdhs`` (0..3),
so ``"2c" == 0`` and ``"As" == 51``.

The 169 classes are indexed by their position in the usual 13×13 chart: ``index = 13 * row + col``,
where row/column 0 is the ace and 12 the deuce. Pairs sit on the diagonal, suited hands above it
(row = higher rank) and offsuit hands below it (column = higher rank): ``AA`` is 0, ``AKs`` 1,
``AKo`` 13, ``22`` 168.
"""

from __future__ import annotations

import numpy as np

RANKS = "23456789TJQKA"
SUITS = "cdhs"
N_CARDS = 52
N_CLASSES = 169


class CardError(ValueError):
    """A card, hand or class string that cannot be parsed or is impossible (duplicate cards)."""


def card_id(rank: int, suit: int) -> int:
    return 4 * rank + suit


def parse_card(text: str) -> int:
    """``"As"`` → 51. Rank is case-insensitive (``t`` = ``T``); suit must be one of ``cdhs``."""
    if len(text) != 2 or text[0].upper() not in RANKS or text[1].lower() not in SUITS:
        raise CardError(f"{text!r} is not a card (ranks {RANKS}, suits {SUITS}, e.g. As, Td, 7c)")
    return card_id(RANKS.index(text[0].upper()), SUITS.index(text[1].lower()))


def parse_cards(text: str, count: int | None = None) -> list[int]:
    """Parse concatenated cards (``"AsKd"``); checks for duplicates and, if given, the number of cards."""
    text = text.strip()
    if len(text) % 2:
        raise CardError(f"{text!r}: cards are two characters each (e.g. AsKd)")
    cards = [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]
    if count is not None and len(cards) != count:
        raise CardError(f"{text!r}: expected {count} cards, got {len(cards)}")
    duplicates = sorted({format_card(c) for c in cards if cards.count(c) > 1})
    if duplicates:
        raise CardError(f"{text!r}: duplicate card {', '.join(duplicates)}")
    return cards


def format_card(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def format_cards(cards) -> str:
    return "".join(format_card(int(c)) for c in cards)


def rank_of_line(line: int) -> int:
    """Chart row/column (0 = ace … 12 = deuce) → rank index (12 = ace … 0 = deuce)."""
    return 12 - line


def class_name(index: int) -> str:
    """Class index 0..168 → ``"AA"``, ``"AKs"``, ``"AKo"``…"""
    row, col = divmod(index, 13)
    if row == col:
        return RANKS[rank_of_line(row)] * 2
    high, low = min(row, col), max(row, col)
    return RANKS[rank_of_line(high)] + RANKS[rank_of_line(low)] + ("s" if row < col else "o")


CLASS_NAMES: tuple[str, ...] = tuple(class_name(i) for i in range(N_CLASSES))
_CLASS_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}


def parse_class(text: str) -> int:
    """``"AKs"`` / ``"AKo"`` / ``"TT"`` (also ``"KAs"``, ``"aks"``) → class index."""
    raw = text.strip()
    if len(raw) == 3 and raw[2].lower() in "so" and raw[0].upper() != raw[1].upper():
        ranks, kind = raw[:2].upper(), raw[2].lower()
    elif len(raw) == 2 and raw[0].upper() == raw[1].upper():
        ranks, kind = raw.upper(), ""
    elif len(raw) == 2 and raw[0].upper() in RANKS and raw[1].upper() in RANKS:
        raise CardError(f"{text!r}: say {raw.upper()}s (suited) or {raw.upper()}o (offsuit)")
    else:
        raise CardError(f"{text!r} is not a hand class (e.g. AA, AKs, T9o)")
    if any(r not in RANKS for r in ranks):
        raise CardError(f"{text!r} is not a hand class (ranks {RANKS})")
    high, low = sorted(ranks, key=RANKS.index, reverse=True)
    return _CLASS_INDEX[high + low + kind]


def class_of_cards(first: int, second: int) -> int:
    """Two distinct card ids → class index."""
    r1, r2 = first // 4, second // 4
    high, low = max(r1, r2), min(r1, r2)
    row_high, row_low = 12 - high, 12 - low
    if high == low:
        return 13 * row_high + row_high
    if first % 4 == second % 4:
        return 13 * row_high + row_low
    return 13 * row_low + row_high


def class_combos(index: int) -> np.ndarray:
    """All combos of a class as an ``(k, 2)`` int array of card ids (k = 6 pairs, 4 suited, 12 offsuit)."""
    return ALL_COMBOS[COMBO_CLASS == index]


def _all_combos() -> tuple[np.ndarray, np.ndarray]:
    combos = [(a, b) for a in range(N_CARDS) for b in range(a + 1, N_CARDS)]
    array = np.array(combos, dtype=np.int64)
    classes = np.array([class_of_cards(a, b) for a, b in combos], dtype=np.int64)
    return array, classes


#: The 1326 two-card combos, ``(1326, 2)``, lower card id first, and the class index of each.
ALL_COMBOS, COMBO_CLASS = _all_combos()
#: Number of combos per class, ``(169,)``.
CLASS_COMBO_COUNT = np.bincount(COMBO_CLASS, minlength=N_CLASSES)
