"""How much the browser's quantised 3-way table (``threeway.bin.gz``, ordering probabilities in 1/255) moves
the push/fold solver: each spot is solved on the quantised table (what the browser solver uses) and
on the full Monte Carlo table; the quantised solution's NashConv is then measured on the full table.

Run: ``.venv/bin/python benchmarks/bench_threeway_quantisation.py`` (from the repository root; uses the
build cache's heads-up tables and 3-way checkpoint). Prints a markdown table; "vs full solve" is the
quantised solve's time over the full-table solve's time in the same run.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

import kernels.pushfold as pf
from generator.cli.pushfold import MAX_ITERATIONS
from generator.build.stages.threeway_bin import THREEWAY_QUANT_BOUND, read_threeway_bin, threeway_bin
from generator.build.stages.headsup import headsup_results
from generator.build.stages.pushfold_table import holdem_equities
from generator.build.stages.threeway import threeway_stage

SPOTS = [
    ("3-handed 10 bb, chip EV", pf.Table((10.0,) * 3)),
    ("3-handed 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 3, payouts=(50.0, 30.0, 20.0))),
    ("6-handed 10 bb, chip EV", pf.Table((10.0,) * 6)),
    ("6-handed 50/30/20 ICM, 10 bb", pf.Table((10.0,) * 6, payouts=(50.0, 30.0, 20.0))),
]


def _units(table: pf.Table, value: float) -> str:
    return f"{value:.5e} bb" if table.payouts is None else f"{100 * value / sum(table.payouts):.5e} % pool"


def main() -> None:
    tables, _ = headsup_results(progress=False)
    table, summary = threeway_stage(progress=False)
    full = holdem_equities(tables, table)
    quantised = holdem_equities(tables, read_threeway_bin(threeway_bin(table, summary["boards"], summary["seed"])))
    print(f"3-way table: {summary['boards']:,} boards, median se {summary['se_median']:.4f}; "
          f"quantisation bound {THREEWAY_QUANT_BOUND:.4f} per ordering probability\n")
    print("| spot | NashConv of the quantised-table solution, on the quantised table | same solution on the full table "
          "| full-table solution on the full table | largest frequency difference of the two solutions | iterations (quantised / full) "
          "| vs full solve |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, spot in SPOTS:
        game = pf.make_game(spot)
        tolerance, class_tolerance = pf.RULE.tolerances(spot)
        started = time.perf_counter()
        on_quantised = pf.solve(game, quantised, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=MAX_ITERATIONS)
        quantised_time = time.perf_counter() - started
        started = time.perf_counter()
        on_full = pf.solve(game, full, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=MAX_ITERATIONS)
        full_time = time.perf_counter() - started
        moved = pf.nash_conv(game, full, on_quantised.strategy)
        difference = max(float(np.abs(on_quantised.strategy[key] - on_full.strategy[key]).max()) for key in on_full.strategy)
        print(f"| {label} | {_units(spot, on_quantised.nash_conv)} | {_units(spot, moved)} | {_units(spot, on_full.nash_conv)} "
              f"| {difference:.1e} | {on_quantised.iterations} / {on_full.iterations} | {quantised_time / full_time:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
