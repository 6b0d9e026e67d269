"""Exact four-handed counts (kernels.fourhanded): the 3-matching formula against brute force on random graphs, a
board's counts against every opponent triple enumerated directly on small decks, ties of every size included, and
the CUDA walk equal to the CPU's in Numba's simulator."""

from __future__ import annotations

import itertools
import json
import random
import textwrap

import numpy as np
import pytest
from numba import njit

from cuda_simulator import run_in_cuda_simulator

from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, COMBO_CLASS
from kernels.evaluator import cpu as evaluator
from kernels.fourhanded import cpu

add_edge, matchings3_without, matchings2_without = (cpu.graph.add_edge, cpu.graph.matchings3_without,
                                                    cpu.graph.matchings2_without)


@njit
def _graph(edges):
    nbr, deg, s = np.zeros(52, np.uint64), np.zeros(52, np.int64), np.zeros(52, np.int64)
    triangles = 0
    for i in range(edges.shape[0]):
        triangles += add_edge(nbr, deg, s, edges[i, 0], edges[i, 1])
    return nbr, deg, s, triangles


@njit
def _m3(nbr, deg, s, m, triangles, a, b):
    return matchings3_without(nbr, deg, s, m, triangles, a, b)


@njit
def _m2(nbr, deg, m, a, b, c, d):
    return matchings2_without(nbr, deg, m, a, b, c, d)


def _matchings(edges, removed, size):
    live = [e for e in edges if not set(e) & removed]
    return sum(1 for t in itertools.combinations(live, size) if len(set().union(*t)) == 2 * size)


@pytest.mark.slow
def test_matchings_of_a_graph_less_two_or_four_vertices_equal_brute_force():
    rng = random.Random(36)
    for _ in range(300):
        vertices = rng.sample(range(52), rng.randint(6, 12))
        pairs = list(itertools.combinations(vertices, 2))
        edges = rng.sample(pairs, rng.randint(0, len(pairs)))
        nbr, deg, s, triangles = _graph(np.array(edges, dtype=np.int64).reshape(-1, 2))
        a, b = rng.sample(vertices, 2)
        assert _m3(nbr, deg, s, len(edges), triangles, a, b) == _matchings(edges, {a, b}, 3)
        c, d = rng.sample([v for v in vertices if v not in (a, b)], 2)
        assert _m2(nbr, deg, len(edges), a, b, c, d) == _matchings(edges, {a, b, c, d}, 2)


def _direct_counts(strength: dict, combos: list) -> dict:
    """combo → (c0, c1, c2, c3): every unordered triple of card-disjoint opponent combos, none stronger than the
    hero, by how many tie it."""
    counts = {}
    for hero in combos:
        others = [c for c in combos if not set(c) & set(hero)]
        tally = [0, 0, 0, 0]
        for triple in itertools.combinations(others, 3):
            if len(set().union(*triple)) == 6 and all(strength[c] <= strength[hero] for c in triple):
                tally[sum(strength[c] == strength[hero] for c in triple)] += 1
        counts[hero] = tuple(tally)
    return counts


CARD = {f"{r}{s}": 4 * "23456789TJQKA".index(r) + "cdhs".index(s) for r in "23456789TJQKA" for s in "cdhs"}


