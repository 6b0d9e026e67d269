"""The 22,100 flops, grouped by suit relabelling into 1,755 suit-distinct flops, and their textures.

A flop's orbit under the 24 relabellings of the suits is named by the multiset of its four 13-bit suit
rank-masks (as :mod:`kernels.headsup.boards` does for five-card boards): sorting the masks gives a code
shared by every flop of the orbit. Flops are indexed by their position in the lexicographic order of
their sorted card ids (:func:`all_flops`); :func:`suit_distinct_flops` lists one representative per orbit,
in the order of their codes, with the orbit sizes (4, 12 or 24; they add up to 22,100).
"""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np
from numba import njit

N_FLOPS = 22_100
N_SUIT_DISTINCT_FLOPS = 1_755


def _orbit_code(cards) -> int:
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card % 4] |= 1 << (card // 4)
    a, b, c, d = sorted(masks, reverse=True)
    return (a << 39) | (b << 26) | (c << 13) | d


@functools.cache
def all_flops() -> np.ndarray:
    """Every flop as sorted card ids, lexicographic, ``(22100, 3)`` int8."""
    return np.array(list(combinations(range(52), 3)), dtype=np.int8)


@functools.cache
def flop_orbits() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(representatives (1755, 3) int8, weights (1755,) int64, orbit_of_flop (22100,) int64)``.

    ``representatives[k]`` is the first flop (lexicographically) of orbit ``k``; ``weights[k]`` the
    orbit's size; ``orbit_of_flop[i]`` the orbit of ``all_flops()[i]``. Orbits are in the order of
    their codes, so the numbering is the same on every run and machine.
    """
    flops = all_flops()
    codes = np.array([_orbit_code(flop) for flop in flops.tolist()], dtype=np.int64)
    unique, first, orbit_of_flop, weights = np.unique(codes, return_index=True, return_inverse=True, return_counts=True)
    return flops[first], weights.astype(np.int64), orbit_of_flop.astype(np.int64)


def suit_distinct_flops() -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-distinct flop and its weight: ``((1755, 3) int8, (1755,) int64)``."""
    representatives, weights, _ = flop_orbits()
    return representatives, weights


@njit(cache=True)
def flop_position(a, b, c):
    """Position in :func:`all_flops` of the flop ``a < b < c`` (card ids): the flops that start with a lower
    card, C(52, 3) − C(52 − a, 3), then those that start with ``a`` and a lower second card,
    C(51 − a, 2) − C(52 − b, 2), then ``c − b − 1``."""
    before_a = N_FLOPS - (52 - a) * (51 - a) * (50 - a) // 6
    before_b = (51 - a) * (50 - a) // 2 - (52 - b) * (51 - b) // 2
    return before_a + before_b + (c - b - 1)


def flop_index(cards) -> int:
    """Position of a flop (three distinct card ids, any order) in :func:`all_flops`."""
    a, b, c = sorted(int(card) for card in cards)
    return int(flop_position(a, b, c))


def orbit_of(cards) -> int:
    """The suit-distinct flop (0..1754) that a flop (three distinct card ids) belongs to."""
    return int(flop_orbits()[2][flop_index(cards)])


#: The ten straights as 13-bit rank masks (bit r = rank r; the wheel uses the ace, bit 12, as its low card).
_STRAIGHTS = tuple((0b11111 << low) if low >= 0 else (0b1111 | 1 << 12) for low in range(-1, 9))


def straight_holdings(ranks) -> int:
    """How many of the 78 unpaired two-rank holdings make a straight with these board ranks (0..12, A = 12;
    the wheel counts the ace low): the flop's *straights* texture (docs/flop.md)."""
    board = 0
    for rank in ranks:
        board |= 1 << int(rank)
    return sum(1 for first, second in combinations(range(13), 2)
               if any(straight & (board | 1 << first | 1 << second) == straight for straight in _STRAIGHTS))


def texture(cards) -> dict:
    """The texture of a flop (docs/flop.md): ``suits`` ("rainbow", "two-tone", "monotone"), ``pairing``
    ("unpaired", "paired", "trips"), ``high`` (rank index 0..12 of the highest card), ``straights``."""
    ranks = [int(card) // 4 for card in cards]
    suits = len({int(card) % 4 for card in cards})
    distinct = len(set(ranks))
    return {
        "suits": {3: "rainbow", 2: "two-tone", 1: "monotone"}[suits],
        "pairing": {3: "unpaired", 2: "paired", 1: "trips"}[distinct],
        "high": max(ranks),
        "straights": straight_holdings(ranks),
    }
