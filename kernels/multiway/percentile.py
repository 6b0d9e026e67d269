"""The third control variate ``q``: a function of the hero's 7-card hand strength, and its exact class means.

With ``F(s)`` the fraction of all C(52,7) seven-card hands weaker than strength ``s`` (the hand's
percentile), ``q = floor(LEVELS · F^POWER)``: roughly the chance of beating ``POWER`` random hands,
so it tracks the multiway outcome beyond the linear heads-up controls (measured: the 8th power
beat the percentile itself and lower powers as one extra control). It depends on the hero's own
seven cards only, so its mean for a class is exact by enumerating every board once
(:func:`class_percentile_means`); the quantisation is part of the control's definition and costs
no bias.
"""

import numpy as np
from numba import njit, prange

from kernels.cards import N_CLASSES
from kernels.evaluator import cpu as hand
from kernels.evaluator.core import KEY_BASE

PERCENTILE_LEVELS = 1024
PERCENTILE_POWER = 8


def percentile_table(tables) -> np.ndarray:
    """``(7463,)`` int32: ``q = floor(LEVELS · F(s)^POWER)`` for each strength ``s`` (a few seconds)."""
    histogram = hand.seven_card_histogram(tables)
    weaker = np.concatenate([[0], np.cumsum(histogram)[:-1]]) / histogram.sum()
    return np.floor(PERCENTILE_LEVELS * weaker**PERCENTILE_POWER).astype(np.int32)


@njit(parallel=True, cache=True)
def _combo_percentile_sums(combos, deck, percentile, card_key, card_mask, rank_offsets, rank_values, flush_values):
    """Σ percentile over every board from ``deck`` minus each combo's cards: ``(K,)`` sums and ``(K,)`` board counts."""
    sums = np.zeros(combos.shape[0], dtype=np.int64)
    counts = np.zeros(combos.shape[0], dtype=np.int64)
    for i in prange(combos.shape[0]):
        x, y = combos[i, 0], combos[i, 1]
        live = np.empty(deck.size, dtype=np.int64)  # the deck less the combo (a loop: a comprehension keeps prange serial)
        m = 0
        for card in deck:
            if card != x and card != y:
                live[m] = card
                m += 1
        base_key = KEY_BASE + card_key[x] + card_key[y]
        base_mask = card_mask[x] + card_mask[y]
        total = 0
        boards = 0
        for a in range(m - 4):
            ka, ma = base_key + card_key[live[a]], base_mask + card_mask[live[a]]
            for b in range(a + 1, m - 3):
                kb, mb = ka + card_key[live[b]], ma + card_mask[live[b]]
                for c in range(b + 1, m - 2):
                    kc, mc = kb + card_key[live[c]], mb + card_mask[live[c]]
                    for d in range(c + 1, m - 1):
                        kd, md = kc + card_key[live[d]], mc + card_mask[live[d]]
                        for e in range(d + 1, m):
                            s = hand.strength_of_key(kd + card_key[live[e]], md + card_mask[live[e]], rank_offsets, rank_values, flush_values)
                            total += percentile[s]
                            boards += 1
        sums[i] = total
        counts[i] = boards
    return sums, counts


def class_percentile_means(deck: np.ndarray, percentile: np.ndarray, tables, combo_cards: np.ndarray, combo_class: np.ndarray) -> np.ndarray:
    """Exact mean percentile of each class over all its combos in ``deck`` and all boards, ``(169,)`` (NaN if absent).

    combo_cards: ``(K, 2)`` card ids of the combos to enumerate (one per suit-isomorphism class is
    enough on a full deck); combo_class: ``(K,)`` their classes.
    """
    sums, counts = _combo_percentile_sums(
        np.ascontiguousarray(combo_cards, dtype=np.int64), np.asarray(deck, dtype=np.int64), percentile,
        tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values,
    )
    class_sums = np.bincount(combo_class, weights=sums, minlength=N_CLASSES)
    class_counts = np.bincount(combo_class, weights=counts, minlength=N_CLASSES)
    with np.errstate(invalid="ignore"):
        return class_sums / class_counts
