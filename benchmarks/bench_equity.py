"""Equity calculator benchmark: the browser engine (templates/assets/js) in node and in headless Chromium.

Run: ``.venv/bin/python benchmarks/bench_equity.py`` (from the repository root; needs node, the npm
peer ``phe`` from ``npm ci``, Playwright and /usr/bin/chromium). Prints markdown tables:

* evaluator: random 7-card evaluations/s of our ``strength()`` and phe's ``evaluateCardCodes`` in one
  node run (and the share of hand comparisons on which the two agree: must be 1);
* enumeration: hands resolved per second inside the exact enumeration (every weight set to 1:
  (board, compatible assignment) leaves × players / seconds), against phe's evaluations/s;
* calculator targets of issue #10, in node (one thread, engine only) and in headless Chromium through
  the page's worker pool (equity-pool.js) with one worker and with two, wall time on the page's main
  thread from postMessage to the answer: the first run and the best of 3 (each run starts fresh
  workers, which fetch and parse the evaluator tables, as the page does; table answers are read on
  the page's thread, the file fetched once per page, so the first run includes the download).
* the same enumerations and spots in Python (kernels/range_equity/, what ``allin equity`` runs:
  Numba, parallel over boards on every core), best of 3 after a warm-up run that compiles.
The multiway-table row needs ``site/data/multiway.json`` (``allin compute multiway``); it is skipped otherwise.
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

from generator.data.datafiles import matchups_bin
from generator.site.evaluator_asset import write_evaluator_asset
from generator.core.evaluator_tables import evaluator_tables
from generator.compute import registry
from generator.compute.run import default_run
from kernels.cards import CLASS_NAMES, parse_cards
from kernels.range_equity import enumerate_equity, live_weights, range_equity
from kernels.ranges import parse_range
from served import served_page

#: The issue's calculator targets (seconds) and the spots that measure them.
SPOTS = [
    {"name": "QQ+,AK vs 22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+ on Kh8d3c", "target": 0.5,
     "ranges": ["QQ+,AK", "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+"], "board": "Kh8d3c"},
    {"name": "three ranges of ~100 combos on Ts7h2c", "target": 2.0,
     "ranges": ["77+,ATs+,KTs+,QJs,AQo+", "66-22,A9s-A2s,KQo,QTs,JTs,T9s", "98s,87s,76s,65s,54s,KJo,QJo,JTo,A9o,T8s"],
     "board": "Ts7h2c"},
    {"name": "heads-up preflop class ranges (table)", "target": 0.05,
     "ranges": ["22+,A2s+,K2s+,Q2s+,J7s+,T7s+,97s+,87s,A2o+,K9o+,QTo+,JTo", "QQ+,AK"], "board": ""},
    {"name": "six players preflop with ranges", "target": 3.0,
     "ranges": ["22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+", "QQ+,AK", "random", "random", "TT+,AQs+", "A2s+,KQs"], "board": ""},
    {"name": "AhAd against two random hands on KsQsJs", "target": None, "ranges": ["AhAd", "random", "random"],
     "board": "KsQsJs"},
    {"name": "AKs against five random hands (multiway table)", "target": None,
     "ranges": ["AKs", "random", "random", "random", "random", "random"], "board": "", "multiway": True},
]
ENUMERATIONS = [
    {"name": "heads-up flop (sweep)", "ranges": SPOTS[0]["ranges"], "board": "Kh8d3c", "enumeration": True},
    {"name": "heads-up river, random vs random", "ranges": ["random", "random"], "board": "AsKsQsJs9d", "enumeration": True},
    {"name": "3 players flop, AhAd vs random vs random", "ranges": ["AhAd", "random", "random"], "board": "KsQsJs",
     "enumeration": True},
    {"name": "3 players flop (last range counted at once)", "ranges": ["AA,KK,AKs", "QQ-TT,AQs", "JJ-99,KQs"], "board": "Ts7h2c",
     "enumeration": True},
]


def live_sizes(spot: dict) -> list[int]:
    board = parse_cards(spot["board"]) if spot["board"] else []
    return [int(np.count_nonzero(w)) for w in live_weights([parse_range(r).weights for r in spot["ranges"]], board, [])]


def site_files(folder: Path) -> bool:
    """Tables, matchups.json + .bin and (when built) multiway.json under ``folder``; True when multiway is there."""
    write_evaluator_asset(folder / "evaluator-tables.bin")
    results, _ = registry.results("headsup", default_run(progress=False))
    (folder / "data").mkdir()
    matchups = {"classes": list(CLASS_NAMES), "win": results.win.tolist(), "tie": results.tie.tolist(), "pairs": results.pairs.tolist()}
    (folder / "data" / "matchups.json").write_text(json.dumps(matchups))  # the node rows read it
    (folder / "data" / "matchups.bin").write_bytes(matchups_bin(matchups))  # the page reads this
    built = ROOT / "site" / "data" / "multiway.json"
    if built.exists():
        shutil.copy(built, folder / "data" / "multiway.json")
    shutil.copytree(ROOT / "templates" / "assets" / "js", folder / "assets" / "js")
    (folder / "bench.html").write_text(HARNESS)
    return built.exists()


HARNESS = """<!doctype html><meta charset="utf-8"><title>equity bench</title><script type="module">
import { EquityPool } from "./assets/js/workers/equity-pool.js";
import { parseRange } from "./assets/js/engines/ranges.js";
const cards = (t) => (t.match(/../g) ?? []).map((c) => 4 * "23456789TJQKA".indexOf(c[0]) + "cdhs".indexOf(c[1]));
window.runSpot = (spot, workers) => new Promise((resolve) => {
  const pool = new EquityPool("./assets/js/workers/equity-worker.js", { type: "module" }, workers);
  const weights = spot.ranges.map((r) => Array.from(parseRange(r).weights));
  const started = performance.now();
  pool.onmessage = (e) => {
    if (e.data.progress) return;
    const r = e.data.result;
    resolve(r ? { ms: performance.now() - started, method: r.method, exact: r.exact, samples: r.samples ?? null,
      se: r.seEquity ? Math.max(...r.seEquity) : null, equity: Array.from(r.equity) } : { error: e.data.error });
  };
  pool.onerror = (e) => resolve({ error: e.message });
  pool.postMessage({ id: 1, tablesUrl: new URL("evaluator-tables.bin", location.href).href,
    matchupsUrl: new URL("data/matchups.bin", location.href).href, weights, board: cards(spot.board), dead: [], targetSe: 1e-3 });
});
window.cores = navigator.hardwareConcurrency;
</script>"""


def run_node(folder: Path, spots: list[dict], multiway: bool) -> list[dict]:
    data = json.loads((folder / "data" / "matchups.json").read_text())
    payload = {"spots": spots, "matchups": data,
               "multiway": json.loads((folder / "data" / "multiway.json").read_text()) if multiway else None}
    (folder / "spots.json").write_text(json.dumps(payload))
    output = subprocess.run(["node", str(ROOT / "benchmarks" / "bench_equity.mjs"), str(folder / "evaluator-tables.bin"),
                             str(folder / "spots.json")], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines()]


def best_seconds(run, repeats: int = 3) -> float:
    """Best of ``repeats`` timed calls of ``run()`` after one untimed call (Numba compiles or loads its cache)."""
    run()
    fastest = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        run()
        fastest = min(fastest, time.perf_counter() - started)
    return fastest


def run_python(folder: Path, spots: list[dict], multiway: bool) -> list[dict]:
    """Per spot ``{seconds, method, exact, samples, se}`` of kernels/range_equity/ (``spot["enumeration"]``:
    enumerate_equity with every weight 1, as the node rows; else range_equity with the tables, as ``allin equity``)."""
    tables, (headsup, _) = evaluator_tables(), registry.results("headsup", default_run(progress=False))
    by_players = json.loads((folder / "data" / "multiway.json").read_text())["by_players"] if multiway else {}
    rows = []
    for spot in spots:
        board = parse_cards(spot["board"]) if spot["board"] else []
        weights = [parse_range(r).weights for r in spot["ranges"]]
        if spot.get("enumeration"):
            live = live_weights([(w > 0).astype(np.float64) for w in weights], board, [])
            rows.append({"seconds": best_seconds(lambda: enumerate_equity(live, board, [], tables))})
            continue
        n = len(weights)
        blocks = {n: by_players[str(n)]} if str(n) in by_players else None
        answer = lambda: range_equity(weights, board, [], tables, headsup, blocks, target_se=1e-3)
        seconds, result = best_seconds(answer), answer()
        rows.append({"seconds": seconds, "method": result.method, "exact": result.exact, "samples": result.samples,
                     "se": None if result.se_equity is None else float(np.max(result.se_equity))})
    return rows


def run_chromium(folder: Path, spots: list[dict]) -> tuple[int, list[dict]]:
    """(navigator.hardwareConcurrency, per spot {workers: (first run, best run)} for 1 and 2 workers)."""
    rows = []
    with served_page(folder, "bench.html") as page:
        page.wait_for_function("window.runSpot !== undefined")
        cores = page.evaluate("window.cores")
        for spot in spots:
            row = {}
            for workers in (1, 2):
                runs = [page.evaluate("([s, w]) => runSpot(s, w)", [spot, workers]) for _ in range(3)]
                errors = [r["error"] for r in runs if "error" in r]
                if errors:
                    raise RuntimeError(f"{spot['name']}: {errors[0]}")
                row[workers] = (runs[0], min(runs, key=lambda r: r["ms"]))
            rows.append(row)
    return cores, rows


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        multiway = site_files(folder)
        spots = [s for s in SPOTS if multiway or not s.get("multiway")]
        node_rows = run_node(folder, ENUMERATIONS + spots, multiway)
        python_rows = run_python(folder, ENUMERATIONS + spots, multiway)
        cores, browser_rows = run_chromium(folder, spots)
    evaluator = node_rows[0]
    print("| JS evaluator (node, random 7-card hands) | evaluations/s | ours ÷ this |\n|---|---:|---:|")
    print(f"| ours, `strength()` | {evaluator['ours'] / 1e6:.1f} M | 1.0× |")
    print(f"| phe `evaluateCardCodes` | {evaluator['phe'] / 1e6:.1f} M | {evaluator['ours'] / evaluator['phe']:.1f}× |")
    print(f"\nComparisons on which ours and phe agree: {evaluator['agree']:.4%}\n")
    print("| exact enumeration | hands | node s (1 thread) | node hands/s | ÷ phe | Python s (Numba, all cores) | "
          "Python hands/s | ÷ phe | node s ÷ Python s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row, py in zip(node_rows[1 : 1 + len(ENUMERATIONS)], python_rows):
        rate, py_rate = row["hands"] / row["seconds"], row["hands"] / py["seconds"]
        print(f"| {row['name']} | {row['hands']:,.0f} | {row['seconds']:.3f} | {rate / 1e6:,.1f} M | {rate / row['phe']:.1f}× | "
              f"{py['seconds']:.3f} | {py_rate / 1e6:,.1f} M | {py_rate / row['phe']:.1f}× | {row['seconds'] / py['seconds']:.2f} |")
    print(f"\nHeadless Chromium: navigator.hardwareConcurrency = {cores} (the page starts {max(1, min(8, cores - 1))} "
          "worker(s): cores − 1); Chromium times are first run / best of 3.\n")
    print("| spot | live combos | method | node, 1 thread | Chromium, 1 worker | Chromium, 2 workers | target | "
          "Python method | Python (Numba) |\n|---|---|---|---:|---:|---:|---:|---|---:|")
    for spot, js, row, py in zip(spots, node_rows[1 + len(ENUMERATIONS) :], browser_rows, python_rows[len(ENUMERATIONS) :]):
        how = js["method"] + ("" if js["exact"] else f", {js['samples']:,} deals, max se {js['se']:.1e}")
        target = "–" if spot["target"] is None else f"≤ {spot['target'] * 1e3:,.0f} ms"
        times = {w: f"{first['ms']:,.0f} / {best['ms']:,.0f} ms" + ("" if best["exact"] else f" (se {best['se']:.1e})")
                 for w, (first, best) in row.items()}
        py_how = py["method"] + ("" if py["exact"] else f", {py['samples']:,} deals, max se {py['se']:.1e}")
        print(f"| {spot['name']} | {'/'.join(map(str, live_sizes(spot)))} | {how} | {js['seconds'] * 1e3:,.0f} ms | "
              f"{times[1]} | {times[2]} | {target} | {py_how} | {py['seconds'] * 1e3:,.0f} ms |")


if __name__ == "__main__":
    main()
