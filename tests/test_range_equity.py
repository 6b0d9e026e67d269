"""Range equity engine: exact results against an independent eval7 enumeration, the heads-up table
against enumeration, Monte Carlo against exact (5σ), coverage of the 95% intervals, and impossible deals."""

import itertools
from math import ceil, comb, floor, sqrt

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages.headsup import headsup_results
from kernels.cards import ALL_COMBOS, format_card, parse_cards
from kernels.range_equity import (
    COMBO_MASK, COMBO_OF, EXACT_LIMIT, NoDealError, draw_units, enumerate_equity, enumeration_work, live_weights,
    range_equity, sample_equity,
)
from kernels.range_equity.boards import board_work
from kernels.range_equity.enumeration import enumeration_method
from kernels.range_equity.patterns import canonical_deals, pattern_work, suit_symmetries
from kernels.range_equity.sampling import _alias
from kernels.ranges import N_COMBOS, parse_range


@pytest.fixture(scope="module")
def tables():
    return evaluator_tables()


def eval7_enumeration(weights, board, dead):
    """Weighted (win (n,), ties (n, n-1)) fractions by brute force with ``eval7.evaluate``: every compatible
    assignment (product of weights) × every completion of the board from the cards nobody holds."""
    import eval7

    deck = [eval7.Card(format_card(c)) for c in range(52)]
    n = len(weights)
    win, ties, total = np.zeros(n), np.zeros((n, n - 1)), 0.0
    ranges = [[(tuple(ALL_COMBOS[i]), w[i]) for i in np.flatnonzero(w)] for w in weights]
    for assignment in itertools.product(*ranges):
        held = [card for combo, _ in assignment for card in combo]
        if len(set(held) | set(board) | set(dead)) != len(held) + len(board) + len(dead):
            continue
        weight = np.prod([w for _, w in assignment])
        rest = [c for c in range(52) if c not in set(held) | set(board) | set(dead)]
        for extra in itertools.combinations(rest, 5 - len(board)):
            cards = [deck[c] for c in (*board, *extra)]
            values = [eval7.evaluate(cards + [deck[a], deck[b]]) for (a, b), _ in assignment]
            best = max(values)
            winners = [p for p in range(n) if values[p] == best]
            total += weight
            for p in winners:
                if len(winners) == 1:
                    win[p] += weight
                else:
                    ties[p, len(winners) - 2] += weight
    return win / total, ties / total


#: The two exact methods: board completion by board completion, and deal orbits by rank pattern.
METHODS = ("boards", "patterns")


def small_spot(rng, players, board_size, n_dead):
    """Random cards and small ranges (1..4 combos, weights 1, 0.5 or 0.25) on a board of ``board_size``."""
    cards = rng.permutation(52)
    board, dead = cards[:board_size].tolist(), cards[board_size : board_size + n_dead].tolist()
    weights = []
    for _ in range(players):
        w = np.zeros(N_COMBOS)
        w[rng.choice(N_COMBOS, rng.integers(1, 5), replace=False)] = rng.choice([1.0, 0.5, 0.25])
        weights.append(w)
    return weights, board, dead


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("seed", range(8))
def test_enumeration_equals_eval7_brute_force(tables, seed, method):
    rng = np.random.default_rng(seed)
    players, board_size = [(2, 3), (3, 4), (2, 5), (4, 3), (3, 3), (2, 4), (3, 5), (2, 3)][seed]
    weights, board, dead = small_spot(rng, players, board_size, n_dead=int(rng.integers(0, 4)))
    # ranges that are empty or block each other are tested elsewhere; redraw here
    while True:
        try:
            live = live_weights(weights, board, dead)
            result = enumerate_equity(live, board, dead, tables, method=method)
            break
        except NoDealError:
            weights, board, dead = small_spot(rng, players, board_size, 1)
    win, ties = eval7_enumeration(weights, board, dead)
    assert result.exact and result.method == "enumeration"
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)
    assert result.equity == pytest.approx(win + (ties / np.arange(2, players + 1)).sum(axis=1), abs=1e-13)


