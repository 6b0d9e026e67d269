"""Dealing: a partial Fisher–Yates shuffle driven by the counter-based words of one deal.

Draw ``i`` (0-based) picks a position uniformly in ``[i, deck_size)`` with Lemire's
multiply-shift and rejection (exactly uniform): 32-bit halves of word ``i // 2`` (low half for
even ``i``), redraws from words ``REDRAW_WORD, REDRAW_WORD + 1, …`` (probability < 2⁻²⁶ each).
"""

from types import SimpleNamespace

import numpy as np

LOW_32 = np.uint64(0xFFFFFFFF)
SHIFT_32 = np.uint64(32)
TWO_32 = np.uint64(1 << 32)
#: First word used for rejection redraws (above any regular draw's word index).
REDRAW_WORD = 32


def compile_dealing(jit, rng) -> SimpleNamespace:
    """Compile ``deal_cards`` (and its ``position_below``) with ``jit``; ``rng`` is the namespace from :func:`kernels.sampling.rng.compile_rng`."""
    child = rng.child

    @jit
    def position_below(word32, bound, deal_key, redraws):
        """Uniform position in ``[0, bound)`` from a 32-bit word; returns (position, redraws used so far)."""
        product = word32 * bound
        if (product & LOW_32) < bound:
            threshold = (TWO_32 - bound) % bound
            while (product & LOW_32) < threshold:
                product = (child(deal_key, np.uint64(REDRAW_WORD + redraws)) & LOW_32) * bound
                redraws += 1
        return np.int64(product >> SHIFT_32), redraws

    @jit
    def deal_cards(deck, base_deck, deck_size, count, deal_key):
        """Put a uniformly random ordered selection of ``count`` cards of ``base_deck`` in ``deck[0:count]``.

        deck, base_deck: uint8 card ids, ``(≥ deck_size,)``; ``deck`` is scratch, overwritten.
        """
        for i in range(deck_size):
            deck[i] = base_deck[i]
        redraws = 0
        word = np.uint64(0)
        for i in range(count):
            if i % 2 == 0:
                word = child(deal_key, np.uint64(i // 2))
                half = word & LOW_32
            else:
                half = word >> SHIFT_32
            offset, redraws = position_below(half, np.uint64(deck_size - i), deal_key, redraws)
            j = i + offset
            card = deck[j]
            deck[j] = deck[i]
            deck[i] = card

    return SimpleNamespace(deal_cards=deal_cards, position_below=position_below)
