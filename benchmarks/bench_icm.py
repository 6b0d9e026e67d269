"""ICM engine benchmark: integral vs subset DP vs Monte Carlo, Python (Numba) and JS (node) side by side.

Run: ``.venv/bin/python benchmarks/bench_icm.py`` (from the repository root). Prints a markdown table;
``--bubble-factors`` prints only the bubble-factor rows, ``--summary`` only the big-field summary rows.
Fields: log-normal stacks (sd 1 in log), 15% of the field paid (at least 3 places) with decreasing
prizes, plus equal stacks at n = 10,000. Errors are max (and summed, L1) |equity - reference| over players, in units
of the prize pool; the reference is the exact DP (n <= 20), else the integral with half the step (h/2)
and, for equal stacks, the closed form pool / n.
"""

import json
from pathlib import Path
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kernels import icm  # noqa: E402

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
        f"| {reference_name} "
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
    P(final table), expected finish, 3 bands) against the plain equity of the same field in the same run."""
    rows = ["| n | paid | summary JS s | equity only JS s | summary / equity | max abs(P(cash) - Py) |",
            "|---|---|---|---|---|---|"]
    fields = [make_field(n) for n in SUMMARY_SIZES]
    summaries = run_node(fields, bands=SUMMARY_BANDS)
    plain = run_node(fields)
    if summaries is None or plain is None:
        return rows + ["| (node not found) | | | | | |"]
    for (stacks, payouts), summary, equity in zip(fields, summaries, plain):
        cash = icm.prize_equity(stacks, np.ones(payouts.size), places=False).equity
        gap = np.abs(np.array(summary["cash"]) - cash).max()
        rows.append(f"| {stacks.size:,} | {payouts.size:,} | {summary['seconds']:.2f} | {equity['seconds']:.2f} "
                    f"| {summary['seconds'] / equity['seconds']:.1f} | {gap:.1e} |")
    return rows


def main() -> None:
    if "--bubble-factors" in sys.argv:
        print("\n".join(bubble_factor_rows()))
        return
    if "--summary" in sys.argv:
        print("\n".join(summary_rows()))
        return
    fields = [(*make_field(n), False) for n in SIZES] + [(*make_field(10_000, equal=True), True)]
    js_results = run_node([(stacks, payouts) for stacks, payouts, _ in fields]) or [None] * len(fields)
    print("| n | paid | nodes | integral Py ms | integral error max / L1 | reference | DP Py ms | MC Py ms "
          f"({MC_SAMPLES:,} samples) | MC error | integral JS ms | JS error | abs(JS - Py) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (stacks, payouts, equal), js in zip(fields, js_results):
        print(measure(stacks, payouts, equal, js), flush=True)
    print("\nErrors: max over players (and L1: sum over players) of |equity - reference| / prize pool.")
    print("Times: best wall time after a warm-up; JS = node running templates/assets/js/icm.js.")
    print("\nBubble factors (kernels/icm.py bubble_factors; naive = one ICM evaluation per ordered pair):\n")
    print("\n".join(bubble_factor_rows()))
    print("\nBig-field summary of the ICM page (icm.js fieldSummary in node) against the plain equity:\n")
    print("\n".join(summary_rows()))


if __name__ == "__main__":
    main()
