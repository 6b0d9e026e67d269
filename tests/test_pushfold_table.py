"""n-player push/fold (kernels.pushfold): heads-up = the heads-up solver, a toy game solved by
hand, 3-handed Nash against brute-force best responses over pure strategies, ICM payoffs = kernels.icm.harville."""

from functools import lru_cache
from itertools import product

import numpy as np
import pytest

import kernels.pushfold.headsup as headsup_solver
import kernels.pushfold as pf
from kernels.pushfold.best_response import _decisions, _folders_reach, _hero_payoff, _reach_given
from kernels.pushfold.model import _Model
from kernels.pushfold.program import _TermProgram
from kernels.icm.bounty import bounty_equity, showdown, showdown_value
from kernels.icm.harville import prize_equity
from kernels.threeway.core import ORDERINGS, triple_index


def _two_class_toy():
    """Class A always beats class B; equal classes tie. Independent classes, prior 1/2 each."""
    duel = np.zeros((2, 2, 3))
    duel[0, 1] = (1, 0, 0)
    duel[1, 0] = (0, 0, 1)
    duel[0, 0] = duel[1, 1] = (0, 1, 0)
    return pf.Equities(np.array([0.5, 0.5]), np.ones((2, 2)), duel, None)


@pytest.mark.slow
def test_toy_game_solved_by_hand():
    """Stack S in (1, 2): the air bluffs with x = S − 1 and bluff-catches with y = 2 − S (indifference)."""
    stack = 1.4
    game = pf.make_game(pf.Table((stack, stack)))
    solution = pf.solve(game, _two_class_toy(), tolerance=1e-6, max_iterations=50_000)
    shove, call = solution.strategy[("open", 0)], solution.strategy[("call", 1, 0, ())]
    assert solution.nash_conv <= 1e-6
    assert shove[0] == pytest.approx(1.0, abs=1e-3) and call[0] == pytest.approx(1.0, abs=1e-3)
    assert shove[1] == pytest.approx(stack - 1, abs=2e-3) and call[1] == pytest.approx(2 - stack, abs=2e-3)


@pytest.fixture(scope="module")
def holdem_duel():
    from generator.compute.stages.headsup import headsup_results
    from kernels.headsup.tables import BOARDS_PER_MATCHUP

    tables, _ = headsup_results(progress=False)
    pairs = np.asarray(tables.pairs, dtype=np.float64)
    total = pairs * BOARDS_PER_MATCHUP
    duel = np.stack([tables.win, tables.tie, tables.loss], axis=2) / total[:, :, None]
    prior = pairs.sum(axis=1) / pairs.sum()
    equity = (np.asarray(tables.win) + np.asarray(tables.tie) / 2) / total
    return pf.Equities(prior, pairs, duel, None), equity, pairs


@pytest.mark.parametrize("stack, ante", [(8.0, 0.0), (15.0, 0.125)])
def test_heads_up_reproduces_the_heads_up_solver(holdem_duel, stack, ante):
    eq, equity, pairs = holdem_duel
    game = pf.make_game(pf.Table((stack, stack), ante=ante))
    solution = pf.solve(game, eq, tolerance=2e-4, max_iterations=20_000)
    shove, call = solution.strategy[("open", 0)], solution.strategy[("call", 1, 0, ())]
    reference_game = headsup_solver.make_game(equity, pairs, stack, ante)
    reference = headsup_solver.solve(reference_game, tolerance=1e-6)
    # each solver's best responses find (almost) nothing to gain against the other's equilibrium
    assert headsup_solver.nash_conv(reference_game, shove, call)[0] <= 3e-4
    ref_strategy = {("open", 0): reference.push, ("call", 1, 0, ()): reference.call}
    assert pf.nash_conv(game, eq, ref_strategy) <= 1e-5
    assert solution.values[0] + ante == pytest.approx(reference.value + ante, abs=1e-3)
    assert np.mean(np.abs(shove - reference.push)) < 0.01 and np.mean(np.abs(call - reference.call)) < 0.01


def _coarse_equities(seed=4, k=3, levels=3):
    """K classes, each a random distribution over hand values 0..levels−1; see :func:`_value_equities`."""
    rng = np.random.default_rng(seed)
    return _value_equities(rng.dirichlet(np.ones(levels), size=k), rng.dirichlet(np.ones(k) * 3))


