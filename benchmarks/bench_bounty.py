"""Bounty (KO / PKO) speeds against the same work without bounties, measured in the same run (issue #27).

Run: ``.venv/bin/python benchmarks/bench_bounty.py`` (from the repository root). Prints markdown tables:

* ICM with bounties: ``kernels.icm.bounty.position_value`` against ``kernels.icm.harville.prize_equity`` and the bounty bubble
  factors against plain ICM's, in Python and in node (``bench_bounty.mjs``: bounty.js against icm.js), with the
  largest difference between the two languages; then ``allin icm --json`` on a large field with and without
  ``--bounties`` (a whole CLI run each: start-up, parsing, the answer).
* Push/fold: ``allin pushfold --json`` on a 10-handed table, ICM 50/30/20 at 10 bb, with PKO bounties (5 a head: half
  of a stack's share of the pool, half in cash) and without, and the same 6-handed in chip EV with a 1 bb BB ante
  (bounties of 5 bb): wall time (the 3-way table's loading included), iterations, NashConv.

``--icm-only`` / ``--pushfold-only`` print one part. Fields: log-normal stacks (sd 1 in log), 15% of the field paid
(at least 3 places) with decreasing prizes, log-normal bounties (sd 0.5) adding up to the prize pool (a 50/50 PKO),
half of a bounty paid in cash.
"""

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

from bench_icm import best_time  # this folder is on sys.path: the script is run by path
from kernels.icm import bounty, harville as icm

ROOT = Path(__file__).resolve().parents[1]
SHARE = 0.5
VALUE_SIZES = [100, 1000, 10_000]
BUBBLE_SIZES = [30, 100, 300]
CLI_PLAYERS = 10_000
#: (label, allin pushfold arguments without bounties, the bounties' arguments)
PUSHFOLD_TABLES = [
    ("10-handed ICM 50/30/20, 10 bb", ["--stacks", ",".join(["10"] * 10), "--payouts", "50,30,20"],
     ["--bounties", ",".join(["5"] * 10), "--bounty-share", "50%"]),
    ("6-handed chip EV, BB ante 1 bb, 10 bb", ["--stacks", ",".join(["10"] * 6), "--ante", "1", "--bb-ante"],
     ["--bounties", ",".join(["5"] * 6), "--bounty-share", "50%"]),
]


def make_field(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(n)
    stacks = rng.lognormal(0.0, 1.0, n)
    paid = max(3, round(0.15 * n))
    payouts = np.linspace(2.0, 1.0, paid) ** 2
    bounties = rng.lognormal(0.0, 0.5, n)
    return stacks, payouts, bounties * payouts.sum() / bounties.sum()


def repeats_for(n: int) -> int:
    return 20 if n <= 100 else 5 if n <= 1000 else 2


def run_node(payload: list[dict]) -> list[dict] | None:
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(payload, handle)
    try:
        output = subprocess.run([node, str(ROOT / "benchmarks" / "bench_bounty.mjs"), handle.name], check=True,
                                capture_output=True, text=True).stdout
    finally:
        Path(handle.name).unlink()
    return [json.loads(line) for line in output.splitlines()]


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f}"


