"""Evaluator benchmark: random 7-card evaluations per second, ours vs eval7 and phevaluator, same run.

Run: ``.venv/bin/python benchmarks/bench_evaluator.py`` (from the repository root). Prints a markdown table.

* ours: ``kernels.evaluator.cpu.evaluate`` on a batch of random hands (all CPU threads), and a
  one-thread run of the same kernel;
* eval7: its fastest C loop, ``py_hand_vs_range_monte_carlo`` (two evaluations per iteration,
  dealing included — an upper bound on eval7's per-evaluation cost is not available from Python);
* phevaluator: ``evaluate_cards`` called once per hand from Python (C evaluation + call overhead);
* OMPEval (C++, not on a package registry): ``benchmarks/peers/ompeval_eval.cpp`` built with
  ``g++ -O3 -march=native`` against a checkout of https://github.com/zekyll/OMPEval named by
  ``OMPEVAL_DIR`` (default ``benchmarks/peers/OMPEval``; the row is skipped, saying so, without
  one), one thread on the same hands; its ranks must order the hands exactly as our strengths do.
Also: time to build the lookup tables from scratch (what a fresh cache costs) and to load them.
"""

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernels.cards import format_card
from kernels.evaluator import build_tables, cpu
from ompeval import PEERS, ompeval_source


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
    return np.argsort(rng.random((count, 52)), axis=1)[:, :7].astype(np.uint8)


def same_order(ours: np.ndarray, theirs: np.ndarray) -> bool:
    """Whether two evaluators rank the hands identically: equal where ours are equal, and in the same order."""
    order = np.argsort(ours, kind="stable")
    a, b = ours[order].astype(np.int64), theirs[order].astype(np.int64)
    step_a, step_b = np.diff(a), np.diff(b)
    return bool(((step_a == 0) == (step_b == 0)).all() and (step_b >= 0).all())


class OMPEval:
    """OMPEval built from a checkout into ``workdir``; :meth:`rate` times it on the hands given to the constructor."""

    def __init__(self, workdir: Path, hands: np.ndarray):
        source, self.why_not = ompeval_source()
        self.binary, self.hands_file, self.ranks_file = workdir / "ompeval_eval", workdir / "hands.bin", workdir / "ranks.bin"
        self.count = len(hands)
        if source is not None:
            subprocess.run(
                ["g++", "-O3", "-march=native", "-std=c++11", f"-I{source}", str(PEERS / "ompeval_eval.cpp"),
                 str(source / "omp" / "HandEvaluator.cpp"), "-o", str(self.binary)],
                check=True,
            )
            np.ascontiguousarray(hands, dtype=np.uint8).tofile(self.hands_file)

    def rate(self) -> float:
        """One-thread evaluations/s, best of 3 passes in its own process."""
        out = subprocess.run(
            [str(self.binary), str(self.hands_file), str(self.count), "3", str(self.ranks_file)],
            check=True, capture_output=True, text=True,
        )
        return self.count / float(out.stdout.split()[0])

    def ranks(self) -> np.ndarray:
        return np.fromfile(self.ranks_file, dtype=np.uint16)


def main() -> None:
    started = time.perf_counter()
    tables = build_tables()
    build_seconds = time.perf_counter() - started

    from generator.core.storage import load_arrays, save_arrays

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
    # One thread, ours and OMPEval taking turns (best of 3 rounds each), so that a load that comes
    # and goes on a shared machine falls on both alike.
    ours_one = omp_rate = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        omp = OMPEval(Path(tmp), hands)
        for _ in range(3):
            numba.set_num_threads(1)
            ours_one = max(ours_one, best_rate(lambda: cpu.evaluate(hands, tables), len(hands)))
            numba.set_num_threads(threads)
            if omp.why_not is None:
                omp_rate = max(omp_rate, omp.rate())
        if omp.why_not is None:
            if not same_order(cpu.evaluate(hands, tables), omp.ranks()):
                raise AssertionError("OMPEval and our evaluator order the hands differently")
            omp_note = f"same order and ties as ours on all {len(hands):,} hands"
        else:
            omp_rate, omp_note = None, omp.why_not

    import eval7
    import phevaluator

    hero = [eval7.Card("As"), eval7.Card("Kd")]
    villains = eval7.HandRange("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o")
    iterations = 1_000_000
    eval7_rate = 2 * best_rate(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villains, [], iterations), iterations)

    names = np.array([format_card(c) for c in range(52)])
    sample = names[hands[:200_000]].tolist()
    phe_rate = best_rate(lambda: [phevaluator.evaluate_cards(*row) for row in sample], len(sample), repeats=1)

    print(f"threads: {threads}; tables built in {build_seconds:.1f} s, loaded from cache in {load_seconds * 1000:.0f} ms")
    print(f"OMPEval: {omp_note}\n")
    print(f"| evaluator | evaluations/s | ours ({threads} threads) ÷ this | ours (1 thread) ÷ this |")
    print("|---|---:|---:|---:|")
    rows = [
        (f"ours, Numba, {threads} threads", ours),
        ("ours, Numba, 1 thread", ours_one),
        ("OMPEval (C++, 1 thread)", omp_rate),
        ("eval7 C Monte Carlo loop", eval7_rate),
        ("phevaluator, one Python call per hand", phe_rate),
    ]
    for name, rate in rows:
        if rate is not None:
            print(f"| {name} | {rate / 1e6:,.1f} M | {ours / rate:.2f}× | {ours_one / rate:.2f}× |")


if __name__ == "__main__":
    main()
