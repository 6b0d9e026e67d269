"""Push/fold with bounties (KO / PKO, kernels.icm.bounty's model): terminal payoffs against kernels.icm.bounty.showdown on
every outcome, money conserved, values against the brute force, the 4+-way approximation, zero bounties = none,
the table's messages and docs/pushfold.md's worked example."""

import numpy as np
import pytest

import kernels.pushfold as pf
from kernels.icm.bounty import bounty_equity
from test_pushfold_table import _brute_value, _coarse_equities, _outcome_payoff, _value_equities

ICM_PKO = pf.Table((12.0, 5.0, 20.0, 8.0), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(10.0, 5.0, 20.0, 10.0), bounty_share=0.5)
CHIP_KO = pf.Table((6.0, 9.0, 4.5, 12.0, 20.0), ante=0.2, bounties=(1.0, 2.0, 0.0, 1.5, 3.0))


def _profile(game, seed, k):
    rng = np.random.default_rng(seed)
    return {key: np.where(rng.random(k) < 0.2, 0.0, rng.random(k)) for key in pf.infoset_keys(game)}


@pytest.mark.parametrize("table", [ICM_PKO, CHIP_KO, CHIP_KO._replace(bounty_share=0.25, bb_ante=True, ante=1.0)],
                         ids=["icm-pko", "chip-ev-ko", "chip-ev-pko-bb-ante"])
def test_every_outcome_of_2_and_3_way_pots_is_the_bounty_kernels_showdown(table):
    """Each 2- and 3-way terminal's payoff per showdown outcome (and the walk) = kernels.icm.bounty.showdown of the same hand
    (its own pot layers and knockout rule) valued by the model, to 1e-12."""
    game = pf.make_game(table)
    checked = 0
    for terminal in game.terminals:
        if len(terminal.all_in) > 3:
            continue
        all_in = terminal.all_in if terminal.shover >= 0 else ()
        for o, ranks in enumerate(terminal.outcome_ranks):
            value_of = {s: 3 - r for s, r in zip(all_in, ranks)}  # rank 0 = best = the highest hand value
            assert np.allclose(terminal.payoff[:, o], _outcome_payoff(table, all_in, value_of), rtol=0, atol=1e-12)
            checked += 1
    assert checked > 50


@pytest.mark.parametrize("table", [ICM_PKO, CHIP_KO, CHIP_KO._replace(payouts=(65.0, 35.0), bounty_share=0.5)],
                         ids=["icm-pko", "chip-ev-ko", "icm-pko-5"])
def test_money_is_conserved_on_every_outcome(table):
    """ICM: the values add up to the prize pool plus every bounty on a head; chip EV: the chip changes and the bounty
    parts each add up to 0 (the 4+-way even split included)."""
    game = pf.make_game(table)
    bounties = sum(table.bounties)
    for terminal in game.terminals:
        columns = [2] if len(terminal.all_in) > 3 else range(terminal.payoff.shape[1])
        for o in columns:
            if table.payouts is None:
                assert abs(terminal.payoff[:, o].sum()) <= 1e-12 and abs(terminal.bounty[:, o].sum()) <= 1e-12
            else:
                assert terminal.payoff[:, o].sum() == pytest.approx(sum(table.payouts) + bounties, rel=1e-12, abs=0)


@pytest.mark.parametrize("table", [
    pf.Table((6.0, 9.0, 7.5), ante=0.1, payouts=(50.0, 30.0, 20.0), bounties=(10.0, 10.0, 20.0), bounty_share=0.5),
    pf.Table((6.0, 9.0, 7.5), bounties=(2.0, 1.0, 3.0)),
    ICM_PKO._replace(stacks=(12.0, 9.0, 20.0, 8.0)),
], ids=["3-handed-icm-pko", "3-handed-chip-ev-ko", "4-handed-icm-pko"])
def test_values_of_a_profile_are_the_brute_force_s(table):
    """Each seat's value under a mixed profile = the brute force's (every class and hand-value deal enumerated, each
    hand settled by kernels.icm.bounty.showdown), to 1e-12. 4-handed: the BB never overcalls three players, so no 4-way
    pot (the approximation) is reached."""
    eq, values = _coarse_equities(seed=7)
    game = pf.make_game(table)
    strategy = _profile(game, 3, eq.prior.size)
    if game.n == 4:
        strategy.update({key: np.zeros(eq.prior.size) for key in strategy if key[0] == "call" and len(key[3]) == 2})
    seat_values = pf.seat_gains(game, eq, strategy)[1]
    for seat in range(game.n):
        walk = pf.walk_value(game, eq, strategy) if seat == game.n - 1 else 0.0
        assert seat_values[seat] + walk == pytest.approx(_brute_value(table, values, eq.prior, strategy, seat), abs=1e-12)


def test_zero_bounties_are_no_bounties_bit_for_bit():
    """Bounties of 0 (any share) give exactly the payoffs, iterates and figures of no bounties, 4+-way pots included."""
    eq, _ = _coarse_equities(seed=11, k=4)
    for table in (pf.Table((3.0, 2.5, 4.0, 3.0, 3.5)), pf.Table((6.0, 9.0, 7.5, 12.0), ante=0.1, payouts=(50.0, 30.0, 20.0))):
        plain, zero = pf.make_game(table), pf.make_game(table._replace(bounties=(0.0,) * len(table.stacks), bounty_share=0.5))
        for a, b in zip(plain.terminals, zero.terminals):
            assert np.array_equal(a.payoff, b.payoff)
        solved = [pf.solve(game, eq, tolerance=0.0, max_iterations=8, check_every=4) for game in (plain, zero)]
        for key, p in solved[0].strategy.items():
            assert np.array_equal(p, solved[1].strategy[key]), key
        assert np.array_equal(solved[0].gains, solved[1].gains) and np.array_equal(solved[0].values, solved[1].values)


