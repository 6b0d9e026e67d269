"""pushfold-worker.js in headless Chromium: the message protocol (docs/pushfold.md, "Browser solver"), and
the data page's entry for threeway.bin.gz.

The e2e site has the real matchups.bin; a SYNTHETIC threeway.bin.gz (every sorted triple possible, the 13
orderings equally likely: right format, made-up numbers) goes into a folder of its own and into data/
(the site is then rendered again so the data page lists it), since these tests check the protocol and
the page, not the numbers (tests/js/pushfold_solver.test.mjs checks those).
"""

import hashlib
import shutil

import numpy as np
import pytest
from page_weight import needed_prefix, stalled_after
from site_fixtures import site_config

from generator.compute import threeway_bin
from generator.site.render import render_site
from generator.compute.stages.threeway import N_TRIPLES, ThreewayTable, possible_triples

RUN = """async ([messages, dataUrl, cancelAfter]) => {
  const worker = new Worker(new URL("assets/js/workers/pushfold-worker.js", document.baseURI), { type: "module" });
  const seen = [];
  return await new Promise((resolve) => {
    worker.onmessage = (e) => {
      seen.push(e.data);
      if (cancelAfter !== null && e.data.type === "progress" && e.data.phase === "solve" && e.data.iteration >= cancelAfter) {
        cancelAfter = null;
        worker.postMessage({ type: "cancel" });
      }
      if (["result", "error", "cancelled"].includes(e.data.type)) { worker.terminate(); resolve(seen); }
    };
    worker.onerror = (e) => resolve([...seen, { type: "worker error", message: e.message }]);
    for (const message of messages) worker.postMessage({ ...message, dataUrl: new URL(dataUrl, document.baseURI).href });
  });
}"""


@pytest.fixture(scope="module")
def data_folders(site_dir):
    """``pf-worker/full/`` (matchups.bin + synthetic threeway.bin.gz) and ``pf-worker/no-threeway/``."""
    full, partial = site_dir / "pf-worker" / "full", site_dir / "pf-worker" / "no-threeway"
    for folder in (full, partial):
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(site_dir / "data" / "matchups.bin", folder / "matchups.bin")
    orderings = np.full((N_TRIPLES, 13), 1 / 13)
    table = ThreewayTable(orderings, None, None, np.ones(N_TRIPLES, np.int64), np.ones(N_TRIPLES, np.int64))
    threeway_bin.publish_threeway(full, table, boards=1, seed=1)
    published = site_dir / "data" / "threeway.bin.gz"
    before = published.read_bytes() if published.exists() else None
    shutil.copy(full / "threeway.bin.gz", published)
    render_site(site_config(), site_dir)
    yield "pf-worker/full/", "pf-worker/no-threeway/"
    # The site is shared by every e2e module of this process: the solver's tests after this one must solve on the
    # table they were given, not on this synthetic one (a test that ran after this module solved on made-up data).
    if before is None:
        published.unlink()
    else:
        published.write_bytes(before)
    render_site(site_config(), site_dir)


def table(stacks, payouts=None):
    return {"stacks": stacks, "blinds": [0.5, 1], "ante": 0, "bbAnte": False, "payouts": payouts}


def test_heads_up_solve_reports_download_and_solve_progress(open_page, data_folders, site_dir):
    page = open_page("")
    messages = page.evaluate(RUN, [[{"type": "solve", "table": table([10, 10])}], data_folders[1], None])
    kinds = [(m["type"], m.get("phase")) for m in messages]
    assert kinds[0] == ("progress", "download") and kinds[-1] == ("result", None)
    download = [m for m in messages if m.get("phase") == "download"]
    assert download[-1]["loaded"] == download[-1]["total"] == (site_dir / "data" / "matchups.bin").stat().st_size
    solve = [m for m in messages if m.get("phase") == "solve"]
    assert solve and all(m["units"] == "bb" for m in solve) and solve[-1]["nashConv"] <= 0.01
    solution = messages[-1]["solution"]
    assert solution["positions"] == ["SB", "BB"] and set(solution["call"]) == {"BB vs SB"}
    # the answer is the averages cleaned of their residue (pushfold/cfr.js removeResidue): its own NashConv, within the rule
    assert solution["shove"]["SB"]["AA"] == 1 and solution["rule_met"] and solution["exploitability"]["bb"] <= solve[-1]["target"]
    assert all(0.005 <= p <= 0.995 or p in (0, 1) for spot in solution["shove"].values() for p in spot.values())


