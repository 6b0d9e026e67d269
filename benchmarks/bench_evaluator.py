"""Evaluator benchmark: random 7-card evaluations per second, ours vs eval7 and phevaluator, same run.

Run: ``.venv/bin/python benchmarks/bench_evaluator.py`` (from the repository root). Prints a markdown table.

* ours: ``kernels.evaluator.cpu.evaluate`` on a batch of random hands (all CPU threads), and a
  one-thread run of the same kernel;
* eval7: its fastest C loop, ``py_hand_vs_range_monte_carlo`` (two evaluations per iteration,
  dealing included — an upper bound on eval7's per-evaluation cost is not available from Python);
* phevaluator: ``evaluate_cards`` called once per hand from Python (C evaluation + call overhead).
Also: time to build the lookup tables from scratch (what a fresh cache costs) and to load them.
"""

import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernels.cards import format_card  # noqa: E402
from kernels.evaluator import build_tables, cpu  # noqa: E402


def best_rate(run, count: int, repeats: int = 3) -> float:
    """Best of ``repeats`` timings, as items per second."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return count / best


def random_hands(count: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.int8)


def main() -> None:
    started = time.perf_counter()
    tables = build_tables()
    build_seconds = time.perf_counter() - started

    from generator.storage import load_arrays, save_arrays

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "tables.npz"
        save_arrays(path, tables._asdict())
        started = time.perf_counter()
        load_arrays(path)
        load_seconds = time.perf_counter() - started

    hands = random_hands(10_000_000)
    cpu.evaluate(hands[:100], tables)  # compile
    ours = best_rate(lambda: cpu.evaluate(hands, tables), len(hands))
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    ours_one = best_rate(lambda: cpu.evaluate(hands, tables), len(hands))
    numba.set_num_threads(threads)

    import eval7
    import phevaluator

    hero = [eval7.Card("As"), eval7.Card("Kd")]
    villains = eval7.HandRange("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
    iterations = 1_000_000
    eval7_rate = 2 * best_rate(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villains, [], iterations), iterations)

    names = np.array([format_card(c) for c in range(52)])
    sample = names[hands[:200_000]].tolist()
    phe_rate = best_rate(lambda: [phevaluator.evaluate_cards(*row) for row in sample], len(sample), repeats=1)

    print(f"threads: {threads}; tables built in {build_seconds:.1f} s, loaded from cache in {load_seconds * 1000:.0f} ms\n")
    print("| evaluator | evaluations/s | ours ÷ this |")
    print("|---|---:|---:|")
    for name, rate in (
        (f"ours, Numba, {threads} threads", ours),
        ("ours, Numba, 1 thread", ours_one),
        ("eval7 C Monte Carlo loop", eval7_rate),
        ("phevaluator, one Python call per hand", phe_rate),
    ):
        print(f"| {name} | {rate / 1e6:,.1f} M | {ours / rate:.1f}× |")


if __name__ == "__main__":
    main()