@pytest.mark.slow
@pytest.mark.parametrize("board, live", [
    ("AsKsQsJsTs", "2c3d4h5c6d7h8c9dTh2d"),  # a royal flush on the board: every triple ties four ways
    ("AcAdKcKdQh", "2c3d4h5c6d7hAhKhQc9s"),  # the board's two pair plays for most: big tie groups, a few better
    ("2c2d7h8sKc", "9h9s9d3c4d5h6c3h4s5c"),  # one nine and a low card tie on 22K98 above the low pairs of cards
    (None, None), (None, None), (None, None),  # random boards and decks
])
def test_a_boards_counts_equal_every_opponent_triple_enumerated(board, live):
    tables = evaluator_tables()
    rng = random.Random(hash((board, live)) % 1000)
    if board is None:
        cards = rng.sample(range(52), 14)
        board_cards, live_cards = cards[:5], cards[5:]
    else:
        board_cards = [CARD[board[i:i + 2]] for i in range(0, 10, 2)]
        live_cards = [CARD[live[i:i + 2]] for i in range(0, len(live), 2)]
    combos = [tuple(sorted(p)) for p in itertools.combinations(live_cards, 2)]
    index = {tuple(c): i for i, c in enumerate(map(tuple, ALL_COMBOS.tolist()))}
    hands = np.array([[*board_cards, *c] for c in combos])
    strength = dict(zip(combos, evaluator.evaluate(hands, tables).tolist()))
    keys = np.sort(np.array([(strength[c] << 11) | index[c] for c in combos], dtype=np.int64))
    counts = cpu.count_subset(keys, cpu.COMBOS)
    expected = _direct_counts(strength, combos)
    assert {c: tuple(counts[index[c]]) for c in combos} == expected
    if board == "AsKsQsJsTs":
        assert all(value[3] > 0 and value[:3] == (0, 0, 0) for value in expected.values())
    if board == "2c2d7h8sKc":
        assert all(sum(v[k] for v in expected.values()) > 0 for k in (1, 2))  # one and two opponents tying, others weaker


@pytest.mark.slow
def test_the_board_walk_sums_each_boards_counts_by_class_within_its_deals():
    """The parallel walk equals the per-board counts summed by class with the boards' weights, and no class gets
    more than its combos' deals; on a royal flush board every combo ties all its triples four ways."""
    tables = evaluator_tables()
    boards = np.array([[48, 44, 40, 36, 32], [0, 5, 10, 15, 20], [51, 47, 43, 39, 2]], dtype=np.int64)
    weights = np.array([4, 24, 12], dtype=np.int64)
    walked = np.array(cpu.tally_boards(boards, weights, ALL_COMBOS, COMBO_CLASS, tables, n_chunks=2))
    expected = np.zeros((4, 169), dtype=np.int64)
    keys = np.empty(1326, dtype=np.int64)
    for board, weight in zip(boards, weights):
        count = cpu._sorted_live_combos(board, cpu.COMBOS, keys, tables.card_key, tables.card_mask, tables.rank_offsets,
                                        tables.rank_values, tables.flush_values)
        per_combo = cpu.count_subset(keys[:count].copy(), cpu.COMBOS)
        np.add.at(expected.T, COMBO_CLASS, weight * per_combo)
    assert np.array_equal(walked, expected)
    triples = 990 * 903 * 820 // 6  # C(45,2) C(43,2) C(41,2) / 3!: opponent triples of a combo on a board
    assert (walked.sum(axis=0) <= weights.sum() * triples * CLASS_COMBO_COUNT).all()
    # each deal's four seats share one pot: over every hero, Σ (12 win + 6 tie_2 + 4 tie_3 + 3 tie_4) = 3 × its deals
    live = sum(int(w) * sum(1 for c in ALL_COMBOS if not set(c) & set(b)) for b, w in zip(boards, weights))
    shares = (12 * walked[0] + 6 * walked[1] + 4 * walked[2] + 3 * walked[3]).sum()
    assert int(shares) == 3 * live * triples
    royal = np.array(cpu.tally_boards(boards[:1], weights[:1], ALL_COMBOS, COMBO_CLASS, tables, n_chunks=1))
    by_class = np.array([sum(1 for c in np.flatnonzero(COMBO_CLASS == k) if not set(ALL_COMBOS[c]) & set(boards[0]))
                         for k in range(169)])
    assert np.array_equal(royal[3], 4 * triples * by_class) and not royal[:3].any()


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.fourhanded import gpu

    boards, weights, combos, classes = (np.array(x, dtype=np.int64) for x in json.loads(sys.stdin.read()))
    counts = gpu.tally_boards(boards, weights, combos, classes, evaluator_tables(), blocks=1)  # one block, both boards
    print(json.dumps(np.array(counts).tolist()))
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_walk_counts_equal_the_cpu_counts_in_simulator():
    """The combos of the tens to kings (16 cards; the simulator takes seconds a combo): on A K Q J 2 every ten makes
    the straight, so big tie groups sit above weaker combos and all four outcomes count (c1 through the 2-matchings,
    four-way ties through the group's graph); the same block then walks T T J Q K (55 live combos in groups of 1 to
    9)."""
    tables = evaluator_tables()
    index = {tuple(c): i for i, c in enumerate(ALL_COMBOS.tolist())}
    keep = np.array(sorted(index[p] for p in itertools.combinations(range(32, 48), 2)))
    combos, classes = ALL_COMBOS[keep], COMBO_CLASS[keep]
    boards = np.array([[CARD[c] for c in ("As", "Kc", "Qd", "Jh", "2c")], [CARD[c] for c in ("Tc", "Td", "Jh", "Qs", "Kd")]])
    weights = np.array([3, 5], dtype=np.int64)
    expected = np.zeros((4, 169), dtype=np.int64)
    keys = np.empty(len(combos), dtype=np.int64)
    for board, weight in zip(boards, weights):
        count = cpu._sorted_live_combos(board, combos, keys, tables.card_key, tables.card_mask, tables.rank_offsets,
                                        tables.rank_values, tables.flush_values)
        np.add.at(expected.T, classes, weight * cpu.count_subset(keys[:count].copy(), combos))
    assert (expected.sum(axis=1) > 0).all()  # every outcome is counted
    payload = json.dumps([boards.tolist(), weights.tolist(), combos.tolist(), classes.tolist()])
    printed = run_in_cuda_simulator(CUDASIM_SCRIPT, stdin=payload)
    assert np.array_equal(np.array(json.loads(printed.splitlines()[0])), expected)


