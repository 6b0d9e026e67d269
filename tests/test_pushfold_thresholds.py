"""Heads-up thresholds to 0.01 bb: each reported threshold is where independent solves switch."""

import numpy as np
import pytest

import kernels.pushfold as solver
from generator.stages.headsup import headsup_results
from generator.stages.pushfold_thresholds import compute_thresholds
from kernels.cards import CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP


@pytest.fixture(scope="module")
def game_inputs():
    tables, _ = headsup_results(progress=False)
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win) + np.asarray(tables.tie) / 2) / (pairs * BOARDS_PER_MATCHUP)
    return tables, equity, pairs


def test_thresholds_are_where_independent_solves_switch(game_inputs):
    tables, equity, pairs = game_inputs
    result = compute_thresholds(tables, antes=(0.0, 0.125), top=4.0)
    assert [e["first_stack"] for e in result["by_ante"]] == [1.0, 1.13]
    for entry in result["by_ante"]:
        assert entry["max_nash_conv"] <= 1e-5
        checked = 0
        for action in ("push", "call"):
            for i, (largest, contiguous) in enumerate(zip(entry[f"{action}_max"], entry[f"{action}_max_contiguous"])):
                if largest is None or largest != contiguous or largest >= 4.0 or checked >= 6:
                    continue
                here, above = (solver.solve(solver.make_game(equity, pairs, s, entry["ante"]), tolerance=1e-8)
                               for s in (largest, round(largest + 0.01, 2)))  # fmt: skip
                assert getattr(here, action)[i] >= 0.5 > getattr(above, action)[i], (CLASS_NAMES[i], action, largest)
                checked += 1
        assert checked >= 3
    no_ante, ante = result["by_ante"]
    # an ante widens ranges: nothing is shoved at a smaller stack with the ante than without (where both are in the grid)
    assert sum((a or 0) >= (b or 0) for a, b in zip(ante["push_max"], no_ante["push_max"])) >= 160


def test_the_antes_solved_in_two_processes_give_the_same_thresholds(game_inputs):
    tables, _, _ = game_inputs
    one, two = (compute_thresholds(tables, antes=(0.0, 0.125), top=2.5, workers=w) for w in (1, 2))
    assert one["by_ante"] == two["by_ante"] and [e["ante"] for e in two["by_ante"]] == [0.0, 0.125]
