"""Flop equity benchmark (issue #35): the equity distribution and the every-flop report in Python (kernels/flop/equity.py,
what ``allin flop equity`` / ``allin flop report`` run) and in the browser engine (templates/assets/js/engines/flop-equity.js)
under node and in headless Chromium through workers/flop-worker.js.

Run: ``.venv/bin/python benchmarks/bench_flop_equity.py`` (from the repository root; needs node, Playwright and
/usr/bin/chromium, and the build cache's heads-up tables for the x% ranges). The x% ranges are written out as
class lists (kernels.ranges.normalise) for node and the browser. Targets of issue #35 on the 2-core machine:
the distribution of two 30% ranges on a flop ≤ 1 s in the browser, the every-flop report of two 20% ranges
≤ 15 s in headless Chromium with two workers. Python: Numba on every core, best of 3 after a warm-up run.
node: one thread, best of 3 (the report also as two parts one after the other: each worker's share). Chromium:
fresh workers per run from postMessage to the answer on the page's main thread (the worker's fetch and parse of
the evaluator tables included), first run and best of 3; the report with one worker and with two
(workers/flop-run.js startFlopReport: each counts every other board class, the counts added). Prints markdown
tables, with each run's A equity (they must agree).
"""

import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.compute import registry
from generator.compute.run import default_run
from generator.core.evaluator_tables import evaluator_tables
from generator.site.evaluator_asset import write_evaluator_asset
from kernels.cards import parse_cards
from kernels.flop.equity import combo_equities, equity_distribution, every_flop_report
from kernels.ranges import normalise, parse_range, ranking_from_equity
from served import served_page

#: (name, range A, range B, board, dead, target s in the browser).
DISTRIBUTIONS = [
    ("30% vs 30% on Kh8d3c", "30%", "30%", "Kh8d3c", "", 1.0),
    ("30% vs 30% on 9h8h7c (two-tone, connected)", "30%", "30%", "9h8h7c", "", 1.0),
    ("30% vs 30% on the turn Kh8d3c2s", "30%", "30%", "Kh8d3c2s", "", 1.0),
]
#: (name, range A, range B, target s in the browser with two workers).
REPORTS = [("20% vs 20%", "20%", "20%", 15.0), ("AKs vs 30%", "AKs", "30%", 15.0)]

HARNESS = """<!doctype html><meta charset="utf-8"><title>flop equity bench</title><script type="module">
import { startDistribution, startFlopReport } from "./assets/js/workers/flop-run.js";
import { parseRange } from "./assets/js/engines/ranges.js";
const cards = (t) => (t.match(/../g) ?? []).map((c) => 4 * "23456789TJQKA".indexOf(c[0]) + "cdhs".indexOf(c[1]));
const worker = new URL("assets/js/workers/flop-worker.js", location.href).href;
const tables = new URL("evaluator-tables.bin", location.href).href;
const weights = (ranges) => ranges.map((r) => Array.from(parseRange(r).weights));
window.distribution = async (spot) => {
  const [weightsA, weightsB] = weights(spot.ranges);
  const started = performance.now();
  const { distribution } = await startDistribution(worker, tables, { weightsA, weightsB, board: cards(spot.board), dead: cards(spot.dead) }).done;
  return { ms: performance.now() - started, overall: distribution.overall };
};
window.report = async (spot, workers) => {
  const [weightsA, weightsB] = weights(spot.ranges);
  const started = performance.now();
  const { report } = await startFlopReport(worker, tables, { weightsA, weightsB }, () => {}, workers).done;
  return { ms: performance.now() - started, overall: report.overall };
};
window.cores = navigator.hardwareConcurrency;
window.ready = true;
</script>"""


def best_seconds(run, repeats: int = 3):
    """(best of ``repeats`` timed calls of ``run()`` after one untimed call (Numba compiles or loads its cache), value)."""
    value = run()
    fastest = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        value = run()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest, value


def browser_runs(page, expression: str, argument, repeats: int = 3) -> tuple[float, float, float]:
    """(first run s, best of ``repeats`` further runs s, A's equity) of ``expression`` on the page."""
    runs = [page.evaluate(expression, argument) for _ in range(1 + repeats)]
    return runs[0]["ms"] / 1e3, min(r["ms"] for r in runs[1:]) / 1e3, runs[-1]["overall"]


