"""Exact-table benchmarks: the heads-up tables (169-vs-random, 169×169) and the three-handed counts,
each from scratch, again with compiled kernels, and from the cache.

Run: ``.venv/bin/python benchmarks/bench_headsup.py`` (from the repository root). Prints a markdown table.
Each stage runs through the registry (as ``allin compute`` does) on an empty cache directory, so the "from scratch"
row includes building the evaluator tables and loading the kernels: compiled from their source as on a new machine
when Numba's cache folder is empty (``TMPDIR=<an empty folder>``, kernels/compile_cache.py), else loaded from it (the
script says which); "again" is a second empty cache directory (the evaluator tables linked) in the same process.
"""

import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from generator.compute import registry  # noqa: E402
from generator.compute.run import default_run  # noqa: E402


def timed_publish(name: str, site: Path) -> float:
    """Seconds to publish stage ``name`` under ``site`` in a fresh run (its result read from the cache if there)."""
    started = time.perf_counter()
    registry.publish(name, default_run(progress=False), site)
    return time.perf_counter() - started


#: The cache directories made, removed at the end.
CACHES: list[Path] = []


def empty_cache(evaluator_from: Path | None = None) -> Path:
    """A new empty cache directory for the stages (``ALLIN_CACHE_DIR``), with the evaluator tables of
    ``evaluator_from`` linked into it."""
    folder = Path(tempfile.mkdtemp(prefix="bench-headsup-"))
    CACHES.append(folder)
    for path in (evaluator_from.glob("evaluator-*.npz") if evaluator_from else ()):
        os.link(path, folder / path.name)
    os.environ["ALLIN_CACHE_DIR"] = str(folder)
    return folder


def main() -> None:
    from kernels.compile_cache import cache_folder

    compiled_before = any(cache_folder().rglob("*.nbi"))
    rows = []
    try:
        with tempfile.TemporaryDirectory() as site:
            first = empty_cache()
            for name, label in (("headsup", "heads-up"), ("threehanded", "three-handed")):
                cold = timed_publish(name, Path(site))
                cached = timed_publish(name, Path(site))
                empty_cache(first)
                warm = timed_publish(name, Path(site))
                os.environ["ALLIN_CACHE_DIR"] = str(first)
                rows.append((label, cold, warm, cached))
    finally:
        for folder in CACHES:
            shutil.rmtree(folder, ignore_errors=True)

    import numba

    print(f"threads: {numba.get_num_threads()}\n")
    print("| stage | from scratch (s) | board walk again, kernels compiled, + files (s) | cache hit: load + write JSON/CSV (s) |")
    print("|---|---:|---:|---:|")
    for label, cold, warm, cached in rows:
        print(f"| {label} | {cold:.1f} | {warm:.1f} | {cached:.3f} |")
    kernels = "loaded its kernels from Numba's cache" if compiled_before else "compiled its kernels (Numba's cache was empty)"
    print(f"\nfrom scratch: the heads-up row builds the evaluator tables, the three-handed row finds them cached; each {kernels}")


if __name__ == "__main__":
    main()
