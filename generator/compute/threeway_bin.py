"""The 3-way class-triple table (:class:`ThreewayTable`, computed by the ``threeway`` stage), and ``threeway.bin.gz``,
the compact binary form of it the browser's push/fold solver loads (format in docs/data-format.md; the encoding in
:mod:`kernels.threeway.compact`), written and read back."""

from __future__ import annotations

import gzip
import zlib
from pathlib import Path
from typing import NamedTuple

import numpy as np

from generator.compute.pushfold_records import THREE_WAY_TIE
from generator.core.storage import atomic_write_bytes
from generator.data.datafiles import THREEWAY_BIN_NAME, read_matchups_bin
from kernels.cards import N_CLASSES
from kernels.threeway import compact
from kernels.threeway.core import N_ORDERINGS, N_TRIPLES, ORDERINGS, triple_classes


class ThreewayTable(NamedTuple):
    """What the solver needs, per triple (N_TRIPLES rows; seats a, b, c hold the sorted classes i ≤ j ≤ k).

    ``orderings``: (N, 13) probabilities of each weak ordering (:data:`kernels.threeway.core.ORDERINGS`);
    ``equity``, ``se``: (N, 3) each seat's showdown equity (win + ties shared equally) and its standard
    error; ``samples``: (N,) accepted samples; ``compatible``: (N,) compatible ordered combo triples
    (0 = card-impossible; those rows are all zero).
    """

    orderings: np.ndarray
    equity: np.ndarray
    se: np.ndarray
    samples: np.ndarray
    compatible: np.ndarray


def ordering_shares() -> np.ndarray:
    """``(13, 3)``: each seat's share of a single pot under each ordering (1/w for the w tied winners)."""
    winners = ORDERINGS == 0
    return winners / winners.sum(axis=1, keepdims=True)


THREEWAY_BIN_MAGIC = b"ALLINTWY"
#: 3: prediction from matchups.bin + corrections + residual (2: every count stored; 1: uncompressed rows).
THREEWAY_BIN_VERSION = 3
THREEWAY_SCALE = compact.SCALE
#: The residual's step in counts: a stored probability is within about THREEWAY_STEP / 255 of the table's
#: (measured: docs/data-format.md); BENCHMARKS.md ("3-way table encoding") has what it does to solved tables.
THREEWAY_STEP = 10
_THREEWAY_HEADER = np.dtype([("version", "<u4"), ("classes", "<u4"), ("orderings", "<u4"), ("scale", "<u4"),
                             ("boards", "<u4"), ("seed", "<u4"), ("step", "<u4"), ("matchups_crc32", "<u4")])
#: Bytes before the compatible counts: the magic and the header.
THREEWAY_HEADER_BYTES = len(THREEWAY_BIN_MAGIC) + _THREEWAY_HEADER.itemsize
_CORRECTION_BYTES = 3 * N_ORDERINGS * compact.N_PAIRS
#: Bytes of the whole table, uncompressed.
THREEWAY_BYTES = THREEWAY_HEADER_BYTES + 2 * N_TRIPLES + _CORRECTION_BYTES + N_ORDERINGS * N_TRIPLES
MATCHUPS_NAME = "matchups.bin"


def _prediction(matchups: bytes, classes: np.ndarray) -> np.ndarray:
    counts = read_matchups_bin(matchups)
    duel = compact.heads_up_duel(counts["win"], counts["tie"], counts["pairs"], counts["boards"])
    return compact.pairwise_counts(duel, classes)


def threeway_bin(table, matchups: bytes, boards: int, seed: int, step: int = THREEWAY_STEP) -> bytes:
    """``threeway.bin.gz``: the 3-way class-triple table for the browser's push/fold solver (docs/data-format.md),
    gzip-compressed (level 9, no timestamp: the same tables give the same bytes).

    Uncompressed, little-endian: "ALLINTWY", uint32 version (3), classes K (169), orderings (13), scale (255),
    boards, seed, step, CRC-32 of ``matchups`` (the matchups.bin the prediction reads); uint16 compatible[T]
    (compatible ordered combo triples per sorted triple, row :func:`kernels.threeway.core.triple_index`); int8
    corrections[3 · 13 · 14,365] (:func:`kernels.threeway.compact.fit_corrections`); int8 residual[13 · T], one plane
    per ordering, rows in :func:`kernels.threeway.compact.row_order`. ``table``: :class:`ThreewayTable`;
    a possible triple without samples is stored as a 3-way tie, as :func:`generator.compute.pushfold_records.holdem_equities` prices it.
    """
    orderings = np.asarray(table.orderings, dtype=np.float64).copy()
    compatible = np.asarray(table.compatible, dtype=np.int64)
    possible = compatible > 0
    if table.samples is not None:
        orderings[possible & (np.asarray(table.samples) == 0)] = 0.0
        orderings[possible & (np.asarray(table.samples) == 0), THREE_WAY_TIE] = 1.0
    classes = triple_classes()
    target = THREEWAY_SCALE * orderings[possible]
    predicted = _prediction(matchups, classes)
    corrections = compact.fit_corrections(target, predicted[possible], classes[possible])
    model = compact.model_counts(predicted[possible], corrections, classes[possible])
    residual = np.zeros((N_TRIPLES, N_ORDERINGS), dtype=np.int8)
    residual[possible] = compact.encode_residual(target, model, step)
    header = np.array([(THREEWAY_BIN_VERSION, N_CLASSES, N_ORDERINGS, THREEWAY_SCALE, boards, seed, step,
                        zlib.crc32(matchups))], _THREEWAY_HEADER)
    raw = (THREEWAY_BIN_MAGIC + header.tobytes() + compatible.astype("<u2").tobytes() + corrections.tobytes()
           + np.ascontiguousarray(residual[compact.row_order(classes)].T).tobytes())
    return gzip.compress(raw, compresslevel=9, mtime=0)


