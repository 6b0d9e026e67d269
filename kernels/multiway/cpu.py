"""CPU path: the per-deal logic compiled with Numba, blocks of deals spread over threads with ``prange``.

Each block accumulates in private arrays that stay in cache: per cell one uint64 holding the seat
count in its low 16 bits (a block adds at most ``block_deals · seats`` < 65,536) and Σ q above
them (at most 1023 · 65,535 < 2⁴⁸), so a seat is one add; and Σ q² per class (int64). Then it adds
them to its group ``b % GROUPS`` of the tally. The blocks of
one parallel pass are consecutive and at most ``GROUPS`` many, so no two threads ever write the
same group.
"""

import numpy as np
from numba import njit, prange

from kernels.cards import N_CLASSES
from kernels.evaluator import cpu as hand
from kernels.sampling.dealing import compile_dealing
from kernels.multiway.layout import CELLS, FIRST_SEAT_BASE, GROUPS, MAX_SEATS, Q_BASE, QQ_ENTRY
from kernels.sampling.rng import compile_rng
from kernels.multiway.tally import compile_deal_functions

# The per-deal functions never allocate: compiled without reference counting (``_nrt=False``, so
# calls from the block loop do not incref/decref every array argument) and inlined into the block
# loop; identical counts, about 1.4x the deals/s of a non-inlined build (same-process A/B).
_jit = njit(_nrt=False, inline="always")
#: A block's cell holds its seat count in the low bits and Σ q above them.
_COUNT_BITS = np.uint64(16)
_CELL_LIMIT = (1 << 16) - 1


@_jit
def _add_seat(accumulators, group, hand_class, cell, q, first):
    """Add a seat to a block's private (cells, Σ q², first-seat cells); ``group`` is implied by the block."""
    accumulators[0][np.uint64(hand_class * CELLS + cell)] += (np.uint64(q) << _COUNT_BITS) + np.uint64(1)
    accumulators[1][np.uint64(hand_class)] += q * q
    if first:
        accumulators[2][np.uint64(hand_class * CELLS + cell)] += 1


_RNG = compile_rng(_jit)
_child = _RNG.child
_simulate_deal = compile_deal_functions(_jit, hand.strength_of_key, compile_dealing(_jit, _RNG), _add_seat).simulate_deal


@njit(parallel=True, cache=True)
def _simulate_pass(
    tally, shard_key, first_block, n_blocks, block_deals, base_deck, deck_size, seats,
    card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class,
):
    for i in prange(n_blocks):
        block = first_block + i
        group = block % GROUPS
        key = _child(shard_key, np.uint64(block))
        deck = np.empty(deck_size, dtype=np.uint8)
        strengths = np.empty(MAX_SEATS, dtype=np.int32)
        accumulators = (
            np.zeros(N_CLASSES * CELLS, dtype=np.uint64), np.zeros(N_CLASSES, dtype=np.int64),
            np.zeros(N_CLASSES * CELLS, dtype=np.int64),
        )
        for deal in range(block_deals):
            _simulate_deal(
                _child(key, np.uint64(deal)), deck, base_deck, deck_size, seats, strengths,
                card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class, accumulators, group,
            )
        cells, q_squares, first_seats = accumulators
        for c in range(N_CLASSES):
            for e in range(CELLS):
                tally[group, c, e] += np.int64(cells[c * CELLS + e] & np.uint64(_CELL_LIMIT))
                tally[group, c, Q_BASE + e] += np.int64(cells[c * CELLS + e] >> _COUNT_BITS)
                tally[group, c, FIRST_SEAT_BASE + e] += first_seats[c * CELLS + e]
            tally[group, c, QQ_ENTRY] += q_squares[c]


def simulate(tally, shard_key, first_block, n_blocks, block_deals, base_deck, seats, tables, percentile, pair_class) -> None:
    """Add blocks ``first_block .. first_block + n_blocks - 1`` of a shard to ``tally`` (in place).

    tally: ``TALLY_SHAPE`` int64; shard_key: :func:`kernels.sampling.rng.shard_key`;
    base_deck: uint8 card ids dealt from; seats: hands per deal (2..10), with
    ``block_deals · seats ≤ 65,535``; tables: evaluator tables; percentile (non-negative int32):
    :func:`kernels.multiway.percentile.percentile_table`; pair_class:
    :func:`kernels.multiway.layout.pair_class_table`.
    """
    if block_deals * seats > _CELL_LIMIT:
        raise ValueError(f"block_deals · seats = {block_deals * seats} overflows the per-block cell counts")
    base_deck = np.ascontiguousarray(base_deck, dtype=np.uint8)
    for start in range(first_block, first_block + n_blocks, GROUPS):
        _simulate_pass(
            tally, np.uint64(shard_key), start, min(GROUPS, first_block + n_blocks - start), block_deals,
            base_deck, base_deck.size, seats, tables.card_key, tables.card_mask, tables.rank_offsets,
            tables.rank_values, tables.flush_values, percentile, pair_class,
        )
