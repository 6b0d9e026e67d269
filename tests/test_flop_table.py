"""The all-flop table (each class against a random hand on each suit-distinct flop), from the heads-up walk:
checked exactly against eval7 on whole flops, and against the preflop table by the identity that ties them."""

from itertools import combinations

import numpy as np
import pytest

from generator.compute.stages.headsup import flop_table_results, headsup_results
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, COMBO_CLASS, N_CLASSES, parse_cards
from kernels.flop.flops import orbit_of


COMBO_CLASS_OF = np.zeros(52 * 52, dtype=np.int64)
COMBO_CLASS_OF[ALL_COMBOS[:, 0] * 52 + ALL_COMBOS[:, 1]] = COMBO_CLASS


@pytest.fixture(scope="module")
def table():
    return flop_table_results(progress=False)[0]


def eval7_flop_counts(flop: list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(wins, ties, deals) per class on one flop, by eval7: every turn and river, every live hero combo, every
    villain combo that shares no card with it (each 7-card hand evaluated by eval7)."""
    import eval7

    deck = [eval7.Card(c) for c in ("23456789TJQKA"[r] + "cdhs"[s] for r in range(13) for s in range(4))]
    wins, ties, deals = (np.zeros(N_CLASSES, dtype=np.int64) for _ in range(3))
    rest = [card for card in range(52) if card not in flop]
    around = ALL_COMBOS[~np.isin(ALL_COMBOS, flop).any(axis=1)]  # the 1,176 combos a flop leaves
    holds = np.zeros((len(around), 52), dtype=np.int8)
    holds[np.arange(len(around))[:, None], around] = 1
    disjoint = (holds @ holds.T) == 0
    for turn, river in combinations(rest, 2):
        board = [deck[c] for c in flop + [turn, river]]
        live = np.flatnonzero(~np.isin(around, (turn, river)).any(axis=1))
        strength = np.array([eval7.evaluate(board + [deck[a], deck[b]]) for a, b in around[live].tolist()])
        pairs = disjoint[np.ix_(live, live)]
        classes = COMBO_CLASS_OF[around[live, 0] * 52 + around[live, 1]]
        np.add.at(wins, classes, ((strength[:, None] > strength[None, :]) & pairs).sum(axis=1))
        np.add.at(ties, classes, ((strength[:, None] == strength[None, :]) & pairs).sum(axis=1))
        np.add.at(deals, classes, pairs.sum(axis=1))
    return wins, ties, deals


@pytest.mark.slow
@pytest.mark.parametrize("flop", ["Ah7d2c", "KdKh9d"])
def test_every_class_on_a_flop_matches_eval7_exactly(table, flop):
    cards = parse_cards(flop)
    wins, ties, deals = eval7_flop_counts(cards)
    row = orbit_of(cards)
    weight = table.weights[row]
    assert deals.sum() > 0 and ties.sum() > 0
    assert np.array_equal(table.win[row], weight * wins)
    assert np.array_equal(table.tie[row], weight * ties)
    assert np.array_equal(table.total[row], weight * deals)


def test_weighted_mean_over_flops_is_the_preflop_equity_of_every_class(table):
    headsup, _ = headsup_results(progress=False)
    # In integers: a combo meets each of its 19,600 flops with the same 1,081 × 990 deals, and every board is
    # counted for its ten flops, so the flop table pooled is ten times the preflop counts of every combo.
    assert np.array_equal(table.win.sum(axis=0), 10 * headsup.vs_random_win * CLASS_COMBO_COUNT)
    assert np.array_equal(table.tie.sum(axis=0), 10 * headsup.vs_random_tie * CLASS_COMBO_COUNT)
    assert np.array_equal(table.total.sum(axis=0), 10 * headsup.vs_random_total * CLASS_COMBO_COUNT)
    deals = table.weights[:, None] * table.live  # (flop, combo) pairs each row stands for
    mean = np.nansum(table.equity() * deals, axis=0) / deals.sum(axis=0)
    assert np.allclose(mean, headsup.vs_random_equity(), rtol=0, atol=1e-13)


def test_a_class_without_a_live_combo_has_no_equity_and_every_other_one_does(table):
    equity = table.equity()
    dead = np.argwhere(np.isnan(equity))
    # Only a pair on a flop of three cards of its rank has no combo left: 13 flops × 1 class each.
    assert len(dead) == 13
    for flop, cls in dead.tolist():
        ranks = {int(card) // 4 for card in table.flops[flop]}
        assert len(ranks) == 1 and table.live[flop, cls] == 0
    assert np.all((equity[~np.isnan(equity)] >= 0) & (equity[~np.isnan(equity)] <= 1))
