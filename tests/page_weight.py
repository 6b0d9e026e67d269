"""What a reader downloads before a page is of use: every page under a size, every calculator under a size before
its first answer (issue #24's targets), measured in headless Chromium; and what a whole push/fold solve downloads,
counted from the site's files (:func:`solve_download`, issue #37). Shared by the e2e test
(tests/e2e/test_page_weight_e2e.py, on the e2e site) and benchmarks/bench_page_weight.py (on the built site).

Bytes are the response bodies the server sent (:class:`StallingHandler` counts them; a plain static server, no
compression: a host that gzips HTML sends less), for the page's own requests and its workers' alike. A calculator's first answer may come before a large file has
finished downloading (the push/fold solver answers 3+ players on heads-up results while threeway.bin.gz arrives),
so its bytes are measured with that file stalled after the part the answer needs (:class:`StallingHandler`): what
the answer needed, not what a fast connection happened to bring meanwhile.
"""

from __future__ import annotations

import http.server
import re
import threading
import zlib
from pathlib import Path

#: Bytes a page may transfer before it is of use (loaded, network idle).
PAGE_LIMIT = 300 * 1024
#: Bytes a calculator may transfer before its first answer.
CALCULATOR_LIMIT = 2 * 1024 * 1024

#: Pages that download a data file once loaded, budgeted apart (at most CALCULATOR_LIMIT): the flop table page's
#: flops.bin. The rest of such a page stays within PAGE_LIMIT (:func:`page_bytes`).
DATA_DOWNLOADS = {"flop/all/index.html": "data/flops.bin"}

#: Bytes a whole solve in the browser may download (issue #37): :func:`solve_download`.
SOLVE_LIMIT = 2_000_000
#: The solver page, and the data files its worker fetches for a 3+-player table (pushfold-worker.js).
SOLVER_PAGE = "pushfold/solver/index.html"
SOLVER_DATA = ("matchups.bin", "threeway.bin.gz")

#: (name, path, JavaScript condition of its first answer, file stalled after the bytes the answer needs or None).
CALCULATORS = (
    ("equity calculator, default example", "equity/index.html", "document.querySelector('#equity-method')?.dataset.method !== undefined", None),
    ("matchup explorer, AKs vs QQ", "matchups/index.html?a=AKs&b=QQ", "document.querySelector('#matchup-result td.total')", None),
    ("ICM, 3 players", "icm/index.html?stacks=500,300,200&payouts=600,400", "document.querySelectorAll('#icm-table td.ev').length === 3", None),
    ("ICM call/fold, default spot", "icm/spot/index.html", "document.querySelector('#spot-verdict')", None),
    ("flop calculator, the default hit table", "flop/index.html", "document.querySelector('#hits-method')?.textContent.startsWith('Exact')", None),
    ("push/fold solver, a precomputed table", "pushfold/solver/index.html?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1",
     "document.querySelector('#solver-solution[data-state=drawn]')", None),
    ("push/fold solver, 3 players solved in the browser", "pushfold/solver/index.html?stacks=13,9,7&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20",
     # the first answer on this table (the nearest precomputed table, drawn at once as the start, is another's)
     "document.querySelector('#solver-solution[data-state=drawn][data-provisional]')", "data/threeway.bin.gz"),
)


def compressed_bytes_for(data: bytes, wanted: int) -> int:
    """How many bytes of the gzip stream ``data`` a reader needs to have ``wanted`` bytes uncompressed (at most,
    to 1 KB)."""
    inflate = zlib.decompressobj(wbits=31)
    out = 0
    for at in range(0, len(data), 1024):
        out += len(inflate.decompress(data[at : at + 1024]))
        if out >= wanted:
            return at + 1024
    return len(data)


class StallingHandler(http.server.SimpleHTTPRequestHandler):
    """A quiet static file handler that counts the body bytes it sends (:attr:`sent`, ``{url path: bytes}``) and
    sends the files of :attr:`stalled` (``{url path: (bytes sent first, threading.Event)}``) in two parts: the first
    bytes at once, the rest when the event is set (a download that stalls, to catch what a page does meanwhile; the
    wait ends after two minutes anyway)."""

    stalled: dict = {}
    sent: dict = {}

    def log_message(self, format, *args):
        pass

    def copyfile(self, source, outputfile):
        path = self.path.split("?")[0]
        first, go_on = self.stalled.get(path, (None, None))
        try:
            if first is not None:
                self._send(path, source.read(first), outputfile)
                go_on.wait(timeout=120)
            self._send(path, source.read(), outputfile)
        except (BrokenPipeError, ConnectionResetError):  # the page was closed before the rest of a stalled file
            pass

    def _send(self, path: str, data: bytes, outputfile) -> None:
        outputfile.write(data)
        outputfile.flush()
        self.sent[path] = self.sent.get(path, 0) + len(data)


def needed_prefix(data: bytes) -> int:
    """Bytes of threeway.bin.gz that hold its compatible counts (what the solver's first answer needs), plus 64 KB."""
    from generator.compute.threeway_bin import THREEWAY_HEADER_BYTES
    from kernels.threeway.core import N_TRIPLES

    return compressed_bytes_for(data, THREEWAY_HEADER_BYTES + 2 * N_TRIPLES + 65_536)