def read_threeway_counts(data: bytes, matchups: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``(compatible (T,), counts (T, 13))`` int64 of the table stored by :func:`threeway_bin` (gzip-compressed or
    not), rebuilt with ``matchups`` (the bytes of the matchups.bin it was written with); card-impossible rows are
    all zero. Raises ValueError, naming the file, on a damaged file, another version or another matchups.bin."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise ValueError(f"{THREEWAY_BIN_NAME}: damaged ({error})") from None
    if data[: len(THREEWAY_BIN_MAGIC)] != THREEWAY_BIN_MAGIC or len(data) < THREEWAY_HEADER_BYTES:
        raise ValueError(f"{THREEWAY_BIN_NAME}: not a 3-way table")
    header = np.frombuffer(data, _THREEWAY_HEADER, count=1, offset=len(THREEWAY_BIN_MAGIC))[0]
    if header["version"] != THREEWAY_BIN_VERSION or header["classes"] != N_CLASSES or header["orderings"] != N_ORDERINGS:
        raise ValueError(f"{THREEWAY_BIN_NAME}: not a version {THREEWAY_BIN_VERSION} table of {N_CLASSES} classes (rebuild the site)")
    if len(data) != THREEWAY_BYTES:
        raise ValueError(f"{THREEWAY_BIN_NAME}: truncated")
    if header["scale"] != THREEWAY_SCALE or header["step"] == 0:
        raise ValueError(f"{THREEWAY_BIN_NAME}: damaged (scale {header['scale']}, step {header['step']})")
    if header["matchups_crc32"] != zlib.crc32(matchups):
        raise ValueError(f"{THREEWAY_BIN_NAME}: written with another {MATCHUPS_NAME} (rebuild the site)")
    at = THREEWAY_HEADER_BYTES
    compatible = np.frombuffer(data, "<u2", count=N_TRIPLES, offset=at).astype(np.int64)
    at += 2 * N_TRIPLES
    corrections = np.frombuffer(data, np.int8, count=_CORRECTION_BYTES, offset=at).reshape(3, N_ORDERINGS, compact.N_PAIRS)
    at += _CORRECTION_BYTES
    classes = triple_classes()
    residual = np.empty((N_TRIPLES, N_ORDERINGS), dtype=np.int64)
    residual[compact.row_order(classes)] = np.frombuffer(data, np.int8, offset=at).reshape(N_ORDERINGS, N_TRIPLES).T
    possible = compatible > 0
    counts = np.zeros((N_TRIPLES, N_ORDERINGS), dtype=np.int64)
    model = compact.model_counts(_prediction(matchups, classes[possible]), corrections, classes[possible])
    try:
        counts[possible] = compact.decode(model, residual[possible], int(header["step"]))
    except ValueError as error:
        raise ValueError(f"{THREEWAY_BIN_NAME}: damaged ({error})") from None
    return compatible, counts


def read_threeway_bin(data: bytes, matchups: bytes):
    """The table stored by :func:`threeway_bin` as a :class:`ThreewayTable` with the stored probabilities
    (counts / 255; ``se`` and ``samples`` are not stored: None); ``matchups``: the bytes of its matchups.bin."""
    compatible, counts = read_threeway_counts(data, matchups)
    orderings = counts / float(THREEWAY_SCALE)
    return ThreewayTable(orderings, orderings @ ordering_shares(), None, None, compatible)


def publish_threeway(data_dir: Path, table, boards: int, seed: int) -> None:
    """Write ``threeway.bin.gz`` (atomically) for the browser's push/fold solver, predicted from the
    ``matchups.bin`` already in ``data_dir``, and remove the uncompressed version 1 ``threeway.bin`` (12 MB) that
    builds before it wrote, so that it is not deployed with the site."""
    matchups = Path(data_dir) / MATCHUPS_NAME
    if not matchups.exists():
        raise FileNotFoundError(f"{matchups}: the heads-up table is written first ({THREEWAY_BIN_NAME} is predicted from it)")
    atomic_write_bytes(Path(data_dir) / THREEWAY_BIN_NAME, threeway_bin(table, matchups.read_bytes(), boards, seed))
    (Path(data_dir) / "threeway.bin").unlink(missing_ok=True)