def main() -> None:
    ranking = ranking_from_equity(registry.results("headsup", default_run(progress=False))[0].vs_random_equity())
    text = {r: normalise(parse_range(r, ranking).weights) for spot in (*DISTRIBUTIONS, *REPORTS) for r in spot[1:3]}
    tables = evaluator_tables()
    with open("/proc/loadavg") as f:
        print(f"load average before: {f.read().split()[0]}\n")
    python = []
    for _name, a, b, board, dead, _ in DISTRIBUTIONS:
        wa, wb = (parse_range(text[r]).weights for r in (a, b))
        seconds, d = best_seconds(lambda: equity_distribution(combo_equities(wa, wb, parse_cards(board), parse_cards(dead), tables)))
        python.append((seconds, d.overall, len(d.combos)))
    for _name, a, b, _ in REPORTS:
        wa, wb = (parse_range(text[r]).weights for r in (a, b))
        seconds, report = best_seconds(lambda: every_flop_report(wa, wb, tables))
        python.append((seconds, report.overall, None))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_evaluator_asset(folder / "evaluator-tables.bin")
        shutil.copytree(ROOT / "templates" / "assets" / "js", folder / "assets" / "js")
        (folder / "bench.html").write_text(HARNESS)
        spots = {"distributions": [{"name": n, "ranges": [text[a], text[b]], "board": board, "dead": dead}
                                   for n, a, b, board, dead, _ in DISTRIBUTIONS],
                 "reports": [{"name": n, "ranges": [text[a], text[b]]} for n, a, b, _ in REPORTS]}
        (folder / "spots.json").write_text(json.dumps(spots))
        output = subprocess.run(["node", str(ROOT / "benchmarks" / "bench_flop_equity.mjs"), str(folder / "evaluator-tables.bin"),
                                 str(folder / "spots.json")], check=True, capture_output=True, text=True).stdout
        node = [json.loads(line) for line in output.splitlines()]
        browser = []
        with served_page(folder, "bench.html") as page:
            page.wait_for_function("window.ready === true")
            cores = page.evaluate("window.cores")
            for spot in spots["distributions"]:
                browser.append([browser_runs(page, "(s) => distribution(s)", spot)])
            for spot in spots["reports"]:
                browser.append([browser_runs(page, "([s, w]) => report(s, w)", [spot, w], repeats=2) for w in (1, 2)])
    with open("/proc/loadavg") as f:
        print(f"load average after: {f.read().split()[0]}; Chromium's navigator.hardwareConcurrency: {cores}\n")
    print("| distribution | A combos | Python (Numba) | node, 1 thread | Chromium, 1 worker: first / best of 3 | target | A equity |\n"
          "|---|---:|---:|---:|---:|---:|---|")
    for (name, *_, target), (seconds, overall, combos), n, [(first, best, equity)] in zip(DISTRIBUTIONS, python, node, browser):
        agree = "agree" if overall == n["overall"] == equity else f"DIFFER {overall!r} {n['overall']!r} {equity!r}"
        print(f"| {name} | {combos} | {seconds * 1e3:.0f} ms | {n['seconds'] * 1e3:.0f} ms | {first * 1e3:.0f} / {best * 1e3:.0f} ms | "
              f"≤ {target:g} s | {overall:.6f} ({agree}) |")
    print("\n| every-flop report | Python (Numba) | node, 1 thread | node, 2 parts (each) | Chromium, 1 worker: first / best of 2 | "
          "Chromium, 2 workers: first / best of 2 | target | A equity |\n|---|---:|---:|---:|---:|---:|---:|---|")
    k = len(DISTRIBUTIONS)
    for (name, *_, target), (seconds, overall, _), n, runs in zip(REPORTS, python[k:], node[k:], browser[k:]):
        equities = {overall, n["overall"], *(r[2] for r in runs)}
        agree = "agree" if max(equities) - min(equities) <= 1e-15 else f"DIFFER {sorted(equities)}"
        parts = " + ".join(f"{s:.1f}" for s in n["parts"])
        print(f"| {name} | {seconds:.2f} s | {n['seconds']:.1f} s | {parts} s | {runs[0][0]:.1f} / {runs[0][1]:.1f} s | "
              f"{runs[1][0]:.1f} / {runs[1][1]:.1f} s | ≤ {target:g} s | {overall:.6f} ({agree}) |")
    print(f"\nweights: {', '.join(sorted({f'{r} = {int(np.count_nonzero(parse_range(t).weights))} combos' for r, t in text.items()}))}")


if __name__ == "__main__":
    main()
