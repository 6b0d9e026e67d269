"""Discounted CFR's α, before and after: iterations and seconds to the stopping rule, cold, per table.

Run: ``.venv/bin/python benchmarks/bench_pushfold_schedule.py`` (from the repository root; uses the build cache's
heads-up tables and 3-way checkpoint). Each table is solved cold with ``allin pushfold``'s rule (NashConv and every
class's regret at every decision) by :func:`kernels.pushfold.solve`, once with α = 3/2 (the solver until 2026-11-28)
and once with :data:`kernels.pushfold.DISCOUNT_POSITIVE`, at most ``CAP`` iterations and no fallback schedule
("—": the rule was not met in them). Prints a markdown table.
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import kernels.pushfold as pf
from generator.compute import registry
from generator.compute.run import default_run
from generator.compute.pushfold_records import holdem_equities

BEFORE = 1.5
CAP = 1500
SNG = (50.0, 30.0, 20.0)
SPOTS = [
    ("3-handed 10 bb, 50/30/20 ICM", pf.Table((10.0,) * 3, payouts=SNG)),
    ("4-handed 8 bb, 50/30/20 ICM", pf.Table((8.0,) * 4, payouts=SNG)),
    ("4-handed 16 bb, 50/30/20 ICM", pf.Table((16.0,) * 4, payouts=SNG)),
    ("5-handed 20 bb, chip EV", pf.Table((20.0,) * 5)),
    ("6-handed 25 bb, chip EV", pf.Table((25.0,) * 6)),
    ("6-handed 20 bb, BB ante 1 bb, PKO bounties ½ a stack", pf.Table((20.0,) * 6, ante=1.0, bb_ante=True, bounties=(10.0,) * 6, bounty_share=0.5)),
    ("7-handed 10 bb, BB ante 1 bb, chip EV", pf.Table((10.0,) * 7, ante=1.0, bb_ante=True)),
    ("8-handed 8 bb, chip EV", pf.Table((8.0,) * 8)),
    ("9-handed 12 bb, BB ante 1 bb, chip EV", pf.Table((12.0,) * 9, ante=1.0, bb_ante=True)),
    ("9-handed 15 bb, 50/30/20 ICM", pf.Table((15.0,) * 9, payouts=SNG)),
    ("9-handed SNG 30/12/25/8/18/15/22/10/6 bb, 50/30/20 ICM", pf.Table((30.0, 12.0, 25.0, 8.0, 18.0, 15.0, 22.0, 10.0, 6.0), payouts=SNG)),
    ("10-handed 3 bb, chip EV", pf.Table((3.0,) * 10)),
]


def solved(game, equities, discount) -> tuple[str, str]:
    tolerance, class_tolerance = pf.RULE.tolerances(game.table)
    started = time.perf_counter()
    solution = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=CAP, certify=False,
                        discount=discount)
    seconds = time.perf_counter() - started
    met = solution.nash_conv <= tolerance and solution.max_class_regret <= class_tolerance
    return (f"{solution.iterations}" if met else "—"), f"{seconds:.1f} s"


def main() -> None:
    headsup, _ = registry.results("headsup", default_run(progress=False))
    equities = holdem_equities(headsup, registry.results("threeway", default_run(progress=False))[0])
    print(f"| table | α = {BEFORE:g}: iterations | time | α = {pf.DISCOUNT_POSITIVE:g}: iterations | time |\n|---|---:|---:|---:|---:|")
    for label, table in SPOTS:
        game = pf.make_game(table)
        before, after = solved(game, equities, BEFORE), solved(game, equities, pf.DISCOUNT_POSITIVE)
        print(f"| {label} | {before[0]} | {before[1]} | {after[0]} | {after[1]} |", flush=True)


if __name__ == "__main__":
    main()