def _value_equities(values, prior):
    """Classes c with hand value v with probability values[c, v] (higher wins, equal values tie);
    independent classes. Duel and triple tables follow exactly from the value distributions."""
    k, levels = values.shape
    duel = np.zeros((k, k, 3))
    for c, d in product(range(k), repeat=2):
        for u, v in product(range(levels), repeat=2):
            duel[c, d, 0 if u > v else 1 if u == v else 2] += values[c, u] * values[d, v]
    triples = [(i, j, m) for m in range(k) for j in range(m + 1) for i in range(j + 1)]
    orderings = np.zeros((len(triples), 13))
    weights = np.zeros(len(triples))
    code = {tuple(r): o for o, r in enumerate(ORDERINGS)}
    for i, j, m in triples:
        row = triple_index(i, j, m)
        weights[row] = prior[i] * prior[j] * prior[m]
        for u, v, w in product(range(levels), repeat=3):
            ranks = tuple(sum(o > x for o in (u, v, w)) for x in (u, v, w))
            orderings[row, code[ranks]] += values[i, u] * values[j, v] * values[m, w]
    mass = pf.triple_mass(orderings, weights, k, dtype=np.float64)
    return pf.Equities(prior, np.outer(prior, prior), duel, mass), values


def _settle(stacks, antes, blinds, all_in, value_of):
    """Brute-force pot settlement: final chips of every seat when ``all_in`` seats show down hands of ``value_of``."""
    n = len(stacks)
    behind = [stacks[s] - antes[s] for s in range(n)]
    shover = all_in[0]
    bet = {s: min(behind[s], behind[shover]) for s in all_in}
    final = [stacks[s] - antes[s] - (bet[s] if s in bet else blinds[s]) for s in range(n)]
    dead = sum(antes) + sum(blinds[s] for s in range(n) if s not in bet)
    previous = 0.0
    for k, level in enumerate(sorted(set(bet.values()))):
        amount = sum(min(b, level) - min(b, previous) for b in bet.values()) + (dead if k == 0 else 0)
        eligible = [s for s in all_in if bet[s] >= level]
        best = max(value_of[s] for s in eligible)
        winners = [s for s in eligible if value_of[s] == best]
        for s in winners:
            final[s] += amount / len(winners)
        previous = level
    return final


def _brute_value(table, values, prior, strategy, seat):
    """Exact expected payoff of ``seat`` (chip EV or ICM), enumerating every class and hand-value deal."""
    n = len(table.stacks)
    antes, blinds = pf.posted_amounts(table)
    k, levels = values.shape
    total = 0.0
    for classes in product(range(k), repeat=n):
        p_classes = np.prod([prior[c] for c in classes])
        # walk the betting: (probability, shover, callers)
        paths = [(1.0, None, ())]
        for actor in range(n):
            grown = []
            for p, shover, callers in paths:
                if shover is None and actor == n - 1:
                    grown.append((p, None, ()))
                    continue
                key = ("open", actor) if shover is None else ("call", actor, shover, callers)
                aggressive = strategy[key][classes[actor]]
                if shover is None:
                    grown += [(p * aggressive, actor, ()), (p * (1 - aggressive), None, ())]
                else:
                    grown += [(p * aggressive, shover, callers + (actor,)), (p * (1 - aggressive), shover, callers)]
            paths = grown
        for p, shover, callers in paths:
            if p == 0:
                continue
            if shover is None:
                total += p_classes * p * _outcome_payoff(table, (), {})[seat]
                continue
            all_in = (shover, *callers)
            for hand_values in product(range(levels), repeat=len(all_in)):
                q = np.prod([values[classes[s], v] for s, v in zip(all_in, hand_values)])
                total += p_classes * p * q * _outcome_payoff(table, all_in, dict(zip(all_in, hand_values)))[seat]
    return total


def _outcome_payoff(table, all_in, value_of):
    """Brute-force payoffs (n,) when the ``all_in`` seats (shover first) show down hands of ``value_of``, or
    everyone folds to the BB (``all_in`` empty). With bounties the hand is settled by kernels.icm.bounty.showdown
    (its own pot layers and knockouts), without them by :func:`_settle`."""
    n = len(table.stacks)
    antes, blinds = pf.posted_amounts(table)
    if table.bounties is not None:
        behind = np.asarray(table.stacks) - antes
        bets = {s: min(behind[s], behind[all_in[0]]) for s in all_in} if all_in else {}
        committed = tuple(bets.get(s, blinds[s]) for s in range(n))
        strength = tuple(value_of[s] + 1 if s in bets else 0 for s in range(n)) if all_in else (0,) * (n - 1) + (1,)
        return _bounty_payoffs(table, committed, strength)
    if not all_in:
        final = [table.stacks[s] - antes[s] - blinds[s] for s in range(n)]
        final[n - 1] += sum(antes) + sum(blinds)
    else:
        final = _settle(table.stacks, antes, blinds, all_in, value_of)
    if table.payouts is None:
        return np.asarray(final) - np.asarray(table.stacks)
    return _icm(tuple(final), table.payouts)


