"""The ``headsup`` stage: exact class-vs-random and class-vs-class tables → ``headsup.json``, ``matchups.json``.

Computed once by walking the 134,459 suit-symmetry classes of boards (``kernels.headsup``), then
cached in ``<cache>/headsup-<code version>.npz`` (checksummed, with its meta block): a rerun with
unchanged code loads it in well under a second. The same walk counts each class against a random hand on
each of the 1,755 suit-distinct flops (:mod:`kernels.flop.all_flops`), cached with the tables and published
by the ``flops`` stage (:func:`flop_table_results`).
"""

from __future__ import annotations

import time
from math import comb
from pathlib import Path

import numpy as np

from generator.core.cache import array_json, cache_key, cached_arrays, is_cached, json_array
from generator.data.datafiles import publish
from generator.core.provenance import code_version, meta_block
from generator.compute.board_walk import board_classes, walk_board_orbits
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.flop.all_flops import FlopEquityTable, assemble_flop_table
from kernels.headsup.tables import BOARDS_PER_MATCHUP, OPPONENT_COMBOS, HeadsupTables, assemble_tables

#: Kernel modules that compute the tables (CPU and GPU give identical counts; both are hashed).
KERNELS = ("kernels.headsup.cpu", "kernels.headsup.gpu", "kernels.headsup.boards", "kernels.headsup.tables")
CODE_VERSION = code_version(*KERNELS)
METHOD = (
    "exact enumeration of every board (134,459 suit-symmetry classes weighted by size); "
    "counts as integers, card removal exact"
)
#: Two-card combos that share no card with a five-card board: the walk ranks them once per board.
LIVE_COMBOS_PER_BOARD = comb(52 - 5, 2)
#: The keys of the meta block beyond ``meta_block``'s; part of the cache key, so a cached file
#: written before a key was added is recomputed rather than published without it.
META_KEYS = ("boards", "opponent_combos", "board_classes", "live_combos_per_board")


def compute_headsup_tables(backend: str = "cpu", progress: bool = True,
                           cluster: str | None = None) -> tuple[HeadsupTables, FlopEquityTable]:
    """Walk every board class once and assemble the exact tables and the all-flop table (≈ 30–60 s on 2 CPU cores);
    on Dask workers with ``cluster`` (``local:N``, ``tcp://host:port``), the same integers."""
    if backend == "gpu":
        from kernels.headsup import gpu as tally_module
    else:
        from kernels.headsup import cpu as tally_module
    win, tie, win_vs_random, tie_vs_random, flop_win, flop_tie = walk_board_orbits(
        tally_module.tally_boards, "heads-up boards", progress, cluster, KERNELS, gpu=backend == "gpu")
    return (assemble_tables(win, tie, win_vs_random, tie_vs_random),
            assemble_flop_table(flop_win, flop_tie, win_vs_random, tie_vs_random))


def _walk_results(backend: str, progress: bool, cluster: str | None = None) -> dict:
    """The cached arrays of the walk: the tables' fields, ``flop_win``, ``flop_tie`` and ``meta``."""

    def compute() -> dict:
        started = time.perf_counter()
        results, flops = compute_headsup_tables(backend, progress, cluster)
        meta = meta_block(
            "headsup", METHOD, CODE_VERSION, backend, time.perf_counter() - started,
            boards=BOARDS_PER_MATCHUP, opponent_combos=OPPONENT_COMBOS,
            board_classes=len(board_classes()[1]), live_combos_per_board=LIVE_COMBOS_PER_BOARD,
        )
        return {**results._asdict(), "flop_win": flops.win, "flop_tie": flops.tie, "meta": json_array(meta)}

    return cached_arrays("headsup", cache_key(CODE_VERSION, META_KEYS), compute)


def headsup_results(backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> tuple[HeadsupTables, dict]:
    """The exact tables and their meta block: from the cache when the code is unchanged, else computed (on Dask
    workers with ``cluster``)."""
    arrays = _walk_results(backend, progress, cluster)
    meta = array_json(arrays.pop("meta"))
    arrays.pop("flop_win"), arrays.pop("flop_tie")
    return HeadsupTables(**arrays), meta


def flop_table_results(backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> tuple[FlopEquityTable, dict]:
    """The all-flop table (each class against a random hand on each suit-distinct flop) and the walk's meta block (the
    walk on Dask workers with ``cluster`` when it is not cached)."""
    arrays = _walk_results(backend, progress, cluster)
    table = assemble_flop_table(arrays["flop_win"], arrays["flop_tie"], arrays["vs_random_win"] * CLASS_COMBO_COUNT,
                                arrays["vs_random_tie"] * CLASS_COMBO_COUNT)
    return table, array_json(arrays["meta"])


def headsup_cached() -> bool:
    """Whether :func:`headsup_results` would read the tables from the cache rather than compute them (≈ 35 s on 2 cores)."""
    return is_cached("headsup", cache_key(CODE_VERSION, META_KEYS))


def headsup_json(results: HeadsupTables, meta: dict) -> dict:
    """The ``headsup.json`` object (docs/data-format.md)."""
    return {
        "meta": meta,
        "classes": list(CLASS_NAMES),
        "combos": CLASS_COMBO_COUNT.tolist(),
        "win": results.vs_random_win.tolist(),
        "tie": results.vs_random_tie.tolist(),
        "loss": results.vs_random_loss.tolist(),
        "total": results.vs_random_total.tolist(),
        "equity": [round(float(e), 12) for e in results.vs_random_equity()],
    }


def matchups_json(results: HeadsupTables, meta: dict) -> dict:
    """The ``matchups.json`` object (docs/data-format.md)."""
    return {
        "meta": meta,
        "classes": list(CLASS_NAMES),
        "win": results.win.tolist(),
        "tie": results.tie.tolist(),
        "loss": results.loss.tolist(),
        "pairs": results.pairs.tolist(),
        "equity": np.round(results.matchup_equity(), 9).tolist(),
    }


def run_headsup(site_dir: Path, backend: str = "cpu", progress: bool = True,
                cluster: str | None = None) -> tuple[HeadsupTables, dict]:
    """Compute (or load; on Dask workers with ``cluster``) the tables and write ``headsup.json``/``.csv`` and
    ``matchups.json``/``.csv``."""
    results, meta = headsup_results(backend, progress, cluster)
    data_dir = Path(site_dir) / "data"
    publish(data_dir, "headsup", headsup_json(results, meta))
    publish(data_dir, "matchups", matchups_json(results, meta))
    return results, meta


def results(run, inputs: dict) -> tuple[HeadsupTables, dict]:
    """The registry's accessor (:mod:`generator.compute.registry`): ``(tables, meta)``."""
    return headsup_results(run.backend, run.progress, run.cluster)


def write(run, site_dir: Path, inputs: dict) -> tuple[HeadsupTables, dict]:
    return run_headsup(site_dir, run.backend, run.progress, run.cluster)


def cached(run) -> bool:
    return headsup_cached()
