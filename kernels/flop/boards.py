"""The 2,598,960 five-card boards up to suit relabelling (134,459 classes), each with its ten flops' suit-distinct
classes: what the every-flop report (:mod:`.equity`) walks instead of every flop's turns and rivers.

A board's class is named by the multiset of its four 13-bit suit rank-masks (as :mod:`kernels.headsup.boards`
and :mod:`.flops` do); the representative here gives suit k the k-th largest mask, so the classes are generated
directly (suit masks of popcounts adding up to 5, each at most the one before) instead of from every board.
The browser builds the same list (templates/assets/js/engines/flops.js, ``boardClasses``).
"""

from __future__ import annotations

import functools
from itertools import combinations

import numpy as np
from numba import njit

from kernels.flop.flops import all_flops, flop_orbits

N_BOARD_CLASSES = 134_459
#: The three-card subsets of a five-card board, ``(10, 3)``: positions in its sorted cards.
FLOPS_OF_BOARD = np.array(list(combinations(range(5), 3)), dtype=np.int64)


@njit(cache=True)
def _sorted_mask_codes(by_popcount, starts, out):
    """Fills ``out`` with the code ``(m0 << 39) | (m1 << 26) | (m2 << 13) | m3`` of every board class (suit masks
    m0 ≥ m1 ≥ m2 ≥ m3 holding 5 cards); ``by_popcount[starts[p]:starts[p + 1]]``: the masks of p cards, ascending.
    Returns how many."""
    n = 0
    for p0 in range(6):
        for p1 in range(6 - p0):
            for p2 in range(6 - p0 - p1):
                p3 = 5 - p0 - p1 - p2
                for i0 in range(starts[p0], starts[p0 + 1]):
                    m0 = by_popcount[i0]
                    for i1 in range(starts[p1], starts[p1 + 1]):
                        m1 = by_popcount[i1]
                        if m1 > m0:
                            break
                        for i2 in range(starts[p2], starts[p2 + 1]):
                            m2 = by_popcount[i2]
                            if m2 > m1:
                                break
                            for i3 in range(starts[p3], starts[p3 + 1]):
                                m3 = by_popcount[i3]
                                if m3 > m2:
                                    break
                                out[n] = (m0 << 39) | (m1 << 26) | (m2 << 13) | m3
                                n += 1
    return n


def orbit_sizes(masks: np.ndarray) -> np.ndarray:
    """How many boards each class stands for, from its sorted suit masks ``(M, 4)``: 24 / Π k! over the runs of k
    equal masks (the relabellings that fix the board)."""
    fixed = np.ones(len(masks), dtype=np.int64)
    run = np.ones(len(masks), dtype=np.int64)
    for s in range(1, 4):
        run = np.where(masks[:, s] == masks[:, s - 1], run + 1, 1)
        fixed *= run
    return 24 // fixed


@functools.cache
def board_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(boards (134459, 5) int64 sorted card ids, sizes (134459,) int64, flops (134459, 10) int64)``, in the order
    of the classes' codes: a representative per class (suit k holds the k-th largest rank mask), how many boards
    the class stands for (they add up to 2,598,960), and the suit-distinct flop (0..1754, :mod:`.flops`) of each
    of the representative's ten three-card subsets (in :data:`FLOPS_OF_BOARD`'s order)."""
    masks = np.arange(1 << 13, dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << 13)])
    by_popcount = np.concatenate([masks[popcount == p] for p in range(6)])
    starts = np.concatenate(([0], np.cumsum([np.count_nonzero(popcount == p) for p in range(6)]))).astype(np.int64)
    codes = np.empty(N_BOARD_CLASSES, dtype=np.int64)
    assert _sorted_mask_codes(by_popcount, starts, codes) == N_BOARD_CLASSES
    codes.sort()
    suit_masks = np.stack([(codes >> (13 * (3 - s))) & 8191 for s in range(4)], axis=1)  # (M, 4), suit s's mask
    cards = np.arange(52)
    held = (suit_masks[:, cards % 4] >> (cards // 4)) & 1  # (M, 52) by card id
    boards = np.nonzero(held)[1].reshape(N_BOARD_CLASSES, 5).astype(np.int64)
    flop_lookup = np.full((52, 52, 52), -1, dtype=np.int64)
    flops = all_flops().astype(np.int64)
    flop_lookup[flops[:, 0], flops[:, 1], flops[:, 2]] = flop_orbits()[2]
    subsets = boards[:, FLOPS_OF_BOARD]  # (M, 10, 3), sorted ids
    flop_of = flop_lookup[subsets[..., 0], subsets[..., 1], subsets[..., 2]]
    return boards, orbit_sizes(suit_masks), flop_of
