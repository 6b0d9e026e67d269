"""Call or fold under ICM (kernels/icm/spot.py, allin icm-spot): fields, required equity, equity
against a range from the class tables, EV(call) - EV(fold), against direct computations."""

import json

from click.testing import CliRunner
import numpy as np
import pytest

from generator.cli.icm import icm_spot_command
from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages.headsup import headsup_results
from kernels.icm import harville as icm, spot as icm_spot
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, CLASS_NAMES, COMBO_CLASS, parse_class
from kernels.headsup.cpu import combo_matchup_counts
from kernels.ranges import parse_range, ranking_from_equity

STACKS = [1500.0, 1000.0, 500.0]
PAYOUTS = [65.0, 35.0]


def test_fields_of_the_example_by_hand():
    """Player 1 (SB 1) shoves, player 3 (BB 2) calls or folds, ante 0.25 each. Behind the antes:
    1499.75 / 999.75 / 499.75. Fold: player 3 keeps 497.75, player 1 takes antes 0.75 + BB 2 (1502.5).
    Call: both put in 499.75, the pot is 0.75 + 999.5 = 1000.25."""
    fields = icm_spot.spot_fields(STACKS, 1, 2, 0.25, shover=0, caller=2, small_blind_player=0, big_blind_player=2)
    np.testing.assert_allclose(fields["fold"], [1502.5, 999.75, 497.75])
    np.testing.assert_allclose(fields["win"], [1000.0, 999.75, 1000.25])
    np.testing.assert_allclose(fields["lose"], [2000.25, 999.75, 0.0])
    np.testing.assert_allclose(fields["tie"], [1500.125, 999.75, 500.125])
    for field in fields.values():
        assert field.sum() == pytest.approx(sum(STACKS))


def test_dead_blind_of_a_third_player_goes_to_the_pot():
    fields = icm_spot.spot_fields(STACKS, 1, 2, 0.0, shover=0, caller=2, small_blind_player=1, big_blind_player=2)
    np.testing.assert_allclose(fields["fold"], [1503.0, 999.0, 498.0])
    np.testing.assert_allclose(fields["win"], [1000.0, 999.0, 1001.0])  # pot = SB 1 (dead) + 2 x 500


def test_big_blind_ante_fields_by_hand():
    """Player 1 (SB 1) shoves, player 3 (BB 2) posts a BB ante of 2 for the table and calls or folds.
    Behind the antes: 1500 / 1000 / 498. Fold: player 3 keeps 496, player 1 takes BB ante 2 + BB 2 (1504).
    Call: both put in 498, the pot is 2 + 996 = 998."""
    fields = icm_spot.spot_fields(STACKS, 1, 2, 0.0, shover=0, caller=2, small_blind_player=0, big_blind_player=2,
                                  big_blind_ante=2)
    np.testing.assert_allclose(fields["fold"], [1504.0, 1000.0, 496.0])
    np.testing.assert_allclose(fields["win"], [1002.0, 1000.0, 998.0])
    np.testing.assert_allclose(fields["tie"], [1501.0, 1000.0, 499.0])
    np.testing.assert_allclose(fields["lose"], [2000.0, 1000.0, 0.0])
    both = icm_spot.spot_fields(STACKS, 1, 2, 0.25, shover=0, caller=2, small_blind_player=0, big_blind_player=1,
                                big_blind_ante=3)  # a third player's BB ante and BB are dead, on top of the antes
    np.testing.assert_allclose(both["fold"], [1500 - 0.25 + 0.75 + 3 + 2, 1000 - 0.25 - 3 - 2, 499.75])
    np.testing.assert_allclose(both["win"], [1499.75 - 499.75, 994.75, 499.75 + 0.75 + 3 + 2 + 499.75])
    short = icm_spot.spot_fields([1500, 1000, 1.5], 1, 2, 0.0, shover=0, caller=1, small_blind_player=0,
                                 big_blind_player=2, big_blind_ante=2)  # the BB ante takes his whole stack
    np.testing.assert_allclose(short["fold"], [1501.5, 1000.0, 0.0])
    for total, outcome_fields in ((3000.0, fields), (3000.0, both), (2501.5, short)):
        for field in outcome_fields.values():
            assert field.sum() == pytest.approx(total)  # chips are conserved


