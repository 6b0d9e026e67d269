"""Flop calculator page benchmark (issue #35's browser targets): the page itself, flop/index.html, in headless Chromium.

Run: ``.venv/bin/python benchmarks/bench_flop_page.py [DATA_DIR]`` from the repository root (DATA_DIR: a built site's
``data/``, default ``site/data``; its headsup.json ranks the classes for the x% ranges). The site is rendered from it into
a temporary folder (the templates and scripts of this checkout) and served on 127.0.0.1 as tests/page_weight.py serves
it (the bytes it sends counted). Measured, each in a fresh browser context (nothing cached), the times the page records:

* the hit table of a 30% range on flops, turns and rivers (main thread; ``data-ms``: rangeHitTable, ``data-shown-ms``:
  with the table and the grid drawn), each board typed into the open page, target ≤ 100 ms;
* the equity distribution of two 30% ranges on a flop (flop-worker.js; from the worker's start to the curve drawn),
  target ≤ 1 s;
* the every-flop report of two 20% ranges (two workers by rounds; the first estimate and the exact answer), target
  ≤ 15 s;
* the page's weight before its first answer (the default hit table), by kind of file;
* the main thread: the longest task in each job, and the longest script of the page's within one (the Long Tasks and
  Long Animation Frames APIs, as benchmarks/bench_main_thread.py), against the 100 ms budget;

and the Python kernels on the same input (``allin flop``'s: range_hit_table, combo_equities + equity_distribution,
every_flop_report; the second call, compiled) for comparison. Prints markdown tables.
"""

import functools
import statistics
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlencode

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from generator.core.evaluator_tables import evaluator_tables
from generator.core.storage import read_json
from kernels.cards import ALL_COMBOS, parse_cards
from kernels.flop.categories import range_hit_table
from kernels.flop.equity import combo_equities, equity_distribution, every_flop_report
from kernels.ranges import parse_range, ranking_from_equity
from page_weight import StallingHandler, transferred
from bench_main_thread import BUDGET_MS, OBSERVE, long_tasks
from served import CHROMIUM
from site_fixtures import build_site

HIT_RANGE, GRAPH_RANGES, REPORT_RANGES = "30%", ("30%", "30%"), ("20%", "20%")
HIT_BOARDS = ("Ks9d4c", "Ah7h2c", "Td9d8s", "6c6d2h", "QsJs5s", "Ks9d4c2h", "Ah7h2cTc", "Ks9d4c2h7s", "Td9d8s5c2d")
GRAPH_BOARD = "Ks9d4c"
REPEATS = 3
READY = {
    "hits": "document.querySelector('#hits-method').dataset.ms !== undefined",
    "graph": "document.querySelector('#graph-method').dataset.done === 'true'",
    "flops": "document.querySelector('#flops-method').dataset.done === 'true'",
}


def page_url(view: str, **state) -> str:
    return "flop/index.html?" + urlencode({**state, "view": view})


