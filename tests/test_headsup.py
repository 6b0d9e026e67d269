"""Exact heads-up tables: brute force with eval7, internal invariants, published values, CUDA simulator."""

import textwrap

import numpy as np
import pytest
from cuda_simulator import run_in_cuda_simulator

from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages.headsup import headsup_results
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, COMBO_CLASS, format_card, parse_cards, parse_class
from kernels.headsup import cpu
from kernels.headsup.boards import N_BOARDS, board_orbits
from kernels.headsup.tables import BOARDS_PER_MATCHUP, OPPONENT_COMBOS


@pytest.fixture(scope="module")
def tables():
    results, _ = headsup_results(progress=False)
    return results


def test_board_orbits_cover_every_board_once():
    boards, weights = board_orbits()
    assert len(boards) == 134_459
    assert weights.sum() == N_BOARDS
    assert set(np.unique(weights)) <= {1, 2, 3, 4, 6, 8, 12, 24}  # divisors of 24 = |suit permutations|
    assert np.all(np.diff(boards.astype(int), axis=1) > 0)  # sorted, distinct cards


def _eval7_tally(board, combos, combo_class):
    """Brute force on one board with eval7: class-pair wins/ties over every disjoint combo pair."""
    import eval7

    deck = [eval7.Card(format_card(c)) for c in range(52)]
    board_cards = [deck[c] for c in board]
    live = [i for i, (a, b) in enumerate(combos) if a not in board and b not in board]
    value = {i: eval7.evaluate(board_cards + [deck[combos[i][0]], deck[combos[i][1]]]) for i in live}
    win = np.zeros((169, 169), dtype=np.int64)
    tie = np.zeros((169, 169), dtype=np.int64)
    for i in live:
        for j in live:
            if i == j or set(combos[i]) & set(combos[j]):
                continue
            if value[i] > value[j]:
                win[combo_class[i], combo_class[j]] += 1
            elif value[i] == value[j]:
                tie[combo_class[i], combo_class[j]] += 1
    return win, tie


@pytest.mark.slow
def test_board_walk_matches_eval7_brute_force_on_sampled_boards():
    rng = np.random.default_rng(3)
    combos = ALL_COMBOS[np.sort(rng.choice(len(ALL_COMBOS), 260, replace=False))]
    combo_class = COMBO_CLASS[np.isin(np.arange(len(ALL_COMBOS)), np.flatnonzero(np.isin(ALL_COMBOS[:, 0] * 52 + ALL_COMBOS[:, 1], combos[:, 0] * 52 + combos[:, 1])))]
    boards = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(4)])
    weights = np.array([1, 2, 3, 5])
    win, tie, win_vs_random, tie_vs_random, _, _ = cpu.tally_boards(boards, weights, combos, combo_class, evaluator_tables())
    expected_win = np.zeros_like(win)
    expected_tie = np.zeros_like(tie)
    for board, weight in zip(boards.tolist(), weights):
        board_win, board_tie = _eval7_tally(board, combos.tolist(), combo_class.tolist())
        expected_win += weight * board_win
        expected_tie += weight * board_tie
    assert expected_win.sum() > 0 and expected_tie.sum() > 0
    assert np.array_equal(win, expected_win)
    assert np.array_equal(tie, expected_tie)
    assert np.array_equal(win_vs_random, expected_win.sum(axis=1))
    assert np.array_equal(tie_vs_random, expected_tie.sum(axis=1))


def _eval7_combo_matchup(first: str, second: str) -> np.ndarray:
    """(first wins, ties, second wins) by evaluating both hands with eval7 on every one of the 1,712,304 boards."""
    import itertools

    import eval7

    hero, villain = [eval7.Card(first[:2]), eval7.Card(first[2:])], [eval7.Card(second[:2]), eval7.Card(second[2:])]
    dead = {str(c) for c in hero + villain}
    rest = [eval7.Card(format_card(c)) for c in range(52) if format_card(c) not in dead]
    counts = np.zeros(3, dtype=np.int64)
    for board in itertools.combinations(rest, 5):
        a, b = eval7.evaluate([*board, *hero]), eval7.evaluate([*board, *villain])
        counts[0 if a > b else 1 if a == b else 2] += 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("first,second", [("AsKs", "QdQc"), ("7c2d", "AhAs"), ("Th9h", "JhJc")])
def test_combo_matchups_match_eval7_brute_force(first, second):
    a, b, c, d = parse_cards(first + second)
    ours = cpu.combo_matchup_counts(a, b, c, d, *evaluator_tables()[:5])
    assert np.array_equal(ours, _eval7_combo_matchup(first, second))


@pytest.mark.slow
@pytest.mark.parametrize("hero,villain", [("AKs", "QQ"), ("72o", "AA"), ("T9s", "JJ"), ("55", "AKo")])
def test_class_matchups_equal_the_sum_of_their_combo_matchups(tables, hero, villain):
    """The board walk against direct enumeration of every compatible combo pair, board by board."""
    i, j = parse_class(hero), parse_class(villain)
    counts, pairs = np.zeros(3, dtype=np.int64), 0
    for a, b in ALL_COMBOS[COMBO_CLASS == i]:
        for c, d in ALL_COMBOS[COMBO_CLASS == j]:
            if len({a, b, c, d}) == 4:
                counts += cpu.combo_matchup_counts(a, b, c, d, *evaluator_tables()[:5])
                pairs += 1
    assert pairs == tables.pairs[i, j]
    assert np.array_equal(counts, [tables.win[i, j], tables.tie[i, j], tables.loss[i, j]])