def test_big_blind_ante_spot_matches_direct_computation():
    """call_spot and shove_spot with a BB ante: every equity is the DP's on the hand-made field, the
    required equity is the break-even, and the shover's fold field gives the BB ante to the caller."""
    spot = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.0, shover=0, caller=2, big_blind_ante=2)
    direct = {"fold": [1504, 1000, 496], "win": [1002, 1000, 998], "tie": [1501, 1000, 499], "lose": [2000, 1000, 0]}
    for outcome, field in direct.items():
        assert spot.equity[outcome] == pytest.approx(icm.prize_equity(field, PAYOUTS, method="dp").equity[2], rel=1e-12)
    p = spot.required_icm
    assert p * spot.equity["win"] + (1 - p) * spot.equity["lose"] == pytest.approx(spot.equity["fold"], rel=1e-12)
    assert spot.required_chips == pytest.approx(496 / 998, rel=1e-12)
    shove = icm_spot.shove_spot(STACKS, PAYOUTS, 1, 2, 0.0, shover=0, caller=2, big_blind_ante=2)
    np.testing.assert_allclose(shove.fields["fold"], [1499, 1000, 501])  # SB 1 to the BB, who keeps his BB ante
    assert shove.equity["steal"] == pytest.approx(icm.prize_equity([1504, 1000, 496], PAYOUTS, method="dp").equity[0])
    with pytest.raises(ValueError, match="blinds and antes must be >= 0"):
        icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.0, shover=0, caller=2, big_blind_ante=-1)


def test_required_equity_is_the_break_even_of_the_outcomes():
    spot = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    equity = {k: icm.prize_equity(f, PAYOUTS, method="dp").equity[2] for k, f in spot.fields.items()}
    p = spot.required_icm
    assert p * equity["win"] + (1 - p) * equity["lose"] == pytest.approx(equity["fold"], rel=1e-12)
    assert spot.required_chips == pytest.approx(497.75 / 1000.25, rel=1e-12)
    assert spot.required_icm > spot.required_chips + 0.05  # the bubble: calling off needs much more
    assert spot.ev_difference(p, 0.0, 1 - p) == pytest.approx(0.0, abs=1e-12)


def test_winner_take_all_requires_the_chip_equity():
    spot = icm_spot.call_spot(STACKS, [100.0], 1, 2, 0.25, shover=0, caller=2)
    assert spot.required_icm == pytest.approx(spot.required_chips, rel=1e-12)


def combo_outcomes(hero_combo: int, villain_weights, tables) -> np.ndarray:
    """Weighted win, tie, lose counts of one hero combo against every card-compatible villain combo
    over all 1,712,304 boards: no class table involved."""
    totals = np.zeros(3)
    a, b = ALL_COMBOS[hero_combo]
    for villain_combo in np.flatnonzero(villain_weights > 0):
        c, d = ALL_COMBOS[villain_combo]
        if len({a, b, c, d}) < 4:
            continue
        totals += villain_weights[villain_combo] * combo_matchup_counts(int(a), int(b), int(c), int(d), *tables)
    return totals


def direct_outcomes(hero: str, range_text: str) -> tuple[float, float, float]:
    """P(win, tie, lose) of the hero class against the range by enumerating every hero combo x every
    card-compatible villain combo (weighted) over all 1,712,304 boards: no class table involved."""
    weights = parse_range(range_text).weights
    tables = evaluator_tables()[:5]
    totals = sum(combo_outcomes(hero_combo, weights, tables) for hero_combo in np.flatnonzero(COMBO_CLASS == parse_class(hero)))
    return tuple(totals / totals.sum())


@pytest.mark.slow
def test_equity_and_ev_against_a_range_match_direct_enumeration_with_card_removal():
    """AA against 0.5(KK), AKs: each AA combo meets 3 of the 4 AKs combos (card removal) and all KK."""
    range_text = "0.5(KK), AKs"
    headsup, _ = headsup_results(progress=False)
    weights = icm_spot.class_weights(parse_range(range_text).weights)
    outcomes = icm_spot.outcomes_vs_range(headsup.win, headsup.tie, headsup.loss, weights)[parse_class("AA")]
    expected = direct_outcomes("AA", range_text)
    np.testing.assert_allclose(outcomes, expected, rtol=1e-12)
    spot = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    win, tie, lose = expected
    direct_ev = win * spot.equity["win"] + tie * spot.equity["tie"] + lose * spot.equity["lose"] - spot.equity["fold"]
    assert spot.ev_difference(*outcomes) == pytest.approx(direct_ev, rel=1e-12)


def run(*args):
    return CliRunner().invoke(icm_spot_command, list(args))


BASE = ["--stacks", "1500 1000 500", "--payouts", "65 35", "--blinds", "1 2", "--ante", "0.25", "--shover", "1", "--caller", "3"]


