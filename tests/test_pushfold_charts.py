"""The pushfold_charts stage on a small set: the per-table files and their index (schema, sparse, rounded,
NashConv certified by an independent best response), pushfold_charts.json + CSV, per-table cache and resume."""

import csv
import io
import os
import signal
import threading

import jsonschema
import numpy as np
import pytest

import kernels.pushfold as pf
from generator.compute import registry
from generator.compute.run import resolve_run
from generator.core.config import Config
from generator.core.evaluator_tables import evaluator_tables
from generator.data.schemas import SCHEMAS
from generator.compute.stages import pushfold_certificate, pushfold_charts, threeway
from generator.compute.stages.headsup import headsup_results
from generator.compute.pushfold_records import holdem_equities, record_strategy
from generator.core.storage import read_json

pytestmark = pytest.mark.slow  # heavy module fixtures (a solved chart set, heads-up tables, a built site)

GROUPS = (
    pushfold_charts.Group(3, (8.0, 8.5), 1.0, True),
    pushfold_charts.Group(3, (), payouts=(65.0, 35.0), stack_sets=((10.0, 8.0, 6.0),)),
)


@pytest.fixture(scope="module")
def small_threeway(tmp_path_factory):
    path = tmp_path_factory.mktemp("threeway") / "threeway.npz"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(threeway, "BATCH_BOARDS", 32)
        checkpoint = threeway.run_threeway(evaluator_tables(), boards=32, path=path)
    table = threeway.threeway_table(checkpoint, threeway.possible_triples()[2])
    return table, {**threeway.table_summary(table, 32), "seed": threeway.SEED, "code_version": threeway.CODE_VERSION}


@pytest.fixture(scope="module")
def solved(tmp_path_factory, small_threeway):
    site, cache = tmp_path_factory.mktemp("site"), tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(cache))
        patch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)  # the sampled table of an equal-stack group
        patch.setattr(pushfold_certificate, "DEALS", 1 << 16)
        result = pushfold_charts.run_pushfold_charts(site, headsup_results(progress=False), small_threeway, GROUPS,
                                                     progress=False, workers=2, chart_stacks=(8.0, 8.5))
    return site, cache, result


def test_table_files_certified_sparse_and_rounded(solved, small_threeway):
    site, _, _ = solved
    index = read_json(site / "data/pushfold/index.json")
    jsonschema.validate(index, SCHEMAS["pushfold_index"])
    assert [g["id"] for g in index["groups"]] == ["3p-bba1-chipev", "3p-icm-65-35-mixed"]
    assert index["groups"][1]["stacks"] is None and index["groups"][1]["stack_sets"] == [[10.0, 8.0, 6.0]]
    assert all(g["bounty"] is None and g["bounty_share"] is None for g in index["groups"])
    _check_table_files(site, GROUPS, small_threeway)


def _check_table_files(site, groups, small_threeway):
    """Every table file of ``groups``: schema-valid, sparse, rounded, its NashConv and worst class regret the independent
    best response's on the published frequencies, within the stopping rule."""
    equities = holdem_equities(headsup_results(progress=False)[0], small_threeway[0])
    for group in groups:
        for name, table in group.tables():
            record = read_json(site / f"data/pushfold/{group.id}/{name}.json")
            jsonschema.validate(record, SCHEMAS["pushfold_table"])
            game = pf.make_game(table)
            strategy = record_strategy(game, record)
            frequencies = np.concatenate(list(strategy.values()))
            assert np.array_equal(frequencies, np.round(frequencies, pushfold_charts.DECIMALS))
            assert all(p > 0 for spot in (*record["shove"].values(), *record["call"].values()) for p in spot.values())
            # the published NashConv and worst class regret are the best response's on the published (rounded,
            # cleaned) frequencies, and they meet the stopping rule
            check = pf.best_response(game, equities, strategy)
            conv, worst = float(check.gains.sum()), check.max_class_regret
            tolerance, class_tolerance = pf.RULE.tolerances(table)
            assert conv <= tolerance and worst <= class_tolerance
            if table.payouts is None:
                assert record["exploitability"] == {"bb": pytest.approx(conv, abs=1e-12), "pool_pct": None}
                assert record["class_regret"]["bb"] == pytest.approx(worst, rel=1e-3)
            else:
                pool = sum(table.payouts)
                assert record["exploitability"]["pool_pct"] == pytest.approx(100 * conv / pool, abs=1e-12)
                assert record["class_regret"]["pool_pct"] == pytest.approx(100 * worst / pool, rel=1e-3)
            assert record["table"]["stacks"] == list(table.stacks)
            assert record["table"].get("bounties") == (None if table.bounties is None else list(table.bounties))
            assert sum(record["pots"].values()) <= 1.0 and record["pots"]["4+"] == 0.0
            assert all(v > 0 for v in record["ev_se"].values())


