"""Lookup tables of the 7-card evaluator, built from the rules of poker in pure Python/NumPy.

Strength values are the usual dense ranks of the 7,462 distinct five-card hands: 1 (7-5-4-3-2
offsuit) … 7,462 (royal flush); higher is better, equal means a tie.

Each card has two additive 64-bit keys (see :mod:`kernels.evaluator.core`):

* ``CARD_KEY``: low 32 bits a *rank key* ``CARD_COUNT_UNIT + RANK_KEYS[rank]`` (the rank keys give
  every multiset of 7 ranks a distinct sum; the count unit keeps 5-, 6- and 7-card sums apart),
  bits 32–47 four 4-bit suit counters;
* ``CARD_MASK``: bit ``16·suit + rank``, so the sum over a hand is the per-suit rank bit-mask.

Non-flush hands are looked up by their rank-key sum through a row-displacement perfect hash
(``rank_offsets``, ``rank_values``); flush hands by the 13-bit rank mask of the flush suit
(``flush_values``, 8,192 entries).
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np

#: Additive rank keys with distinct sums for all 7-card rank multisets (SKPokerEval's choice).
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
#: Added to every card's rank key so hands of 5, 6 and 7 cards fall in disjoint key ranges.
CARD_COUNT_UNIT = 1 << 23
#: Bit shift of a row in the row-displacement hash of rank-key sums.
ROW_SHIFT = 10

# Hand categories, lowest first; strength ranges follow from the number of hands in each.
CATEGORY_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


class EvaluatorTables(NamedTuple):
    """Arrays the evaluator kernels read; all are plain NumPy arrays (copied to the GPU as-is)."""

    card_key: np.ndarray  # (52,) uint64: rank key | suit counters << 32
    card_mask: np.ndarray  # (52,) uint64: 1 << (16 * suit + rank)
    rank_offsets: np.ndarray  # (rows,) int32: row displacement of the perfect hash
    rank_values: np.ndarray  # (slots,) uint16: strength of each non-flush rank multiset
    flush_values: np.ndarray  # (8192,) uint16: strength of the best flush in a suit's rank mask
    category_floor: np.ndarray  # (9,) uint16: lowest strength of each category


def _straight_high(rank_set: set[int]) -> int:
    """Highest card of the best straight in a set of ranks (0..12), -1 if none; the wheel is 5-high (3)."""
    for high in range(12, 3, -1):
        if all(r in rank_set for r in range(high - 4, high + 1)):
            return high
    if {12, 0, 1, 2, 3} <= rank_set:
        return 3
    return -1


def _best_non_flush(counts: tuple[int, ...]) -> tuple:
    """(category, tie-breaking ranks…) of the best 5-card hand from rank counts, ignoring flushes."""
    by_count = {k: [r for r in range(12, -1, -1) if counts[r] >= k] for k in (1, 2, 3, 4)}
    present = by_count[1]
    if by_count[4]:
        quad = by_count[4][0]
        return (QUADS, quad, next(r for r in present if r != quad))
    if by_count[3]:
        trips = by_count[3][0]
        pairs = [r for r in by_count[2] if r != trips]
        if pairs:
            return (FULL_HOUSE, trips, pairs[0])
    straight = _straight_high(set(present))
    if straight >= 0:
        return (STRAIGHT, straight)
    if by_count[3]:
        trips = by_count[3][0]
        return (TRIPS, trips, *[r for r in present if r != trips][:2])
    if len(by_count[2]) >= 2:
        high, low = by_count[2][:2]
        return (TWO_PAIR, high, low, next(r for r in present if r not in (high, low)))
    if by_count[2]:
        pair = by_count[2][0]
        return (PAIR, pair, *[r for r in present if r != pair][:3])
    return (HIGH_CARD, *present[:5])


def _best_flush(rank_set: set[int]) -> tuple:
    """(category, ranks…) of the best hand within one suit holding these (≥ 5) ranks."""
    straight = _straight_high(rank_set)
    if straight >= 0:
        return (STRAIGHT_FLUSH, straight)
    return (FLUSH, *sorted(rank_set, reverse=True)[:5])


def _rank_multisets(size: int):
    """Every multiset of ``size`` ranks with at most 4 of a rank, as a 13-tuple of counts."""
    for combo in itertools.combinations_with_replacement(range(13), size):
        counts = [0] * 13
        for r in combo:
            counts[r] += 1
        if max(counts) <= 4:
            yield tuple(counts)


def _strength_of_value() -> dict[tuple, int]:
    """Dense strength 1..7462 for every distinct 5-card hand value tuple."""
    values = {_best_non_flush(c) for c in _rank_multisets(5)}
    values |= {_best_flush(set(s)) for s in itertools.combinations(range(13), 5)}
    return {value: i + 1 for i, value in enumerate(sorted(values))}


def _first_fit(occupied: np.ndarray, cols: np.ndarray, window: int = 4096) -> int:
    """Smallest offset ``o`` with every ``occupied[o + cols]`` free (searched a window at a time)."""
    start = max(int(np.argmin(occupied)) - int(cols.max()), 0)
    while True:
        fits = np.ones(window, dtype=bool)
        for col in cols:
            fits &= ~occupied[start + col : start + col + window]
        if fits.any():
            return start + int(np.argmax(fits))
        start += window


def _perfect_hash(keys: np.ndarray, values: np.ndarray, row_shift: int) -> tuple[np.ndarray, np.ndarray]:
    """Row-displacement hash: ``slot = offsets[key >> row_shift] + (key & row_mask)`` is collision-free.

    Rows are placed first-fit, those of the largest keys (7-card hands, the hot path) first, so
    their values sit together at the start of the table.
    """
    row_mask = (1 << row_shift) - 1
    rows = keys >> row_shift
    n_rows = int(rows.max()) + 1
    offsets = np.zeros(n_rows, dtype=np.int32)
    size = 2 * len(keys) + 3 * (1 << row_shift) + 8192
    occupied = np.zeros(size, dtype=bool)
    table = np.zeros(size, dtype=np.uint16)
    order = np.argsort(rows, kind="stable")
    starts = np.searchsorted(rows[order], np.arange(n_rows + 1))
    populated = [r for r in range(n_rows) if starts[r + 1] > starts[r]]
    hand_size = lambda row: (row << row_shift) // CARD_COUNT_UNIT
    for row in sorted(populated, key=lambda r: (-hand_size(r), starts[r] - starts[r + 1])):
        members = order[starts[row] : starts[row + 1]]
        cols = keys[members] & row_mask
        offset = _first_fit(occupied, cols)
        occupied[offset + cols] = True
        table[offset + cols] = values[members]
        offsets[row] = offset
    used = int(np.flatnonzero(occupied).max()) + 1
    return offsets, table[:used].copy()


def build_tables() -> EvaluatorTables:
    """Build all evaluator tables from scratch (a few seconds)."""
    strength = _strength_of_value()

    slot_value: dict[int, int] = {}
    for size in (5, 6, 7):
        for counts in _rank_multisets(size):
            key = sum(n * (CARD_COUNT_UNIT + RANK_KEYS[r]) for r, n in enumerate(counts))
            value = strength[_best_non_flush(counts)]
            if slot_value.setdefault(key, value) != value:
                raise AssertionError(f"rank keys collide for multiset {counts}")
    keys = np.fromiter(slot_value.keys(), dtype=np.int64)
    values = np.fromiter(slot_value.values(), dtype=np.uint16)
    rank_offsets, rank_values = _perfect_hash(keys, values, ROW_SHIFT)

    flush_values = np.zeros(8192, dtype=np.uint16)
    for mask in range(8192):
        ranks = {r for r in range(13) if mask >> r & 1}
        if len(ranks) >= 5:
            flush_values[mask] = strength[_best_flush(ranks)]

    card_key = np.array([(CARD_COUNT_UNIT + RANK_KEYS[c // 4]) | (1 << (32 + 4 * (c % 4))) for c in range(52)], dtype=np.uint64)
    card_mask = np.array([1 << (16 * (c % 4) + c // 4) for c in range(52)], dtype=np.uint64)

    floors = [min(s for v, s in strength.items() if v[0] == cat) for cat in range(9)]
    return EvaluatorTables(
        card_key=card_key,
        card_mask=card_mask,
        rank_offsets=rank_offsets,
        rank_values=rank_values,
        flush_values=flush_values,
        category_floor=np.array(floors, dtype=np.uint16),
    )


def category_of(strength: np.ndarray | int, category_floor: np.ndarray) -> np.ndarray | int:
    """Hand category index (0 = high card … 8 = straight flush) of strength value(s)."""
    return np.searchsorted(category_floor, strength, side="right") - 1
