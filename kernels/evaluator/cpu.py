"""CPU path of the evaluator: the shared per-hand functions compiled with Numba, and a parallel batch API."""

import numpy as np
from numba import njit, prange

from kernels.evaluator.core import KEY_BASE, compile_hand_functions

# The per-hand functions never allocate, so they are compiled without Numba's reference counting
# (``_nrt=False``: otherwise every call from a hot loop increfs and decrefs the table arrays with
# atomic operations) and inlined into their callers; together 2-3x faster than a plain ``njit``.
_HAND = compile_hand_functions(njit(_nrt=False, inline="always"))
strength_of_key = _HAND.strength_of_key
strength_of_row = _HAND.strength_of_row


@njit(parallel=True, cache=True)
def _evaluate_rows(hands, card_key, card_mask, rank_offsets, rank_values, flush_values):
    n = hands.shape[0]
    out = np.empty(n, dtype=np.uint16)
    for i in prange(n):
        out[i] = strength_of_row(hands, np.uint64(i), card_key, card_mask, rank_offsets, rank_values, flush_values)
    return out


def evaluate(hands: np.ndarray, tables) -> np.ndarray:
    """Strengths of a batch of hands.

    hands: ``(N, k)`` integer card ids, k = 5, 6 or 7, distinct within a row (not checked here);
    ``uint8`` is used as given, other integer types are converted (a copy).
    Returns ``(N,)`` uint16 strengths (1..7462, higher wins).
    """
    hands = np.ascontiguousarray(hands, dtype=np.uint8)
    return _evaluate_rows(
        hands, tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values
    )


@njit(parallel=True, cache=True)
def _seven_card_histogram(card_key, card_mask, rank_offsets, rank_values, flush_values):
    partial = np.zeros((46, 7463), dtype=np.int64)
    for a in prange(46):
        ka, ma = KEY_BASE + card_key[a], card_mask[a]
        for b in range(a + 1, 47):
            kb, mb = ka + card_key[b], ma + card_mask[b]
            for c in range(b + 1, 48):
                kc, mc = kb + card_key[c], mb + card_mask[c]
                for d in range(c + 1, 49):
                    kd, md = kc + card_key[d], mc + card_mask[d]
                    for e in range(d + 1, 50):
                        ke, me = kd + card_key[e], md + card_mask[e]
                        for f in range(e + 1, 51):
                            kf, mf = ke + card_key[f], me + card_mask[f]
                            for g in range(f + 1, 52):
                                s = strength_of_key(kf + card_key[g], mf + card_mask[g], rank_offsets, rank_values, flush_values)
                                partial[a, s] += 1
    return partial.sum(axis=0)


def seven_card_histogram(tables) -> np.ndarray:
    """Number of the C(52, 7) = 133,784,560 seven-card hands at each strength, ``(7463,)`` int64.

    Every hand is enumerated (keys summed incrementally along the loops; the first card is split
    over threads); index 0 is unused.
    """
    return _seven_card_histogram(
        tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values
    )
