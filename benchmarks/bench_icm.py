"""ICM engine benchmark: integral vs subset DP vs Monte Carlo, Python (Numba) and JS (node) side by side.

Run: ``.venv/bin/python benchmarks/bench_icm.py`` (from the repository root). Prints a markdown table;
``--bubble-factors`` prints only the bubble-factor rows, ``--summary`` only the big-field summary rows,
``--crossover`` the series against the Fourier method by players and paid places, ``--all-paid`` only
issue #25's rows: every place paid at 1,000 to 20,000 players, ours (Python, node,
headless Chromium) against the peer Sarose550/ICM (C + FFTW, one thread) in the same run, and the largest
field each computes in 1 s. The peer is on no package registry: it is built (``make libicm``, gcc and
libfftw3-dev) from a checkout named by ``ICM_PEER_DIR`` (default ``benchmarks/peers/ICM``, git-ignored;
https://github.com/Sarose550/ICM), and its rows are skipped, saying so, without one.
Fields: log-normal stacks (sd 1 in log), 15% of the field paid (at least 3 places) with decreasing
prizes, plus equal stacks at n = 10,000. Errors are max (and summed, L1) |equity - reference| over players, in units
of the prize pool; the reference is the exact DP (n <= 20), else the integral with half the step (h/2)
and, for equal stacks, the closed form pool / n.
"""

import contextlib
import ctypes
import json
import os
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernels.icm import harville as icm
from served import CHROMIUM, served_page

ROOT = Path(__file__).resolve().parents[1]
SIZES = [10, 20, 100, 1000, 10_000]
MC_SAMPLES = 2000


def make_field(n: int, equal: bool = False) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n)
    stacks = np.full(n, 1000.0) if equal else rng.lognormal(0.0, 1.0, n)
    paid = max(3, round(0.15 * n))
    payouts = np.linspace(2.0, 1.0, paid) ** 2
    return stacks, payouts


def repeats_for(n: int) -> int:
    return 20 if n <= 100 else 5 if n <= 1000 else 2


def best_time(function, repeats: int):
    """(best wall seconds over `repeats` calls after one warm-up call, last result)."""
    result = function()
    best = np.inf
    for _ in range(repeats):
        start = time.perf_counter()
        result = function()
        best = min(best, time.perf_counter() - start)
    return best, result


def reference_equity(stacks: np.ndarray, payouts: np.ndarray, equal: bool) -> tuple[np.ndarray, str]:
    if equal:
        return np.full(stacks.size, payouts.sum() / stacks.size), "closed form"
    if stacks.size <= 20:
        return icm.prize_equity(stacks, payouts, method="dp").equity, "DP"
    shares = icm.chip_shares(stacks)
    return icm.integral_equity(shares, payouts, step=icm.STEP / 2), "integral h/2"


def run_node(fields: list[tuple[np.ndarray, np.ndarray]], bubble: bool = False, **extra) -> list[dict] | None:
    """JS timings and equities (bubble: bubble-factor matrices) for `fields`, or None when node is missing."""
    node = shutil.which("node")
    if node is None:
        return None
    payload = [
        {"stacks": s.tolist(), "payouts": p.tolist(), "repeats": (1 if s.size > 20 else 5) if bubble else repeats_for(s.size),
         "bubble": bubble, **extra}
        for s, p in fields
    ]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(payload, handle)
    try:
        output = subprocess.run(
            [node, str(ROOT / "benchmarks" / "bench_icm.mjs"), handle.name], check=True, capture_output=True, text=True
        ).stdout
    finally:
        Path(handle.name).unlink()
    return [json.loads(line) for line in output.splitlines()]


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f}"