def transferred(browser, base_url: str, path: str, ready: str | None = None, timeout_ms: int = 120_000, context=None) -> dict:
    """``{url path: bytes}`` the server sent to a fresh page at ``base_url + path`` (and its workers) until it was
    loaded with the network idle, or until the JavaScript condition ``ready`` held (the server is one serving with
    :class:`StallingHandler`, to this page alone). A new browser context unless ``context`` is given (then the
    browser's cache is on: pass one only for pages that share nothing, or count shared files once)."""
    own = context is None
    context = context or browser.new_context()
    page = context.new_page()
    try:
        StallingHandler.sent.clear()
        page.goto(base_url + path, wait_until="networkidle" if ready is None else "load")
        if ready:
            page.wait_for_function(ready, timeout=timeout_ms)
        return dict(StallingHandler.sent)
    finally:
        page.close()
        if own:
            context.close()


def page_bytes(sizes: dict, path: str) -> int:
    """What counts against PAGE_LIMIT of :func:`transferred`'s ``sizes`` for the page at ``path``: all of it but the
    page's data download (:data:`DATA_DOWNLOADS`)."""
    data = DATA_DOWNLOADS.get(path)
    return sum(size for url, size in sizes.items() if data is None or url != "/" + data)


def is_calculator(path: str) -> bool:
    """Whether the page at ``path`` (relative to the site) is a calculator, whose budget is CALCULATOR_LIMIT."""
    return any(path == c[1].split("?")[0] for c in CALCULATORS)


def stalled_after(site_dir, file: str):
    """A context manager stalling ``file`` (a path in the site) after :func:`needed_prefix`."""
    from contextlib import contextmanager

    @contextmanager
    def stall():
        data = (site_dir / file).read_bytes()
        go_on = threading.Event()
        StallingHandler.stalled["/" + file] = (needed_prefix(data), go_on)
        try:
            yield
        finally:
            go_on.set()
            del StallingHandler.stalled["/" + file]

    return stall()


_PAGE_TAG = re.compile(r"<(script|link)\b([^>]*)>")
_ATTRIBUTE = re.compile(r'\b([a-z-]+)="([^"]*)"')
#: The links a browser fetches with the page (a canonical or alternate link is an address, not a download).
_FETCHED_LINKS = {"stylesheet", "icon", "modulepreload", "preload", "manifest"}
_PAGE_DATA = re.compile(r'\bdata-(worker|index|data)="([^"]+)"')
_MODULE_REFERENCE = re.compile(r'\b(?:import|export)\b[^;"\'`]*?\bfrom\s*["\']([^"\']+)["\']|\bimport\s*\(?\s*["\']([^"\']+)["\']')


def _module_graph(site_dir: Path, entry: Path, seen: dict) -> None:
    """Add ``entry`` and every module it imports (static ``import`` / ``export … from``, ``import("…")``) to ``seen``."""
    if entry in seen:
        return
    if not entry.is_file():
        raise FileNotFoundError(f"{entry.relative_to(site_dir)}: imported but not in the site")
    seen[entry] = entry.stat().st_size
    for match in _MODULE_REFERENCE.finditer(entry.read_text(encoding="utf-8")):
        target = match.group(1) or match.group(2)
        if target.startswith("."):
            _module_graph(site_dir, (entry.parent / target).resolve(), seen)


def solve_download(site_dir: Path) -> dict:
    """``{path in the site: bytes}``: what a browser downloads, at most, to solve a 3+-player table on the solver
    page, from the site's files (no browser): the page; the scripts, stylesheets and icon it links and every module
    they import; the worker (``data-worker``) and its modules; the index of precomputed tables (``data-index``) and
    the largest of them (the page may fetch the nearest one as the solve's start); and the worker's data files
    (:data:`SOLVER_DATA` in ``data-data``). Raises FileNotFoundError when one of them is missing."""
    site_dir = Path(site_dir).resolve()
    page = site_dir / SOLVER_PAGE
    html = page.read_text(encoding="utf-8")
    seen = {page: page.stat().st_size}
    for tag, attributes in _PAGE_TAG.findall(html):
        attribute = dict(_ATTRIBUTE.findall(attributes))
        href = attribute.get("src") if tag == "script" else attribute.get("href")
        if not href or (tag == "link" and attribute.get("rel") not in _FETCHED_LINKS) or re.match(r"[a-z]+:", href):
            continue
        target = (page.parent / href.split("#")[0].split("?")[0]).resolve()
        if target.suffix == ".js":
            _module_graph(site_dir, target, seen)
        elif target.is_file():
            seen[target] = target.stat().st_size
        else:
            raise FileNotFoundError(f"{href}: linked from {SOLVER_PAGE} but not in the site")
    data = dict(_PAGE_DATA.findall(html))
    _module_graph(site_dir, (page.parent / data["worker"]).resolve(), seen)
    index = (page.parent / data["index"]).resolve()
    tables = sorted(index.parent.glob("*/*.json"), key=lambda p: p.stat().st_size)
    for path in [index, *tables[-1:], *((page.parent / data["data"] / name).resolve() for name in SOLVER_DATA)]:
        if not path.is_file():
            raise FileNotFoundError(f"{path.relative_to(site_dir)}: a solve downloads it, but it is not in the site")
        seen[path] = path.stat().st_size
    return {path.relative_to(site_dir).as_posix(): size for path, size in seen.items()}
