"""Inputs of the multiway control variates: exact heads-up probabilities and the percentile control."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.headsup.tables import HeadsupTables

from .percentile import percentile_control


class MultiwayControls(NamedTuple):
    """Inputs of the control variates: heads-up probabilities and the percentile control, each per class."""

    p_win: np.ndarray  # (169,) exact P(win) against one random hand
    p_tie: np.ndarray  # (169,) exact P(tie) against one random hand
    percentile: np.ndarray  # (7463,) int32 control value q of each strength
    q_mean: np.ndarray  # (169,) exact mean of q per class


def multiway_controls(headsup: HeadsupTables) -> MultiwayControls:
    """Control-variate inputs from the exact heads-up stage's vs-random counts and the percentile control."""
    total = headsup.vs_random_total.astype(np.float64)
    percentile, q_mean = percentile_control()
    return MultiwayControls(headsup.vs_random_win / total, headsup.vs_random_tie / total, percentile, q_mean)
