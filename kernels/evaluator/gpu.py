"""CUDA path of the evaluator: the same per-hand functions compiled as Numba CUDA device functions.

Runs on an NVIDIA GPU, or in Numba's CUDA simulator when ``NUMBA_ENABLE_CUDASIM=1`` is set before
Numba is imported (how the tests run it on machines without a GPU).
"""

import numpy as np
from numba import cuda

from kernels.evaluator.core import compile_hand_functions

_HAND = compile_hand_functions(cuda.jit(device=True))
strength_of_key = _HAND.strength_of_key
strength_of_row = _HAND.strength_of_row

THREADS_PER_BLOCK = 256


@cuda.jit
def _evaluate_rows_kernel(hands, out, card_key, card_mask, rank_offsets, rank_values, flush_values):
    i = cuda.grid(1)
    while i < hands.shape[0]:
        out[i] = strength_of_row(hands, np.uint64(i), card_key, card_mask, rank_offsets, rank_values, flush_values)
        i += cuda.gridsize(1)


def device_tables(tables):
    """Copy the evaluator tables to the device once; returns the same fields as device arrays."""
    return type(tables)(*(cuda.to_device(np.ascontiguousarray(array)) for array in tables))


def evaluate(hands: np.ndarray, tables, blocks: int = 1024) -> np.ndarray:
    """GPU twin of :func:`kernels.evaluator.cpu.evaluate` (same inputs, same ``(N,)`` uint16 output)."""
    hands_device = cuda.to_device(np.ascontiguousarray(hands, dtype=np.uint8))
    out = cuda.device_array(hands_device.shape[0], dtype=np.uint16)
    on_device = device_tables(tables)
    grid = max(1, min(blocks, (hands_device.shape[0] + THREADS_PER_BLOCK - 1) // THREADS_PER_BLOCK))
    _evaluate_rows_kernel[grid, THREADS_PER_BLOCK](
        hands_device,
        out,
        on_device.card_key,
        on_device.card_mask,
        on_device.rank_offsets,
        on_device.rank_values,
        on_device.flush_values,
    )
    return out.copy_to_host()
