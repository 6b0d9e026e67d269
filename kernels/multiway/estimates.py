"""Sufficient statistics → win / tie / equity estimates with standard errors, per class and player count.

A sample (one seat of a deal) has, at each table size, the probabilities of the events win, 2-way
tie … 10-way tie given its ``(b, t)`` cell (:mod:`kernels.multiway.statistics`); every reported
quantity is a fixed combination of them (``equity = win + Σ tie_k / k``), so its sums, sums of
squares and sums of products with the controls are cell counts times per-cell values. Controls:
``b`` and ``t``, the other hands of the deal beaten / tied heads-up on the board, with exact means
``(seats - 1)·p_win`` and ``(seats - 1)·p_tie`` from the class's heads-up probabilities against one
random hand; and the hand percentile ``q`` with its exact class mean (:mod:`kernels.multiway.percentile`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.multiway import layout as L
from kernels.multiway.control_variates import control_variate_estimate
from kernels.multiway.statistics import EVENTS, PLAYERS, TIE_SIZES, GroupStatistics, event_probabilities

#: Reported targets, in the order of the last axis of the estimates.
TARGETS = ("win", "tie", "equity") + tuple(f"tie_{k}" for k in TIE_SIZES)
N_CONTROLS = 3


class CellEstimates(NamedTuple):
    """Estimates of every target for every class and column, each ``(169, 9, T)``.

    mean, se: with control variates; mean_plain, se_plain: without. cv_gain: per-sample variance
    without / with the controls. gain: variance of the outcome of one n-player game / the per-sample
    variance with controls, i.e. how many independent games one sample is worth (``inf`` where the
    controls are the outcome, at n = 2).
    """

    mean: np.ndarray
    se: np.ndarray
    mean_plain: np.ndarray
    se_plain: np.ndarray
    cv_gain: np.ndarray
    gain: np.ndarray


def _target_weights() -> np.ndarray:
    """Weight of each event (win, tie_2..tie_10) in each target, ``(EVENTS, T)``."""
    weights = np.zeros((EVENTS, len(TARGETS)))
    weights[0, [0, 2]] = 1.0
    weights[1:, 1] = 1.0
    weights[1:, 2] = 1.0 / TIE_SIZES
    weights[1:, 3:] = np.eye(TIE_SIZES.size)
    return weights


_WEIGHTS = _target_weights()
_EVENT_TARGETS = [0] + [TARGETS.index(f"tie_{k}") for k in TIE_SIZES]


def _one_game_variance(mean: np.ndarray) -> np.ndarray:
    """Variance of each target over one game (its events are exclusive), from estimated target means ``(..., T)``."""
    events = np.clip(mean[..., _EVENT_TARGETS], 0.0, 1.0)
    return events @ _WEIGHTS**2 - (events @ _WEIGHTS) ** 2


def estimate_cells(stats: GroupStatistics, p_win: np.ndarray, p_tie: np.ndarray, q_mean: np.ndarray, seats: int) -> CellEstimates:
    """Estimates of every target (``TARGETS``) for every class and column: arrays ``(C, 9, T)``.

    stats: from deals of ``seats`` hands (columns with ``n > seats`` are meaningless); p_win, p_tie:
    exact heads-up probabilities of each class against one random hand, ``(C,)``; q_mean: exact
    mean hand percentile of each class, ``(C,)``.
    """
    columns = PLAYERS.size
    value = event_probabilities(seats) @ _WEIGHTS  # (cells, column, T)
    beaten, tied = L.CELL_BEATEN.astype(np.float64), L.CELL_TIED.astype(np.float64)
    cells, q_cells = stats.cells.astype(np.float64), stats.q_cells.astype(np.float64)  # (G, C, cells)

    def per_column(array):  # (G, C, ...) → (G, C, column, ...)
        return np.broadcast_to(array[:, :, None], array.shape[:2] + (columns,) + array.shape[2:])

    def over_cells(weights):  # Σ_cells count · weight, weights (cells, ...) → (G, C, ...)
        return np.tensordot(cells, weights, axes=(-1, 0))

    sum_b, sum_t, sum_q = over_cells(beaten), over_cells(tied), q_cells.sum(-1)
    sum_qb, sum_qt, sum_bt = q_cells @ beaten, q_cells @ tied, over_cells(beaten * tied)
    sum_c = np.stack([sum_b, sum_t, sum_q], -1)
    sum_cc = np.stack(
        [
            np.stack([over_cells(beaten**2), sum_bt, sum_qb], -1),
            np.stack([sum_bt, over_cells(tied**2), sum_qt], -1),
            np.stack([sum_qb, sum_qt, stats.q_q.astype(np.float64)], -1),
        ],
        -2,
    )
    sum_cy = np.stack(
        [over_cells(beaten[:, None, None] * value), over_cells(tied[:, None, None] * value), np.tensordot(q_cells, value, axes=(-1, 0))],
        -2,
    )  # (G, C, column, 3, T)
    others = seats - 1
    mu = np.stack([others * p_win, others * p_tie, q_mean], -1)  # (C, 3)

    def groups_last(array, tail):
        return np.moveaxis(array, 0, -1 - tail)

    n = groups_last(per_column(stats.samples.astype(np.float64)), 0)  # (C, column, G)
    sum_y, sum_yy = over_cells(value), over_cells(value**2)
    estimate = control_variate_estimate(
        n=n,
        sum_y=groups_last(sum_y, 1),
        sum_yy=groups_last(sum_yy, 1),
        sum_c=groups_last(per_column(sum_c), 1),
        sum_cc=groups_last(per_column(sum_cc), 2),
        sum_cy=groups_last(sum_cy, 2),
        mu=np.broadcast_to(mu[:, None, :], (mu.shape[0], columns, N_CONTROLS)),
    )
    total = np.maximum(n.sum(-1), 1)[..., None]
    plain_variance = np.maximum(sum_yy.sum(0) / total - (sum_y.sum(0) / total) ** 2, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = estimate.gain * _one_game_variance(estimate.mean_plain) / plain_variance
    gain = np.where(np.isnan(gain), 1.0, gain)
    return CellEstimates(estimate.mean, estimate.se, estimate.mean_plain, estimate.se_plain, estimate.gain, gain)
