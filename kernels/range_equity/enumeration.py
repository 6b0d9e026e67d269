"""Exact enumeration of a spot by the cheaper of two methods, with threads, progress and interruptions:

* ``boards`` (:mod:`.boards`): board completion by board completion, each combo evaluated once per board;
* ``patterns`` (:mod:`.patterns`): deal by deal up to suit symmetry, each deal's completions by rank pattern.

Both give the same weighted counts (exactly, when the weights are dyadic), so either answers any spot; the work
estimates (the browser's are the same) choose.
"""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numba
import numpy as np

from kernels.range_equity.boards import _completions, board_counts, board_work
from kernels.range_equity.deals import EquityResult, NoDealError, deck_without
from kernels.range_equity.patterns import (
    canonical_deals, pass_counts, pattern_tables, pattern_work,
)

#: Enumeration work below which one thread is faster than waking the others.
SERIAL_WORK = 5e6
#: Work units per call of the counting kernels, so that progress and Ctrl-C come a few times a second.
CALL_WORK = 2e7


def enumeration_plan(weights: list[np.ndarray], board, dead) -> tuple[str, float]:
    """The cheaper method and its work estimate: ``("patterns", w)`` when the pattern method's estimate is below the
    board method's, else ``("boards", w)`` (as the browser's ``enumerationMethod``, ``enumerationWork``)."""
    boards, patterns = board_work(weights, board, dead), pattern_work(weights, board, dead)
    return ("patterns", patterns) if patterns < boards else ("boards", boards)


def enumeration_method(weights: list[np.ndarray], board, dead) -> str:
    """The method :func:`enumeration_plan` chooses."""
    return enumeration_plan(weights, board, dead)[0]


def enumeration_work(weights: list[np.ndarray], board, dead) -> float:
    """The work estimate of the method :func:`enumeration_plan` chooses."""
    return enumeration_plan(weights, board, dead)[1]


def _board_method(weights, board, dead, tables, progress, work: float, chunks: int = 256):
    """Weighted (win, ties, total) over the board completions, in calls of about ``CALL_WORK``."""
    completions = _completions(deck_without(board, dead), 5 - len(board))
    board_arr = np.asarray(board, dtype=np.int64)
    n = len(weights)
    win, ties, total = np.zeros(n), np.zeros((n, n - 1)), 0.0
    bounds = np.linspace(0, len(completions), min(chunks, len(completions)) + 1).astype(np.int64)
    calls = int(min(len(bounds) - 1, max(1, work // CALL_WORK)))
    step = -(-(len(bounds) - 1) // calls)
    for first in range(0, len(bounds) - 1, step):
        part = bounds[first : first + step + 1]
        w, t, s = board_counts(weights, board_arr, completions, part, tables)
        win, ties, total = win + w, ties + t, total + s
        if progress is not None:
            progress(int(part[-1]), len(completions))
    return win, ties, total


def _pattern_method(weights, board, dead, tables, progress, work: float):
    """Weighted (win, ties, total): the distinct passes of the deal orbits (rank passes of their signatures, then suit
    passes), each once with the weight of the deals that have it, in calls of about ``CALL_WORK``; ``progress``
    counts passes."""
    deals = canonical_deals(weights, board, dead)
    missing, n = 5 - len(board), len(weights)
    pattern = pattern_tables(board, dead, tables)
    win, ties = np.zeros(n), np.zeros((n, n - 1))
    size = len(deals.pass_weight)
    step = max(1, -(-size // int(max(1, work // CALL_WORK))))
    for lo in range(0, size, step):
        w, t = pass_counts(deals, lo, min(size, lo + step), missing, pattern)
        win, ties = win + w, ties + t
        if progress is not None:
            progress(min(size, lo + step), size)
    held = 2 * n + len(board) + len(dead)
    return win, ties, float(deals.weight.sum()) * comb(52 - held, missing)


def enumerate_equity(weights: list[np.ndarray], board, dead, tables, progress: Callable[[int, int], None] | None = None,
                     method: str | None = None, work: float | None = None) -> EquityResult:
    """Exact weighted equity over every board completion and compatible assignment.

    weights: per player ``(1326,)`` (already :func:`.deals.live_weights`); board/dead: card ids; tables: evaluator
    tables; method: ``"boards"`` or ``"patterns"``, and its work estimate (default: :func:`enumeration_plan`'s).
    """
    if method is None:
        method, work = enumeration_plan(weights, board, dead)
    elif work is None:
        work = (board_work if method == "boards" else pattern_work)(weights, board, dead)
    n = len(weights)
    threads = numba.get_num_threads()
    # waking the other threads costs ~20 ms on a busy machine: small spots run on this one (~0.1 s at most)
    numba.set_num_threads(1 if work <= SERIAL_WORK else threads)
    try:
        count = _board_method if method == "boards" else _pattern_method
        win, ties, total = count(weights, board, dead, tables, progress, work)
    finally:
        numba.set_num_threads(threads)
    if total == 0:
        raise NoDealError("no deal gives every player a hand (the ranges block each other)")
    return EquityResult(
        equity=(win + (ties / np.arange(2, n + 1)).sum(axis=1)) / total, win=win / total, ties=ties / total,
        se_equity=None, exact=True, method="enumeration", boards=comb(52 - len(board) - len(dead), 5 - len(board)),
    )
