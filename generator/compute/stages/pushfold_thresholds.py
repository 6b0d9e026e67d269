"""Heads-up push/fold thresholds to 0.01 bb → ``pushfold_thresholds.json``.

The heads-up game of ``kernels.pushfold.headsup`` solved at every stack from 1 bb (or the smallest stack
that covers the big blind and the ante) to 25 bb in steps of 0.01 bb, each warm-started from the
previous one, for each ante of :data:`ANTES`; per class the largest stack at which the SB shoves
and the BB calls with frequency ≥ 0.5 (and the largest X such that it does at every stack ≤ X).
Cached (``generator.core.cache``), keyed like the ``pushfold`` stage plus the grid.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

import kernels.pushfold.headsup
from generator.compute.units import unit_runner
from generator.core.cache import array_json, cache_key, cached_arrays, json_array
from generator.data.datafiles import publish
from generator.core.provenance import meta_block
from generator.compute.stages.headsup import CODE_VERSION as HEADSUP_CODE_VERSION
from generator.compute.stages.pushfold import CODE_VERSION
from generator.compute.pushfold_records import DECIMALS, PLAYED
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP

STEP = 0.01
TOP = 25.0
#: Antes per player (bb): none, and 1/8 bb.
ANTES = (0.0, 0.125)
#: NashConv (bb per hand) at every grid stack, of the strategies rounded to DECIMALS.
TOLERANCE = 1e-5
METHOD = (
    "heads-up push/fold Nash equilibrium (CFR+, exact matchup equities, card removal via compatible combo pairs) "
    "at every stack of a 0.01 bb grid, warm-started from the previous stack; thresholds = largest grid stack "
    "played with frequency >= played_threshold"
)


def _as_list(values) -> list:
    return [None if np.isnan(v) else round(float(v), 2) for v in values]


def _ante_entry(equity: np.ndarray, pairs: np.ndarray, ante: float, top: float, tolerance: float) -> dict:
    """One ``by_ante`` entry: the grid of ``ante`` solved stack by stack, and its thresholds."""
    low = np.ceil((1.0 + ante) / STEP - 1e-9) * STEP
    stacks = np.round(np.arange(round(low / STEP), round(top / STEP) + 1) * STEP, 2)
    solutions = kernels.pushfold.headsup.solve_stacks(equity, pairs, stacks, ante=ante, tolerance=tolerance,
                                              decimals=DECIMALS, check_every=10)
    entry = {"ante": ante, "first_stack": float(stacks[0]), "last_stack": float(stacks[-1]),
             "max_nash_conv": float(max(s.nash_conv for s in solutions))}
    for action, frequencies in (("push", [s.push for s in solutions]), ("call", [s.call for s in solutions])):
        largest, contiguous = kernels.pushfold.headsup.max_stack(stacks, np.array(frequencies), PLAYED)
        entry[f"{action}_max"], entry[f"{action}_max_contiguous"] = _as_list(largest), _as_list(contiguous)
    return entry


def compute_thresholds(tables, antes=ANTES, top: float = TOP, tolerance: float = TOLERANCE, workers: int = 1) -> dict:
    """The ``pushfold_thresholds.json`` object (docs/data-format.md); the antes' grids (each one chain of warm
    starts) in up to ``workers`` spawned processes."""
    started = time.perf_counter()
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win, dtype=np.float64) + np.asarray(tables.tie, dtype=np.float64) / 2) / (pairs * BOARDS_PER_MATCHUP)
    jobs = [(equity, pairs, ante, top, tolerance) for ante in antes]
    by_ante = [None] * len(jobs)
    with unit_runner(None, ("kernels.pushfold.headsup",), processes=min(workers, len(jobs))) as run:
        for index, entry in run(_ante_entry, jobs):
            by_ante[index] = entry
    meta = meta_block("pushfold_thresholds", METHOD, CODE_VERSION, "cpu", time.perf_counter() - started,
                      step=STEP, tolerance=tolerance, played_threshold=PLAYED)
    return {"meta": meta, "classes": list(CLASS_NAMES), "combos": CLASS_COMBO_COUNT.tolist(), "by_ante": by_ante}


def thresholds_results(headsup) -> dict:
    """The ``pushfold_thresholds.json`` object for the heads-up stage's ``(tables, meta)``: cached, else computed."""
    tables, headsup_meta = headsup
    key = cache_key(CODE_VERSION, headsup_meta.get("code_version", HEADSUP_CODE_VERSION), ANTES, STEP, TOP, TOLERANCE,
                    PLAYED, DECIMALS)
    workers = min(os.cpu_count() or 1, len(ANTES))
    arrays = cached_arrays("pushfold_thresholds", key, lambda: {"result": json_array(compute_thresholds(tables, workers=workers))})
    return array_json(arrays["result"])


def run_pushfold_thresholds(site_dir: Path, headsup) -> dict:
    """Compute (or load) the thresholds from the heads-up stage's ``(tables, meta)``; write
    ``site_dir/data/pushfold_thresholds.json`` and ``.csv``."""
    result = thresholds_results(headsup)
    publish(Path(site_dir) / "data", "pushfold_thresholds", result)
    return result