def test_three_handed_icm_and_cancel(open_page, data_folders):
    page = open_page("")
    messages = page.evaluate(RUN, [[{"type": "solve", "table": table([10, 10, 10], [50, 30, 20]), "maxIterations": 60}], data_folders[0], None])
    assert messages[-1]["type"] == "result", messages[-1]
    assert {m["units"] for m in messages if m.get("phase") == "solve"} == {"pool_pct"}
    assert messages[-1]["solution"]["exploitability"]["bb"] is None
    cancelled = page.evaluate(RUN, [[{"type": "solve", "table": table([10, 10, 10, 10, 10])}], data_folders[0], 1])
    assert cancelled[-1] == {"type": "cancelled"} and not any(m["type"] == "result" for m in cancelled)


def test_a_first_answer_on_heads_up_results_while_the_three_way_table_downloads(open_page, data_folders, site_dir):
    """threeway.bin.gz stalls after its compatible counts: the worker posts a provisional answer (3-way pots priced
    from heads-up results) before the download ends, then the answer on the 3-way table, and downloaded only the
    first part of the file before the first answer."""
    slow = site_dir / "pf-worker" / "slow"
    slow.mkdir(exist_ok=True)
    shutil.copy(site_dir / "data" / "matchups.bin", slow / "matchups.bin")
    compatible = possible_triples()[2]  # the real compatible counts; made-up orderings that compress like real ones
    orderings = np.random.default_rng(5).dirichlet(np.ones(13), size=N_TRIPLES) * (compatible > 0)[:, None]
    samples = np.where(compatible > 0, 1, 0)
    threeway_bin.publish_threeway(slow, ThreewayTable(orderings, None, None, samples, compatible), boards=1, seed=1)
    data = (slow / "threeway.bin.gz").read_bytes()
    first = needed_prefix(data)
    assert first < len(data) / 4
    with stalled_after(site_dir, "pf-worker/slow/threeway.bin.gz"):
        page = open_page("")
        page.evaluate("""([dataUrl, table]) => {
          window.seen = [];
          const worker = new Worker(new URL("assets/js/workers/pushfold-worker.js", document.baseURI), { type: "module" });
          worker.onmessage = (e) => window.seen.push(e.data);
          worker.postMessage({ type: "solve", table, dataUrl: new URL(dataUrl, document.baseURI).href });
        }""", ["pf-worker/slow/", table([12, 8, 20, 5], [50, 30, 20])])
        page.wait_for_function("window.seen.some((m) => m.type === 'result' || m.type === 'error')", timeout=60_000)
        messages = page.evaluate("window.seen")
        assert messages[-1]["type"] == "result" and messages[-1]["provisional"] is True, messages[-1]
        wire = [m["loaded"] for m in messages if m.get("phase") == "download"]
        assert max(wire) <= (slow / "matchups.bin").stat().st_size + first  # the first answer came before the rest of the file
        assert {m["provisional"] for m in messages if m.get("phase") == "solve"} == {True}
        provisional = messages[-1]["solution"]
    page.wait_for_function("window.seen.filter((m) => m.type === 'result').length === 2", timeout=120_000)
    messages = page.evaluate("window.seen")
    final = messages[-1]
    assert final["type"] == "result" and final["provisional"] is False
    assert [m["loaded"] for m in messages if m.get("phase") == "download"][-1] == len(data) + (slow / "matchups.bin").stat().st_size
    assert provisional["positions"] == final["solution"]["positions"] and provisional["shove"] != final["solution"]["shove"]


@pytest.mark.parametrize(
    ("message", "folder", "expected"),
    [
        ({"type": "solve", "table": table([10, 0.5, 10])}, 0, "Stack 0.5 bb of seat 2 does not cover its blind and ante (0.5 bb)."),
        ({"type": "solve", "table": table([10] * 11)}, 0, "11 stacks given: push/fold needs 2 to 10 players."),
        ({"type": "solve", "table": table([10, 10, 10])}, 1, "Could not download the equity tables (threeway.bin.gz: HTTP 404)."),
    ],
)
def test_errors_are_one_sentence(open_page, data_folders, message, folder, expected):
    page = open_page("")
    messages = page.evaluate(RUN, [[message], data_folders[folder], None])
    assert messages[-1] == {"type": "error", "message": expected}


@pytest.mark.parametrize("width", [390, 1280])
def test_data_page_lists_threeway_bin_gz(open_page, data_folders, site_dir, axe_violations, screenshot, width):
    page = open_page("data/", width=width)
    section = page.locator("#file-threeway-bin-gz").locator("xpath=..")
    digest = hashlib.sha256((site_dir / "data" / "threeway.bin.gz").read_bytes()).hexdigest()
    assert digest in section.inner_text() and section.locator('a[href="threeway.bin.gz"]').count() == 1
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert axe_violations(page) == []
    section.scroll_into_view_if_needed()
    screenshot(page, f"data-threeway-{width}")
