"""``threeway.bin.gz``: the 3-way class-triple table of the ``threeway`` stage in the compact binary form the
browser's push/fold solver loads (format in docs/data-format.md), written and read back."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np

from generator.data.datafiles import THREEWAY_BIN_NAME
from generator.build.stages.pushfold_table import THREE_WAY_TIE
from generator.build.stages.threeway import ThreewayTable, ordering_shares
from generator.core.storage import atomic_write_bytes
from kernels.cards import N_CLASSES
from kernels.threeway.core import N_ORDERINGS, N_TRIPLES

THREEWAY_BIN_MAGIC = b"ALLINTWY"
THREEWAY_BIN_VERSION = 2
#: Each row's 13 ordering probabilities are stored as uint8 counts out of this scale (largest remainder).
THREEWAY_SCALE = 255
#: Largest error of a stored probability (a row's quantised counts are within one unit of p · scale).
THREEWAY_QUANT_BOUND = 1 / THREEWAY_SCALE
_THREEWAY_HEADER = np.dtype([("version", "<u4"), ("classes", "<u4"), ("orderings", "<u4"), ("scale", "<u4"),
                             ("boards", "<u4"), ("seed", "<u4")])
#: Bytes before the compatible counts: the magic and the header.
THREEWAY_HEADER_BYTES = len(THREEWAY_BIN_MAGIC) + _THREEWAY_HEADER.itemsize


def quantise_orderings(orderings: np.ndarray, scale: int = THREEWAY_SCALE) -> np.ndarray:
    """``(N, 13)`` uint8: each row of probabilities as integer counts summing exactly to ``scale``
    (largest-remainder rounding: every count is floor or ceil of ``p · scale``, so off by < 1 unit);
    all-zero rows stay zero."""
    scaled = np.asarray(orderings, dtype=np.float64) * scale
    low = np.floor(scaled)
    short = np.where(scaled.sum(axis=1) > 0, scale - low.sum(axis=1), 0).round().astype(np.int64)
    order = np.argsort(-(scaled - low), axis=1, kind="stable")
    rank = np.empty_like(order)
    np.put_along_axis(rank, order, np.arange(scaled.shape[1])[None, :].repeat(len(scaled), axis=0), axis=1)
    return (low + (rank < short[:, None])).astype(np.uint8)


def threeway_bin(table, boards: int, seed: int) -> bytes:
    """``threeway.bin.gz``: the 3-way class-triple table for the browser's push/fold solver (docs/data-format.md),
    gzip-compressed (level 9, no timestamp: the same table gives the same bytes).

    Uncompressed, little-endian: "ALLINTWY", uint32 version (2), classes K (169), orderings (13), scale (255),
    boards, seed; uint16 compatible[T] (compatible ordered combo triples per sorted triple i ≤ j ≤ k, row
    :func:`kernels.threeway.core.triple_index`); then uint8 counts out of ``scale``, one plane of T per ordering
    (counts[o·T + row]): a plane of similar numbers compresses better than rows, and the compatible counts come
    first, so that a reader streaming the file has them after a few hundred kilobytes.
    ``table``: :class:`.threeway.ThreewayTable`; a possible triple without samples is
    stored as a 3-way tie, as :func:`.pushfold_table.holdem_equities` prices it.
    """
    orderings = table.orderings.copy()
    orderings[(table.compatible > 0) & (table.samples == 0), THREE_WAY_TIE] = 1.0
    header = np.array([(THREEWAY_BIN_VERSION, N_CLASSES, orderings.shape[1], THREEWAY_SCALE, boards, seed)], _THREEWAY_HEADER)
    raw = (THREEWAY_BIN_MAGIC + header.tobytes() + np.asarray(table.compatible, dtype="<u2").tobytes()
           + np.ascontiguousarray(quantise_orderings(orderings).T).tobytes())
    return gzip.compress(raw, compresslevel=9, mtime=0)


def read_threeway_bin(data: bytes):
    """The table stored by :func:`threeway_bin` (gzip-compressed or not), as a
    :class:`.threeway.ThreewayTable` with the dequantised probabilities (``se`` and ``samples``
    are not stored: None)."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise ValueError(f"{THREEWAY_BIN_NAME}: damaged ({error})") from None
    if data[: len(THREEWAY_BIN_MAGIC)] != THREEWAY_BIN_MAGIC or len(data) < THREEWAY_HEADER_BYTES:
        raise ValueError(f"{THREEWAY_BIN_NAME}: not a 3-way table")
    header = np.frombuffer(data, _THREEWAY_HEADER, count=1, offset=len(THREEWAY_BIN_MAGIC))[0]
    if header["version"] != THREEWAY_BIN_VERSION or header["classes"] != N_CLASSES or header["orderings"] != N_ORDERINGS:
        raise ValueError(f"{THREEWAY_BIN_NAME}: not a version {THREEWAY_BIN_VERSION} table of {N_CLASSES} classes")
    if len(data) != THREEWAY_HEADER_BYTES + N_TRIPLES * (2 + N_ORDERINGS):
        raise ValueError(f"{THREEWAY_BIN_NAME}: truncated")
    compatible = np.frombuffer(data, "<u2", count=N_TRIPLES, offset=THREEWAY_HEADER_BYTES).astype(np.int64)
    counts = np.frombuffer(data, np.uint8, offset=THREEWAY_HEADER_BYTES + 2 * N_TRIPLES).reshape(N_ORDERINGS, N_TRIPLES).T
    orderings = counts / float(header["scale"])
    return ThreewayTable(orderings, orderings @ ordering_shares(), None, None, compatible)


def publish_threeway(data_dir: Path, table, boards: int, seed: int) -> None:
    """Write ``threeway.bin.gz`` (atomically) for the browser's push/fold solver, and remove the uncompressed
    version 1 ``threeway.bin`` (12 MB) that builds before it wrote, so that it is not deployed with the site."""
    atomic_write_bytes(Path(data_dir) / THREEWAY_BIN_NAME, threeway_bin(table, boards, seed))
    (Path(data_dir) / "threeway.bin").unlink(missing_ok=True)
