"""Inputs of the multiway control variates: the exact heads-up probabilities and the percentile control ``q`` (its
table and exact class means, cached). The multiway stage and the benchmarks of the multiway kernels read them here."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from generator.core import interrupts
from generator.core.cache import cached_arrays
from generator.core.evaluator_tables import evaluator_tables
from generator.core.provenance import code_version
from kernels.cards import N_CLASSES, class_combos
from kernels.multiway.layout import FULL_DECK
from kernels.multiway.percentile import class_percentile_means, percentile_table

#: Kernel modules that compute the percentile table and its class means (the key of their cache).
PERCENTILE_KERNELS = ("kernels.multiway.percentile", "kernels.multiway.layout")


class MultiwayControls(NamedTuple):
    """Inputs of the control variates: heads-up probabilities and the percentile control, each per class."""

    p_win: np.ndarray  # (169,) exact P(win) against one random hand
    p_tie: np.ndarray  # (169,) exact P(tie) against one random hand
    percentile: np.ndarray  # (7463,) int32 control value q of each strength
    q_mean: np.ndarray  # (169,) exact mean of q per class


def _compute_percentile() -> dict[str, np.ndarray]:
    tables = evaluator_tables()
    percentile = percentile_table(tables)
    interrupts.check()
    representatives = np.array([class_combos(c)[0] for c in range(N_CLASSES)])
    q_mean = class_percentile_means(FULL_DECK, percentile, tables, representatives, np.arange(N_CLASSES))
    interrupts.check()
    return {"percentile": percentile, "q_mean": q_mean}


def percentile_control() -> tuple[np.ndarray, np.ndarray]:
    """``(percentile table (7463,), class means of q (169,))``, cached (≈ 10 s to build)."""
    arrays = cached_arrays("percentile", code_version(*PERCENTILE_KERNELS), _compute_percentile)
    return arrays["percentile"], arrays["q_mean"]


def multiway_controls(headsup) -> MultiwayControls:
    """Control-variate inputs from the exact heads-up stage's vs-random counts (``headsup``: its
    :class:`kernels.headsup.tables.HeadsupTables`) and the percentile control."""
    total = headsup.vs_random_total.astype(np.float64)
    percentile, q_mean = percentile_control()
    return MultiwayControls(headsup.vs_random_win / total, headsup.vs_random_tie / total, percentile, q_mean)
