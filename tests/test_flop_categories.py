"""kernels/flop/categories.py against a brute-force categoriser written here from docs/flop.md, independently of the
kernel: eval7 for hand strength and its hand type, Python sets and counters for ranks and suits.

Checked on every one of the 19,600 flops of a sample of combos (pairs, suited, offsuit, connectors, wheel cards),
on random turns and rivers (the river's board-plays rule included), in the whole-class table (its rows and the suit
symmetry it relies on), in the range hit table, and against counts derived by combinatorics.
"""

from collections import Counter
from functools import cache
from itertools import combinations
from math import comb

import eval7
import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import CLASS_NAMES, class_combos, class_of_cards
from kernels.flop.categories import (
    DRAWS, FLOPS_PER_HAND, MADE_CATEGORIES, class_hit_counts, class_representatives, combo_hit_counts, draw_mask,
    made_category, range_hit_table,
)

RANKS, SUITS = "23456789TJQKA", "cdhs"
EVAL7_CARDS = [eval7.Card(RANKS[card // 4] + SUITS[card % 4]) for card in range(52)]
#: Pairs (high, middle, deuces), suited (ace-high, connectors, the wheel's, a gapped one), offsuit (broadway, a
#: connector, a one-gapper, wheel cards, a gapped one).
SAMPLE = ("AsAh", "7c7d", "2h2s", "AsKs", "9h8h", "5c4c", "Qd2d", "AhKd", "Td9c", "6s5h", "Ad3c", "Kc7h")


def ids(text: str) -> list[int]:
    return [4 * RANKS.index(text[i]) + SUITS.index(text[i + 1]) for i in range(0, len(text), 2)]


@cache
def tables():
    return evaluator_tables()


# ------------------------------------------------------------------------------------- the brute-force categoriser

@cache
def highest_straight(ranks: frozenset) -> int:
    """The top rank of the highest five ranks in a row (the ace also below the deuce), -1 if none."""
    values = set(ranks) | ({-1} if 12 in ranks else set())
    return max((top for top in range(3, 13) if all(top - i in values for i in range(5))), default=-1)


@cache
def straight_outs(hole_ranks: frozenset, board_ranks: frozenset) -> int:
    """Ranks whose card gives hole + board a higher straight than board + that card (docs/flop.md)."""
    ranks = hole_ranks | board_ranks
    return sum(highest_straight(ranks | {r}) > highest_straight(board_ranks | {r}) for r in range(13))


def strength(cards) -> int:
    return eval7.evaluate([EVAL7_CARDS[c] for c in cards])


def brute_made(hole, board) -> str:
    value = strength(hole + board)
    if len(board) == 5 and value <= strength(board):
        return "no made hand"
    kind = eval7.handtype(value)
    a, b = (c // 4 for c in hole)
    on_board = Counter(c // 4 for c in board)
    if kind == "Straight Flush":
        return "straight flush"
    if kind == "Quads" and 4 in (on_board[a] + (a == b) + 1, on_board[b] + (a == b) + 1):
        return "quads"
    if kind in ("Full House", "Flush", "Straight"):
        return kind.lower()
    board_ranks = sorted(on_board, reverse=True)  # distinct, highest first
    if a == b:
        if on_board[a] == 1:
            return "set"
        if a > board_ranks[0]:
            return "overpair"
        if a < board_ranks[-1]:
            return "underpair"
        return "second pair" if a > board_ranks[1] else "weak pair"
    if on_board[a] == 2 or on_board[b] == 2:
        return "trips"
    paired = [r for r in (a, b) if on_board[r]]
    if len(paired) == 2:
        return "two pair"
    if paired:
        return ("top pair", "second pair", "weak pair", "weak pair", "weak pair")[board_ranks.index(paired[0])]
    return "no made hand"


def brute_draws(hole, board) -> set:
    if len(board) == 5:
        return set()
    found = set()
    suits = Counter(c % 4 for c in hole + board)
    has_flush = max(suits.values()) >= 5
    for suit, count in suits.items():
        if count == 4 and not has_flush and any(c % 4 == suit for c in hole):
            found.add("flush draw")
            if max(c for c in range(52) if c % 4 == suit and c not in board) in hole:
                found.add("nut flush draw")
    if len(board) == 3 and hole[0] % 4 == hole[1] % 4 and sum(c % 4 == hole[0] % 4 for c in board) == 1:
        found.add("backdoor flush draw")
    hole_ranks, board_ranks = frozenset(c // 4 for c in hole), frozenset(c // 4 for c in board)
    if highest_straight(hole_ranks | board_ranks) < 0:
        outs = straight_outs(hole_ranks, board_ranks)
        found |= {"open-ended"} if outs >= 2 else {"gutshot"} if outs == 1 else set()
    if "flush draw" in found and found & {"open-ended", "gutshot"}:
        found.add("combo draw")
    if min(hole_ranks) > max(board_ranks) and len(hole_ranks) == 2 and brute_made(hole, board) == "no made hand":
        found.add("two overcards")
    return found


# ------------------------------------------------------------------------------------------------------ the kernel

def kernel(hole, board) -> tuple[str, set]:
    t = tables()
    cards = np.array(board, dtype=np.int64)
    made = made_category(hole[0], hole[1], cards, len(board), t.card_key, t.card_mask, t.rank_offsets, t.rank_values,
                         t.flush_values, t.category_floor)
    mask = draw_mask(hole[0], hole[1], cards, len(board))
    return MADE_CATEGORIES[made], {name for bit, name in enumerate(DRAWS) if mask >> bit & 1}


def flops_of(hole):
    return combinations([c for c in range(52) if c not in hole], 3)


def brute_counts(hole) -> tuple[list[int], list[int]]:
    made, draws = Counter(), Counter()
    for flop in flops_of(hole):
        made[brute_made(hole, list(flop))] += 1
        draws.update(brute_draws(hole, list(flop)))
    return [made[name] for name in MADE_CATEGORIES], [draws[name] for name in DRAWS]


# ------------------------------------------------------------------------------------------------------ the tests

@pytest.mark.parametrize("text,board,made,draws", [
    ("QsQh", "KdKc5s", "second pair", set()),  # docs/flop.md's examples
    ("As5h", "5dKcKs", "second pair", set()),
    ("Qs3h", "AdAcKsKh3c", "weak pair", set()),
    ("4s2h", "5d6c7s9h", "no made hand", {"gutshot"}),  # the 8 makes the board a 9-high straight: not an out
    ("AhKd", "7s7c7d7h", "no made hand", {"two overcards"}),  # quads on the board are not the hand's
    ("7h7d", "7s7c2d", "quads", set()),
    ("AsKs", "QsJsTs", "straight flush", set()),
    ("Ah2c", "3d4s5c9h9d", "straight", set()),  # the wheel
    ("2c3c", "4d5h6s7c8d", "no made hand", set()),  # the board plays its straight
    ("AhAd", "KsKcKdKhQc", "overpair", set()),  # quads on the board, the aces kick: not the board's five
    ("QhQd", "KsKcKdKhAc", "no made hand", set()),  # ... the queens do not: the board plays
    ("KsJs", "AsTs2d", "no made hand", {"flush draw", "nut flush draw", "gutshot", "combo draw"}),  # K: the ace is out
    ("Ad5c", "2s3h9d", "no made hand", {"gutshot"}),  # the wheel's 4
    ("9h8h", "7h6c2d", "no made hand", {"open-ended", "backdoor flush draw", "two overcards"}),
])
def test_examples(text, board, made, draws):
    hole, cards = ids(text), ids(board)
    assert kernel(hole, cards) == (made, draws)
    assert (brute_made(hole, cards), brute_draws(hole, cards)) == (made, draws)


@pytest.mark.parametrize("text", SAMPLE)
def test_every_flop_of_a_combo_matches_the_brute_force_and_the_counts_add_up(text):
    hole = ids(text)
    wrong = []
    for flop in flops_of(hole):
        board = list(flop)
        expected = (brute_made(hole, board), brute_draws(hole, board))
        if kernel(hole, board) != expected:
            wrong.append((board, kernel(hole, board), expected))
    assert wrong[:5] == []
    made, draws = combo_hit_counts(hole[0], hole[1], tables())
    assert (made.tolist(), draws.tolist()) == brute_counts(hole)
    assert made.sum() == FLOPS_PER_HAND == comb(50, 3)


def test_random_turns_and_rivers_match_the_brute_force():
    rng = np.random.default_rng(35)
    two_suits = [c for c in range(52) if c % 4 in (1, 3)]  # flushes, flush draws and straight flushes often
    wrong, seen = [], Counter()
    for k in range(4000):
        size = 4 + k % 2
        cards = [int(c) for c in rng.choice(two_suits if k % 4 < 2 else 52, size + 2, replace=False)]
        hole, board = cards[:2], cards[2:]
        expected = (brute_made(hole, board), brute_draws(hole, board))
        seen[expected[0]] += 1
        seen.update(expected[1])
        if kernel(hole, board) != expected:
            wrong.append((hole, board, kernel(hole, board), expected))
    assert wrong[:5] == []
    rare = {"straight flush", "quads", "nut flush draw", "combo draw"}
    assert all(seen[name] for name in (set(MADE_CATEGORIES) | set(DRAWS)) - {"backdoor flush draw"} - rare)
    assert seen["backdoor flush draw"] == 0  # a flop-only draw


def test_the_river_has_no_draws_and_the_board_plays():
    board = ids("As2d3c4h5s")  # a wheel on the board
    for text in ("KhQd", "6d6c", "Ah2h"):
        hole = ids(text)
        assert kernel(hole, board) == (brute_made(hole, board), set())
    assert kernel(ids("6d7c"), board)[0] == "straight"
    assert kernel(ids("KhQd"), board)[0] == "no made hand"


def test_class_rows_are_every_combo_of_the_class_and_the_brute_force():
    made, draws = class_hit_counts(tables())
    assert made.shape == (169, 14) and draws.shape == (169, 7)
    assert (made.sum(axis=1) == FLOPS_PER_HAND).all()
    for name in ("AKs", "T9o", "55"):
        index = CLASS_NAMES.index(name)
        assert (made[index].tolist(), draws[index].tolist()) == brute_counts([int(c) for c in class_combos(index)[-1]])


def test_every_combo_of_a_class_has_the_class_counts():
    made, draws = class_hit_counts(tables())
    for name in ("AA", "AKs", "AKo", "76s", "72o", "J4s"):
        index = CLASS_NAMES.index(name)
        for first, second in class_combos(index).tolist():
            combo_made, combo_draws = combo_hit_counts(first, second, tables())
            assert (combo_made == made[index]).all() and (combo_draws == draws[index]).all(), (name, first, second)
    representatives = class_representatives()
    assert [class_of_cards(*pair) for pair in representatives.tolist()] == list(range(169))


def test_counts_derived_by_combinatorics():
    made, draws = class_hit_counts(tables())

    def row(name):
        index = CLASS_NAMES.index(name)
        return dict(zip(MADE_CATEGORIES, made[index].tolist())), dict(zip(DRAWS, draws[index].tolist()))

    # A pocket pair: 2 cards of its rank are left, 48 others (12 ranks of 4). Quads: both; a set: one and an
    # unpaired two of the 48; a full house: one and a pair of the 48, or no card of its rank and trips of the 48.
    pair_made, pair_draws = row("77")
    assert pair_made["quads"] == comb(2, 2) * 48
    assert pair_made["set"] == 2 * (comb(48, 2) - 12 * comb(4, 2))
    assert pair_made["full house"] == 2 * 12 * comb(4, 2) + 12 * comb(4, 3)
    assert pair_made["flush"] == pair_made["straight"] == pair_made["straight flush"] == 0
    # Below every board card: a flop of the cards above the 7s, except trips (with the 7s, a full house).
    ranks_above = 12 - RANKS.index("7")
    assert pair_made["underpair"] == comb(4 * ranks_above, 3) - ranks_above * comb(4, 3)
    # A suited hand Q2s: 11 cards of its suit are left and 39 of the others.
    suited_made, suited_draws = row("Q2s")
    assert suited_made["flush"] == comb(11, 3) and suited_made["straight flush"] == suited_made["straight"] == 0
    assert suited_draws["flush draw"] == comb(11, 2) * 39
    assert suited_draws["nut flush draw"] == comb(2, 2) * 39  # the ace and king of its suit both on the board
    assert suited_draws["backdoor flush draw"] == 11 * comb(39, 2)
    # An offsuit hand AKo: a flush draw is a flop of three cards of one of its suits (12 left in each); the king's is
    # the nut flush draw when the ace of its suit is one of the three.
    offsuit_made, offsuit_draws = row("AKo")
    assert offsuit_draws["flush draw"] == 2 * comb(12, 3)
    assert offsuit_draws["nut flush draw"] == comb(12, 3) + comb(11, 2)
    assert offsuit_made["flush"] == offsuit_draws["backdoor flush draw"] == 0
    assert offsuit_made["straight"] == 4 ** 3  # Q, J and T in any suits
    # Two overcards: every flop of the 44 cards 2..Q except the straights QJT (no flush: AKo holds two suits).
    assert offsuit_draws["two overcards"] == offsuit_made["no made hand"] == comb(44, 3) - 4 ** 3


def test_range_hit_table_weighs_the_live_combos_of_each_category():
    combos = [ids(text) for text in ("AsAh", "AdAc", "KsKh", "AsKs", "AhKh", "7c7d", "QdJd")]
    weights = [1.0, 0.5, 1.0, 0.25, 1.0, 0.0, 1.0]
    board, dead = ids("Kd7h2c"), ids("Ah")
    table = range_hit_table(combos, weights, board, dead, tables())
    assert table.kept.tolist() == [1, 2, 3, 6]  # AsAh and AhKh hold the dead Ah, 7c7d weighs 0
    expected = [brute_made(combos[i], board) for i in table.kept]
    assert [MADE_CATEGORIES[m] for m in table.made] == expected == ["overpair", "set", "top pair", "no made hand"]
    assert [{name for bit, name in enumerate(DRAWS) if d >> bit & 1} for d in table.draws] == [
        brute_draws(combos[i], board) for i in table.kept]
    assert table.total == 0.5 + 1.0 + 0.25 + 1.0
    by_name = dict(zip(MADE_CATEGORIES, table.made_weight.tolist()))
    assert (by_name["overpair"], by_name["set"], by_name["top pair"], by_name["no made hand"]) == (0.5, 1.0, 0.25, 1.0)
    assert table.made_share.sum() == pytest.approx(1.0, abs=1e-15) and table.made_weight.sum() == table.total
    for bit, name in enumerate(DRAWS):
        holding = [w for i, w in zip(table.kept, table.weights) if name in brute_draws(combos[i], board)]
        assert table.draw_weight[bit] == sum(holding), name
    assert table.draw_weight[DRAWS.index("backdoor flush draw")] == 1.0  # QdJd with the Kd
    assert table.draw_share.tolist() == (table.draw_weight / table.total).tolist()


@pytest.mark.parametrize("board,dead,message", [
    ("Kd7h", "", "3, 4 or 5 cards"), ("Kd7h2c3c4c5c", "", "3, 4 or 5 cards"), ("Kd7h2c", "2c", "repeat a card"),
    ("AsKd7h", "Ad", "no combo of the range is left"),
])
def test_range_hit_table_refuses_bad_boards_and_an_emptied_range(board, dead, message):
    with pytest.raises(ValueError, match=message):
        range_hit_table([ids("AsAd")], [1.0], ids(board), ids(dead), tables())