PKO_GROUPS = (
    pushfold_charts.Group(3, (8.0, 8.5), 1.0, True, bounty=0.5, bounty_share=0.5),
    pushfold_charts.Group(3, (8.0, 8.5), payouts=(50.0, 30.0, 20.0), bounty=1.0, bounty_share=0.5),
)


@pytest.fixture(scope="module")
def pko_solved(tmp_path_factory, small_threeway):
    site, cache = tmp_path_factory.mktemp("pko-site"), tmp_path_factory.mktemp("pko-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(cache))
        patch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)
        patch.setattr(pushfold_certificate, "DEALS", 1 << 15)
        result = pushfold_charts.run_pushfold_charts(site, headsup_results(progress=False), small_threeway, PKO_GROUPS,
                                                     progress=False, workers=1, chart_stacks=(8.0, 8.5))
    return site, result


def test_pko_tables_are_published_with_their_bounties_within_the_rule_and_certified(pko_solved, small_threeway):
    """PKO groups (chip EV, bounties of half a stack in bb; ICM, of a whole stack's share of the pool): ids with the
    bounty, the index, the table files and pushfold_charts.json (+ CSV) name the bounties; every table meets the stopping
    rule by the independent best response; the sampled table carries its certificate on real deals."""
    site, result = pko_solved
    assert [g.id for g in result["groups"]] == ["3p-bba1-chipev-pko50-b50", "3p-icm-50-30-20-pko50-b100"]
    index = read_json(site / "data/pushfold/index.json")
    jsonschema.validate(index, SCHEMAS["pushfold_index"])
    assert [(g["bounty"], g["bounty_share"]) for g in index["groups"]] == [(0.5, 0.5), (1.0, 0.5)]
    _check_table_files(site, PKO_GROUPS, small_threeway)
    chip = read_json(site / "data/pushfold/3p-bba1-chipev-pko50-b50/8.5.json")
    assert chip["table"]["bounties"] == [4.25] * 3 and chip["table"]["bounty_share"] == 0.5  # half of 8.5 bb
    icm = read_json(site / "data/pushfold/3p-icm-50-30-20-pko50-b100/8.json")
    assert icm["table"]["bounties"] == pytest.approx([100 / 3] * 3, rel=1e-15)  # a stack's share of the pool of 100
    for group in index["groups"]:
        certified = read_json(site / f"data/pushfold/{group['id']}/8.5.json")["certified_exploitability"]
        assert certified["unit"] == ("bb" if group["payouts"] is None else "pool_pct") and certified["deals"] == 1 << 15
        assert abs(certified["value"]) <= certified["ci95"] * 5 / 1.96 + 0.05
    charts = read_json(site / "data/pushfold_charts.json")
    jsonschema.validate(charts, SCHEMAS["pushfold_charts"])
    assert [(g["bounty"], g["bounty_share"]) for g in charts["groups"]] == [(0.5, 0.5), (1.0, 0.5)]
    assert [c["bounties"] for c in charts["groups"][0]["charts"]] == [[4.0] * 3, [4.25] * 3]
    rows = list(csv.DictReader(io.StringIO((site / "data/pushfold_charts.csv").read_text())))
    assert {(r["stack"], r["bounties"], r["bounty_share"]) for r in rows if r["payouts"] == ""} == {("8.0", "4.0 4.0 4.0", "0.5"),
                                                                                                     ("8.5", "4.25 4.25 4.25", "0.5")}


def test_charts_document_and_csv(solved):
    site, _, _ = solved
    document = read_json(site / "data/pushfold_charts.json")
    jsonschema.validate(document, SCHEMAS["pushfold_charts"])
    (group,) = document["groups"]
    assert group["positions"] == ["BTN", "SB", "BB"] and [c["stack"] for c in group["charts"]] == [8.0, 8.5]
    for chart in group["charts"]:
        record = read_json(site / f"data/pushfold/3p-bba1-chipev/{chart['stack']:g}.json")
        assert chart["nash_conv_bb"] == record["exploitability"]["bb"]
        assert chart["shove"]["SB"] == [record["shove"]["SB"].get(name, 0.0) for name in document["classes"]]
    # shove_max: the largest chart stack where the class shoves at least half the time
    btn = np.array([c["shove"]["BTN"] for c in group["charts"]])
    assert group["shove_max"]["BTN"] == [8.5 if btn[1, i] >= 0.5 else 8.0 if btn[0, i] >= 0.5 else None for i in range(169)]
    rows = list(csv.reader(io.StringIO((site / "data/pushfold_charts.csv").read_text())))
    assert len(rows) == 1 + 2 * 6 and len(rows[0]) == 11 + 169
    assert {(row[5], row[6]) for row in rows[1:]} == {("", "")}  # no bounties


