"""The ``pushfold_charts`` stage: precomputed n-player push/fold equilibria → ``pushfold_charts.json``.

Groups of tables (players, ante, payouts) solved over a grid of equal stacks with
``kernels.pushfold_table`` (each stack warm-started from the previous one), on the exact heads-up
tables and the ``threeway`` stage's 3-way table. Per chart: every position's shove frequency and
every call spot's call frequency per class, the NashConv (bb, or % of the pool for ICM), the
iterations and how often 2-, 3- and 4+-way pots happen. Per group: the largest stack of the grid at
which each class shoves / calls (frequency ≥ 0.5).

The default build solves :data:`DEFAULT_GROUPS` (3, 4 and 6 players at 5–20 bb, with and without a
1 bb big-blind ante; the SNG ICM spots at 10 bb); :data:`FULL_GROUPS` is the issue's whole set
(2–10 players, 1–25 bb by 0.5, ± BB ante: hours on 2 cores), opt-in with
``allin compute pushfold-charts --full``. Cached (``generator.cache``), keyed by the solver's code,
the heads-up tables' code, the 3-way table's code, seed and board count, the groups and tolerances.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

import numpy as np

import kernels.pushfold as headsup_solver
import kernels.pushfold_table as pf
from generator.cache import array_json, cache_key, cached_arrays, json_array
from generator.datafiles import publish
from generator.progress import progress_bar
from generator.provenance import code_version, meta_block
from generator.stages.pushfold_table import DECIMALS, holdem_equities, spot_name
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES

CODE_VERSION = code_version("kernels.pushfold_table", "kernels.pushfold")
#: Stopping rule: NashConv ≤ 0.01 bb (chip EV) / ≤ 0.05% of the pool (ICM), the issue's targets.
TOLERANCE_BB = 0.01
TOLERANCE_POOL_PCT = 0.05
MAX_ITERATIONS = 3000
PLAYED = 0.5
METHOD = (
    "n-player push/fold (first in shoves or folds, later players call all-in or fold, side pots exact); "
    "CFR+ with alternating updates over 169 classes; heads-up pots from the exact matchup table, 3-way pots "
    "from the Monte Carlo class-triple table, 4+-way pots by independent-opponent equity products"
)


class Group(NamedTuple):
    """Tables solved over ``stacks`` (bb, equal stacks): ``players`` seats, ``ante`` (BB ante when
    ``bb_ante``), ``payouts`` (None: chip EV)."""

    players: int
    stacks: tuple
    ante: float = 0.0
    bb_ante: bool = False
    payouts: tuple | None = None


_DEFAULT_STACKS = (5.0, 10.0, 15.0, 20.0)
DEFAULT_GROUPS = tuple(
    Group(n, _DEFAULT_STACKS, ante, ante > 0) for n in (3, 4, 6) for ante in (0.0, 1.0)
) + (
    Group(3, (10.0,), payouts=(50.0, 30.0, 20.0)),
    Group(4, (10.0,), payouts=(50.0, 30.0, 20.0)),
    Group(3, (10.0,), payouts=(65.0, 35.0)),
)  # fmt: skip
_FULL_STACKS = tuple(float(s) for s in np.arange(2, 51) / 2)
FULL_GROUPS = tuple(
    Group(n, tuple(s for s in _FULL_STACKS if s > 1.0 + ante), ante, ante > 0) for n in range(2, 11) for ante in (0.0, 1.0)
) + tuple(
    Group(n, (5.0, 10.0, 15.0, 20.0), payouts=payouts)
    for n, payouts in ((3, (50.0, 30.0, 20.0)), (4, (50.0, 30.0, 20.0)), (9, (50.0, 30.0, 20.0)), (3, (65.0, 35.0)))
)  # fmt: skip


def _table(group: Group, stack: float) -> pf.Table:
    return pf.Table((stack,) * group.players, ante=group.ante, bb_ante=group.bb_ante, payouts=group.payouts)


def _rounded(values) -> list:
    return [round(float(v), DECIMALS) for v in values]


def _largest(stacks, frequencies: list) -> list:
    largest, _ = headsup_solver.max_stack(stacks, np.array(frequencies), PLAYED)
    return [None if np.isnan(v) else float(v) for v in largest]


def solve_group(group: Group, equities: pf.Equities, advance=lambda: None) -> dict:
    """Every stack of ``group`` solved (warm-started), as the group's entry of ``pushfold_charts.json``."""
    charts, start = [], None
    names = pf.position_names(group.players)
    for stack in group.stacks:
        game = pf.make_game(_table(group, stack))
        pool = None if group.payouts is None else float(sum(group.payouts))
        tolerance = TOLERANCE_BB if pool is None else TOLERANCE_POOL_PCT / 100 * pool
        started = time.perf_counter()
        solution = pf.solve(game, equities, tolerance=tolerance, max_iterations=MAX_ITERATIONS, start=start)
        reach = pf.multiway_reach(game, equities, solution.strategy)
        start = solution.strategy
        charts.append({
            "stack": stack,
            "shove": {names[s]: _rounded(solution.strategy[("open", s)]) for s in game.open_sets},
            "call": {spot_name(names, ("call", *c)): _rounded(solution.strategy[("call", *c)]) for c in game.call_sets},
            "nash_conv_bb": None if pool else solution.nash_conv,
            "nash_conv_pool_pct": 100 * solution.nash_conv / pool if pool else None,
            "iterations": solution.iterations,
            "pots": {"2": reach.get(2, 0.0), "3": reach.get(3, 0.0), "4+": sum(p for m, p in reach.items() if m >= 4)},
            "solve_s": round(time.perf_counter() - started, 2),
        })  # fmt: skip
        advance()
    shove_max = {pos: _largest(group.stacks, [c["shove"][pos] for c in charts]) for pos in charts[0]["shove"]}
    call_max = {spot: _largest(group.stacks, [c["call"][spot] for c in charts]) for spot in charts[0]["call"]}
    return {
        "players": group.players, "positions": names, "ante": group.ante, "bb_ante": group.bb_ante,
        "payouts": None if group.payouts is None else list(group.payouts), "stacks": list(group.stacks),
        "charts": charts, "shove_max": shove_max, "call_max": call_max,
    }  # fmt: skip


