"""Range against range after the flop, exact (docs/flop.md, "Equity on a board"): each combo's equity on a board
of 3, 4 or 5 cards (Equilab's equity graph) and the every-flop report.

The deal is PokerStove's, as in :mod:`kernels.range_equity`: every pair of one combo of range A and one of range
B sharing no card with each other, the board and the dead cards, weighted by the product of their weights; then
every completion of the board. A combo of A meets B's compatible combos on every completion: its **equity** is its
share of the pot over them (ties split), weighted by B's weights; its **weight in the deal** is its range weight
times the compatible weight of B. A's equity is its combos' equities weighted by their weights in the deal, which
is :func:`kernels.range_equity.range_equity`'s answer for the same spot.

Both walks rank every live combo of A and B once per complete board and count by one sweep in strength order
(:func:`kernels.range_equity.boards._sweep`; each combo's counts come from its heads-up kernel) instead of every pair. The every-flop report walks the 134,459
five-card boards up to suit relabelling (:mod:`.boards`), each counted once for its ten flops, instead of each
flop's 1,176 turns and rivers: it needs suit-symmetric ranges (every relabelling of the suits leaves each
range's weights as they are: class ranges are), and refuses others (:class:`NotSuitSymmetricError`).
The browser's twin is templates/assets/js/engines/flop-equity.js.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations
from math import comb

import numba
import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS, format_cards
from kernels.evaluator.core import KEY_BASE
from kernels.flop.boards import board_classes
from kernels.flop.flops import N_SUIT_DISTINCT_FLOPS, suit_distinct_flops
from kernels.range_equity.boards import (
    _board_strengths, _completions, _headsup_sweep, _sweep, sweep_scratch, weight_by_combo, weighted_sweep_counts,
)
from kernels.range_equity.deals import COMBO_MASK, COMBO_OF, NoDealError, deck_without, live_weights, packed
from kernels.range_equity.enumeration import CALL_WORK, SERIAL_WORK

#: Distribution quantiles (fractions of A's weight in the deal) and equity thresholds reported by default.
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
THRESHOLDS = (0.5, 0.7, 0.9)


class NotSuitSymmetricError(ValueError):
    """A range that a relabelling of the suits changes: the every-flop report walks suit-distinct boards only.
    ``player``: 0 for range A, 1 for range B."""

    def __init__(self, message: str, player: int):
        super().__init__(message)
        self.player = player


@dataclass(frozen=True)
class ComboEquities:
    """A's combos that meet a compatible combo of B, ascending combo ids ``(m,)``, with their counts over every
    completion of the board: ``win``, ``tie``, ``total``: B's weight beaten, tied and met, summed over the
    completions (``boards`` of them behind each compatible pair)."""

    combos: np.ndarray
    range_weight: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    total: np.ndarray
    boards: int

    @property
    def equity(self) -> np.ndarray:
        """Each combo's share of the pot against B, ``(m,)``."""
        return (self.win + self.tie / 2) / self.total

    @property
    def weight(self) -> np.ndarray:
        """Each combo's weight in the deal: its range weight × the compatible weight of B, ``(m,)``."""
        return self.range_weight * (self.total / self.boards)


@dataclass(frozen=True)
class Distribution:
    """Equilab's equity graph of A against B: ``combos``, ``equity`` and ``weight`` (in the deal) of A's combos in
    ascending order of equity (ties by combo id), ``cumulative``: the running sum of ``weight`` over ``weight``'s
    total (the curve's x, 0..1]; ``quantiles``: {q: the equity of the first combo at which ``cumulative`` ≥ q};
    ``above``: {t: the share of A's weight with equity > t}; ``equity``: A's equity."""

    combos: np.ndarray
    equity: np.ndarray
    weight: np.ndarray
    cumulative: np.ndarray
    quantiles: dict
    above: dict
    overall: float


@dataclass(frozen=True)
class FlopReport:
    """A against B on each of the 1,755 suit-distinct flops (:func:`kernels.flop.flops.suit_distinct_flops`'s
    order): ``flops`` (1755, 3) representatives, ``flop_weight`` (1755,) flops each stands for; ``win``, ``tie``,
    ``total`` (1755,): B's weight beaten, tied and met by A's weight, over every flop of the class, turn and river
    (sums that add up across parts of the walk)."""

    flops: np.ndarray
    flop_weight: np.ndarray
    win: np.ndarray
    tie: np.ndarray
    total: np.ndarray

    @property
    def equity(self) -> np.ndarray:
        """A's equity when a flop of the class comes, ``(1755,)`` (NaN where no deal reaches it)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return (self.win + self.tie / 2) / self.total

    @property
    def share(self) -> np.ndarray:
        """Each class's share of the deal: the probability that its flops come, ``(1755,)``, adding up to 1."""
        return self.total / self.total.sum()

    @property
    def overall(self) -> float:
        """A's preflop equity against B: the flops' equities weighted by their shares."""
        return float((self.win.sum() + self.tie.sum() / 2) / self.total.sum())

    def group(self, keep: np.ndarray) -> tuple[float | None, float]:
        """A's equity on the flops ``keep`` (``(1755,)`` bool: a texture, say) and their share of the deal; the
        equity is None where no deal reaches them."""
        total = self.total[keep].sum()
        equity = float((self.win[keep].sum() + self.tie[keep].sum() / 2) / total) if total else None
        return equity, float(total / self.total.sum())


