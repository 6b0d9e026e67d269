"""The percentile control ``q`` of the multiway stage: its table and exact class means, cached."""

from __future__ import annotations

import numpy as np

from generator.core import interrupts
from generator.core.cache import cached_arrays
from generator.core.evaluator_tables import evaluator_tables
from generator.core.provenance import code_version
from kernels.cards import N_CLASSES, class_combos
from kernels.multiway.layout import FULL_DECK
from kernels.multiway.percentile import class_percentile_means, percentile_table

#: Kernel modules that compute the percentile table and its class means (the key of their cache).
KERNELS = ("kernels.multiway.percentile", "kernels.multiway.layout")


def _compute() -> dict[str, np.ndarray]:
    tables = evaluator_tables()
    percentile = percentile_table(tables)
    interrupts.check()
    representatives = np.array([class_combos(c)[0] for c in range(N_CLASSES)])
    q_mean = class_percentile_means(FULL_DECK, percentile, tables, representatives, np.arange(N_CLASSES))
    interrupts.check()
    return {"percentile": percentile, "q_mean": q_mean}


def percentile_control() -> tuple[np.ndarray, np.ndarray]:
    """``(percentile table (7463,), class means of q (169,))``, cached (≈ 10 s to build)."""
    arrays = cached_arrays("percentile", code_version(*KERNELS), _compute)
    return arrays["percentile"], arrays["q_mean"]