def test_the_sampled_table_is_certified_on_real_deals(solved):
    """The CERTIFIED_STACK table of each equal-stack group carries its certificate (in its record and its chart), the
    others none; figures in bb with a 95% interval, per seat and summed."""
    site, _, _ = solved
    record = read_json(site / "data/pushfold/3p-bba1-chipev/8.5.json")
    certified = record["certified_exploitability"]
    assert certified["unit"] == "bb" and certified["deals"] == 1 << 16 and certified["deviations"] >= 0
    assert list(certified["seats"]) == ["BTN", "SB", "BB"] and certified["ci95"] >= 0
    assert certified["value"] == pytest.approx(sum(s["gain"] for s in certified["seats"].values()), abs=2e-3)
    assert abs(certified["value"]) <= certified["ci95"] * 5 / 1.96 + 0.05  # a solved table: nothing large to gain
    assert "certified_exploitability" not in read_json(site / "data/pushfold/3p-bba1-chipev/8.json")
    charts = read_json(site / "data/pushfold_charts.json")["groups"][0]["charts"]
    assert [c["certified"] for c in charts] == [None, certified]


def test_tables_are_cached_one_by_one_and_a_run_resumes(solved, small_threeway, monkeypatch):
    """Deleting one table's cache entry re-solves that table only (its successor's key does not depend on its
    content); the result is the same."""
    site, cache, first = solved
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(cache))
    monkeypatch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)  # as the first run: its certificate, from the cache
    monkeypatch.setattr(pushfold_certificate, "DEALS", 1 << 16)
    entries = sorted(cache.glob("pushfold_table-*.npz"))
    assert len(entries) == 3
    key = pushfold_charts._table_keys(GROUPS[0], pushfold_charts._base_key(headsup_results(progress=False)[1], small_threeway[1]))["8.5"]
    (cache / f"pushfold_table-{key}.npz").unlink()
    solved_tables = []
    original = pushfold_charts.solve_table
    monkeypatch.setattr(pushfold_charts, "solve_table", lambda table, *a: solved_tables.append(table) or original(table, *a))
    again = pushfold_charts.run_pushfold_charts(site, headsup_results(progress=False), small_threeway, GROUPS,
                                                progress=False, workers=1, chart_stacks=(8.0, 8.5))
    assert [t.stacks for t in solved_tables] == [(8.5, 8.5, 8.5)]
    # the published records are identical; the private keys (solve time, the check's NashConv before the residue
    # was removed, which BLAS threading moves in the last bit) are not compared
    strip = lambda records: [{k: v for k, v in r.items() if k not in pushfold_charts.PRIVATE_KEYS} for r in records]
    assert {g: strip(r) for g, r in again["results"].items()} == {g: strip(r) for g, r in first["results"].items()}


def test_the_default_build_has_full_ring_tables_at_the_chart_stacks():
    """9 players in the CPU default build: chip EV with a 1 bb BB ante and the 50/30/20 SNG, at the chart stacks only, under
    the ids of their whole grids in FULL_GROUPS."""
    nine = [g for g in pushfold_charts.DEFAULT_GROUPS if g.players == 9]
    assert nine == list(pushfold_charts.NINE_HANDED_CHART_GROUPS)
    assert {(g.ante, g.bb_ante, g.payouts) for g in nine} == {(1.0, True, None), (0.0, False, pushfold_charts.SNG)}
    assert all(g.stacks == pushfold_charts.CHART_STACKS for g in nine)
    assert all(start is None for g in nine for _, _, start in g.solving_order())  # 5 bb apart: each table cold
    full = {g.id: g for g in pushfold_charts.FULL_GROUPS}
    assert all(g.id in full and set(g.stacks) < set(full[g.id].stacks) for g in nine)
    assert not any(g.players in (7, 8, 10) for g in pushfold_charts.DEFAULT_GROUPS)


