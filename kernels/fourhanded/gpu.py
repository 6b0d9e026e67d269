"""CUDA path of the exact four-handed counts: one warp-sized thread block per board, the walk's vertex loops in
parallel.

The same counting as :mod:`kernels.fourhanded.core` (the CPU walk), with the same formulas
(:func:`~kernels.fourhanded.core.compile_matching_formulas`), laid out for a GPU:

* the block's 32 threads rank the board's live combos and bitonic-sort them in shared memory
  (:func:`kernels.block_ranking.rank_board`, shared with the heads-up and three-handed kernels);
* the walk over the strength groups stays in order (each hero's graph is the one of the combos weaker than it), but
  every step's loop over the 52 cards is split over the threads: thread ``t`` owns cards ``t`` and ``t + 32``
  (neighbour masks, degree and ``s_u`` of three graphs in shared memory: the weaker combos G, the tie group T and
  G ∪ T), and the per-card sums of a count (Σ d², Σ d³, Σ d·s, triangles at the hero's cards) are packed two to an
  int64 and summed over the block through shared memory, one barrier pair a count;
* a block is one warp, so ``syncthreads`` is the warp's barrier (Numba's CUDA simulator has no warp shuffles or
  ``syncwarp``, and the kernel is tested there against the CPU counts);
* thread 0 adds each hero's counts to the block's tally in shared memory (4 × 169 int64, no atomics: one writer),
  added to the global tally once per block, after its last board.

Shared memory per block 24,800 bytes (keys 16,384, three graphs 2,496, tally 5,408, sums 512). Tested in Numba's
CUDA simulator against the CPU counts and built for sm_80/sm_90 in the tests; never run on a real GPU.
"""

import numpy as np
from numba import cuda

from kernels.block_ranking import count_below, rank_board
from kernels.evaluator import gpu as hand
from kernels.fourhanded.core import N_CARDS, compile_matching_formulas
from kernels.headsup.core import COMBO_BITS, COMBO_FIELD, N_CLASSES

#: One warp: the block's barrier is the warp's.
THREADS_PER_BLOCK = 32
#: Keys sorted per board: a power of two above 1,326 (every combo), padded with the sentinel.
SORT_SIZE = 2048
#: Graphs kept per block: the combos weaker than the group, the group, and both.
WEAKER, GROUP, BOTH = 0, 1, 2
#: Outcomes counted per hero: the three opponents weaker, or 1, 2, 3 of them tied with it.
OUTCOMES = 4
#: Low field of a packed pair of sums (each total is below 2^32: at most 52 cards of degree ≤ 50).
LOW = np.int64(0xFFFFFFFF)

_formulas = compile_matching_formulas(cuda.jit(device=True))
_matchings3, _matchings2 = _formulas.matchings3, _formulas.matchings2


@cuda.jit(device=True)
def _bits(mask):
    return np.int64(cuda.popc(mask))


@cuda.jit(device=True)
def _has(mask, v):
    return np.int64((mask >> np.uint64(v)) & np.uint64(1))


@cuda.jit(device=True)
def _block_sums(sums, tid, first, second, third, fourth):
    """Σ over the block's threads of each of four values (each total < 2^32), returned to every thread."""
    sums[0, tid] = (np.int64(first) << np.int64(32)) + np.int64(second)
    sums[1, tid] = (np.int64(third) << np.int64(32)) + np.int64(fourth)
    cuda.syncthreads()
    high = np.int64(0)
    low = np.int64(0)
    for j in range(THREADS_PER_BLOCK):
        high += sums[0, j]
        low += sums[1, j]
    cuda.syncthreads()  # every thread has read before the next sum writes
    return high >> np.int64(32), high & LOW, low >> np.int64(32), low & LOW


@cuda.jit(device=True)
def _clear(nbr, deg, s, g, tid):
    for v in range(tid, N_CARDS, THREADS_PER_BLOCK):
        nbr[g, v], deg[g, v], s[g, v] = 0, 0, 0


@cuda.jit(device=True)
def _copy(nbr, deg, s, source, target, tid):
    for v in range(tid, N_CARDS, THREADS_PER_BLOCK):
        nbr[target, v], deg[target, v], s[target, v] = nbr[source, v], deg[source, v], s[source, v]


