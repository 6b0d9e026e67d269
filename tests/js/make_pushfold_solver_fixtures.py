"""Write tests/js/fixtures/threeway.bin.gz and pushfold-matchups.bin (the tables the browser solver loads, as
the build publishes them) and pushfold-solver.json: tables solved by kernels/pushfold_table/ on exactly
the quantised 3-way table of threeway.bin.gz, for tests/js/pushfold_solver.test.mjs; and the provisional
3-way table of the heads-up results (kernels.threeway.pairwise), quantised, as a SHA-256 and sample rows.

Each table (two of them with KO / PKO bounties) runs a fixed number of discounted CFR iterations (tolerance 0)
with the dense 3-way tensor in float64, so the JS solver (float64 throughout) must give the same iterates up to
summation order. Also: a strategy profile that is not an equilibrium with its per-seat best-response gains and
values, and bad tables (bounties among them) with the messages of ``table_errors``.

Run from the repository root: ``.venv/bin/python tests/js/make_pushfold_solver_fixtures.py`` (uses the build
cache's heads-up tables and 3-way checkpoint; about a minute).
"""

import hashlib
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import kernels.pushfold_table as pf
from generator.datafiles import THREEWAY_BIN_NAME, matchups_bin
from generator.stages.threeway_bin import quantise_orderings, read_threeway_bin, threeway_bin
from generator.stages.headsup import headsup_results
from generator.stages.pushfold_table import holdem_equities, solution_json, spot_name
from generator.stages.threeway import threeway_stage
from kernels.cards import CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from kernels.threeway.core import triple_classes
from kernels.threeway.pairwise import pairwise_orderings

FIXTURES = Path(__file__).resolve().parent / "fixtures"

#: (name, table, discounted CFR iterations), solved to tolerance 0: a NashConv check every 5 iterations and at the last.
TABLES = [
    ("heads-up 10 bb, chip EV", pf.Table((10.0, 10.0)), 30),
    ("3-handed 8 bb, BB ante 1, chip EV", pf.Table((8.0, 8.0, 8.0), ante=1.0, bb_ante=True), 30),
    ("4-handed 50/30/20 ICM, unequal stacks (side pots), ante 0.1", pf.Table((12.0, 5.0, 20.0, 8.0), ante=0.1, payouts=(50.0, 30.0, 20.0)), 30),
    ("5-handed 3 bb, chip EV (4+-way pots)", pf.Table((3.0, 2.5, 4.0, 3.0, 3.5)), 12),
    ("4-handed 50/30/20 ICM PKO (half in cash), unequal stacks and bounties, ante 0.1",
     pf.Table((12.0, 5.0, 20.0, 8.0), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(10.0, 5.0, 20.0, 10.0), bounty_share=0.5), 30),
    ("5-handed 3 bb, chip EV KO (bounties in bb; 4+-way pots)", pf.Table((3.0, 2.5, 4.0, 3.0, 3.5), bounties=(0.5, 1.0, 0.0, 0.5, 1.5)), 12),
]
#: Warm start: the solution document of TABLES[WARM_FROM] (six decimals, as published) starts this many iterations,
#: with (start_regret, start_within): the default, the build's regret with a bound it meets, a bound it misses (a cold start).
WARM_FROM, WARM_ITERATIONS = 1, 10
WARM_OPTIONS = [(1e-3, None), (0.1, 10.0), (0.1, 0.0)]
#: Solved under the stopping rule (kernels.pushfold_table.RULE), as the solver page does: the JS solver must stop at
#: the same iteration with the same figures.
RULED = ("4-handed 50/30/20 ICM, 12 / 8 / 20 / 5 bb", pf.Table((12.0, 8.0, 20.0, 5.0), payouts=(50.0, 30.0, 20.0)))
#: Solved under the stopping rule with so few iterations that discounted CFR misses it: the fallback schedule
#: (FALLBACK_DISCOUNT) runs as many again, and the JS solver must give the same iterates and totals.
FALLBACK = ("3-handed 50/30/20 ICM, 6 / 9 / 12 bb, 10 + 10 iterations", pf.Table((6.0, 9.0, 12.0), payouts=(50.0, 30.0, 20.0)), 10)
#: A profile that is not an equilibrium, evaluated by the best response.
EVALUATED = ("3-handed 50/30/20 ICM, 6 / 9 / 12 bb", pf.Table((6.0, 9.0, 12.0), payouts=(50.0, 30.0, 20.0)))
#: Tables table_errors refuses.
BAD = [
    pf.Table((10.0,)),
    pf.Table((10.0,) * 11),
    pf.Table((10.0, 0.5, 10.0)),
    pf.Table((10.0, 10.0, 0.75), blinds=(0.5, 1.0)),
    pf.Table((10.0, 10.0), blinds=(1.0, 0.5)),
    pf.Table((10.0, 10.0, 10.0), ante=-0.5),
    pf.Table((10.0, 10.0, 1.5), ante=1.0, bb_ante=True),
    pf.Table((10.0, 10.0), payouts=(50.0, 30.0, 20.0)),
    pf.Table((10.0, 10.0, 10.0), payouts=(0.0, 0.0)),
    pf.Table((10.0, 10.0, 10.0), payouts=(60.0, -10.0)),
    pf.Table((10.0, 10.0, 10.0), bounties=(1.0, -1.0, 0.0)),
    pf.Table((10.0, 10.0, 10.0), payouts=(50.0, 30.0, 20.0), bounties=(1.0, 1.0)),
    pf.Table((10.0, 10.0, 10.0), bounties=(1.0, 1.0, 1.0), bounty_share=1.5),
    pf.Table((10.0, 0.5, 10.0), bounties=(1.0, 1.0, 1.0), bounty_share=-0.5),
]


