"""CUDA path of the flop hit counts: :func:`class_hit_counts`, the twin of :func:`kernels.flop.categories.class_hit_counts`.

The per-hand logic is :mod:`kernels.flop.core`'s, compiled as CUDA device functions with the GPU evaluator, so each
flop is categorised by the same source as on the CPU. Layout: block row ``y`` is a class (its representative combo),
and the threads of row ``y`` take its flops one each (``deal_flop`` deals flop ``index`` from its number; a thread
strides on by the row's width when the grid is narrower than the flops). Each block adds its counts to 14 + 7 int32
tallies in shared memory (atomic adds), then to the global ``(rows, 14)`` and ``(rows, 7)`` int64 tallies once, after
its last flop. Per thread: a 3-card local board and no other scratch; global memory holds the representatives, the
evaluator tables (0.59 MB) and the two tallies.

Tested in Numba's CUDA simulator against the CPU counts and built for sm_80/sm_90 in the tests; never run on a
real GPU.
"""

import numpy as np
from numba import cuda

from kernels.evaluator import gpu as hand
from kernels.flop.core import FLOPS_PER_HAND, N_DRAWS, N_MADE, compile_category_functions, counted_hands

THREADS_PER_BLOCK = 256  # ≥ 14: one thread per tally clears and publishes it
_CATEGORIES = compile_category_functions(cuda.jit(device=True), hand)
_made_category, _draw_mask, _deal_flop = _CATEGORIES.made_category, _CATEGORIES.draw_mask, _CATEGORIES.deal_flop


@cuda.jit
def _hits_kernel(representatives, start, stop, made, draws, card_key, card_mask, rank_offsets, rank_values,
                 flush_values, category_floor):
    block_made = cuda.shared.array(N_MADE, dtype=np.int32)
    block_draws = cuda.shared.array(N_DRAWS, dtype=np.int32)
    board = cuda.local.array(3, dtype=np.int64)
    tid = cuda.threadIdx.x
    row = cuda.blockIdx.y
    if tid < N_MADE:
        block_made[tid] = 0
    if tid < N_DRAWS:
        block_draws[tid] = 0
    cuda.syncthreads()
    first, second = representatives[row, 0], representatives[row, 1]
    index = start + cuda.blockIdx.x * THREADS_PER_BLOCK + tid
    while index < stop:
        _deal_flop(index, first, second, board)
        category = _made_category(first, second, board, 3, card_key, card_mask, rank_offsets, rank_values,
                                  flush_values, category_floor)
        cuda.atomic.add(block_made, category, 1)
        drawing = _draw_mask(first, second, board, 3)
        for d in range(N_DRAWS):
            if (drawing >> d) & 1:
                cuda.atomic.add(block_draws, d, 1)
        index += cuda.gridDim.x * THREADS_PER_BLOCK
    cuda.syncthreads()
    if tid < N_MADE and block_made[tid]:
        cuda.atomic.add(made, (row, tid), block_made[tid])
    if tid < N_DRAWS and block_draws[tid]:
        cuda.atomic.add(draws, (row, tid), block_draws[tid])


def class_hit_counts(tables, classes=None, flops=(0, FLOPS_PER_HAND), blocks: int | None = None):
    """GPU twin of :func:`kernels.flop.categories.class_hit_counts` (same inputs, same ``(made (k, 14), draws (k, 7))``
    int64 outputs). ``blocks``: blocks per class row (default: enough for one thread per flop)."""
    representatives, start, stop = counted_hands(classes, flops)
    made = np.zeros((len(representatives), N_MADE), dtype=np.int64)
    draws = np.zeros((len(representatives), N_DRAWS), dtype=np.int64)
    if len(representatives) == 0 or stop == start:
        return made, draws
    width = -(-(stop - start) // THREADS_PER_BLOCK)
    device, made_device, draws_device = hand.device_tables(tables), cuda.to_device(made), cuda.to_device(draws)
    _hits_kernel[(width if blocks is None else max(1, min(blocks, width)), len(representatives)), THREADS_PER_BLOCK](
        cuda.to_device(representatives), start, stop, made_device, draws_device,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
        device.category_floor,
    )
    return made_device.copy_to_host(), draws_device.copy_to_host()
