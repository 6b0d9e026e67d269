"""Page weight of the built site (issue #24's targets): bytes each page transfers before it is of use (at most
300 KB) and each calculator before its first answer (at most 2 MB), in headless Chromium, measured as
tests/page_weight.py says (the bytes the server sent; a plain static server without compression).

Run: ``.venv/bin/python benchmarks/bench_page_weight.py [SITE_DIR]`` from the repository root, after ``make build``
(default SITE_DIR: site/). Every page is opened once in a fresh browser context (about two minutes for the default
build's 230 pages); each calculator once with the file its first answer does not need stalled, and once without
(local times: from navigation to the first answer, and for the solver to the answer on the 3-way table).
"""

import functools
import sys
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from page_weight import (
    CALCULATOR_LIMIT, CALCULATORS, PAGE_LIMIT, StallingHandler, is_calculator, page_bytes, stalled_after, transferred,
)
from served import CHROMIUM

FINAL = "document.querySelector('#solver-solution[data-state=drawn]:not([data-provisional]):not([data-forming])')"


def kb(n: int) -> str:
    return f"{n / 1024:,.0f} KB"


SOLUTION = "fetch(document.querySelector('#solver-download').href).then((r) => r.json())"


def largest_change(first: dict, final: dict) -> tuple[float, str]:
    """The largest |difference| of a frequency between two solutions' spots (``{spot: {class: f}}``), and where."""
    change, where = 0.0, ""
    for spot in final.keys() | first.keys():
        for name in final.get(spot, {}).keys() | first.get(spot, {}).keys():
            d = abs(final.get(spot, {}).get(name, 0.0) - first.get(spot, {}).get(name, 0.0))
            if d > change:
                change, where = d, f"{spot} {name}"
    return change, where


def stalled_answers(browser, base: str, site: Path, path: str, ready: str, stall: str) -> tuple[int, dict]:
    """Bytes the server sent before the first answer with ``stall`` held after what it needs; then, the file let go,
    how far that first answer is from the final one."""
    context = browser.new_context()
    page = context.new_page()
    try:
        with stalled_after(site, stall):
            StallingHandler.sent.clear()
            page.goto(base + path)
            page.wait_for_function(ready, timeout=600_000)
            needed = sum(StallingHandler.sent.values())
            first = page.evaluate(SOLUTION)
        page.wait_for_function(FINAL, timeout=600_000)
        final = page.evaluate(SOLUTION)
    finally:
        context.close()
    return needed, {"path": path, "shove": largest_change(first["shove"], final["shove"]), "call": largest_change(first["call"], final["call"])}


def main(site: Path) -> None:
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(StallingHandler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            pages = sorted(f.relative_to(site).as_posix() for f in site.rglob("*.html"))
            weights = {path: page_bytes(transferred(browser, base, path), path) for path in pages if not is_calculator(path)}
            over = [path for path, size in weights.items() if size > PAGE_LIMIT]
            print(f"{len(weights)} pages (calculators and data downloads apart): largest {kb(max(weights.values()))}, "
                  f"{len(over)} over {kb(PAGE_LIMIT)}{': ' + ', '.join(over) if over else ''}")
            print("| page | bytes before first use |\n|---|---:|")
            for path, size in sorted(weights.items(), key=lambda kv: -kv[1])[:8]:
                print(f"| {path} | {kb(size)} |")
            print("\n| calculator | bytes before its first answer | first answer (local) | final answer (local) |\n|---|---:|---:|---:|")
            compared = None
            for name, path, ready, stall in CALCULATORS:
                if stall:
                    needed, compared = stalled_answers(browser, base, site, path, ready, stall)
                else:
                    needed = sum(transferred(browser, base, path, ready).values())
                context = browser.new_context()
                page = context.new_page()
                started = time.perf_counter()
                page.goto(base + path)
                page.wait_for_function(ready, timeout=600_000)
                first = time.perf_counter() - started
                final = ""
                if stall:
                    page.wait_for_function(FINAL, timeout=600_000)
                    final = f"{time.perf_counter() - started:.1f} s"
                context.close()
                flag = "" if needed <= CALCULATOR_LIMIT else " (over the budget)"
                print(f"| {name} | {kb(needed)}{flag} | {first:.1f} s | {final} |")
            if compared:
                print(f"\nFirst answer (3-way pots from heads-up results) against the answer on the 3-way table, {compared['path']}: "
                      f"largest change of a shove frequency {compared['shove'][0]:.2f} ({compared['shove'][1]}), of a call "
                      f"frequency {compared['call'][0]:.2f} ({compared['call'][1]})")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "site")
