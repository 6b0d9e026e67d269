"""Golden values of the class table: generator/data/datafiles.py ``matchups_bin`` (the build's exact heads-up counts,
kernels/headsup) ↔ templates/assets/js/engines/matchup-table.js, which reads the file back (spec/matchups.bin.gz).

The class names in the data files' order, the sums of each count over all 169 × 169 cells (integers), and
cells with their counts and equity (win + tie/2) / (pairs · boards): pairs, suited and offsuit against each
other, a class against itself, and a sample of the rest.
"""

from __future__ import annotations

import numpy as np

from kernels.cards import CLASS_NAMES, parse_class

NAME = "matchup-table"
TOLERANCE = 0.0  # counts are integers; each equity is one division, correctly rounded in both languages

PAIRS = (("AA", "KK"), ("AKs", "AKo"), ("AKo", "AKs"), ("72o", "AA"), ("AA", "AA"), ("AKs", "AKs"), ("22", "AKo"),
         ("JTs", "22"), ("32o", "32o"), ("T9s", "T9o"), ("AKo", "QQ"), ("KQs", "AKs"))
SAMPLED = 30


def build() -> dict:
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.headsup.tables import BOARDS_PER_MATCHUP

    headsup, _ = registry.results("headsup", default_run(progress=False))
    win, tie, pairs = (np.asarray(x, dtype=np.int64) for x in (headsup.win, headsup.tie, headsup.pairs))
    loss = pairs * BOARDS_PER_MATCHUP - win - tie
    rng = np.random.default_rng(169)
    cells = [(parse_class(a), parse_class(b)) for a, b in PAIRS]
    cells += [tuple(int(x) for x in rng.integers(0, 169, 2)) for _ in range(SAMPLED)]
    return {
        "about": "The exact class table as the build writes it (matchups.bin): sums over every cell and some cells.",
        "boards": BOARDS_PER_MATCHUP,
        "classes": list(CLASS_NAMES),
        "sums": {"win": int(win.sum()), "tie": int(tie.sum()), "loss": int(loss.sum()), "pairs": int(pairs.sum())},
        "cells": [
            {"hero": CLASS_NAMES[i], "villain": CLASS_NAMES[j], "i": i, "j": j, "win": int(win[i, j]), "tie": int(tie[i, j]),
             "loss": int(loss[i, j]), "pairs": int(pairs[i, j]),
             "equity": float((win[i, j] + tie[i, j] / 2) / (pairs[i, j] * BOARDS_PER_MATCHUP)) if pairs[i, j] else 0.0}
            for i, j in cells
        ],
    }