@cuda.jit(device=True)
def _add_edge(nbr, deg, s, g, x, y, tid):
    """Add edge ``xy`` (not yet in graph ``g``); returns the triangles it closes, to every thread."""
    mask_x, mask_y = nbr[g, x], nbr[g, y]
    degree_x, degree_y = deg[g, x], deg[g, y]
    for v in range(tid, N_CARDS, THREADS_PER_BLOCK):  # x's and y's neighbours: one more neighbour degree
        gained = _has(mask_x, v) + _has(mask_y, v)
        if gained:
            s[g, v] += gained
    cuda.syncthreads()
    if tid == 0:
        s[g, x] += degree_y + 1
        s[g, y] += degree_x + 1
        deg[g, x] = degree_x + 1
        deg[g, y] = degree_y + 1
        nbr[g, x] = mask_x | (np.uint64(1) << np.uint64(y))
        nbr[g, y] = mask_y | (np.uint64(1) << np.uint64(x))
    cuda.syncthreads()
    return _bits(mask_x & mask_y)


@cuda.jit(device=True)
def _matchings3_without(nbr, deg, s, sums, g, edges, triangles, a, b, tid):
    """3-matchings of graph ``g`` (``edges`` edges, ``triangles`` triangles) less cards ``a`` and ``b``: as
    :func:`kernels.fourhanded.core` ``matchings3_without``, the card loop split over the block."""
    mask_a, mask_b = nbr[g, a], nbr[g, b]
    ab = _has(mask_a, b)
    m = edges - deg[g, a] - deg[g, b] + ab
    if m < 3:  # the same for every thread: no barrier is skipped by some only
        return np.int64(0)
    squares = 0
    cubes = 0
    cross = 0
    at_ab = 0  # twice the triangles through a, plus twice those through b
    for u in range(tid, N_CARDS, THREADS_PER_BLOCK):
        mask_u = nbr[g, u]
        hit_a, hit_b = _has(mask_a, u), _has(mask_b, u)
        if hit_a:
            at_ab += _bits(mask_a & mask_u)
        if hit_b:
            at_ab += _bits(mask_b & mask_u)
        if u == a or u == b:
            continue
        d = deg[g, u] - hit_a - hit_b
        if d == 0:
            continue
        with_a, with_b = mask_u & mask_a, mask_u & mask_b
        su = (s[g, u] - hit_a * deg[g, a] - hit_b * deg[g, b] - (_bits(with_a) - _has(with_a, b))
              - (_bits(with_b) - _has(with_b, a)))
        squares += d * d
        cubes += d * d * d
        cross += d * su
    cubes, squares, cross, at_ab = _block_sums(sums, tid, cubes, squares, cross, at_ab)
    tau = triangles - at_ab // 2 + ab * _bits(mask_a & mask_b)
    return _matchings3(m, squares, cubes, cross, tau)


@cuda.jit(device=True)
def _matchings2_without(nbr, deg, sums, g, edges, a, b, c, d, tid):
    """2-matchings of graph ``g`` less the four distinct cards ``a, b, c, d``, the card loop split over the block."""
    one = np.uint64(1)
    q = (one << np.uint64(a)) | (one << np.uint64(b)) | (one << np.uint64(c)) | (one << np.uint64(d))
    inside = (_bits(nbr[g, a] & q) + _bits(nbr[g, b] & q) + _bits(nbr[g, c] & q) + _bits(nbr[g, d] & q)) // 2
    m = edges - deg[g, a] - deg[g, b] - deg[g, c] - deg[g, d] + inside
    if m < 2:
        return np.int64(0)
    squares = 0
    for u in range(tid, N_CARDS, THREADS_PER_BLOCK):
        if not (q >> np.uint64(u)) & one:
            k = deg[g, u] - _bits(nbr[g, u] & q)
            squares += k * k
    squares = _block_sums(sums, tid, 0, squares, 0, 0)[1]
    return _matchings2(m, squares)


