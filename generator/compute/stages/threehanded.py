"""The ``threehanded`` stage: exact three-handed equity of every class against two random hands.

Walks the 134,459 suit-symmetry classes of boards (as the heads-up stage does) and counts, per
hero combo, the pairs of opponent combos it beats, ties one of, or ties both of
(``kernels.threehanded``): every deal of two random opponents and five board cards, counted exactly.
Cached in ``<cache>/threehanded-<code version>.npz``; writes ``site/data/threehanded.json`` (+ .csv).
"""

from __future__ import annotations

import time
from math import comb
from pathlib import Path

import numpy as np

from generator.core.cache import array_json, cached_arrays, is_cached, json_array
from generator.data.datafiles import publish
from generator.core.provenance import code_version, meta_block
from generator.compute.board_walk import walk_board_orbits
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.threehanded.core import OPPONENT_PAIRS

#: Kernel modules that compute the counts (CPU and GPU give identical counts; both are hashed).
KERNELS = ("kernels.threehanded.cpu", "kernels.threehanded.gpu", "kernels.headsup.boards", "kernels.cards")
CODE_VERSION = code_version(*KERNELS)
#: Boards a hero combo meets (C(50, 5)), and deals per hero combo (boards × opponent pairs).
BOARDS_PER_HERO = comb(50, 5)
DEALS_PER_HERO = BOARDS_PER_HERO * OPPONENT_PAIRS
METHOD = (
    "exact count of every deal of two random opponents and five board cards: per board (134,459 "
    "suit-symmetry classes weighted by size) and hero combo, the opponent pairs beaten, tied once or "
    "tied twice follow from the sets of combos the hero beats / ties and their per-card degrees "
    "(inclusion-exclusion over shared cards); integer counts"
)


def compute_threehanded_counts(backend: str = "cpu", progress: bool = True,
                               cluster: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Walk every board class once: ``(win, tie2, tie3)`` int64 ``(169,)`` (≈ 40 s on 2 CPU cores); on Dask workers
    with ``cluster`` (``local:N``, ``tcp://host:port``), the same integers."""
    if backend == "gpu":
        from kernels.threehanded import gpu as tally_module
    else:
        from kernels.threehanded import cpu as tally_module
    return walk_board_orbits(tally_module.tally_boards, "three-handed boards", progress, cluster, KERNELS, gpu=backend == "gpu")


def threehanded_results(backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> dict:
    """The ``threehanded.json`` object: from the cache when the code is unchanged, else computed (on Dask workers
    with ``cluster``)."""

    def compute() -> dict:
        started = time.perf_counter()
        win, tie2, tie3 = compute_threehanded_counts(backend, progress, cluster)
        meta = meta_block("threehanded", METHOD, CODE_VERSION, backend, time.perf_counter() - started,
                          boards=BOARDS_PER_HERO, opponent_pairs=OPPONENT_PAIRS)
        return {"win": win, "tie_2": tie2, "tie_3": tie3, "meta": json_array(meta)}

    arrays = cached_arrays("threehanded", CODE_VERSION, compute)
    return threehanded_json(arrays, array_json(arrays["meta"]))


def threehanded_json(counts: dict, meta: dict) -> dict:
    """The ``threehanded.json`` object (docs/data-format.md) from the integer counts."""
    total = CLASS_COMBO_COUNT.astype(np.int64) * DEALS_PER_HERO
    win, tie2, tie3 = (np.asarray(counts[key], dtype=np.int64) for key in ("win", "tie_2", "tie_3"))
    equity = (6 * win + 3 * tie2 + 2 * tie3) / (6 * total)
    return {
        "meta": meta,
        "classes": list(CLASS_NAMES),
        "combos": CLASS_COMBO_COUNT.tolist(),
        "win": win.tolist(),
        "tie_2": tie2.tolist(),
        "tie_3": tie3.tolist(),
        "loss": (total - win - tie2 - tie3).tolist(),
        "total": total.tolist(),
        "equity": [round(float(e), 12) for e in equity],
    }


def run_threehanded(site_dir: Path, backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> dict:
    """Compute (or load; on Dask workers with ``cluster``) the counts and write ``site_dir/data/threehanded.json``
    and ``.csv``."""
    result = threehanded_results(backend, progress, cluster)
    publish(Path(site_dir) / "data", "threehanded", result)
    return result


def results(run, inputs: dict) -> dict:
    """The registry's accessor (:mod:`generator.compute.registry`): the ``threehanded.json`` object."""
    return threehanded_results(run.backend, run.progress, run.cluster)


def write(run, site_dir: Path, inputs: dict) -> dict:
    return run_threehanded(site_dir, run.backend, run.progress, run.cluster)


def cached(run) -> bool:
    return is_cached("threehanded", CODE_VERSION)
