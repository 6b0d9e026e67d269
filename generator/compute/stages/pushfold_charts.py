"""The ``pushfold_charts`` stage: precomputed n-player push/fold equilibria.

Groups of tables (players, ante, payouts, KO / PKO bounties) solved with ``kernels.pushfold`` on the exact heads-up
tables and the ``threeway`` stage's 3-way table: equal stacks over a grid (each stack warm-started
from a smaller stack's published strategy, :meth:`Group.solving_order`), or a few unequal-stack
examples (``stack_sets``, cold). Every table is cached on its own (``<cache>/pushfold_table-<key>.npz``,
the key chaining its start's), so an interrupted run resumes and concurrent runs share their results;
groups are solved in parallel processes (:func:`generator.compute.units.unit_runner`).

Outputs: ``data/pushfold/index.json`` and one solution object per table
(``data/pushfold/<group id>/<stack>.json``, ``…/<k>.json`` for ``stack_sets``; format in
docs/data-format.md), and ``data/pushfold_charts.json`` (+ ``.csv``) for the tables the chart pages
show (:data:`CHART_TABLES`). :data:`FULL_GROUPS` is the whole set; the default build solves
:data:`DEFAULT_GROUPS` (all of it but the 7- to 10-player groups, of which it solves 9 players at the chart stacks, and the
PKO groups with bounties of a whole stack, to stay within its time budget) and also publishes every group of the whole set already in the cache (``allin compute
pushfold-charts --full``).
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import numpy as np

import kernels.pushfold.headsup as headsup_solver
import kernels.pushfold as pf
from kernels import constants as C
from generator.compute.units import unit_runner
from generator.core.cache import array_json, cache_dir, cache_key, cached_arrays, json_array
from generator.data.datafiles import publish
from generator.core.progress import progress_bar
from generator.core.provenance import DATA_LICENSE, code_version, meta_block
from generator.compute.stages.pushfold_certificate import attach_certificates
from generator.compute.pushfold_records import (PLAYED, Group, holdem_equities, index_entry, record_strategy, spot_name, table_json,
                                                worst_class_regret)
from generator.core.storage import write_json
from generator.site.structure import pushfold_data_path
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.constants import MAX_SEATS, PUSHFOLD_CHECK_EVERY, PUSHFOLD_MAX_ITERATIONS, PUSHFOLD_START_REGRET, PUSHFOLD_START_WITHIN

CHART_KERNELS = ("kernels.pushfold", "kernels.pushfold.headsup")
CODE_VERSION = code_version(*CHART_KERNELS)
#: Stopping rule (:data:`kernels.pushfold.RULE`): NashConv ≤ 0.01 bb (chip EV) / ≤ 0.05% of the pool (ICM), and
#: every class's regret at every decision ≤ 0.01 bb / 0.01% of the pool.
RULE = pf.RULE
MAX_ITERATIONS = PUSHFOLD_MAX_ITERATIONS
#: NashConv checks (at about the cost of one iteration) every 5 iterations.
CHECK_EVERY = PUSHFOLD_CHECK_EVERY
#: A warm start (the stack below's published strategy) is used only when its NashConv on the new table is at
#: most START_WITHIN tolerances (further away a cold start converges as fast or faster: measured at 10 players,
#: 15 cold iterations against 20 warm at 2 bb from 1.5 bb, a start 4.0 tolerances away; 20 against 20 at 3 bb,
#: 2.8 tolerances; 20 against 10 at 4.5 bb, 1.7 tolerances), with regrets of START_REGRET tolerances
#: (:func:`kernels.pushfold.solve`'s ``start_regret``): enough that the first iterates stay near it
#: (measured: 5 iterations instead of 40 from 10 to 10.5 bb at 10 players).
START_WITHIN, START_REGRET = PUSHFOLD_START_WITHIN, PUSHFOLD_START_REGRET
#: A start that was itself warm-started and needed at most this many iterations is used without measuring its
#: NashConv (a check costs about an iteration; in the smooth part of a grid the next stack converges as fast).
TRUSTED_START_ITERATIONS = 10
#: Published frequencies are rounded to this many decimals (the NashConv is that of the rounded strategy).
DECIMALS = C.PUSHFOLD_DECIMALS
#: Frequencies below ε (above 1 − ε) are set to 0 (1) with the largest ε whose NashConv stays within the target
#: (the browser solver cleans its answers the same way: pushfold/cfr.js removeResidue).
RESIDUE_THRESHOLDS = C.PUSHFOLD_RESIDUE_THRESHOLDS
#: Kept in the cache, not published: solve time (s), the residue threshold ε used (0: none) and the
#: NashConv of the rounded average before the residue was removed.
PRIVATE_KEYS = ("solve_s", "residue_threshold", "residue_nash_conv")
METHOD = (
    "n-player push/fold (first in shoves or folds, later players call all-in or fold, side pots exact; PKO groups: "
    "knockouts settled per pot layer, only a covering stack winning a bounty, bounties left valued by chip share); "
    "discounted CFR (alpha 1, regrets floored at 0, quadratic averages) with alternating updates over 169 classes until the NashConv "
    "and every class's regret at every decision are within the stated tolerances; heads-up pots from the exact matchup table, 3-way pots "
    "from the Monte Carlo class-triple table, 4+-way pots by independent-opponent equity products; published "
    f"strategies rounded to {DECIMALS} decimals with the averaging residue removed where the certified NashConv "
    "stays within the target"
)


SNG = (50.0, 30.0, 20.0)
_GRID = tuple(float(s) for s in np.arange(2, 51) / 2)  # 1–25 bb by 0.5
_ICM_GRID = tuple(float(s) for s in range(5, 26))  # 5–25 bb by 1


def _chip_ev(players: int) -> tuple:
    """No ante and a 1 bb BB ante, every grid stack that covers the blind and the ante."""
    return tuple(Group(players, tuple(s for s in _GRID if s > 1.0 + ante), ante, ante > 0) for ante in (0.0, 1.0))


#: PKO bounties of the precomputed set: half of a bounty paid in cash at a knockout, half added to the winner's own.
PKO_SHARE = 0.5
#: Bounty sizes of the PKO groups, as a fraction of each stack at chip value (kernels.icm.bounty.stack_bounties; 1: a
#: starting bounty on a starting stack in a PKO where half of each buy-in funds the bounties, less later on).
PKO_BOUNTIES = (0.5, 1.0)
_PKO_GRID = tuple(float(s) for s in range(5, 26))  # 5–25 bb by 1


def _pko(players: int, bounty: float, payouts=None) -> Group:
    """PKO tables on the 5–25 bb grid: chip EV with a 1 bb BB ante (the format of the online tournaments that pay
    bounties), or ICM with ``payouts`` and no ante (as the SNG groups)."""
    ante = 1.0 if payouts is None else 0.0
    return Group(players, _PKO_GRID, ante, ante > 0, payouts, bounty=bounty, bounty_share=PKO_SHARE)


#: The whole precomputed set: 2–10 players chip EV, SNG ICM at 3, 4 and 9 players, 65/35 at 3, unequal-stack
#: ICM examples, and PKO groups (3–6 players chip EV, 3 and 4 players SNG ICM; heads-up a bounty changes nothing).
FULL_GROUPS = tuple(g for n in range(2, MAX_SEATS + 1) for g in _chip_ev(n)) + (
    Group(3, _ICM_GRID, payouts=SNG),
    Group(4, _ICM_GRID, payouts=SNG),
    Group(3, _ICM_GRID, payouts=(65.0, 35.0)),
    Group(9, _ICM_GRID, payouts=SNG),
    Group(4, (), payouts=SNG, stack_sets=((20.0, 15.0, 10.0, 5.0), (5.0, 10.0, 15.0, 20.0))),
    Group(3, (), payouts=(65.0, 35.0), stack_sets=((15.0, 10.0, 5.0), (5.0, 10.0, 15.0))),
    Group(9, (), payouts=SNG, stack_sets=((30.0, 12.0, 25.0, 8.0, 18.0, 15.0, 22.0, 10.0, 6.0),)),
) + tuple(_pko(n, b) for b in PKO_BOUNTIES for n in range(3, 7)) + tuple(_pko(n, b, SNG) for b in PKO_BOUNTIES for n in (3, 4))
#: Players of the groups the default build solves only at the chart stacks (:data:`NINE_HANDED_CHART_GROUPS`, 9 players) or
#: leaves out (7, 8 and 10). Under the per-class stopping rule these tables need 40–700 iterations where 2–6 players need
#: 5–100, at 10–25 times the cost of a 6-player iteration (BENCHMARKS.md, "Full-ring push/fold"): every grid stack of them
#: does not fit a first build from a fresh clone within 10 minutes on 2 cores.
OPT_IN_PLAYERS = (7, 8, 9, 10)
#: Bounty sizes of the PKO groups the default build leaves out: its PKO groups (bounties of half a stack: 3–6 players
#: chip EV, 3 and 4 players ICM) add 65 s to the stage on 2 cores (94 s of solver CPU), and the whole-stack bounties
#: would add as much again (BENCHMARKS.md, "PKO push/fold charts and bounty speeds").
OPT_IN_BOUNTIES = (1.0,)
#: The stacks of each chart page (every other table of a group: the solver page, which shows it at once).
CHART_STACKS = (5.0, 10.0, 15.0, 20.0)
#: The full-ring tables of the CPU default build: 9 players at the chart stacks only, chip EV with a 1 bb BB ante and the
#: SNG (50/30/20 ICM), each table cold (a start 5 bb away slowed them: 465 iterations warm at 20 bb ICM from 15 bb,
#: measured). Same ids as their :data:`FULL_GROUPS` grids, which replace them once cached (:func:`run_pushfold_charts`).
NINE_HANDED_CHART_GROUPS = (Group(9, CHART_STACKS, 1.0, True, warm_start=False), Group(9, CHART_STACKS, payouts=SNG, warm_start=False))
#: The default build on the CPU: every group of :data:`FULL_GROUPS` with fewer players and no opt-in bounty size, plus
#: :data:`NINE_HANDED_CHART_GROUPS`. A build on a GPU machine solves :data:`FULL_GROUPS`.
DEFAULT_GROUPS = tuple(g for g in FULL_GROUPS if g.players not in OPT_IN_PLAYERS and g.bounty not in OPT_IN_BOUNTIES) + NINE_HANDED_CHART_GROUPS


def chart_tables(groups, stacks=CHART_STACKS) -> tuple:
    """The tables of ``pushfold_charts.json`` and the chart pages, ``(group id, stacks)``: every equal-stack group
    of ``groups`` that has all of ``stacks`` (bb)."""
    return tuple((g.id, stacks) for g in groups if g.stack_sets is None and set(stacks) <= set(g.stacks))


#: The chart tables of the default build (2–6 players chip EV with and without the BB ante, 9 players chip EV with the BB
#: ante, the SNG ICM groups, the PKO groups with bounties of half a stack); a build that has the opt-in groups cached (``allin compute pushfold --full``)
#: publishes theirs too.
CHART_TABLES = chart_tables(DEFAULT_GROUPS)


def _per_class(frequencies: np.ndarray) -> dict:
    """``{class: frequency}`` of the classes played (zeros omitted)."""
    return {name: float(p) for name, p in zip(CLASS_NAMES, frequencies) if p > 0}


def _trusted(start: dict | None) -> bool:
    return start is not None and start["warm_start_bb"] is not None and start["iterations"] <= TRUSTED_START_ITERATIONS


def solve_table(table: pf.Table, equities: pf.Equities, start: dict | None = None) -> dict:
    """One table's record: the solution object of docs/data-format.md plus :data:`PRIVATE_KEYS`; ``start``: the
    record of the equal-stack table to warm-start from (the stack below)."""
    game = pf.make_game(table)
    start_stack = None if start is None else start["table"]["stacks"][0]
    pool = None if table.payouts is None else float(sum(table.payouts))
    tolerance, class_tolerance = RULE.tolerances(table)
    started = time.perf_counter()
    solution = pf.solve(game, equities, tolerance=tolerance, max_iterations=MAX_ITERATIONS, decimals=DECIMALS,
                        start=None if start is None else record_strategy(game, start),
                        check_every=CHECK_EVERY, certify=False, start_regret=START_REGRET * tolerance,
                        start_within=None if _trusted(start) else START_WITHIN * tolerance,
                        class_tolerance=class_tolerance, fallback_discount=pf.FALLBACK_DISCOUNT)
    strategy, check, threshold = pf.remove_residue(game, equities, solution.strategy, tolerance, RESIDUE_THRESHOLDS, DECIMALS,
                                                   class_tolerance)
    gains, values = check.gains, check.values
    values[-1] += pf.walk_value(game, equities, strategy)
    error = pf.three_way_error_bound(game, equities, strategy)
    reach = pf.multiway_reach(game, equities, strategy)
    names = pf.position_names(game.n)
    return {
        "positions": names,
        "shove": {names[s]: _per_class(strategy[("open", s)]) for s in game.open_sets},
        "call": {spot_name(names, ("call", *c)): _per_class(strategy[("call", *c)]) for c in game.call_sets},
        "exploitability": {"bb": None if pool else float(gains.sum()), "pool_pct": 100 * float(gains.sum()) / pool if pool else None},
        "class_regret": worst_class_regret(game, check.class_regret, pool),
        "iterations": solution.iterations,
        "schedule": solution.schedule,
        "warm_start_bb": start_stack if solution.warm_started else None,
        "values": {name: round(float(v), 6) for name, v in zip(names, values)},
        "ev_se": {name: float(f"{v:.3g}") for name, v in zip(names, error)},
        "pots": {m: float(f"{p:.4g}") for m, p in (("2", reach.get(2, 0.0)), ("3", reach.get(3, 0.0)),
                                                 ("4+", sum(p for m, p in reach.items() if m >= 4)))},
        "table": table_json(table),
        "solve_s": round(time.perf_counter() - started, 2),
        "residue_threshold": threshold,
        "residue_nash_conv": float(solution.nash_conv),  # before the residue was removed
    }


def _base_key(headsup_meta: dict, summary: dict) -> str:
    return cache_key(CODE_VERSION, headsup_meta.get("code_version"), summary["code_version"], summary["seed"],
                     summary["boards"], RULE, pf.REACH_FLOOR, MAX_ITERATIONS, CHECK_EVERY,
                     START_WITHIN, START_REGRET, TRUSTED_START_ITERATIONS, DECIMALS, RESIDUE_THRESHOLDS)


def _table_keys(group: Group, base: str) -> dict[str, str]:
    """Cache key of each table of ``group`` by file name: a warm-started table's key chains its start's."""
    keys = {}
    for name, table, parent in group.solving_order():
        keys[name] = cache_key(base, group.id, name, table, None if parent is None else keys[parent])
    return keys


def _is_cached(group: Group, base: str) -> bool:
    return all((cache_dir() / f"pushfold_table-{key}.npz").exists() for key in _table_keys(group, base).values())


def solve_group(group: Group, equities_source, base: str, advance=lambda: None) -> list[dict]:
    """Every table of ``group`` from the cache or solved (``equities_source()`` gives the equities, built only
    when a table must be solved), in :meth:`Group.tables` order."""
    keys, records = _table_keys(group, base), {}
    for name, table, parent in group.solving_order():
        start = None if parent is None else records[parent]
        arrays = cached_arrays("pushfold_table", keys[name], lambda: {"record": json_array(solve_table(table, equities_source(), start))})
        records[name] = array_json(arrays["record"])
        advance()
    return [records[name] for name, _ in group.tables()]


def _cost(group: Group) -> float:
    """Rough relative solve time of a group (largest first keeps the processes busy): with bounties a table costs about
    3 times as much (measured at 4-6 players, chip EV: 1.0 / 2.4 / 4.3 s a table against 0.31 / 0.85 / 1.5 s)."""
    return len(group.tables()) * 2.5**group.players * (3.0 if group.payouts else 1.0) * (3.0 if group.bounty is not None else 1.0)


#: Memory a worker process holds (the heads-up tables, the 3-way table and the equities built from them: ~1.0 GB
#: measured as the peak RSS of a process building them), with room.
WORKER_BYTES = 3 * 2**29


def available_memory() -> int | None:
    """Bytes the system can still give (``MemAvailable`` of /proc/meminfo); None where that cannot be read."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def default_workers(groups: int) -> int:
    """Processes for ``groups`` groups: one per core, no more than the groups nor than the available memory holds
    (:data:`WORKER_BYTES` each); at least 1."""
    memory = available_memory()
    by_memory = (os.cpu_count() or 1) if memory is None else memory // WORKER_BYTES
    return max(1, min(os.cpu_count() or 1, groups, by_memory))