def test_cli_hand_text_and_json_agree_with_the_kernel():
    spot = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    text = run(*BASE, "--range", "22+,A2s+", "--hand", "AJo")
    assert text.exit_code == 0, text.output
    assert f"{spot.required_icm:.2%} under ICM, {spot.required_chips:.2%} in chips" in text.output
    data = json.loads(run(*BASE, "--range", "22+,A2s+", "--hand", "AJo", "--json").output)
    assert data["required_equity_icm"] == pytest.approx(spot.required_icm, rel=1e-12)
    aj = data["hands"]["AJo"]
    assert aj["ev_call_minus_fold"] == pytest.approx(spot.ev_difference(aj["win"], aj["tie"], 1 - aj["win"] - aj["tie"]))
    assert f"{aj['ev_call_minus_fold']:+,.6g}" in text.output and "fold." in text.output
    assert data["hands"]["AA"]["ev_call_minus_fold"] > 0 and len(data["hands"]) == 169
    chart = run(*BASE, "--range", "20%")
    assert chart.exit_code == 0 and len(chart.output.strip().splitlines()) == 4 + 2 + 14


@pytest.mark.slow
def test_cli_hero_range_matches_a_direct_computation_over_every_combo():
    """--hand "AA, 0.5(KQs)" against "KK, AKs" on both sides: the CLI's averages equal the mean over
    every hero combo (weight 1 or 0.5) of its own EV, each combo's win/tie/lose and P(call) counted
    against its card-compatible villain combos over all boards (AA blocks AKs, KQs blocks KK and AKs)."""
    hero_weights, villain = parse_range("AA, 0.5(KQs)").weights, parse_range("KK, AKs").weights
    tables = evaluator_tables()[:5]
    call = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    shove = icm_spot.shove_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    direct = {"call": np.zeros(5), "shove": np.zeros(5)}  # win, tie, lose, EV, P(call), weighted sums
    for hero_combo in np.flatnonzero(hero_weights > 0):
        counts = combo_outcomes(hero_combo, villain, tables)
        win, tie, lose = counts / counts.sum()
        compatible = [v for v in range(len(ALL_COMBOS)) if not set(ALL_COMBOS[v]) & set(ALL_COMBOS[hero_combo])]
        p_call = villain[compatible].sum() / len(compatible)
        w = hero_weights[hero_combo]
        direct["call"] += w * np.array([win, tie, lose, call.ev_difference(win, tie, lose), 0.0])
        direct["shove"] += w * np.array([win, tie, lose, shove.ev_difference(p_call, win, tie, lose), p_call])
    assert hero_weights.sum() == 8  # 6 AA + 4 x 0.5 KQs
    for side in ("call", "shove"):
        expected = direct[side] / hero_weights.sum()
        result = run(*BASE, "--side", side, "--range", "KK, AKs", "--hand", "AA, 0.5(KQs)", "--json")
        assert result.exit_code == 0, result.output
        hero = json.loads(result.output)["hero"]
        assert hero["hand"] == "AA, 0.5(KQs)" and hero["classes"] == 2 and hero["combos"] == 8
        got = [hero["win"], hero["tie"], hero["lose"], hero[f"ev_{side}_minus_fold"]]
        np.testing.assert_allclose(got, expected[:4], rtol=1e-12, atol=1e-14)
        assert hero["ev_percent_of_pool"] == pytest.approx(expected[3], rel=1e-12)  # pool 100
        if side == "shove":
            assert hero["call_probability"] == pytest.approx(expected[4], rel=1e-12)
        text = run(*BASE, "--side", side, "--range", "KK, AKs", "--hand", "AA, 0.5(KQs)").output
        assert "AA, 0.5(KQs) (average over 8 combos)" in text and f"{hero[f'ev_{side}_minus_fold']:+,.6g}" in text