def overlapping_spot(rng, players, board_size):
    """Ranges drawn from the combos of 2n + 1 cards (so they share cards and whole combos, and the largest range,
    counted at once, holds combos on two cards already dealt), weights 1, 0.5 or 0.25, and a board."""
    cards, held = rng.permutation(52), 2 * players + 1
    pool = [i for i, (a, b) in enumerate(ALL_COMBOS) if a in cards[:held] and b in cards[:held]]
    weights = []
    for p in range(players):
        w = np.zeros(N_COMBOS)
        w[rng.choice(pool, 8 if p == players - 1 else int(rng.integers(2, 5)), replace=False)] = rng.choice([1.0, 0.5, 0.25])
        weights.append(w)
    return weights, cards[held : held + board_size].tolist(), []


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("players,board_size,seed", [(2, 3, 0), (2, 4, 1), (3, 3, 2), (3, 4, 3), (4, 4, 4), (4, 5, 5)])
def test_overlapping_ranges_equal_eval7(tables, players, board_size, seed, method):
    """The heads-up sweep (a combo in both ranges) and the last-range counting (inclusion-exclusion on the
    dealt cards) against brute force."""
    weights, board, dead = overlapping_spot(np.random.default_rng(seed), players, board_size)
    result = enumerate_equity(live_weights(weights, board, dead), board, dead, tables, method=method)
    win, ties = eval7_enumeration(weights, board, dead)
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)


@pytest.mark.slow
@pytest.mark.parametrize("method", METHODS)
def test_random_players_equal_eval7(tables, method):
    """AhAd against two random hands on a turn, 29 dead cards (136 × 105 assignments): the random hand
    counted at once by strength, minus the combos on the dealt cards."""
    dead = parse_cards("2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c")
    weights = [parse_range(r).weights for r in ("AhAd", "random", "random")]
    board = parse_cards("KsQsJs9d")
    result = enumerate_equity(live_weights(weights, board, dead), board, dead, tables, method=method)
    win, ties = eval7_enumeration(live_weights(weights, board, dead), board, dead)
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)


@pytest.mark.parametrize("method", METHODS)
def test_three_way_ties_equal_eval7(tables, method):
    """A broadway-heavy turn, where three-way ties are common."""
    weights = [parse_range(r).weights for r in ("AhQd,9s9d", "Ad2c,0.5(9h8h)", "Ac3d,0.25(JhJs),5c5d")]
    board = parse_cards("TcJdQhKs")
    result = enumerate_equity(live_weights(weights, board, ()), board, (), tables, method=method)
    win, ties = eval7_enumeration(weights, board, [])
    assert ties[:, 1].min() > 0.05
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)


@pytest.mark.parametrize("method", METHODS)
def test_preflop_enumeration_equals_eval7_with_many_dead_cards(tables, method):
    """Preflop (5 board cards to come) kept small by 38 dead cards: 252 boards per assignment."""
    dead = parse_cards("2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJd")
    weights = [parse_range("AsKs,AhAd,QhQs").weights, parse_range("KdKh,0.5(AcQc),JhJs").weights]
    result = enumerate_equity(live_weights(weights, (), dead), (), dead, tables, method=method)
    win, ties = eval7_enumeration(weights, [], dead)
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)


#: Ranks 2-T dead: the 16 cards left (J-A) keep every suit permutation (24), so preflop deals fall into orbits.
LOW_RANKS_DEAD = "".join(r + s for r in "23456789T" for s in "cdhs")
#: (ranges, board, dead): suit symmetries of every kind, suited and offsuit combos and weights that differ inside
#: an orbit (0.5(AsKs) with AhKh), boards of one, two and three suits, flushes made on the board, ties.
SYMMETRIC_SPOTS = [
    (("AKs,0.5(QQ),AhKd", "KQo,JJ,0.25(AsQs)"), "", LOW_RANKS_DEAD),  # preflop, 24 symmetries
    (("AhKh,0.5(AsKs),QdQc", "KQ,0.25(JJ)", "AJs,0.5(AJo)"), "", LOW_RANKS_DEAD),
    (("AKs,0.5(QhQd),KQo", "JJ,0.25(AQs)"), "", LOW_RANKS_DEAD + "JcJd"),  # {c,d} and {h,s} kept: 4
    (("QQ+,AK,0.5(T9s)", "JTs,98s,0.5(A5s),KQo"), "Kh8h3h", ""),  # monotone flop: 6
    (("AA,KhQh,0.5(KcQc)", "0.5(JTs),99", "T9s,0.25(AQo)"), "Kh8h3c", "2d2s"),  # two-tone, dead 2d2s: (d s)
    (("AcKc,QcJc,0.5(TT+)", "KK,AQ,87s"), "9c8c7c", "3d"),  # flushes made on the flop
    (("AK,0.5(AQ)", "AK,KQs", "QQ,0.25(AJs)"), "AdKs7h7c", "2d"),  # a paired turn: ties
]


