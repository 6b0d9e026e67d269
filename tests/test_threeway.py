"""The class-triple Monte Carlo (kernels.threeway): its counts against exact enumeration and eval7.

* an exact reference: every compatible combo triple of AKs vs QJs vs T9s on every board, enumerated
  with our evaluator (itself tested against eval7), compared with the sampled ordering frequencies
  within 5 standard errors (multinomial);
* an independent reference for repeated, card-heavy classes: eval7 on deals drawn by NumPy;
* symmetry, the index bijection, card-impossible triples, batch splitting, and CPU = CUDA (simulator).
"""

import textwrap
from itertools import combinations

import eval7
import numpy as np
import pytest

import kernels.cards as cards
from generator.core.evaluator_tables import evaluator_tables
from kernels.evaluator import cpu as evaluator
from kernels.sampling.rng import shard_key
from kernels.threeway import cpu
from kernels.threeway.core import N_ORDERINGS, N_TRIPLES, ORDER_CODE, ORDERINGS, triple_classes, triple_index
from cuda_simulator import run_in_cuda_simulator

EVAL7_CARDS = [eval7.Card(cards.format_card(c)) for c in range(52)]


def _classes(*names):
    return np.array([cards.parse_class(n) for n in names], dtype=np.int64)


def _sample(names, boards, seed=7, first_board=0):
    classes = _classes(*names)
    assert list(classes) == sorted(classes), "classes must be given in sorted (index) order"
    index = np.array([triple_index(*classes)])
    counts = np.zeros((1, N_ORDERINGS), dtype=np.int64)
    cpu.simulate(counts, shard_key(seed, 0), first_board, boards, index, classes[None, :], evaluator_tables())
    return counts[0]


def _order(strengths):
    ra, rb, rc = (sum(o > s for o in strengths) for s in strengths)
    return ORDER_CODE[9 * ra + 3 * rb + rc]


def _within_5_sigma(counts, reference_p, reference_n=None):
    """Every ordering's sampled frequency within 5 se of the reference (se of both when it is sampled too)."""
    n = counts.sum()
    p = counts / n
    var = reference_p * (1 - reference_p) / n
    if reference_n is not None:
        var = var + reference_p * (1 - reference_p) / reference_n
    se = np.sqrt(np.maximum(var, 1e-12))
    assert np.all(np.abs(p - reference_p) <= 5 * se + 1e-9), (p, reference_p, se)


def test_orderings_are_the_13_weak_orderings():
    assert N_ORDERINGS == 13 and len({tuple(r) for r in ORDERINGS}) == 13
    assert sorted(tuple(sorted(r)) for r in ORDERINGS).count((0, 0, 0)) == 1  # one 3-way tie
    assert all(ORDER_CODE[9 * a + 3 * b + c] == i for i, (a, b, c) in enumerate(ORDERINGS))


def test_triple_index_is_a_bijection_onto_sorted_triples():
    classes = triple_classes()
    assert classes.shape == (N_TRIPLES, 3) == (818_805, 3)
    assert np.all(classes[:, 0] <= classes[:, 1]) and np.all(classes[:, 1] <= classes[:, 2])
    assert np.array_equal(triple_index(classes[:, 0], classes[:, 1], classes[:, 2]), np.arange(N_TRIPLES))


def test_compatible_combo_counts_against_brute_force():
    rng = np.random.default_rng(5)
    rows = np.concatenate([_classes("AA", "AA", "AA")[None], _classes("AA", "AA", "AKs")[None], _classes("AA", "AA", "KK")[None],
                           np.sort(rng.integers(0, 169, (40, 3)), axis=1)])
    expected = []
    for row in rows:
        combos = [cards.class_combos(c) for c in row]
        expected.append(sum(len({*a, *b, *c}) == 6 for a in combos[0] for b in combos[1] for c in combos[2]))
    got = cpu.compatible_combos(rows)
    assert list(got) == expected
    assert got[0] == 0 and got[1] == 0 and got[2] == 6 * 6  # AA AA KK: 6 ordered pairs of disjoint ace pairs, any of 6 KK


@pytest.mark.slow
def test_card_impossible_triples_never_count():
    assert _sample(("AA", "AA", "AA"), 200).sum() == 0
    assert _sample(("AA", "AA", "AKs"), 200).sum() == 0


