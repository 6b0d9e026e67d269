"""Push/fold solver page benchmark: the page (pushfold/solver/) in headless Chromium, main thread included.

Run: ``.venv/bin/python benchmarks/bench_pushfold_page.py`` (from the repository root; needs Playwright and
/usr/bin/chromium, and the build cache's heads-up tables and 3-way checkpoint). A temporary site is built
from the cache (heads-up data, ``threeway.bin.gz``) and rendered with the default config, without a
precomputed set, so every table goes to the worker. Per table the page is opened fresh (tables
downloaded) and timed from navigation to the result drawn; the solver's own time is the one the page
states ("Solved in your browser (… s)", postMessage to result, on the page's clock). Long tasks are the
main thread's tasks over 50 ms (PerformanceObserver "longtask"); the page's budget is 100 ms.
"page ÷ solver" is the whole page's time over the solver's, both measured in the same load.
"""

import re
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.core.config import load_config
from generator.compute.threeway_bin import publish_threeway
from generator.site.render import render_site
from generator.compute import registry
from generator.compute.run import default_run
from generator.site.structure import pushfold_solver_path
from served import served_page

#: (label, keyword arguments of pushfold_solver_path)
TABLES = [
    ("3-handed chip EV, 7/9/11 bb", {"stacks": [7, 9, 11]}),
    ("6-handed 50/30/20 ICM, 10 bb each", {"stacks": [10] * 6, "payouts": [50, 30, 20]}),
    ("9-handed 50/30/20 ICM, 10 bb each", {"stacks": [10] * 9, "payouts": [50, 30, 20]}),
]
LONG_TASKS = "window.longTasks = []; new PerformanceObserver((list) => list.getEntries().forEach((e) => window.longTasks.push(e.duration))).observe({ type: 'longtask', buffered: true });"
DRAWN = "document.querySelector('#solver-solution[data-state=drawn]:not([data-provisional])') || document.querySelector('#table-error li')"  # the final answer


def build(folder: Path) -> None:
    run = default_run(progress=False)
    registry.publish("headsup", run, folder)
    table, summary = registry.results("threeway", run)
    publish_threeway(folder / "data", table, summary["boards"], summary["seed"])
    render_site(load_config(ROOT / "content" / "site.yaml"), folder)
    shutil.rmtree(folder / "data" / "pushfold", ignore_errors=True)  # no precomputed set: the worker solves


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        build(folder)
        print("| table | page: open → drawn | solver (as the page states) | page ÷ solver | long tasks > 50 ms | longest | NashConv |\n"
              "|---|---:|---:|---:|---:|---:|---:|")
        for label, table in TABLES:
            with served_page(folder, "index.html") as page:
                page.add_init_script(LONG_TASKS)
                page.goto(page.url.replace("index.html", pushfold_solver_path(**table)))
                page.wait_for_function(DRAWN, timeout=600_000)
                page.wait_for_timeout(300)  # the last task's entry
                if page.locator("#table-error li").count():
                    raise RuntimeError(page.locator("#table-error").inner_text())
                total = page.evaluate("performance.now()") / 1e3 - 0.3
                solver = float(re.search(r"([\d.]+) s\)", page.locator("#solver-method").inner_text()).group(1))
                tasks = page.evaluate("window.longTasks")
                conv = page.locator("#solver-nash-conv").inner_text()
                print(f"| {label} | {total:.1f} s | {solver:.1f} s | {total / solver:.2f}× | {len(tasks)} | "
                      f"{max(tasks, default=0):.0f} ms | {conv} |", flush=True)


if __name__ == "__main__":
    main()
