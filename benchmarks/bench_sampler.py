"""Range Monte Carlo sampler: deals per second on the issue #25 spot, ours vs OMPEval's EquityCalculator, same run.

Run: ``.venv/bin/python benchmarks/bench_sampler.py [ROUNDS]`` (from the repository root). Prints a markdown table.

The spot is bench_equity.py's "six players preflop with ranges" (four ranged players, two random hands; 30% of
independent draws of the four ranges collide). Ours: ``kernels.range_equity.sample_equity`` on one thread and on
all threads, 2²² deals a run. OMPEval (C++, not on a package registry): ``benchmarks/peers/ompeval_equity.cpp``
built with ``g++ -O3 -march=native`` against a checkout named by ``OMPEVAL_DIR`` (default
``benchmarks/peers/OMPEval``; skipped, saying so, without one: benchmarks/ompeval.py), 2 s a run. The two take turns,
ROUNDS rounds (default 3); each row is its best round. Rates are deals per second of **process CPU time** (as
well as wall time) so that other jobs on a shared machine count against neither.

Not the same work: OMPEval's deals are the steps of a random walk (one player's combo changes between consecutive
deals; the starting combos are redrawn every 4,096 deals), and its unweighted ranges; ours are independent deals,
exactly distributed, so that the reported standard error and intervals hold.
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.core.evaluator_tables import evaluator_tables
from kernels.range_equity import live_weights, sample_equity
from kernels.ranges import parse_range
from ompeval import build_equity_harness

RANGES = ["22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+", "QQ+,AK", "random", "random", "TT+,AQs+", "A2s+,KQs"]
DEALS = 1 << 22


def ompeval_rate(binary: Path, threads: int) -> tuple[float, float, np.ndarray]:
    """(deals per CPU second, deals per wall second, equities) of one 2 s run."""
    out = subprocess.run([str(binary), "2", str(threads), *RANGES], check=True, capture_output=True, text=True).stdout.split()
    deals, wall, cpu = int(out[0]), float(out[1]), float(out[2])
    return deals / cpu, deals / wall, np.array([float(x) for x in out[3:]])


def ours_rate(weights, tables, threads: int, seed: int):
    """(deals per CPU second, deals per wall second, result) of one run of DEALS deals."""
    numba.set_num_threads(threads)
    cpu, wall = time.process_time(), time.perf_counter()
    result = sample_equity(weights, [], [], tables, max_samples=DEALS, batch=DEALS, target_se=0, seed=seed)
    return DEALS / (time.process_time() - cpu), DEALS / (time.perf_counter() - wall), result


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    tables = evaluator_tables()
    weights = live_weights([parse_range(r).weights for r in RANGES], [], [])
    threads = numba.config.NUMBA_NUM_THREADS
    sample_equity(weights, [], [], tables, max_samples=1024, batch=1024, target_se=0)  # compile / load the cache
    rows: dict[tuple[str, int], list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        binary, why_not = build_equity_harness(Path(tmp))
        load = [os.getloadavg()[0]]
        for r in range(rounds):
            for t in (1, threads):
                cpu, wall, result = ours_rate(weights, tables, t, r)
                best = rows.setdefault(("ours, Numba", t), [0.0, 0.0, result])
                best[:2] = max(best[0], cpu), max(best[1], wall)
                if binary is not None:
                    cpu, wall, equity = ompeval_rate(binary, t)
                    best = rows.setdefault(("OMPEval (C++)", t), [0.0, 0.0, equity])
                    best[:2] = max(best[0], cpu), max(best[1], wall)
            load.append(os.getloadavg()[0])
    print(f"Spot: {' | '.join(RANGES)} (preflop); {rounds} rounds taking turns, best of each; "
          f"load average {min(load):.1f}–{max(load):.1f}\n")
    print("| sampler | threads | deals/s (CPU time) | ÷ OMPEval (CPU time) | deals/s (wall) | ÷ OMPEval (wall) |")
    print("|---|---:|---:|---:|---:|---:|")
    for (name, t), (cpu, wall, _) in rows.items():
        peer = rows.get(("OMPEval (C++)", t))
        ratios = (f"{cpu / peer[0]:.2f}×", f"{wall / peer[1]:.2f}×") if peer else ("–", "–")
        print(f"| {name} | {t} | {cpu / 1e6:.2f} M | {ratios[0]} | {wall / 1e6:.2f} M | {ratios[1]} |")
    if why_not:
        print(f"\nOMPEval skipped: {why_not}")
    ours, peer = rows[("ours, Numba", 1)][2], rows.get(("OMPEval (C++)", 1))
    print("\nours (one run, 2²² deals): equity " + " ".join(f"{e:.4f}" for e in ours.equity)
          + f", max se {ours.se_equity.max():.1e}")
    if peer:
        print("OMPEval (its last run): equity " + " ".join(f"{e:.4f}" for e in peer[2]))


if __name__ == "__main__":
    main()
