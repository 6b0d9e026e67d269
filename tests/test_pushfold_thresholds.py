"""Heads-up thresholds to 0.01 bb: each reported threshold is where independent solves switch."""

import numpy as np
import pytest

import kernels.pushfold.headsup as solver
import kernels.pushfold as pf
from generator.compute.stages.headsup import headsup_results
from generator.compute.stages.pushfold_charts import DECIMALS
from generator.compute.pushfold_records import holdem_equities
from generator.compute.stages.pushfold_thresholds import compute_thresholds
from kernels.cards import CLASS_NAMES
from kernels.headsup.tables import BOARDS_PER_MATCHUP


@pytest.fixture(scope="module")
def game_inputs():
    tables, _ = headsup_results(progress=False)
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    equity = (np.asarray(tables.win) + np.asarray(tables.tie) / 2) / (pairs * BOARDS_PER_MATCHUP)
    return tables, equity, pairs


@pytest.fixture(scope="module")
def short_thresholds(game_inputs):
    return compute_thresholds(game_inputs[0], antes=(0.0, 0.125), top=4.0)


@pytest.mark.slow
def test_thresholds_are_where_independent_solves_switch(game_inputs, short_thresholds):
    tables, equity, pairs = game_inputs
    result = short_thresholds
    assert [e["first_stack"] for e in result["by_ante"]] == [1.0, 1.13]
    for entry in result["by_ante"]:
        assert entry["max_nash_conv"] <= 1e-5
        checked = 0
        for action in ("push", "call"):
            for i, (largest, contiguous) in enumerate(zip(entry[f"{action}_max"], entry[f"{action}_max_contiguous"])):
                if largest is None or largest != contiguous or largest >= 4.0 or checked >= 6:
                    continue
                here, above = (solver.solve(solver.make_game(equity, pairs, s, entry["ante"]), tolerance=1e-8)
                               for s in (largest, round(largest + 0.01, 2)))
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


@pytest.mark.parametrize("stack", [1.5, 1.7, 2.0, 2.5, 3.0, 3.5, 3.9])
def test_the_n_player_solver_at_two_players_agrees_with_the_threshold_table(game_inputs, short_thresholds, stack):
    """``allin pushfold``, the solver page and the 2-player charts solve heads-up with the n-player solver under
    its stopping rule (heads-up: 1,000 times tighter): at every stack of the 0.01 bb grid it plays exactly the
    classes the threshold table says are played there (p ≥ 0.5), with and without the ante, to the table's 0.01 bb
    grid: a class whose threshold is within 0.01 bb of the stack is indifferent there to about 1e-4 bb (85o at 3 bb
    gains 3e-5 bb by shoving) and is not compared."""
    equities = holdem_equities(game_inputs[0])
    compared = 0
    for entry in short_thresholds["by_ante"]:
        if stack < entry["first_stack"]:
            continue
        table = pf.Table((stack, stack), ante=entry["ante"])
        tolerance, class_tolerance = pf.RULE.tolerances(table)
        solution = pf.solve(pf.make_game(table), equities, tolerance=tolerance, class_tolerance=class_tolerance,
                            max_iterations=20_000, decimals=DECIMALS)
        assert solution.nash_conv <= tolerance and solution.max_class_regret <= class_tolerance
        for action, key in (("push", ("open", 0)), ("call", ("call", 1, 0, ()))):
            played = solution.strategy[key] >= 0.5
            for i, (largest, contiguous) in enumerate(zip(entry[f"{action}_max"], entry[f"{action}_max_contiguous"])):
                if contiguous is not None and round(contiguous - stack, 2) >= 0.01:
                    assert played[i], (CLASS_NAMES[i], action, entry["ante"])
                elif largest is None or round(stack - largest, 2) >= 0.02:
                    assert not played[i], (CLASS_NAMES[i], action, entry["ante"])
                else:
                    continue  # a threshold at the stack, or a gap in the class's range between the two numbers
                compared += 1
    assert compared >= 300
