"""KO/PKO bounties (kernels/icm/bounty.py, the bounty term of kernels/icm/spot.py): every value, showdown,
bubble factor and spot EV against the exact brute force of tests/bounty_reference.py (finishing orders
enumerated, pots split chip by chip, in Fractions) on fields of 2 to 6 players, to 1e-12 of the money
at stake; plain ICM when there are no bounties; conservation of money; the fixture file."""

import json
from fractions import Fraction

import numpy as np
import pytest

import bounty_reference as reference
from kernels.icm import bounty, harville as icm, spot as icm_spot

TOLERANCE = 1e-12  # of the money at stake (prize pool + bounties)


def assert_exact(got, expected, scale):
    """Every entry of ``got`` (floats, None for undefined) within TOLERANCE x ``scale`` of ``expected``
    (Fractions or floats, None where undefined)."""
    got, expected = np.asarray(got, dtype=object).ravel(), np.asarray(expected, dtype=object).ravel()
    assert got.size == expected.size
    for g, e in zip(got, expected):
        if e is None:
            assert g is None or not np.isfinite(g), (g, e)
        else:
            assert g is not None and abs(Fraction(float(g)) - Fraction(e)) <= TOLERANCE * scale, (float(g), float(e))


def nullable(matrix):
    return [[float(v) if np.isfinite(v) else None for v in row] for row in matrix]


def random_field(rng, n, zeros=True):
    """Whole-number stacks (some busted when ``zeros``), payouts, bounties (none on busted players)
    in quarters, and a share among 0, 1/4, 1/2, 1."""
    stacks = rng.integers(1, 60, n).astype(float)
    stacks[rng.integers(n)] = stacks[rng.integers(n)]  # equal stacks: both can bust
    if zeros and n > 2 and rng.random() < 0.3:
        stacks[rng.integers(n)] = 0.0
    payouts = np.sort(rng.integers(1, 50, int(rng.integers(1, n + 1))).astype(float))[::-1]
    bounties = rng.integers(0, 40, n) / 4.0
    bounties[stacks == 0] = 0.0
    share = float(rng.choice([0.0, 0.25, 0.5, 1.0]))
    return stacks, payouts, bounties, share


def random_hand(rng, stacks):
    """(committed, strength, dead) for a valid hand: 2+ players with chips in the showdown (often all
    in), strengths 1..3 (ties), the others folded after putting in less than the showdown's biggest bet."""
    n = stacks.size
    live = np.flatnonzero(stacks > 0)
    players = rng.choice(live, int(rng.integers(2, live.size + 1)), replace=False)
    committed = np.zeros(n)
    strength = np.zeros(n, dtype=int)
    for p in players:
        committed[p] = stacks[p] if rng.random() < 0.6 else float(rng.integers(1, int(stacks[p]) + 1))
        strength[p] = int(rng.integers(1, 4))
    top = committed.max()
    for p in np.setdiff1d(live, players):
        if rng.random() < 0.5:
            committed[p] = float(rng.integers(0, int(min(stacks[p] - 1, top)) + 1))
    return committed, strength, float(rng.integers(0, 8)) / 4.0


# ------------------------------------------------------------------------------- value of a position


def test_values_match_the_brute_force():
    rng = np.random.default_rng(27)
    for n in range(1, 7):
        for _ in range(4):
            stacks, payouts, bounties, _ = random_field(rng, n, zeros=n > 1)
            result = bounty.position_value(stacks, payouts, bounties)
            prize, bounty_part = reference.value(stacks, payouts, bounties)
            scale = payouts.sum() + bounties.sum()
            assert_exact(result.prize, prize, scale)
            assert_exact(result.bounty, bounty_part, scale)
            assert result.total.sum() == pytest.approx(scale, rel=1e-13)  # every prize and bounty is someone's


def test_bounties_are_valued_as_one_more_first_prize():
    """(x_i / X) sum B is ICM's P(1st) times sum B: the bounty money values like a first prize."""
    stacks, payouts, bounties = [4200, 3100, 2600, 900, 1800], [50, 30, 20], [12, 30, 6, 18, 9]
    total = bounty.position_value(stacks, payouts, bounties).total
    with_prize = icm.prize_equity(stacks, [50 + sum(bounties), 30, 20], places=False).equity
    np.testing.assert_allclose(total, with_prize, rtol=0, atol=1e-12 * (100 + sum(bounties)))


