"""Exact enumeration of a spot: the work estimate, threads, progress and interruptions around the counting
kernels of :mod:`.boards`."""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np

from kernels.range_equity.boards import _completions, board_counts, board_work
from kernels.range_equity.deals import EquityResult, NoDealError, deck_without

#: Enumeration work below which one thread is faster than waking the others.
SERIAL_WORK = 5e6


def enumeration_work(weights: list[np.ndarray], board, dead) -> float:
    """Enumeration cost estimate, as the browser's ``enumerationWork`` (:func:`.boards.board_work`)."""
    return board_work(weights, board, dead)


def enumerate_equity(weights: list[np.ndarray], board, dead, tables, progress: Callable[[int, int], None] | None = None,
                     chunks: int = 256) -> EquityResult:  # fmt: skip
    """Exact weighted equity over every board completion and compatible assignment.

    weights: per player ``(1326,)`` (already :func:`live_weights`); board/dead: card ids; tables: evaluator tables.
    """
    completions = _completions(deck_without(board, dead), 5 - len(board))
    board_arr = np.asarray(board, dtype=np.int64)
    n = len(weights)
    win, ties, total = np.zeros(n), np.zeros((n, n - 1)), 0.0
    bounds = np.linspace(0, len(completions), min(chunks, len(completions)) + 1).astype(np.int64)
    # calls of about 2e7 units of work each (a fraction of a second), so progress and interruptions
    # come often while small spots take one parallel launch (each costs ~ms on a loaded machine)
    work = enumeration_work(weights, board, dead)
    calls = int(min(len(bounds) - 1, max(1, work // 2e7)))
    step = -(-(len(bounds) - 1) // calls)
    threads = numba.get_num_threads()
    # waking the other threads costs ~20 ms on a busy machine: small spots run on this one (~0.1 s at most)
    numba.set_num_threads(1 if work <= SERIAL_WORK else threads)
    try:
        for first in range(0, len(bounds) - 1, step):
            part = bounds[first : first + step + 1]
            w, t, s = board_counts(weights, board_arr, completions, part, tables)
            win, ties, total = win + w, ties + t, total + s
            if progress is not None:
                progress(int(part[-1]), len(completions))
    finally:
        numba.set_num_threads(threads)
    if total == 0:
        raise NoDealError("no deal gives every player a hand (the ranges block each other)")
    return EquityResult(
        equity=(win + (ties / np.arange(2, n + 1)).sum(axis=1)) / total, win=win / total, ties=ties / total,
        se_equity=None, exact=True, method="enumeration", boards=len(completions),
    )  # fmt: skip