#: The equities a process built for the tables of one cache key base (:func:`solve_group_unit`).
_PROCESS_EQUITIES: dict[str, pf.Equities] = {}


def solve_group_unit(group: Group, base: str, headsup_tables, threeway_table) -> list[dict]:
    """One unit, wherever it runs (this process, a spawned one, a Dask worker): :func:`solve_group`, with the equities
    of cache key ``base`` built from the shared tables once per process, and only if a table is not cached."""

    def source() -> pf.Equities:
        if base not in _PROCESS_EQUITIES:
            _PROCESS_EQUITIES.clear()  # ~1 GB: one set at a time
            _PROCESS_EQUITIES[base] = holdem_equities(headsup_tables, threeway_table)
        return _PROCESS_EQUITIES[base]

    return solve_group(group, source, base)


def solve_groups(groups, headsup_tables, threeway_table, base: str, workers: int, progress: bool = True,
                 cluster: str | None = None) -> dict:
    """``{group id: [records]}``: the groups cached here loaded, the others solved a group a unit (largest first), in
    ``workers`` spawned processes of one thread (1: in this process) or as Dask tasks with ``cluster`` (``local:N``,
    ``tcp://host:port``); every table's record is cached here (a rerun resumes from this machine's cache)."""
    total = sum(len(g.tables()) for g in groups)
    results, done = {}, 0
    with progress_bar("push/fold tables", total, "table", enabled=progress) as advance:
        for group in [g for g in groups if _is_cached(g, base)]:
            results[group.id] = solve_group(group, lambda: None, base)
            done += len(results[group.id])
            advance(done)
        todo = sorted((g for g in groups if g.id not in results), key=_cost, reverse=True)
        try:
            with unit_runner(cluster, CHART_KERNELS, processes=min(workers, len(todo))) as run:
                shared = run.share(headsup_tables), run.share(threeway_table)
                for index, records in run(solve_group_unit, [(group, base, *shared) for group in todo]):
                    group, keys = todo[index], _table_keys(todo[index], base)
                    for (name, _), record in zip(group.tables(), records):
                        cached_arrays("pushfold_table", keys[name], lambda: {"record": json_array(record)})
                    results[group.id] = records
                    done += len(records)
                    advance(done)
        finally:
            _PROCESS_EQUITIES.clear()  # the in-process run's ~1 GB
    return results


