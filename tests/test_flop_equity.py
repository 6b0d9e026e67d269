"""Flop equity (kernels/flop/equity.py, boards.py): each combo's counts against an independent eval7 enumeration of
every completion and villain combo, the distribution's figures against their definitions in exact fractions, A's
equity against kernels/range_equity, and the every-flop report against the preflop equity (an exact identity),
against per-flop enumeration and eval7, with its totals exact."""

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import ALL_COMBOS, format_card, parse_cards
from kernels.flop.boards import FLOPS_OF_BOARD, board_classes
from kernels.flop.equity import (
    NotSuitSymmetricError, check_suit_symmetric, combo_equities, equity_distribution, every_flop_report,
)
from kernels.flop.flops import orbit_of, suit_distinct_flops
from kernels.headsup.boards import board_orbits
from kernels.range_equity import COMBO_MASK, NoDealError, live_weights
from kernels.range_equity.enumeration import enumerate_equity
from kernels.ranges import N_COMBOS, parse_range
from spec.engines.flop_equity import DISTRIBUTIONS


@pytest.fixture(scope="module")
def tables():
    return evaluator_tables()


def weights_of(text: str) -> np.ndarray:
    return parse_range(text).weights


def eval7_counts(weights_a, weights_b, board, dead):
    """``{combo of A: (win, tie, total)}``: B's weight beaten, tied and met by each combo of A over every completion
    of the board, by brute force with ``eval7.evaluate`` (each completion's hands evaluated once, every pair of a
    combo of A and a compatible combo of B compared)."""
    import eval7

    deck = [eval7.Card(format_card(c)) for c in range(52)]
    taken = _mask(list(board) + list(dead))
    a_combos = np.array([i for i in np.flatnonzero(weights_a) if not COMBO_MASK[i] & taken], dtype=np.int64)
    b_combos = np.array([i for i in np.flatnonzero(weights_b) if not COMBO_MASK[i] & taken], dtype=np.int64)
    disjoint = (COMBO_MASK[a_combos][:, None] & COMBO_MASK[b_combos][None, :]) == 0
    wb = weights_b[b_combos]
    counts = np.zeros((len(a_combos), 3))
    rest = [c for c in range(52) if not taken >> np.uint64(c) & np.uint64(1)]
    for extra in itertools.combinations(rest, 5 - len(board)):
        cards = [deck[c] for c in (*board, *extra)]
        gone = _mask(extra)

        def values(combos):
            return np.array([eval7.evaluate(cards + [deck[x] for x in ALL_COMBOS[c]]) for c in combos]), (COMBO_MASK[combos] & gone) == 0

        (va, live_a), (vb, live_b) = values(a_combos), values(b_combos)
        met = disjoint & live_a[:, None] & live_b[None, :]
        counts[:, 0] += (met * (va[:, None] > vb[None, :])) @ wb
        counts[:, 1] += (met * (va[:, None] == vb[None, :])) @ wb
        counts[:, 2] += met @ wb
    return {int(c): row.tolist() for c, row in zip(a_combos, counts) if row[2] > 0}


def _mask(cards) -> np.uint64:
    out = np.uint64(0)
    for c in cards:
        out |= np.uint64(1) << np.uint64(c)
    return out


#: The goldens' spots (spec/engines/flop_equity.py), so that eval7 checks each golden distribution too.
SPOTS = DISTRIBUTIONS


@pytest.mark.parametrize("spot", SPOTS)
def test_each_combo_counts_equal_eval7(tables, spot):
    text_a, text_b, board_text, dead_text = spot
    board, dead = parse_cards(board_text), parse_cards(dead_text) if dead_text else []
    a, b = weights_of(text_a), weights_of(text_b)
    ce = combo_equities(a, b, board, dead, tables)
    expected = eval7_counts(a, b, board, dead)
    assert ce.combos.tolist() == sorted(expected)
    got = np.stack([ce.win, ce.tie, ce.total], axis=1)
    assert np.array_equal(got, np.array([expected[c] for c in ce.combos.tolist()]))  # dyadic weights: exact sums
    boards = comb(52 - len(board) - len(dead) - 4, 5 - len(board))
    assert ce.boards == boards
    for k, c in enumerate(ce.combos.tolist()):  # weight in the deal: range weight × compatible weight of B
        compatible = sum(b[j] for j in np.flatnonzero(b) if not COMBO_MASK[j] & (COMBO_MASK[c] | _mask(board + dead)))
        assert ce.weight[k] == a[c] * compatible