def test_a_whole_grid_in_the_cache_is_published_instead_of_its_chart_stacks(solved, small_threeway, monkeypatch):
    """A default group whose FULL_GROUPS namesake is cached whole (``allin compute pushfold-charts --full`` ran) is published
    as that whole grid, from the cache, nothing solved."""
    site, cache, _ = solved
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(cache))
    monkeypatch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)
    monkeypatch.setattr(pushfold_certificate, "DEALS", 1 << 16)
    monkeypatch.setattr(pushfold_charts, "FULL_GROUPS", GROUPS)  # the fixture solved these: the "whole" grid 8–8.5 bb
    monkeypatch.setattr(pushfold_charts, "solve_table", lambda *a: pytest.fail("a table was solved"))
    chart_only = pushfold_charts.Group(3, (8.5,), 1.0, True)  # the same id, one stack
    result = pushfold_charts.run_pushfold_charts(site, headsup_results(progress=False), small_threeway, (chart_only,),
                                                 progress=False, workers=1, chart_stacks=(8.0, 8.5))
    assert [g.stacks for g in result["groups"]] == [(8.0, 8.5), ()]  # the whole grid, then the other cached group
    assert [g["stacks"] for g in read_json(site / "data/pushfold/index.json")["groups"]][0] == [8.0, 8.5]


def test_a_run_s_own_groups_are_the_groups_the_registry_solves(solved, small_threeway, monkeypatch):
    """``Run.pushfold_groups`` (a library caller's, e.g. benchmarks/bench_cluster.py) replaces the default set: the
    registry answers those groups, from the cache the fixture filled, nothing solved."""
    _, cache, result = solved
    monkeypatch.setenv("ALLIN_CACHE_DIR", str(cache))
    monkeypatch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)
    monkeypatch.setattr(pushfold_certificate, "DEALS", 1 << 16)
    monkeypatch.setattr(pushfold_charts, "solve_table", lambda *a: pytest.fail("a table was solved"))
    run = resolve_run(Config(), "cpu", progress=False, pushfold_groups=GROUPS[:1])
    run.results.update(headsup=headsup_results(progress=False), threeway=small_threeway)
    answer = registry.results("pushfold-charts", run)
    assert [g.id for g in answer["groups"]] == [GROUPS[0].id]
    # as published: another test of the module may have solved a table of the cache again (other private keys)
    strip = lambda records: [{k: v for k, v in r.items() if k not in pushfold_charts.PRIVATE_KEYS} for r in records]
    assert strip(answer["results"][GROUPS[0].id]) == strip(result["results"][GROUPS[0].id])
    assert set(answer["results"]) == {GROUPS[0].id}
    assert resolve_run(Config(), "cpu").pushfold_groups is None


def test_chart_tables_are_every_equal_stack_group_published():
    """The chart pages follow the groups published: the default build's, and the opt-in 7- to 10-player groups once
    ``allin compute pushfold --full`` has cached them; unequal-stack examples and groups lacking a chart stack have none."""
    default = pushfold_charts.chart_tables(pushfold_charts.DEFAULT_GROUPS)
    full = pushfold_charts.chart_tables(pushfold_charts.FULL_GROUPS)
    assert default == pushfold_charts.CHART_TABLES
    assert {g.players for g in pushfold_charts.FULL_GROUPS if (g.id, pushfold_charts.CHART_STACKS) in full} == set(range(2, 11))
    nine_handed = {g.id for g in pushfold_charts.NINE_HANDED_CHART_GROUPS}
    opt_in = {g.id for g in pushfold_charts.FULL_GROUPS
              if g.stack_sets is None and (g.players in pushfold_charts.OPT_IN_PLAYERS or g.bounty in pushfold_charts.OPT_IN_BOUNTIES)}
    assert {gid for gid, _ in full} - {gid for gid, _ in default} == opt_in - nine_handed
    assert {(gid, stacks) for gid, stacks in default if gid.startswith("9p-")} == {(gid, pushfold_charts.CHART_STACKS) for gid in nine_handed}
    assert pushfold_charts.chart_tables(GROUPS, (8.0, 8.5)) == (("3p-bba1-chipev", (8.0, 8.5)),)
    assert pushfold_charts.chart_tables(GROUPS, (8.0, 9.0)) == ()