def icm_tables() -> None:
    fields = {n: make_field(n) for n in sorted(set(VALUE_SIZES) | set(BUBBLE_SIZES))}
    payload = [{"stacks": s.tolist(), "payouts": p.tolist(), "bounties": b.tolist(), "share": SHARE, "repeats": repeats_for(n),
                "what": "value"} for n, (s, p, b) in fields.items() if n in VALUE_SIZES]
    payload += [{"stacks": s.tolist(), "payouts": p.tolist(), "bounties": b.tolist(), "share": SHARE, "repeats": 2 if n > 100 else 5,
                 "what": "bubble"} for n, (s, p, b) in fields.items() if n in BUBBLE_SIZES]
    js = {(row["what"], row["n"]): row for row in (run_node(payload) or [])}
    print("| players | what | Python, bounties (ms) | Python, plain ICM (ms) | ratio | node, bounties (ms) | node, plain (ms) "
          "| ratio | max \\|JS − Python\\| / money |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for n in VALUE_SIZES:
        stacks, payouts, bounties = fields[n]
        with_bounties, value = best_time(lambda: bounty.position_value(stacks, payouts, bounties), repeats_for(n))
        plain, _ = best_time(lambda: icm.prize_equity(stacks, payouts, places=False), repeats_for(n))
        row = js.get(("value", n))
        node = ["—"] * 4 if row is None else [ms(row["seconds"]), ms(row["plain_seconds"]), f"{row['seconds'] / row['plain_seconds']:.2f}",
                                              f"{np.abs(np.array(row['total']) - value.total).max() / (payouts.sum() + bounties.sum()):.1e}"]
        print(f"| {n:,} | value (prize + bounty) | {ms(with_bounties)} | {ms(plain)} | {with_bounties / plain:.2f} | " + " | ".join(node) + " |")
    for n in BUBBLE_SIZES:
        stacks, payouts, bounties = fields[n]
        repeats = 2 if n > 100 else 5
        with_bounties, factors = best_time(lambda: bounty.bubble_factors(stacks, payouts, bounties, SHARE), repeats)
        plain, _ = best_time(lambda: icm.bubble_factors(stacks, payouts), repeats)
        row = js.get(("bubble", n))
        if row is None:
            node = ["—"] * 4
        else:
            theirs = np.array([[np.nan if v is None else v for v in r] for r in row["required_equity"]], dtype=float)
            ours = factors.required_equity
            gap = np.nanmax(np.abs(theirs - ours)) if np.array_equal(np.isnan(theirs), np.isnan(ours)) else np.inf
            node = [ms(row["seconds"]), ms(row["plain_seconds"]), f"{row['seconds'] / row['plain_seconds']:.2f}", f"{gap:.1e} (required equity)"]
        print(f"| {n:,} | bubble factors, every pair | {ms(with_bounties)} | {ms(plain)} | {with_bounties / plain:.2f} | " + " | ".join(node) + " |")
    print()
    stacks, payouts, bounties = make_field(CLI_PLAYERS)
    base = ["icm", "--stacks", " ".join(f"{s:.6g}" for s in stacks), "--payouts", " ".join(f"{p:.6g}" for p in payouts), "--json"]
    extra = ["--bounties", " ".join(f"{b:.6g}" for b in bounties), "--bounty-share", "50%"]
    print("| `allin icm --json`, players | with `--bounties` (s) | without (s) | ratio |")
    print("|---:|---:|---:|---:|")
    with_bounties, plain = (min(cli(base + extra)[0] for _ in range(3)), min(cli(base)[0] for _ in range(3)))
    print(f"| {CLI_PLAYERS:,} | {with_bounties:.2f} | {plain:.2f} | {with_bounties / plain:.2f} |")
    print()


def cli(arguments: list[str]) -> tuple[float, str]:
    """(wall seconds, stdout) of one ``allin`` run from this checkout's environment."""
    allin = Path(sys.executable).with_name("allin")
    command = [str(allin)] if allin.exists() else [sys.executable, "-m", "generator.cli"]
    start = time.perf_counter()
    done = subprocess.run(command + arguments, check=True, capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    return time.perf_counter() - start, done.stdout


def pushfold_tables() -> None:
    print("| `allin pushfold --json` | bounties | wall (s) | iterations | NashConv | worst class regret |")
    print("|---|---|---:|---:|---:|---:|")
    for label, arguments, bounties in PUSHFOLD_TABLES:
        for extra in (bounties, []):
            seconds, output = cli(["pushfold", *arguments, *extra, "--json"])
            document = json.loads(output)
            exploit, worst = document["exploitability"], document["class_regret"]
            unit = (f"{exploit['bb']:.2g} bb", f"{worst['bb']:.2g} bb") if exploit["bb"] is not None else (
                f"{exploit['pool_pct']:.2g}% of the pool", f"{worst['pool_pct']:.2g}% of the pool")
            shown = " ".join(extra[1].split(",")[:1]) + " a head, 50% cash" if extra else "none"
            print(f"| {label} | {shown} | {seconds:.1f} | {document['iterations']:,} | {unit[0]} | {unit[1]} |")
    print()


def main() -> None:
    if "--pushfold-only" not in sys.argv:
        icm_tables()
    if "--icm-only" not in sys.argv:
        pushfold_tables()


if __name__ == "__main__":
    main()
