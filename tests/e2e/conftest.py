"""Browser-test fixtures: a built site served over http on 127.0.0.1, and a headless Chromium page
that fails the test on any console error or any request leaving the site.

Data: the directory in ``ALLIN_E2E_DATA`` if set; otherwise the REAL exact heads-up data
(``headsup.json``, ``matchups.json`` from ``run_headsup``: the build cache, ≈ 40 s when cold) and flop atlas
(``flops.json``/``.bin`` from the same walk, ``flop_hits.json``: ``run_flops``, seconds), the real
push/fold equilibria solved from them (``run_pushfold``, cached, seconds), a real but coarse 3-way table
``threeway.bin.gz`` (:data:`E2E_THREEWAY_BOARDS` boards, ≈ 10 s: the browser solver's tests check the page
and the worker, not the table) and SYNTHETIC multiway data, n-player push/fold charts, the precomputed
push/fold set and heads-up thresholds from ``site_fixtures`` (made-up numbers, ``meta.method`` says so).

A missing Chromium or Playwright fails the browser tests (``make browser``, ``make setup-test``):
a skip would hide a broken setup.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generator.site.render import render_site
from generator.compute.stages.flops import run_flops
from generator.compute.stages.headsup import run_headsup
from generator.compute.stages.pushfold import run_pushfold
from page_weight import StallingHandler
from site_fixtures import build_site, site_config, write_pushfold_set, write_synthetic_data

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sync_playwright = None

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
OUTPUT = Path(__file__).resolve().parent / "output"
E2E_THREEWAY_BOARDS = 64


class QuietHandler(StallingHandler):
    """The e2e server's handler: quiet, counting what it sends, stalling the files a test asks it to (tests/page_weight.py)."""


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("e2e-site")
    data = os.environ.get("ALLIN_E2E_DATA")
    if data:
        return build_site(site, data_dir=Path(data))
    run_pushfold(site, run_headsup(site, progress=False))
    run_flops(site, progress=False)  # from the same walk as the heads-up tables (its cache): flops.json and flop_hits.json
    publish_coarse_threeway(site / "data", tmp_path_factory.mktemp("threeway") / "threeway.npz")
    write_synthetic_data(site / "data", files=("threehanded", "fourhanded", "multiway", "pushfold_charts", "pushfold_thresholds"))
    write_pushfold_set(site)
    render_site(site_config(), site)
    return site


def publish_coarse_threeway(data_dir: Path, checkpoint: Path) -> None:
    """``data_dir/threeway.bin.gz`` from a fresh :data:`E2E_THREEWAY_BOARDS`-board run of the threeway stage."""
    from generator.compute.threeway_bin import publish_threeway
    from generator.core.evaluator_tables import evaluator_tables
    from generator.compute.stages.threeway import SEED, possible_triples, run_threeway, threeway_table

    counts = run_threeway(evaluator_tables(), E2E_THREEWAY_BOARDS, SEED, path=checkpoint)
    publish_threeway(data_dir, threeway_table(counts, possible_triples()[2]), E2E_THREEWAY_BOARDS, SEED)


@pytest.fixture(scope="session")
def base_url(site_dir):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site_dir)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def sub_path_origin(site_dir, tmp_path_factory):
    """The e2e site's data rendered under the sub-path ``/atlas/`` (``base_url``) and served: its origin
    (``http://127.0.0.1:port``), the site at ``origin + "/atlas/"``."""
    root = tmp_path_factory.mktemp("host")
    build_site(root / "atlas", base_url="/atlas/", data_dir=site_dir / "data")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(root)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def open_sub_path(browser, sub_path_origin):
    """``open_sub_path(path, width=1280)`` → a page at ``/atlas/path`` of :func:`sub_path_origin`, as :func:`open_page`."""
    with page_opener(browser, f"{sub_path_origin}/atlas/") as open_:
        yield open_


@pytest.fixture(scope="session")
def browser():
    if sync_playwright is None:
        pytest.fail("playwright is not installed: run `make setup-test` (pip install -e '.[test]')", pytrace=False)
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is not installed: run `make browser` (apt-get install chromium)", pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(browser, base_url):
    """``open_page(path, width=1280)`` → a page; console errors and off-site requests fail the test."""
    with page_opener(browser, base_url) as open_:
        yield open_


@contextlib.contextmanager
def page_opener(browser, base_url: str):
    """``open_(path, width=1280)`` → a page at ``base_url + path``; a console or page error, or a request outside
    ``base_url``, fails the test when the context ends."""
    problems: list[str] = []
    pages = []

    def guard(route):
        if route.request.url.startswith(base_url):
            route.continue_()
        else:
            problems.append(f"request left the site: {route.request.url}")
            route.abort()

    def open_(path: str, width: int = 1280, height: int = 900, scheme: str = "light"):
        page = browser.new_page(viewport={"width": width, "height": height}, color_scheme=scheme, has_touch=width < 600)
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.route("**/*", guard)
        page.goto(base_url + path)
        pages.append(page)
        return page

    yield open_
    for page in pages:
        page.close()
    assert problems == []


@pytest.fixture(scope="session")
def screenshot():
    """``screenshot(page, name)`` saves a full-page PNG under tests/e2e/output/ (git-ignored)."""
    OUTPUT.mkdir(exist_ok=True)
    return lambda page, name: page.screenshot(path=str(OUTPUT / f"{name}.png"), full_page=True)


AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_violations():
    """``axe_violations(page, rules=None)`` → every axe-core violation on the page as it is now, one
    ``rule-id  selector: summary`` line per node (axe.min.js injected once per document)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `make node-deps` (npm ci)", pytrace=False)

    def run(page, rules: list[str] | None = None) -> list[str]:
        """``rules``: run only these (e.g. ``["target-size"]``, which axe leaves out by default), else the defaults."""
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.add_script_tag(path=str(AXE))
        options = {"resultTypes": ["violations"], **({"runOnly": {"type": "rule", "values": rules}} if rules else {})}
        result = page.evaluate("options => axe.run(document, options)", options)
        return [
            f"{violation['id']}  {' '.join(map(str, node['target']))}: {node.get('failureSummary', violation['help']).splitlines()[-1].strip()}"
            for violation in result["violations"]
            for node in violation["nodes"]
        ]

    return run
