"""What a seat's ``(b, t)`` says about its outcome at every table size, and the tally's statistics.

In a deal of ``seats`` hands, a seat's hand beats ``b`` and ties ``t`` of the ``m = seats - 1``
other hands on the board. At ``n`` players its opponents are ``n - 1`` of those hands, and every
choice of them is an equally likely table of uniformly random opponents. Over the C(m, n - 1)
choices the hero wins outright with probability C(b, n - 1) / C(m, n - 1) and ties ``k``-way with
C(t, k - 1) · C(b, n - k) / C(m, n - 1) (hypergeometric). A sample is these probabilities, not
the 0/1 outcome of one chosen table: the same mean (each table is one of the choices), and never
more variance (it averages the tables; Rao–Blackwell). At ``n = seats`` there is one table.
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numpy as np

from kernels.multiway import layout as L

#: Players at each column, ``(9,)``: 2..10.
PLAYERS = np.arange(2, L.MAX_SEATS + 1)
#: Tie sizes k = 2..10.
TIE_SIZES = np.arange(2, L.MAX_SEATS + 1)
#: Events of one table, in order: outright win, then k-way ties k = 2..10 (a loss is the rest).
EVENTS = 1 + TIE_SIZES.size


class GroupStatistics(NamedTuple):
    """The tally's integer sums per group and class (G groups, 169 classes).

    samples, q_q: ``(G, 169)`` seats and Σ q² (the same at every table size); cells, q_cells,
    first_cells: ``(G, 169, CELLS)`` seats, Σ q and first seats per ``(b, t)`` cell
    (:mod:`kernels.multiway.layout`).
    """

    samples: np.ndarray
    cells: np.ndarray
    q_cells: np.ndarray
    q_q: np.ndarray
    first_cells: np.ndarray


def group_statistics(tally: np.ndarray) -> GroupStatistics:
    """The statistics of a tally ``(G, 169, ROW_ENTRIES)`` (views, no copies of the cells)."""
    cells = tally[..., : L.CELLS]
    return GroupStatistics(
        samples=cells.sum(-1),
        cells=cells,
        q_cells=tally[..., L.Q_BASE : L.Q_BASE + L.CELLS],
        q_q=tally[..., L.QQ_ENTRY],
        first_cells=tally[..., L.FIRST_SEAT_BASE : L.FIRST_SEAT_BASE + L.CELLS],
    )


def event_probabilities(seats: int) -> np.ndarray:
    """``(CELLS, 9, EVENTS)``: P(win), P(k-way tie) for k = 2..10 of a seat in each ``(b, t)`` cell at
    each table size n = 2..10, in deals of ``seats`` hands. Zero where ``n > seats``, ``k > n`` or the
    cell cannot occur (``b + t > seats - 1``).
    """
    others = seats - 1
    table = np.zeros((L.CELLS, PLAYERS.size, EVENTS))
    for cell, (beaten, tied) in enumerate(zip(L.CELL_BEATEN, L.CELL_TIED)):
        if beaten + tied > others:
            continue
        for column, players in enumerate(PLAYERS[PLAYERS <= seats]):
            tables = comb(others, players - 1)
            table[cell, column, 0] = comb(int(beaten), players - 1) / tables
            for k in range(2, players + 1):
                table[cell, column, k - 1] = comb(int(tied), k - 1) * comb(int(beaten), players - k) / tables
    return table
