"""CPU path: the per-deal logic compiled with Numba, blocks of deals spread over threads with ``prange``.

Each block accumulates in private arrays that stay in cache: the mask histogram (uint16: a block
adds at most ``block_deals · seats`` < 65,536 to a cell), its Σ q twin (int32: at most
1023 · 65,535) and the slots (int64), then adds them to its group ``b % GROUPS`` of the tally. The blocks of one parallel pass are
consecutive and at most ``GROUPS`` many, so no two threads ever write the same group.
"""

import numpy as np
from numba import njit, prange

from kernels.cards import N_CLASSES
from kernels.evaluator import cpu as hand
from kernels.multiway.dealing import compile_dealing
from kernels.multiway.layout import GROUPS, MASK_ENTRIES, MAX_SEATS, Q_MASK_BASE, SLOT_BASE, SLOT_ENTRIES
from kernels.multiway.rng import compile_rng
from kernels.multiway.tally import compile_deal_functions

# The per-deal functions never allocate: compiled without reference counting (``_nrt=False``, so
# calls from the block loop do not incref/decref every array argument) and inlined into the block
# loop; identical counts, about 1.4x the deals/s of a non-inlined build (same-process A/B).
_jit = njit(_nrt=False, inline="always")
#: Largest count a block may add to one uint16 histogram cell.
_HISTOGRAM_LIMIT = 65535


@_jit
def _add(accumulators, group, hand_class, entry, value):
    """Add to a block's private (histogram, Σ q histogram, slots); ``group`` is implied by the block."""
    if entry < Q_MASK_BASE:
        accumulators[0][np.uint64(hand_class * MASK_ENTRIES + entry)] += np.uint16(value)
    elif entry < SLOT_BASE:
        accumulators[1][np.uint64(hand_class * MASK_ENTRIES + entry - Q_MASK_BASE)] += np.int32(value)
    else:
        accumulators[2][np.uint64(hand_class * SLOT_ENTRIES + entry - SLOT_BASE)] += value


_RNG = compile_rng(_jit)
_child = _RNG.child
_simulate_deal = compile_deal_functions(_jit, hand.strength_of_key, compile_dealing(_jit, _RNG), _add).simulate_deal


@njit(parallel=True)
def _simulate_pass(
    tally, shard_key, first_block, n_blocks, block_deals, base_deck, deck_size, seats,
    card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class,
):
    for i in prange(n_blocks):
        block = first_block + i
        group = block % GROUPS
        key = _child(shard_key, np.uint64(block))
        deck = np.empty(deck_size, dtype=np.int8)
        strengths = np.empty(2 * MAX_SEATS, dtype=np.int32)
        accumulators = (
            np.zeros(N_CLASSES * MASK_ENTRIES, dtype=np.uint16),
            np.zeros(N_CLASSES * MASK_ENTRIES, dtype=np.int32),
            np.zeros(N_CLASSES * SLOT_ENTRIES, dtype=np.int64),
        )
        for deal in range(block_deals):
            _simulate_deal(
                _child(key, np.uint64(deal)), deck, base_deck, deck_size, seats, strengths,
                card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class, accumulators, group,
            )
        histogram, q_histogram, slots = accumulators
        for c in range(N_CLASSES):
            for e in range(MASK_ENTRIES):
                tally[group, c, e] += histogram[c * MASK_ENTRIES + e]
                tally[group, c, Q_MASK_BASE + e] += q_histogram[c * MASK_ENTRIES + e]
            for e in range(SLOT_ENTRIES):
                tally[group, c, SLOT_BASE + e] += slots[c * SLOT_ENTRIES + e]


def simulate(tally, shard_key, first_block, n_blocks, block_deals, base_deck, seats, tables, percentile, pair_class) -> None:
    """Add blocks ``first_block .. first_block + n_blocks - 1`` of a shard to ``tally`` (in place).

    tally: ``TALLY_SHAPE`` int64; shard_key: :func:`kernels.multiway.rng.shard_key`;
    base_deck: int8 card ids dealt from; seats: hands per deal (2..10), with
    ``block_deals · seats ≤ 65,535``; tables: evaluator tables; percentile:
    :func:`kernels.multiway.percentile.percentile_table`; pair_class:
    :func:`kernels.multiway.layout.pair_class_table`.
    """
    if block_deals * seats > _HISTOGRAM_LIMIT:
        raise ValueError(f"block_deals · seats = {block_deals * seats} overflows the per-block histogram")
    base_deck = np.ascontiguousarray(base_deck, dtype=np.int8)
    for start in range(first_block, first_block + n_blocks, GROUPS):
        _simulate_pass(
            tally, np.uint64(shard_key), start, min(GROUPS, first_block + n_blocks - start), block_deals,
            base_deck, base_deck.size, seats, tables.card_key, tables.card_mask, tables.rank_offsets,
            tables.rank_values, tables.flush_values, percentile, pair_class,
        )
