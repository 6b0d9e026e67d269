"""Hit categories of a two-card hand on a board of 3, 4 or 5 cards (definitions in docs/flop.md): the CPU path.

* :func:`made_category`: the index into :data:`MADE_CATEGORIES` (strongest first, exactly one per hand);
* :func:`draw_mask`: bit ``i`` set for each draw ``DRAWS[i]`` the hand holds (flop and turn only);
* :func:`class_hit_counts`: for every class, how many of its 19,600 flops fall in each category and draw;
* :func:`range_hit_table`: a weighted range on one board, with dead cards: each category's weighted combos.

The per-hand logic is :mod:`kernels.flop.core`'s, compiled here with ``numba.njit`` and the CPU evaluator
(:mod:`kernels.flop.gpu` compiles the same source for CUDA); the evaluator's tables are passed in as arrays
(``card_key``, ``card_mask``, ``rank_offsets``, ``rank_values``, ``flush_values`` and ``category_floor``). Card ids
are ``4 * rank + suit`` (:mod:`kernels.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from kernels.evaluator import cpu as hand
from kernels.flop.core import (
    DRAWS, FLOPS_PER_HAND, MADE_CATEGORIES, N_DRAWS, N_MADE, class_representatives, compile_category_functions,
    counted_hands,
)

__all__ = [
    "DRAWS", "FLOPS_PER_HAND", "MADE_CATEGORIES", "HitTable", "class_hit_counts", "class_representatives",
    "combo_hit_counts", "draw_mask", "made_category", "range_hit_table", "straight_high",
]

_CATEGORIES = compile_category_functions(njit, hand)
straight_high = _CATEGORIES.straight_high
made_category = _CATEGORIES.made_category
draw_mask = _CATEGORIES.draw_mask
deck_card = _CATEGORIES.deck_card


@njit(cache=True)
def _add_flop_counts(first, second, start, stop, made, draws, card_key, card_mask, rank_offsets, rank_values,
                     flush_values, category_floor):
    """Add to ``made`` (14,) and ``draws`` (7,) the categories and draws of the hand on its flops ``start..stop``,
    numbered as ``deal_flop`` numbers them (colexicographic: the loops run over the top card first)."""
    low, high = min(first, second), max(first, second)
    board = np.empty(3, dtype=np.int64)
    index = 0
    for c in range(2, 50):
        board[2] = deck_card(c, low, high)
        for b in range(1, c):
            board[1] = deck_card(b, low, high)
            for a in range(b):
                if index >= stop:
                    return
                if index >= start:
                    board[0] = deck_card(a, low, high)
                    made[made_category(first, second, board, 3, card_key, card_mask, rank_offsets, rank_values,
                                       flush_values, category_floor)] += 1
                    drawing = draw_mask(first, second, board, 3)
                    for d in range(N_DRAWS):
                        draws[d] += (drawing >> d) & 1
                index += 1


@njit(parallel=True, cache=True)
def _class_counts(representatives, start, stop, card_key, card_mask, rank_offsets, rank_values, flush_values,
                  category_floor):
    made = np.zeros((representatives.shape[0], N_MADE), dtype=np.int64)
    draws = np.zeros((representatives.shape[0], N_DRAWS), dtype=np.int64)
    for c in prange(representatives.shape[0]):
        _add_flop_counts(representatives[c, 0], representatives[c, 1], start, stop, made[c], draws[c], card_key,
                         card_mask, rank_offsets, rank_values, flush_values, category_floor)
    return made, draws


def _arrays(tables) -> tuple:
    """The evaluator's arrays in the order the kernels take them."""
    return tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values, tables.category_floor


def combo_hit_counts(first: int, second: int, tables) -> tuple[np.ndarray, np.ndarray]:
    """How many of the 19,600 flops give the hand ``first, second`` each made category and each draw:
    ``(made (14,), draws (7,))`` int64 (``made`` sums to 19,600). ``tables``: the evaluator's tables."""
    made = np.zeros(N_MADE, dtype=np.int64)
    draws = np.zeros(N_DRAWS, dtype=np.int64)
    _add_flop_counts(np.int64(first), np.int64(second), 0, FLOPS_PER_HAND, made, draws, *_arrays(tables))
    return made, draws