def _rule_meta() -> dict:
    """The stopping rule as meta keys."""
    return {"tolerance_bb": RULE.nash_conv_bb, "tolerance_pool_pct": RULE.nash_conv_pool_pct,
            "class_tolerance_bb": RULE.class_regret_bb, "class_tolerance_pool_pct": RULE.class_regret_pool_pct,
            "reach_floor": pf.REACH_FLOOR, "max_iterations": MAX_ITERATIONS}


def _max(values) -> float | None:
    values = [v for v in values if v is not None]
    return max(values) if values else None


def index_document(groups, results: dict, wall_time: float, summary: dict) -> dict:
    """``data/pushfold/index.json``: provenance and one entry per group."""
    entries = []
    for group in groups:
        records = results[group.id]
        entries.append({
            **index_entry(group),
            "max_nash_conv_bb": _max(r["exploitability"]["bb"] for r in records),
            "max_nash_conv_pool_pct": _max(r["exploitability"]["pool_pct"] for r in records),
            "max_class_regret_bb": _max(r["class_regret"]["bb"] for r in records),
            "max_class_regret_pool_pct": _max(r["class_regret"]["pool_pct"] for r in records),
        })
    meta = meta_block(
        "pushfold", METHOD, CODE_VERSION, "cpu", wall_time, **_rule_meta(),
        decimals=DECIMALS, residue_thresholds=list(RESIDUE_THRESHOLDS), tables=sum(len(results[g.id]) for g in groups),
        threeway={k: summary[k] for k in ("boards", "seed", "se_median", "se_p99")},
    )
    return {"meta": {**meta, "license": DATA_LICENSE}, "groups": entries}


