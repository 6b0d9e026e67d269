"""Hit categories of a two-card hand on a board of 3, 4 or 5 cards (definitions in docs/flop.md).

* :func:`made_category`: the index into :data:`MADE_CATEGORIES` (strongest first, exactly one per hand);
* :func:`draw_mask`: bit ``i`` set for each draw ``DRAWS[i]`` the hand holds (flop and turn only);
* :func:`class_hit_counts`: for every class, how many of its 19,600 flops fall in each category and draw;
* :func:`range_hit_table`: a weighted range on one board, with dead cards: each category's weighted combos.

Straight flush, quads, full house, flush and straight, and the river's "the board plays", come from the 7-card
evaluator's strengths (:mod:`kernels.evaluator`; its tables are passed in as arrays: ``card_key``, ``card_mask``,
``rank_offsets``, ``rank_values``, ``flush_values`` and ``category_floor``); the rest from counting ranks and suits.
:func:`made_category` and :func:`draw_mask` are scalar code without allocation (the board is an array argument),
so that the same source could also compile for CUDA. Card ids are ``4 * rank + suit`` (:mod:`kernels.cards`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CLASSES
from kernels.evaluator.core import KEY_BASE
from kernels.evaluator.cpu import strength_of_key
from kernels.evaluator.tables import FLUSH as EVAL_FLUSH
from kernels.evaluator.tables import FULL_HOUSE as EVAL_FULL_HOUSE
from kernels.evaluator.tables import QUADS as EVAL_QUADS
from kernels.evaluator.tables import STRAIGHT as EVAL_STRAIGHT
from kernels.evaluator.tables import STRAIGHT_FLUSH as EVAL_STRAIGHT_FLUSH

#: The made categories, strongest first (docs/flop.md); :func:`made_category` returns an index into it.
MADE_CATEGORIES = (
    "straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair", "overpair",
    "top pair", "second pair", "weak pair", "underpair", "no made hand",
)
(STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, SET, TRIPS, TWO_PAIR, OVERPAIR, TOP_PAIR, SECOND_PAIR, WEAK_PAIR,
 UNDERPAIR, NO_MADE_HAND) = range(len(MADE_CATEGORIES))
#: The draws (docs/flop.md); bit ``i`` of :func:`draw_mask` is ``DRAWS[i]``. A nut flush draw is also a flush draw.
DRAWS = ("flush draw", "nut flush draw", "backdoor flush draw", "open-ended", "gutshot", "combo draw", "two overcards")
FLUSH_DRAW, NUT_FLUSH_DRAW, BACKDOOR_FLUSH_DRAW, OPEN_ENDED, GUTSHOT, COMBO_DRAW, TWO_OVERCARDS = range(len(DRAWS))
#: Flops that can come against one hand: C(50, 3).
FLOPS_PER_HAND = 19_600


@njit(cache=True)
def straight_high(ranks):
    """Highest rank (0..12) of the best straight within a 13-bit rank mask, -1 if none; the wheel is 5-high (3)."""
    extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit 0: the ace played low; bit r + 1: rank r
    runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4)
    for low in range(9, -1, -1):  # extended positions low..low + 4 hold ranks low - 1..low + 3
        if (runs >> low) & 1:
            return low + 3
    return -1


@njit(cache=True)
def _board_rank_count(rank, board, n_board):
    count = 0
    for k in range(n_board):
        if board[k] // 4 == rank:
            count += 1
    return count


@njit(cache=True)
def _board_ranks(board, n_board):
    """The 13-bit mask of the ranks on the board."""
    ranks = 0
    for k in range(n_board):
        ranks |= 1 << (board[k] // 4)
    return ranks


@njit(cache=True)
def _ranks_above(rank, board_ranks):
    """How many distinct board ranks lie above ``rank``."""
    count = 0
    for r in range(rank + 1, 13):
        count += (board_ranks >> r) & 1
    return count


@njit(cache=True)
def _evaluator_category(strength, category_floor):
    category = EVAL_STRAIGHT_FLUSH
    while strength < category_floor[category]:
        category -= 1
    return category


@njit(cache=True)
def made_category(first, second, board, n_board, card_key, card_mask, rank_offsets, rank_values, flush_values,
                  category_floor):
    """Index into :data:`MADE_CATEGORIES` of the hand ``first, second`` on ``board[:n_board]`` (3, 4 or 5 card ids,
    none of them a hole card); the evaluator's tables as arrays."""
    board_key, board_mask = KEY_BASE, np.uint64(0)
    for k in range(n_board):
        board_key += card_key[board[k]]
        board_mask += card_mask[board[k]]
    strength = strength_of_key(board_key + card_key[first] + card_key[second],
                               board_mask + card_mask[first] + card_mask[second], rank_offsets, rank_values, flush_values)
    if n_board == 5 and strength <= strength_of_key(board_key, board_mask, rank_offsets, rank_values, flush_values):
        return NO_MADE_HAND  # the board plays
    high, low = max(first // 4, second // 4), min(first // 4, second // 4)
    on_high, on_low = _board_rank_count(high, board, n_board), _board_rank_count(low, board, n_board)
    category = _evaluator_category(strength, category_floor)
    if category == EVAL_STRAIGHT_FLUSH:
        return STRAIGHT_FLUSH
    if category == EVAL_QUADS:
        # four of a kind with a hole card of its rank; else the quads lie on the board and the ranks decide below
        if (high == low and on_high == 2) or on_high == 3 or on_low == 3:
            return QUADS
    elif category == EVAL_FULL_HOUSE:
        return FULL_HOUSE
    elif category == EVAL_FLUSH:
        return FLUSH
    elif category == EVAL_STRAIGHT:
        return STRAIGHT
    board_ranks = _board_ranks(board, n_board)
    if high == low:
        if on_high == 1:
            return SET
        above, distinct = _ranks_above(high, board_ranks), _ranks_above(-1, board_ranks)
        if above == 0:
            return OVERPAIR
        if above == distinct:
            return UNDERPAIR
        return SECOND_PAIR if above == 1 else WEAK_PAIR
    if on_high >= 2 or on_low >= 2:
        return TRIPS
    if on_high and on_low:
        return TWO_PAIR
    if on_high or on_low:
        above = _ranks_above(high if on_high else low, board_ranks)
        return TOP_PAIR if above == 0 else SECOND_PAIR if above == 1 else WEAK_PAIR
    return NO_MADE_HAND


@njit(cache=True)
def draw_mask(first, second, board, n_board):
    """Draws of the hand ``first, second`` on ``board[:n_board]``: bit ``i`` set for ``DRAWS[i]``; 0 on a river."""
    if n_board >= 5:
        return 0
    board_ranks = _board_ranks(board, n_board)
    ranks = board_ranks | (1 << (first // 4)) | (1 << (second // 4))
    made_straight = straight_high(ranks) >= 0
    made_flush = False
    drawing = 0
    for suit in range(4):
        on_board = 0
        for k in range(n_board):
            on_board += board[k] % 4 == suit
        held = (first % 4 == suit) + (second % 4 == suit)
        made_flush = made_flush or on_board + held >= 5
        if held and on_board + held == 4:  # four of a suit among at most 6 cards: no flush in another suit
            drawing |= 1 << FLUSH_DRAW
            top = 12  # the highest card of the suit not on the board
            while _holds_card(4 * top + suit, board, n_board):
                top -= 1
            if first == 4 * top + suit or second == 4 * top + suit:
                drawing |= 1 << NUT_FLUSH_DRAW
        if n_board == 3 and held == 2 and on_board == 1:
            drawing |= 1 << BACKDOOR_FLUSH_DRAW
    if not made_straight:
        outs = 0  # ranks that give the hand a higher straight than the board and that card alone
        for rank in range(13):
            if not (ranks >> rank) & 1 and straight_high(ranks | 1 << rank) > straight_high(board_ranks | 1 << rank):
                outs += 1
        if outs >= 2:
            drawing |= 1 << OPEN_ENDED
        elif outs == 1:
            drawing |= 1 << GUTSHOT
    if (drawing >> FLUSH_DRAW) & 1 and drawing & ((1 << OPEN_ENDED) | (1 << GUTSHOT)):
        drawing |= 1 << COMBO_DRAW
    lowest_hole = min(first // 4, second // 4)
    if first // 4 != second // 4 and lowest_hole > _highest(board_ranks) and not made_flush and not made_straight:
        drawing |= 1 << TWO_OVERCARDS  # both above the board, no pair, straight or flush: no made hand
    return drawing


@njit(cache=True)
def _holds_card(card, board, n_board):
    for k in range(n_board):
        if board[k] == card:
            return True
    return False


@njit(cache=True)
def _highest(ranks):
    for rank in range(12, -1, -1):
        if (ranks >> rank) & 1:
            return rank
    return -1


@njit(cache=True)
def _add_flop_counts(first, second, made, draws, card_key, card_mask, rank_offsets, rank_values, flush_values,
                     category_floor):
    """Add to ``made`` (14,) and ``draws`` (7,) the categories and draws of the hand on each of its 19,600 flops."""
    deck = np.empty(50, dtype=np.int64)
    n = 0
    for card in range(52):
        if card != first and card != second:
            deck[n] = card
            n += 1
    board = np.empty(3, dtype=np.int64)
    for i in range(48):
        board[0] = deck[i]
        for j in range(i + 1, 49):
            board[1] = deck[j]
            for k in range(j + 1, 50):
                board[2] = deck[k]
                made[made_category(first, second, board, 3, card_key, card_mask, rank_offsets, rank_values, flush_values,
                                   category_floor)] += 1
                drawing = draw_mask(first, second, board, 3)
                for d in range(len(DRAWS)):
                    draws[d] += (drawing >> d) & 1


@njit(parallel=True, cache=True)
def _class_counts(representatives, card_key, card_mask, rank_offsets, rank_values, flush_values, category_floor):
    made = np.zeros((representatives.shape[0], len(MADE_CATEGORIES)), dtype=np.int64)
    draws = np.zeros((representatives.shape[0], len(DRAWS)), dtype=np.int64)
    for c in prange(representatives.shape[0]):
        _add_flop_counts(representatives[c, 0], representatives[c, 1], made[c], draws[c], card_key, card_mask,
                         rank_offsets, rank_values, flush_values, category_floor)
    return made, draws


def _arrays(tables) -> tuple:
    """The evaluator's arrays in the order the kernels take them."""
    return tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values, tables.category_floor


def class_representatives() -> np.ndarray:
    """One combo per class, ``(169, 2)`` int64 card ids: the first of the class in ``kernels.cards.ALL_COMBOS``."""
    return np.array([ALL_COMBOS[COMBO_CLASS == c][0] for c in range(N_CLASSES)], dtype=np.int64)


def combo_hit_counts(first: int, second: int, tables) -> tuple[np.ndarray, np.ndarray]:
    """How many of the 19,600 flops give the hand ``first, second`` each made category and each draw:
    ``(made (14,), draws (7,))`` int64 (``made`` sums to 19,600). ``tables``: the evaluator's tables."""
    made = np.zeros(len(MADE_CATEGORIES), dtype=np.int64)
    draws = np.zeros(len(DRAWS), dtype=np.int64)
    _add_flop_counts(np.int64(first), np.int64(second), made, draws, *_arrays(tables))
    return made, draws


def class_hit_counts(tables) -> tuple[np.ndarray, np.ndarray]:
    """For each of the 169 classes, how many of its 19,600 flops fall in each made category and draw:
    ``(made (169, 14), draws (169, 7))`` int64, rows in class order (``made`` rows sum to 19,600).

    One representative combo per class (:func:`class_representatives`) is counted: a relabelling of the suits maps
    one combo of a class onto any other and the flops one to one onto the flops, and keeps every category and draw
    (they compare suits only for equality), so every combo of a class has the same counts. Classes run in parallel.
    """
    return _class_counts(class_representatives(), *_arrays(tables))


@njit(cache=True)
def _range_categories(combos, weights, board, n_board, card_key, card_mask, rank_offsets, rank_values, flush_values,
                      category_floor):
    """Each combo's category and draws, and the weights summed in combo order (per category, per draw, in all)."""
    made = np.empty(combos.shape[0], dtype=np.int64)
    draws = np.empty(combos.shape[0], dtype=np.int64)
    made_weight = np.zeros(len(MADE_CATEGORIES))
    draw_weight = np.zeros(len(DRAWS))
    total = 0.0
    for i in range(combos.shape[0]):
        first, second = combos[i, 0], combos[i, 1]
        made[i] = made_category(first, second, board, n_board, card_key, card_mask, rank_offsets, rank_values,
                                flush_values, category_floor)
        draws[i] = draw_mask(first, second, board, n_board)
        made_weight[made[i]] += weights[i]
        for d in range(len(DRAWS)):
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