def measure(stacks: np.ndarray, payouts: np.ndarray, equal: bool, js: dict | None) -> str:
    """One markdown row for a field."""
    n = stacks.size
    pool = payouts.sum()
    shares = icm.chip_shares(stacks)
    nodes = icm.quadrature_nodes(shares, payouts.size)[0].size
    integral_seconds, integral = best_time(lambda: icm.prize_equity(stacks, payouts, places=False, method="integral"), repeats_for(n))
    reference, reference_name = reference_equity(stacks, payouts, equal)
    integral_error = np.abs(integral.equity - reference).max() / pool
    integral_l1 = np.abs(integral.equity - reference).sum() / pool
    fourier_seconds, fourier = best_time(lambda: icm.prize_equity(stacks, payouts, places=False, method="fourier"), repeats_for(n))
    fourier_error = np.abs(fourier.equity - reference).max() / pool
    dp_text = "—"
    if n <= 20:
        dp_seconds, _ = best_time(lambda: icm.prize_equity(stacks, payouts, method="dp"), repeats_for(n))
        dp_text = milliseconds(dp_seconds)
    mc_seconds, (mc_equity, mc_error) = best_time(lambda: icm.monte_carlo_equity(stacks, payouts, samples=MC_SAMPLES, seed=1), 1)
    mc_text = f"{np.abs(mc_equity - reference).max() / pool:.1e} (σ {mc_error.max() / pool:.0e})"
    js_time = js_error = js_gap = "—"
    if js is not None:
        js_equity = np.array(js["equity"])
        js_time = milliseconds(js["seconds"])
        js_error = f"{np.abs(js_equity - reference).max() / pool:.1e}"
        js_gap = f"{np.abs(js_equity - integral.equity).max() / pool:.1e}"
    label = f"{n:,}" + (" equal" if equal else "")
    return (
        f"| {label} | {payouts.size:,} | {nodes} | {milliseconds(integral_seconds)} | {integral_error:.1e} / {integral_l1:.1e} "
        f"| {milliseconds(fourier_seconds)} | {fourier_error:.1e} | {reference_name} "
        f"| {dp_text} | {milliseconds(mc_seconds)} | {mc_text} | {js_time} | {js_error} | {js_gap} |"
    )


BUBBLE_SIZES = [10, 30, 100, 200]
NAIVE_MAX_PLAYERS = 100  # the naive peer takes ~6 s at 100 players in Python


