"""The all-flop table: each class's exact equity against one random hand on each of the 1,755 suit-distinct
flops (docs/flop.md), from the heads-up board walk's counts.

The heads-up walk (:mod:`kernels.headsup`) counts, on every five-card board, each class's wins and ties
against a random hand (every live combo of the class, every live villain combo). Those counts belong to
each of the board's ten flops: the combo and the villain share no card with the flop, and the board is
one of the flop's turn-and-river completions. Adding a board's per-class counts to its ten flops' rows —
a board class of the walk stands for ``weight`` boards, whose flops lie in the same suit-distinct flops —
gives, for suit-distinct flop ``F`` (``weight_F`` flops) and class ``c``::

    win[F, c] + tie[F, c] + loss[F, c] = weight_F × live(c, F) × C(47, 2) × C(45, 2)

where ``live(c, F)`` is the number of the class's combos that share no card with a flop of ``F``:
C(47, 2) = 1,081 turns and rivers around a flop and a combo, C(45, 2) = 990 villain combos. Every board
counts once for each of its ten flops, so ``win.sum(axis=0) == 10 × win_vs_random`` of the walk.
"""

from __future__ import annotations

from math import comb
from typing import NamedTuple

import numpy as np
from numba import njit

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CLASSES
from kernels.flop.flops import flop_orbits, flop_position

#: Turn-and-river completions of a flop that avoid a combo, and villain combos on a complete board.
RUNOUTS_PER_COMBO = comb(47, 2)
VILLAINS_PER_BOARD = comb(45, 2)
FLOPS_PER_BOARD = comb(5, 3)


@njit(cache=True)
def add_boards_to_flops(boards, board_win, board_tie, orbit_of_flop, flop_win, flop_tie):
    """Add each board's per-class counts to the rows of its ten flops' suit-distinct flops.

    boards ``(M, 5)`` card ids (any order); board_win, board_tie ``(M, 169)`` int64 (weighted counts of
    the board's class); orbit_of_flop ``(22100,)`` (:func:`kernels.flop.flops.flop_orbits`); flop_win,
    flop_tie ``(1755, 169)`` int64, added to in place.
    """
    cards = np.empty(5, dtype=np.int64)
    for b in range(boards.shape[0]):
        for k in range(5):
            cards[k] = boards[b, k]
        cards.sort()
        for i in range(3):
            for j in range(i + 1, 4):
                for k in range(j + 1, 5):
                    orbit = orbit_of_flop[flop_position(cards[i], cards[j], cards[k])]
                    for c in range(board_win.shape[1]):
                        flop_win[orbit, c] += board_win[b, c]
                        flop_tie[orbit, c] += board_tie[b, c]


def orbit_of_flop() -> np.ndarray:
    """``(22100,)`` int64: the suit-distinct flop of every flop (the walk's lookup)."""
    return flop_orbits()[2]


def live_combos() -> np.ndarray:
    """``(1755, 169)`` int64: combos of each class that share no card with each suit-distinct flop."""
    representatives = flop_orbits()[0].astype(np.int64)
    flop_cards = np.zeros((len(representatives), 52), dtype=bool)
    flop_cards[np.arange(len(representatives))[:, None], representatives] = True
    live = ~(flop_cards[:, ALL_COMBOS[:, 0]] | flop_cards[:, ALL_COMBOS[:, 1]])  # (1755, 1326)
    counts = np.zeros((len(representatives), N_CLASSES), dtype=np.int64)
    for c in range(N_CLASSES):
        counts[:, c] = live[:, COMBO_CLASS == c].sum(axis=1)
    return counts


class FlopEquityTable(NamedTuple):
    """Exact equity of each class against one random hand on each suit-distinct flop; flop first."""

    flops: np.ndarray  # (1755, 3) int8, one representative flop each (kernels.flop.flops)
    weights: np.ndarray  # (1755,) int64, flops each stands for (4, 12 or 24; 22,100 in all)
    live: np.ndarray  # (1755, 169) int64, live combos of the class on the flop
    win: np.ndarray  # (1755, 169) int64, over the weight's flops, live combos, turns and rivers, villains
    tie: np.ndarray  # (1755, 169) int64
    total: np.ndarray  # (1755, 169) int64 = weights × live × 1,081 × 990

    def equity(self) -> np.ndarray:
        """``(1755, 169)`` float: (win + tie / 2) / total; NaN where the class has no live combo (AA on A A A)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.total > 0, (self.win + self.tie / 2) / np.maximum(self.total, 1), np.nan)


def assemble_flop_table(flop_win, flop_tie, win_vs_random, tie_vs_random) -> FlopEquityTable:
    """Check a whole walk's flop tallies against its vs-random tallies (each board counted for ten flops) and
    derive the totals. Raises AssertionError if a count does not add up (a bug, never bad input)."""
    representatives, weights, _ = flop_orbits()
    if not (np.array_equal(flop_win.sum(axis=0), FLOPS_PER_BOARD * win_vs_random)
            and np.array_equal(flop_tie.sum(axis=0), FLOPS_PER_BOARD * tie_vs_random)):
        raise AssertionError("flop tallies do not add up to ten times the walk's vs-random tallies")
    live = live_combos()
    total = weights[:, None] * live * RUNOUTS_PER_COMBO * VILLAINS_PER_BOARD
    if np.any(flop_win + flop_tie > total):
        raise AssertionError("a flop's wins and ties exceed its deals")
    return FlopEquityTable(representatives, weights, live, flop_win, flop_tie, total)
