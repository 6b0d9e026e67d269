"""Browser push/fold solver benchmark: pushfold-worker.js in headless Chromium against kernels/pushfold/ (``allin pushfold``).

Run: ``.venv/bin/python benchmarks/bench_pushfold_browser.py`` (from the repository root; needs Playwright and
/usr/bin/chromium, and the build cache's heads-up tables and 3-way checkpoint). A temporary folder laid out
as the built site (``assets/js/`` from templates, ``data/matchups.bin`` and ``data/threeway.bin.gz`` written by
the build's own writers) is served on 127.0.0.1; a page starts the module worker and times, on its main
thread, from postMessage: the first answer drawn so far ("forming", at the first check), and the result under the
full stopping rule (NashConv and every class's regret), cold (no warm start), for a fresh worker (download and parse
of the tables included). Python solves the same tables with ``allin pushfold``'s rule and schedule on the full 3-way
table (its time excludes building the dense 3-way tensor, printed once). The targets are issue #37's, on the 2-core
machine: 9-handed 12 bb with a BB ante, chip EV, ≤ 30 s; the 9-handed SNG (30…6 bb, 50/30/20), ≤ 60 s; the first
chart ≤ 5 s. Prints a markdown table; "browser ÷ Python" compares the time per iteration, both measured in this run.

``--baseline REV``: also time the browser engine of git revision REV (its ``templates/assets/js``) in the same run,
before this tree's, each spot in a fresh worker (a "before" column). ``--no-python``: the browser only. The load
average is printed before each browser run: time on a quiet machine (other processes share the cores).
"""

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import kernels.pushfold as pf
from generator.cli.pushfold import MAX_ITERATIONS
from generator.data.datafiles import matchups_bin
from generator.compute.threeway_bin import publish_threeway
from generator.compute import registry
from generator.compute.run import default_run
from generator.compute.pushfold_records import holdem_equities
from kernels.cards import CLASS_NAMES
from served import served_page

#: (label, stacks, ante, bb_ante, payouts, target s): issue #37's targets.
SPOTS = [
    ("9-handed 12 bb, BB ante 1 bb, chip EV", (12.0,) * 9, 1.0, True, None, 30.0),
    ("9-handed SNG 30/12/25/8/18/15/22/10/6 bb, 50/30/20 ICM", (30.0, 12.0, 25.0, 8.0, 18.0, 15.0, 22.0, 10.0, 6.0), 0.0, False,
     (50.0, 30.0, 20.0), 60.0),
]

HARNESS = """<!doctype html><meta charset="utf-8"><title>push/fold bench</title><script type="module">
window.solve = (table) => new Promise((resolve) => {
  const worker = new Worker("./assets/js/workers/pushfold-worker.js", { type: "module" });
  const started = performance.now();
  let forming = null;
  worker.onmessage = (e) => {
    const m = e.data;
    if (m.type === "forming" && !m.provisional && forming === null) forming = performance.now() - started;
    if (m.type === "result" && !m.provisional) {
      worker.terminate();
      resolve({ ms: performance.now() - started, formingMs: forming, iterations: m.solution.iterations, ruleMet: m.solution.rule_met });
    }
    if (m.type === "error") resolve({ error: m.message });
  };
  worker.postMessage({ type: "solve", table, dataUrl: new URL("data/", location.href).href });
});
window.ready = true;
</script>"""