@pytest.mark.slow
def test_every_deal_of_a_fourteen_card_deck_by_an_independent_evaluator():
    """Full brute force on a reduced deck: the tens, jacks and queens of every suit and the king and ace of spades.
    Every board (2,002), hero and triple of opponents among the nine cards left, ranked by phevaluator, equals the
    walk's counts per class (straights, a royal flush and big tie groups included)."""
    from phevaluator import evaluate_cards  # same card numbers (4 × rank + suit, suits c d h s), lower is stronger

    deck = [CARD[r + s] for r in "TJQ" for s in "cdhs"] + [CARD["Ks"], CARD["As"]]
    index = {tuple(c): i for i, c in enumerate(ALL_COMBOS.tolist())}
    keep = np.array(sorted(index[p] for p in itertools.combinations(sorted(deck), 2)))
    boards = np.array(list(itertools.combinations(sorted(deck), 5)), dtype=np.int64)
    walked = np.array(cpu.tally_boards(boards, np.ones(len(boards), np.int64), ALL_COMBOS[keep], COMBO_CLASS[keep],
                                       evaluator_tables(), n_chunks=4))
    local = list(itertools.combinations(range(9), 2))  # the 36 combos of the nine cards a board leaves
    deals = np.array([(h, *t) for h, hero in enumerate(local)
                      for t in itertools.combinations([i for i, c in enumerate(local) if not set(c) & set(hero)], 3)
                      if len({x for i in t for x in local[i]}) == 6])  # (hero, three opponents), cards disjoint
    assert len(deals) == 36 * 105
    brute = np.zeros((4, 169), dtype=np.int64)
    for board in boards.tolist():
        live = [c for c in deck if c not in board]
        combos = [(live[i], live[j]) for i, j in local]
        rank = np.array([evaluate_cards(*board, *c) for c in combos])
        hero, opponents = rank[deals[:, 0]], rank[deals[:, 1:]]
        none_stronger = (opponents >= hero[:, None]).all(axis=1)
        tied = (opponents == hero[:, None]).sum(axis=1)
        classes = COMBO_CLASS[[index[tuple(sorted(c))] for c in combos]][deals[:, 0]]
        np.add.at(brute, (tied[none_stronger], classes[none_stronger]), 1)
    assert (brute.sum(axis=1) > 0).all()  # wins and ties of every size
    assert np.array_equal(walked, brute)
