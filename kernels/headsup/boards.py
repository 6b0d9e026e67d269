"""Boards up to suit symmetry: the 2,598,960 five-card boards fall into 134,459 classes.

Relabelling the suits maps a board to one with the same heads-up statistics for every pair of
*hand classes* (classes do not depend on suit names), so it is enough to walk one representative
per orbit and weight it by the orbit size. A board's orbit is identified by the multiset of its
four 13-bit suit rank-masks: sorting the masks gives a canonical code.
"""

import numpy as np
from numba import njit

N_BOARDS = 2_598_960


@njit(cache=True)
def _sorted_mask_code(masks):
    """Sort four suit masks in place (descending) and pack them into one int64."""
    for i in range(1, 4):
        value = masks[i]
        j = i - 1
        while j >= 0 and masks[j] < value:
            masks[j + 1] = masks[j]
            j -= 1
        masks[j + 1] = value
    return (masks[0] << 39) | (masks[1] << 26) | (masks[2] << 13) | masks[3]


@njit(cache=True)
def _canonical_codes_of_all_boards():
    """Canonical code of every board, in lexicographic order of the sorted card ids, ``(2598960,)``."""
    codes = np.empty(N_BOARDS, dtype=np.int64)
    masks = np.zeros(4, dtype=np.int64)
    n = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        masks[:] = 0
                        for card in (a, b, c, d, e):
                            masks[card % 4] |= np.int64(1) << (card // 4)
                        codes[n] = _sorted_mask_code(masks)
                        n += 1
    return codes


def _boards_from_codes(codes: np.ndarray) -> np.ndarray:
    """Decode canonical codes into boards (suit k takes the k-th mask), ``(M, 5)`` int8 sorted ids."""
    boards = np.empty((codes.size, 5), dtype=np.int8)
    for row, code in enumerate(codes.tolist()):
        cards = [
            4 * rank + suit
            for suit in range(4)
            for rank in range(13)
            if (code >> (13 * (3 - suit))) >> rank & 1
        ]
        boards[row] = sorted(cards)
    return boards


def board_orbits() -> tuple[np.ndarray, np.ndarray]:
    """One representative per suit-symmetry class of boards, and the class sizes.

    Returns ``(representatives (134459, 5) int8, weights (134459,) int64)``, ``weights.sum() == 2598960``.
    """
    codes, weights = np.unique(_canonical_codes_of_all_boards(), return_counts=True)
    return _boards_from_codes(codes), weights.astype(np.int64)