def test_cli_hero_percent_range_is_the_average_of_its_classes():
    """--hand 20%: the JSON averages are the combo-weighted means of the 169 per-class rows."""
    data = json.loads(run(*BASE, "--range", "22+,A2s+", "--hand", "20%", "--json").output)
    headsup, _ = headsup_results(progress=False)
    weights = icm_spot.class_weights(parse_range("20%", ranking_from_equity(headsup.vs_random_equity())).weights)
    combos = weights * CLASS_COMBO_COUNT
    ev = np.array([data["hands"][name]["ev_call_minus_fold"] for name in CLASS_NAMES])
    assert data["hero"]["combos"] == pytest.approx(combos.sum()) and 260 <= combos.sum() <= 270
    assert data["hero"]["ev_call_minus_fold"] == pytest.approx((combos * ev).sum() / combos.sum(), rel=1e-12)


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--range", "22+,AsKs"], "--range: the range weights single combos"),
        (["--range", "22+,AXs"], "--range: token"),
        (["--range", "22+", "--hand", "AJx"], "--hand:"),
        (["--range", "22+", "--hand", "TT+,AXs"], '--hand: token "AXs"'),
        (["--range", "22+", "--hand", "AsKs"], "--hand: the range weights single combos"),
        (["--range", "22+", "--hand", "0(AA)"], "--hand: the range is empty"),
        (["--range", "22+", "--blinds", "1 2 3"], "--blinds: give the small and the big blind"),
        (["--range", "22+", "--shover", "3"], "different players"),
        (["--range", "22+", "--caller", "4"], "--caller: player 4 is not in the field of 3 players"),
        (["--range", "22+", "--ante", "inf"], "--ante: must be a finite number, got inf"),
        (["--range", "22+", "--bb-ante", "-2"], "blinds and antes must be >= 0"),
        (["--range", "22+", "--bb-ante", "2x"], "--bb-ante: not a number: 2x"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(extra, fragment):
    args = list(BASE)
    for option, value in zip(extra[::2], extra[1::2]):
        if option in args:
            args[args.index(option) + 1] = value
        else:
            args += [option, value]
    result = run(*args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and fragment in lines[0], result.output


def test_shover_fields_by_hand():
    """Player 1 (SB 1) shoves or folds, player 3 (BB 2), ante 0.25. Fold: player 1 keeps 1498.75, player 3
    takes the antes 0.75 and the SB 1 (501.5). Steal, win, tie, lose: the caller's fields seen from player 1."""
    spot = icm_spot.shove_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    np.testing.assert_allclose(spot.fields["fold"], [1498.75, 999.75, 501.5])
    np.testing.assert_allclose(spot.fields["steal"], [1502.5, 999.75, 497.75])
    np.testing.assert_allclose(spot.fields["win"], [2000.25, 999.75, 0.0])
    np.testing.assert_allclose(spot.fields["lose"], [1000.0, 999.75, 1000.25])
    for outcome, field in spot.fields.items():
        assert spot.equity[outcome] == pytest.approx(icm.prize_equity(field, PAYOUTS, method="dp").equity[0], rel=1e-12)


@pytest.mark.slow
def test_shove_ev_matches_direct_enumeration_with_card_removal():
    """KK shoves into a caller with AA, AKs: of the AKs combos only those without the hero's kings
    remain (2 of 4 per KK combo), so P(call) = (6 + 2) / 1225; counted here combo by combo."""
    range_text = "AA, AKs"
    headsup, _ = headsup_results(progress=False)
    weights = icm_spot.class_weights(parse_range(range_text).weights)
    hero = parse_class("KK")
    calls = icm_spot.call_probability(headsup.pairs, weights)[hero]
    villain = parse_range(range_text).weights
    counted = []
    for hero_combo in np.flatnonzero(COMBO_CLASS == hero):
        compatible = [v for v in range(len(ALL_COMBOS)) if not set(ALL_COMBOS[v]) & set(ALL_COMBOS[hero_combo])]
        counted.append(villain[compatible].sum() / len(compatible))
    assert calls == pytest.approx(np.mean(counted), rel=1e-14) and calls == pytest.approx(8 / 1225, rel=1e-14)
    win, tie, lose = direct_outcomes("KK", range_text)
    spot = icm_spot.shove_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    direct = (1 - calls) * spot.equity["steal"] + calls * (
        win * spot.equity["win"] + tie * spot.equity["tie"] + lose * spot.equity["lose"]) - spot.equity["fold"]
    outcomes = icm_spot.outcomes_vs_range(headsup.win, headsup.tie, headsup.loss, weights)[hero]
    assert spot.ev_difference(calls, *outcomes) == pytest.approx(direct, rel=1e-12)


def test_cli_big_blind_ante():
    args = ["--stacks", "1500 1000 500", "--payouts", "65 35", "--blinds", "1 2", "--bb-ante", "2", "--shover", "1",
            "--caller", "3", "--range", "22+,A2s+", "--hand", "AJo", "--json"]
    data = json.loads(run(*args).output)
    spot = icm_spot.call_spot(STACKS, PAYOUTS, 1, 2, 0.0, shover=0, caller=2, big_blind_ante=2)
    assert data["caller_chips"]["fold"] == 496 and data["required_equity_icm"] == pytest.approx(spot.required_icm)


def test_cli_shove_side():
    data = json.loads(run(*BASE, "--side", "shove", "--range", "22+,A2s+", "--json").output)
    spot = icm_spot.shove_spot(STACKS, PAYOUTS, 1, 2, 0.25, shover=0, caller=2)
    seven_two = data["hands"]["72o"]
    assert seven_two["ev_shove_minus_fold"] == pytest.approx(spot.ev_difference(
        seven_two["call_probability"], seven_two["win"], seven_two["tie"], 1 - seven_two["win"] - seven_two["tie"]))
    text = run(*BASE, "--side", "shove", "--range", "22+,A2s+", "--hand", "72o").output
    assert f"{seven_two['ev_shove_minus_fold']:+,.6g}" in text and f"called {seven_two['call_probability']:.2%}" in text