@pytest.mark.parametrize("spot", SPOTS)
def test_overall_equity_is_the_range_equity_engines(tables, spot):
    text_a, text_b, board_text, dead_text = spot
    board, dead = parse_cards(board_text), parse_cards(dead_text) if dead_text else []
    a, b = weights_of(text_a), weights_of(text_b)
    distribution = equity_distribution(combo_equities(a, b, board, dead, tables))
    live = live_weights([a, b], board, dead)
    for method in ("boards", "patterns"):  # dyadic weights: every sum exact, the same double
        assert distribution.overall == enumerate_equity(live, board, dead, tables, method=method).equity[0]


def test_overall_equity_with_weights_that_round(tables):
    """Weights 0.3 and 0.7 are not dyadic: both engines sum the same terms in their own order. Each of their sums
    has at most (completions × combos) terms, each addition off by at most half an ulp of the running sum, so each
    is within terms × 2^-53 of the exact sum (relatively), and so are the ratios, twice that."""
    a, b = weights_of("QQ+:0.3,AK:0.7"), weights_of("JJ-88:0.3,AQ")
    board = parse_cards("Qd9c4s")
    distribution = equity_distribution(combo_equities(a, b, board, [], tables))
    reference = enumerate_equity(live_weights([a, b], board, []), board, [], tables).equity[0]
    terms = comb(49, 2) * (np.count_nonzero(a) + np.count_nonzero(b))
    assert abs(distribution.overall - reference) <= 4 * terms * 2.0**-53 * reference


@pytest.mark.parametrize("spot", SPOTS)
def test_distribution_figures_are_their_definitions_in_fractions(tables, spot):
    text_a, text_b, board_text, dead_text = spot
    board, dead = parse_cards(board_text), parse_cards(dead_text) if dead_text else []
    ce = combo_equities(weights_of(text_a), weights_of(text_b), board, dead, tables)
    d = equity_distribution(ce)
    equity = {c: Fraction(float(w)) + Fraction(float(t)) / 2 for c, w, t in zip(ce.combos.tolist(), ce.win, ce.tie)}
    equity = {c: e / Fraction(float(total)) for (c, e), total in zip(equity.items(), ce.total)}
    weight = {c: Fraction(float(w)) for c, w in zip(ce.combos.tolist(), ce.weight)}
    order = sorted(equity, key=lambda c: (equity[c], c))
    assert d.combos.tolist() == order
    assert d.equity.tolist() == [float(equity[c]) for c in order]
    whole = sum(weight.values())
    running = list(itertools.accumulate(weight[c] for c in order))
    assert d.cumulative.tolist() == [float(r / whole) for r in running]
    for q, value in d.quantiles.items():
        first = next(k for k, r in enumerate(running) if r >= Fraction(q) * whole)
        assert value == float(equity[order[first]])
    for t, share in d.above.items():
        assert share == float(sum(weight[c] for c in order if equity[c] > Fraction(t)) / whole)
    a_weight = dict(zip(ce.combos.tolist(), ce.range_weight))
    total = {c: Fraction(float(x)) for c, x in zip(ce.combos.tolist(), ce.total)}
    overall = sum(Fraction(a_weight[c]) * equity[c] * total[c] for c in order) / sum(Fraction(a_weight[c]) * total[c] for c in order)
    assert d.overall == float(overall)


def test_one_combo_meeting_nothing_is_left_out_and_no_deal_is_an_error(tables):
    a, b = weights_of("AsAh,KK"), weights_of("AsKs")  # AsAh meets B's AsKs nowhere; KK meets it but KsKx
    ce = combo_equities(a, b, parse_cards("2c7d9h"), [], tables)
    assert "AsAh" not in [format_card(x) + format_card(y) for x, y in ALL_COMBOS[ce.combos][:, ::-1]]
    assert len(ce.combos) == 3  # KcKd, KcKh, KdKh
    with pytest.raises(NoDealError):
        combo_equities(weights_of("AsAh"), weights_of("AsKs"), parse_cards("2c7d9h"), [], tables)
    with pytest.raises(ValueError, match="3, 4 or 5 cards"):
        combo_equities(a, b, [], [], tables)