@pytest.fixture(scope="module")
def exact_suited_triple():
    """Exact ordering probabilities of AKs vs QJs vs T9s: AKs fixed to spades (suit symmetry), every
    suit of the others disjoint from it, every board of the remaining 46 cards."""
    ace_king = [cards.parse_card("As"), cards.parse_card("Ks")]
    tally = np.zeros(N_ORDERINGS, dtype=np.int64)
    for qj_suit in "cdhs":
        for t9_suit in "cdhs":
            holes = [ace_king, cards.parse_cards(f"Q{qj_suit}J{qj_suit}"), cards.parse_cards(f"T{t9_suit}9{t9_suit}")]
            used = {c for h in holes for c in h}
            if len(used) < 6:
                continue
            rest = np.array([c for c in range(52) if c not in used], dtype=np.int8)
            boards = rest[np.array(list(combinations(range(46), 5)), dtype=np.int64)]
            strengths = [evaluator.evaluate(np.concatenate([boards, np.tile(np.array(h, np.int8), (len(boards), 1))], axis=1),
                                            evaluator_tables()).astype(np.int64) for h in holes]
            sa, sb, sc = strengths
            ra = (sb > sa).astype(np.int64) + (sc > sa)
            rb = (sa > sb).astype(np.int64) + (sc > sb)
            rc = (sa > sc).astype(np.int64) + (sb > sc)
            tally += np.bincount(ORDER_CODE[9 * ra + 3 * rb + rc], minlength=N_ORDERINGS)
    return tally / tally.sum()


@pytest.mark.slow
def test_sampled_orderings_match_exact_enumeration(exact_suited_triple):
    counts = _sample(("AKs", "QJs", "T9s"), 30_000)
    assert counts.sum() > 10_000
    _within_5_sigma(counts, exact_suited_triple)


@pytest.mark.slow
def test_repeated_classes_match_eval7_on_independent_deals():
    names = ("AKo", "AKo", "22")
    counts = _sample(names, 40_000, seed=11)
    rng = np.random.default_rng(11)
    combos = [cards.class_combos(c) for c in _classes(*names)]
    reference = np.zeros(N_ORDERINGS, dtype=np.int64)
    while reference.sum() < 6_000:
        holes = [c[rng.integers(len(c))] for c in combos]
        used = {int(x) for h in holes for x in h}
        if len(used) < 6:
            continue
        board = rng.choice([c for c in range(52) if c not in used], 5, replace=False)
        strengths = [eval7.evaluate([EVAL7_CARDS[int(x)] for x in (*h, *board)]) for h in holes]
        reference[_order(strengths)] += 1
    _within_5_sigma(counts, reference / reference.sum(), reference.sum())


@pytest.mark.slow
def test_equal_classes_are_exchangeable():
    """Seats b and c hold the same class: ranks (ra, rb, rc) and (ra, rc, rb) are equally likely."""
    counts = _sample(("AKs", "TT", "TT"), 40_000, seed=3)
    n = counts.sum()
    for i, (a, b, c) in enumerate(ORDERINGS):
        j = ORDER_CODE[9 * a + 3 * c + b]
        diff = (counts[i] - counts[j]) / n
        se = np.sqrt((counts[i] + counts[j]) / n**2)
        assert abs(diff) <= 5 * se + 1e-12


def test_batches_add_up_to_one_run():
    whole = _sample(("AQs", "KK", "76s"), 600)
    split = _sample(("AQs", "KK", "76s"), 250) + _sample(("AQs", "KK", "76s"), 350, first_board=250)
    assert whole.sum() > 0 and np.array_equal(whole, split)


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.sampling.rng import shard_key
    from kernels.threeway import cpu, gpu
    from kernels.threeway.core import triple_classes

    classes = triple_classes()
    rows = np.array([0, 1, 5, 1000, 250_000, 818_804], dtype=np.int64)
    on_cpu = np.zeros((rows.size, 13), dtype=np.uint32)
    on_gpu = np.zeros((rows.size, 13), dtype=np.uint32)
    cpu.simulate(on_cpu, shard_key(9, 2), 40, 8, rows, classes[rows], evaluator_tables())  # 8 boards: the simulator evaluates 1,326 combos per board in Python
    gpu.simulate(on_gpu, shard_key(9, 2), 40, 8, rows, classes[rows], evaluator_tables())
    assert on_cpu.sum() > 0 and np.array_equal(on_cpu, on_gpu), (on_cpu, on_gpu)
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_counts_match_cpu_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)
