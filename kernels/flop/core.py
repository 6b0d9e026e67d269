"""Per-hand logic of the flop hit categories (docs/flop.md), written once and compiled for the CPU and for CUDA.

:func:`compile_category_functions` compiles it with a given decorator and evaluator: ``numba.njit`` and
:mod:`kernels.evaluator.cpu` for the CPU (:mod:`kernels.flop.categories`), ``numba.cuda.jit(device=True)`` and
:mod:`kernels.evaluator.gpu` for CUDA (:mod:`kernels.flop.gpu`), so both targets categorise with the same source.
The functions are scalar code without allocation or Python objects: the board is an array argument (3, 4 or 5 card
ids, ``4 * rank + suit``), the evaluator's tables are arrays (``card_key``, ``card_mask``, ``rank_offsets``,
``rank_values``, ``flush_values``, ``category_floor``).

Straight flush, quads, full house, flush and straight, and the river's "the board plays", come from the 7-card
evaluator's strengths; the rest from counting ranks and suits.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CLASSES
from kernels.evaluator.core import KEY_BASE
from kernels.evaluator.tables import FLUSH as EVAL_FLUSH
from kernels.evaluator.tables import FULL_HOUSE as EVAL_FULL_HOUSE
from kernels.evaluator.tables import QUADS as EVAL_QUADS
from kernels.evaluator.tables import STRAIGHT as EVAL_STRAIGHT
from kernels.evaluator.tables import STRAIGHT_FLUSH as EVAL_STRAIGHT_FLUSH

#: The made categories, strongest first (docs/flop.md); ``made_category`` returns an index into it.
MADE_CATEGORIES = (
    "straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair", "overpair",
    "top pair", "second pair", "weak pair", "underpair", "no made hand",
)
(STRAIGHT_FLUSH, QUADS, FULL_HOUSE, FLUSH, STRAIGHT, SET, TRIPS, TWO_PAIR, OVERPAIR, TOP_PAIR, SECOND_PAIR, WEAK_PAIR,
 UNDERPAIR, NO_MADE_HAND) = range(len(MADE_CATEGORIES))
#: The draws (docs/flop.md); bit ``i`` of ``draw_mask`` is ``DRAWS[i]``. A nut flush draw is also a flush draw.
DRAWS = ("flush draw", "nut flush draw", "backdoor flush draw", "open-ended", "gutshot", "combo draw", "two overcards")
FLUSH_DRAW, NUT_FLUSH_DRAW, BACKDOOR_FLUSH_DRAW, OPEN_ENDED, GUTSHOT, COMBO_DRAW, TWO_OVERCARDS = range(len(DRAWS))
#: Lengths of the two lists as plain integers (CUDA code cannot take the length of a tuple of strings).
N_MADE, N_DRAWS = len(MADE_CATEGORIES), len(DRAWS)
#: Flops that can come against one hand: C(50, 3).
FLOPS_PER_HAND = 19_600


def class_representatives() -> np.ndarray:
    """One combo per class, ``(169, 2)`` int64 card ids: the first of the class in ``kernels.cards.ALL_COMBOS``."""
    return np.array([ALL_COMBOS[COMBO_CLASS == c][0] for c in range(N_CLASSES)], dtype=np.int64)


def counted_hands(classes=None, flops=(0, FLOPS_PER_HAND)) -> tuple[np.ndarray, int, int]:
    """What a class hit count counts: the representatives of ``classes`` (class indices; all 169 if None),
    ``(k, 2)`` int64, and the flop numbers ``start, stop`` of ``flops`` (``deal_flop``'s order).
    Raises ``ValueError`` for a class or a flop range out of bounds."""
    rows = np.arange(N_CLASSES) if classes is None else np.asarray(classes, dtype=np.int64).reshape(-1)
    if rows.size and not (0 <= rows.min() and rows.max() < N_CLASSES):
        raise ValueError(f"classes are 0..{N_CLASSES - 1}")
    start, stop = (int(bound) for bound in flops)
    if not 0 <= start <= stop <= FLOPS_PER_HAND:
        raise ValueError(f"a flop range lies within 0..{FLOPS_PER_HAND}, got {start}..{stop}")
    return class_representatives()[rows], start, stop


def compile_category_functions(jit, hand) -> SimpleNamespace:
    """Compile the per-hand functions with ``jit``; ``hand``: the compiled evaluator (``kernels.evaluator.cpu`` or
    ``.gpu``). Returns ``straight_high``, ``made_category``, ``draw_mask``, ``deck_card`` and ``deal_flop`` as
    attributes."""
    strength_of_key = hand.strength_of_key

    @jit
    def straight_high(ranks):
        """Highest rank (0..12) of the best straight within a 13-bit rank mask, -1 if none; the wheel is 5-high (3)."""
        extended = (ranks << 1) | ((ranks >> 12) & 1)  # bit 0: the ace played low; bit r + 1: rank r
        runs = extended & (extended >> 1) & (extended >> 2) & (extended >> 3) & (extended >> 4)
        for low in range(9, -1, -1):  # extended positions low..low + 4 hold ranks low - 1..low + 3
            if (runs >> low) & 1:
                return low + 3
        return -1

    @jit
    def board_rank_count(rank, board, n_board):
        count = 0
        for k in range(n_board):
            if board[k] // 4 == rank:
                count += 1
        return count

    @jit
    def board_ranks_of(board, n_board):
        """The 13-bit mask of the ranks on the board."""
        ranks = 0
        for k in range(n_board):
            ranks |= 1 << (board[k] // 4)
        return ranks

    @jit
    def ranks_above(rank, board_ranks):
        """How many distinct board ranks lie above ``rank``."""
        count = 0
        for r in range(rank + 1, 13):
            count += (board_ranks >> r) & 1
        return count

    @jit
    def evaluator_category(strength, category_floor):
        category = EVAL_STRAIGHT_FLUSH
        while strength < category_floor[category]:
            category -= 1
        return category

    @jit
    def holds_card(card, board, n_board):
        for k in range(n_board):
            if board[k] == card:
                return True
        return False

    @jit
    def highest(ranks):
        for rank in range(12, -1, -1):
            if (ranks >> rank) & 1:
                return rank
        return -1

    @jit
    def made_category(first, second, board, n_board, card_key, card_mask, rank_offsets, rank_values, flush_values,
                      category_floor):
        """Index into :data:`MADE_CATEGORIES` of the hand ``first, second`` on ``board[:n_board]`` (3, 4 or 5 card
        ids, none of them a hole card); the evaluator's tables as arrays."""
        board_key, board_mask = KEY_BASE, np.uint64(0)
        for k in range(n_board):
            board_key += card_key[board[k]]
            board_mask += card_mask[board[k]]
        strength = strength_of_key(board_key + card_key[first] + card_key[second],
                                   board_mask + card_mask[first] + card_mask[second], rank_offsets, rank_values,
                                   flush_values)
        if n_board == 5 and strength <= strength_of_key(board_key, board_mask, rank_offsets, rank_values, flush_values):
            return NO_MADE_HAND  # the board plays
        high, low = max(first // 4, second // 4), min(first // 4, second // 4)
        on_high, on_low = board_rank_count(high, board, n_board), board_rank_count(low, board, n_board)
        category = evaluator_category(strength, category_floor)
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
        board_ranks = board_ranks_of(board, n_board)
        if high == low:
            if on_high == 1:
                return SET
            above, distinct = ranks_above(high, board_ranks), ranks_above(-1, board_ranks)
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
            above = ranks_above(high if on_high else low, board_ranks)
            return TOP_PAIR if above == 0 else SECOND_PAIR if above == 1 else WEAK_PAIR
        return NO_MADE_HAND

    @jit
    def draw_mask(first, second, board, n_board):
        """Draws of the hand ``first, second`` on ``board[:n_board]``: bit ``i`` set for ``DRAWS[i]``; 0 on a river."""
        if n_board >= 5:
            return 0
        board_ranks = board_ranks_of(board, n_board)
        ranks = board_ranks | (1 << (first // 4)) | (1 << (second // 4))
        made_straight = straight_high(ranks) >= 0
        made_flush = False
        drawing = 0
        for suit in range(4):
            on_board = 0
            for k in range(n_board):
                if board[k] % 4 == suit:
                    on_board += 1
            held = 0
            if first % 4 == suit:
                held += 1
            if second % 4 == suit:
                held += 1
            made_flush = made_flush or on_board + held >= 5
            if held and on_board + held == 4:  # four of a suit among at most 6 cards: no flush in another suit
                drawing |= 1 << FLUSH_DRAW
                top = 12  # the highest card of the suit not on the board
                while holds_card(4 * top + suit, board, n_board):
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
        if first // 4 != second // 4 and lowest_hole > highest(board_ranks) and not made_flush and not made_straight:
            drawing |= 1 << TWO_OVERCARDS  # both above the board, no pair, straight or flush: no made hand
        return drawing

    @jit
    def deck_card(position, low, high):
        """The card at ``position`` (0..49) of the deck without the cards ``low < high``."""
        card = position
        if card >= low:
            card += 1
        if card >= high:
            card += 1
        return card

    @jit
    def deal_flop(index, first, second, board):
        """Fill ``board[0:3]`` with flop ``index`` (0..19,599) of the 50 cards other than ``first`` and ``second``.

        Flops are numbered in colexicographic order of the positions ``a < b < c`` of their cards in that 50-card
        deck (card ids ascending): ``index = C(c, 3) + C(b, 2) + a``.
        """
        c = 2
        while (c + 1) * c * (c - 1) // 6 <= index:
            c += 1
        rest = index - c * (c - 1) * (c - 2) // 6
        b = 1
        while (b + 1) * b // 2 <= rest:
            b += 1
        a = rest - b * (b - 1) // 2
        low, high = min(first, second), max(first, second)
        board[0] = deck_card(a, low, high)
        board[1] = deck_card(b, low, high)
        board[2] = deck_card(c, low, high)

    return SimpleNamespace(straight_high=straight_high, made_category=made_category, draw_mask=draw_mask,
                           deck_card=deck_card, deal_flop=deal_flop)
