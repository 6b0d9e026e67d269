"""The ``flops`` stage: the precomputed flop atlas (docs/data-format.md, definitions in docs/flop.md).

* ``flops.json`` (``.csv``, ``.bin``): each class's exact equity against a random hand on each of the 1,755
  suit-distinct flops. The counts come from the heads-up walk (:func:`generator.compute.stages.headsup.flop_table_results`,
  cached with the heads-up tables); this stage adds each flop's texture.
* ``flop_hits.json`` (``.csv``): how often each class flops each made category and draw, over the 19,600 flops
  one combo meets (:func:`kernels.flop.categories.class_hit_counts`, about a second on 2 cores; its CUDA twin
  :func:`kernels.flop.gpu.class_hit_counts` on the "gpu" backend; cached).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import time
from math import comb

from generator.compute.stages.headsup import flop_table_results
from generator.core.cache import array_json, cached_arrays, json_array
from generator.core.evaluator_tables import evaluator_tables
from generator.core.provenance import code_version, meta_block
from generator.data.datafiles import publish
from kernels.cards import CLASS_NAMES, format_cards
from kernels.flop.categories import DRAWS, MADE_CATEGORIES
from kernels.flop.all_flops import RUNOUTS_PER_COMBO, VILLAINS_PER_BOARD, FlopEquityTable
from kernels.flop.flops import N_FLOPS, texture

METHOD = (
    "exact: the heads-up board walk's win and tie counts of every board (134,459 suit-symmetry classes weighted by "
    "size) added to each of the board's ten flops; per suit-distinct flop and class, every live combo, every turn "
    "and river, every villain combo"
)
#: Decimals of the published equities (the exact counts are in the walk's cache).
DECIMALS = 6
#: Kernel modules that count the hits (CPU and GPU give identical counts; both are hashed).
HITS_KERNELS = ("kernels.flop.categories", "kernels.flop.gpu")
HITS_CODE_VERSION = code_version(*HITS_KERNELS)
HITS_METHOD = (
    "exact: one combo of each class (every combo of a class meets the same flops up to suit relabelling) on each of the "
    "19,600 flops of the other 50 cards, each categorised by kernels.flop.core's per-hand functions (docs/flop.md)"
)
FLOPS_PER_COMBO = comb(50, 3)


def flops_json(table: FlopEquityTable, meta: dict) -> dict:
    """The ``flops.json`` object (docs/data-format.md)."""
    textures = [texture(flop) for flop in table.flops.tolist()]
    equity = table.equity()
    return {
        "meta": {**meta, "stage": "flops", "method": METHOD, "flops": N_FLOPS, "suit_distinct_flops": len(table.flops),
                 "runouts_per_combo": RUNOUTS_PER_COMBO, "villains_per_board": VILLAINS_PER_BOARD},
        "classes": list(CLASS_NAMES),
        "flops": [format_cards(flop) for flop in table.flops.tolist()],
        "weights": table.weights.tolist(),
        **{key: [t[key] for t in textures] for key in ("suits", "pairing", "high", "straights")},
        "live": table.live.tolist(),
        "equity": [[None if e != e else e for e in row] for row in np.round(equity, DECIMALS).tolist()],  # NaN → null
    }


def flop_hits_json(backend: str = "cpu") -> dict:
    """The ``flop_hits.json`` object (docs/data-format.md): from the cache when the categoriser is unchanged, else
    counted on ``backend`` ("cpu" or "gpu"), which its meta records."""

    def compute() -> dict:
        if backend == "gpu":
            from kernels.flop.gpu import class_hit_counts
        else:
            from kernels.flop.categories import class_hit_counts
        started = time.perf_counter()
        made, draws = class_hit_counts(evaluator_tables())
        meta = meta_block("flop_hits", HITS_METHOD, HITS_CODE_VERSION, backend, time.perf_counter() - started,
                          flops_per_combo=FLOPS_PER_COMBO)
        return {"made": made, "draws": draws, "meta": json_array(meta)}

    arrays = cached_arrays("flop-hits", HITS_CODE_VERSION, compute)
    return {
        "meta": array_json(arrays["meta"]),
        "classes": list(CLASS_NAMES),
        "made": list(MADE_CATEGORIES),
        "draws": list(DRAWS),
        "flops_per_combo": FLOPS_PER_COMBO,
        "made_counts": arrays["made"].tolist(),
        "draw_counts": arrays["draws"].tolist(),
    }


def run_flops(site_dir: Path, backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> FlopEquityTable:
    """Load (or compute, with the heads-up tables; that walk on Dask workers with ``cluster``) the all-flop table and the
    class hit counts (here: under a second), and publish ``flops.json`` and ``flop_hits.json`` with their forms."""
    table, meta = flop_table_results(backend, progress, cluster)
    publish(Path(site_dir) / "data", "flops", flops_json(table, meta))
    publish(Path(site_dir) / "data", "flop_hits", flop_hits_json(backend))
    return table


def results(run, inputs: dict) -> FlopEquityTable:
    """The registry's accessor (:mod:`generator.compute.registry`): the all-flop table."""
    return flop_table_results(run.backend, run.progress, run.cluster)[0]


def write(run, site_dir: Path, inputs: dict) -> FlopEquityTable:
    return run_flops(site_dir, run.backend, run.progress, run.cluster)
