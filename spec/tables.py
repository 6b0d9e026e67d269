"""The binary tables the node tests read, committed gzipped: the site's own files, written by the build's
writers from the build's cached tables (so a JS test reads exactly what the browser reads).

* ``evaluator-tables.bin.gz``: ``assets/evaluator-tables.bin`` (generator/site/evaluator_asset.py), 587 KB → 152 KB;
* ``matchups.bin.gz``: ``data/matchups.bin``, the exact 169×169 heads-up class table (generator/data/datafiles.py
  ``matchups_bin``), 257 KB → 191 KB;
* ``threeway-compatible.bin.gz``: the first part of ``data/threeway.bin.gz`` (generator/compute/threeway_bin.py,
  ``threeway_bin``): its header (written with ``matchups.bin.gz``) and the compatible combo triples of each class
  triple, exact counts (``kernels.threeway.cpu.compatible_combos``, no build needed), which is all the browser's
  provisional 3-way table reads (``provisionalEquities`` of pushfold/model.js); boards and seed are 0, 1.6 MB → 195 KB;
* ``threeway-synthetic-tail.bin.gz``: the rest of a whole ``threeway.bin.gz`` (corrections and residuals) for the
  synthetic table of :func:`synthetic_threeway`, written after that prefix (same header), for the decoders' golden.

The 3-way class-triple table itself (1.2 MB gzipped, Monte Carlo) is not committed: the push/fold solver's goldens
use the provisional table (kernels/threeway/pairwise.py) built from the files above.
"""

from __future__ import annotations

import numpy as np

from spec.golden import read_gzip

EVALUATOR_TABLES = "evaluator-tables.bin.gz"
MATCHUPS = "matchups.bin.gz"
THREEWAY_COMPATIBLE = "threeway-compatible.bin.gz"
THREEWAY_SYNTHETIC_TAIL = "threeway-synthetic-tail.bin.gz"


def build() -> dict[str, bytes]:
    """``{file name in spec/: its uncompressed bytes}`` from the build's tables."""
    from generator.data.datafiles import matchups_bin
    from generator.site.evaluator_asset import evaluator_asset_bytes
    from generator.core.evaluator_tables import evaluator_tables
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.cards import CLASS_NAMES

    headsup, _ = registry.results("headsup", default_run(progress=False))
    matchups = matchups_bin({"classes": list(CLASS_NAMES), "win": headsup.win, "tie": headsup.tie, "pairs": headsup.pairs})
    synthetic = synthetic_threeway_bin(matchups)
    return {EVALUATOR_TABLES: evaluator_asset_bytes(evaluator_tables()), MATCHUPS: matchups,
            THREEWAY_COMPATIBLE: threeway_prefix(synthetic), THREEWAY_SYNTHETIC_TAIL: synthetic[len(threeway_prefix(synthetic)):]}


def threeway_compatible() -> np.ndarray:
    """``(N_TRIPLES,)`` compatible ordered combo triples of each sorted class triple (exact counting)."""
    from kernels.threeway.core import triple_classes
    from kernels.threeway.cpu import compatible_combos

    return np.asarray(compatible_combos(triple_classes()), dtype=np.int64)


def threeway_prefix(data: bytes) -> bytes:
    """The header and compatible counts of an uncompressed ``threeway.bin.gz``."""
    from generator.compute.threeway_bin import THREEWAY_HEADER_BYTES
    from kernels.threeway.core import N_TRIPLES

    return data[: THREEWAY_HEADER_BYTES + 2 * N_TRIPLES]


def synthetic_threeway(matchups: bytes) -> np.ndarray:
    """``(T, 13)`` probabilities of a synthetic 3-way table, far enough from the pairwise model to need corrections
    and residuals: the pairwise probabilities of ``matchups`` (a matchups.bin) tilted by a term of the seat pair
    (a, b), and every 97th row moved by a term of the whole triple; card-impossible rows zero. Integer patterns,
    no random numbers: the same bytes on every machine."""
    from generator.data.datafiles import read_matchups_bin
    from kernels.threeway.compact import heads_up_duel
    from kernels.threeway.core import triple_classes
    from kernels.threeway.pairwise import pairwise_orderings

    counts = read_matchups_bin(matchups)
    classes = triple_classes()
    probabilities = pairwise_orderings(heads_up_duel(counts["win"], counts["tie"], counts["pairs"], counts["boards"]), classes)
    a, b, c = (classes[:, s, None] for s in range(3))
    orderings = np.arange(probabilities.shape[1])[None, :]
    tilt = 1.0 + 0.06 * (((a + 3 * b + orderings) % 5) - 2) / 2
    tilt += np.where(np.arange(len(classes))[:, None] % 97 == 0, 0.8 * ((a * b + c + 2 * orderings) % 3), 0.0)
    tilted = probabilities * tilt
    tilted /= tilted.sum(axis=1, keepdims=True)
    tilted[threeway_compatible() == 0] = 0.0
    return tilted


def synthetic_threeway_bin(matchups: bytes) -> bytes:
    """The whole ``threeway.bin.gz`` (uncompressed) of :func:`synthetic_threeway`, written by the build's writer with
    ``matchups`` (boards and seed 0)."""
    import gzip
    from types import SimpleNamespace

    from generator.compute.threeway_bin import threeway_bin

    table = SimpleNamespace(orderings=synthetic_threeway(matchups), compatible=threeway_compatible(), samples=None)
    return gzip.decompress(threeway_bin(table, matchups, 0, 0))


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