def js_table(table: pf.Table) -> dict:
    bounties = {} if table.bounties is None else {"bounties": list(table.bounties), "bountyShare": table.bounty_share}
    return {"stacks": list(table.stacks), "blinds": list(table.blinds), "ante": table.ante, "bbAnte": table.bb_ante,
            "payouts": None if table.payouts is None else list(table.payouts), **bounties}


def spot_names(game: pf.Game) -> list[str]:
    names = pf.position_names(game.n)
    return [names[key[1]] if key[0] == "open" else spot_name(names, key) for key in pf.infoset_keys(game)]


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    headsup, _ = headsup_results(progress=False)
    table, summary = threeway_stage(progress=False)
    data = threeway_bin(table, summary["boards"], summary["seed"])
    (FIXTURES / THREEWAY_BIN_NAME).write_bytes(data)
    matchups = {"classes": list(CLASS_NAMES), "win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "pairs": headsup.pairs.tolist()}
    (FIXTURES / "pushfold-matchups.bin").write_bytes(matchups_bin(matchups))
    equities = holdem_equities(headsup, read_threeway_bin(data), dtype=np.float64)

    solved, warm = [], None
    for index, (name, spot, iterations) in enumerate(TABLES):
        game = pf.make_game(spot)
        solution = pf.solve(game, equities, tolerance=0.0, max_iterations=iterations)
        keys = pf.infoset_keys(game)
        if index == WARM_FROM:
            document = solution_json(game, solution)
            names = spot_names(game)
            start = {key: np.array([(document["shove"] if key[0] == "open" else document["call"])[spot_name][c] for c in CLASS_NAMES])
                     for key, spot_name in zip(keys, names)}
            warm = []
            for regret, within in WARM_OPTIONS:
                again = pf.solve(game, equities, tolerance=0.0, max_iterations=WARM_ITERATIONS, start=start, start_regret=regret,
                                 start_within=within)
                warm.append({"table": js_table(spot), "start": document, "iterations": WARM_ITERATIONS, "start_regret": regret,
                             "start_within": within, "warm_started": again.warm_started,
                             "strategies": [again.strategy[key].tolist() for key in keys], "nash_conv": again.nash_conv})
        solved.append({"name": name, "table": js_table(spot), "iterations": iterations, "spots": spot_names(game),
                       "strategies": [solution.strategy[key].tolist() for key in keys], "nash_conv": solution.nash_conv,
                       "gains": solution.gains.tolist(), "values": solution.values.tolist(),
                       "reach": {str(m): p for m, p in pf.multiway_reach(game, equities, solution.strategy).items()}})
        print(f"{name}: NashConv {solution.nash_conv:.3e} after {iterations} iterations", flush=True)

    name, spot = EVALUATED
    game = pf.make_game(spot)
    rng = np.random.default_rng(11)
    profile = {key: np.where(rng.random(len(CLASS_NAMES)) < 0.3, rng.random(len(CLASS_NAMES)), 0.0) for key in pf.infoset_keys(game)}
    check = pf.best_response(game, equities, profile)
    evaluated = {"name": name, "table": js_table(spot), "strategies": [profile[key].tolist() for key in pf.infoset_keys(game)],
                 "gains": check.gains.tolist(), "values": check.values.tolist(),
                 "class_regret": {spot: check.class_regret[key].tolist() for spot, key in zip(spot_names(game), pf.infoset_keys(game))}}

    name, spot = RULED
    game = pf.make_game(spot)
    tolerance, class_tolerance = pf.RULE.tolerances(spot)
    solution = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance)
    ruled = {"name": name, "table": js_table(spot), "iterations": solution.iterations, "document": solution_json(game, solution)}
    print(f"{name}: the stopping rule met after {solution.iterations} iterations", flush=True)

    name, spot, iterations = FALLBACK
    game = pf.make_game(spot)
    tolerance, class_tolerance = pf.RULE.tolerances(spot)
    solution = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=iterations,
                        fallback_discount=pf.FALLBACK_DISCOUNT)
    assert solution.schedule == "cfr+", "the fixture must exercise the fallback"
    fallback = {"name": name, "table": js_table(spot), "max_iterations": iterations, "iterations": solution.iterations,
                "schedule": solution.schedule, "strategies": [solution.strategy[key].tolist() for key in pf.infoset_keys(game)],
                "nash_conv": solution.nash_conv}

    bad = [{"table": js_table(spot), "errors": pf.table_errors(spot)} for spot in BAD]
    pairwise = pairwise_table(headsup, table.compatible)
    (FIXTURES / "pushfold-solver.json").write_text(json.dumps({"classes": list(CLASS_NAMES), "solved": solved, "warm": warm, "evaluated": evaluated,
                                                              "ruled": ruled, "fallback": fallback, "bad": bad, "pairwise": pairwise}))
    print(f"wrote {FIXTURES / 'pushfold-solver.json'}, {THREEWAY_BIN_NAME} and pushfold-matchups.bin")


def pairwise_table(headsup, compatible: np.ndarray) -> dict:
    """The provisional 3-way table the browser builds from matchups.bin (heads-up win / tie / loss over the
    pair's deals, as pushfold/model.js divides them) and the compatible counts: its (T, 13) quantised counts,
    zero where no combo triple is compatible, as a SHA-256 and a few rows."""
    total = (headsup.pairs * BOARDS_PER_MATCHUP).astype(np.float64)
    win, tie = headsup.win.astype(np.float64), headsup.tie.astype(np.float64)
    duel = np.stack([win / total, tie / total, (total - win - tie) / total], axis=-1)
    counts = quantise_orderings(pairwise_orderings(duel, triple_classes()))
    counts[np.asarray(compatible) == 0] = 0
    rows = [0, 1, 4_096, 400_000, 818_804]
    return {"sha256": hashlib.sha256(counts.tobytes()).hexdigest(), "rows": {str(r): counts[r].tolist() for r in rows}}


if __name__ == "__main__":
    main()
