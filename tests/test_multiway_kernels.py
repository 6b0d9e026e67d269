"""Multiway kernels: each seat's cell and its outcome probabilities checked by brute force, reproducible
streams, CPU = CUDA (simulator), and exactness on an enumerable tiny deck."""

import itertools
import textwrap
import warnings

import numpy as np
import pytest
from cuda_simulator import run_in_cuda_simulator

from generator.core.evaluator_tables import evaluator_tables
from kernels.multiway import cpu
from kernels.multiway.estimates import TARGETS, estimate_cells
from kernels.cards import class_of_cards
from kernels.evaluator import cpu as evaluator
from kernels.sampling.dealing import compile_dealing
from kernels.multiway.layout import CELL_BEATEN, CELL_TIED, CELLS, FIRST_SEAT_BASE, FULL_DECK, MAX_SEATS, Q_BASE, QQ_ENTRY, new_tally, pair_class_table
from kernels.sampling.rng import compile_rng, shard_key
from kernels.multiway.statistics import event_probabilities, group_statistics
from multiway_helpers import TINY_SEATS, linear_percentile, simulate_tiny, tiny_exact


@pytest.fixture(scope="module")
def tables():
    return evaluator_tables()


@pytest.fixture(scope="module")
def percentile():
    return linear_percentile()


@pytest.fixture(scope="module")
def exact(tables, percentile):
    return tiny_exact(tables, percentile)


def _full_deck_tally(tables, percentile, seed, ranges, block_deals=128, shard=0):
    tally = new_tally()
    for first, count in ranges:
        cpu.simulate(tally, shard_key(seed, shard), first, count, block_deals, FULL_DECK, MAX_SEATS, tables, percentile, pair_class_table())
    return tally


def _cell(beaten, tied):
    return int(np.flatnonzero((CELL_BEATEN == beaten) & (CELL_TIED == tied))[0])


@pytest.mark.parametrize("seats", [3, 6, 10])
def test_outcome_probabilities_average_every_choice_of_opponents(seats):
    """P(win), P(k-way tie) of a cell = the outcome averaged over every (n-1)-subset of the other hands."""
    table = event_probabilities(seats)
    rng = np.random.default_rng(seats)
    for _ in range(40):
        strengths = rng.integers(0, 4, size=seats)  # few values: many ties
        hero, others = strengths[0], strengths[1:]
        cell = _cell(int(np.sum(others < hero)), int(np.sum(others == hero)))
        for players in range(2, seats + 1):
            events = np.zeros(MAX_SEATS)
            tables = list(itertools.combinations(others, players - 1))
            for opponents in tables:
                if max(opponents) == hero:
                    events[opponents.count(hero)] += 1  # k-way tie at index k - 1
                elif max(opponents) < hero:
                    events[0] += 1
            assert np.allclose(table[cell, players - 2], events / len(tables), rtol=0, atol=1e-15)
        assert not table[cell, seats - 1 :].any()  # no tables larger than the deal


