"""The ``fourhanded`` stage: exact four-handed equity of every class against three random hands.

Walks the 134,459 suit-symmetry classes of boards, as the heads-up and three-handed stages do, and counts per hero
combo the opponent triples it beats, or ties with one, two or three of them (``kernels.fourhanded``: 3-matchings of
the graph of weaker and tied combos, from its degrees, paths and triangles): every deal of three random opponents
and five board cards, counted exactly. The walk takes about 2 minutes on 2 cores, so it is saved after each slice of
:data:`SLICE_BOARDS` boards (``<cache>/fourhanded-<code version>.partial.npz``, with the number of boards counted) and
resumes there after a stop, whichever backend counts the rest; the whole result is cached in
``<cache>/fourhanded-<code version>.npz``. Writes ``site/data/fourhanded.json`` (+ .csv).

The build counts on the CPU's cores on every machine: the CUDA twin (``kernels.fourhanded.gpu``, ``allin compute
fourhanded --backend gpu``) walks a board's strength groups in order in one warp, which an estimate from its step
count puts slower than a GPU machine's 16 cores; it has not been timed on a GPU.
"""

from __future__ import annotations

import importlib
import time
from math import comb
from pathlib import Path

import click
import numpy as np

from generator.compute.board_walk import board_classes, tally_slice
from generator.compute.units import unit_runner
from generator.core import interrupts
from generator.core.cache import array_json, cache_dir, cached_arrays, is_cached, json_array
from generator.core.progress import progress_bar
from generator.core.provenance import code_version, meta_block
from generator.core.storage import CorruptFileError, load_arrays, save_arrays
from generator.data.datafiles import publish
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES, N_CLASSES

#: Kernel modules that compute the counts (hashed into the cache key).
KERNELS = ("kernels.fourhanded.cpu", "kernels.fourhanded.gpu", "kernels.fourhanded.core", "kernels.headsup.boards",
           "kernels.headsup.core", "kernels.cards")
CODE_VERSION = code_version(*KERNELS)
#: Boards a hero combo meets (C(50, 5)); opponent triples on each (C(45,2)·C(43,2)·C(41,2)/3!); deals per hero combo.
BOARDS_PER_HERO = comb(50, 5)
OPPONENT_TRIPLES = comb(45, 2) * comb(43, 2) * comb(41, 2) // 6
DEALS_PER_HERO = BOARDS_PER_HERO * OPPONENT_TRIPLES
#: Boards counted between checkpoints: about a second on 2 cores; on a GPU, a launch that fills it.
SLICE_BOARDS = {"cpu": 672, "gpu": 16384}
COUNT_KEYS = ("win", "tie_2", "tie_3", "tie_4")
METHOD = (
    "exact count of every deal of three random opponents and five board cards: per board (134,459 suit-symmetry "
    "classes weighted by size) and hero combo, the opponent triples beaten or tied with one, two or three follow from "
    "the 3-matchings of the graph of weaker (and tied) combos on the live cards, counted from its edges, degrees, "
    "3-edge paths and triangles; integer counts"
)


def _partial_path() -> Path:
    return cache_dir() / f"fourhanded-{CODE_VERSION}.partial.npz"