def test_grids_are_solved_ascending_each_from_the_stack_below():
    """Equal stacks: the smallest cold, each next one warm-started from the one below, its cache key chaining
    that table's; unequal-stack examples cold."""
    grid = pushfold_charts.Group(6, (1.5, 2.0, 5.0))
    assert [(name, start) for name, _, start in grid.solving_order()] == [("1.5", None), ("2", "1.5"), ("5", "2")]
    mixed = pushfold_charts.Group(3, (), payouts=(65.0, 35.0), stack_sets=((10.0, 8.0, 6.0), (6.0, 8.0, 10.0)))
    assert [start for _, _, start in mixed.solving_order()] == [None, None]
    keys = pushfold_charts._table_keys(grid, "base")
    shorter = pushfold_charts._table_keys(pushfold_charts.Group(6, (2.0, 5.0)), "base")  # 2 bb cold here
    assert len(set(keys.values())) == 3 and shorter["2"] != keys["2"] and shorter["5"] != keys["5"]
    assert pushfold_charts._table_keys(pushfold_charts.Group(6, (1.5, 2.0)), "base") == {n: keys[n] for n in ("1.5", "2")}


def test_a_start_is_measured_unless_it_came_quickly_from_its_own_neighbour():
    """solve_table passes start_within (the start's NashConv must be within START_WITHIN tolerances) unless
    the start was itself warm-started and needed at most TRUSTED_START_ITERATIONS iterations."""
    trusted, limit = pushfold_charts._trusted, pushfold_charts.TRUSTED_START_ITERATIONS
    assert not trusted(None)
    assert not trusted({"warm_start_bb": None, "iterations": 5})  # a cold table: where a grid changes quickly
    assert trusted({"warm_start_bb": 9.5, "iterations": limit})
    assert not trusted({"warm_start_bb": 9.5, "iterations": limit + 5})


def test_the_default_set_has_pko_charts_at_common_stacks_and_player_counts():
    """PKO charts in the default build: chip EV with a 1 bb BB ante at 3–6 players and SNG ICM at 3 and 4 players, 5–25 bb,
    every bounty half a stack at chip value, half of it paid in cash; each table's bounties are kernels.icm.bounty's; the
    whole-stack bounties are opt-in; no heads-up PKO group (a bounty changes nothing heads-up)."""
    from kernels.icm.bounty import stack_bounties

    pko = [g for g in pushfold_charts.DEFAULT_GROUPS if g.bounty is not None]
    assert {(g.players, g.payouts, g.ante, g.bb_ante) for g in pko} == {
        *((n, None, 1.0, True) for n in range(3, 7)), (3, pushfold_charts.SNG, 0.0, False), (4, pushfold_charts.SNG, 0.0, False)}
    assert all(g.bounty == 0.5 and g.bounty_share == 0.5 and g.stacks == tuple(float(s) for s in range(5, 26)) for g in pko)
    charted = {gid for gid, _ in pushfold_charts.CHART_TABLES}
    assert {g.id for g in pko} <= charted and "6p-bba1-chipev-pko50-b50" in charted and "4p-icm-50-30-20-pko50-b50" in charted
    assert {g.bounty for g in pushfold_charts.FULL_GROUPS if g.bounty is not None} == {0.5, 1.0}
    assert not any(g.players == 2 and g.bounty is not None for g in pushfold_charts.FULL_GROUPS)
    for group in pko:
        pool = None if group.payouts is None else sum(group.payouts)
        for _, table in group.tables():
            assert table.bounties == tuple(stack_bounties(table.stacks, 0.5, pool)) and table.bounty_share == 0.5
    assert dict(pko[0].tables())["10"].bounties == (5.0,) * 3


def test_default_workers_is_one_per_core_within_the_groups_and_the_memory(monkeypatch):
    monkeypatch.setattr(pushfold_charts.os, "cpu_count", lambda: 16)
    monkeypatch.setattr(pushfold_charts, "available_memory", lambda: 100 * 2**30)
    assert pushfold_charts.default_workers(40) == 16
    assert pushfold_charts.default_workers(5) == 5
    monkeypatch.setattr(pushfold_charts, "available_memory", lambda: 4 * pushfold_charts.WORKER_BYTES + 1)
    assert pushfold_charts.default_workers(40) == 4
    monkeypatch.setattr(pushfold_charts, "available_memory", lambda: 2**20)
    assert pushfold_charts.default_workers(40) == 1
    monkeypatch.setattr(pushfold_charts, "available_memory", lambda: None)
    assert pushfold_charts.default_workers(40) == 16
    monkeypatch.setattr(pushfold_charts.os, "cpu_count", lambda: None)
    assert pushfold_charts.default_workers(40) == 1