def naive_bubble_factors(stacks: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    """The peer: required equity from one full ICM evaluation per (winner, loser) ordered pair, each
    outcome field with its own quadrature grid (the scheme bubble_factors replaced; docs/icm.md)."""
    n = stacks.size
    base = icm.prize_equity(stacks, payouts, places=False).equity
    gain = np.full((n, n), np.nan)
    loss = np.full((n, n), np.nan)
    for winner in range(n):
        for loser in range(n):
            if winner != loser:
                moved = stacks.copy()
                amount = min(stacks[winner], stacks[loser])
                moved[winner] += amount
                moved[loser] -= amount
                if moved[loser] <= stacks[winner] * icm.BUST_RATIO:
                    moved[loser] = 0.0
                equity = icm.prize_equity(moved, payouts, places=False).equity
                gain[winner, loser] = equity[winner] - base[winner]
                loss[loser, winner] = base[loser] - equity[loser]
    return loss / (gain + loss)


def bubble_factor_rows() -> list[str]:
    """Markdown rows: the bubble-factor matrix (Python, JS) against the naive n (n - 1) evaluations."""
    rows = [
        "| n | paid | method | BF matrix Py s | naive Py s | naive / Py | BF matrix JS s | JS / Py "
        "| max abs(Py - naive) required equity | max abs(JS - Py) required equity |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    fields = [make_field(n) for n in BUBBLE_SIZES]
    js_results = run_node([(s, p) for s, p in fields], bubble=True) or [None] * len(fields)
    for (stacks, payouts), js in zip(fields, js_results):
        n = stacks.size
        seconds, result = best_time(lambda: icm.bubble_factors(stacks, payouts), 1 if n > 20 else 5)
        naive_time = naive_ratio = naive_gap = "—"
        if n <= NAIVE_MAX_PLAYERS:
            naive_seconds, naive = best_time(lambda: naive_bubble_factors(stacks, payouts), 1 if n > 20 else 3)
            naive_time, naive_ratio = f"{naive_seconds:.3f}", f"{naive_seconds / seconds:.0f}×"
            naive_gap = f"{np.nanmax(np.abs(naive - result.required_equity)):.1e}"
        js_time = js_ratio = js_gap = "—"
        if js is not None:
            js_required = np.array([[np.nan if v is None else v for v in row] for row in js["required_equity"]])
            js_time, js_ratio = f"{js['seconds']:.3f}", f"{js['seconds'] / seconds:.1f}"
            js_gap = f"{np.nanmax(np.abs(js_required - result.required_equity)):.1e}"
        rows.append(f"| {n} | {payouts.size} | {result.method} | {seconds:.3f} | {naive_time} | {naive_ratio} "
                    f"| {js_time} | {js_ratio} | {naive_gap} | {js_gap} |")
    return rows


SUMMARY_SIZES = [1000, 20_000]
SUMMARY_BANDS = [[1, 1], [2, 3], [4, 9]]


def summary_rows() -> list[str]:
    """Markdown rows: the ICM page's big-field summary (fieldSummary in node: equity, P(cash),
    P(final table), expected finish, 3 bands) against the plain equity (icm, auto) of the same field in the same run."""
    rows = ["| n | paid | summary JS s | equity only JS s | summary / equity | max abs(P(cash) - Py) |",
            "|---|---|---|---|---|---|"]
    fields = [make_field(n) for n in SUMMARY_SIZES]
    summaries = run_node(fields, bands=SUMMARY_BANDS)
    plain = run_node(fields, method="auto")
    if summaries is None or plain is None:
        return rows + ["| (node not found) | | | | | |"]
    for (stacks, payouts), summary, equity in zip(fields, summaries, plain):
        cash = icm.prize_equity(stacks, np.ones(payouts.size), places=False).equity
        gap = np.abs(np.array(summary["cash"]) - cash).max()
        rows.append(f"| {stacks.size:,} | {payouts.size:,} | {summary['seconds']:.2f} | {equity['seconds']:.2f} "
                    f"| {summary['seconds'] / equity['seconds']:.1f} | {gap:.1e} |")
    return rows


ALL_PAID_SIZES = [1000, 5000, 10_000, 20_000]
SERIES_MAX_PLAYERS = 5000  # the leave-one-out series takes ~25 s at 20,000 players all paid
PEER_QUADRATURE = 256  # the peer's default number of quadrature points (its Python binding's Q)


def chip_field(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Log-normal stacks in whole chips (at least 2: the peer reads stacks as chip counts and goes wrong
    below about 2), every place paid with decreasing prizes."""
    rng = np.random.default_rng(n)
    return np.round(1000.0 * rng.lognormal(0.0, 1.0, n)) + 2.0, np.linspace(2.0, 1.0, n) ** 2


class Peer:
    """Sarose550/ICM's C library built from a checkout into ``workdir`` and called through ctypes
    (``icm_equity(n, stacks, Q, payouts, k, equity)``, one thread, FFTW's estimated plans). It is called
    from ``workdir``: it saves an ``fftw_wisdom.dat`` in its working directory."""

    def __init__(self, workdir: Path):
        source = Path(os.environ.get("ICM_PEER_DIR", ROOT / "benchmarks" / "peers" / "ICM"))
        self.library, self.why_not, self.workdir = None, None, workdir
        if not (source / "src" / "cpu" / "icm.c").is_file():
            self.why_not = f"no Sarose550/ICM checkout at {source} (set ICM_PEER_DIR to a clone of https://github.com/Sarose550/ICM)"
            return
        build = subprocess.run(["make", "-C", str(source), f"BUILD_DIR={workdir}", "libicm"], capture_output=True, text=True)
        if build.returncode != 0:
            self.why_not = f"the peer did not build (gcc and libfftw3-dev needed): {build.stderr.strip().splitlines()[-1:]}"
            return
        self.library = ctypes.CDLL(str(workdir / "libicm.so"))
        with contextlib.chdir(workdir):
            self.library.icm_init(None)

    def equity(self, stacks: np.ndarray, payouts: np.ndarray) -> np.ndarray:
        stacks, payouts = (np.ascontiguousarray(a, dtype=np.float64) for a in (stacks, payouts))
        out = np.empty(stacks.size)
        pointer = ctypes.POINTER(ctypes.c_double)
        with contextlib.chdir(self.workdir):
            self.library.icm_equity(ctypes.c_int(stacks.size), stacks.ctypes.data_as(pointer), ctypes.c_int(PEER_QUADRATURE),
                                    payouts.ctypes.data_as(pointer), ctypes.c_int(payouts.size), out.ctypes.data_as(pointer))
        return out


def ours(stacks: np.ndarray, payouts: np.ndarray) -> np.ndarray:
    return icm.prize_equity(stacks, payouts, places=False).equity


def turns(functions: list, repeats: int) -> list[tuple[float, np.ndarray]]:
    """(best seconds, last result) of each function, all warmed up, then timed in turns (one call of each
    per round, `repeats` rounds) so that a load that comes and goes on a shared machine falls on all alike."""
    results = [function() for function in functions]
    best = [np.inf] * len(functions)
    for _ in range(repeats):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            results[index] = function()
            best[index] = min(best[index], time.perf_counter() - start)
    return list(zip(best, results))


def largest_in_one_second(equity, start: int) -> int:
    """The largest n (to 2%) whose chip_field every place paid takes `equity` at most 1 s (best of 2)."""
    def fits(n: int) -> bool:
        return turns([lambda: equity(*chip_field(n))], 2)[0][0] <= 1.0

    low, high = start, start
    while fits(high):
        low, high = high, high * 2
    if low == high:  # start itself takes more than a second
        low = 1
    while high / low > 1.02:
        middle = int(np.sqrt(low * high))
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low


BROWSER_WORKER = """import { icm } from "./js/icm.js";
onmessage = ({ data: { stacks, payouts, repeats } }) => {
  let best = Infinity, result = null;
  for (let i = 0; i <= repeats; i++) {
    const start = performance.now();
    result = icm(stacks, payouts, { places: false });
    if (i > 0) best = Math.min(best, performance.now() - start);
  }
  postMessage({ seconds: best / 1e3, method: result.method, equity: result.equity });
};
"""
BROWSER_PAGE = """<!doctype html><script type="module">
window.timeIcm = (field) => new Promise((resolve) => {
  const worker = new Worker("worker.js", { type: "module" });
  worker.onmessage = ({ data }) => { worker.terminate(); resolve(data); };
  worker.postMessage(field);
});
</script>"""


def run_chromium(fields: list[tuple[np.ndarray, np.ndarray]], repeats: int) -> list[dict] | None:
    """Best of `repeats` warm runs of icm.js's icm(..., {places: false}) in a module Web Worker of headless
    Chromium (what the ICM page's worker runs) for each field, or None without Chromium."""
    if not Path(CHROMIUM).exists():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shutil.copytree(ROOT / "templates" / "assets" / "js", folder / "js")
        (folder / "worker.js").write_text(BROWSER_WORKER)
        (folder / "bench.html").write_text(BROWSER_PAGE)
        with served_page(folder, "bench.html") as page:
            page.wait_for_function("window.timeIcm !== undefined")
            return [page.evaluate("(field) => timeIcm(field)", {"stacks": s.tolist(), "payouts": p.tolist(), "repeats": repeats})
                    for s, p in fields]


def all_paid_rows() -> list[str]:
    """Markdown rows for issue #25: every place paid, ours (Python, node, Chromium) against the peer."""
    fields = [chip_field(n) for n in ALL_PAID_SIZES]
    js_results = run_node(fields, method="auto") or [None] * len(fields)
    browser = run_chromium(fields, 2) or [None] * len(fields)
    rows = ["| n = k | ours Py s (method) | peer s | peer ÷ ours | series Py s | ours node s | ours Chromium worker s "
            "| max abs(ours − peer) | peer's error, stacks ÷ 1,000 | max abs(node − Py) | max abs(Chromium − Py) |",
            "|---|---|---|---|---|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as tmp:
        peer = Peer(Path(tmp))
        for (stacks, payouts), js, chromium in zip(fields, js_results, browser):
            n, pool = stacks.size, payouts.sum()
            contenders = [lambda: ours(stacks, payouts)] + ([lambda: peer.equity(stacks, payouts)] if peer.library else [])
            timed = turns(contenders, 3 if n <= 5000 else 2)
            (seconds, equity), method = timed[0], icm.prize_equity(stacks[:50], payouts[:50], places=False).method
            peer_text = ratio = gap = scaled = "—"
            if peer.library:
                peer_seconds, peer_equity = timed[1]
                peer_text, ratio = f"{peer_seconds:.3f}", f"{peer_seconds / seconds:.2f}×"
                gap = f"{np.abs(peer_equity - equity).max() / pool:.1e}"
                scaled = f"{np.abs(peer.equity(stacks / 1000, payouts) - equity).max() / pool:.1e}"
            series = "—"
            if n <= SERIES_MAX_PLAYERS:
                series_seconds, series_equity = turns([lambda: icm.prize_equity(stacks, payouts, places=False, method="integral").equity], 1)[0]
                series = f"{series_seconds:.3f} (gap {np.abs(series_equity - equity).max() / pool:.0e})"
            node_text = node_gap = browser_text = browser_gap = "—"
            if js is not None:
                node_text = f"{js['seconds']:.3f}"
                node_gap = f"{np.abs(np.array(js['equity']) - equity).max() / pool:.0e}"
            if chromium is not None:
                browser_text = f"{chromium['seconds']:.3f}"
                browser_gap = f"{np.abs(np.array(chromium['equity']) - equity).max() / pool:.0e}"
            rows.append(f"| {n:,} | {seconds:.3f} ({method}) | {peer_text} | {ratio} | {series} | {node_text} | {browser_text} "
                        f"| {gap} | {scaled} | {node_gap} | {browser_gap} |")
        rows.append("")
        largest = [f"ours (Python) {largest_in_one_second(ours, 20_000):,}"]
        if peer.library:
            largest.append(f"the peer {largest_in_one_second(peer.equity, 10_000):,}")
        else:
            rows.append(f"Peer skipped: {peer.why_not}.")
        rows.append("Largest field, every place paid, in 1 s on one thread: " + ", ".join(largest) + " players.")
    return rows


CROSSOVER_SIZES = [20, 50, 100, 300, 1000, 3000]
CROSSOVER_PAID = [3, 10, 20, 30, 50, 100]


def crossover_rows() -> list[str]:
    """Markdown rows: the equity by the leave-one-out series and by the Fourier method (Python, same run)
    for log-normal fields of 20-3,000 players and 3-100 paid places (auto's AUTO_FOURIER_MIN_PAID)."""
    rows = ["| players \\ paid | " + " | ".join(str(k) for k in CROSSOVER_PAID) + " |",
            "|---|" + "---|" * len(CROSSOVER_PAID)]
    for n in CROSSOVER_SIZES:
        shares = icm.chip_shares(make_field(n)[0])
        cells = []
        for paid in CROSSOVER_PAID:
            if paid > n:
                cells.append("—")
                continue
            payouts = np.linspace(2.0, 1.0, paid) ** 2
            (series, _), (fourier, _) = turns([lambda: icm.integral_equity(shares, payouts),
                                               lambda: icm.fourier_equity(shares, payouts)], 5 if n <= 300 else 3)
            cells.append(f"{series * 1e3:.2f} / {fourier * 1e3:.2f}")
        rows.append(f"| {n:,} | " + " | ".join(cells) + " |")
    return rows


ONLY = {"--crossover": crossover_rows, "--all-paid": all_paid_rows, "--bubble-factors": bubble_factor_rows,
        "--summary": summary_rows}  # a flag prints only these rows


def main() -> None:
    for flag, rows in ONLY.items():
        if flag in sys.argv:
            print("\n".join(rows()))
            return
    fields = [(*make_field(n), False) for n in SIZES] + [(*make_field(10_000, equal=True), True)]
    js_results = run_node([(stacks, payouts) for stacks, payouts, _ in fields]) or [None] * len(fields)
    print("| n | paid | nodes | integral Py ms | integral error max / L1 | Fourier Py ms | Fourier error max | reference "
          f"| DP Py ms | MC Py ms ({MC_SAMPLES:,} samples) | MC error | integral JS ms | JS error | abs(JS - Py) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (stacks, payouts, equal), js in zip(fields, js_results):
        print(measure(stacks, payouts, equal, js), flush=True)
    print("\nErrors: max over players (and L1: sum over players) of |equity - reference| / prize pool.")
    print("Times: best wall time after a warm-up; JS = node running templates/assets/js/engines/icm.js.")
    print("\nBubble factors (kernels/icm/harville.py bubble_factors; naive = one ICM evaluation per ordered pair):\n")
    print("\n".join(bubble_factor_rows()))
    print("\nBig-field summary of the ICM page (icm.js fieldSummary in node) against the plain equity:\n")
    print("\n".join(summary_rows()))
    print("\nEvery place paid (issue #25): ours against the peer Sarose550/ICM in the same run:\n")
    print("\n".join(all_paid_rows()))


if __name__ == "__main__":
    main()
