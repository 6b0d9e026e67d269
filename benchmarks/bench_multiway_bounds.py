"""How much wider the distribution-free intervals are than the normal ones, and whether they hold.

Runs the multiway stage with the real controls for a fixed number of deals in a temporary cache and
prints, at n = 3, 6 and 10 players, the ratio of the distribution-free (empirical Bernstein)
interval's width to the normal 95% interval's, and at n = 3 how many classes' exact equity lies
inside the distribution-free interval. Usage: ``bench_multiway_bounds.py [passes]`` (default 64
passes of 524,288 deals).
"""

import os
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.core.config import load_config
from generator.compute import registry
from generator.compute.run import default_run, resolve_run
from kernels.multiway.control_variates import Z_975
from kernels.multiway.layout import BLOCK_DEALS, GROUPS


def main(passes: int = 64) -> None:
    exact = np.array(registry.results("threehanded", default_run(progress=False))["equity"])
    work = Path(tempfile.mkdtemp())
    (work / "site.yaml").write_text("multiway:\n  seed: 78\n  checkpoint_every: 1000s\n")
    run = resolve_run(load_config(work / "site.yaml"), "cpu", progress=False, budget_seconds=3600, target_se=1e-12,
                      max_deals=passes * GROUPS * BLOCK_DEALS)
    registry.results("headsup", run)  # the controls' input, from the shared cache, kept by the run for the switch below
    shared_cache = os.environ.get("ALLIN_CACHE_DIR", ".cache")
    os.environ["ALLIN_CACHE_DIR"] = str(work / "cache")  # a fresh checkpoint; the derived caches above stay put
    try:
        document = registry.publish("multiway", run, work / "site")
    finally:
        os.environ["ALLIN_CACHE_DIR"] = shared_cache
    print(f"{document['meta']['deals']:,} deals (seed 78)\n")
    print("| players | rigorous / normal width (median, min–max) | median rigorous half-width | exact inside |")
    print("|---|---|---|---|")
    for players in (3, 6, 10):
        block = document["by_players"][str(players)]
        intervals, se = np.array(block["ci_rigorous_equity"]), np.array(block["se_equity"])
        ratio = (intervals[:, 1] - intervals[:, 0]) / (2 * Z_975 * se)
        inside = f"{int(np.sum((intervals[:, 0] <= exact) & (exact <= intervals[:, 1])))}/169" if players == 3 else "–"
        half = np.median(intervals[:, 1] - intervals[:, 0]) / 2
        print(f"| {players} | {np.median(ratio):.1f}× ({ratio.min():.1f}–{ratio.max():.1f}) | {half:.4f} | {inside} |")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 64)
