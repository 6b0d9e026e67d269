"""The binary tables the node tests read, committed gzipped: the site's own files, written by the build's
writers from the build's cached tables (so a JS test reads exactly what the browser reads).

* ``evaluator-tables.bin.gz``: ``assets/evaluator-tables.bin`` (generator/site/evaluator_asset.py), 587 KB → 152 KB;
* ``matchups.bin.gz``: ``data/matchups.bin``, the exact 169×169 heads-up class table (generator/data/datafiles.py
  ``matchups_bin``), 257 KB → 191 KB;
* ``threeway-compatible.bin.gz``: the first part of ``data/threeway.bin.gz`` (generator/build/stages/threeway_bin.py,
  ``threeway_bin``): its header and the compatible combo triples of each class triple, exact counts
  (``kernels.threeway.cpu.compatible_combos``, no build needed), which is all the browser's provisional 3-way
  table reads (``provisionalEquities`` of pushfold/model.js); boards and seed are 0, 1.6 MB → 195 KB.

The 3-way class-triple table itself (5.5 MB gzipped, Monte Carlo) is not committed: the push/fold solver's goldens
use the provisional table (kernels/threeway/pairwise.py) built from the two files above.
"""

from __future__ import annotations

import numpy as np

from spec.golden import read_gzip

EVALUATOR_TABLES = "evaluator-tables.bin.gz"
MATCHUPS = "matchups.bin.gz"
THREEWAY_COMPATIBLE = "threeway-compatible.bin.gz"


def build() -> dict[str, bytes]:
    """``{file name in spec/: its uncompressed bytes}`` from the build's tables."""
    from generator.data.datafiles import matchups_bin
    from generator.site.evaluator_asset import evaluator_asset_bytes
    from generator.core.evaluator_tables import evaluator_tables
    from generator.build.stages.headsup import headsup_results
    from kernels.cards import CLASS_NAMES

    headsup, _ = headsup_results(progress=False)
    matchups = {"classes": list(CLASS_NAMES), "win": headsup.win, "tie": headsup.tie, "pairs": headsup.pairs}
    return {EVALUATOR_TABLES: evaluator_asset_bytes(evaluator_tables()), MATCHUPS: matchups_bin(matchups),
            THREEWAY_COMPATIBLE: threeway_compatible_bin()}


def threeway_compatible() -> np.ndarray:
    """``(N_TRIPLES,)`` compatible ordered combo triples of each sorted class triple (exact counting)."""
    from kernels.threeway.core import triple_classes
    from kernels.threeway.cpu import compatible_combos

    return np.asarray(compatible_combos(triple_classes()), dtype=np.int64)


def threeway_compatible_bin() -> bytes:
    """The header and compatible counts of a ``threeway.bin`` (uncompressed), written by the build's writer."""
    import gzip
    from types import SimpleNamespace

    from generator.build.stages.threeway_bin import THREEWAY_HEADER_BYTES, threeway_bin
    from kernels.threeway.core import N_ORDERINGS, N_TRIPLES

    compatible = threeway_compatible()
    table = SimpleNamespace(orderings=np.zeros((N_TRIPLES, N_ORDERINGS)), compatible=compatible, samples=np.ones(N_TRIPLES))
    return gzip.decompress(threeway_bin(table, 0, 0))[: THREEWAY_HEADER_BYTES + 2 * N_TRIPLES]


def read_matchups() -> dict:
    """The committed ``matchups.bin`` as ``{"win", "tie", "loss", "pairs"}`` (169, 169) int64 arrays and ``boards``."""
    data = read_gzip(MATCHUPS)
    assert data[:8] == b"ALLINMUT", "spec/matchups.bin.gz is not a matchups.bin"
    version, n, boards = np.frombuffer(data, dtype="<u4", count=3, offset=8).tolist()
    cells = n * n
    win = np.frombuffer(data, dtype="<u4", count=cells, offset=20).astype(np.int64).reshape(n, n)
    tie = np.frombuffer(data, dtype="<u4", count=cells, offset=20 + 4 * cells).astype(np.int64).reshape(n, n)
    pairs = np.frombuffer(data, dtype="u1", count=cells, offset=20 + 8 * cells).astype(np.int64).reshape(n, n)
    return {"version": version, "boards": boards, "win": win, "tie": tie, "loss": pairs * boards - win - tie, "pairs": pairs}
