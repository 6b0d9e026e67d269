"""n-player push/fold solver benchmark: solve times, iterations, NashConv and how often 3- and 4+-way
pots happen at the solution, against the heads-up solver (``kernels.pushfold.headsup``) measured in the same run.

Run: ``.venv/bin/python benchmarks/bench_pushfold_table.py`` (from the repository root). Uses the build
cache: the heads-up tables and the 3-way checkpoint (computed first if missing, which takes minutes).
Prints a markdown table; "vs HU solver" is the time over the heads-up solver's time on the 10 bb
heads-up game to the same NashConv (1e-4 bb); "per iteration" is the solver's time per iteration (the
NashConv checks, every 25 iterations, excluded); "3-way table se bound" is the largest seat's bound on
the standard error of its EV from the 3-way table's Monte Carlo. Every spot is solved cold (no warm
start), at most 300 iterations.
"""

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kernels.pushfold.headsup as headsup_solver
import kernels.pushfold as pf
from generator.compute import registry
from generator.compute.run import default_run
from generator.compute.pushfold_records import holdem_equities

SNG = (50.0, 30.0, 20.0)
SPOTS = [  # (label, table, tolerance in bb or % of the pool)
    ("HU 10 bb, chip EV", pf.Table((10.0, 10.0)), 1e-4),
    ("3-handed 10 bb, chip EV", pf.Table((10.0,) * 3), 0.01),
    ("4-handed bubble 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 4, payouts=SNG), 0.05),
    ("9-handed 12 bb, BB ante 1, chip EV", pf.Table((12.0,) * 9, ante=1.0, bb_ante=True), 0.01),
] + [
    (f"{n}-handed {stack:g} bb, {'chip EV' if payouts is None else '50/30/20 ICM'}", pf.Table((stack,) * n, payouts=payouts),
     0.01 if payouts is None else 0.05)
    for payouts in (None, SNG) for n in (6, 9, 10) for stack in (5.0, 10.0, 20.0)
]
MAX_ITERATIONS = 300


def main() -> None:
    tables, _ = registry.results("headsup", default_run(progress=False))
    table, summary = registry.results("threeway", default_run(progress=False))
    started = time.perf_counter()
    equities = holdem_equities(tables, table)
    build = time.perf_counter() - started

    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win) + np.asarray(tables.tie) / 2) / (pairs * 1_712_304)
    started = time.perf_counter()
    reference = headsup_solver.solve(headsup_solver.make_game(equity, pairs, 10.0), tolerance=1e-4, check_every=10)
    peer = time.perf_counter() - started
    pf.solve(pf.make_game(SPOTS[1][1]), equities, max_iterations=1)  # compile / load the compiled kernels

    print(f"3-way table: {summary['boards']:,} boards, median se {summary['se_median']:.4f}; dense tensor built in {build:.1f} s")
    print(f"heads-up solver (kernels.pushfold.headsup), 10 bb to NashConv 1e-4 bb: {peer:.3f} s, {reference.iterations} iterations\n")
    print("| spot | solve (s) | vs HU solver | iterations | per iteration (s) | NashConv | P(3-way pot) | P(4+-way pot) | 4+-way EV bound | 3-way table se bound |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for label, spot, tolerance in SPOTS:
        game = pf.make_game(spot)
        pool = None if spot.payouts is None else float(sum(spot.payouts))
        checks = []
        started = time.perf_counter()
        solution = pf.solve(game, equities, tolerance=tolerance * (pool / 100 if pool else 1.0), max_iterations=MAX_ITERATIONS,
                            progress=lambda iteration, conv: checks.append(iteration))
        elapsed = time.perf_counter() - started
        started = time.perf_counter()
        pf.nash_conv(game, equities, solution.strategy)  # one check, timed, to take the checks out
        per_iteration = (elapsed - (time.perf_counter() - started) * (len(checks) + 1)) / solution.iterations
        reach = pf.multiway_reach(game, equities, solution.strategy)
        four = sum(p for m, p in reach.items() if m >= 4)
        # no seat's EV can move by more than the chance of a 4+-way pot times everything at stake in it
        at_stake = sum(spot.stacks) if pool is None else pool
        unit = "bb" if pool is None else "% pool"
        conv = solution.nash_conv if pool is None else 100 * solution.nash_conv / pool
        bound = four * at_stake if pool is None else 100 * four
        se = float(pf.three_way_error_bound(game, equities, solution.strategy).max())
        se_text = f"{se:.1e} bb" if pool is None else f"{100 * se / pool:.1e} % pool"
        print(f"| {label} | {elapsed:.2f} | {elapsed / peer:.0f}× | {solution.iterations} | {per_iteration:.3f} | {conv:.2e} {unit} | "
              f"{reach.get(3, 0.0):.2e} | {four:.2e} | {bound:.1e} {unit} | {se_text} |", flush=True)


if __name__ == "__main__":
    main()
