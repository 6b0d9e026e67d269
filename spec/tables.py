"""The binary tables the node tests read, committed gzipped: the site's own files, written by the build's
writers from the build's cached tables (so a JS test reads exactly what the browser reads).

* ``evaluator-tables.bin.gz``: ``assets/evaluator-tables.bin`` (generator/evaluator_asset.py), 587 KB → 152 KB;
* ``matchups.bin.gz``: ``data/matchups.bin``, the exact 169×169 heads-up class table (generator/datafiles.py
  ``matchups_bin``), 257 KB → 191 KB.

The 3-way class-triple table (5.5 MB gzipped, Monte Carlo) is not committed.
"""

from __future__ import annotations

import numpy as np

from spec.golden import read_gzip

EVALUATOR_TABLES = "evaluator-tables.bin.gz"
MATCHUPS = "matchups.bin.gz"


def build() -> dict[str, bytes]:
    """``{file name in spec/: its uncompressed bytes}`` from the build's tables."""
    from generator.datafiles import matchups_bin
    from generator.evaluator_asset import evaluator_asset_bytes
    from generator.evaluator_tables import evaluator_tables
    from generator.stages.headsup import headsup_results
    from kernels.cards import CLASS_NAMES

    headsup, _ = headsup_results(progress=False)
    matchups = {"classes": list(CLASS_NAMES), "win": headsup.win, "tie": headsup.tie, "pairs": headsup.pairs}
    return {EVALUATOR_TABLES: evaluator_asset_bytes(evaluator_tables()), MATCHUPS: matchups_bin(matchups)}


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
