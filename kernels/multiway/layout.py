"""Shape of the multiway tally: the integer counts that the kernels add to and checkpoints store.

``tally[group, class, entry]`` (int64, ``TALLY_SHAPE``). A seat's opponents are the next seats in
order (offset 1, 2, …); at ``n`` players the hero meets the first ``n - 1`` of them (column
``n - 2``). Per seat, ``stronger`` / ``equal`` are bit masks over the opponents (bit ``o - 1`` for
offset ``o``) of the hands that beat / tie the hero's on the board, ``run`` is the number of
leading opponents it strictly beats, and ``q`` is its percentile control
(:mod:`kernels.multiway.percentile`). The controls of a sample are ``b``/``t``, how many of its
``n - 1`` opponents the hero beats/ties heads-up, and ``q``. Entries of a row:

* ``stronger`` (``0 .. MASK_ENTRIES - 1``): one count per seat without any equal opponent (most
  seats); the mask alone gives every outcome and ``b`` of the seat at every ``n``;
* ``Q_MASK_BASE + stronger``: Σ q over the same seats;
* ``slot_index(QQ_SLOT, 0)``: Σ q² over every seat;
* ``slot_index(slot, column)`` over the seats with at least one equal opponent: ``RUN_SLOT`` /
  ``RUN_Q_SLOT`` (count / Σ q by ``run``); ``Q_STRONGER_SLOT`` / ``Q_EQUAL_SLOT`` (Σ q over seats
  whose opponent at offset ``column + 1`` is stronger / equal); ``TIE_SLOT + k - 2`` /
  ``TIE_Q_SLOT + k - 2`` at column ``n - 2``: count / Σ q of ``k``-way ties for the pot at ``n``
  players; ``LOSS_…_SLOT`` at column ``n - 2``: over the samples that *lose* at ``n`` players,
  sums of ``b``, ``t``, ``b²``, ``b·t``, ``t²`` (on wins and ties ``b`` and ``t`` follow from the
  outcome).

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
#: Independent batches for the batch-means standard errors (31 degrees of freedom; the standard
#: errors carry the Student-t factor, see :mod:`kernels.multiway.control_variates`).
GROUPS = 32

MASK_ENTRIES = 1 << (MAX_SEATS - 1)
Q_MASK_BASE = MASK_ENTRIES
SLOT_BASE = 2 * MASK_ENTRIES
TIE_KINDS = MAX_SEATS - 1  # k = 2..MAX_SEATS
RUN_SLOT = 0
RUN_Q_SLOT = 1
TIE_SLOT = 2
TIE_Q_SLOT = TIE_SLOT + TIE_KINDS
LOSS_BEAT_SLOT = TIE_Q_SLOT + TIE_KINDS
LOSS_TIE_SLOT = LOSS_BEAT_SLOT + 1
LOSS_BEAT_BEAT_SLOT = LOSS_BEAT_SLOT + 2
LOSS_BEAT_TIE_SLOT = LOSS_BEAT_SLOT + 3
LOSS_TIE_TIE_SLOT = LOSS_BEAT_SLOT + 4
Q_STRONGER_SLOT = LOSS_BEAT_SLOT + 5
Q_EQUAL_SLOT = LOSS_BEAT_SLOT + 6
QQ_SLOT = LOSS_BEAT_SLOT + 7
N_SLOTS = QQ_SLOT + 1
SLOT_ENTRIES = N_SLOTS * MAX_SEATS
ROW_ENTRIES = SLOT_BASE + SLOT_ENTRIES

TALLY_SHAPE = (GROUPS, N_CLASSES, ROW_ENTRIES)

FULL_DECK = np.arange(N_CARDS, dtype=np.int8)


def slot_index(slot: int, column: int) -> int:
    """Entry of ``(slot, column)`` in a tally row (also compiled into the kernels)."""
    return SLOT_BASE + slot * MAX_SEATS + column


def new_tally() -> np.ndarray:
    """An all-zero tally, ``TALLY_SHAPE`` int64."""
    return np.zeros(TALLY_SHAPE, dtype=np.int64)


def slot_view(tally: np.ndarray) -> np.ndarray:
    """The slot entries of a tally as ``(..., N_SLOTS, MAX_SEATS)`` (a view)."""
    return tally[..., SLOT_BASE:].reshape(tally.shape[:-1] + (N_SLOTS, MAX_SEATS))


def pair_class_table() -> np.ndarray:
    """Class index of every ordered pair of distinct cards, ``(52 * 52,)`` int16 (index ``52 a + b``)."""
    table = np.full(N_CARDS * N_CARDS, -1, dtype=np.int16)
    first, second = ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]
    table[first * N_CARDS + second] = COMBO_CLASS
    table[second * N_CARDS + first] = COMBO_CLASS
    return table
