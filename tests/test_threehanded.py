"""Exact three-handed counts: the counting of opponent pairs against direct enumeration of the pairs.

The kernel never enumerates opponent pairs; these tests do, with eval7 for the hand strengths
(independent of our evaluator), on boards rich in ties (a royal flush on board: every deal is a
3-way tie; a straight on board; paired boards) and on random boards. Identity: over all heroes of a
board the equities of the three seats sum to one deal each (6·win + 3·tie2 + 2·tie3 = 2·total).
"""

import textwrap

import eval7
import numpy as np
import pytest
from numba import njit

import kernels.cards as cards
from generator.core.evaluator_tables import evaluator_tables
from kernels.threehanded import cpu
from kernels.threehanded.core import OPPONENT_PAIRS
from cuda_simulator import run_in_cuda_simulator

EVAL7_CARDS = [eval7.Card(cards.format_card(c)) for c in range(52)]


@njit
def _enumerate_pairs(strength, first, second, combo_class):
    """For every hero combo, classify every unordered pair of disjoint opponent combos disjoint from it."""
    win = np.zeros(169, dtype=np.int64)
    tie2 = np.zeros(169, dtype=np.int64)
    tie3 = np.zeros(169, dtype=np.int64)
    pairs = np.zeros(169, dtype=np.int64)
    n = strength.size
    for h in range(n):
        x, y, s = first[h], second[h], strength[h]
        for i in range(n):
            if first[i] == x or first[i] == y or second[i] == x or second[i] == y:
                continue
            for j in range(i + 1, n):
                a, b = first[j], second[j]
                if a == x or a == y or b == x or b == y or a == first[i] or a == second[i] or b == first[i] or b == second[i]:
                    continue
                pairs[combo_class[h]] += 1
                below = (strength[i] < s) + (strength[j] < s)
                equal = (strength[i] == s) + (strength[j] == s)
                if below == 2:
                    win[combo_class[h]] += 1
                elif below == 1 and equal == 1:
                    tie2[combo_class[h]] += 1
                elif equal == 2:
                    tie3[combo_class[h]] += 1
    return win, tie2, tie3, pairs


def brute_force(board):
    """(win, tie2, tie3, pairs) per hero class on ``board``, by enumerating opponent pairs (eval7 strengths)."""
    live = [(a, b) for a, b in cards.ALL_COMBOS.tolist() if a not in board and b not in board]
    board_cards = [EVAL7_CARDS[c] for c in board]
    strength = np.array([eval7.evaluate(board_cards + [EVAL7_CARDS[a], EVAL7_CARDS[b]]) for a, b in live])
    first, second = np.array([a for a, _ in live]), np.array([b for _, b in live])
    classes = np.array([cards.class_of_cards(a, b) for a, b in live])
    return _enumerate_pairs(strength, first, second, classes)


BOARDS = {
    "royal flush on board": "AhKhQhJhTh",
    "straight on board": "9c8d7h6s5c",
    "two pair on board": "KcKd7h7s2c",
    "trips on board": "QcQdQh4s2d",
    "rainbow": "Ah9d5c3s2h",
}


@pytest.mark.slow
@pytest.mark.parametrize("board", list(BOARDS.values()), ids=list(BOARDS))
def test_counting_equals_direct_enumeration_of_opponent_pairs(board):
    ids = cards.parse_cards(board, count=5)
    expected = brute_force(ids)
    got = cpu.tally_boards(np.array([ids]), np.array([1]), cards.ALL_COMBOS, cards.COMBO_CLASS, evaluator_tables())
    for name, ours, theirs in zip(("win", "tie2", "tie3"), got, expected[:3]):
        assert np.array_equal(ours, theirs), name
    combos_on_board = np.bincount(
        [cards.class_of_cards(a, b) for a, b in cards.ALL_COMBOS.tolist() if a not in ids and b not in ids], minlength=169
    )
    assert np.array_equal(expected[3], combos_on_board * OPPONENT_PAIRS)  # the pair count the tables assume


