"""Walking every board once, up to suit symmetry: the loop the exact stages (heads-up, three-handed) share.

The 134,459 board classes (``kernels.headsup.boards``) are handed to a kernel's ``tally_boards`` in
slices, so the progress bar ticks and a Ctrl-C is honoured between slices; the slices' integer
tallies are added up.
"""

from __future__ import annotations

import functools

import numpy as np

import kernels.cards
from generator.core.evaluator_tables import evaluator_tables
from generator.core.progress import progress_bar
from kernels.headsup.boards import board_orbits

SLICES = 40


@functools.cache
def board_classes() -> tuple[np.ndarray, np.ndarray]:
    """``board_orbits()`` (representatives ``(134459, 5)``, sizes), computed once per process."""
    return board_orbits()


def walk_board_orbits(tally_boards, description: str, progress: bool = True) -> tuple:
    """Sum of ``tally_boards(boards, weights, combos, combo_class, tables)`` over every board class,
    as a tuple of the kernel's int64 tallies."""
    tables = evaluator_tables()
    boards, weights = board_classes()
    totals = None
    bounds = np.linspace(0, len(boards), SLICES + 1).astype(int)
    with progress_bar(description, len(boards), "board", enabled=progress) as advance:
        advance(0)
        for start, stop in zip(bounds[:-1], bounds[1:]):
            tallies = tally_boards(
                boards[start:stop], weights[start:stop], kernels.cards.ALL_COMBOS, kernels.cards.COMBO_CLASS, tables
            )
            totals = tallies if totals is None else tuple(a + b for a, b in zip(totals, tallies))
            advance(stop)
    return totals