@lru_cache(maxsize=None)
def _icm(final, payouts):
    return prize_equity(np.array(final), np.array(payouts, dtype=float), places=False).equity


@lru_cache(maxsize=None)
def _bounty_payoffs(table, committed, strength):
    """(n,) payoffs of a hand settled by kernels.icm.bounty.showdown (``committed`` chips, hand ``strength`` per seat,
    0 folded; the antes dead): ICM + bounty value, or chips + bounty cash + change of the bounty share (chip EV)."""
    antes, _ = pf.posted_amounts(table)
    stacks = np.asarray(table.stacks)
    result = showdown(stacks - antes, table.bounties, table.bounty_share, committed, strength, dead=antes.sum())
    if table.payouts is not None:
        return showdown_value(result, table.payouts).total
    before = bounty_equity(stacks, np.asarray(table.bounties))
    return result.stacks - stacks + result.cash + bounty_equity(result.stacks, result.bounties) - before


@pytest.mark.parametrize("table", [
    pf.Table((6.0, 9.0, 7.5), ante=0.1),
    pf.Table((6.0, 9.0, 7.5), ante=0.1, payouts=(50.0, 30.0, 20.0)),
    pf.Table((6.0, 9.0, 7.5), ante=0.1, bounties=(2.0, 1.0, 3.0), bounty_share=0.5),  # bounties in bb
    pf.Table((6.0, 9.0, 7.5), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(10.0, 10.0, 20.0)),
], ids=["chip-ev", "icm", "chip-ev-pko", "icm-ko"])
@pytest.mark.slow
def test_three_handed_nash_against_brute_force_pure_strategy_best_responses(table):
    """With bounties the brute force settles every hand with kernels.icm.bounty.showdown (pots and knockouts)."""
    eq, values = _coarse_equities()
    game = pf.make_game(table)
    solution = pf.solve(game, eq, tolerance=1e-5, max_iterations=20_000)
    keys = pf.infoset_keys(game)
    brute_gains = []
    for seat in range(3):
        own = [key for key in keys if key[1] == seat]
        value = _brute_value(table, values, eq.prior, solution.strategy, seat)
        assert value == pytest.approx(solution.values[seat] + _walk_share(table, eq, solution, seat, values), abs=1e-9)
        best = -np.inf
        for pure in product((0.0, 1.0), repeat=len(own) * eq.prior.size):
            trial = dict(solution.strategy)
            for i, key in enumerate(own):
                trial[key] = np.array(pure[i * eq.prior.size:(i + 1) * eq.prior.size])
            best = max(best, _brute_value(table, values, eq.prior, trial, seat))
        brute_gains.append(best - value)
    assert np.allclose(brute_gains, solution.gains, atol=1e-9)
    assert sum(brute_gains) <= 1e-5
    assert pf.walk_value(game, eq, solution.strategy) == pytest.approx(_walk_share(table, eq, solution, 2, values), abs=1e-12)


def _walk_share(table, eq, solution, seat, values):
    """The BB's payoff when everyone folds (not part of any of its decisions, so not in ``values``)."""
    if seat != len(table.stacks) - 1:
        return 0.0
    folds = np.prod([eq.prior @ (1 - solution.strategy[("open", s)]) for s in range(seat)])
    return folds * _outcome_payoff(table, (), {})[seat]


def test_icm_payoffs_are_the_icm_engine_s():
    table = pf.Table((5.0, 10.0, 15.0, 20.0), ante=0.25, payouts=(50.0, 30.0, 20.0))
    game = pf.make_game(table)
    terminal = next(t for t in game.terminals if t.shover == 0 and t.callers == (3,))
    # UTG (5) shoves, BB (20) calls: main pot 4.75 + 4.75 + antes 1.0 + SB 0.5 = 11.0
    behind = [4.75, 9.75, 14.75, 19.75]
    for outcome, (utg, bb) in enumerate([(11.0, 19.75 - 4.75), (5.5, 19.75 - 4.75 + 5.5), (0.0, 19.75 - 4.75 + 11.0)]):
        final = np.array([utg, behind[1], behind[2] - 0.5, bb])  # the SB (seat 3) folded its blind
        assert np.allclose(terminal.payoff[:, outcome], prize_equity(final, np.array([50.0, 30.0, 20.0])).equity)
    assert np.isclose(terminal.payoff[:, 0].sum(), 100.0)


