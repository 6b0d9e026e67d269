"""Distribution-free intervals (empirical Bernstein on first seats): the formula, its coverage, and the
published intervals against the exact heads-up and three-handed equities."""

import numpy as np
import pytest

from generator.core.config import load_config
from multiway_helpers import multiway_run
from generator.compute.stages import multiway
from generator.compute.stages.headsup import headsup_results
from generator.compute.stages.threehanded import threehanded_results
from kernels.multiway.bounds import empirical_bernstein_interval, first_seat_equity
from kernels.multiway.layout import BLOCK_DEALS, CELLS, GROUPS


def test_the_bound_matches_maurer_pontil_on_a_hand_computed_case():
    """Two cells with values 0 and 1, 30 and 70 samples: mean 0.7, unbiased variance 0.21·100/99."""
    counts = np.zeros(CELLS)
    counts[:2] = 30, 70
    values = np.zeros((CELLS, 1))
    values[1] = 1.0
    low, high = empirical_bernstein_interval(counts, values, delta=0.05)
    log_term = np.log(4 / 0.05)
    half = np.sqrt(2 * (0.21 * 100 / 99) * log_term / 100) + 7 * log_term / (3 * 99)
    assert low[0] == pytest.approx(0.7 - half, abs=1e-12) and high[0] == pytest.approx(min(0.7 + half, 1.0), abs=1e-12)


def test_coverage_is_at_least_nominal_on_skewed_bounded_samples():
    """Samples with a heavy atom (the case where normal intervals under-cover): at least 95% coverage."""
    rng = np.random.default_rng(4)
    values = np.zeros((CELLS, 1))
    values[1], values[2] = 1.0, 0.5
    probabilities = np.zeros(CELLS)
    probabilities[:3] = 0.97, 0.02, 0.01
    mean = float(probabilities @ values[:, 0])
    replications, samples = 4000, 300
    counts = rng.multinomial(samples, probabilities, size=replications)
    low, high = empirical_bernstein_interval(counts, values)
    coverage = np.mean((low[:, 0] <= mean) & (mean <= high[:, 0]))
    assert coverage >= 0.95, coverage  # a valid bound; it is conservative, so coverage is near 1


@pytest.fixture(scope="module")
def document(tmp_path_factory):
    controls = multiway.multiway_controls(headsup_results(progress=False)[0])
    work = tmp_path_factory.mktemp("bounds")
    (work / "site.yaml").write_text("multiway:\n  seed: 77\n  checkpoint_every: 1000s\n")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(work / "cache"))
        return multiway.run_multiway(multiway_run(load_config(work / "site.yaml"), budget_seconds=600, target_se=1e-12, max_deals=8 * GROUPS * BLOCK_DEALS),
                                     work / "site", controls)


@pytest.mark.slow
def test_published_rigorous_intervals_contain_the_exact_equities_and_are_wider_than_the_clt_ones(document):
    exact = {2: None, 3: np.array(threehanded_results(progress=False)["equity"])}
    tables, _ = headsup_results(progress=False)
    exact[2] = tables.vs_random_equity()
    for players, truth in exact.items():
        block = document["by_players"][str(players)]
        intervals = np.array(block["ci_rigorous_equity"], dtype=float)
        inside = (intervals[:, 0] <= truth) & (truth <= intervals[:, 1])
        assert inside.mean() >= 0.95, (players, np.flatnonzero(~inside))  # each interval is a ≥ 95% bound
        if players == 3:
            ratio = (intervals[:, 1] - intervals[:, 0]) / (2 * 1.959963984540054 * np.array(block["se_equity"]))
            assert np.median(ratio) > 1  # first seats only, no controls: wider than the CLT interval


def test_first_seat_equity_is_a_probability_and_one_table_at_ten_players():
    values = first_seat_equity()
    assert values.shape == (CELLS, 9) and values.min() >= 0 and values.max() <= 1
    assert values[0, 0] == 0.0  # beats nobody, ties nobody: equity 0 at every table size