def compute_charts(headsup_tables, threeway_table, groups=DEFAULT_GROUPS, progress: bool = True) -> dict:
    """The ``pushfold_charts.json`` object for ``groups``."""
    started = time.perf_counter()
    equities = holdem_equities(headsup_tables, threeway_table)
    total = sum(len(g.stacks) for g in groups)
    solved = []
    with progress_bar("push/fold charts", total, "table", enabled=progress) as advance:
        for group in groups:
            solved.append(solve_group(group, equities, lambda: advance(sum(len(g["charts"]) for g in solved) + 1)))
    conv_bb = [c["nash_conv_bb"] for g in solved for c in g["charts"] if c["nash_conv_bb"] is not None]
    conv_pool = [c["nash_conv_pool_pct"] for g in solved for c in g["charts"] if c["nash_conv_pool_pct"] is not None]
    meta = meta_block(
        "pushfold_charts", METHOD, CODE_VERSION, "cpu", time.perf_counter() - started,
        tolerance_bb=TOLERANCE_BB, tolerance_pool_pct=TOLERANCE_POOL_PCT, played_threshold=PLAYED,
        max_nash_conv_bb=max(conv_bb, default=0.0), max_nash_conv_pool_pct=max(conv_pool, default=0.0),
    )  # fmt: skip
    return {"meta": meta, "classes": list(CLASS_NAMES), "combos": CLASS_COMBO_COUNT.tolist(), "groups": solved}


def run_pushfold_charts(site_dir: Path, headsup, threeway, groups=DEFAULT_GROUPS, progress: bool = True) -> dict:
    """Compute (or load) the charts from the heads-up stage's ``(tables, meta)`` and the threeway stage's
    ``(table, summary)``; write ``site_dir/data/pushfold_charts.json`` and ``.csv``."""
    tables, headsup_meta = headsup
    table, summary = threeway
    key = cache_key(CODE_VERSION, headsup_meta.get("code_version"), summary["code_version"], summary["seed"],
                    summary["boards"], groups, TOLERANCE_BB, TOLERANCE_POOL_PCT, MAX_ITERATIONS, DECIMALS)  # fmt: skip
    arrays = cached_arrays(
        "pushfold_charts", key, lambda: {"result": json_array(compute_charts(tables, table, groups, progress))}
    )
    result = array_json(arrays["result"])
    result["meta"]["threeway"] = {k: summary[k] for k in ("boards", "seed", "se_median", "se_p99")}
    publish(Path(site_dir) / "data", "pushfold_charts", result)
    return result