def test_four_way_pots_use_the_independent_opponent_product():
    """4+ all-in, chip EV: the seat wins each layer with the product of its equities against the eligible
    opponents. Exact when the classes decide (A beats B): BB with A scoops; with B (ties B) it is the
    stated approximation, 0.5³ of each layer, not the true 1/4 of a 4-way split."""
    eq, _ = _value_equities(np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([0.5, 0.5]))  # A has value 1, B value 0
    game = pf.make_game(pf.Table((10.0, 20.0, 30.0, 40.0)))
    b_only = np.array([0.0, 1.0])  # the other players play class B only
    strategy = {key: b_only for key in pf.infoset_keys(game)}
    values = pf.counterfactual_values(game, eq, strategy)[("call", 3, 0, (1, 2))]
    reach = 0.5**3  # UTG shoves, BTN and SB call: each holds B with probability 1/2
    assert values[0, 1] == pytest.approx(reach * (40 - 10))  # A: wins the 40 bb pot, put in 10
    assert values[1, 1] == pytest.approx(reach * (0.5**3 * 40 - 10))
    assert values[0, 0] == pytest.approx(reach * -1.0) and values[1, 0] == pytest.approx(reach * -1.0)  # fold: lose the BB


def test_three_way_error_bound_covers_the_spread_of_values_from_sampled_tables():
    """Replace the exact 3-way orderings by multinomial samples (n per triple), many times: the spread of
    the seats' values stays within the bound, and the bound is not vacuous."""
    eq, values = _coarse_equities(seed=9)
    k, n = 3, 50
    rng = np.random.default_rng(2)
    triples = [(i, j, m) for m in range(k) for j in range(m + 1) for i in range(j + 1)]
    rows = np.array([triple_index(*t) for t in triples])
    exact = np.zeros((len(rows), 13))
    weights = np.zeros(len(rows))
    code = {tuple(r): o for o, r in enumerate(ORDERINGS)}
    for row, (i, j, m) in zip(rows, triples):
        weights[row] = eq.prior[i] * eq.prior[j] * eq.prior[m]
        for u, v, w in product(range(values.shape[1]), repeat=3):
            ranks = tuple(sum(o > x for o in (u, v, w)) for x in (u, v, w))
            exact[row, code[ranks]] += values[i, u] * values[j, v] * values[m, w]
    game = pf.make_game(pf.Table((9.0, 6.0, 7.5)))  # side pots: the seats' payoffs differ
    strategy = {key: np.array([0.9, 0.6, 0.3]) for key in pf.infoset_keys(game)}
    seat_values = []
    for _ in range(300):
        sampled = np.array([rng.multinomial(n, p / p.sum()) / n for p in exact])
        mass = pf.triple_mass(sampled, weights, k, dtype=np.float64)
        seat_values.append(pf.seat_gains(game, eq._replace(triple_mass=mass), strategy)[1])
    spread = np.std(seat_values, axis=0)
    bound = pf.three_way_error_bound(game, eq._replace(triple_samples=np.full((k, k, k), float(n))), strategy)
    assert np.all(spread > 0) and np.all(spread <= 1.05 * bound) and np.all(bound <= 3 * spread)


@pytest.mark.parametrize("table", [pf.Table((9.0, 6.0, 7.5, 8.0)), pf.Table((8.0,) * 5, ante=0.5)],
                         ids=["side-pots", "equal-stacks"])