def class_hit_counts(tables, classes=None, flops=(0, FLOPS_PER_HAND)) -> tuple[np.ndarray, np.ndarray]:
    """For each of the 169 classes, how many of its 19,600 flops fall in each made category and draw:
    ``(made (169, 14), draws (169, 7))`` int64, rows in class order (``made`` rows sum to 19,600).

    One representative combo per class (:func:`class_representatives`) is counted: a relabelling of the suits maps
    one combo of a class onto any other and the flops one to one onto the flops, and keeps every category and draw
    (they compare suits only for equality), so every combo of a class has the same counts. Classes run in parallel.
    ``classes`` (class indices: one row each, in that order) and ``flops`` (``start, stop`` in
    :func:`kernels.flop.core.compile_category_functions`'s ``deal_flop`` order) count a part, as the GPU twin
    :func:`kernels.flop.gpu.class_hit_counts` does.
    """
    representatives, start, stop = counted_hands(classes, flops)
    return _class_counts(representatives, start, stop, *_arrays(tables))


@njit(cache=True)
def _range_categories(combos, weights, board, n_board, card_key, card_mask, rank_offsets, rank_values, flush_values,
                      category_floor):
    """Each combo's category and draws, and the weights summed in combo order (per category, per draw, in all)."""
    made = np.empty(combos.shape[0], dtype=np.int64)
    draws = np.empty(combos.shape[0], dtype=np.int64)
    made_weight = np.zeros(N_MADE)
    draw_weight = np.zeros(N_DRAWS)
    total = 0.0
    for i in range(combos.shape[0]):
        first, second = combos[i, 0], combos[i, 1]
        made[i] = made_category(first, second, board, n_board, card_key, card_mask, rank_offsets, rank_values,
                                flush_values, category_floor)
        draws[i] = draw_mask(first, second, board, n_board)
        made_weight[made[i]] += weights[i]
        for d in range(N_DRAWS):
            if (draws[i] >> d) & 1:
                draw_weight[d] += weights[i]
        total += weights[i]
    return made, draws, made_weight, draw_weight, total


@dataclass(frozen=True)
class HitTable:
    """A weighted range on a board: the combos left (``k`` of them, in input order) and what each one hits."""

    kept: np.ndarray  # (k,) int64: position of each combo left in the input lists
    combos: np.ndarray  # (k, 2) int64 card ids
    weights: np.ndarray  # (k,) float64, all > 0
    made: np.ndarray  # (k,) int64: index into MADE_CATEGORIES
    draws: np.ndarray  # (k,) int64: draw bits (DRAWS)
    made_weight: np.ndarray  # (14,) float64: weighted combos of each made category (summed in combo order)
    draw_weight: np.ndarray  # (7,) float64: weighted combos holding each draw
    total: float  # the weights summed in combo order

    @property
    def made_share(self) -> np.ndarray:
        """``(14,)`` share of the range's weight in each made category."""
        return self.made_weight / self.total

    @property
    def draw_share(self) -> np.ndarray:
        """``(7,)`` share of the range's weight holding each draw."""
        return self.draw_weight / self.total


def range_hit_table(combos, weights, board, dead, tables) -> HitTable:
    """The hit table of a weighted range on ``board`` (3, 4 or 5 card ids) with ``dead`` card ids.

    ``combos``: ``(n, 2)`` card ids; ``weights``: ``(n,)`` (``kernels.ranges.Range.weights`` gives them for the
    1,326 combos of ``kernels.cards.ALL_COMBOS``). Combos of weight 0 and combos holding a board or dead card are
    left out. Raises ``ValueError`` for a board of another size, a card repeated on the board and dead cards, or
    no combo left.
    """
    board = np.asarray(board, dtype=np.int64)
    dead = np.asarray(dead, dtype=np.int64)
    combos = np.asarray(combos, dtype=np.int64).reshape(-1, 2)
    weights = np.asarray(weights, dtype=np.float64)
    if not 3 <= board.size <= 5:
        raise ValueError(f"a board has 3, 4 or 5 cards, got {board.size}")
    taken = np.concatenate([board, dead])
    if np.unique(taken).size != taken.size:
        raise ValueError("the board and dead cards repeat a card")
    kept = np.flatnonzero((weights > 0) & ~np.isin(combos, taken).any(axis=1))
    if kept.size == 0:
        raise ValueError("no combo of the range is left: each one holds a board or dead card, or has weight 0")
    made, draws, made_weight, draw_weight, total = _range_categories(
        combos[kept], weights[kept], board, board.size, *_arrays(tables))
    return HitTable(kept, combos[kept], weights[kept], made, draws, made_weight, draw_weight, float(total))
