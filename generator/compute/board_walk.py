"""Walking every board once, up to suit symmetry: the loop the exact stages (heads-up, three-handed) share.

The 134,459 board classes (``kernels.headsup.boards``) are cut into slices, the units of work: each is handed to
a kernel's ``tally_boards`` in this process or on a Dask worker (``cluster``, :mod:`generator.compute.units`), and
the slices' integer tallies are added up, so the result does not depend on where or in which order the slices
were counted. The progress bar ticks, and a Ctrl-C is honoured, between slices.
"""

from __future__ import annotations

import functools

import numpy as np

import kernels.cards
from generator.compute.units import unit_runner
from generator.core.evaluator_tables import evaluator_tables
from generator.core.progress import progress_bar
from kernels.headsup.boards import board_orbits

#: Slices of a walk in this process; on a cluster at least :data:`SLICES_PER_THREAD` per worker thread.
SLICES = 40
SLICES_PER_THREAD = 4


@functools.cache
def board_classes() -> tuple[np.ndarray, np.ndarray]:
    """``board_orbits()`` (representatives ``(134459, 5)``, sizes), computed once per process."""
    return board_orbits()


def tally_slice(tally_boards, boards: np.ndarray, weights: np.ndarray) -> tuple:
    """One unit, wherever it runs: ``tally_boards`` over ``boards`` ``(M, 5)`` weighted by ``weights`` ``(M,)``,
    with this process's evaluator tables (loaded from its cache, built there once)."""
    return tally_boards(boards, weights, kernels.cards.ALL_COMBOS, kernels.cards.COMBO_CLASS, evaluator_tables())


def walk_board_orbits(tally_boards, description: str, progress: bool = True, cluster: str | None = None,
                      kernels: tuple[str, ...] = (), first: int | None = None, gpu: bool = False) -> tuple:
    """Sum of ``tally_boards(boards, weights, combos, combo_class, tables)`` over every board class, as a tuple of
    the kernel's int64 tallies; on Dask workers with ``cluster`` (``local:N`` or ``tcp://host:port``), each
    checked to run the client's code of ``kernels`` (the stage's kernel modules). ``first``: only the first
    ``first`` board classes (tests); ``gpu``: ``tally_boards`` is a GPU kernel (on a cluster, for the workers that
    declare a GPU)."""
    boards, weights = board_classes()
    count = len(boards) if first is None else min(first, len(boards))
    with unit_runner(cluster, kernels, gpu=gpu) as run:
        bounds = np.unique(np.linspace(0, count, max(SLICES, SLICES_PER_THREAD * run.parallelism) + 1).astype(int))
        units = [(tally_boards, boards[start:stop], weights[start:stop]) for start, stop in zip(bounds[:-1], bounds[1:])]
        totals, done = None, 0
        with progress_bar(description, count, "board", enabled=progress) as advance:
            advance(0)
            for index, tallies in run(tally_slice, units):
                totals = tallies if totals is None else tuple(a + b for a, b in zip(totals, tallies))
                done += len(units[index][1])
                advance(done)
    return totals