def test_three_way_error_bound_is_the_sum_over_every_class_triple(table):
    """The bound from per-payoff variance tables over the classes played (packed when the payoff ignores
    which opponent is which) equals Σ_pots,seats √(Σ_c,d,e m · (hero[c] · W · s[d] · t[e])² · Var / n), summed
    directly over all ordered class triples."""
    rng = np.random.default_rng(5)
    k = 5
    eq, _ = _coarse_equities(seed=3, k=k)
    samples = rng.integers(0, 40, size=(k, k, k)).astype(float)
    samples = np.max([samples.transpose(p) for p in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0))], axis=0)
    eq = eq._replace(triple_samples=samples)
    game = pf.make_game(table)
    strategy = {key: np.where(rng.random(k) < 0.3, 0.0, rng.random(k)) for key in pf.infoset_keys(game)}
    mass = eq.triple_mass  # (13, K, K, K)
    weight = mass.sum(axis=0)
    c, d, e = np.indices((k, k, k))
    orientations = np.select([(c == d) & (d == e), (c == d) | (d == e) | (c == e)], [1.0, 3.0], 6.0)
    model = _Model(eq)
    keys = pf.infoset_keys(game)
    column = {key: i for i, key in enumerate(keys)}
    conditional = model.conditional @ np.stack([strategy[key] for key in keys], axis=1)
    expected = np.zeros(game.n)
    for terminal in (t for t in game.terminals if t.shover >= 0 and len(t.all_in) == 3):
        decisions = _decisions(game, terminal)
        reach_given = _reach_given(decisions, conditional, column)
        for seat in terminal.all_in:
            hero = model.prior * strategy[decisions[seat][0]] * _folders_reach(terminal, reach_given, seat, k) / model.triple_norm
            assert decisions[seat][1] == 1  # a seat in the pot shoved or called
            second, third = (strategy[decisions[s][0]] for s in terminal.all_in if s != seat)
            payoff = _hero_payoff(terminal, seat)
            mean = np.einsum("o,ocde->cde", payoff, mass) / np.where(weight > 0, weight, 1)
            variance = np.einsum("o,ocde->cde", payoff**2, mass) / np.where(weight > 0, weight, 1) - mean**2
            coefficient = hero[:, None, None] * weight * second[None, :, None] * third[None, None, :]
            expected[seat] += np.sqrt(np.sum(orientations * coefficient**2 * np.maximum(variance, 0) / np.maximum(samples, 1)))
    assert any(not np.array_equal(p, p[pf.SWAP_OPPONENTS]) for p in (_hero_payoff(t, s) for t in game.terminals
               if t.shover >= 0 and len(t.all_in) == 3 for s in t.all_in)) == (table.stacks[0] == 9.0)
    assert np.all(expected > 0)
    assert np.allclose(pf.three_way_error_bound(game, eq, strategy), expected, rtol=1e-10, atol=0)


def test_three_way_values_from_packed_and_full_tensors_equal_the_direct_sum():
    """A payoff that ignores which opponent is which is contracted from the tensor's upper triangle
    (``contract_packed``), any other from the full tensor; both equal Σ_o,d,e payoff[o]·mass[o,c,d,e]·s[d]·t[e]."""
    rng = np.random.default_rng(8)
    k = 7
    eq, _ = _coarse_equities(seed=2, k=k)
    model = _Model(eq)
    assert model.opponent_symmetric()
    symmetric = rng.normal(size=13)
    symmetric = (symmetric + symmetric[pf.SWAP_OPPONENTS]) / 2
    asymmetric = rng.normal(size=13)
    for payoff, packed in ((symmetric, True), (asymmetric, False)):
        lone = np.zeros(k), np.zeros(k)
        lone[0][0], lone[1][k - 1] = 0.7, 0.4  # one pair weighs: contract_packed gathers it instead of reading rows
        for second, third in ((rng.random(k), rng.random(k)), (np.where(rng.random(k) < 0.4, rng.random(k), 0.0), rng.random(k)), lone):
            direct = np.einsum("o,ocde,d,e->c", payoff, eq.triple_mass, second, third) / model.triple_norm
            assert np.allclose(model.triple_values(payoff, second, third), direct, rtol=1e-12, atol=1e-15)
        assert model.payoff_tensor(payoff)[0] is packed
    diagonal = eq.triple_mass.copy()
    diagonal[1, :, 3, 3] *= 1.5  # two same-class opponents: their own entry, read as it is
    model = _Model(eq._replace(triple_mass=diagonal))
    direct = np.einsum("o,ocde,d,e->c", symmetric, diagonal, second, third) / model.triple_norm
    assert model.opponent_symmetric() and np.allclose(model.triple_values(symmetric, second, third), direct, rtol=1e-12)
    lopsided = eq.triple_mass.copy()
    lopsided[0, 0, 1, 2] *= 1.5  # no longer symmetric in the opponents: nothing is packed
    assert not _Model(eq._replace(triple_mass=lopsided)).opponent_symmetric()