@pytest.mark.slow
def test_no_bounties_is_plain_icm_exactly():
    rng = np.random.default_rng(1)
    for n in (2, 3, 5, 12):
        stacks, payouts, _, share = random_field(rng, n)
        zero = np.zeros(n)
        value = bounty.position_value(stacks, payouts, zero)
        assert np.array_equal(value.prize, icm.prize_equity(stacks, payouts, places=False).equity)
        assert np.array_equal(value.bounty, zero) and np.array_equal(value.total, value.prize)
        plain, with_zero = icm.bubble_factors(stacks, payouts), bounty.bubble_factors(stacks, payouts, zero, share)
        for name in ("bubble_factor", "required_equity", "risk_premium", "equity"):
            assert np.array_equal(getattr(plain, name), getattr(with_zero, name), equal_nan=True)


# ------------------------------------------------------------------------------------ showdowns


def test_showdowns_match_the_brute_force_with_side_pots_ties_and_several_knockouts():
    rng = np.random.default_rng(6)
    busts = multiway_busts = 0
    for n in range(2, 7):
        for _ in range(40):
            stacks, payouts, bounties, share = random_field(rng, n)
            committed, strength, dead = random_hand(rng, stacks)
            result = bounty.showdown(stacks, bounties, share, committed, strength, dead)
            after, heads, cash = reference.showdown(stacks, bounties, share, committed, strength, dead)
            scale = payouts.sum() + bounties.sum() + stacks.sum()
            assert_exact(result.stacks, after, scale)
            assert_exact(result.bounties, heads, scale)
            assert_exact(result.cash, cash, scale)
            value = bounty.showdown_value(result, payouts)
            prize, bounty_part = reference.value(after, payouts, heads, cash)
            assert_exact(value.prize, prize, scale)
            assert_exact(value.bounty, bounty_part, scale)
            knocked = np.count_nonzero((result.stacks == 0) & (stacks > 0))
            busts += knocked > 0
            multiway_busts += knocked > 1
    assert busts > 50 and multiway_busts > 10  # the random hands do knock players out, several at once


def test_money_is_conserved_in_every_showdown():
    """Chips (with the dead money) are conserved, and the values after any hand add up to the prize pool
    plus every bounty that was on a head before it: a knockout moves bounty money, never makes or loses it."""
    rng = np.random.default_rng(11)
    for n in range(2, 7):
        for _ in range(30):
            stacks, payouts, bounties, share = random_field(rng, n)
            committed, strength, dead = random_hand(rng, stacks)
            result = bounty.showdown(stacks, bounties, share, committed, strength, dead)
            assert result.stacks.sum() == pytest.approx(stacks.sum() + dead, rel=1e-14)
            assert result.bounties.sum() + result.cash.sum() == pytest.approx(bounties.sum(), rel=1e-14, abs=1e-14)
            total = bounty.showdown_value(result, payouts).total.sum()
            assert total == pytest.approx(payouts.sum() + bounties.sum(), rel=1e-13)


def test_only_a_covering_stack_wins_a_bounty():
    """Short stack A (10) has the best hand, B (50) the worst, C (100) the middle one: A wins the main
    pot, C the side pot and B's bounty, though A beat B too: A does not cover B."""
    result = bounty.showdown([10, 50, 100], [5, 8, 5], 0.5, [10, 50, 50], [3, 1, 2])
    np.testing.assert_array_equal(result.stacks, [30, 0, 130])
    np.testing.assert_array_equal(result.cash, [0, 0, 4])
    np.testing.assert_array_equal(result.bounties, [5, 0, 9])
    rng = np.random.default_rng(3)
    single = 0
    for n in range(2, 7):
        for _ in range(40):
            stacks, _, bounties, share = random_field(rng, n)
            bounties[stacks > 0] += 1.0  # every bounty shows where it went
            committed, strength, dead = random_hand(rng, stacks)
            result = bounty.showdown(stacks, bounties, share, committed, strength, dead)
            taken = result.cash + np.maximum(result.bounties - bounties, 0.0)
            takers = np.flatnonzero(taken > 0)
            busted = np.flatnonzero((result.stacks == 0) & (stacks > 0))
            for taker in takers:  # each taker covers a player he knocked out (he put in at least that stack)
                assert any(committed[taker] >= stacks[loser] for loser in busted), (stacks, committed, strength)
            if busted.size == 1:  # one knockout: every taker covers him, and his whole bounty is taken
                single += 1
                assert all(stacks[taker] >= stacks[busted[0]] for taker in takers)
                assert taken.sum() == pytest.approx(bounties[busted[0]], rel=1e-14)
    assert single > 20


