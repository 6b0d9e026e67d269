"""The raw tally → per-group sufficient statistics of every (class, player count) cell (NumPy).

Per seat and column (``n = column + 2`` players) a sample has an outcome (win, ``k``-way tie or
loss) and three control values: ``b`` / ``t``, how many of its ``n - 1`` opponents the hero beats
/ ties heads-up on the board, and the hero's hand percentile ``q``. On a win ``b = n - 1, t = 0``;
on a ``k``-way tie ``b = n - k, t = k - 1``; on a loss the tally holds the sums. Tie-free seats are
tallied by their ``stronger`` mask, whose bits give the outcome and ``b`` at every column; for the
other seats, sums with ``q`` come from per-offset sums (``b`` at a column = opponents so far −
stronger − equal).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.multiway import layout as L

COLUMNS = L.MAX_SEATS - 1
#: Players at each column, ``(9,)``: 2..10.
PLAYERS = np.arange(2, L.MAX_SEATS + 1)
#: Tie sizes k = 2..10 (last axis of ``tie_k``).
TIE_SIZES = np.arange(2, L.MAX_SEATS + 1)
_BEAT_ON_TIE = PLAYERS[:, None] - TIE_SIZES[None, :]  # b on a k-way tie, (column, k)
_TIED_ON_TIE = TIE_SIZES[None, :] - 1  # t on a k-way tie


class GroupStatistics(NamedTuple):
    """Integer sufficient statistics per group, class and column (G groups, 169 classes, 9 columns).

    samples, q, q_q: ``(G, 169)`` (the same at every column): sample count, Σ q, Σ q².
    win, q_win: ``(G, 169, 9)`` wins and Σ q over wins; tie_k, q_tie_k: ``(G, 169, 9, 9)`` (last
    axis k = 2..10). Control sums over all samples, each ``(G, 169, 9)``: beat (Σ b), tie (Σ t),
    beat_beat (Σ b²), beat_tie (Σ b·t), tie_tie (Σ t²), q_beat (Σ q·b), q_tie (Σ q·t).
    """

    samples: np.ndarray
    q: np.ndarray
    q_q: np.ndarray
    win: np.ndarray
    q_win: np.ndarray
    tie_k: np.ndarray
    q_tie_k: np.ndarray
    beat: np.ndarray
    tie: np.ndarray
    beat_beat: np.ndarray
    beat_tie: np.ndarray
    tie_tie: np.ndarray
    q_beat: np.ndarray
    q_tie: np.ndarray


def _mask_tables() -> np.ndarray:
    """For every ``stronger`` mask and column: [win indicator, b, b²], ``(512, 3 * 9)``."""
    masks = np.arange(L.MASK_ENTRIES)[:, None]
    seen = (1 << (np.arange(COLUMNS) + 1)) - 1
    stronger_seen = masks & seen
    popcount = sum((stronger_seen >> bit) & 1 for bit in range(COLUMNS))
    beaten = np.arange(1, COLUMNS + 1) - popcount
    return np.concatenate([stronger_seen == 0, beaten, beaten**2], axis=1).astype(np.float64)


_MASK_TABLE = _mask_tables()


def _mask_sums(histogram: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Σ win, Σ b, Σ b² per column over mask-tallied seats, each ``(G, 169, 9)``.

    ``histogram @ table`` in float64 is exact for the non-negative integers below 2⁵³ involved.
    """
    sums = np.rint(histogram.astype(np.float64) @ _MASK_TABLE).astype(np.int64)
    return sums[..., :COLUMNS], sums[..., COLUMNS : 2 * COLUMNS], sums[..., 2 * COLUMNS :]


def _wins_from_runs(runs: np.ndarray) -> np.ndarray:
    """Wins per column from run lengths: a run of ``j`` beaten opponents wins at columns ``< j``."""
    return np.cumsum(runs[..., ::-1], axis=-1)[..., ::-1][..., 1:]


def group_statistics(tally: np.ndarray) -> GroupStatistics:
    """Sufficient statistics from a tally ``(G, 169, ROW_ENTRIES)`` (see :mod:`kernels.multiway.layout`).

    Columns beyond the dealt seats (``n > seats``) are meaningless and must be ignored by callers.
    """
    histogram = tally[..., : L.MASK_ENTRIES]
    q_histogram = tally[..., L.Q_MASK_BASE : L.Q_MASK_BASE + L.MASK_ENTRIES]
    slots = L.slot_view(tally)
    loss = slots[..., :COLUMNS]

    def ties(slot):
        return np.moveaxis(slots[..., slot : slot + L.TIE_KINDS, :COLUMNS], -2, -1)  # (G, C, column, k)

    tie_k, q_tie_k = ties(L.TIE_SLOT), ties(L.TIE_Q_SLOT)
    win_free, beat_free, beat_beat_free = _mask_sums(histogram)
    q_win_free, q_beat_free, _ = _mask_sums(q_histogram)
    win_tied = _wins_from_runs(slots[..., L.RUN_SLOT, :])
    q_tied = slots[..., L.RUN_Q_SLOT, :].sum(-1)
    q_equal_seen = np.cumsum(loss[..., L.Q_EQUAL_SLOT, :], axis=-1)
    q_stronger_seen = np.cumsum(loss[..., L.Q_STRONGER_SLOT, :], axis=-1)
    others = PLAYERS - 1
    return GroupStatistics(
        samples=histogram.sum(-1) + slots[..., L.RUN_SLOT, :].sum(-1),
        q=q_histogram.sum(-1) + q_tied,
        q_q=slots[..., L.QQ_SLOT, 0],
        win=win_free + win_tied,
        q_win=q_win_free + _wins_from_runs(slots[..., L.RUN_Q_SLOT, :]),
        tie_k=tie_k,
        q_tie_k=q_tie_k,
        beat=beat_free + loss[..., L.LOSS_BEAT_SLOT, :] + others * win_tied + (tie_k * _BEAT_ON_TIE).sum(-1),
        tie=loss[..., L.LOSS_TIE_SLOT, :] + (tie_k * _TIED_ON_TIE).sum(-1),
        beat_beat=beat_beat_free + loss[..., L.LOSS_BEAT_BEAT_SLOT, :] + others**2 * win_tied
        + (tie_k * _BEAT_ON_TIE**2).sum(-1),
        beat_tie=loss[..., L.LOSS_BEAT_TIE_SLOT, :] + (tie_k * _BEAT_ON_TIE * _TIED_ON_TIE).sum(-1),
        tie_tie=loss[..., L.LOSS_TIE_TIE_SLOT, :] + (tie_k * _TIED_ON_TIE**2).sum(-1),
        q_beat=q_beat_free + others * q_tied[..., None] - q_stronger_seen - q_equal_seen,
        q_tie=q_equal_seen,
    )
