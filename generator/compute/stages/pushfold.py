"""The ``pushfold`` stage: heads-up push/fold Nash equilibria from the exact matchups → ``pushfold.json``.

Given the exact 169×169 tables of the ``headsup`` stage: showdown equity
``(win + tie/2) / (pairs · 1,712,304)`` and the joint class distribution ``pairs[i][j]`` (card
removal). ``kernels.pushfold.headsup`` solves every stack of :data:`STACKS` (a few seconds in all); the
result is cached (``generator.core.cache``), keyed by the code version of the solver and of the
heads-up tables, the stacks, the ante and the tolerance.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

import kernels.pushfold.headsup
from generator.compute.pushfold_records import DECIMALS, PLAYED
from generator.core.cache import array_json, cache_key, cached_arrays, json_array
from generator.data.datafiles import publish
from generator.core.provenance import code_version, meta_block
from generator.compute.stages.headsup import CODE_VERSION as HEADSUP_CODE_VERSION
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP

#: Kernel modules of the solver (the heads-up tables it is given have their own code version).
KERNELS = ("kernels.pushfold.headsup",)
CODE_VERSION = code_version(*KERNELS)
#: Effective stacks solved, in bb (before posting the blinds): 1, 1.5, …, 25.
STACKS = tuple(float(s) for s in np.arange(2, 51) / 2)
#: NashConv (SB + BB best-response gains, bb per hand) the solver must reach at every stack.
TOLERANCE = 1e-6
METHOD = (
    "heads-up push/fold (SB shoves or folds, BB calls or folds, chip EV); Nash equilibrium per stack by "
    "CFR+ with linear averaging over the 169 classes, exact matchup equities, card removal via compatible combo pairs"
)


def _maxima(stacks, frequencies: np.ndarray) -> tuple[list, list]:
    largest, contiguous = kernels.pushfold.headsup.max_stack(stacks, frequencies, PLAYED)
    as_list = lambda values: [None if np.isnan(v) else float(v) for v in values]
    return as_list(largest), as_list(contiguous)


def compute_pushfold(tables, headsup_meta: dict, stacks=STACKS, ante: float = 0.0, tolerance: float = TOLERANCE) -> dict:
    """Solve every stack and return the ``pushfold.json`` object (docs/data-format.md)."""
    started = time.perf_counter()
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win, dtype=np.float64) + np.asarray(tables.tie, dtype=np.float64) / 2) / (pairs * BOARDS_PER_MATCHUP)
    # the tolerance holds for the strategies as published (rounded to DECIMALS), not only before rounding
    solutions = kernels.pushfold.headsup.solve_stacks(equity, pairs, stacks, ante=ante, tolerance=tolerance, decimals=DECIMALS)
    push = np.array([s.push for s in solutions])
    call = np.array([s.call for s in solutions])
    combos = CLASS_COMBO_COUNT / CLASS_COMBO_COUNT.sum()
    nash_conv, value = [], []
    for stack, p, c in zip(stacks, push, call):
        game = kernels.pushfold.headsup.make_game(equity, pairs, stack, ante)
        nash_conv.append(kernels.pushfold.headsup.nash_conv(game, p, c)[0])
        value.append(kernels.pushfold.headsup.sb_value(game, p, c))
    push_max, push_max_contiguous = _maxima(stacks, push)
    call_max, call_max_contiguous = _maxima(stacks, call)
    meta = meta_block(
        "pushfold",
        METHOD,
        CODE_VERSION,
        "cpu",
        time.perf_counter() - started,
        ante=ante,
        tolerance=tolerance,
        played_threshold=PLAYED,
        max_nash_conv=float(max(nash_conv)),
        headsup_code_version=headsup_meta.get("code_version", HEADSUP_CODE_VERSION),
    )
    return {
        "meta": meta,
        "classes": list(CLASS_NAMES),
        "combos": CLASS_COMBO_COUNT.tolist(),
        "stacks": [float(s) for s in stacks],
        "push": push.tolist(),
        "call": call.tolist(),
        "push_share": [round(float(combos @ p), 9) for p in push],
        "call_share": [round(float(combos @ c), 9) for c in call],
        "sb_value": [round(float(v), 9) for v in value],
        "nash_conv": [float(f"{v:.3e}") for v in nash_conv],
        "iterations": [int(s.iterations) for s in solutions],
        "push_max": push_max,
        "push_max_contiguous": push_max_contiguous,
        "call_max": call_max,
        "call_max_contiguous": call_max_contiguous,
    }


def pushfold_results(headsup, stacks=STACKS, ante: float = 0.0, tolerance: float = TOLERANCE) -> dict:
    """The ``pushfold.json`` object for the heads-up stage's ``(tables, meta)``: cached, else solved."""
    stacks = tuple(float(s) for s in stacks)
    tables, headsup_meta = headsup
    key = cache_key(CODE_VERSION, headsup_meta.get("code_version", HEADSUP_CODE_VERSION), stacks, ante, tolerance, PLAYED, DECIMALS)
    arrays = cached_arrays(
        "pushfold", key, lambda: {"result": json_array(compute_pushfold(tables, headsup_meta, stacks, ante, tolerance))}
    )
    return array_json(arrays["result"])


def run_pushfold(site_dir: Path, headsup, ante: float = 0.0) -> dict:
    """Compute (or load) the equilibria from the heads-up stage's ``(tables, meta)`` and write
    ``site_dir/data/pushfold.json`` and ``pushfold.csv``. The solver is NumPy on the CPU (seconds)."""
    result = pushfold_results(headsup, ante=ante)
    publish(Path(site_dir) / "data", "pushfold", result)
    return result


def results(run, inputs: dict) -> dict:
    """The registry's accessor (:mod:`generator.compute.registry`): ``{"equilibria": the pushfold.json object,
    "thresholds": the pushfold_thresholds.json object}`` (:mod:`.pushfold_thresholds`)."""
    from generator.compute.stages.pushfold_thresholds import thresholds_results

    return {"equilibria": pushfold_results(inputs["headsup"]), "thresholds": thresholds_results(inputs["headsup"])}


def write(run, site_dir: Path, inputs: dict) -> dict:
    from generator.compute.stages.pushfold_thresholds import run_pushfold_thresholds

    return {"equilibria": run_pushfold(site_dir, inputs["headsup"]), "thresholds": run_pushfold_thresholds(site_dir, inputs["headsup"])}