def _reference_dcfr(game, eq, iterations, alpha=pf.DISCOUNT_POSITIVE):
    """Discounted CFR (α = pf.DISCOUNT_POSITIVE, β = −∞, γ = 2) written directly on :func:`pf.counterfactual_values` (the solver
    before its term program): zero regrets at first, alternating seat updates, regrets floored at 0 and
    multiplied by t^α / (t^α + 1) after iteration t (α = ∞: by 1/2 after the first, then kept), iteration t's
    strategies weighted by t²."""
    k = eq.prior.size
    keys = pf.infoset_keys(game)
    regrets = {key: np.zeros((k, 2)) for key in keys}

    def match(r):
        total = r.sum(axis=1)
        return np.where(total > 0, r[:, 1] / np.where(total > 0, total, 1.0), 0.5)

    average = {key: np.zeros(k) for key in keys}
    current = {key: match(r) for key, r in regrets.items()}
    for iteration in range(1, iterations + 1):
        for seat in range(game.n):
            for key, cfv in pf.counterfactual_values(game, eq, current, seats=(seat,)).items():
                p = current[key]
                regrets[key] = np.maximum(regrets[key] + cfv - ((1 - p) * cfv[:, 0] + p * cfv[:, 1])[:, None], 0.0)
                current[key] = match(regrets[key])
        for key in keys:
            factor = (0.5 if iteration == 1 else 1.0) if alpha == np.inf else iteration**alpha / (iteration**alpha + 1)
            regrets[key] = regrets[key] * factor
            average[key] += iteration**2 * current[key]
    return {key: average[key] / sum(t**2 for t in range(1, iterations + 1)) for key in keys}


@pytest.mark.parametrize("table", [
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.2),  # side pots, 4- and 5-way pots
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.1, payouts=(50.0, 30.0, 20.0)),
    pf.Table((8.0,) * 6, ante=1.0, bb_ante=True, payouts=(65.0, 35.0)),
    pf.Table((4.0, 7.0)),
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.2, bounties=(1.0, 2.0, 0.0, 1.5, 3.0), bounty_share=0.5),
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(5.0, 5.0, 10.0, 5.0, 5.0)),
], ids=["chip-ev-side-pots", "icm-side-pots", "icm-6-bb-ante", "heads-up", "chip-ev-pko", "icm-ko"])
def test_solver_iterates_are_the_reference_dcfr_iterates(table):
    """The compiled term program reproduces the discounted CFR iterates computed from counterfactual_values."""
    eq, _ = _coarse_equities(seed=11, k=4)
    game = pf.make_game(table)
    solution = pf.solve(game, eq, tolerance=0.0, max_iterations=7, check_every=100)
    reference = _reference_dcfr(game, eq, 7)
    assert solution.iterations == 7
    for key, strategy in reference.items():
        assert np.allclose(solution.strategy[key], strategy, rtol=0, atol=1e-12), key
    assert any(np.any(np.abs(s - 0.5) > 0.1) for s in reference.values())  # the iterates moved from the start


def test_a_run_that_misses_the_rule_is_followed_by_the_fallback_schedule():
    """With ``fallback_discount``, a run that misses the rule (here: tolerance 0, never met) is followed by one with
    positive regrets kept (α = ∞) from the same start: its iterates are the reference's with α = ∞, the iterations
    both runs'; a run that meets the rule, or one without a fallback, is discounted CFR's alone."""
    eq, _ = _coarse_equities(seed=5, k=4)
    game = pf.make_game(pf.Table((6.0, 9.0, 7.5, 12.0), ante=0.1, payouts=(50.0, 30.0, 20.0)))
    solution = pf.solve(game, eq, tolerance=0.0, max_iterations=7, check_every=100, fallback_discount=pf.FALLBACK_DISCOUNT)
    assert (solution.schedule, solution.iterations) == ("cfr+", 14)
    reference, discounted = _reference_dcfr(game, eq, 7, alpha=np.inf), _reference_dcfr(game, eq, 7)
    for key, strategy in reference.items():
        assert np.allclose(solution.strategy[key], strategy, rtol=0, atol=1e-12), key
    assert max(np.abs(reference[key] - discounted[key]).max() for key in reference) > 0.1  # the schedules differ here
    assert pf.solve(game, eq, tolerance=0.0, max_iterations=7, check_every=100).schedule == "dcfr"
    met = pf.solve(game, eq, tolerance=1.0, max_iterations=7, check_every=5, fallback_discount=pf.FALLBACK_DISCOUNT)
    assert (met.schedule, met.iterations) == ("dcfr", 5)


@pytest.mark.parametrize("table", [pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.2), pf.Table((8.0,) * 6)],
                         ids=["side-pots", "equal-stacks"])
