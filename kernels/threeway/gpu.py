"""CUDA path of the class-triple Monte Carlo: the same per-board and per-triple functions as the CPU.

One kernel deals and evaluates a batch of boards (one thread per board), a second walks them with
one thread per triple; a triple's counts are written by its thread only, so they equal the CPU's
exactly for the same seed. Runs on an NVIDIA GPU, or in Numba's CUDA simulator when
``NUMBA_ENABLE_CUDASIM=1`` is set before Numba is imported (how the tests run it).
"""

import numpy as np
from numba import cuda

from kernels.cards import ALL_COMBOS, N_CARDS
from kernels.evaluator import gpu as hand
from kernels.sampling.dealing import compile_dealing
from kernels.sampling.rng import compile_rng
from kernels.threeway.core import ORDER_CODE, combo_tables, compile_threeway

THREADS_PER_BLOCK = 128
_device = cuda.jit(device=True)
_RNG = compile_rng(_device)
_THREEWAY = compile_threeway(_device, hand.strength_of_key, _RNG, compile_dealing(_device, _RNG))
_board_strengths, _sample_triple, _child = _THREEWAY.board_strengths, _THREEWAY.sample_triple, _RNG.child


@cuda.jit
def _board_kernel(shard_key, first_board, base_deck, board_keys, board_bits, strengths, combos, card_key, card_mask,
                  rank_offsets, rank_values, flush_values):
    deck = cuda.local.array(N_CARDS, dtype=np.uint8)
    b = cuda.grid(1)
    if b < board_keys.size:
        board_keys[b] = _child(shard_key, np.uint64(first_board + b))
        board_bits[b] = _board_strengths(board_keys[b], deck, base_deck, combos, strengths[b], card_key, card_mask,
                                         rank_offsets, rank_values, flush_values)


@cuda.jit
def _triple_kernel(triples, classes, board_keys, board_bits, strengths, class_start, class_combo, combo_mask, order_code,
                   counts):
    row = cuda.grid(1)
    if row < triples.size:
        for b in range(board_keys.size):
            _sample_triple(triples[row], classes[row, 0], classes[row, 1], classes[row, 2], board_keys[b], board_bits[b],
                           strengths[b], class_start, class_combo, combo_mask, order_code, counts, row)


def _blocks(n: int) -> int:
    return max(1, (n + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK)


def simulate(counts, shard_key, first_board, n_boards, triples, classes, tables) -> None:
    """GPU twin of :func:`kernels.threeway.cpu.simulate`: adds the boards' counts to the host ``counts`` in place."""
    class_start, class_combo, combo_mask = (cuda.to_device(a) for a in combo_tables())
    board_keys = cuda.device_array(n_boards, dtype=np.uint64)
    board_bits = cuda.device_array(n_boards, dtype=np.uint64)
    strengths = cuda.device_array((n_boards, ALL_COMBOS.shape[0]), dtype=np.int32)
    evaluator = [cuda.to_device(np.ascontiguousarray(a)) for a in tables[:5]]
    _board_kernel[_blocks(n_boards), THREADS_PER_BLOCK](
        np.uint64(shard_key), first_board, cuda.to_device(np.arange(N_CARDS, dtype=np.uint8)), board_keys, board_bits,
        strengths, cuda.to_device(ALL_COMBOS), *evaluator,
    )
    device_counts = cuda.to_device(np.zeros_like(counts))
    _triple_kernel[_blocks(len(triples)), THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(triples, dtype=np.int64)), cuda.to_device(np.ascontiguousarray(classes, dtype=np.int64)),
        board_keys, board_bits, strengths, class_start, class_combo, combo_mask, cuda.to_device(ORDER_CODE), device_counts,
    )
    counts += device_counts.copy_to_host()