def symmetric_spot(ranges, board, dead):
    return [parse_range(r).weights for r in ranges], parse_cards(board) if board else [], parse_cards(dead) if dead else []


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("spot", SYMMETRIC_SPOTS)
def test_suit_symmetric_spots_equal_eval7(tables, spot, method):
    """Exact, on spots whose deals fall into orbits of 2 to 24 (the pattern method counts one deal per orbit with the
    orbit's weight, a wrong weight changes the answer), against brute force."""
    weights, board, dead = symmetric_spot(*spot)
    result = enumerate_equity(live_weights(weights, board, dead), board, dead, tables, method=method)
    win, ties = eval7_enumeration(weights, board, dead)
    np.testing.assert_allclose(result.win, win, rtol=0, atol=1e-13)
    np.testing.assert_allclose(result.ties, ties, rtol=0, atol=1e-13)


@pytest.mark.parametrize("spot", SYMMETRIC_SPOTS)
def test_orbits_carry_the_weight_of_their_deals(spot):
    """Every compatible deal, mapped by every suit permutation that keeps the board and the dead cards (found here
    from the 24), lands on its orbit's deal, and each orbit's weight is the sum of its deals' weight products."""
    weights, board, dead = symmetric_spot(*spot)
    live = live_weights(weights, board, dead)
    keep = [perm for perm in itertools.permutations(range(4))
            if all({4 * (c // 4) + perm[c % 4] for c in cards} == set(cards) for cards in (board, dead))]
    assert len(keep) == len(suit_symmetries(board, dead)) > 1
    expected, count = {}, 0
    blocked = set(board) | set(dead)
    for deal in itertools.product(*[np.flatnonzero(w).tolist() for w in live]):
        cards = [c for combo in deal for c in ALL_COMBOS[combo]]
        if len(set(cards)) < len(cards) or blocked & set(cards):
            continue
        count += 1
        image = lambda perm: tuple(int(COMBO_OF[4 * (a // 4) + perm[a % 4], 4 * (b // 4) + perm[b % 4]])
                                   for a, b in ALL_COMBOS[list(deal)])
        orbit = min(image(perm) for perm in keep)
        expected[orbit] = expected.get(orbit, 0.0) + float(np.prod([w[c] for w, c in zip(live, deal)]))
    deals = canonical_deals(live, board, dead)
    found = {tuple(int(COMBO_OF[a, b]) for a, b in row.reshape(-1, 2)): w for row, w in zip(deals.holes, deals.weight)}
    assert found == expected and len(found) < count


@pytest.mark.parametrize("spot", [(("AsKs", "QQ+,AKo"), "", ""), (("AA,KK,AKs", "QQ-TT,AQs", "JJ-99,KQs"), "Ts7h2c", ""),
                                  (("QQ+,AK", "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+"), "Kh8d3c", ""),
                                  (("AhAd", "random", "random"), "KsQsJs", "")])
def test_both_methods_give_identical_counts_and_the_cheaper_is_chosen(tables, spot):
    """Issue #25's spots: the two methods' fractions are equal to the last bit (weights 1), and the estimate picks
    deal orbits by pattern for ranges against ranges, boards for a hand against two random hands."""
    weights, board, dead = symmetric_spot(*spot)
    live = live_weights(weights, board, dead)
    by_boards, by_patterns = (enumerate_equity(live, board, dead, tables, method=m) for m in METHODS)
    assert np.array_equal(by_boards.win, by_patterns.win) and np.array_equal(by_boards.ties, by_patterns.ties)
    assert by_boards.boards == by_patterns.boards == comb(52 - len(board) - len(dead), 5 - len(board))
    cheaper = "boards" if "random" in spot[0] else "patterns"
    assert enumeration_method(live, board, dead) == cheaper
    assert enumeration_work(live, board, dead) == min(board_work(live, board, dead), pattern_work(live, board, dead))


def test_headsup_table_equals_enumeration(tables):
    headsup, _ = headsup_results(progress=False)
    weights = [parse_range("QQ,0.5(AKs)").weights, parse_range("JJ,AQs:0.25").weights]
    looked_up = range_equity(weights, (), (), tables, headsup)
    enumerated = enumerate_equity(weights, (), (), tables)
    assert looked_up.method == "table" and looked_up.exact
    np.testing.assert_allclose(looked_up.equity, enumerated.equity, rtol=0, atol=1e-12)
    np.testing.assert_allclose(looked_up.ties, enumerated.ties, rtol=0, atol=1e-12)
    assert looked_up.equity[0] + looked_up.equity[1] == pytest.approx(1.0, abs=1e-15)


def test_published_values(tables):
    """AsKs vs QdQc (46.2%: PokerStove 46.21%) by enumeration, equal to combo_matchup_counts."""
    from kernels.headsup.cpu import combo_matchup_counts

    result = range_equity([parse_range("AsKs").weights, parse_range("QdQc").weights], (), (), tables)
    win, tie, loss = combo_matchup_counts(*parse_cards("AsKsQdQc"), *tables[:5])
    total = win + tie + loss
    assert result.win[0] == pytest.approx(win / total, abs=1e-15) and result.ties[0, 0] == pytest.approx(tie / total, abs=1e-15)
    assert round(result.equity[0], 4) == 0.4621


def flop_spot():
    """Three ranges on a flop with a dead card; small enough to enumerate (used for MC checks)."""
    weights = [parse_range(r).weights for r in ("AhKh,QcQd", "JJ-99,0.5(AQs)", "T9s,KcQc")]
    return weights, parse_cards("Kd8h3c"), parse_cards("2s")


def blocking_spot():
    """Ranges that block each other often: rejection must restart the whole deal to stay unbiased."""
    weights = [parse_range(r).weights for r in ("AA", "AA,KK:0.3", "AK,0.5(KsQs)")]
    return weights, parse_cards("2c7d9h"), []


def four_player_spot():
    """Weighted overlapping ranges (two of them drawn as one unit of compatible pairs) and a random hand on a turn."""
    weights = [parse_range(r).weights for r in ("AA,KK:0.5,AKs", "KK,QQ,0.25(AK)", "random", "AQs,KQs:0.5,QQ")]
    return weights, parse_cards("Kd8h3c2s"), []


@pytest.mark.parametrize("joint_limit", [4096, 0])
@pytest.mark.parametrize("spot", [flop_spot, blocking_spot, four_player_spot])
def test_monte_carlo_within_five_sigma_of_exact(tables, spot, joint_limit):
    """Every player's sampled equity within 5 reported standard errors of the exact one, with players joined into
    units of compatible pairs (weighted: the alias test) and each drawn alone (``joint_limit=0``)."""
    weights, board, dead = spot()
    live = live_weights(weights, board, dead)
    exact = enumerate_equity(live, board, dead, tables)
    sampled = sample_equity(live, board, dead, tables, target_se=2e-3, seed=3, joint_limit=joint_limit)
    assert not sampled.exact and sampled.method == "monte carlo" and np.all(sampled.se_equity <= 2e-3)
    z = (sampled.equity - exact.equity) / sampled.se_equity
    assert np.all(np.abs(z) < 5), z
    assert sampled.equity.sum() == pytest.approx(1.0, abs=1e-12)


def test_monte_carlo_random_players_within_five_sigma(tables):
    """Random players are dealt from the deck: against enumeration on a turn with many dead cards."""
    dead = parse_cards("2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c")
    weights = [parse_range("AhAd").weights, parse_range("random").weights, parse_range("random").weights]
    board = parse_cards("KsQsJs9c")
    live = live_weights(weights, board, dead)
    exact = enumerate_equity(live, board, dead, tables)
    sampled = sample_equity(live, board, dead, tables, target_se=1.5e-3, seed=1)
    assert np.all(np.abs(sampled.equity - exact.equity) < 5 * sampled.se_equity)


@pytest.mark.slow
@pytest.mark.parametrize("spot", [flop_spot, four_player_spot])
def test_monte_carlo_confidence_intervals_cover(tables, spot):
    """Of R independent runs, the 95% interval of player 1 covers the exact equity Binomial(R, 0.95) times:
    accept within 4 binomial standard deviations. R = 1,000 (950 ± 27: 923 to 977 covered) tells 95% intervals
    from 90% or 99% ones, whose counts (about 900 and 990) fall outside (how-the-equity-calculator-works.md)."""
    weights, board, dead = spot()
    live = live_weights(weights, board, dead)
    truth = enumerate_equity(live, board, dead, tables).equity[0]
    runs = 1000
    covered = 0
    for seed in range(runs):
        result = sample_equity(live, board, dead, tables, seed=1000 + seed, max_samples=2000, batch=2000, target_se=0)
        low, high = result.ci95()[0]
        covered += low <= truth <= high
    expected, spread = 0.95 * runs, sqrt(runs * 0.95 * 0.05)
    assert abs(covered - expected) <= 4 * spread, covered
    accepted = range(ceil(expected - 4 * spread), floor(expected + 4 * spread) + 1)
    for wrong in (0.90, 0.99):  # what the article promises: intervals of 90% or 99% coverage would fail (power > 99%)
        assert sum(comb(runs, k) * wrong**k * (1 - wrong) ** (runs - k) for k in accepted) < 0.01, wrong


def test_alias_tables_are_exact():
    """Walker's alias table gives each index exactly its share of the weight (to rounding)."""
    rng = np.random.default_rng(5)
    for weight in (rng.choice([1.0, 0.5, 0.25, 0.3], 200), rng.random(1326) + 1e-3, np.ones(7), np.array([1e-6, 1.0])):
        prob, alias = _alias(weight)
        n = len(weight)
        share = prob / n
        np.add.at(share, alias, (1 - prob) / n)
        assert np.allclose(share, weight / weight.sum(), rtol=1e-12, atol=0)


def test_joint_units_are_the_compatible_pairs():
    """A unit of two players is every pair of their combos that share no card, weighted by the product of the
    weights: the pair's distribution given no collision (so rejecting only collisions between units is exact)."""
    first, second = parse_range("AA,KK:0.5,AKs").weights, parse_range("KK,QQ,0.25(AK)").weights
    units = draw_units([first, second], [0, 3])
    assert len(units) == 1 and units[0]["seats"] == [0, 3]
    pairs = {(a, b): first[a] * second[b] for a in np.flatnonzero(first) for b in np.flatnonzero(second)
             if not COMBO_MASK[a] & COMBO_MASK[b]}
    got = {(int(a), int(b)): w for (a, b), w in zip(units[0]["combos"], units[0]["weight"])}
    assert got == pairs
    assert [u["seats"] for u in draw_units([first, second], [0, 3], joint_limit=0)] == [[0], [3]]


def test_monte_carlo_is_reproducible(tables):
    """A seed gives the same counts on every run (whatever the thread count); another seed other counts."""
    weights, board, dead = four_player_spot()
    live = live_weights(weights, board, dead)
    import numba

    threads = numba.get_num_threads()
    runs = [sample_equity(live, board, dead, tables, seed=4, max_samples=5000, batch=5000, target_se=0)]
    numba.set_num_threads(1)
    try:
        runs.append(sample_equity(live, board, dead, tables, seed=4, max_samples=5000, batch=5000, target_se=0))
    finally:
        numba.set_num_threads(threads)
    runs.append(sample_equity(live, board, dead, tables, seed=5, max_samples=5000, batch=5000, target_se=0))
    assert np.array_equal(runs[0].win, runs[1].win) and np.array_equal(runs[0].ties, runs[1].ties)
    assert not np.array_equal(runs[0].win, runs[2].win)


def test_empty_or_blocked_ranges_are_errors(tables):
    with pytest.raises(NoDealError) as info:
        range_equity([parse_range("AsKs").weights, parse_range("AA").weights], parse_cards("AhAdAc"), (), tables)
    assert info.value.player == 1  # AsKs takes the last ace
    assert info.value.blockers == tuple((parse_cards(c)[0], who) for c, who in [("Ac", "board"), ("Ad", "board"), ("Ah", "board"), ("As", 0)])
    assert str(info.value).endswith("empty after card removal: Ac (board), Ad (board), Ah (board), As (player 1)")
    with pytest.raises(NoDealError) as info:
        range_equity([parse_range("KK").weights, parse_range("AsKs").weights], parse_cards("2c3c4d"), parse_cards("Ks"), tables)
    assert str(info.value).endswith("player 2's range is empty after card removal: Ks (dead)")
    with pytest.raises(NoDealError):
        range_equity([parse_range("AsKs").weights, parse_range("AsKs").weights], (), (), tables)
    with pytest.raises(NoDealError):  # neither range is a single combo, but no assignment fits
        range_equity([parse_range("AsAh,AcAd").weights, parse_range("AsAc,AhAd").weights, parse_range("AsAd,AhAc").weights],
                     parse_cards("2c3c4d"), (), tables)


def test_single_combo_players_remove_their_cards():
    live = live_weights([parse_range("AhAd").weights, parse_range("random").weights], (), parse_cards("2c"))
    assert np.count_nonzero(live[1]) == comb(52 - 3, 2)


def test_large_work_goes_to_monte_carlo_and_small_stays_exact(tables):
    """AhAd against two random hands on a flop is exact by default (as in the browser: the same work estimate,
    a higher limit); beyond the limit it is sampled, within 5σ of the exact answer."""
    weights = [parse_range("AhAd").weights, parse_range("random").weights, parse_range("random").weights]
    board = parse_cards("KsQsJs")
    exact = range_equity(weights, board, (), tables)
    assert exact.method == "enumeration" and exact.boards == comb(49, 2)
    assert enumeration_work(live_weights(weights, board, ()), board, ()) <= EXACT_LIMIT
    sampled = range_equity(weights, board, (), tables, exact_limit=0, target_se=5e-3)
    assert sampled.method == "monte carlo"
    assert np.all(np.abs(sampled.equity - exact.equity) < 5 * sampled.se_equity)
    assert exact.equity[1] == exact.equity[2]  # symmetric seats, exactly
    four = [*weights, parse_range("random").weights]
    assert enumeration_work(live_weights(four, board, ()), board, ()) > EXACT_LIMIT


def test_class_against_random_hands_comes_from_the_multiway_table(tables):
    """One class against n − 1 random hands preflop reads the multiway table's estimate and se (not exact);
    a random seat gets an equal share of the rest; without the table, or with a board, the spot is sampled."""
    from site_fixtures import multiway

    block = multiway(players=(4,))["by_players"]["4"]
    weights = [parse_range(r).weights for r in ("random", "random", "0.5(QQ)", "random")]
    result = range_equity(weights, (), (), tables, None, {4: block})
    queen = 13 * 2 + 2  # QQ on the 13×13 chart
    assert (result.method, result.exact, result.samples) == ("table", False, block["samples"][queen])
    assert result.equity[2] == block["equity"][queen] and result.se_equity[2] == block["se_equity"][queen]
    assert result.ties[2].tolist() == block["tie_k"][queen][:3]
    assert np.allclose(result.equity[[0, 1, 3]], (1 - block["equity"][queen]) / 3)
    assert np.isnan(result.win[0]) and result.win[2] == block["win"][queen]
    assert range_equity(weights, (), (), tables, None, None, target_se=2e-2).method == "monte carlo"
    assert range_equity(weights, parse_cards("2c3d4h"), (), tables, None, {4: block}, target_se=2e-2).method != "table"
    two_classes = [parse_range("QQ,AKs").weights] + weights[:2]
    assert range_equity(two_classes, (), (), tables, None, {3: block}, target_se=2e-2).method == "monte carlo"
