"""The certificate on real deals (kernels.pushfold.certificate): its counterfactual values are the exact
heads-up model's within their standard errors, an equilibrium shows no gain, a bad strategy shows one that no
best response exceeds, and the same seed gives the same figures."""

import numpy as np
import pytest

import kernels.pushfold as pf
from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages.headsup import headsup_results
from generator.compute.pushfold_records import holdem_equities
from kernels.evaluator.cpu import evaluate
from kernels.pushfold import certificate as certificate_module
from kernels.pushfold.certificate import CLASS_OF, certify, exploitability_upper_bound
from test_pushfold_table import _outcome_payoff

DEALS = 1 << 17


@pytest.fixture(scope="module")
def heads_up():
    tables, _ = headsup_results(progress=False)
    return holdem_equities(tables), evaluator_tables()


def _bad_strategy(game, equities):
    """An equilibrium moved by +0.3 in every frequency: shoves and calls too much."""
    solution = pf.solve(game, equities, tolerance=1e-3, max_iterations=200)
    return {key: np.clip(p + 0.3, 0, 1) for key, p in solution.strategy.items()}


@pytest.mark.parametrize("table", [pf.Table((10.0, 10.0)), pf.Table((6.0, 14.0), ante=0.25, payouts=(60.0, 40.0)),
                                   pf.Table((6.0, 14.0), ante=0.25, bounties=(3.0, 1.5), bounty_share=0.5)],
                         ids=["chip-ev", "icm-unequal", "chip-ev-pko"])
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


def _acting(n: int, shover: int, callers: tuple) -> list:
    """(seat, information set key, action) of every seat that acts on the way to a terminal: everyone folds to the
    BB (``shover`` −1), or the seats before the shover fold, it shoves, and each later seat calls or folds."""
    if shover < 0:
        return [(seat, ("open", seat), 0) for seat in range(n - 1)]
    acting = [(seat, ("open", seat), int(seat == shover)) for seat in range(shover + 1)]
    for seat in range(shover + 1, n):
        acting.append((seat, ("call", seat, shover, tuple(c for c in callers if c < seat)), int(seat in callers)))
    return acting


@pytest.mark.parametrize("table", [
    pf.Table((9.0, 6.0, 7.5), ante=0.1, bounties=(2.0, 1.0, 3.0), bounty_share=0.5),
    pf.Table((12.0, 5.0, 20.0, 8.0), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(10.0, 5.0, 20.0, 10.0), bounty_share=0.5),
    pf.Table((4.0, 9.0, 6.0, 12.0), ante=1.0, bb_ante=True, bounties=(4.0, 9.0, 6.0, 12.0), bounty_share=1.0),
], ids=["3-handed-chip-ev-pko", "4-handed-icm-pko", "4-handed-chip-ev-ko-bb-ante"])
def test_values_with_bounties_are_the_brute_force_s_on_the_same_deals(table, monkeypatch):
    """The knockout rule on real deals: the certificate's value of each action at each decision, per class, is a brute
    force's on the same deals to 1e-12, each hand settled by kernels.icm.bounty.showdown (its own pot layers, and only the
    winner of the highest layer a busted seat was in takes its bounty: a covering stack) and valued by the model
    (tests/test_pushfold_table.py's _outcome_payoff), every terminal walked, 4-way all-ins included (unequal stacks:
    side pots, uncalled excess)."""
    deals = 384
    monkeypatch.setattr(certificate_module, "BATCH", deals)
    game = pf.make_game(table)
    keys = pf.infoset_keys(game)
    rng = np.random.default_rng(5)
    strategy = {key: 0.1 + 0.8 * rng.random(169) for key in keys}  # every action possible: every terminal is walked
    tables = evaluator_tables()
    found = certify(game, strategy, tables, deals, seed=9)
    holes, board = certificate_module._deal(np.random.Generator(np.random.PCG64(9)), deals, game.n)
    hands = np.concatenate([holes, np.repeat(board[:, None, :], game.n, axis=1)], axis=2).reshape(-1, 7)
    strength = evaluate(hands, tables).reshape(deals, game.n).astype(np.int64)
    classes = CLASS_OF[holes[:, :, 0], holes[:, :, 1]]
    column = {key: i for i, key in enumerate(keys)}
    totals = np.zeros((len(keys), 2, 169))
    walked = set()
    for terminal in game.terminals:
        all_in = terminal.all_in if terminal.shover >= 0 else ()
        acting = _acting(game.n, terminal.shover, terminal.callers)
        walked.add(len(all_in))
        for d in range(deals):
            payoff = _outcome_payoff(table, all_in, {s: int(strength[d, s]) for s in all_in})
            chance = [strategy[key][classes[d, seat]] if action else 1 - strategy[key][classes[d, seat]] for seat, key, action in acting]
            for i, (seat, key, action) in enumerate(acting):
                totals[column[key], action, classes[d, seat]] += np.prod(chance[:i] + chance[i + 1:]) * payoff[seat]
    assert walked >= {0, 2, 3} and (game.n < 4 or 4 in walked)
    assert np.allclose(found.values, totals / deals, rtol=0, atol=1e-12)
    assert np.count_nonzero(found.values) > 100


@pytest.mark.parametrize("mix", [None, 0.0], ids=["codes", "every-code-equal"])
def test_icm_payoffs_of_a_batch_are_each_rows_prize_equity(mix):
    """The certificate's ICM payoffs (_Payoffs) find a batch's distinct results by one code per row; rows sharing a code but
    differing (forced here: every code 0) fall back to sorting the rows; either way each row gets its own prize equity."""
    from kernels.icm.harville import prize_equity
    from kernels.pushfold.certificate import _Payoffs

    game = pf.make_game(pf.Table((10.0, 8.0, 6.0, 4.0), payouts=(50.0, 30.0, 20.0)))
    payoffs = _Payoffs(game)
    if mix is not None:
        payoffs.mix[:] = mix
    rng = np.random.default_rng(5)
    results = np.array([[28.0, 0.0, 0.0, 0.0], [10.0, 8.0, 6.0, 4.0], [20.0, 0.0, 4.0, 4.0], [9.5, 7.5, 7.0, 4.0]])
    final = results[rng.integers(0, len(results), 64)]
    values = payoffs(final)
    expected = np.array([prize_equity(row, (50.0, 30.0, 20.0), places=False).equity for row in final])
    assert np.array_equal(values, expected)