def test_board_classes_are_the_headsup_walks_with_their_flops():
    boards, sizes, flops = board_classes()
    representatives, weights = board_orbits()
    assert np.array_equal(boards, np.sort(representatives.astype(np.int64), axis=1))
    assert np.array_equal(sizes, weights) and sizes.sum() == comb(52, 5)
    rng = np.random.default_rng(35)
    for b in rng.choice(len(boards), 200, replace=False):
        assert flops[b].tolist() == [orbit_of(boards[b, list(subset)]) for subset in FLOPS_OF_BOARD]


def test_suit_symmetry_is_checked():
    for text in ("QQ+,AK,0.5(T9s)", "random", "AsKs,AhKh,AdKd,AcKc"):
        check_suit_symmetric(weights_of(text), "range A")
    with pytest.raises(NotSuitSymmetricError, match=r"range B is not suit-symmetric \(AhKh at 0 but AsKs at 1\)"):
        check_suit_symmetric(weights_of("AsKs,QQ"), "range B")


#: Small class ranges of the every-flop report: weights 1, 0.5 and 0.25 (exact sums), overlapping ranges.
REPORT_SPOTS = (("AA,KK,0.5(AKs)", "QQ,JJ,AQs"), ("KK,0.25(T9s)", "KK,AKo,0.5(55)"))


@pytest.mark.parametrize("spot", REPORT_SPOTS)
def test_every_flop_report_averages_to_the_preflop_equity(tables, spot):
    a, b = (weights_of(text) for text in spot)
    report = every_flop_report(a, b, tables)
    preflop = enumerate_equity(live_weights([a, b], (), ()), (), (), tables)
    assert abs(report.overall - preflop.equity[0]) <= 1e-12
    assert abs(float((report.equity * report.share).sum()) - preflop.equity[0]) <= 1e-12
    # totals exact: every board counted for its ten flops, each pair on C(48, 5) boards
    pairs = sum(a[i] * b[j] for i in np.flatnonzero(a) for j in np.flatnonzero(b) if not COMBO_MASK[i] & COMBO_MASK[j])
    assert report.total.sum() == 10 * comb(48, 5) * pairs
    assert abs(report.share.sum() - 1) <= 1e-15
    assert report.flops.shape == (1755, 3) and report.flop_weight.sum() == 22_100


@pytest.mark.parametrize("spot", REPORT_SPOTS)
def test_every_flop_report_is_each_flops_enumeration(tables, spot):
    """Each suit-distinct flop's counts are its weight × those of its representative's turns and rivers."""
    a, b = (weights_of(text) for text in spot)
    report = every_flop_report(a, b, tables)
    flops, weights = suit_distinct_flops()
    rng = np.random.default_rng(7)
    for f in rng.choice(len(flops), 12, replace=False):
        flop = flops[f].astype(np.int64).tolist()
        try:
            ce = combo_equities(a, b, flop, [], tables)
        except NoDealError:
            assert report.total[f] == 0 and np.isnan(report.equity[f])
            continue
        expected = [weights[f] * float((ce.range_weight * x).sum()) for x in (ce.win, ce.tie, ce.total)]
        assert [report.win[f], report.tie[f], report.total[f]] == expected


def test_every_flop_report_equals_eval7_on_a_flop(tables):
    a, b = weights_of("AA,0.5(KQs)"), weights_of("KK,0.25(JTs)")
    report = every_flop_report(a, b, tables)
    flop = parse_cards("KhQh2c")
    f = orbit_of(flop)
    counts = eval7_counts(a, b, flop, [])
    weights = suit_distinct_flops()[1]
    for k, field in enumerate((report.win, report.tie, report.total)):
        assert field[f] == weights[f] * sum(a[c] * x[k] for c, x in counts.items())


def test_every_flop_report_refuses_ranges_that_are_not_suit_symmetric(tables):
    with pytest.raises(NotSuitSymmetricError, match="range A is not suit-symmetric"):
        every_flop_report(weights_of("AsKs"), weights_of("QQ"), tables)
    with pytest.raises(NoDealError):
        every_flop_report(weights_of("AA"), np.zeros(N_COMBOS), tables)
