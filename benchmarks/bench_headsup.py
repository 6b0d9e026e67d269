"""Exact-table benchmarks: the heads-up tables (169-vs-random, 169×169) and the three-handed counts,
each from scratch, again with compiled kernels, and from the cache.

Run: ``.venv/bin/python benchmarks/bench_headsup.py`` (from the repository root). Prints a markdown table.
Uses a temporary cache directory, so the "from scratch" row includes building the evaluator tables
and compiling the kernels, exactly as a first ``make build`` on a new machine would.
"""

import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as site:
        os.environ["ALLIN_CACHE_DIR"] = cache
        from generator.compute.stages.headsup import compute_headsup_tables, run_headsup
        from generator.compute.stages.threehanded import compute_threehanded_counts, run_threehanded

        started = time.perf_counter()
        run_headsup(Path(site), progress=False)
        cold = time.perf_counter() - started

        started = time.perf_counter()
        run_headsup(Path(site), progress=False)
        cached = time.perf_counter() - started

        started = time.perf_counter()
        compute_headsup_tables(progress=False)
        warm = time.perf_counter() - started

        started = time.perf_counter()
        run_threehanded(Path(site), progress=False)
        three_cold = time.perf_counter() - started
        started = time.perf_counter()
        run_threehanded(Path(site), progress=False)
        three_cached = time.perf_counter() - started
        started = time.perf_counter()
        compute_threehanded_counts(progress=False)
        three_warm = time.perf_counter() - started

    import numba

    print(f"threads: {numba.get_num_threads()}\n")
    print("| heads-up stage | seconds |")
    print("|---|---:|")
    print(f"| from scratch (tables + compile + 134,459 boards + files) | {cold:.1f} |")
    print(f"| board walk again, kernels compiled | {warm:.1f} |")
    print(f"| cache hit (load + write JSON/CSV) | {cached:.2f} |")
    print(f"| three-handed: from scratch (compile + 134,459 boards + files; evaluator tables cached) | {three_cold:.1f} |")
    print(f"| three-handed: board walk again, kernels compiled | {three_warm:.1f} |")
    print(f"| three-handed: cache hit | {three_cached:.2f} |")


if __name__ == "__main__":
    main()