def test_updated_three_way_contractions_equal_recomputed_ones(table, monkeypatch):
    """Updating a 3-way contraction by the opponents' changes, T(s, t) + T(s' − s, t') + T(s, t' − t), gives the
    iterates of recomputing it: forced on every change (UPDATE_COST 0) against never (UPDATE_COST huge)."""
    eq, _ = _coarse_equities(seed=6, k=6)
    game = pf.make_game(table)
    calls = []
    contraction = _Model.triple_contraction
    monkeypatch.setattr(_Model, "triple_contraction", lambda self, *args: calls.append(1) or contraction(self, *args))
    runs = {}
    for cost in (0, 10**9):
        monkeypatch.setattr(_TermProgram, "UPDATE_COST", cost)
        calls.clear()
        runs[cost] = pf.solve(game, eq, tolerance=0.0, max_iterations=12, check_every=4, certify=False), len(calls)
    (updated, update_calls), (recomputed, recompute_calls) = runs[0], runs[10**9]
    assert update_calls > recompute_calls  # the updates ran (two contractions of the changes each)
    assert updated.nash_conv == pytest.approx(recomputed.nash_conv, rel=1e-9)
    for key, strategy in recomputed.strategy.items():
        assert np.allclose(updated.strategy[key], strategy, rtol=0, atol=1e-12), key


@pytest.mark.parametrize("table", [
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.2),
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.1, payouts=(50.0, 30.0, 20.0)),
    pf.Table((8.0,) * 6, ante=1.0, bb_ante=True, payouts=(65.0, 35.0)),
    pf.Table((6.0, 9.0, 7.5, 12.0, 20.0), ante=0.2, bounties=(1.0, 2.0, 0.0, 1.5, 3.0), bounty_share=0.5),
], ids=["chip-ev-side-pots", "icm-side-pots", "icm-6-bb-ante", "chip-ev-pko"])
def test_convergence_checks_equal_the_independent_best_response(table):
    """The solver's checks (best response from its term program) give seat_gains' gains and values:
    ``certify=False`` returns the last check's figures, ``progress`` reports each check."""
    eq, _ = _coarse_equities(seed=3, k=4)
    game = pf.make_game(table)
    reported = []
    solution = pf.solve(game, eq, tolerance=0.0, max_iterations=9, check_every=3, certify=False,
                        progress=lambda i, conv, worst: reported.append((i, conv, worst)))
    assert [i for i, _, _ in reported] == [3, 6, 9]
    gains, values, regret = pf.best_response(game, eq, solution.strategy)
    assert np.allclose(solution.gains, gains, rtol=0, atol=1e-12) and np.allclose(solution.values, values, rtol=0, atol=1e-12)
    assert gains.sum() > 1e-4 and reported[-1][1] == pytest.approx(gains.sum(), abs=1e-12)
    for key, r in regret.items():  # the program's per-class regrets are the independent ones
        assert np.allclose(solution.class_regret[key], r, rtol=1e-9, atol=1e-12), key
    assert reported[-1][2] == pytest.approx(max(r.max() for r in regret.values()), rel=1e-9) and reported[-1][2] > 0
    early = pf.solve(game, eq, tolerance=0.0, max_iterations=3, certify=False)
    assert reported[0][1] == pytest.approx(pf.nash_conv(game, eq, early.strategy), abs=1e-12)
    unchecked = pf.solve(game, eq, tolerance=0.0, max_iterations=9, check_every=100)  # checks leave the iterates alone
    assert all(np.array_equal(unchecked.strategy[key], p) for key, p in solution.strategy.items())