def _host_tally(seed, blocks, block_deals, deck, seats, tables, percentile):
    """The tally the kernel must produce, from the same deals regenerated in Python and a direct count per seat."""
    rng = compile_rng(lambda function: function)
    deal_cards = compile_dealing(lambda function: function, rng).deal_cards
    tally = new_tally()
    scratch = np.empty(deck.size, dtype=np.uint8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # uint64 wrap-around of NumPy scalars is the intended arithmetic
        for block in range(blocks):
            block_key = rng.child(shard_key(seed, 0), np.uint64(block))
            for deal in range(block_deals):
                deal_cards(scratch, deck, deck.size, 2 * seats + 5, rng.child(block_key, np.uint64(deal)))
                hands = scratch[: 2 * seats].reshape(seats, 2)
                rows = np.concatenate([hands, np.broadcast_to(scratch[2 * seats : 2 * seats + 5], (seats, 5))], axis=1)
                strength = evaluator.evaluate(rows, tables).astype(np.int64)
                for seat in range(seats):
                    others = np.delete(strength, seat)
                    row = tally[block % tally.shape[0], class_of_cards(int(hands[seat, 0]), int(hands[seat, 1]))]
                    cell = _cell(int(np.sum(others < strength[seat])), int(np.sum(others == strength[seat])))
                    q = int(percentile[strength[seat]])
                    row[cell] += 1
                    row[Q_BASE + cell] += q
                    row[QQ_ENTRY] += q * q
                    row[FIRST_SEAT_BASE + cell] += seat == 0
    return tally


@pytest.mark.slow
@pytest.mark.parametrize("seats", [10, 4])
def test_kernel_tally_equals_a_direct_count_of_the_same_deals(tables, percentile, seats):
    tally = new_tally()
    cpu.simulate(tally, shard_key(3, 0), 0, 3, 40, FULL_DECK, seats, tables, percentile, pair_class_table())
    assert np.array_equal(tally, _host_tally(3, 3, 40, FULL_DECK, seats, tables, percentile))
    assert tally[..., :CELLS].sum() == 3 * 40 * seats


def test_counts_depend_only_on_seed_shard_and_blocks_not_on_how_runs_are_split(tables, percentile):
    whole = _full_deck_tally(tables, percentile, 7, [(0, 70)])
    assert np.array_equal(whole, _full_deck_tally(tables, percentile, 7, [(0, 3), (3, 40), (43, 27)]))
    assert group_statistics(whole).samples.sum() == 70 * 128 * MAX_SEATS
    assert not np.array_equal(whole, _full_deck_tally(tables, percentile, 8, [(0, 70)]))
    assert not np.array_equal(whole, _full_deck_tally(tables, percentile, 7, [(0, 70)], shard=1))


def test_gain_over_one_game_equals_cv_gain_where_there_is_one_table_and_exceeds_it_below(tables, percentile):
    """At n = seats a sample is one table's outcome, so gain = cv_gain; at smaller n averaging adds to it."""
    tally = _full_deck_tally(tables, percentile, 5, [(0, 64)], block_deals=256)
    zeros = np.zeros(169)  # gains do not depend on the controls' means
    est = estimate_cells(group_statistics(tally), zeros, zeros, zeros, MAX_SEATS)
    equity = TARGETS.index("equity")
    finite = np.isfinite(est.cv_gain[:, -1, equity])
    assert finite.sum() > 150
    assert np.allclose(est.gain[finite, -1, equity], est.cv_gain[finite, -1, equity], rtol=1e-9)
    assert np.all(np.isinf(est.gain[:, 0, equity]))  # n = 2: the controls are the outcome
    for column in range(1, 5):  # n = 3..6
        assert np.median(est.gain[:, column, equity] / est.cv_gain[:, column, equity]) > 1.2


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import warnings; warnings.filterwarnings("ignore")  # uint64 wrap-around warnings of NumPy scalars
    import os; os.environ["ALLIN_NUMBA_CACHE"] = "off"  # kernels compiled for 4 groups stay in this process
    import numpy as np
    from kernels.multiway import layout
    layout.GROUPS = 4  # both kernels read it at import: a grid of 4 thread blocks then holds several RNG blocks each
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.multiway import cpu, gpu
    from kernels.multiway.layout import CELLS, FIRST_SEAT_BASE, FULL_DECK, MAX_SEATS, Q_BASE, new_tally, pair_class_table
    from kernels.sampling.rng import shard_key
    from multiway_helpers import linear_percentile

    tables, percentile, pairs = evaluator_tables(), linear_percentile(), pair_class_table()
    tens_up = np.arange(32, 52, dtype=np.uint8)  # 20 cards, T to A: a board straight ties every seat (6.6% of boards)
    # (deck, seats, first block, blocks, deals a block, grid): a grid of 3 (not a multiple of GROUPS) gives one RNG
    # block to each thread block, in two launches; a grid of GROUPS gives its thread blocks 2-3 RNG blocks of one group
    for deck, seats, first, blocks, deals, grid in ((FULL_DECK, MAX_SEATS, 5, 5, 6, 3), (tens_up, 5, 2, 10, 16, 4)):
        on_gpu, on_cpu = new_tally(), new_tally()
        inputs = gpu.DeviceInputs(tables, percentile, pairs, deck)
        gpu.simulate(on_gpu, shard_key(11, 2), first, blocks, deals, inputs, seats, grid=grid)
        cpu.simulate(on_cpu, shard_key(11, 2), first, blocks, deals, deck, seats, tables, percentile, pairs)
        assert on_cpu.sum() > 0 and np.array_equal(on_gpu, on_cpu), seats
        assert set(np.flatnonzero(on_cpu.sum(axis=(1, 2)))) == set(range(4))
    shared = slice(0, gpu.SHARED_CELLS)
    global_only = slice(gpu.SHARED_CELLS, CELLS)
    for base in (0, Q_BASE, FIRST_SEAT_BASE):  # the last run counted in the shared counters and the global atomics
        assert on_cpu[:, :, base:][:, :, shared].sum() > 0 and on_cpu[:, :, base:][:, :, global_only].sum() > 0
    assert gpu.blocks_per_thread_block(4096, MAX_SEATS, 1023) == 12
    print("cuda-sim-ok")
    """
)


@pytest.mark.slow
def test_cuda_kernel_counts_equal_cpu_counts_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)


def _tiny_estimates(tables, percentile, exact, seed, blocks, block_deals):
    """Estimates ``(classes present, 9, T)`` of a tiny-deck run."""
    present, win, tie_k, equity, q_mean = exact
    tally = simulate_tiny(cpu.simulate, seed, blocks, block_deals, tables, percentile)
    stats = group_statistics(tally[:, present])
    return estimate_cells(stats, win[present, 0], tie_k[present, 0, 0], q_mean[present], TINY_SEATS)


def _exact_targets(exact):
    """Exact win, tie, equity of the tiny game, ``(169, 2 columns, 3)``."""
    present, win, tie_k, equity, _ = exact
    return np.stack([win, tie_k.sum(-1), equity], axis=-1)


MAIN = [TARGETS.index(name) for name in ("win", "tie", "equity")]


def test_tiny_deck_estimates_agree_with_exact_enumeration(tables, percentile, exact):
    present = exact[0]
    truth = _exact_targets(exact)[present]
    est = _tiny_estimates(tables, percentile, exact, seed=1, blocks=64, block_deals=2048)
    mean, se = est.mean[:, :2][..., MAIN], est.se[:, :2][..., MAIN]
    plain, se_plain = est.mean_plain[:, :2][..., MAIN], est.se_plain[:, :2][..., MAIN]
    # heads-up: the controls are the outcome, so the control-variate estimate is the exact value
    assert np.allclose(mean[:, 0], truth[:, 0], atol=1e-12) and np.all(se[:, 0] == 0)
    # three-handed (and plain heads-up): within 5 standard errors, errors honest in size
    assert np.all(np.abs(mean[:, 1] - truth[:, 1]) <= 5 * se[:, 1])
    assert np.all(np.abs(plain - truth) <= 5 * se_plain)
    assert np.all(se[:, 1] < se_plain[:, 1])
    tie_columns = [TARGETS.index("tie_2"), TARGETS.index("tie_3")]
    assert np.all(np.abs(est.mean[:, 1, tie_columns] - exact[2][present][:, 1]) <= 5 * est.se[:, 1, tie_columns])


@pytest.mark.slow
def test_reported_95_percent_intervals_cover_exact_values_95_percent_of_the_time(tables, percentile, exact):
    """Many independent seeds × every class × win/tie/equity, three-handed (CV) and heads-up (plain).

    The band is derived from the spread expected for these intervals. The 54 intervals of one seed
    are correlated (win, tie and equity of a class come from the same samples, and all classes from
    the same deals), so they are not 54 Bernoulli trials; but the seeds are independent, so the
    per-seed coverages are i.i.d. and their spread gives the standard deviation of the overall
    coverage, correlation included (measured: 1.33 times the variance of 5,400 independent
    intervals, sd 0.0034). It is never taken below the binomial sd of independent intervals. A band
    of 5 sd (≈ ±0.017) then fails by chance with probability < 1e-6.
    """
    present = exact[0]
    truth = _exact_targets(exact)[present]
    per_seed = []
    for seed in range(100, 200):
        est = _tiny_estimates(tables, percentile, exact, seed=seed, blocks=32, block_deals=256)
        three_handed = np.abs(est.mean[:, 1][:, MAIN] - truth[:, 1]) <= 1.96 * est.se[:, 1][:, MAIN]
        heads_up = np.abs(est.mean_plain[:, 0][:, MAIN] - truth[:, 0]) <= 1.96 * est.se_plain[:, 0][:, MAIN]
        per_seed.append(np.mean([three_handed, heads_up]))
    per_seed = np.array(per_seed)
    intervals = per_seed.size * 2 * truth.shape[0] * len(MAIN)
    coverage = per_seed.mean()
    sd = max(per_seed.std(ddof=1) / np.sqrt(per_seed.size), np.sqrt(0.95 * 0.05 / intervals))
    print(f"coverage of 95% intervals: {coverage:.4f} over {intervals} intervals, sd {sd:.4f}")
    assert abs(coverage - 0.95) <= 5 * sd, (coverage, sd)