def fresh(browser, base: str, path: str, ready: str):
    """A new browser context's page at ``path``, its long tasks observed, once ``ready`` holds: (context, page)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + path)
    page.evaluate(OBSERVE)
    page.wait_for_function(ready, timeout=600_000)
    return context, page


def longest(page, job: str, blocking: dict) -> None:
    """Record in ``blocking[job]`` the longest task and page script since the last look (the longest over calls)."""
    tasks, scripts = long_tasks(page)
    task, script = blocking.get(job, (0.0, 0.0))
    blocking[job] = (max([task, *tasks]), max([script, *scripts]))


def browser_figures(browser, base: str) -> dict:
    figures = {"hits": {}, "graph": [], "graph_again": [], "flops": [], "blocking": {}}
    blocking = figures["blocking"]
    context, page = fresh(browser, base, page_url("hits", range=HIT_RANGE, board=HIT_BOARDS[-1]), READY["hits"])
    longest(page, "load, the first hit table", blocking)
    runs = {board: [] for board in HIT_BOARDS}
    for _ in range(REPEATS):
        for board in HIT_BOARDS:  # each board another than the one before: the page computes it as it is typed
            page.evaluate("delete document.querySelector('#hits-method').dataset.ms")
            page.fill("#board", board)
            page.wait_for_function(f"document.querySelector('#hits-spot').textContent.endsWith({board!r}) && {READY['hits']}")
            runs[board].append([float(page.locator("#hits-method").get_attribute(a)) for a in ("data-ms", "data-shown-ms")])
            longest(page, "a board typed: its hit table", blocking)
    figures["hits"] = {board: np.median(r, axis=0) for board, r in runs.items()}
    context.close()
    for _ in range(REPEATS):
        context, page = fresh(browser, base, page_url("graph", range=GRAPH_RANGES[0], villain=GRAPH_RANGES[1], board=GRAPH_BOARD), READY["graph"])
        figures["graph"].append(float(page.locator("#graph-method").get_attribute("data-ms")))
        longest(page, "load, the distribution", blocking)
        page.click("#compute")  # again in the same page: a new worker, its files in the browser's cache
        page.wait_for_function(READY["graph"], timeout=600_000)
        figures["graph_again"].append(float(page.locator("#graph-method").get_attribute("data-ms")))
        context.close()
    for _ in range(2):
        context, page = fresh(browser, base, page_url("flops", range=REPORT_RANGES[0], villain=REPORT_RANGES[1]), READY["flops"])
        method = page.locator("#flops-method")
        figures["flops"].append((float(method.get_attribute("data-first-ms")), float(method.get_attribute("data-ms")),
                                 float(page.locator("#flops-overall").get_attribute("data-equity"))))
        longest(page, "load, the every-flop report (its estimates, the table of 1,755 flops)", blocking)
        page.select_option("#filter-suits", "two-tone")
        page.wait_for_timeout(300)
        longest(page, "a texture filter", blocking)
        context.close()
    sizes = transferred(browser, base, "flop/index.html", READY["hits"])
    kinds = {}
    for url, size in sizes.items():
        kind = ("HTML" if url.endswith(".html") else "JavaScript" if url.endswith(".js") else "CSS" if url.endswith(".css")
                else "data (evaluator tables, heads-up table)" if url.endswith((".bin", ".json")) else "other (icon, fonts)")
        kinds[kind] = kinds.get(kind, 0) + size
    figures["weight"] = kinds
    return figures


def timed(function, *args) -> tuple[float, object]:
    """Seconds of the second call (the first compiles) and its answer."""
    function(*args)
    started = time.perf_counter()
    answer = function(*args)
    return time.perf_counter() - started, answer


def python_figures(ranking) -> dict:
    tables = evaluator_tables()
    weights = lambda text: parse_range(text, ranking).weights  # noqa: E731
    hit = weights(HIT_RANGE)
    live = np.flatnonzero(hit)
    hits = {board: timed(range_hit_table, ALL_COMBOS[live], hit[live], parse_cards(board), [], tables)[0] for board in HIT_BOARDS}
    graph, _ = timed(lambda: equity_distribution(combo_equities(*map(weights, GRAPH_RANGES), parse_cards(GRAPH_BOARD), [], tables)))
    report_s, report = timed(every_flop_report, *map(weights, REPORT_RANGES), tables)
    return {"hits": hits, "graph": graph, "report": report_s, "overall": report.overall,
            "combos": {text: int((weights(text) > 0).sum()) for text in {HIT_RANGE, *GRAPH_RANGES, *REPORT_RANGES}}}


def main(data_dir: Path) -> None:
    from playwright.sync_api import sync_playwright

    headsup = read_json(data_dir / "headsup.json")
    ranking = ranking_from_equity((np.array(headsup["win"]) + np.array(headsup["tie"]) / 2) / np.array(headsup["total"]))
    with tempfile.TemporaryDirectory() as tmp:
        site = build_site(Path(tmp) / "site", data_dir=data_dir)
        server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(StallingHandler, directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                browser_side = browser_figures(browser, f"http://127.0.0.1:{server.server_port}/")
                browser.close()
        finally:
            server.shutdown()
    python_side = python_figures(ranking)
    combos = python_side["combos"]
    print(f"Ranges: {', '.join(f'{text} = {n} combos' for text, n in sorted(combos.items()))}; median of {REPEATS} runs.\n")
    print("| hit table of a 30% range | browser: rangeHitTable | browser: with the table and grid drawn | Python range_hit_table |\n|---|---:|---:|---:|")
    for board, (engine, shown) in browser_side["hits"].items():
        print(f"| {board} | {engine:.1f} ms | {shown:.1f} ms | {1e3 * python_side['hits'][board]:.2f} ms |")
    graph, again = statistics.median(browser_side["graph"]), statistics.median(browser_side["graph_again"])
    print(f"\n| job | browser (headless Chromium) | target | Python kernel |\n|---|---:|---:|---:|\n"
          f"| distribution, 30% vs 30% on {GRAPH_BOARD}, from the worker's start to the curve: a fresh page; Compute again | "
          f"{graph / 1e3:.2f} s; {again / 1e3:.2f} s | ≤ 1 s | {python_side['graph']:.2f} s |")
    for first, total, overall in browser_side["flops"]:
        assert overall == python_side["overall"], (overall, python_side["overall"])
        print(f"| every-flop report, 20% vs 20% (first estimate; exact) | {first / 1e3:.1f} s; {total / 1e3:.1f} s | ≤ 15 s | "
              f"{python_side['report']:.1f} s |")
    print("\n| main thread | longest task | longest page script in a frame | budget |\n|---|---:|---:|---:|")
    for job, (task, script) in browser_side["blocking"].items():
        print(f"| {job} | {task:.0f} ms | {script:.0f} ms | {BUDGET_MS} ms |")
    weight = browser_side["weight"]
    print("\n| page weight before the first answer (the default hit table) | bytes |\n|---|---:|")
    for kind, size in sorted(weight.items(), key=lambda kv: -kv[1]):
        print(f"| {kind} | {size / 1024:,.1f} KB |")
    code = sum(size for kind, size in weight.items() if kind in ("HTML", "JavaScript", "CSS"))
    print(f"| HTML + JavaScript + CSS | {code / 1024:,.1f} KB |\n| all | {sum(weight.values()) / 1024:,.1f} KB |")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site" / "data")