def test_a_chopped_last_layer_splits_the_bounty():
    result = bounty.showdown([25, 50, 50, 80], [8, 6, 6, 10], 0.5, [25, 50, 50, 0], [1, 3, 3, 0], dead=1.5)
    np.testing.assert_array_equal(result.cash, [0, 2, 2, 0])
    np.testing.assert_array_equal(result.bounties, [0, 8, 8, 10])
    np.testing.assert_array_equal(result.stacks, [0, 63.25, 63.25, 80])  # (25 + 50 + 50 + 1.5) / 2


# -------------------------------------------------------------------------------- bubble factors


@pytest.mark.slow
@pytest.mark.parametrize("method", ["dp", "integral"])
def test_bubble_factors_match_the_brute_force(method):
    rng = np.random.default_rng(12)
    for n in range(2, 7):
        for _ in range(3):
            stacks, payouts, bounties, share = random_field(rng, n)
            result = bounty.bubble_factors(stacks, payouts, bounties, share, method=method)
            factor, required, base = reference.bubble_factors(stacks, payouts, bounties, share)
            scale = payouts.sum() + bounties.sum()
            assert_exact(result.equity, base, scale)
            assert_exact(nullable(result.required_equity), required, 1.0)
            expected_factor = [[None if f is None else f * Fraction(1) for f in row] for row in factor]
            for got_row, want_row in zip(nullable(result.bubble_factor), expected_factor):
                for got, want in zip(got_row, want_row):  # a factor is a ratio: compared relative to itself
                    assert (got is None) == (want is None)
                    if want is not None:
                        assert abs(Fraction(got) - want) <= TOLERANCE * max(1, abs(want))


def test_bubble_factors_fall_below_one_with_bounties():
    """Winner-take-all (chip EV: every factor 1 without bounties); with bounties, the covering stack's
    knockout pays at once what the chip-proportional share would only give in part. Player 1 (400)
    against player 4 (100), KO 25 each: E = 0.4 x 200 = 80, win 25 + 0.5 x 175 = 112.5, lose
    0.3 x 200 = 60, BF = 20 / 32.5 = 8/13. The covered player 4 knocks no one out: his factor stays 1."""
    stacks, payouts = [400, 250, 250, 100], [100]
    plain = bounty.bubble_factors(stacks, payouts, [0, 0, 0, 0]).bubble_factor
    np.testing.assert_allclose(plain[~np.eye(4, dtype=bool)], 1.0, atol=1e-12)
    factors = bounty.bubble_factors(stacks, payouts, [25, 25, 25, 25], 1.0).bubble_factor
    assert factors[0, 3] == pytest.approx(8 / 13, rel=1e-14) and factors[1, 2] < 1
    assert factors[3, 0] == pytest.approx(1.0, rel=1e-14)


def test_worked_example_of_the_docs_by_hand():
    """docs/icm.md: 5000/3000/2000, payouts 50/30/20, PKO bounties 10/10/20. Player 1 beats player 3:
    7000/3000/0, 10 in cash, his bounty 20, 30 on heads: values 44 + 31, 36 + 9, 20 + 0. Losing:
    3000/3000/4000, 226/7 + 12 = 310/7. E = 1635/28, so BF = (1635/28 - 310/7) / (75 - 1635/28) = 79/93."""
    knockout = bounty.showdown([5000, 3000, 2000], [10, 10, 20], 0.5, [2000, 0, 2000], [2, 0, 1])
    np.testing.assert_array_equal(knockout.stacks, [7000, 3000, 0])
    np.testing.assert_array_equal(knockout.cash, [10, 0, 0])
    np.testing.assert_array_equal(knockout.bounties, [20, 10, 0])
    value = bounty.showdown_value(knockout, [50, 30, 20])
    np.testing.assert_allclose(value.prize, [44, 36, 20], rtol=1e-14)
    np.testing.assert_allclose(value.bounty, [31, 9, 0], rtol=1e-14)
    result = bounty.bubble_factors([5000, 3000, 2000], [50, 30, 20], [10, 10, 20], 0.5)
    assert result.equity[0] == pytest.approx(1635 / 28, rel=1e-14)
    assert result.bubble_factor[0, 2] == pytest.approx(79 / 93, rel=1e-13)
    assert result.required_equity[0, 2] == pytest.approx(79 / 172, rel=1e-13)


# ---------------------------------------------------------------------------------------- spots


def spot_from_case(case):
    args = (case["stacks"], case["payouts"], case["small_blind"], case["big_blind"], case["ante"], case["shover"],
            case["caller"], case["small_blind_player"], case["big_blind_player"])
    maker = icm_spot.call_spot if case["side"] == "call" else icm_spot.shove_spot
    return maker(*args, big_blind_ante=case["big_blind_ante"], bounties=case["bounties"], bounty_share=case["share"])


