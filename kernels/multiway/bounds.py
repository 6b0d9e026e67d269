"""Distribution-free 95% intervals for the multiway equities: empirical Bernstein on first seats.

The normal-approximation intervals of :mod:`kernels.multiway.control_variates` rest on the central
limit theorem and an estimated variance. These do not: they use only that a sample is bounded.

Each deal's *first* seat is one uniformly random hand, and its equity at ``n`` players (the
average over every choice of its ``n − 1`` opponents among the other 9 hands, a function of its
``(b, t)`` cell: :func:`kernels.multiway.statistics.event_probabilities`) lies in [0, 1]. Given
the class of the first seat, these samples are independent and identically distributed across
deals, with mean the class's equity. For ``m`` such samples with mean ``Ȳ`` and unbiased sample
variance ``V``, Maurer & Pontil's empirical Bernstein bound (2009, Theorem 4), applied to ``Y`` and
to ``1 − Y`` with ``δ/2`` each, gives with probability at least ``1 − δ``::

    |Ȳ − μ| ≤ sqrt(2 V ln(4/δ) / m) + 7 ln(4/δ) / (3 (m − 1))

Assumptions, exactly: the deals are independent and uniformly random (the counter-based generator
is treated as a source of independent uniform draws); nothing about the distribution of a sample
beyond its range [0, 1]; the interval holds for each cell separately (not simultaneously). Only
one seat in ten is used and no control variates, so the interval is wider than the CLT one
(measured in docs/multiway.md).
"""

from __future__ import annotations

import numpy as np

from kernels.multiway import layout as L
from kernels.multiway.statistics import TIE_SIZES, event_probabilities

#: Error probability of each interval (a 95% interval).
DELTA = 0.05


def first_seat_equity() -> np.ndarray:
    """``(CELLS, 9)``: the equity at n = 2..10 players of a seat in each ``(b, t)`` cell of a 10-hand deal."""
    events = event_probabilities(L.MAX_SEATS)  # (CELLS, 9, EVENTS): win, then k-way ties k = 2..10
    return events[..., 0] + (events[..., 1:] / TIE_SIZES).sum(-1)


def empirical_bernstein_interval(first_cells: np.ndarray, values: np.ndarray, delta: float = DELTA):
    """Distribution-free ``1 − delta`` intervals of the mean of ``values`` over first seats.

    first_cells: ``(..., CELLS)`` int counts of first seats per cell; values: ``(CELLS, K)`` in [0, 1].
    Returns ``(low, high)``, each ``(..., K)``, clipped to [0, 1]; NaN where fewer than 2 samples.
    """
    counts = np.asarray(first_cells, dtype=np.float64)
    m = counts.sum(-1)[..., None]
    mean = counts @ values / np.where(m > 0, m, np.nan)
    square_mean = counts @ values**2 / np.where(m > 0, m, np.nan)
    variance = np.maximum(square_mean - mean**2, 0.0) * m / np.where(m > 1, m - 1, np.nan)
    log_term = np.log(4.0 / delta)
    half = np.sqrt(2.0 * variance * log_term / m) + 7.0 * log_term / (3.0 * (m - 1))
    return np.clip(mean - half, 0.0, 1.0), np.clip(mean + half, 0.0, 1.0)
