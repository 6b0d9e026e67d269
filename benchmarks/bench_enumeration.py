"""Exact range-equity enumeration on issue #25's spots: ours (Python and the browser's JS in node) against OMPEval's
EquityCalculator (exact mode), taking turns in the same run.

Run: ``.venv/bin/python benchmarks/bench_enumeration.py [ROUNDS] [RUNS]`` (from the repository root; needs node).
Prints a markdown table.

* ours, Python: ``kernels.range_equity.range_equity`` on the parsed weights, as ``allin equity`` calls it (the engine
  only: no start-up, no parsing; its thread count is its own choice, one thread below ``SERIAL_WORK``); where it
  counts by deal orbits and patterns, also the board-by-board method that answered before (``method="boards"``);
* ours, JS: ``rangeEquity`` of templates/assets/js/engines/range-equity.js in node, one thread (benchmarks/bench_enumeration.mjs),
  after 15 warm-up calls (V8 optimises the hot functions after ~10); each spot's first call in a fresh process, the
  JIT cold, is printed apart;
* OMPEval (C++, not on a registry): ``benchmarks/peers/ompeval_equity.cpp --enumerate``, built with
  ``g++ -O3 -march=native`` against the checkout named by ``OMPEVAL_DIR`` (benchmarks/ompeval.py; its rows are skipped,
  saying so, without one), on 1 and 2 threads, each run timed around ``start()``/``wait()`` in its own process.
  Its ranges are given as our parsed combos, listed (it reads no ``QQ-TT``), so both count the same deals.

Each round (default 3) runs every engine RUNS times (default 5) per spot, in turn; a row is its best run over all
rounds, in wall time and in process CPU time (other jobs on a shared machine count against neither). Equities must
agree: ours in Python and in JS to 1e-15, OMPEval's to its 12 printed decimals.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from generator.site.evaluator_asset import write_evaluator_asset
from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import ALL_COMBOS, format_cards, parse_cards
from kernels.range_equity import live_weights, range_equity
from kernels.range_equity.enumeration import enumerate_equity, enumeration_method
from kernels.ranges import parse_range
from ompeval import build_equity_harness

#: Issue #25's spots: (name, ranges, board, dead).
SPOTS = [
    ("AsKs vs QQ+,AKo preflop", ("AsKs", "QQ+,AKo"), "", ""),
    ("AA,KK,AKs / QQ-TT,AQs / JJ-99,KQs on Ts7h2c", ("AA,KK,AKs", "QQ-TT,AQs", "JJ-99,KQs"), "Ts7h2c", ""),
    ("QQ+,AK vs 22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+ on Kh8d3c", ("QQ+,AK", "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+"), "Kh8d3c", ""),
    ("AhAd vs random vs random on KsQsJs", ("AhAd", "random", "random"), "KsQsJs", ""),
]


def cards(text: str) -> list[int]:
    return parse_cards(text) if text else []


def ompeval_ranges(ranges) -> list[str]:
    """Each range as OMPEval reads it: ``random``, or our parsed combos listed (``AsKs,QhQd,...``)."""
    return [r if r == "random" else ",".join(format_cards(ALL_COMBOS[c][::-1]) for c in np.flatnonzero(parse_range(r).weights))
            for r in ranges]


def ompeval_runs(binary: Path, spot, threads: int, runs: int) -> tuple[list[tuple[float, float]], np.ndarray]:
    """OMPEval's ``runs`` enumerations of ``spot`` in one process: [(wall s, CPU s)] and its equities."""
    _, ranges, board, dead = spot
    out = subprocess.run([str(binary), "--enumerate", str(runs), str(threads), board or "-", dead or "-", *ompeval_ranges(ranges)],
                         check=True, capture_output=True, text=True).stdout.split("\n")
    rows = [list(map(float, line.split())) for line in out if line.strip()]
    return [(r[0], r[1]) for r in rows], np.array(rows[-1][2:])


def python_runs(spot, tables, runs: int, method: str | None = None) -> tuple[list[tuple[float, float]], object]:
    """Our Python engine's ``runs`` answers of ``spot``: [(wall s, CPU s)] and the last result; with ``method``,
    ``enumerate_equity`` by that method on the live weights (the board method: what answered before the patterns)."""
    _, ranges, board, dead = spot
    weights = [parse_range(r).weights for r in ranges]
    live = live_weights(weights, cards(board), cards(dead))
    times, result = [], None
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        if method is None:
            result = range_equity(weights, cards(board), cards(dead), tables)
        else:
            result = enumerate_equity(live, cards(board), cards(dead), tables, method=method)
        times.append((time.perf_counter() - wall, time.process_time() - cpu))
    return times, result


