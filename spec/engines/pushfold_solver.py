"""Golden cases of the push/fold solver: kernels/pushfold/ ↔ templates/assets/js/engines/pushfold-solver.js and
pushfold/ (game, model, cfr, strategy, best-response).

Tables (two of them with KO / PKO bounties) solved by a fixed number of discounted CFR iterations (tolerance 0)
with the dense 3-way tensor in float64, so the JS solver (float64 throughout) must give the same iterates up to
summation order; warm starts from a published solution; a table solved under the stopping rule and one that
needs the fallback schedule; a strategy profile that is not an equilibrium with its per-seat best-response
gains and values; and bad tables (bounties among them) with the messages of ``table_errors``.

The 3-way table is the provisional one (kernels/threeway/pairwise.py: ordering probabilities from the heads-up
results alone), quantised as ``threeway.bin.gz`` stores it, with the exact compatible counts of
spec/threeway-compatible.bin.gz: the JS builds the same table from spec/matchups.bin.gz and that file
(``provisionalEquities``), so no Monte Carlo table (1.2 MB) is committed. ``pairwise`` holds its SHA-256 and a
few rows, and the SHA-256 of the whole ``threeway.bin`` the build's writer gives for it (the JS composes the same
bytes and loads them as the site's file). ``synthetic`` holds the counts Python's reader rebuilds from the
synthetic table's file (spec/tables.py: its header and compatible counts, then spec/threeway-synthetic-tail.bin.gz),
which the JS decoder must rebuild to the last unit.
"""

from __future__ import annotations

import gzip
import hashlib
from types import SimpleNamespace

import numpy as np

import kernels.pushfold as pf
from generator.compute.pushfold_records import holdem_equities, solution_json, spot_name
from generator.compute.threeway_bin import read_threeway_bin, read_threeway_counts, threeway_bin
from kernels.cards import CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from kernels.threeway.compact import quantise_orderings
from kernels.threeway.core import triple_classes
from kernels.threeway.pairwise import pairwise_orderings

NAME = "pushfold-solver"
#: CFR iterates summed by BLAS / einsum (another machine may sum in another order, and ≤ 30 iterations of regret
#: matching grow that): as the node test's tolerance, far below the six decimals a chart shows.
TOLERANCE = 1e-9

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
#: Solved under the stopping rule (kernels.pushfold.RULE), as the solver page does: the JS solver must stop at
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
    pf.Table((10.0, 10.0, 10.0), payouts=(1e308, 1e308)),  # a total that overflows
    pf.Table((1e308, 1e308)),
    pf.Table((100000.0, 12.0, 1000.0)),
    pf.Table((2.5e6, 12000.0, 10000.0), blinds=(500.0, 1000.0)),
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


def provisional_threeway(headsup, compatible: np.ndarray, matchups: bytes) -> tuple[np.ndarray, bytes]:
    """The provisional 3-way table the browser builds from matchups.bin (heads-up win / tie / loss over the pair's
    deals, as pushfold/model.js divides them) and the compatible counts: its ``(T, 13)`` quantised counts, zero
    where no combo triple is compatible, and the uncompressed ``threeway.bin`` that the build's writer gives for it
    with ``matchups`` (the same file's bytes; boards and seed 0)."""
    total = (headsup.pairs * BOARDS_PER_MATCHUP).astype(np.float64)
    win, tie = headsup.win.astype(np.float64), headsup.tie.astype(np.float64)
    duel = np.stack([win / total, tie / total, (total - win - tie) / total], axis=-1)
    counts = quantise_orderings(pairwise_orderings(duel, triple_classes()))
    counts[compatible == 0] = 0
    table = SimpleNamespace(orderings=counts / 255.0, compatible=compatible, samples=np.ones(len(counts)))
    data = gzip.decompress(threeway_bin(table, matchups, 0, 0))
    assert np.array_equal(read_threeway_counts(data, matchups)[1], counts), "the file stores the counts as they are"
    return counts, data


def build() -> dict:
    from generator.compute import registry
    from generator.compute.run import default_run
    from spec.golden import read_gzip
    from spec.tables import MATCHUPS, THREEWAY_COMPATIBLE, THREEWAY_SYNTHETIC_TAIL, threeway_compatible

    headsup, _ = registry.results("headsup", default_run(progress=False))
    matchups = read_gzip(MATCHUPS)
    counts, data = provisional_threeway(headsup, threeway_compatible(), matchups)
    equities = holdem_equities(headsup, read_threeway_bin(data, matchups), dtype=np.float64)

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
    solution = pf.published(game, equities, pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance),
                            tolerance, class_tolerance)
    ruled = {"name": name, "table": js_table(spot), "iterations": solution.iterations, "document": solution_json(game, solution)}

    name, spot, iterations = FALLBACK
    game = pf.make_game(spot)
    tolerance, class_tolerance = pf.RULE.tolerances(spot)
    solution = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=iterations,
                        fallback_discount=pf.FALLBACK_DISCOUNT)
    assert solution.schedule == "cfr+", "the case must exercise the fallback"
    fallback = {"name": name, "table": js_table(spot), "max_iterations": iterations, "iterations": solution.iterations,
                "schedule": solution.schedule, "strategies": [solution.strategy[key].tolist() for key in pf.infoset_keys(game)],
                "nash_conv": solution.nash_conv}

    bad = [{"table": js_table(spot), "errors": pf.table_errors(spot)} for spot in BAD]
    rows = [0, 1, 4_096, 400_000, 818_804]
    pairwise = {"sha256": hashlib.sha256(counts.tobytes()).hexdigest(), "rows": {str(r): counts[r].tolist() for r in rows},
                "threeway_bin_sha256": hashlib.sha256(data).hexdigest()}
    synthetic_file = read_gzip(THREEWAY_COMPATIBLE) + read_gzip(THREEWAY_SYNTHETIC_TAIL)
    _, decoded = read_threeway_counts(synthetic_file, matchups)
    decoded = decoded.astype(np.uint8)
    synthetic = {"sha256": hashlib.sha256(decoded.tobytes()).hexdigest(), "rows": {str(r): decoded[r].tolist() for r in rows + [97 * 4_000]}}
    return {"about": "kernels/pushfold's answers on the provisional 3-way table (kernels/threeway/pairwise.py) of "
            "spec/matchups.bin.gz and spec/threeway-compatible.bin.gz",
            "classes": list(CLASS_NAMES), "pairwise": pairwise, "synthetic": synthetic, "bad": bad, "evaluated": evaluated, "ruled": ruled,
            "fallback": fallback, "warm": warm, "solved": solved}
