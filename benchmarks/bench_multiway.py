"""Multiway Monte Carlo benchmark: deals/s on the CPU (all threads), the variance reduction at 3 / 6 /
9 / 10 players, effective samples/s, the projected time for the whole table at se ≤ 3e-5, and
eval7's heads-up Monte Carlo measured in the same run as the reference.

Run: ``.venv/bin/python benchmarks/bench_multiway.py [seconds]`` (from the repository root; default
20 s of simulation). Prints a markdown table. A deal is 10 hands and a board; it yields one sample
per seat at every table size 2..10 (90 samples). Gains are medians over the 169 classes: "from
controls" = per-sample variance without / with the control variates; "in all" = variance of one
plain n-player game / per-sample variance with controls (``gain`` in the data). Effective samples/s
at n = samples/s at n (10 per deal) × that total gain.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import eval7
import numba

from generator.core.evaluator_tables import evaluator_tables
from generator.compute import registry
from generator.compute.run import default_run
from generator.compute.multiway_controls import multiway_controls, percentile_control
from kernels.multiway import cpu
from kernels.multiway.estimates import TARGETS, estimate_cells
from kernels.multiway.layout import BLOCK_DEALS, FULL_DECK, GROUPS, MAX_SEATS, new_tally, pair_class_table
from kernels.sampling.rng import shard_key
from kernels.multiway.statistics import group_statistics

ALL_HANDS = "22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o"
EVAL7_ITERATIONS = 1_000_000
#: The precision goal for the whole 169 × 9 table (standard errors shrink as 1/√time).
TABLE_TARGET_SE = 3e-5


def simulate_for(seconds: float):
    """Run passes for about ``seconds`` after a warm-up pass; returns (tally, deals, elapsed)."""
    tables, pairs = evaluator_tables(), pair_class_table()
    percentile, _ = percentile_control()
    tally, key = new_tally(), shard_key(2026, 0)
    cpu.simulate(tally, key, 0, GROUPS, BLOCK_DEALS, FULL_DECK, MAX_SEATS, tables, percentile, pairs)  # compile
    block, started = GROUPS, time.perf_counter()
    while time.perf_counter() - started < seconds:
        cpu.simulate(tally, key, block, GROUPS, BLOCK_DEALS, FULL_DECK, MAX_SEATS, tables, percentile, pairs)
        block += GROUPS
    return tally, (block - GROUPS) * BLOCK_DEALS, time.perf_counter() - started


def eval7_rate() -> float:
    """eval7 heads-up Monte Carlo (AsKs against every hand), iterations per second."""
    hero, villains = [eval7.Card("As"), eval7.Card("Ks")], eval7.HandRange(ALL_HANDS)
    started = time.perf_counter()
    eval7.py_hand_vs_range_monte_carlo(hero, villains, [], EVAL7_ITERATIONS)
    return EVAL7_ITERATIONS / (time.perf_counter() - started)


def main(seconds: float = 20.0) -> None:
    reference = eval7_rate()
    tally, deals, elapsed = simulate_for(seconds)
    controls = multiway_controls(registry.results("headsup", default_run(progress=False))[0])  # the exact heads-up table: computed if not cached (≈ 45 s)
    estimates = estimate_cells(group_statistics(tally), controls.p_win, controls.p_tie, controls.q_mean, MAX_SEATS)
    equity = TARGETS.index("equity")
    deals_per_s = deals / elapsed
    per_table = deals_per_s * MAX_SEATS
    print(f"machine: {numba.config.NUMBA_NUM_THREADS} threads; {deals:,} deals in {elapsed:.1f} s\n")
    print("| measure | value |")
    print("|---|---|")
    print(f"| deals/s (10 hands + board, CPU, all threads) | {deals_per_s / 1e6:.2f} M |")
    print(f"| samples/s, every table size (90 per deal) | {per_table * 9 / 1e6:.0f} M |")
    print(f"| eval7 heads-up Monte Carlo (AsKs vs any two), hands/s | {reference / 1e6:.2f} M |")
    print(f"| heads-up samples/s / eval7 hands/s | {per_table / reference:.1f}× |")
    for players in (3, 6, 9, 10):
        cv_gain = float(np.median(estimates.cv_gain[:, players - 2, equity]))
        gain = float(np.median(estimates.gain[:, players - 2, equity]))
        print(
            f"| n = {players}: median gain (equity) from controls / in all / effective samples/s "
            f"| {cv_gain:.2f}× / {gain:.2f}× / {per_table * gain / 1e6:.0f} M |"
        )
    worst = float(estimates.se[:, 1:, [TARGETS.index(t) for t in ("win", "tie", "equity")]].max())
    minutes = elapsed * (worst / TABLE_TARGET_SE) ** 2 / 60
    print(f"| largest se (win/tie/equity, n = 3..10) after {elapsed:.0f} s / projected time to {TABLE_TARGET_SE:g} | {worst:.2e} / {minutes:.1f} min |")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 20.0)
