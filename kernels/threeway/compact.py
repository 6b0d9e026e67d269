"""The 3-way table in few bytes: each row's 13 ordering counts (out of :data:`SCALE`) as a prediction from the
heads-up results plus a coarse residual (``threeway.bin.gz`` version 3, docs/data-format.md).

1. **Pairwise counts** ``pc``: the provisional model of :mod:`kernels.threeway.pairwise` (from the exact heads-up
   win / tie / loss), quantised to counts out of :data:`SCALE` (:func:`quantise_orderings`).
2. **Model counts** ``mc``: ``pc`` plus three integer corrections per ordering, one for each pair of seats of the
   sorted triple (a, b), (a, c), (b, c), looked up by the pair's two classes (:func:`fit_corrections`: least
   squares, so the corrections carry what the triples of a pair share: card removal, a shared board), clipped at
   0 and rescaled to :data:`SCALE` by largest remainder in integers (:func:`model_counts`).
3. **Residual** ``e`` in steps of ``step`` counts (:func:`encode_residual`: the least squared error reachable by
   single steps): each ordering but the one with the largest model count is ``max(mc + step · e, 0)``; that one,
   the anchor, takes the rest of :data:`SCALE` (:func:`decode`).

Everything after the pairwise probabilities is integer arithmetic, so ``templates/assets/js/engines/pushfold/
model.js`` (its twin) rebuilds the same counts to the last unit. Rows are stored in :func:`row_order`: triples
whose classes share no rank first (the model fits those best, so their residuals are mostly zero).
"""

from __future__ import annotations

import numpy as np

from kernels.cards import N_CLASSES
from kernels.threeway.core import N_ORDERINGS
from kernels.threeway.pairwise import THREE_WAY_TIE, pairwise_orderings

#: A row's counts add up to this (a probability is count / SCALE).
SCALE = 255
#: Unordered class pairs x ≤ y (the corrections' rows), indexed by :func:`pair_index`.
N_PAIRS = N_CLASSES * (N_CLASSES + 1) // 2
#: The seats of each correction of a sorted triple (a, b, c).
CORRECTION_SEATS = ((0, 1), (0, 2), (1, 2))
#: A step is taken only if it lowers the row's squared count error by more than GAIN · step² (fewer nonzero
#: residuals, a smaller file, for a slightly larger error; measured in docs/data-format.md).
GAIN = 0.25
#: Rounds of backfitting in :func:`fit_corrections` (the fit's rms stops moving after about four).
FIT_ROUNDS = 6


def quantise_orderings(orderings: np.ndarray, scale: int = SCALE) -> np.ndarray:
    """``(N, 13)`` uint8: each row of probabilities as integer counts summing exactly to ``scale``
    (largest-remainder rounding: every count is floor or ceil of ``p · scale``, so off by < 1 unit; equal
    remainders: the lower ordering first); all-zero rows stay zero."""
    scaled = np.asarray(orderings, dtype=np.float64) * scale
    low = np.floor(scaled)
    short = np.where(scaled.sum(axis=1) > 0, scale - low.sum(axis=1), 0).round().astype(np.int64)
    order = np.argsort(-(scaled - low), axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(scaled.shape[1])[None, :].repeat(len(scaled), axis=0), axis=1)
    return (low + (rank < short[:, None])).astype(np.uint8)


def heads_up_duel(win: np.ndarray, tie: np.ndarray, pairs: np.ndarray, boards: int) -> np.ndarray:
    """``(K, K, 3)`` P(first class wins, ties, loses) heads-up from matchups.bin's counts, divided as
    pushfold/model.js divides them (so the pairwise counts agree to the bit)."""
    total = np.asarray(pairs, dtype=np.int64) * boards
    win, tie = np.asarray(win, dtype=np.int64), np.asarray(tie, dtype=np.int64)
    return np.stack([win / total, tie / total, (total - win - tie) / total], axis=-1)