def test_available_memory_reads_proc_meminfo():
    memory = pushfold_charts.available_memory()
    assert memory is not None and 2**20 < memory < 2**50  # Linux (CI, the build machines) has /proc/meminfo


def _kill_a_worker_mid_solve(processes, killed: list, stop) -> None:
    """kill -9 of the first worker still solving a group 2 s after it was seen starting (building its equities)."""

    def solving() -> list[str]:
        return [address for address, keys in processes.client.processing().items()
                if any("solve_group_unit" in str(key) for key in keys)]

    while not stop.is_set():
        if solving():
            stop.wait(2.0)
            if busy := solving():
                killed.append(processes.workers()[busy[0]])
                os.kill(killed[0], signal.SIGKILL)
                return
        stop.wait(0.05)


@pytest.mark.slow  # Dask processes, and each worker builds the equities
def test_tables_solved_on_a_scheduler_and_two_workers_are_the_in_process_tables(solved, small_threeway, tmp_path):
    """`--cluster`: a `dask scheduler` and two `dask worker` processes (tests/dask_helpers.py) solve the groups, one
    a task, one worker killed (kill -9) while it solves a group, and certify the sampled table; the published table
    files (certificate included) are the in-process run's, byte for byte, and this machine's cache then holds every
    table (a rerun solves none)."""
    distributed = pytest.importorskip("distributed")
    from dask_helpers import DaskProcesses

    site_here, _, _ = solved
    site, cache, logs = tmp_path / "site", tmp_path / "cache", tmp_path / "dask"
    logs.mkdir()
    killed, stop = [], threading.Event()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ALLIN_CACHE_DIR", str(cache))  # this machine's and the workers': the small run's tables stay here
        patch.setattr(pushfold_certificate, "CERTIFIED_STACK", 8.5)
        patch.setattr(pushfold_certificate, "DEALS", 1 << 16)
        processes = DaskProcesses(logs, workers=2)
        killer = threading.Thread(target=_kill_a_worker_mid_solve, args=(processes, killed, stop), daemon=True)
        try:
            with processes.time_limit(300), distributed.get_task_stream(processes.client) as tasks:
                killer.start()
                result = pushfold_charts.run_pushfold_charts(site, headsup_results(progress=False), small_threeway, GROUPS,
                                                             progress=False, chart_stacks=(8.0, 8.5), cluster=processes.address)
                stop.set()
                killer.join()
                assert killed and killed[0] not in processes.workers().values()  # a worker died mid-solve
        finally:
            stop.set()
            processes.close()
        solves = [task for task in tasks.data if "solve_group_unit" in str(task["key"])]
        assert sorted(str(task["key"]).rsplit("-", 1)[1] for task in solves) == ["0", "1"]  # each group once, finished
        assert [str(task["key"]).split("-")[0] for task in tasks.data if task not in solves] == [
            "generator.compute.stages.pushfold_certificate.certify_table"]  # the one certified table
        assert all(pushfold_charts._is_cached(group, pushfold_charts._base_key(headsup_results(progress=False)[1],
                                                                                small_threeway[1])) for group in GROUPS)
    tables = sorted(path.relative_to(site) for path in (site / "data" / "pushfold").rglob("*.json"))
    assert tables == sorted(path.relative_to(site_here) for path in (site_here / "data" / "pushfold").rglob("*.json"))
    for path in tables:
        here, there = read_json(site_here / path), read_json(site / path)
        if path.name == "index.json":  # when and how long it ran differ
            here, there = here["groups"], there["groups"]
        assert here == there, path
    assert set(result["results"]) == {group.id for group in GROUPS}


def test_certificates_in_spawned_processes_equal_this_process_s(solved):
    """The certificates' units in two spawned processes of one thread (``unit_runner(processes=2)``, as the build runs
    them) give this process's certificate of the same table, seed and deals, in unit order when asked."""
    from generator.compute.units import unit_runner

    _, _, result = solved
    group = GROUPS[0]
    tables = dict(group.tables())
    units = [(tables[name], group, record, 4096 * (k + 1)) for k, ((name, _), record) in
             enumerate(zip(group.tables(), result["results"][group.id]))]
    with unit_runner(None, pushfold_certificate.KERNELS, processes=2) as run:
        assert run.parallelism == 2
        there = list(run(pushfold_certificate.certify_table, units, ordered=True))
    assert [index for index, _ in there] == list(range(len(units)))
    assert [certificate for _, certificate in there] == [pushfold_certificate.certify_table(*unit) for unit in units]
