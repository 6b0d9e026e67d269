"""The ``flops`` stage: each class's exact equity against a random hand on each of the 1,755 suit-distinct flops
→ ``flops.json``, ``flops.csv`` and ``flops.bin`` (docs/data-format.md, definitions in docs/flop.md).

The counts come from the heads-up walk (:func:`generator.build.stages.headsup.flop_table_results`, cached with
the heads-up tables); this stage adds each flop's texture and publishes them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from generator.build.stages.headsup import flop_table_results
from generator.data.datafiles import publish
from kernels.cards import CLASS_NAMES, format_cards
from kernels.flop.all_flops import RUNOUTS_PER_COMBO, VILLAINS_PER_BOARD, FlopEquityTable
from kernels.flop.flops import N_FLOPS, texture

METHOD = (
    "exact: the heads-up board walk's win and tie counts of every board (134,459 suit-symmetry classes weighted by "
    "size) added to each of the board's ten flops; per suit-distinct flop and class, every live combo, every turn "
    "and river, every villain combo"
)
#: Decimals of the published equities (the exact counts are in the walk's cache).
DECIMALS = 6


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
        "equity": [[None if np.isnan(e) else round(float(e), DECIMALS) for e in row] for row in equity],
    }


def run_flops(site_dir: Path, backend: str = "cpu", progress: bool = True) -> FlopEquityTable:
    """Load (or compute, with the heads-up tables) the all-flop table and publish ``flops.json`` and its forms."""
    table, meta = flop_table_results(backend, progress)
    publish(Path(site_dir) / "data", "flops", flops_json(table, meta))
    return table