def node_runs(tables_file: Path, spots_file: Path, runs: int) -> list[dict]:
    output = subprocess.run(["node", str(ROOT / "benchmarks" / "bench_enumeration.mjs"), str(tables_file), str(spots_file), str(runs)],
                            check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in output.splitlines()]


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    tables = evaluator_tables()
    best: dict[tuple[str, str], list[float]] = {}  # (spot, engine) -> [best wall, best CPU]
    equities: dict[tuple[str, str], np.ndarray] = {}
    methods: dict[str, str] = {}

    def keep(name, engine, times, equity):
        row = best.setdefault((name, engine), [np.inf, np.inf])
        row[0], row[1] = min(row[0], *(w for w, _ in times)), min(row[1], *(c for _, c in times))
        equities[name, engine] = np.asarray(equity)

    for spot in SPOTS:
        python_runs(spot, tables, 1)  # Numba compiles or loads its cache
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        write_evaluator_asset(folder / "evaluator-tables.bin")
        (folder / "spots.json").write_text(json.dumps([{"name": n, "ranges": list(r), "board": cards(b), "dead": cards(d)}
                                                       for n, r, b, d in SPOTS]))
        binary, why_not = build_equity_harness(folder)
        load, started = [os.getloadavg()[0]], time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        for _ in range(rounds):
            for spot in SPOTS:
                name = spot[0]
                if binary is not None:
                    for threads in (1, 2):
                        keep(name, f"OMPEval, {threads} thread{'s' * (threads > 1)}", *ompeval_runs(binary, spot, threads, runs))
                times, result = python_runs(spot, tables, runs)
                keep(name, "ours, Python (Numba)", times, result.equity)
                live = live_weights([parse_range(r).weights for r in spot[1]], cards(spot[2]), cards(spot[3]))
                methods[name] = f"{result.method}, {enumeration_method(live, cards(spot[2]), cards(spot[3]))}"
                if methods[name].endswith("patterns"):
                    times, before = python_runs(spot, tables, runs, "boards")
                    keep(name, "ours, Python, board by board (before)", times, before.equity)
            for row in node_runs(folder / "evaluator-tables.bin", folder / "spots.json", runs):
                keep(row["name"], "ours, JS (node, 1 thread)", row["runs"], row["equity"])
                keep(row["name"], "cold", [row["first"]], row["equity"])
                assert row["method"] == methods[row["name"]], row
            load.append(os.getloadavg()[0])
    print(f"{started}, {rounds} rounds × {runs} runs taking turns, best run of each; load average "
          f"{min(load):.1f}–{max(load):.1f}; {os.cpu_count()} CPUs\n")
    print("| spot | engine | method | wall ms | CPU ms | OMPEval 1 thread ÷ this, CPU | OMPEval best wall ÷ this wall |")
    print("|---|---|---|---:|---:|---:|---:|")
    for name, *_ in SPOTS:
        peer_cpu = best.get((name, "OMPEval, 1 thread"), [np.nan, np.nan])[1]
        peer_wall = min(best.get((name, f"OMPEval, {t}"), [np.nan])[0] for t in ("1 thread", "2 threads"))
        for (spot, engine), (wall, cpu) in best.items():
            if spot != name or engine == "cold":
                continue
            method = "exact" if engine.startswith("OMPEval") else "enumeration, boards" if "before" in engine else methods[name]
            print(f"| {name} | {engine} | {method} | {wall * 1e3:,.1f} | {cpu * 1e3:,.1f} | {peer_cpu / cpu:.2f}× | {peer_wall / wall:.2f}× |")
        ours = equities[name, "ours, Python (Numba)"]
        assert np.allclose(ours, equities[name, "ours, JS (node, 1 thread)"], rtol=0, atol=1e-15), name
        assert np.allclose(ours, equities.get((name, "ours, Python, board by board (before)"), ours), rtol=0, atol=1e-15), name
        if binary is not None:
            assert np.allclose(ours, equities[name, "OMPEval, 1 thread"], rtol=0, atol=1e-11), (name, ours)
    print("\nJS, each spot's first call in a fresh node process (the JIT cold; spots in this order), best of the rounds: "
          + "; ".join(f"{name} {best[name, 'cold'][0] * 1e3:,.1f} ms" for name, *_ in SPOTS))
    if why_not:
        print(f"\nOMPEval skipped: {why_not}")
    print("\nEquities equal: ours in Python and JS to 1e-15 (the same counts; the final divisions differ in order), "
          "OMPEval's to its 12 printed decimals.")


if __name__ == "__main__":
    main()