@cuda.jit
def _tally_kernel(boards, weights, combos, combo_class, counts, card_key, card_mask, rank_offsets, rank_values,
                  flush_values):
    keys = cuda.shared.array(SORT_SIZE, dtype=np.int64)
    nbr = cuda.shared.array((3, N_CARDS), dtype=np.uint64)
    deg = cuda.shared.array((3, N_CARDS), dtype=np.int32)
    s = cuda.shared.array((3, N_CARDS), dtype=np.int32)
    sums = cuda.shared.array((2, THREADS_PER_BLOCK), dtype=np.int64)
    tally = cuda.shared.array((OUTCOMES, N_CLASSES), dtype=np.int64)
    tid = cuda.threadIdx.x
    for j in range(tid, OUTCOMES * N_CLASSES, THREADS_PER_BLOCK):
        tally[j // N_CLASSES, j % N_CLASSES] = 0
    board = cuda.blockIdx.x
    while board < boards.shape[0]:  # the same for every thread of the block: barriers are safe
        weight = weights[board]
        _clear(nbr, deg, s, WEAKER, tid)
        count = rank_board(  # the live combos ranked and sorted in `keys` (ends with a barrier)
            boards[board], combos, keys, tid, THREADS_PER_BLOCK, card_key, card_mask, rank_offsets, rank_values,
            flush_values,
        )
        weaker_edges = 0
        weaker_triangles = 0
        start = 0
        while start < count:
            strength = keys[start] >> COMBO_BITS
            end = count_below(keys, 0, SORT_SIZE, (strength + 1) << COMBO_BITS)
            if end - start == 1:  # no tie partner: all three opponents weaker, or a loss
                combo = keys[start] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                wins = _matchings3_without(nbr, deg, s, sums, WEAKER, weaker_edges, weaker_triangles, a, b, tid)
                if tid == 0:
                    tally[0, combo_class[combo]] += weight * wins
                weaker_triangles += _add_edge(nbr, deg, s, WEAKER, a, b, tid)
                weaker_edges += 1
                start = end
                continue
            _clear(nbr, deg, s, GROUP, tid)
            _copy(nbr, deg, s, WEAKER, BOTH, tid)
            cuda.syncthreads()
            group_edges, group_triangles = 0, 0
            both_edges, both_triangles = weaker_edges, weaker_triangles
            for i in range(start, end):
                combo = keys[i] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                group_triangles += _add_edge(nbr, deg, s, GROUP, a, b, tid)
                group_edges += 1
                both_triangles += _add_edge(nbr, deg, s, BOTH, a, b, tid)
                both_edges += 1
            for i in range(start, end):
                combo = keys[i] & COMBO_FIELD
                a, b = combos[combo, 0], combos[combo, 1]
                c0 = _matchings3_without(nbr, deg, s, sums, WEAKER, weaker_edges, weaker_triangles, a, b, tid)
                c3 = _matchings3_without(nbr, deg, s, sums, GROUP, group_edges, group_triangles, a, b, tid)
                everything = _matchings3_without(nbr, deg, s, sums, BOTH, both_edges, both_triangles, a, b, tid)
                c1 = np.int64(0)
                if weaker_edges >= 2:
                    for j in range(start, end):
                        other = keys[j] & COMBO_FIELD
                        c, d = combos[other, 0], combos[other, 1]
                        if c != a and c != b and d != a and d != b:
                            c1 += _matchings2_without(nbr, deg, sums, WEAKER, weaker_edges, a, b, c, d, tid)
                if tid == 0:
                    hero = combo_class[combo]
                    tally[0, hero] += weight * c0
                    tally[1, hero] += weight * c1
                    tally[2, hero] += weight * (everything - c0 - c1 - c3)
                    tally[3, hero] += weight * c3
            _copy(nbr, deg, s, BOTH, WEAKER, tid)
            cuda.syncthreads()
            weaker_edges, weaker_triangles = both_edges, both_triangles
            start = end
        cuda.syncthreads()  # every thread is done with the keys and graphs before the next board
        board += cuda.gridDim.x
    for j in range(tid, OUTCOMES * N_CLASSES, THREADS_PER_BLOCK):  # once per block
        value = tally[j // N_CLASSES, j % N_CLASSES]
        if value:
            cuda.atomic.add(counts, (j // N_CLASSES, j % N_CLASSES), value)


def tally_boards(boards, weights, combos, combo_class, tables, blocks: int = 4096) -> tuple:
    """GPU twin of :func:`kernels.fourhanded.cpu.tally_boards` (same inputs, the same four int64 ``(169,)``
    outputs)."""
    if len(combos) >= SORT_SIZE:
        raise ValueError(f"fewer than {SORT_SIZE} combos per board, got {len(combos)}")
    device = hand.device_tables(tables)
    counts = cuda.to_device(np.zeros((OUTCOMES, N_CLASSES), dtype=np.int64))
    _tally_kernel[max(1, min(blocks, len(boards))), THREADS_PER_BLOCK](
        cuda.to_device(np.ascontiguousarray(boards, dtype=np.int64)),
        cuda.to_device(np.asarray(weights, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combos, dtype=np.int64)),
        cuda.to_device(np.ascontiguousarray(combo_class, dtype=np.int64)),
        counts,
        device.card_key, device.card_mask, device.rank_offsets, device.rank_values, device.flush_values,
    )
    return tuple(counts.copy_to_host())