def check_spot(case, expected):
    spot = spot_from_case(case)
    scale = sum(case["payouts"]) + sum(case["bounties"])
    for outcome, field in expected["fields"].items():
        assert_exact(spot.fields[outcome], field, sum(case["stacks"]))
        assert_exact([spot.equity[outcome], spot.bounty[outcome]],
                     [expected["equity"][outcome], expected["bounty"][outcome]], scale)
    win, tie, lose = case["probabilities"]
    if case["side"] == "call":
        parts, total = spot.ev_parts(win, tie, lose), spot.ev_difference(win, tie, lose)
        assert_exact([spot.required_total], [expected["required_total"]], 1.0)
    else:
        call = case["call_probability"]
        parts, total = spot.ev_parts(call, win, tie, lose), spot.ev_difference(call, win, tie, lose)
    assert_exact(list(parts) + [total], [expected["ev_icm"], expected["ev_bounty"],
                                         Fraction(expected["ev_icm"]) + Fraction(expected["ev_bounty"])], scale)


@pytest.mark.slow
def test_spots_match_the_brute_force():
    for case in reference.SPOTS:
        check_spot(case, reference.spot(case))
    rng = np.random.default_rng(5)
    for n in range(2, 7):
        for _ in range(6):
            stacks, payouts, bounties, share = random_field(rng, n, zeros=False)
            stacks = stacks * 20 + 40  # above what anyone posts: nobody is all in for an ante or a blind
            shover, caller = (int(p) for p in rng.choice(n, 2, replace=False))
            sb_player, bb_player = (int(p) for p in rng.choice(n, 2, replace=False))
            win = float(rng.integers(0, 17)) / 16
            tie = float(rng.integers(0, 17 - int(16 * win))) / 16
            case = {"side": str(rng.choice(["call", "shove"])), "stacks": stacks.tolist(), "payouts": payouts.tolist(),
                    "bounties": bounties.tolist(), "share": share, "small_blind": 5, "big_blind": 10,
                    "ante": float(rng.choice([0, 1.25])), "big_blind_ante": float(rng.choice([0, 10])),
                    "shover": shover, "caller": caller, "small_blind_player": sb_player,
                    "big_blind_player": bb_player, "probabilities": [win, tie, 1 - win - tie],
                    "call_probability": float(rng.integers(0, 9)) / 8}
            check_spot(case, reference.spot(case))


def test_spot_without_bounties_is_the_plain_icm_spot():
    args = ([1500, 1000, 500], [65, 35], 1, 2, 0.25, 0, 2)
    plain, zero = icm_spot.call_spot(*args), icm_spot.call_spot(*args, bounties=[0, 0, 0], bounty_share=0.5)
    assert plain.equity == zero.equity and plain.total == plain.equity and zero.required_total == plain.required_icm
    assert zero.ev_difference(0.45, 0.04, 0.51) == plain.ev_difference(0.45, 0.04, 0.51)
    assert plain.ev_parts(0.45, 0.04, 0.51)[1] == 0


def test_a_covered_shover_pays_his_bounty_to_the_caller():
    """Player 3 (500) calls player 1 (1500): winning doubles him up, no knockout; losing busts him.
    On the shover's side, player 1's win knocks out player 3 and takes half his bounty in cash."""
    call = icm_spot.call_spot([1500, 1000, 500], [65, 35], 1, 2, 0.25, 0, 2, bounties=[25, 25, 40], bounty_share=0.5)
    assert call.bounty["lose"] == 0 and call.bounty["win"] == pytest.approx(1000.25 / 3000 * 90)
    shove = icm_spot.shove_spot([1500, 1000, 500], [65, 35], 1, 2, 0.25, 0, 2, bounties=[25, 25, 40], bounty_share=0.5)
    assert shove.bounty["win"] == pytest.approx(20 + 2000.25 / 3000 * 70)


# -------------------------------------------------------------------------------------- fixtures


def test_the_fixture_file_is_the_brute_force():
    """tests/fixtures/bounty.json (for a JavaScript port) is what tests/bounty_reference.py writes."""
    assert reference.FIXTURE.read_text() == reference.fixture_text(), "rerun tests/bounty_reference.py"


