"""Browser push/fold solver benchmark: pushfold-worker.js in headless Chromium against kernels/pushfold/.

Run: ``.venv/bin/python benchmarks/bench_pushfold_browser.py`` (from the repository root; needs Playwright and
/usr/bin/chromium, and the build cache's heads-up tables and 3-way checkpoint). A temporary folder laid out
as the built site (``assets/js/`` from templates, ``data/matchups.bin`` and ``data/threeway.bin.gz`` written by
the build's own writers) is served on 127.0.0.1; a page starts the module worker and times, on its main
thread, from postMessage to the result: a fresh worker (download and parse of the tables included), then
a second solve in the same worker (tables kept). Python solves the same tables with the same stopping rule
(``allin pushfold``'s: NashConv ≤ 0.05% of the pool, ≤ 3,000 iterations) on the full 3-way table; its
time excludes building the dense 3-way tensor (printed once). Prints a markdown table; "browser ÷ Python"
is the second browser solve's time over Python's, both measured in this run.
"""

import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import kernels.pushfold as pf
from generator.cli.pushfold import MAX_ITERATIONS, TOLERANCE_POOL
from generator.data.datafiles import matchups_bin
from generator.build.stages.threeway_bin import publish_threeway
from generator.build.stages.headsup import headsup_results
from generator.build.stages.pushfold_table import holdem_equities
from generator.build.stages.threeway import threeway_stage
from kernels.cards import CLASS_NAMES
from served import served_page

#: (label, stacks, payouts): the issue's targets are 6-handed ≤ 5 s and 9-handed ≤ 15 s.
SPOTS = [
    ("6-handed 50/30/20 ICM, 10 bb each", (10.0,) * 6, (50.0, 30.0, 20.0), 5.0),
    ("9-handed 50/30/20 ICM, 10 bb each", (10.0,) * 9, (50.0, 30.0, 20.0), 15.0),
]

HARNESS = """<!doctype html><meta charset="utf-8"><title>push/fold bench</title><script type="module">
window.worker = null;
window.solve = (table, fresh) => new Promise((resolve) => {
  if (fresh || !window.worker) {
    window.worker?.terminate();
    window.worker = new Worker("./assets/js/workers/pushfold-worker.js", { type: "module" });
  }
  const started = performance.now();
  let downloaded = null;
  window.worker.onmessage = (e) => {
    const m = e.data;
    // the solve on the 3-way table (a first answer on heads-up results may come before it: not timed here)
    if (m.type === "progress" && m.phase === "solve" && !m.provisional && downloaded === null) downloaded = performance.now() - started;
    if (m.type === "result" && !m.provisional) resolve({ ms: performance.now() - started, downloadMs: downloaded, iterations: m.solution.iterations,
      poolPct: m.solution.exploitability.pool_pct });
    if (m.type === "error") resolve({ error: m.message });
  };
  window.worker.postMessage({ type: "solve", table, dataUrl: new URL("data/", location.href).href });
});
window.ready = true;
</script>"""


def site_folder(folder: Path, headsup, threeway) -> None:
    shutil.copytree(ROOT / "templates" / "assets" / "js", folder / "assets" / "js")
    matchups = {"classes": list(CLASS_NAMES), "win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "pairs": headsup.pairs.tolist()}
    (folder / "data").mkdir()
    (folder / "data" / "matchups.bin").write_bytes(matchups_bin(matchups))
    table, summary = threeway
    publish_threeway(folder / "data", table, summary["boards"], summary["seed"])
    (folder / "bench.html").write_text(HARNESS)


def run_chromium(folder: Path) -> list[tuple[dict, dict]]:
    """Per spot (fresh worker, second solve in the same worker): {ms, downloadMs, iterations, poolPct}."""
    rows = []
    with served_page(folder, "bench.html") as page:
        page.wait_for_function("window.ready === true")
        for _, stacks, payouts, _ in SPOTS:
            table = {"stacks": list(stacks), "blinds": [0.5, 1], "ante": 0, "bbAnte": False, "payouts": list(payouts)}
            runs = [page.evaluate("([t, fresh]) => solve(t, fresh)", [table, fresh]) for fresh in (True, False)]
            for run in runs:
                if "error" in run:
                    raise RuntimeError(run["error"])
            rows.append(tuple(runs))
    return rows


def main() -> None:
    headsup, _ = headsup_results(progress=False)
    threeway = threeway_stage(progress=False)
    with tempfile.TemporaryDirectory() as tmp:
        site_folder(Path(tmp), headsup, threeway)
        size = (Path(tmp) / "data" / "threeway.bin.gz").stat().st_size
        browser_rows = run_chromium(Path(tmp))
    started = time.perf_counter()
    equities = holdem_equities(headsup, threeway[0])
    print(f"threeway.bin.gz: {size / 2**20:.1f} MiB; Python's dense 3-way tensor built in {time.perf_counter() - started:.1f} s\n")
    print("| spot | browser, fresh worker (download + parse + solve) | browser, second solve | iterations | NashConv (% pool) | "
          "target | Python solve | iterations | NashConv (% pool) | browser ÷ Python |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for (label, stacks, payouts, target), (fresh, again) in zip(SPOTS, browser_rows):
        game = pf.make_game(pf.Table(stacks, payouts=payouts))
        started = time.perf_counter()
        solution = pf.solve(game, equities, tolerance=TOLERANCE_POOL * sum(payouts), max_iterations=MAX_ITERATIONS)
        seconds = time.perf_counter() - started
        conv = 100 * solution.nash_conv / sum(payouts)
        print(f"| {label} | {fresh['ms'] / 1e3:.1f} s (download {fresh['downloadMs'] / 1e3:.1f} s) | {again['ms'] / 1e3:.1f} s | "
              f"{again['iterations']} | {again['poolPct']:.4f} | ≤ {target:g} s | {seconds:.1f} s | {solution.iterations} | {conv:.4f} | "
              f"{again['ms'] / 1e3 / seconds:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