def charts_document(groups, results: dict, wall_time: float, summary: dict, chart_tables=CHART_TABLES) -> dict:
    """``pushfold_charts.json``: ``chart_tables`` ((group id, stacks) pairs) as dense per-class lists, with
    ``shove_max`` / ``call_max`` over each group's chart stacks."""
    by_id = {g.id: g for g in groups}
    solved = []
    for group_id, stacks in chart_tables:
        group = by_id[group_id]
        tables = dict(group.tables())
        records = {name: record for name, record in zip(tables, results[group_id])}
        charts = []
        for stack in stacks:
            record = records[f"{stack:g}"]
            game = pf.make_game(tables[f"{stack:g}"])
            strategy = record_strategy(game, record)
            names = record["positions"]
            charts.append({
                "stack": stack, "bounties": record["table"].get("bounties"),
                "shove": {names[s]: strategy[("open", s)].tolist() for s in game.open_sets},
                "call": {spot_name(names, ("call", *c)): strategy[("call", *c)].tolist() for c in game.call_sets},
                "nash_conv_bb": record["exploitability"]["bb"], "nash_conv_pool_pct": record["exploitability"]["pool_pct"],
                "class_regret": record["class_regret"],
                "iterations": record["iterations"], "schedule": record["schedule"], "warm_start_bb": record["warm_start_bb"],
                "pots": record["pots"],
                "ev_se_max": max(record["ev_se"].values()), "solve_s": record["solve_s"],
                "certified": record.get("certified_exploitability"),
            })
        largest = {}
        for action in ("shove", "call"):
            largest[action] = {spot: _largest(stacks, [c[action][spot] for c in charts]) for spot in charts[0][action]}
        solved.append({
            **group.game(), "positions": records[f"{stacks[0]:g}"]["positions"], "stacks": list(stacks),
            "charts": charts, "shove_max": largest["shove"], "call_max": largest["call"],
        })
    conv_bb = [c["nash_conv_bb"] for g in solved for c in g["charts"]]
    conv_pool = [c["nash_conv_pool_pct"] for g in solved for c in g["charts"]]
    meta = meta_block(
        "pushfold_charts", METHOD, CODE_VERSION, "cpu", wall_time,
        **_rule_meta(), played_threshold=PLAYED,
        max_nash_conv_bb=_max(conv_bb) or 0.0, max_nash_conv_pool_pct=_max(conv_pool) or 0.0,
        threeway={k: summary[k] for k in ("boards", "seed", "se_median", "se_p99")},
    )
    return {"meta": meta, "classes": list(CLASS_NAMES), "combos": CLASS_COMBO_COUNT.tolist(), "groups": solved}


