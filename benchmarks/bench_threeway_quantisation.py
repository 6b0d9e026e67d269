"""How much the browser's 3-way table (``threeway.bin.gz`` version 3: a prediction from matchups.bin plus residuals
in steps of 10/255) moves the push/fold solver, next to the version 2 file (every probability rounded to 1/255)
and to a second Monte Carlo run of the same size with another seed (what the table's own noise moves).

Each table is solved to ``allin pushfold``'s stopping rule on the full-precision Monte Carlo table (seed 1, the
build's) and on each other table; printed: the file's size, the largest and rms error of a stored probability, and
per solved table the chart cells that change (a class shoved or called with frequency ≥ 0.5 on one table and not
on the other, over every decision), the largest frequency difference, the largest difference of a seat's expected
value, and the NashConv of the other table's solution measured on the full table.

Run: ``.venv/bin/python benchmarks/bench_threeway_quantisation.py`` from the repository root (uses the build cache's
heads-up tables and 3-way checkpoint; the seed-2 run is computed once into the cache, about 2 minutes of CPU on
2 cores, then read from it).
"""

import gzip
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np

import kernels.pushfold as pf
from generator.compute import registry
from generator.compute.run import default_run, resolve_run
from generator.compute.pushfold_records import PLAYED, holdem_equities
from generator.compute.threeway_bin import THREEWAY_STEP, read_threeway_bin, threeway_bin
from generator.cli.pushfold import MAX_ITERATIONS
from generator.core.config import Config
from generator.data.datafiles import matchups_bin
from kernels.cards import CLASS_NAMES
from kernels.threeway.compact import quantise_orderings

SPOTS = [
    ("9-handed 12 bb, BB ante 1 bb, chip EV", pf.Table((12.0,) * 9, ante=1.0, bb_ante=True)),
    ("4-handed 8 bb, chip EV", pf.Table((8.0,) * 4)),
    ("4-handed 10 bb, 50/30/20 ICM", pf.Table((10.0,) * 4, payouts=(50.0, 30.0, 20.0))),
]


def _units(table: pf.Table, value: float) -> str:
    return f"{value:.2e} bb" if table.payouts is None else f"{100 * value / sum(table.payouts):.2e} % pool"


def _solve(spot, equities):
    game = pf.make_game(spot)
    tolerance, class_tolerance = pf.RULE.tolerances(spot)
    return game, pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=MAX_ITERATIONS)


def main() -> None:
    run = default_run(progress=False)
    (tables, _), (table, summary) = registry.results("headsup", run), registry.results("threeway", run)
    matchups = matchups_bin({"classes": list(CLASS_NAMES), "win": tables.win, "tie": tables.tie, "pairs": tables.pairs})
    started = time.perf_counter()
    data = threeway_bin(table, matchups, summary["boards"], summary["seed"])
    written = time.perf_counter() - started
    stored = read_threeway_bin(data, matchups)
    possible = table.compatible > 0
    error = np.abs(stored.orderings[possible] - table.orderings[possible])
    version2 = SimpleNamespace(orderings=quantise_orderings(table.orderings) / 255.0, compatible=table.compatible, samples=None)
    second, _ = registry.results("threeway", resolve_run(Config(), "cpu", progress=False, threeway_boards=summary["boards"],
                                                         threeway_seed=2))
    noise = np.abs(second.orderings[possible] - table.orderings[possible])
    print(f"3-way table: {summary['boards']:,} boards, median se {summary['se_median']:.4f}; threeway.bin.gz version 3 "
          f"(step {THREEWAY_STEP}/255): {len(data):,} bytes ({len(gzip.decompress(data)):,} uncompressed), written in {written:.0f} s")
    print(f"stored probability vs the full table: largest error {error.max():.4f}, rms {np.sqrt((error ** 2).mean()):.4f} "
          f"(version 2, 1/255: largest {np.abs(version2.orderings[possible] - table.orderings[possible]).max():.4f}; "
          f"seed 2 vs seed 1: largest {noise.max():.4f}, rms {np.sqrt((noise ** 2).mean()):.4f})\n")
    full = holdem_equities(tables, table)
    others = [("version 3 file", holdem_equities(tables, stored)), ("version 2 file", holdem_equities(tables, version2)),
              ("Monte Carlo seed 2", holdem_equities(tables, second))]
    print("| table | solved on | chart cells that change | largest frequency difference | largest EV difference "
          "| NashConv on the full table (full-table solution's) | iterations |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for label, spot in SPOTS:
        game, reference = _solve(spot, full)
        for name, equities in others:
            _, other = _solve(spot, equities)
            cells = sum(int(((other.strategy[k] >= PLAYED) != (reference.strategy[k] >= PLAYED)).sum()) for k in reference.strategy)
            frequency = max(float(np.abs(other.strategy[k] - reference.strategy[k]).max()) for k in reference.strategy)
            value = float(np.abs(other.values - reference.values).max())
            conv = pf.nash_conv(game, full, other.strategy)
            print(f"| {label} | {name} | {cells} of {169 * len(reference.strategy):,} | {frequency:.3f} | {_units(spot, value)} "
                  f"| {_units(spot, conv)} ({_units(spot, reference.nash_conv)}) | {other.iterations} / {reference.iterations} |", flush=True)


if __name__ == "__main__":
    main()
