"""Main-thread blocking of the calculators in headless Chromium (target: no task > 100 ms).

Builds a site (the real exact heads-up data from the build cache, synthetic multiway data) in a
temporary directory, serves it on 127.0.0.1 and drives the page as a player would: load (which
computes the default spot), open a range picker, drag across six classes, move the top-x% slider 30
steps, pick a flop in the card picker, compute a range-vs-range flop, and the same on a hand page;
as peers measured in the same run, loading the matchup explorer and the ICM calculator; then the ICM
calculator given a pasted field of 20,000 players (15% paid) until its summary, paged table and
heatmap are shown (issue #13: the page must not freeze).
The browser's Long Tasks API reports every main-thread task over 50 ms; the Long Animation Frames API
names the scripts inside them, so the page's own work can be told from the browser's (the layout of a
20,000-line text box is a long task that runs no page code). The table prints, per step, how many long
tasks there were, the longest, and the longest script, next to the 100 ms budget.

Run from the repository root: ``.venv/bin/python benchmarks/bench_main_thread.py``.
"""

from __future__ import annotations

import functools
import http.server
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import numpy as np
from playwright.sync_api import sync_playwright

from generator.site.render import render_site
from generator.compute import registry
from generator.compute.run import default_run
from site_fixtures import site_config, write_synthetic_data

BUDGET_MS = 100
OBSERVE = """window.__long = []; new PerformanceObserver((list) => window.__long.push(...list.getEntries().map((e) => e.duration)))
  .observe({ type: "longtask", buffered: true });
window.__scripts = []; new PerformanceObserver((list) => {
  for (const frame of list.getEntries()) window.__scripts.push(...frame.scripts.map((s) => s.duration));
}).observe({ type: "long-animation-frame", buffered: true });"""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


def serve(site: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def long_tasks(page) -> tuple[list[float], list[float]]:
    """Durations (ms) of the long tasks, and of the scripts in long animation frames, since the last call."""
    return page.evaluate("[window.__long.splice(0), window.__scripts.splice(0)]")


def wait_done(page, selector: str) -> None:
    page.wait_for_function(f"document.querySelector('{selector}').dataset.method !== undefined", timeout=120000)


def steps(page, base: str):
    page.goto(base + "equity/index.html")
    page.evaluate(OBSERVE)
    wait_done(page, "#equity-method")
    yield "load, compute AsKs vs QQ+,AKo"
    seat = page.locator("#seats > li").nth(1)
    seat.locator("summary").click()
    page.wait_for_selector("#seats > li:nth-child(2) .range-grid")
    yield "open a range picker"
    cells = [seat.locator(f'[data-class="{name}"]').bounding_box() for name in ("JJ", "TT", "99", "88", "77", "66")]
    page.mouse.move(cells[0]["x"] + 5, cells[0]["y"] + 5)
    page.mouse.down()
    for box in cells[1:]:
        page.mouse.move(box["x"] + 5, box["y"] + 5, steps=5)
    page.mouse.up()
    yield "drag across six classes"
    seat.locator('input[type="range"]').focus()
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    yield "top-x% slider, 30 steps"
    page.locator("details[data-cards=board] summary").click()
    for card in ("Kh", "8d", "3c"):
        page.locator(f"details[data-cards=board] [data-card='{card}']").click()
    yield "pick a flop"
    page.locator("#seats input[name=p]").nth(0).fill("QQ+,AK")
    page.locator("#seats input[name=p]").nth(1).fill("22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+")
    yield "type two ranges"
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-method').textContent.startsWith('Exact:')", timeout=120000)
    yield "compute QQ+,AK vs 22+,… on Kh8d3c"
    for peer in ("matchups/index.html", "icm/index.html"):
        page.goto(base + peer)
        page.evaluate(OBSERVE)
        page.wait_for_load_state("networkidle")
        page.wait_for_timeout(500)
        yield f"peer: load {peer.split('/')[0]} page"
    page.goto(base + "hands/AKs/index.html")
    page.evaluate(OBSERVE)
    page.select_option("#hand-opponents", "3")
    page.fill("#hand-board", "Kh8d3c")
    page.click("#hand-compute")
    page.wait_for_function("document.querySelector('#hand-method').dataset.method === 'monte carlo'", timeout=120000)
    yield "hand page: AKs vs 3 random on Kh8d3c"
    rng = np.random.default_rng(20_000)
    stacks = np.round(rng.lognormal(7.0, 1.0, 20_000)).astype(int) + 1
    payouts = np.round(np.linspace(2.0, 1.0, 3000) ** 2 * 100) / 100
    page.goto(base + "icm/index.html")
    page.wait_for_selector("#icm-table td.ev")
    page.evaluate(OBSERVE)
    page.evaluate(  # as a paste: both fields set, one input event
        "([stacks, payouts]) => { const f = document.getElementById('icm-form'); f.elements.stacks.value = stacks;"
        " f.elements.payouts.value = payouts; f.elements.stacks.dispatchEvent(new Event('input', { bubbles: true })); }",
        ["\n".join(map(str, stacks)), " ".join(f"{p:g}" for p in payouts)],
    )
    page.locator("#icm-big").wait_for(state="visible", timeout=240_000)
    page.get_by_role("button", name="Next").click()
    yield "ICM: paste 20,000 players, summary + table + heatmap, next page"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        registry.publish("headsup", default_run(progress=False), site)
        write_synthetic_data(site / "data", files=("multiway",))
        render_site(site_config(), site)
        server, base = serve(site)
        rows = []
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            for step in steps(page, base):
                tasks, scripts = long_tasks(page)
                rows.append((step, len(tasks), max(tasks, default=0.0), max(scripts, default=0.0)))
            browser.close()
        server.shutdown()
    print(f"| step | tasks > 50 ms | longest task (ms) | longest page script (ms) | budget {BUDGET_MS} ms |")
    print("|---|---:|---:|---:|---|")
    for step, count, longest, script in rows:
        shown = f"{longest:.0f}" if count else "< 50"
        print(f"| {step} | {count} | {shown} | {script:.0f} | {'ok' if longest <= BUDGET_MS else 'tasks over' if script <= BUDGET_MS else 'OVER'} |")


if __name__ == "__main__":
    main()
