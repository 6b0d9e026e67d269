"""n-player push/fold solver benchmark: solve times, iterations, NashConv and how often 3- and 4+-way
pots happen at the solution, against the heads-up solver (``kernels.pushfold``) measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_pushfold_table.py`` (from the repository root). Uses the build
cache: the heads-up tables and the 3-way checkpoint (computed first if missing, which takes minutes).
Prints a markdown table; "vs HU solver" is the time over the heads-up solver's time on the 10 bb
heads-up game to the same NashConv (1e-4 bb); "3-way table se bound" is the largest seat's bound on
the standard error of its EV from the 3-way table's Monte Carlo (chip EV tables up to 6 players).
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kernels.pushfold as headsup_solver  # noqa: E402
import kernels.pushfold_table as pf  # noqa: E402
from generator.stages.headsup import headsup_results  # noqa: E402
from generator.stages.pushfold_table import holdem_equities  # noqa: E402
from generator.stages.threeway import threeway_stage  # noqa: E402

SPOTS = [  # (label, table, tolerance in payoff units)
    ("HU 10 bb, chip EV", pf.Table((10.0, 10.0)), 1e-4),
    ("3-handed 10 bb, chip EV", pf.Table((10.0,) * 3), 0.01),
    ("4-handed 10 bb, chip EV", pf.Table((10.0,) * 4), 0.01),
    ("6-handed 10 bb, chip EV", pf.Table((10.0,) * 6), 0.01),
    ("9-handed 12 bb, BB ante 1, chip EV", pf.Table((12.0,) * 9, ante=1.0, bb_ante=True), 0.01),
    ("3-handed 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 3, payouts=(50.0, 30.0, 20.0)), 0.05),
    ("4-handed bubble 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 4, payouts=(50.0, 30.0, 20.0)), 0.05),
    ("6-handed 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 6, payouts=(50.0, 30.0, 20.0)), 0.05),
]
MAX_ITERATIONS = 2000


def main() -> None:
    tables, _ = headsup_results(progress=False)
    table, summary = threeway_stage(progress=False)
    started = time.perf_counter()
    equities = holdem_equities(tables, table)
    build = time.perf_counter() - started

    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win) + np.asarray(tables.tie) / 2) / (pairs * 1_712_304)
    started = time.perf_counter()
    reference = headsup_solver.solve(headsup_solver.make_game(equity, pairs, 10.0), tolerance=1e-4, check_every=10)
    peer = time.perf_counter() - started

    print(f"3-way table: {summary['boards']:,} boards, median se {summary['se_median']:.4f}; dense tensor built in {build:.1f} s")
    print(f"heads-up solver (kernels.pushfold), 10 bb to NashConv 1e-4 bb: {peer:.3f} s, {reference.iterations} iterations\n")
    print("| spot | solve (s) | vs HU solver | iterations | NashConv | P(3-way pot) | P(4+-way pot) | 4+-way EV bound | 3-way table se bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, spot, tolerance in SPOTS:
        game = pf.make_game(spot)
        pool = None if spot.payouts is None else float(sum(spot.payouts))
        started = time.perf_counter()
        solution = pf.solve(game, equities, tolerance=tolerance * (pool / 100 if pool else 1.0), max_iterations=MAX_ITERATIONS)
        elapsed = time.perf_counter() - started
        reach = pf.multiway_reach(game, equities, solution.strategy)
        four = sum(p for m, p in reach.items() if m >= 4)
        # no seat's EV can move by more than the chance of a 4+-way pot times everything at stake in it
        at_stake = sum(spot.stacks) if pool is None else pool
        unit = "bb" if pool is None else "% pool"
        conv = solution.nash_conv if pool is None else 100 * solution.nash_conv / pool
        bound = four * at_stake if pool is None else 100 * four
        # largest seat's bound on the standard error of its EV from the 3-way table's Monte Carlo
        se = 0.0 if spot.payouts is not None or len(spot.stacks) > 6 else float(pf.three_way_error_bound(game, equities, solution.strategy).max())
        se_text = "—" if spot.payouts is not None or len(spot.stacks) > 6 else f"{se:.1e} bb"
        print(f"| {label} | {elapsed:.2f} | {elapsed / peer:.0f}× | {solution.iterations} | {conv:.2e} {unit} | "
              f"{reach.get(3, 0.0):.2e} | {four:.2e} | {bound:.1e} {unit} | {se_text} |")


if __name__ == "__main__":
    main()