def _largest(stacks, frequencies: list) -> list:
    largest, _ = headsup_solver.max_stack(stacks, np.array(frequencies), PLAYED)
    return [None if np.isnan(v) else float(v) for v in largest]


def publish_tables(site_dir: Path, groups, results: dict, index: dict) -> None:
    """Write ``site_dir/data/pushfold/`` afresh: one file per table (:data:`PRIVATE_KEYS` left out), then the index,
    each group's entry with the SHA-256 of its tables' files (``sha256``: table name → hex digest), which a render
    checks them against (:mod:`generator.data.verify`)."""
    shutil.rmtree(Path(site_dir) / pushfold_data_path("").rsplit("/", 1)[0], ignore_errors=True)
    digests = {}
    for group in groups:
        digests[group.id] = {
            name: write_json(Path(site_dir) / pushfold_data_path(group.id, name), {k: v for k, v in record.items() if k not in PRIVATE_KEYS})
            for (name, _), record in zip(group.tables(), results[group.id])
        }
    entries = [{**entry, "sha256": digests[entry["id"]]} for entry in index["groups"]]
    write_json(Path(site_dir) / pushfold_data_path(""), {**index, "groups": entries})


def pushfold_charts_results(headsup, threeway, groups=DEFAULT_GROUPS, progress: bool = True, workers: int | None = None,
                            cluster: str | None = None) -> dict:
    """Solve (or load from the cache) ``groups`` from the heads-up stage's ``(tables, meta)`` and the threeway
    stage's ``(table, summary)`` in ``workers`` processes (default: :func:`default_workers`; Dask workers with
    ``cluster``, the certificates too): ``groups``, each replaced
    by its :data:`FULL_GROUPS` namesake when that one is cached whole, plus every other group of :data:`FULL_GROUPS`
    already cached.

    Returns ``{"groups": those groups, "results": {group id: [table records]}, "summary": the 3-way table's summary,
    "wall_time_s"}``."""
    tables, headsup_meta = headsup
    table, summary = threeway
    base = _base_key(headsup_meta, summary)
    started = time.perf_counter()
    full = {g.id: g for g in FULL_GROUPS}
    groups = [full[g.id] if g.id in full and _is_cached(full[g.id], base) else g for g in groups]  # a whole grid already solved
    ids = {g.id for g in groups}
    groups += [g for g in FULL_GROUPS if g.id not in ids and _is_cached(g, base)]
    workers = default_workers(len(groups)) if workers is None else workers
    results = solve_groups(groups, tables, table, base, workers, progress, cluster)
    attach_certificates(groups, results, {g.id: _table_keys(g, base) for g in groups}, progress, cluster)
    return {"groups": groups, "results": results, "summary": summary, "wall_time_s": time.perf_counter() - started}


