"""Per-hand evaluation logic, written once as plain Python and compiled for the CPU and for CUDA.

A hand is summarised by two additive 64-bit numbers, so a shared board is summed once and each
player's two hole cards are added on top:

* ``key  = KEY_BASE + Σ card_key[c]``: rank-key sum in the low 32 bits and, in bits 32–47, four
  suit counters pre-loaded with 3, so bit 3 of a counter is set exactly when that suit has ≥ 5 cards;
* ``mask = Σ card_mask[c]``: the rank bit-mask of each suit, 16 bits per suit.

:func:`compile_hand_functions` compiles the functions with a given decorator: ``numba.njit`` for
the CPU (:mod:`kernels.evaluator.cpu`) and ``numba.cuda.jit(device=True)`` for CUDA
(:mod:`kernels.evaluator.gpu`), so both targets run the same logic; keep them free of Python objects.
"""

from types import SimpleNamespace

import numpy as np

from kernels.evaluator.tables import ROW_SHIFT

#: Suit counters pre-loaded with 3 (bits 32–47).
KEY_BASE = np.uint64(0x3333 << 32)
#: Bit 3 of each suit counter: set iff that suit holds 5 or more cards.
FLUSH_BITS = np.uint64(0x8888 << 32)
RANK_KEY_MASK = np.uint64(0xFFFFFFFF)
ROW_MASK = np.uint64((1 << ROW_SHIFT) - 1)
SHIFT_ROW = np.uint64(ROW_SHIFT)
FLUSH_SHIFT = np.uint64(35)
ONE, SIXTEEN, TWO_FIFTY_SIX = np.uint64(1), np.uint64(16), np.uint64(256)
SUIT_RANKS = np.uint64(0x1FFF)
SUIT_WIDTH = np.uint64(16)
#: The suit counters as a 16-bit number (``key >> 32``), their pre-load and their bit 3 at that scale.
SUIT_COUNTERS_SHIFT = np.uint64(32)
SUIT_COUNTERS_BASE = np.uint64(0x3333)
SUIT_COUNTERS_FIVE = np.uint64(0x8888)


def compile_hand_functions(jit) -> SimpleNamespace:
    """Compile the per-hand functions with ``jit``; returns them as attributes of a namespace.

    Every table index is unsigned (card ids ``uint8``, keys ``uint64``, rows ``uint64``): Numba adds
    a negative-index wraparound (a compare and a conditional add) to each lookup through a signed
    index, about a third of the evaluator's time on random 7-card hands.
    """

    @jit
    def strength_of_key(key, mask, rank_offsets, rank_values, flush_values):
        """Strength (1..7462, higher wins) of a 5-, 6- or 7-card hand from its summed ``key`` and ``mask``."""
        flush = (key & FLUSH_BITS) >> FLUSH_SHIFT  # 1, 16, 256 or 4096: one suit at most has 5+ of 7 cards
        if flush:
            suit = np.uint64(flush > ONE) + np.uint64(flush > SIXTEEN) + np.uint64(flush > TWO_FIFTY_SIX)
            return flush_values[(mask >> (suit * SUIT_WIDTH)) & SUIT_RANKS]
        rank_key = key & RANK_KEY_MASK
        return rank_values[np.uint64(rank_offsets[rank_key >> SHIFT_ROW]) + (rank_key & ROW_MASK)]

    @jit
    def strength_of_row(hands, row, card_key, card_mask, rank_offsets, rank_values, flush_values):
        """Strength of the hand ``hands[row, :]`` (5, 6 or 7 distinct ``uint8`` card ids; ``row`` a ``uint64``).

        Takes the 2-D array and a row index rather than a row view, which would cost an array
        object per call. The cards' keys are summed without ``KEY_BASE`` and the flush test shifts
        the suit counters down first, so the hot path holds no 64-bit constant in a register (on
        the CPU the loop is short of registers: 3–5 % faster so); the suit masks are summed only for
        the ~3 % of hands holding a flush.
        """
        count = hands.shape[1]
        if count == 7:  # the hot case, unrolled: about 1.7x the looped version
            key = card_key[hands[row, 0]] + card_key[hands[row, 1]] + card_key[hands[row, 2]]
            key += card_key[hands[row, 3]] + card_key[hands[row, 4]] + card_key[hands[row, 5]] + card_key[hands[row, 6]]
        else:
            key = np.uint64(0)
            for j in range(count):
                key += card_key[hands[row, j]]
        if ((key >> SUIT_COUNTERS_SHIFT) + SUIT_COUNTERS_BASE) & SUIT_COUNTERS_FIVE:
            mask = np.uint64(0)
            for j in range(count):
                mask += card_mask[hands[row, j]]
            return strength_of_key(key + KEY_BASE, mask, rank_offsets, rank_values, flush_values)
        rank_key = key & RANK_KEY_MASK
        return rank_values[np.uint64(rank_offsets[rank_key >> SHIFT_ROW]) + (rank_key & ROW_MASK)]

    return SimpleNamespace(
        strength_of_key=strength_of_key,
        strength_of_row=strength_of_row,
    )
