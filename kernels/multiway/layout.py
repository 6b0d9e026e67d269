"""Shape of the multiway tally: the integer counts that the kernels add to and checkpoints store.

``tally[group, class, entry]`` (int64, ``TALLY_SHAPE``). Per seat of a deal the kernel counts, over
the other ``seats - 1`` hands, ``b`` = how many the hero's hand beats on the board and ``t`` = how
many it ties; ``q`` is its percentile control (:mod:`kernels.multiway.percentile`). ``(b, t)`` fixes
the seat's expected outcome at every table size (:mod:`kernels.multiway.statistics`), so a row holds:

* cell ``t · (2 · MAX_SEATS + 1 - t) / 2 + b`` (``0 .. CELLS - 1``, one per ``b + t ≤ MAX_SEATS - 1``):
  the number of seats with that ``(b, t)``;
* ``Q_BASE + cell``: Σ q over the same seats;
* ``QQ_ENTRY``: Σ q² over every seat;
* ``FIRST_SEAT_BASE + cell``: the number of *first* seats (seat 0 of a deal) with that ``(b, t)``.
  First seats of different deals are independent and identically distributed (one per deal), which
  the distribution-free intervals of :mod:`kernels.multiway.bounds` need.

Deals come in blocks of ``BLOCK_DEALS``; block ``b`` of every shard adds to group ``b % GROUPS``,
so the groups are independent batches (a deal never spans two) for batch-means standard errors.
"""

import numpy as np

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CARDS, N_CLASSES

MAX_SEATS = 10
BOARD_CARDS = 5
#: Player counts 2..10 (column ``n - 2``).
PLAYER_COUNTS = tuple(range(2, MAX_SEATS + 1))
#: Deals per RNG block (part of the RNG contract: changing it changes every stream).
BLOCK_DEALS = 4096
#: Independent batches for the batch-means standard errors (127 degrees of freedom: each cell's
#: error is itself known to about ±6%; the errors carry the Student-t factor, see
#: :mod:`kernels.multiway.control_variates`).
GROUPS = 128

#: ``(b, t)`` cells of a row, ``b + t ≤ MAX_SEATS - 1`` (``b + t ≤ seats - 1`` in deals of fewer seats).
CELLS = MAX_SEATS * (MAX_SEATS + 1) // 2
Q_BASE = CELLS
QQ_ENTRY = 2 * CELLS
FIRST_SEAT_BASE = QQ_ENTRY + 1
ROW_ENTRIES = FIRST_SEAT_BASE + CELLS

TALLY_SHAPE = (GROUPS, N_CLASSES, ROW_ENTRIES)

FULL_DECK = np.arange(N_CARDS, dtype=np.uint8)


#: ``b`` and ``t`` of every cell, ``(CELLS,)`` int64 each.
CELL_TIED = np.repeat(np.arange(MAX_SEATS), MAX_SEATS - np.arange(MAX_SEATS))
CELL_BEATEN = np.arange(CELLS) - CELL_TIED * (2 * MAX_SEATS + 1 - CELL_TIED) // 2


def new_tally() -> np.ndarray:
    """An all-zero tally, ``TALLY_SHAPE`` int64."""
    return np.zeros(TALLY_SHAPE, dtype=np.int64)


def pair_class_table() -> np.ndarray:
    """Class index of every ordered pair of distinct cards, ``(52 * 52,)`` int16 (index ``52 a + b``)."""
    table = np.full(N_CARDS * N_CARDS, -1, dtype=np.int16)
    first, second = ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]
    table[first * N_CARDS + second] = COMBO_CLASS
    table[second * N_CARDS + first] = COMBO_CLASS
    return table
