"""The exact three-handed table as published: consistent counts, the CLI, and the Monte Carlo's n = 3
column tested against it (coverage of its 95% intervals over all 169 classes and several seeds)."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from generator.core.config import load_config
from multiway_helpers import multiway_run
from generator.compute.stages import multiway
from generator.compute.stages.headsup import headsup_results
from generator.compute.stages.threehanded import DEALS_PER_HERO, threehanded_results
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.multiway.control_variates import Z_975
from kernels.multiway.layout import BLOCK_DEALS, GROUPS

SEEDS = range(8)


@pytest.fixture(scope="module")
def exact():
    return threehanded_results(progress=False)


def test_counts_add_up_and_every_deal_is_shared_out(exact):
    win, tie2, tie3, loss, total = (np.array(exact[k], dtype=np.int64) for k in ("win", "tie_2", "tie_3", "loss", "total"))
    assert np.array_equal(win + tie2 + tie3 + loss, total) and np.all(loss > 0) and np.all(tie3 > 0)
    assert np.array_equal(total, CLASS_COMBO_COUNT * DEALS_PER_HERO)
    # every deal has three seats whose equities add up to one: Σ (6 win + 3 tie2 + 2 tie3) = 2 Σ total
    assert int((6 * win + 3 * tie2 + 2 * tie3).sum()) == 2 * int(total.sum())
    equity = np.array(exact["equity"])
    assert np.allclose(equity, (6 * win + 3 * tie2 + 2 * tie3) / (6 * total), rtol=0, atol=1e-12)
    assert CLASS_NAMES[int(equity.argmax())] == "AA" and CLASS_NAMES[int(equity.argmin())] in ("32o", "72o", "42o")


def test_cli_three_handed_is_exact(exact):
    row = json.loads(CliRunner().invoke(cli, ["equity", "AKs", "--players", "3", "--json"]).stdout)
    index = CLASS_NAMES.index("AKs")
    assert row["exact"] is True and row["players"] == 3 and row["counts"]["total"] == exact["total"][index]
    assert row["equity"] == pytest.approx(exact["equity"][index], abs=1e-12)
    assert row["tie"] == pytest.approx(row["tie_k"]["2"] + row["tie_k"]["3"], abs=1e-15)


@pytest.fixture(scope="module")
def monte_carlo(tmp_path_factory):
    """n = 3 estimates and standard errors of independent Monte Carlo runs (seeds), real controls."""
    controls = multiway.multiway_controls(headsup_results(progress=False)[0])
    rows = []
    with pytest.MonkeyPatch.context() as patch:
        for seed in SEEDS:
            work = tmp_path_factory.mktemp(f"seed{seed}")
            (work / "site.yaml").write_text(f"multiway:\n  seed: {seed}\n  checkpoint_every: 1000s\n")
            patch.setenv("ALLIN_CACHE_DIR", str(work / "cache"))
            document = multiway.run_multiway(multiway_run(load_config(work / "site.yaml"), budget_seconds=600, target_se=1e-12, max_deals=4 * GROUPS * BLOCK_DEALS),
                                             work / "site", controls)
            block = document["by_players"]["3"]
            rows.append((np.array(block["equity"]), np.array(block["se_equity"])))
    return rows


@pytest.mark.slow
def test_monte_carlo_intervals_cover_the_exact_values_as_often_as_they_claim(exact, monte_carlo):
    """Coverage of the 95% intervals over 169 classes × 8 seeds. Intervals of one seed share deals (they
    are correlated), seeds are independent: the band is 5 standard errors of the mean of the 8 per-seed
    coverages, estimated from their spread and never below the binomial sd of 169·8 independent intervals."""
    truth = np.array(exact["equity"])
    z = np.array([(estimate - truth) / se for estimate, se in monte_carlo])  # (seeds, 169)
    per_seed = (np.abs(z) <= Z_975).mean(axis=1)
    coverage = per_seed.mean()
    binomial_sd = np.sqrt(0.95 * 0.05 / z.size)
    sd = max(per_seed.std(ddof=1) / np.sqrt(len(per_seed)), binomial_sd)
    assert abs(coverage - 0.95) <= 5 * sd, (coverage, sd, per_seed)
    assert np.all(np.abs(z) < 6), np.abs(z).max()  # no cell far outside its interval
    assert abs(z.mean()) <= 5 * z.mean(axis=1).std(ddof=1) / np.sqrt(len(SEEDS)) + 5 / np.sqrt(z.size)  # no bias
