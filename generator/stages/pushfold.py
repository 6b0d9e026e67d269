"""The ``pushfold`` stage: heads-up push/fold Nash equilibria from the exact matchups → ``pushfold.json``.

Uses the exact 169×169 tables of the ``headsup`` stage (``headsup_results()``): showdown equity
``(win + tie/2) / (pairs · 1,712,304)`` and the joint class distribution ``pairs[i][j]`` (card
removal). ``kernels.pushfold`` solves every stack of :data:`STACKS` (a few seconds in all); the
result is cached in ``<cache>/pushfold-<key>.json`` (with its SHA-256; a file that does not match
is recomputed), keyed by the code version of both stages,
the stacks, the ante and the tolerance.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import numpy as np

import kernels.pushfold
from generator.datafiles import pushfold_csv
from generator.provenance import code_version, meta_block
from generator.stages.headsup import CODE_VERSION as HEADSUP_CODE_VERSION
from generator.stages.headsup import headsup_results
from generator.cache_dir import cache_dir
from generator.storage import CorruptFileError, atomic_write_bytes, json_bytes, read_json, write_json
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP

CODE_VERSION = code_version(kernels.pushfold)
#: Effective stacks solved, in bb (before posting the blinds): 1, 1.5, …, 25.
STACKS = tuple(float(s) for s in np.arange(2, 51) / 2)
#: NashConv (SB + BB best-response gains, bb per hand) the solver must reach at every stack.
TOLERANCE = 1e-6
#: A class counts as pushed / called at a stack when its frequency is at least this.
PLAYED = 0.5
#: Decimals kept for the frequencies in the file (the NashConv reported is that of the rounded strategies).
DECIMALS = 6
METHOD = (
    "heads-up push/fold (SB shoves or folds, BB calls or folds, chip EV); Nash equilibrium per stack by "
    "CFR+ with linear averaging over the 169 classes, exact matchup equities, card removal via compatible combo pairs"
)


def _key(stacks, ante: float, tolerance: float) -> str:
    text = f"{CODE_VERSION}|{HEADSUP_CODE_VERSION}|{list(stacks)}|{ante!r}|{tolerance!r}|{PLAYED}|{DECIMALS}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _cache_path(stacks, ante: float, tolerance: float) -> Path:
    return cache_dir() / f"pushfold-{_key(stacks, ante, tolerance)}.json"


def _maxima(stacks, frequencies: np.ndarray) -> tuple[list, list]:
    largest, contiguous = kernels.pushfold.max_stack(stacks, frequencies, PLAYED)
    as_list = lambda values: [None if np.isnan(v) else float(v) for v in values]  # noqa: E731
    return as_list(largest), as_list(contiguous)


def compute_pushfold(tables, headsup_meta: dict, stacks=STACKS, ante: float = 0.0, tolerance: float = TOLERANCE) -> dict:
    """Solve every stack and return the ``pushfold.json`` object (docs/data-format.md)."""
    started = time.perf_counter()
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win, dtype=np.float64) + np.asarray(tables.tie, dtype=np.float64) / 2) / (pairs * BOARDS_PER_MATCHUP)
    solutions = kernels.pushfold.solve_stacks(equity, pairs, stacks, ante=ante, tolerance=tolerance)
    push = np.round(np.array([s.push for s in solutions]), DECIMALS)
    call = np.round(np.array([s.call for s in solutions]), DECIMALS)
    combos = CLASS_COMBO_COUNT / CLASS_COMBO_COUNT.sum()
    nash_conv, value = [], []
    for stack, p, c in zip(stacks, push, call):
        game = kernels.pushfold.make_game(equity, pairs, stack, ante)
        nash_conv.append(kernels.pushfold.nash_conv(game, p, c)[0])
        value.append(kernels.pushfold.sb_value(game, p, c))
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


def pushfold_results(stacks=STACKS, ante: float = 0.0, tolerance: float = TOLERANCE, backend: str = "cpu", progress: bool = False) -> dict:
    """The ``pushfold.json`` object: from the cache when code and parameters are unchanged, else solved."""
    stacks = tuple(float(s) for s in stacks)
    path = _cache_path(stacks, ante, tolerance)
    if path.exists():
        try:
            stored = read_json(path)
            if stored.get("sha256") == hashlib.sha256(json_bytes(stored.get("result"))).hexdigest():
                return stored["result"]
        except (CorruptFileError, AttributeError):
            pass
        path.unlink()
    tables, headsup_meta = headsup_results(backend, progress)
    result = compute_pushfold(tables, headsup_meta, stacks, ante, tolerance)
    write_json(path, {"sha256": hashlib.sha256(json_bytes(result)).hexdigest(), "result": result})
    return result


def run_pushfold(site_dir: Path, backend: str = "cpu", progress: bool = False, ante: float = 0.0) -> dict:
    """Compute (or load) the equilibria and write ``site_dir/data/pushfold.json`` and ``pushfold.csv``.

    The solver is NumPy on the CPU whatever ``backend`` says (it takes seconds); ``backend`` only
    chooses how the heads-up tables are computed if they are not cached yet.
    """
    result = pushfold_results(ante=ante, backend=backend, progress=progress)
    data_dir = Path(site_dir) / "data"
    write_json(data_dir / "pushfold.json", result)
    atomic_write_bytes(data_dir / "pushfold.csv", pushfold_csv(result))
    return result
