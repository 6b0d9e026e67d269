"""Multiway kernels: reproducible streams, CPU = CUDA (simulator), and exactness on an enumerable tiny deck."""

import textwrap

import numpy as np
import pytest
from cuda_simulator import run_in_cuda_simulator

from generator.evaluator_tables import evaluator_tables
from kernels.multiway import cpu
from kernels.multiway.estimates import TARGETS, estimate_cells
from kernels.multiway.layout import FULL_DECK, MAX_SEATS, new_tally, pair_class_table
from kernels.multiway.rng import shard_key
from kernels.multiway.statistics import group_statistics
from multiway_helpers import linear_percentile, simulate_tiny, tiny_exact


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


def test_counts_depend_only_on_seed_shard_and_blocks_not_on_how_runs_are_split(tables, percentile):
    whole = _full_deck_tally(tables, percentile, 7, [(0, 70)])
    assert np.array_equal(whole, _full_deck_tally(tables, percentile, 7, [(0, 3), (3, 40), (43, 27)]))
    assert group_statistics(whole).samples.sum() == 70 * 128 * MAX_SEATS
    assert not np.array_equal(whole, _full_deck_tally(tables, percentile, 8, [(0, 70)]))
    assert not np.array_equal(whole, _full_deck_tally(tables, percentile, 7, [(0, 70)], shard=1))


CUDASIM_SCRIPT = textwrap.dedent(
    """
    import warnings; warnings.filterwarnings("ignore")  # uint64 wrap-around warnings of NumPy scalars
    import numpy as np
    from generator.evaluator_tables import evaluator_tables
    from kernels.multiway import cpu, gpu
    from kernels.multiway.layout import FULL_DECK, MAX_SEATS, new_tally, pair_class_table
    from kernels.multiway.rng import shard_key
    from multiway_helpers import TINY_DECK, TINY_SEATS, linear_percentile

    tables, percentile, pairs = evaluator_tables(), linear_percentile(), pair_class_table()
    for deck, seats, deals in ((FULL_DECK, MAX_SEATS, 6), (TINY_DECK, TINY_SEATS, 10)):
        on_gpu, on_cpu = new_tally(), new_tally()
        gpu.simulate(on_gpu, shard_key(11, 2), 5, 2, deals, gpu.DeviceInputs(tables, percentile, pairs, deck), seats, max_grid=2)
        cpu.simulate(on_cpu, shard_key(11, 2), 5, 2, deals, deck, seats, tables, percentile, pairs)
        assert on_cpu.sum() > 0 and np.array_equal(on_gpu, on_cpu), seats
    print("cuda-sim-ok")
    """
)


def test_cuda_kernel_counts_equal_cpu_counts_in_simulator():
    run_in_cuda_simulator(CUDASIM_SCRIPT)


def _tiny_estimates(tables, percentile, exact, seed, blocks, block_deals):
    """Estimates ``(classes present, 9, T)`` of a tiny-deck run."""
    present, win, tie_k, equity, q_mean = exact
    tally = simulate_tiny(cpu.simulate, seed, blocks, block_deals, tables, percentile)
    stats = group_statistics(tally[:, present])
    return estimate_cells(stats, win[present, 0], tie_k[present, 0, 0], q_mean[present])


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


def test_reported_95_percent_intervals_cover_exact_values_95_percent_of_the_time(tables, percentile, exact):
    """Many independent seeds × every class × win/tie/equity, three-handed (CV) and heads-up (plain)."""
    present = exact[0]
    truth = _exact_targets(exact)[present]
    hits = []
    for seed in range(100, 200):
        est = _tiny_estimates(tables, percentile, exact, seed=seed, blocks=32, block_deals=256)
        hits.append(np.abs(est.mean[:, 1][:, MAIN] - truth[:, 1]) <= 1.96 * est.se[:, 1][:, MAIN])
        hits.append(np.abs(est.mean_plain[:, 0][:, MAIN] - truth[:, 0]) <= 1.96 * est.se_plain[:, 0][:, MAIN])
    coverage = np.mean(hits)
    print(f"coverage of 95% intervals: {coverage:.4f} over {np.size(hits)} intervals")
    assert 0.93 <= coverage <= 0.97, coverage