def pairwise_counts(duel: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``(T, 13)`` int64: the pairwise model's probabilities of the triples ``classes`` ((T, 3), sorted) as counts
    out of :data:`SCALE`."""
    return quantise_orderings(pairwise_orderings(duel, classes)).astype(np.int64)


def pair_index(x, y):
    """Row of the unordered class pair ``x ≤ y`` among the :data:`N_PAIRS` (ints or arrays)."""
    x, y = np.asarray(x, dtype=np.int64), np.asarray(y, dtype=np.int64)
    return y * (y + 1) // 2 + x


def _pair_keys(classes: np.ndarray) -> list[np.ndarray]:
    return [pair_index(classes[:, s], classes[:, t]) for s, t in CORRECTION_SEATS]


def fit_corrections(target: np.ndarray, pairwise: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``(3, 13, N_PAIRS)`` int8 corrections in counts: ``target − pairwise`` ((T, 13) counts, the rows to fit) as a
    sum of one term per seat pair of :data:`CORRECTION_SEATS`, fitted by least squares (backfitting: each term the
    mean of what the other two leave over the triples of its pair), rounded and clipped to int8."""
    keys = _pair_keys(classes)
    left = np.asarray(target, dtype=np.float64) - pairwise
    terms = np.zeros((3, N_PAIRS, N_ORDERINGS))
    sizes = [np.maximum(np.bincount(key, minlength=N_PAIRS), 1) for key in keys]
    for _ in range(FIT_ROUNDS):
        for s, key in enumerate(keys):
            rest = left - sum(terms[t][keys[t]] for t in range(3) if t != s)
            terms[s] = np.stack([np.bincount(key, rest[:, o], minlength=N_PAIRS) for o in range(N_ORDERINGS)], axis=1) / sizes[s][:, None]
    return np.clip(np.round(terms), -128, 127).astype(np.int8).transpose(0, 2, 1).copy()


def model_counts(pairwise: np.ndarray, corrections: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """``(T, 13)`` int64 counts summing to :data:`SCALE`: ``pairwise`` plus the three corrections of each row,
    clipped at 0, rescaled by largest remainder in integers (equal remainders: the lower ordering first); a row
    that clips to nothing is a three-way tie."""
    keys = _pair_keys(classes)
    value = np.asarray(pairwise, dtype=np.int64).copy()
    for s in range(3):
        value += corrections[s].T[keys[s]].astype(np.int64)
    value = np.maximum(value, 0)
    total = value.sum(axis=1)
    safe = np.maximum(total, 1)[:, None]
    low = SCALE * value // safe
    remainder = SCALE * value - low * safe
    short = SCALE - low.sum(axis=1)
    order = np.argsort(-remainder, axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(N_ORDERINGS)[None, :].repeat(len(value), axis=0), axis=1)
    counts = low + (rank < short[:, None])
    counts[total == 0] = 0
    counts[total == 0, THREE_WAY_TIE] = SCALE
    return counts


def anchor(model: np.ndarray) -> np.ndarray:
    """``(T,)``: each row's ordering with the largest model count (the lowest on equal counts), which takes what
    the others leave."""
    return np.argmax(model, axis=1)


def decode(model: np.ndarray, residual: np.ndarray, step: int) -> np.ndarray:
    """``(T, 13)`` int64 counts: ``max(model + step · residual, 0)`` for every ordering but the :func:`anchor`,
    which takes ``SCALE`` minus the others. Raises ValueError where the file could not have been written so (an
    anchor residual not 0, a count above SCALE or an anchor below 0)."""
    rows = np.arange(len(model))
    at = anchor(model)
    if residual[rows, at].any():
        raise ValueError("a residual where there is none")
    counts = np.maximum(np.asarray(model, dtype=np.int64) + step * np.asarray(residual, dtype=np.int64), 0)
    counts[rows, at] = 0
    counts[rows, at] = SCALE - counts.sum(axis=1)
    if (counts > SCALE).any() or (counts < 0).any():
        raise ValueError("counts outside 0..scale")
    return counts


def encode_residual(target: np.ndarray, model: np.ndarray, step: int, rounds: int = 1024) -> np.ndarray:
    """``(T, 13)`` int8 residuals such that :func:`decode` gives counts near ``target`` ((T, 13) counts out of SCALE,
    floats): each ordering but the anchor starts at the nearest reachable count, then single steps are taken, one
    per row and round, the best first: while the anchor's count is below 0, then while a step lowers the row's sum
    of squared count errors (the anchor's included) by more than GAIN · step² without taking the anchor below 0.
    At the end, each count whose step is not cut short by 0 or SCALE has an error within (1 + GAIN / 2) · step of
    the anchor's (measured bounds: docs/data-format.md)."""
    target = np.asarray(target, dtype=np.float64)
    model = np.asarray(model, dtype=np.int64)
    n = len(model)
    rows = np.arange(n)
    at = anchor(model)
    others = np.ones(model.shape, dtype=bool)
    others[rows, at] = False
    floor = -((model + step - 1) // step)  # the least residual that matters: it already reaches count 0
    ceiling = (SCALE - model) // step
    residual = np.clip(np.round((target - model) / step), floor, ceiling).astype(np.int64)
    active = rows
    for _ in range(rounds):
        r, m, t, o = residual[active], model[active], target[active], others[active]
        count = np.where(o, np.maximum(m + step * r, 0), 0)
        error = count - t
        rest = SCALE - count.sum(axis=1)
        anchor_error = (rest - t[np.arange(len(active)), at[active]])[:, None]
        best_cost, best_move = np.zeros(len(active)), np.zeros((len(active), 2), dtype=np.int64)
        short = rest < 0  # the anchor below 0: lower something whatever it costs
        best_cost[short] = np.inf
        for move in (-1, 1):
            allowed = o & ((r > floor[active]) if move < 0 else (r < ceiling[active]))
            change = np.maximum(m + step * (r + move), 0) - count
            allowed &= (change != 0) & ((change <= rest[:, None]) | (move < 0))  # a raise never takes the anchor below 0
            cost = np.where(allowed, (error + change) ** 2 - error**2 + (anchor_error - change) ** 2 - anchor_error**2, np.inf)
            if move > 0:
                cost[short] = np.inf
            pick = np.argmin(cost, axis=1)
            better = cost[np.arange(len(active)), pick] < np.where(short, np.inf, best_cost - GAIN * step**2)
            best_cost[better] = cost[np.arange(len(active)), pick][better]
            best_move[better] = np.stack([pick, np.full(len(pick), move)], axis=1)[better]
        moving = best_move[:, 1] != 0
        if not moving.any():
            break
        residual[active[moving], best_move[moving, 0]] += best_move[moving, 1]
        active = active[moving]
    else:
        raise ValueError("the residual did not settle")
    residual[~others] = 0
    return residual.astype(np.int8)


def share_rank(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Whether classes ``x`` and ``y`` (arrays of indices 13·row + column) have a rank in common."""
    ranks = [np.asarray(z, dtype=np.int64) // 13 for z in (x, y)], [np.asarray(z, dtype=np.int64) % 13 for z in (x, y)]
    (xr, yr), (xc, yc) = ranks
    return (xr == yr) | (xr == yc) | (xc == yr) | (xc == yc)


def row_order(classes: np.ndarray) -> np.ndarray:
    """``(T,)`` the rows in file order: by how many of the triple's three class pairs share a rank (0 first), in
    index order within each group (a stable counting sort, as the JS does)."""
    groups = sum(share_rank(classes[:, s], classes[:, t]).astype(np.int64) for s, t in CORRECTION_SEATS)
    return np.argsort(groups, kind="stable")