def test_rounded_solve_and_residue_removal_are_certified_by_the_best_response():
    """``solve(decimals=3)`` returns frequencies on the 0.001 grid with their own NashConv; removing the
    residue keeps the largest ε whose NashConv is within the tolerance, and nothing when none is."""
    eq, _ = _coarse_equities(seed=5, k=4)
    game = pf.make_game(pf.Table((6.0, 9.0, 7.5, 12.0), ante=0.1))
    solution = pf.solve(game, eq, tolerance=1e-3, max_iterations=3000, decimals=3)
    frequencies = np.concatenate(list(solution.strategy.values()))
    assert np.array_equal(frequencies, np.round(frequencies, 3))
    assert solution.nash_conv == pytest.approx(pf.nash_conv(game, eq, solution.strategy), abs=1e-15)
    assert solution.nash_conv <= 1e-3
    noisy = {key: np.clip(p + np.where((p > 0) & (p < 1), 0.0, 0.004), 0, 1) for key, p in solution.strategy.items()}
    thresholds = (0.5, 0.2, 0.01)
    convs = [pf.nash_conv(game, eq, {k: np.round(np.where(p < t, 0, np.where(p > 1 - t, 1, p)), 3) for k, p in noisy.items()})
             for t in thresholds]
    tolerance = min(convs) + 1e-12
    cleaned, check, threshold = pf.remove_residue(game, eq, noisy, tolerance, thresholds, 3)
    gains, values = check.gains, check.values
    assert threshold == thresholds[next(i for i, c in enumerate(convs) if c <= tolerance)]
    assert gains.sum() == pytest.approx(pf.nash_conv(game, eq, cleaned), abs=1e-15) and gains.sum() <= tolerance
    assert np.array_equal(values, pf.seat_gains(game, eq, cleaned)[1])
    for key, p in cleaned.items():  # the residue is gone, the mixed frequencies untouched
        mixed = (p > threshold) & (p < 1 - threshold)
        assert np.all((p == 0) | (p >= threshold)) and np.array_equal(p[mixed], noisy[key][mixed])
    same, check, threshold = pf.remove_residue(game, eq, noisy, -1.0, (0.01,), 3)
    assert same is noisy and threshold == 0.0 and check.gains.sum() == pytest.approx(pf.nash_conv(game, eq, noisy))


def _brute_reach(prior, strategy, key):
    """P(the others' actions lead to ``key``) with independent classes: the betting walked by definition."""
    if key[0] == "open":
        steps = [(("open", s), 0) for s in range(key[1])]
    else:
        _, seat, shover, before = key
        steps = [(("open", s), 0) for s in range(shover)] + [(("open", shover), 1)]
        steps += [(("call", s, shover, tuple(b for b in before if b < s)), int(s in before)) for s in range(shover + 1, seat)]
    reach = 1.0
    for step, action in steps:
        aggressive = float(prior @ strategy[step])
        reach *= aggressive if action else 1.0 - aggressive
    return reach


@pytest.mark.parametrize("payouts", [None, (50.0, 30.0, 20.0)], ids=["chip-ev", "icm"])
def test_class_regret_is_the_brute_force_loss_at_each_decision(payouts):
    """Every class's regret at every decision equals the brute-force one: the seat's exact value with the class
    playing each action there, differenced, divided by the class's prior and the reach of the decision
    (or REACH_FLOOR when the decision is rarer)."""
    eq, values = _coarse_equities(seed=2)
    table = pf.Table((6.0, 9.0, 7.5), ante=0.1, payouts=payouts)
    game = pf.make_game(table)
    strategy = pf.solve(game, eq, tolerance=0.0, max_iterations=4).strategy  # far from converged: real regrets
    regret = pf.best_response(game, eq, strategy).class_regret
    for key in pf.infoset_keys(game):
        reach = _brute_reach(eq.prior, strategy, key)
        for c in range(eq.prior.size):
            action_values = []
            for action in (0.0, 1.0):
                trial = dict(strategy)
                trial[key] = strategy[key].copy()
                trial[key][c] = action
                action_values.append(_brute_value(table, values, eq.prior, trial, key[1]))
            fold, shove = action_values
            p = strategy[key][c]
            loss = max(fold, shove) - ((1 - p) * fold + p * shove)
            expected = loss / (eq.prior[c] * max(reach, pf.REACH_FLOOR))
            assert regret[key][c] == pytest.approx(expected, rel=1e-9, abs=1e-12), (key, c)
    assert max(r.max() for r in regret.values()) > 1e-3


def test_the_class_rule_stops_later_than_the_nash_conv_and_holds():
    """A NashConv target alone stops while a class still loses more than the class tolerance at its decision;
    with ``class_tolerance`` the solver goes on until every class is within it, certified independently."""
    eq, _ = _coarse_equities(seed=5, k=4)
    game = pf.make_game(pf.Table((6.0, 9.0, 7.5, 12.0), ante=0.1))
    loose = pf.solve(game, eq, tolerance=2e-3, max_iterations=3000)
    assert loose.nash_conv <= 2e-3 and loose.max_class_regret > 2e-3
    strict = pf.solve(game, eq, tolerance=2e-3, class_tolerance=2e-3, max_iterations=3000)
    check = pf.best_response(game, eq, strict.strategy)
    assert strict.iterations > loose.iterations and strict.iterations < 3000
    assert pf.meets(check, 2e-3, 2e-3) and check.max_class_regret == pytest.approx(strict.max_class_regret, rel=1e-9)
