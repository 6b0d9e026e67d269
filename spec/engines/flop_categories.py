"""Golden cases of the flop hit categories: kernels/flop/categories.py ↔ templates/assets/js/engines/flop-categories.js.

``hands``: a hand, a board (flop, turn or river) and its made category (index into ``made_categories``) and draw
bits: hands chosen to reach every category and draw and their edges (straight flushes and straights with the
wheel, nut and non-nut flush draws, paired, trips and quads boards, rivers where the board plays, double gutshots),
then random hands on random boards, half of them from two suits (flushes and flush draws). ``class_made`` and
``class_draws``: the whole class table (169 rows of counts over each class's 19,600 flops). ``ranges``: hit tables
of range strings (kernels/ranges.py's grammar) on boards with dead cards, or the error they raise.
``category_floor``: the evaluator's lowest strength of each category, which the JS derives from its tables.
"""

from __future__ import annotations

import numpy as np

from kernels.cards import ALL_COMBOS, format_cards, parse_cards
from kernels.flop.categories import DRAWS, MADE_CATEGORIES, class_hit_counts, draw_mask, made_category, range_hit_table
from kernels.ranges import parse_range

NAME = "flop-categories"
TOLERANCE = 0.0  # categories and counts are integers; the weights are summed in the same order in both languages

EDGES = (
    ("AsKs", "QsJsTs"), ("As2s", "3s4s5s"), ("7h7d", "7s7c2d"), ("Ah7d", "7s7c7h"), ("KhKd", "Ks7c7d"),
    ("Kh7d", "KsKc7s"), ("2h2d", "7s7c7d"), ("QhQd", "KsKcKd"), ("Ah3h", "Kh8h2h"), ("Ah2c", "3d4s5c"),
    ("9h8d", "7s6c5d"), ("AhKd", "QsJcTd"), ("9h9d", "9sKc2d"), ("Kh7d", "KsKc2d"), ("Kh7d", "Ks7c2d"),
    ("AsAh", "Kd7c2s"), ("AhTd", "Ac8s3d"), ("QsQh", "KdKc5s"), ("As5h", "5dKcKs"), ("Jh8d", "Ks8c2d"),
    ("Ah2d", "Ks8c2s"), ("6h6d", "Ks8c2d"), ("2h2d", "Ks8c4d"), ("AhKc", "7d8d2s"), ("AhKd", "7s7c7d"),
    ("9h8h", "7h6c2d"), ("JhTh", "9h8h2c"), ("9c7d", "Js8h5c"), ("Ad5c", "2s3h9d"), ("KsJs", "AsTs2d"),
    ("Qs9s", "As7s2d"), ("As4d", "Ks8s2s"),  # flop draws: combo, double gutshot, wheel gutshot, nut, not nut, one card
    ("AhKd", "7s7c7d7h"), ("Ah2h", "Kh8h3h5c"), ("Ks9s", "AsTs2d3c"), ("4s2h", "5d6c7s9h"), ("QhJh", "Th9c2h3h"),
    ("8c8d", "9sTsJs2h"), ("AcKc", "QcJcTd2c"),  # turns: quads on the board, flush draws, a flush with a straight
    ("2c3c", "4d5h6s7c8d"), ("QhQd", "KsKcKdKhAc"), ("AhAd", "KsKcKdKhQc"), ("Qs3h", "AdAcKsKh3c"),
    ("6d7c", "As2d3c4h5s"), ("2c3d", "AhKhQh9h4h"), ("Th2d", "AhKhQh9h4h"), ("Ah2d", "KsKcKd7h7d"),
    ("7s2d", "KsKcKd7h7d"), ("KhQd", "KsKcKd7h7d"), ("9h5d", "KsKc9c5h2d"), ("Th9h", "8h7h6h2c2d"),
)
RANDOM_PER_SIZE = 120
RANGES = (
    ("QQ+,AKs", "AsKd7c", ""),
    ("random", "Th9h8c", ""),
    ("0.5(KQo, AJs), 22-55, T9s:0.25, AhKh", "AhKd5c2s", "3c"),
    ("JJ+,AQs+,KQo", "QhJd5c5s2h", "Ac"),
    ("AA,KK", "AsAhKd", "AcAd"),  # the aces are gone, the kings are left
    ("AA", "AsAhKd", "Ac"),  # no combo left
    ("AA", "AsAh", ""),  # a board of two cards
    ("AA", "AsAhKd", "Kd"),  # a card on the board and dead
)


def _random_hands(rng) -> list[tuple[list[int], list[int]]]:
    two_suits = np.array([c for c in range(52) if c % 4 in (0, 2)])
    hands = []
    for size in (3, 4, 5):
        for deck in (np.arange(52), two_suits):
            for _ in range(RANDOM_PER_SIZE):
                cards = rng.choice(deck, size + 2, replace=False).tolist()
                hands.append((cards[:2], cards[2:]))
    return hands


def _range_case(text: str, board_text: str, dead_text: str, tables) -> dict:
    weights = parse_range(text).weights
    live = np.flatnonzero(weights > 0)
    case = {"range": text, "board": board_text, "dead": dead_text}
    try:
        table = range_hit_table(ALL_COMBOS[live], weights[live], parse_cards(board_text), parse_cards(dead_text), tables)
    except ValueError as exc:
        return {**case, "error": str(exc)}
    return {
        **case, "kept": table.kept.tolist(), "made": table.made.tolist(), "draws": table.draws.tolist(),
        "made_weight": table.made_weight.tolist(), "draw_weight": table.draw_weight.tolist(), "total": table.total,
        "made_share": table.made_share.tolist(), "draw_share": table.draw_share.tolist(),
    }


def build() -> dict:
    from generator.core.evaluator_tables import evaluator_tables

    tables = evaluator_tables()
    arrays = (tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values,
              tables.category_floor)
    hands = [(parse_cards(hole), parse_cards(board)) for hole, board in EDGES] + _random_hands(np.random.default_rng(35))
    rows = []
    for hole, board in hands:
        cards = np.array(board, dtype=np.int64)
        made = made_category(hole[0], hole[1], cards, len(board), *arrays)
        rows.append([format_cards(hole), format_cards(board), int(made), int(draw_mask(hole[0], hole[1], cards, len(board)))])
    made, draws = class_hit_counts(tables)
    return {
        "about": "kernels/flop/categories.py: [hand, board, made category index, draw bits] of each hand; every class's "
                 "counts over its 19,600 flops; range hit tables (combos of the parsed range with a positive weight, in "
                 "combo order) or their errors.",
        "made_categories": list(MADE_CATEGORIES),
        "draws": list(DRAWS),
        "category_floor": tables.category_floor.tolist(),
        "hands": rows,
        "class_made": made.tolist(),
        "class_draws": draws.tolist(),
        "ranges": [_range_case(*case, tables) for case in RANGES],
    }
