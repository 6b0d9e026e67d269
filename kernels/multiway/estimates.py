"""Sufficient statistics → win / tie / equity estimates with standard errors, per class and player count.

Each sample's outcome is one of the mutually exclusive events win, 2-way tie … 10-way tie, loss;
every reported quantity is a linear function of those indicators (``equity = win + Σ tie_k / k``),
so its sums, sums of squares and sums of products with the controls follow from the counts.
Controls (see :mod:`kernels.multiway.statistics`): ``b`` and ``t``, the opponents beaten / tied
heads-up on the board, with exact means ``(n-1)·p_win`` and ``(n-1)·p_tie`` from the class's
heads-up probabilities against one random hand; and the hand percentile ``q`` with its exact
class mean (:mod:`kernels.multiway.percentile`).
"""

from __future__ import annotations

import numpy as np

from kernels.multiway.control_variates import ControlVariateEstimate, control_variate_estimate
from kernels.multiway.statistics import PLAYERS, TIE_SIZES, GroupStatistics

#: Reported targets, in the order of the last axis of the estimates.
TARGETS = ("win", "tie", "equity") + tuple(f"tie_{k}" for k in TIE_SIZES)
N_CONTROLS = 3


def _target_weights() -> np.ndarray:
    """Weight of each event (win, tie_2..tie_10) in each target, ``(10, T)``."""
    weights = np.zeros((1 + TIE_SIZES.size, len(TARGETS)))
    weights[0, [0, 2]] = 1.0
    weights[1:, 1] = 1.0
    weights[1:, 2] = 1.0 / TIE_SIZES
    weights[1:, 3:] = np.eye(TIE_SIZES.size)
    return weights


def _event_controls() -> np.ndarray:
    """Values of b and t on each event, ``(9 columns, 2, 10 events)``; zero for impossible k > n."""
    possible = np.concatenate([np.ones((PLAYERS.size, 1)), TIE_SIZES[None, :] <= PLAYERS[:, None]], axis=1)
    beat = np.concatenate([(PLAYERS - 1)[:, None], PLAYERS[:, None] - TIE_SIZES[None, :]], axis=1)
    tied = np.concatenate([np.zeros((PLAYERS.size, 1)), np.broadcast_to(TIE_SIZES - 1, (PLAYERS.size, TIE_SIZES.size))], axis=1)
    return np.stack([beat * possible, tied * possible], axis=1)


_WEIGHTS = _target_weights()
_EVENT_CONTROLS = _event_controls()


def estimate_cells(stats: GroupStatistics, p_win: np.ndarray, p_tie: np.ndarray, q_mean: np.ndarray) -> ControlVariateEstimate:
    """Estimates of every target (``TARGETS``) for every class and column: arrays ``(169, 9, T)``.

    p_win, p_tie: exact heads-up probabilities of each class against one random hand, ``(169,)``;
    q_mean: exact mean hand percentile of each class, ``(169,)``.
    """
    columns = PLAYERS.size

    def per_column(array):
        return np.broadcast_to(array[..., None], array.shape + (columns,))

    events = np.concatenate([stats.win[..., None], stats.tie_k], axis=-1).astype(np.float64)  # (G, C, col, 10)
    q_events = np.concatenate([stats.q_win[..., None], stats.q_tie_k], axis=-1).astype(np.float64)
    q, q_q = per_column(stats.q), per_column(stats.q_q)
    controls = np.stack([stats.beat, stats.tie, q], axis=-1).astype(np.float64)
    products = np.stack(
        [
            np.stack([stats.beat_beat, stats.beat_tie, stats.q_beat], -1),
            np.stack([stats.beat_tie, stats.tie_tie, stats.q_tie], -1),
            np.stack([stats.q_beat, stats.q_tie, q_q], -1),
        ],
        -2,
    ).astype(np.float64)
    event_products = np.concatenate([events[..., None, :] * _EVENT_CONTROLS, q_events[..., None, :]], axis=-2)
    mu = np.stack(
        [np.outer(p_win, PLAYERS - 1), np.outer(p_tie, PLAYERS - 1), np.broadcast_to(q_mean[:, None], (q_mean.size, columns))],
        axis=-1,
    )  # (C, col, 3)

    def groups_last(array, tail):
        return np.moveaxis(array, 0, -1 - tail)

    return control_variate_estimate(
        n=groups_last(per_column(stats.samples), 0),
        sum_y=groups_last(events @ _WEIGHTS, 1),
        sum_yy=groups_last(events @ _WEIGHTS**2, 1),
        sum_c=groups_last(controls, 1),
        sum_cc=groups_last(products, 2),
        sum_cy=groups_last(event_products @ _WEIGHTS, 2),
        mu=mu,
    )