def test_the_kernel_matches_the_fixture_file():
    fixtures = json.loads(reference.FIXTURE.read_text())
    for case in fixtures["values"]:
        result = bounty.position_value(case["stacks"], case["payouts"], case["bounties"])
        scale = sum(case["payouts"]) + sum(case["bounties"])
        assert_exact(result.prize, case["prize"], scale)
        assert_exact(result.bounty, case["bounty"], scale)
    for case in fixtures["showdowns"]:
        result = bounty.showdown(case["stacks"], case["bounties"], case["share"], case["committed"],
                                 case["strength"], case["dead"])
        value = bounty.showdown_value(result, case["payouts"])
        scale = sum(case["payouts"]) + sum(case["bounties"])
        for got, want in ((result.stacks, "after"), (result.bounties, "bounties_after"), (result.cash, "cash"),
                          (value.prize, "prize"), (value.bounty, "bounty")):
            assert_exact(got, case[want], scale)
    for case in fixtures["bubble"]:
        result = bounty.bubble_factors(case["stacks"], case["payouts"], case["bounties"], case["share"])
        assert_exact(result.equity, case["equity"], sum(case["payouts"]) + sum(case["bounties"]))
        assert_exact(nullable(result.required_equity), case["required_equity"], 1.0)
    for case in fixtures["spots"]:
        check_spot(case, case)


# ----------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "bounties, share, fragment",
    [
        ([10, -1, 5], 0.5, "bounties: entry 2 is negative (-1)"),
        ([10, 5], 0.5, "bounties: 2 bounties for 3 players; give one per player (0 for none)"),
        ([10, 5, float("nan")], 0.5, "bounties: entry 3 is not a finite number"),
        ([10, 5, 5], 1.5, "bounty share: 1.5 is outside [0, 1]"),
        ([10, 5, 5], -0.5, "bounty share: -0.5 is outside [0, 1]"),
        ([10, 5, 5], float("nan"), "bounty share: nan is outside [0, 1]"),
        ([10, 5, 5], "half", "bounty share: not a number (half)"),
        ([10, 5, "x"], 0.5, "bounties: entry 3 is not a number (x)"),
    ],
)
def test_bad_bounties_are_refused(bounties, share, fragment):
    with pytest.raises(ValueError, match=None) as error:
        bounty.bubble_factors([50, 30, 20], [70, 30], bounties, share)
    assert fragment in str(error.value)


def test_a_bounty_on_a_busted_player_is_refused():
    with pytest.raises(ValueError, match="player 3 has no chips but a bounty of 5"):
        bounty.position_value([50, 30, 0], [70, 30], [10, 10, 5])


@pytest.mark.parametrize(
    "committed, strength, fragment",
    [
        ([10, 60, 0], [1, 2, 0], "player 2 puts in 60, more than his stack of 50"),
        ([10, 50, 0], [0, 0, 0], "nobody is in the showdown"),
        ([10, 0, 5], [1, 2, 0], "player 2 is in the showdown but puts nothing in"),
        ([10, 20, 20], [1, 2, 0], "player 3 puts in his whole stack, so he is all in"),
        ([10, 20, 15], [1, 2, 0.5], "hand strengths must be whole numbers"),
        ([10, 20, 0, 19], [1, 2, 0, 0], "4 bets and 4 strengths for 3 players"),
    ],
)
def test_bad_showdowns_are_refused(committed, strength, fragment):
    with pytest.raises(ValueError) as error:
        bounty.showdown([10, 50, 20], [5, 5, 5], 0.5, committed, strength)
    assert fragment in str(error.value)


def test_a_player_with_a_bounty_put_all_in_by_the_ante_is_refused():
    with pytest.raises(ValueError, match="player 3 \\(bounty 5\\) is left with no chips by the antes or blinds"):
        icm_spot.call_spot([1500, 1000, 0.5], [65, 35], 1, 2, 1, 0, 1, bounties=[5, 5, 5])
    spot = icm_spot.call_spot([1500, 1000, 0.5], [65, 35], 1, 2, 1, 0, 1, bounties=[5, 5, 0])  # no bounty: as ICM
    assert spot.bounty["fold"] == pytest.approx(997 / 2500.5 * 10, rel=1e-14)  # 1000 - ante 1 - BB 2


def test_stack_bounties_are_a_fraction_of_each_stack_at_chip_value():
    """Chip EV: the fraction of each stack (bb); ICM: of each stack's share of the pool, so they add up to the fraction of
    the pool; a busted player has none."""
    from kernels.icm.bounty import stack_bounties

    assert stack_bounties([10.0, 10.0, 10.0], 0.5).tolist() == [5.0, 5.0, 5.0]
    icm = stack_bounties([20.0, 15.0, 10.0, 5.0], 0.5, 100.0)
    assert np.allclose(icm, [20.0, 15.0, 10.0, 5.0], rtol=1e-15) and icm.sum() == pytest.approx(50.0, rel=1e-15)
    assert stack_bounties([30.0, 0.0, 10.0], 1.0, 65.0).tolist() == pytest.approx([48.75, 0.0, 16.25], rel=1e-15)
