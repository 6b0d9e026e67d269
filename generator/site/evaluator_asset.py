"""The evaluator's lookup tables as a compact binary file for the browser (``assets/evaluator-tables.bin``).

``templates/assets/js/engines/evaluator.js`` reads the SAME tables as the Python evaluator
(:mod:`kernels.evaluator.tables`, :mod:`kernels.evaluator.core`). JavaScript has no fast 64-bit
integers, so each card's 64-bit key and mask are split into 32-bit words:

* rank key (low 32 bits of ``card_key``; a 7-card sum stays below 2^27, exact in a double),
* suit counters (``card_key >> 32``: four 4-bit counters),
* rank masks of clubs and diamonds (low 32 bits of ``card_mask``) and of hearts and spades (high 32 bits).

Layout, all little-endian::

    header   "ALLINEVT" (8 bytes), then 7 uint32: format version, ROW_SHIFT, suit counters'
             start value (KEY_BASE >> 32), flush bits (FLUSH_BITS >> 32), and the lengths of
             rank_offsets, rank_values and flush_values
    uint32   card rank keys [52], card suit counters [52], card masks low [52], card masks high [52]
    int32    rank_offsets
    uint16   rank_values, flush_values
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from generator.core.evaluator_tables import evaluator_tables
from generator.core.storage import atomic_write_bytes
from kernels.evaluator.core import FLUSH_BITS, KEY_BASE
from kernels.evaluator.tables import ROW_SHIFT, EvaluatorTables

MAGIC = b"ALLINEVT"
FORMAT_VERSION = 1
ASSET_PATH = "assets/evaluator-tables.bin"


def evaluator_asset_bytes(tables: EvaluatorTables) -> bytes:
    """The binary file for ``tables`` (deterministic: same tables, same bytes)."""
    low32 = np.uint64(0xFFFFFFFF)
    header = np.array(
        [
            FORMAT_VERSION,
            ROW_SHIFT,
            int(KEY_BASE) >> 32,
            int(FLUSH_BITS) >> 32,
            len(tables.rank_offsets),
            len(tables.rank_values),
            len(tables.flush_values),
        ],
        dtype="<u4",
    )
    cards = np.concatenate(
        [
            tables.card_key & low32,
            tables.card_key >> np.uint64(32),
            tables.card_mask & low32,
            tables.card_mask >> np.uint64(32),
        ]
    ).astype("<u4")
    parts = (
        header,
        cards,
        tables.rank_offsets.astype("<i4"),
        tables.rank_values.astype("<u2"),
        tables.flush_values.astype("<u2"),
    )
    return MAGIC + b"".join(part.tobytes() for part in parts)


def write_evaluator_asset(path: Path) -> None:
    """Write the tables of :func:`evaluator_tables` to ``path`` unless it already holds the same bytes."""
    path = Path(path)
    data = evaluator_asset_bytes(evaluator_tables())
    if not path.exists() or path.read_bytes() != data:
        atomic_write_bytes(path, data)