def test_combo_matchup_counts_cover_every_board():
    a, b, c, d = parse_cards("AsKsQdQc")
    counts = cpu.combo_matchup_counts(a, b, c, d, *evaluator_tables()[:5])
    assert counts.sum() == BOARDS_PER_MATCHUP
    reverse = cpu.combo_matchup_counts(c, d, a, b, *evaluator_tables()[:5])
    assert np.array_equal(reverse, counts[::-1])


def test_symmetry_invariants(tables):
    assert np.array_equal(tables.win, tables.loss.T)
    assert np.array_equal(tables.tie, tables.tie.T)
    assert np.array_equal(tables.win + tables.tie + tables.loss, tables.pairs * BOARDS_PER_MATCHUP)
    assert np.all(np.diag(tables.win) == np.diag(tables.loss))  # a class against itself is a coin flip
    total = tables.vs_random_win + tables.vs_random_tie + tables.vs_random_loss
    assert np.all(total == OPPONENT_COMBOS * BOARDS_PER_MATCHUP)


def test_compatible_pair_counts(tables):
    aa, aks, ako, kk = (parse_class(x) for x in ("AA", "AKs", "AKo", "KK"))
    assert tables.pairs[aa, aa] == 6  # each AA combo meets exactly one disjoint AA combo
    assert tables.pairs[aa, kk] == 36
    assert tables.pairs[aa, aks] == 6 * 2  # two of the four suited AK survive each AA combo
    assert tables.pairs[aks, ako] == 4 * 6
    # every combo faces 1225 opponent combos in all
    assert np.array_equal((tables.pairs.sum(axis=1)), CLASS_COMBO_COUNT * OPPONENT_COMBOS)


def test_rows_weighted_by_compatible_combos_reproduce_vs_random_exactly(tables):
    """Scalar vs-random tally and the 169-wide class rows were accumulated separately; they must agree."""
    assert np.array_equal(tables.win.sum(axis=1), CLASS_COMBO_COUNT * tables.vs_random_win)
    assert np.array_equal(tables.tie.sum(axis=1), CLASS_COMBO_COUNT * tables.vs_random_tie)
    assert np.array_equal(tables.loss.sum(axis=1), CLASS_COMBO_COUNT * tables.vs_random_loss)


@pytest.mark.parametrize("name,published", [("AA", 0.852), ("KK", 0.824), ("AKs", 0.670), ("72o", 0.346), ("22", 0.503)])
def test_published_vs_random_equities(tables, name, published):
    """Widely published heads-up all-in equities, quoted to 0.1 %."""
    assert tables.vs_random_equity()[parse_class(name)] == pytest.approx(published, abs=0.0005 + 1e-12)


def test_equity_sums_to_one_in_every_matchup(tables):
    equity = tables.matchup_equity()
    assert np.allclose(equity + equity.T, 1.0, rtol=0, atol=1e-12)


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.cards import ALL_COMBOS, COMBO_CLASS
    from kernels.headsup import cpu, gpu

    rng = np.random.default_rng(9)
    tables = evaluator_tables()
    keep = np.sort(rng.choice(len(ALL_COMBOS), 90, replace=False))
    combos, combo_class = ALL_COMBOS[keep], COMBO_CLASS[keep]
    boards = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(2)])
    weights = np.array([4, 24])
    on_cpu = cpu.tally_boards(boards, weights, combos, combo_class, tables)
    on_gpu = gpu.tally_boards(boards, weights, combos, combo_class, tables, blocks=1)  # a block walks several boards
    assert all(a.sum() > 0 for a in on_cpu)
    assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu))
    # 200 combos of classes 0..168 (classes owned by both halves of the threads) on an ordinary board and
    # on a board whose five cards make the best hand (one group: every live pair ties). Every combo on a
    # board would take the simulator many minutes: the sort pads to 2,048 keys whatever the count.
    keep = np.sort(rng.choice(len(ALL_COMBOS), 200, replace=False))
    assert COMBO_CLASS[keep].min() < 128 <= COMBO_CLASS[keep].max()
    two = np.array([[0, 13, 22, 35, 51], [32, 36, 40, 44, 48]])
    on_cpu = cpu.tally_boards(two, np.array([3, 1]), ALL_COMBOS[keep], COMBO_CLASS[keep], tables)
    on_gpu = gpu.tally_boards(two, np.array([3, 1]), ALL_COMBOS[keep], COMBO_CLASS[keep], tables)
    assert all(a.sum() > 0 for a in on_cpu)
    assert all(np.array_equal(a, b) for a, b in zip(on_cpu, on_gpu))
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_board_walk_matches_cpu_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)