def site_folder(folder: Path, headsup, threeway, js: Path = ROOT / "templates" / "assets" / "js") -> None:
    shutil.copytree(js, folder / "assets" / "js")
    matchups = {"classes": list(CLASS_NAMES), "win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "pairs": headsup.pairs.tolist()}
    (folder / "data").mkdir()
    (folder / "data" / "matchups.bin").write_bytes(matchups_bin(matchups))
    table, summary = threeway
    publish_threeway(folder / "data", table, summary["boards"], summary["seed"])
    (folder / "bench.html").write_text(HARNESS)


def run_chromium(folder: Path) -> list[dict]:
    """Per spot, a fresh worker: {ms, formingMs, iterations, ruleMet}."""
    rows = []
    with served_page(folder, "bench.html") as page:
        page.wait_for_function("window.ready === true")
        for _, stacks, ante, bb_ante, payouts, _ in SPOTS:
            table = {"stacks": list(stacks), "blinds": [0.5, 1], "ante": ante, "bbAnte": bb_ante, "payouts": payouts and list(payouts)}
            run = page.evaluate("(t) => solve(t)", table)
            if "error" in run:
                raise RuntimeError(run["error"])
            rows.append(run)
    return rows


def revision_js(revision: str, folder: Path) -> Path:
    """``templates/assets/js`` of git ``revision``, extracted under ``folder``."""
    archive = subprocess.run(["git", "archive", revision, "templates/assets/js"], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "templates" / "assets" / "js"


def browser_runs(headsup, threeway, js: Path) -> list[dict]:
    """run_chromium on a site folder with the engine of ``js``, after printing the load average."""
    with tempfile.TemporaryDirectory() as tmp:
        site_folder(Path(tmp), headsup, threeway, js)
        print(f"load average before the browser runs of {js}: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
        return run_chromium(Path(tmp))


def browser_cell(run: dict) -> str:
    met = "" if run["ruleMet"] else " (rule not met)"
    return f"{run['formingMs'] / 1e3:.1f} s | {run['ms'] / 1e3:.1f} s{met} | {run['iterations']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", metavar="REV", help="also time the browser engine of this git revision, first")
    parser.add_argument("--no-python", action="store_true", help="time the browser only")
    args = parser.parse_args()
    headsup, _ = registry.results("headsup", default_run(progress=False))
    threeway = registry.results("threeway", default_run(progress=False))
    before = None
    if args.baseline:
        with tempfile.TemporaryDirectory() as tmp:
            before = browser_runs(headsup, threeway, revision_js(args.baseline, Path(tmp)))
    browser_rows = browser_runs(headsup, threeway, ROOT / "templates" / "assets" / "js")
    head = "| spot |" + (f" `{args.baseline}`: first chart | rule met | iterations |" if before else "")
    head += " browser: first chart | browser: rule met | iterations | target |"
    if args.no_python:
        print(head + "\n|---|" + "---:|" * (head.count("|") - 2))
        for (label, *_, target), run, old in zip(SPOTS, browser_rows, before or [None] * len(SPOTS)):
            print(f"| {label} |" + (f" {browser_cell(old)} |" if old else "") + f" {browser_cell(run)} | ≤ {target:g} s |", flush=True)
        return
    started = time.perf_counter()
    equities = holdem_equities(headsup, threeway[0])
    print(f"Python's dense 3-way tensor built in {time.perf_counter() - started:.1f} s\n")
    head += " Python (`allin pushfold`) | iterations | browser ÷ Python per iteration |"
    print(head + "\n|---|" + "---:|" * (head.count("|") - 2))
    for (label, stacks, ante, bb_ante, payouts, target), run, old in zip(SPOTS, browser_rows, before or [None] * len(SPOTS)):
        game = pf.make_game(pf.Table(stacks, ante=ante, bb_ante=bb_ante, payouts=payouts))
        tolerance, class_tolerance = pf.RULE.tolerances(game.table)
        started = time.perf_counter()
        solution = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=MAX_ITERATIONS,
                            fallback_discount=pf.FALLBACK_DISCOUNT)
        seconds = time.perf_counter() - started
        ratio = (run["ms"] / 1e3 / run["iterations"]) / (seconds / solution.iterations)
        print(f"| {label} |" + (f" {browser_cell(old)} |" if old else "") + f" {browser_cell(run)} | ≤ {target:g} s | "
              f"{seconds:.1f} s | {solution.iterations} | {ratio:.2f}× |", flush=True)


if __name__ == "__main__":
    main()