def test_heads_up_bounties_scale_the_chips_and_change_nothing():
    """Heads-up, whoever wins a knockout holds every chip and (cash and own bounty together) every bounty, and without
    one the bounties stay valued by chips: each payoff is (1 + ΣB / X) × its chip payoff, so the iterates are those
    of no bounties (regret matching does not see a common scale)."""
    eq, _ = _coarse_equities(seed=4, k=4)
    table = pf.Table((6.0, 14.0), ante=0.25)
    plain, ko = pf.make_game(table), pf.make_game(table._replace(bounties=(3.0, 1.0), bounty_share=0.5))
    for a, b in zip(plain.terminals, ko.terminals):
        assert np.allclose(b.payoff, (1 + 4 / 20) * a.payoff, rtol=1e-13, atol=1e-13)
    solved = [pf.solve(game, eq, tolerance=0.0, max_iterations=20) for game in (plain, ko)]
    for key, p in solved[0].strategy.items():
        assert np.allclose(p, solved[1].strategy[key], rtol=0, atol=1e-12), key


def test_four_way_pots_price_chips_by_layer_and_bounties_scoop_or_nothing():
    """4+ all-in, chip EV with bounties: the chips as without bounties (the independent-opponent product per layer),
    the bounty part as ICM prices a 4+-way pot: its value when the seat scoops (it knocks out every stack it covers)
    with the product of its equities, else its value when it wins nothing (all in: knocked out by the others in its
    last layer, who split it evenly). Classes decide here (A beats B), so an A scoops for sure."""
    eq, _ = _value_equities(np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([0.5, 0.5]))
    game = pf.make_game(pf.Table((40.0, 10.0, 20.0, 30.0), bounties=(4.0, 2.0, 2.0, 2.0)))
    strategy = {key: np.array([0.0, 1.0]) for key in pf.infoset_keys(game)}  # the others play class B only
    values = pf.counterfactual_values(game, eq, strategy)[("call", 3, 0, (1, 2))]
    reach = 0.5**3
    # CO (40) shoves, BTN (10), SB (20) and the BB (30) call: layers 40 (all), 30 (CO, SB, BB), 20 (CO, BB), 10 (CO)
    scoop = 2 + 2 + 90 / 100 * 6 - 30 / 100 * 10  # the BTN's and the SB's bounties in cash, then 90 of 100 chips, 6 on heads
    nothing = -30 / 100 * 10  # knocked out by the CO: no chips, no share of the bounties left
    assert values[0, 1] == pytest.approx(reach * (90 - 30 + scoop), abs=1e-12)
    chips = 0.5**3 * 40 + 0.5**2 * 30 + 0.5 * 20 - 30  # each layer with the product of its equities (1/2 each) against B
    assert values[1, 1] == pytest.approx(reach * (chips + scoop / 8 + 7 / 8 * nothing), abs=1e-12)


def test_the_worked_example_of_the_docs():
    """docs/pushfold.md, Bounties: the BTN (20 bb) shoves, the SB (5) and the BB (10) call, PKO bounties of 2 bb, half
    in cash. The SB has the best hand, the BTN the second: the SB takes the main pot, the BTN the side pot, its
    uncalled 10 bb and the BB's bounty (only a stack that covers the BB can win it)."""
    game = pf.make_game(pf.Table((20.0, 5.0, 10.0), bounties=(2.0, 2.0, 2.0), bounty_share=0.5))
    terminal = next(t for t in game.terminals if t.shover == 0 and t.callers == (1, 2))
    outcome = next(o for o, ranks in enumerate(terminal.outcome_ranks) if tuple(ranks) == (1, 0, 2))
    assert terminal.layers == ((15.0, (0, 1, 2)), (10.0, (0, 2)), (10.0, (0,)))
    assert np.allclose(terminal.payoff[:, outcome], [3 / 7, 10 + 9 / 7, -10 - 12 / 7], rtol=0, atol=1e-14)
    assert np.allclose(terminal.bounty[:, outcome], [3 / 7, 9 / 7, -12 / 7], rtol=0, atol=1e-14)
    assert np.allclose(bounty_equity(np.array([20.0, 5.0, 10.0]), np.array([2.0, 2.0, 2.0])), [24 / 7, 6 / 7, 12 / 7])


@pytest.mark.parametrize(("bounties", "share", "message"), [
    ((1.0, -1.0, 0.0), 1.0, "bounties: entry 2 is negative (-1)"),
    ((1.0, 1.0), 1.0, "bounties: 2 bounties for 3 players; give one per player (0 for none)"),
    ((1.0, 1.0, 1.0), 1.5, "bounty share: 1.5 is outside [0, 1] (the part of a bounty paid in cash: 1 for a regular knockout, "
                           "0.5 for a typical PKO)"),
])
def test_bad_bounties_are_the_table_s_errors(bounties, share, message):
    table = pf.Table((10.0, 10.0, 10.0), bounties=bounties, bounty_share=share)
    assert pf.table_errors(table) == [message]
    with pytest.raises(ValueError, match="bount"):
        pf.make_game(table)
