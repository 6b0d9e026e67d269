"""The certificate on real deals (kernels.pushfold_table.certificate): its counterfactual values are the exact
heads-up model's within their standard errors, an equilibrium shows no gain, a bad strategy shows one that no
best response exceeds, and the same seed gives the same figures."""

import numpy as np
import pytest

import kernels.pushfold_table as pf
from generator.evaluator_tables import evaluator_tables
from generator.stages.headsup import headsup_results
from generator.stages.pushfold_table import holdem_equities
from kernels.pushfold_table.certificate import certify, exploitability_upper_bound

DEALS = 1 << 17


@pytest.fixture(scope="module")
def heads_up():
    tables, _ = headsup_results(progress=False)
    return holdem_equities(tables), evaluator_tables()


def _bad_strategy(game, equities):
    """An equilibrium moved by +0.3 in every frequency: shoves and calls too much."""
    solution = pf.solve(game, equities, tolerance=1e-3, max_iterations=200)
    return {key: np.clip(p + 0.3, 0, 1) for key, p in solution.strategy.items()}


@pytest.mark.parametrize("table", [pf.Table((10.0, 10.0)), pf.Table((6.0, 14.0), ante=0.25, payouts=(60.0, 40.0))],
                         ids=["chip-ev", "icm-unequal"])
def test_values_on_real_deals_are_the_exact_heads_up_model_s(heads_up, table):
    """Heads-up the model is exact (every board, card removal): the deals' estimate of each action's value at each
    decision, summed over the classes, is the model's within 5 standard errors (and they are not all zero)."""
    equities, tables = heads_up
    game = pf.make_game(table)
    strategy = _bad_strategy(game, equities)
    certificate = certify(game, strategy, tables, DEALS, seed=7)
    model = pf.counterfactual_values(game, equities, strategy)
    for i, key in enumerate(pf.infoset_keys(game)):
        for action in (0, 1):
            expected = float(equities.prior @ model[key][:, action])
            estimate = float(certificate.values[i, action].sum())
            se = float(np.sqrt((certificate.values_se[i, action] ** 2).sum()))
            assert se > 0 and abs(estimate - expected) <= 5 * se, (key, action, estimate, expected, se)


def test_an_equilibrium_shows_no_gain_and_a_bad_strategy_one_no_best_response_exceeds(heads_up):
    equities, tables = heads_up
    game = pf.make_game(pf.Table((10.0, 10.0)))
    tolerance, class_tolerance = pf.RULE.tolerances(game.table)
    equilibrium = pf.solve(game, equities, tolerance=tolerance, class_tolerance=class_tolerance, max_iterations=20_000)
    quiet = certify(game, equilibrium.strategy, tables, DEALS, seed=3)
    assert np.all(np.abs(quiet.gains) <= 5 * quiet.se + 1e-12) and abs(quiet.exploitability) <= 5 * quiet.exploitability_se + 1e-12
    bad = _bad_strategy(game, equities)
    best = pf.best_response(game, equities, bad).gains  # exact: heads-up the model is the game
    found = certify(game, bad, tables, 2 * DEALS, seed=3)
    assert found.deviations > 0 and np.all(found.gains > 5 * found.se)  # both seats' deviations are found
    assert np.all(found.gains <= best + 5 * found.se)  # and none gains more than the exact best response


def test_the_same_seed_gives_the_same_certificate(heads_up):
    equities, tables = heads_up
    game = pf.make_game(pf.Table((8.0, 8.0)))
    strategy = _bad_strategy(game, equities)
    one, two = (certify(game, strategy, tables, 2 * (1 << 15), seed=11) for _ in range(2))
    assert np.array_equal(one.gains, two.gains) and np.array_equal(one.values, two.values)
    other = certify(game, strategy, tables, 2 * (1 << 15), seed=12)
    assert not np.array_equal(one.values, other.values)


@pytest.mark.parametrize("table", [pf.Table((10.0, 10.0)), pf.Table((6.0, 14.0), ante=0.25, payouts=(60.0, 40.0))],
                         ids=["chip-ev", "icm-unequal"])
def test_the_upper_bound_with_exact_values_is_the_best_response(heads_up, table):
    """Each seat acts once per hand, so Σ max(0, (1 − σ)Δ, −σΔ) over decisions and classes is the NashConv: fed the
    model's exact counterfactual values with no margin, the bound is the model's best response to 1e-9."""
    equities, _ = heads_up
    game = pf.make_game(table)
    strategy = _bad_strategy(game, equities)
    model = pf.counterfactual_values(game, equities, strategy)
    keys = pf.infoset_keys(game)
    values = np.stack([(equities.prior[:, None] * model[key]).T for key in keys])  # (S, 2, 169)
    sigma = np.stack([strategy[key] for key in keys])
    bound = exploitability_upper_bound(sigma, values, np.zeros_like(values))
    assert bound == pytest.approx(pf.best_response(game, equities, strategy).gains.sum(), rel=1e-9, abs=1e-12)


def test_the_upper_bound_on_real_deals_is_above_the_exact_best_response(heads_up):
    equities, tables = heads_up
    game = pf.make_game(pf.Table((10.0, 10.0)))
    bad = _bad_strategy(game, equities)
    found = certify(game, bad, tables, DEALS, seed=5)
    assert found.upper >= pf.best_response(game, equities, bad).gains.sum() >= found.exploitability - 5 * found.exploitability_se