def compute_fourhanded_counts(backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> tuple[np.ndarray, ...]:
    """Walk every board class once (resuming a saved partial walk) on ``backend`` ("cpu" or "gpu"), in this process or
    on Dask workers with ``cluster`` (``local:N``, ``tcp://host:port``): ``(win, tie_2, tie_3, tie_4)`` int64 ``(169,)``.
    Slices come back in order, so the partial walk always holds the first boards, wherever they were counted."""
    walk = importlib.import_module(f"kernels.fourhanded.{backend}")
    boards, weights = board_classes()
    done, totals = 0, np.zeros((4, N_CLASSES), dtype=np.int64)
    path = _partial_path()
    if path.exists():
        try:
            saved = load_arrays(path)
            done, totals = int(saved["boards"]), saved["counts"]
        except CorruptFileError as exc:
            click.echo(f"warning: {exc}; starting the four-handed walk again", err=True)
        except KeyError:  # another layout
            done = -1
        if not 0 <= done <= len(boards) or totals.shape != (4, N_CLASSES):
            click.echo(f"warning: {path} does not fit the board classes; starting the four-handed walk again", err=True)
            done, totals = 0, np.zeros((4, N_CLASSES), dtype=np.int64)
    starts = range(done, len(boards), SLICE_BOARDS[backend])
    units = [(walk.tally_boards, boards[start:start + SLICE_BOARDS[backend]], weights[start:start + SLICE_BOARDS[backend]])
             for start in starts]
    with unit_runner(cluster, KERNELS, gpu=backend == "gpu") as run, progress_bar("four-handed boards", len(boards), "board", enabled=progress) as advance:
        advance(done)
        for index, tallies in run(tally_slice, units, ordered=True):
            stop = min(starts[index] + SLICE_BOARDS[backend], len(boards))
            with interrupts.deferred():  # a slice is added and saved whole, or not at all
                totals = totals + np.array(tallies)
                save_arrays(path, {"boards": np.array(stop), "counts": totals})
            advance(stop)
    return tuple(totals)


def fourhanded_results(backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> dict:
    """The ``fourhanded.json`` object: from the cache when the code is unchanged, else computed on ``backend``
    (≈ 2 minutes on 2 cores; on Dask workers with ``cluster``)."""

    def compute() -> dict:
        started = time.perf_counter()
        counts = compute_fourhanded_counts(backend, progress, cluster)
        meta = meta_block("fourhanded", METHOD, CODE_VERSION, backend, time.perf_counter() - started,
                          boards=BOARDS_PER_HERO, opponent_triples=OPPONENT_TRIPLES)
        return {**dict(zip(COUNT_KEYS, counts)), "meta": json_array(meta)}

    arrays = cached_arrays("fourhanded", CODE_VERSION, compute)
    _partial_path().unlink(missing_ok=True)
    return fourhanded_json(arrays, array_json(arrays["meta"]))


def fourhanded_json(counts: dict, meta: dict) -> dict:
    """The ``fourhanded.json`` object (docs/data-format.md) from the integer counts."""
    total = CLASS_COMBO_COUNT.astype(np.int64) * DEALS_PER_HERO
    win, tie2, tie3, tie4 = (np.asarray(counts[key], dtype=np.int64) for key in COUNT_KEYS)
    equity = (12 * win + 6 * tie2 + 4 * tie3 + 3 * tie4) / (12 * total)
    return {
        "meta": meta,
        "classes": list(CLASS_NAMES),
        "combos": CLASS_COMBO_COUNT.tolist(),
        **{key: value.tolist() for key, value in zip(COUNT_KEYS, (win, tie2, tie3, tie4))},
        "loss": (total - win - tie2 - tie3 - tie4).tolist(),
        "total": total.tolist(),
        "equity": [round(float(e), 12) for e in equity],
    }


def run_fourhanded(site_dir: Path, backend: str = "cpu", progress: bool = True, cluster: str | None = None) -> dict:
    """Compute (or load; on Dask workers with ``cluster``) the counts on ``backend`` and write
    ``site_dir/data/fourhanded.json`` and ``.csv``."""
    result = fourhanded_results(backend, progress, cluster)
    publish(Path(site_dir) / "data", "fourhanded", result)
    return result


def _backend(run) -> str:
    """The CPU's cores unless ``--backend gpu`` was asked for (the module docstring says why)."""
    return "gpu" if run.requested_backend == "gpu" else "cpu"


def results(run, inputs: dict) -> dict:
    """The registry's accessor (:mod:`generator.compute.registry`): the ``fourhanded.json`` object."""
    return fourhanded_results(_backend(run), run.progress, run.cluster)


def write(run, site_dir: Path, inputs: dict) -> dict:
    return run_fourhanded(site_dir, _backend(run), run.progress, run.cluster)


def cached(run) -> bool:
    return is_cached("fourhanded", CODE_VERSION)