@pytest.mark.slow
def test_random_boards_and_the_one_deal_identity():
    rng = np.random.default_rng(12)
    boards = np.array([rng.choice(52, 5, replace=False) for _ in range(3)])
    weights = np.array([1, 2, 3])
    win, tie2, tie3 = cpu.tally_boards(boards, weights, cards.ALL_COMBOS, cards.COMBO_CLASS, evaluator_tables())
    expected = [sum(w * part for w, part in zip(weights, parts)) for parts in zip(*(brute_force(b.tolist())[:3] for b in boards))]
    assert all(np.array_equal(a, b) for a, b in zip((win, tie2, tie3), expected))
    heroes = weights.sum() * 1081
    # each deal (3 hands and a board) is seen from each of its 3 seats; equities of a deal add up to one
    assert 6 * win.sum() + 3 * tie2.sum() + 2 * tie3.sum() == 2 * heroes * OPPONENT_PAIRS


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.cards import ALL_COMBOS, COMBO_CLASS
    from kernels.threehanded import cpu, gpu

    rng = np.random.default_rng(3)
    keep = np.sort(rng.choice(len(ALL_COMBOS), 120, replace=False))
    combos, combo_class = ALL_COMBOS[keep], COMBO_CLASS[keep]
    boards = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(4)])
    weights = np.array([1, 4, 12, 24])
    tables = evaluator_tables()
    on_cpu = cpu.tally_boards(boards, weights, combos, combo_class, tables)
    on_gpu = gpu.tally_boards(boards, weights, combos, combo_class, tables, blocks=1)
    assert all(a.sum() > 0 for a in on_cpu)
    assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu))
    # every combo on one board (1,081 heroes over 128 threads, full rows of card positions), and a
    # royal flush on board (one strength group: every pair of opponents is a 3-way tie)
    full = np.array([[0, 13, 22, 35, 51]])  # 2c 5d 7h Ts As
    on_cpu = cpu.tally_boards(full, np.array([3]), ALL_COMBOS, COMBO_CLASS, tables)
    on_gpu = gpu.tally_boards(full, np.array([3]), ALL_COMBOS, COMBO_CLASS, tables)
    assert all(a.sum() > 0 for a in on_cpu)
    assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu))
    royal = np.array([[32, 36, 40, 44, 48]])  # Tc Jc Qc Kc Ac
    on_cpu = cpu.tally_boards(royal, np.array([2]), ALL_COMBOS, COMBO_CLASS, tables)
    on_gpu = gpu.tally_boards(royal, np.array([2]), ALL_COMBOS, COMBO_CLASS, tables)
    assert on_cpu[0].sum() == 0 and on_cpu[1].sum() == 0 and on_cpu[2].sum() == 2 * 1081 * 446985
    assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu))
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_counts_match_cpu_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)


@pytest.mark.slow
def test_a_subset_of_combos_counts_only_opponents_from_the_subset():
    """With part of the combos (as the simulator test uses), pairs outside the list are neither beaten nor tied."""
    rng = np.random.default_rng(5)
    keep = np.sort(rng.choice(len(cards.ALL_COMBOS), 300, replace=False))
    combos, combo_class = cards.ALL_COMBOS[keep], cards.COMBO_CLASS[keep]
    board = cards.parse_cards("Th9h8c2d2s", count=5)
    live = [i for i, (a, b) in enumerate(combos.tolist()) if a not in board and b not in board]
    board_cards = [EVAL7_CARDS[c] for c in board]
    strength = np.array([eval7.evaluate(board_cards + [EVAL7_CARDS[combos[i, 0]], EVAL7_CARDS[combos[i, 1]]]) for i in live])
    expected = _enumerate_pairs(strength, combos[live, 0], combos[live, 1], combo_class[live])
    got = cpu.tally_boards(np.array([board]), np.array([1]), combos, combo_class, evaluator_tables())
    assert all(np.array_equal(a, b) for a, b in zip(got, expected[:3]))