def _check_spot(board, dead) -> None:
    if len(board) not in (3, 4, 5):
        raise ValueError(f"a board after the flop has 3, 4 or 5 cards, got {len(board)}")
    if len(set(board) | set(dead)) != len(board) + len(dead):
        raise ValueError("the board and dead cards repeat a card")
    if len(board) + len(dead) + 4 + 5 - len(board) > 52:
        raise ValueError("not enough cards left to deal both hands and complete the board")


def _evaluator(tables) -> tuple:
    return tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values


def _in_calls(size: int, work: float, count: Callable[[np.ndarray], np.ndarray], progress, chunks: int = 256):
    """``count(bounds)`` summed over consecutive slices of ``range(size)``, split into up to ``chunks`` chunks (the
    kernels' parallel units) and calls of about :data:`CALL_WORK` (``work``: the whole job's), ``progress(done,
    size)`` after each call; on one thread when the work is small (waking the others costs more)."""
    bounds = np.linspace(0, size, min(chunks, size) + 1).astype(np.int64)
    calls = int(min(len(bounds) - 1, max(1, work // CALL_WORK)))
    step = -(-(len(bounds) - 1) // calls)
    threads = numba.get_num_threads()
    numba.set_num_threads(1 if work <= SERIAL_WORK else threads)
    try:
        total = None
        for first in range(0, len(bounds) - 1, step):
            part = bounds[first : first + step + 1]
            counts = count(part)
            total = counts if total is None else total + counts
            if progress is not None:
                progress(int(part[-1]), size)
    finally:
        numba.set_num_threads(threads)
    return total


def combo_equities(weights_a: np.ndarray, weights_b: np.ndarray, board, dead, tables,
                   progress: Callable[[int, int], None] | None = None) -> ComboEquities:
    """Each combo of range A against range B on ``board`` (3, 4 or 5 card ids) with ``dead`` card ids, exact.

    weights_a, weights_b: ``(1326,)`` range weights (one hand: a single non-zero weight); tables: evaluator
    tables; progress(done, total): completions counted. Raises :class:`NoDealError` when no deal exists.
    """
    _check_spot(board, dead)
    live = live_weights([weights_a, weights_b], board, dead)
    starts, idx, weight = packed(live)
    idx0, w0, idx1, w1 = idx[: starts[1]], weight[: starts[1]], idx[starts[1] :], weight[starts[1] :]
    completions = _completions(deck_without(board, dead), 5 - len(board))
    board_arr, distinct = np.asarray(board, dtype=np.int64), np.unique(idx)

    def count(bounds):
        return _headsup_sweep(board_arr, completions, bounds, distinct, idx0, w0, idx1, w1, ALL_COMBOS, COMBO_MASK,
                              *_evaluator(tables), True)

    work = float(len(completions)) * 4 * len(idx)
    win, tie, total = _in_calls(len(completions), work, count, progress)
    met = total > 0
    if not met.any():
        raise NoDealError("no deal gives both players a hand (the ranges block each other)")
    boards = comb(52 - len(board) - len(dead) - 4, 5 - len(board))
    return ComboEquities(idx0[met], w0[met], win[met], tie[met], total[met], boards)


def equity_distribution(equities: ComboEquities, quantiles=QUANTILES, thresholds=THRESHOLDS) -> Distribution:
    """The sorted curve, weighted quantiles, shares above ``thresholds`` and A's equity (see :class:`Distribution`).

    Sums run in the curve's order, so the browser's (flop-equity.js) are the same doubles."""
    equity, weight = equities.equity, equities.weight
    order = np.lexsort((equities.combos, equity))
    running = np.cumsum(weight[order])
    whole = running[-1]
    sorted_equity = equity[order]
    at = {q: sorted_equity[min(int(np.searchsorted(running, q * whole, side="left")), len(order) - 1)] for q in quantiles}
    above = {}
    for t in thresholds:
        below = int(np.searchsorted(sorted_equity, t, side="right"))  # combos with equity ≤ t
        above[t] = float((whole - (running[below - 1] if below else 0.0)) / whole)
    a_weight = equities.range_weight
    overall = float((a_weight * (equities.win + equities.tie / 2)).sum() / (a_weight * equities.total).sum())
    return Distribution(equities.combos[order], sorted_equity, weight[order], running / whole,
                        {q: float(v) for q, v in at.items()}, above, overall)


def suit_permutations() -> np.ndarray:
    """The 24 relabellings of the suits as maps of combo ids, ``(24, 1326)`` int64 (the identity first)."""
    out = []
    for perm in permutations(range(4)):
        card = np.array([4 * (c // 4) + perm[c % 4] for c in range(52)])
        out.append(COMBO_OF[card[ALL_COMBOS[:, 0]], card[ALL_COMBOS[:, 1]]])
    return np.array(out, dtype=np.int64)


def check_suit_symmetric(weights: np.ndarray, name: str, player: int = 0) -> None:
    """Raises :class:`NotSuitSymmetricError` (of ``player``) naming a combo whose weight a relabelling of the suits
    changes; ``name``: the range's name in the message."""
    for perm in suit_permutations()[1:]:
        moved = np.flatnonzero(weights[perm] != weights)
        if moved.size:
            c = int(moved[0])
            raise NotSuitSymmetricError(
                f"{name} is not suit-symmetric ({format_cards(ALL_COMBOS[c][::-1])} at {weights[c]:g} but "
                f"{format_cards(ALL_COMBOS[perm[c]][::-1])} at {weights[perm[c]]:g}): the every-flop report takes ranges whose "
                "suits are interchangeable, such as whole classes", player)


@njit(parallel=True, cache=True)
def _flop_counts(boards, sizes, flop_of, chunk_starts, distinct, idx0, w0, idx1, w1, combo_cards, combo_mask,
                 card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """``(3, 1755)``: A's weight × B's weight beaten, tied and met on the five-card board classes
    ``chunk_starts[0]:chunk_starts[-1]``, each board counted ``sizes[b]`` times for each of its flops ``flop_of[b]``."""
    n_chunks = chunk_starts.size - 1
    out = np.zeros((n_chunks, 3, N_SUIT_DISTINCT_FLOPS))
    w1_by_combo = weight_by_combo(idx1, w1, combo_cards.shape[0])
    for chunk in prange(n_chunks):
        strength = np.full(combo_cards.shape[0], -1, dtype=np.int64)
        key0, key1, below, equal, live, won, tied, met = sweep_scratch(idx0.size, idx1.size)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            _board_strengths(KEY_BASE, np.uint64(0), boards[b], distinct, strength, combo_cards, combo_mask,
                             card_key, card_mask_table, rank_offsets, rank_values, flush_values)
            m0 = _sweep(strength, idx0, idx1, w1, w1_by_combo, key0, key1, below, equal, live, combo_cards, won, tied, met)
            win, tie, total = weighted_sweep_counts(w0, key0, won, tied, met, m0)
            for f in flop_of[b]:
                out[chunk, 0, f] += sizes[b] * win
                out[chunk, 1, f] += sizes[b] * tie
                out[chunk, 2, f] += sizes[b] * total
    return out.sum(axis=0)


def every_flop_report(weights_a: np.ndarray, weights_b: np.ndarray, tables,
                      progress: Callable[[int, int], None] | None = None, names=("range A", "range B")) -> FlopReport:
    """Range A against range B (suit-symmetric ``(1326,)`` weights) on each suit-distinct flop, exact: every flop,
    turn and river, every compatible pair of combos. progress(done, total): board classes counted (134,459 in
    all); it may raise (KeyboardInterrupt) to stop between calls. Raises :class:`NotSuitSymmetricError` (naming
    the range by ``names``) and :class:`NoDealError`."""
    for player, (weights, name) in enumerate(zip((weights_a, weights_b), names)):
        check_suit_symmetric(np.asarray(weights, dtype=np.float64), name, player)
    live = live_weights([weights_a, weights_b], (), ())
    starts, idx, weight = packed(live)
    boards, sizes, flop_of = board_classes()
    distinct = np.unique(idx)

    def count(bounds):
        return _flop_counts(boards, sizes, flop_of, bounds, distinct, idx[: starts[1]], weight[: starts[1]],
                            idx[starts[1] :], weight[starts[1] :], ALL_COMBOS, COMBO_MASK, *_evaluator(tables))

    win, tie, total = _in_calls(len(boards), float(len(boards)) * 4 * len(idx), count, progress)
    if not total.any():
        raise NoDealError("no deal gives both players a hand (the ranges block each other)")
    flops, flop_weight = suit_distinct_flops()
    return FlopReport(flops.astype(np.int64), flop_weight, win, tie, total)