def run_pushfold_charts(site_dir: Path, headsup, threeway, groups=DEFAULT_GROUPS, progress: bool = True,
                        workers: int | None = None, chart_stacks=CHART_STACKS, cluster: str | None = None) -> dict:
    """:func:`pushfold_charts_results`, published: ``site_dir/data/pushfold/`` (every group's tables and the index) and
    ``pushfold_charts.json`` (+ ``.csv``) with the :func:`chart_tables` of all of them at ``chart_stacks``.

    Returns :func:`pushfold_charts_results`'s dictionary with ``"charts"``, the charts document."""
    solved = pushfold_charts_results(headsup, threeway, groups, progress, workers, cluster)
    return publish_charts(site_dir, solved, chart_stacks)


def publish_charts(site_dir: Path, solved: dict, chart_stacks=CHART_STACKS) -> dict:
    """Write :func:`pushfold_charts_results`'s ``solved`` tables and charts under ``site_dir/data``; returns ``solved``
    with ``"charts"``."""
    groups, results, wall_time, summary = solved["groups"], solved["results"], solved["wall_time_s"], solved["summary"]
    publish_tables(site_dir, groups, results, index_document(groups, results, wall_time, summary))
    charts = charts_document(groups, results, wall_time, summary, chart_tables(groups, chart_stacks))
    publish(Path(site_dir) / "data", "pushfold_charts", charts)
    return {**solved, "charts": charts}


def results(run, inputs: dict) -> dict:
    """The registry's accessor (:mod:`generator.compute.registry`): the solved tables of the run's groups (the whole
    set on a GPU or with ``--full``)."""
    groups = run.pushfold_groups or (FULL_GROUPS if run.full_pushfold else DEFAULT_GROUPS)
    return pushfold_charts_results(inputs["headsup"], inputs["threeway"], groups, run.progress, cluster=run.cluster)


def write(run, site_dir: Path, inputs: dict) -> dict:
    return publish_charts(site_dir, results(run, inputs))
