"""``allin icm --bounties`` and ``allin icm-spot --bounties`` (KO/PKO): text and JSON agree with
kernels/icm/bounty.py and kernels/icm/spot.py, and every bad input is one ``Error:`` line with exit code 2."""

import json

from click.testing import CliRunner
import numpy as np
import pytest

from generator.cli.icm import icm_command, icm_spot_command
from kernels.icm import bounty, spot as icm_spot

FIELD = ["--stacks", "5000 3000 2000", "--payouts", "50 30 20"]
SPOT = ["--stacks", "1500 1000 500", "--payouts", "65 35", "--blinds", "1 2", "--ante", "0.25", "--range", "22+,A2s+"]


def run(command, *args):
    return CliRunner().invoke(command, list(args))


def assert_one_line_exit_2(result, fragment):
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error:") and fragment in lines[0], result.output


def test_icm_splits_the_equity_into_prize_bounty_and_total():
    """The worked example of docs/icm.md: bounty equity = chip share x 40 (20, 12, 8)."""
    result = run(icm_command, *FIELD, "--bounties", "10 10 20", "--bounty-share", "0.5")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[1].startswith("Bounties: 40 on heads (PKO: 50% of a bounty paid in cash at a knockout, 50% added")
    assert lines[3].split() == ["player", "stack", "chips", "bounty", "prize", "bounty", "eq", "total", "1st", "2nd", "3rd"]
    assert lines[4].split()[:7] == ["1", "5,000", "50.00%", "10", "38.3929", "20.0000", "58.3929"]
    data = json.loads(run(icm_command, *FIELD, "--bounties", "10 10 20", "--bounty-share", "50%", "--json").output)
    value = bounty.position_value([5000, 3000, 2000], [50, 30, 20], [10, 10, 20])
    assert data["bounties"] == [10, 10, 20] and data["bounty_share"] == 0.5
    assert data["prize_equity"] == value.prize.tolist() and data["bounty_equity"] == value.bounty.tolist()
    assert data["equity"] == value.total.tolist() and len(data["places"]) == 3
    assert "regular KO" in run(icm_command, *FIELD, "--bounties", "10 10 20").output  # the default share is 1


def test_icm_bubble_factors_with_bounties():
    result = run(icm_command, *FIELD, "--bounties", "10 10 20", "--bounty-share", "0.5", "--bubble-factors")
    assert result.exit_code == 0, result.output
    expected = bounty.bubble_factors([5000, 3000, 2000], [50, 30, 20], [10, 10, 20], 0.5)
    rows = result.output.splitlines()
    header = rows.index("i \\ j     1     2     3")
    assert rows[header + 1].split() == ["1", "-", f"{expected.bubble_factor[0, 1]:.2f}", f"{expected.bubble_factor[0, 2]:.2f}"]
    assert expected.bubble_factor[0, 2] < 1 and "below 1.00" in result.output
    data = json.loads(run(icm_command, *FIELD, "--bounties", "10 10 20", "--bounty-share", "0.5", "--bubble-factors",
                          "--json").output)
    assert data["bounty_share"] == 0.5 and data["equity"] == expected.equity.tolist()
    assert data["bubble_factors"][0][0] is None and data["bubble_factors"][0][2] == expected.bubble_factor[0, 2]


def test_icm_spot_shows_the_bounty_term_apart():
    """Player 1 (1500) covers the shover, player 3 (500): calling with AJo is a fold under ICM alone
    and a call with PKO bounties 25/25/40 (the win knocks player 3 out)."""
    args = [*SPOT, "--shover", "3", "--caller", "1", "--hand", "AJo", "--bounties", "25 25 40", "--bounty-share", "0.5"]
    spot = icm_spot.call_spot([1500, 1000, 500], [65, 35], 1, 2, 0.25, 2, 0, bounties=[25, 25, 40], bounty_share=0.5)
    data = json.loads(run(icm_spot_command, *args, "--json").output)
    assert data["caller_bounty_equity"] == spot.bounty and data["required_equity_total"] == spot.required_total
    hero = data["hero"]
    win, tie, lose = hero["win"], hero["tie"], hero["lose"]
    assert hero["ev_call_minus_fold"] == pytest.approx(spot.ev_difference(win, tie, lose), rel=1e-12)
    assert [hero["ev_icm"], hero["ev_bounty"]] == pytest.approx(list(spot.ev_parts(win, tie, lose)), rel=1e-12)
    assert hero["ev_icm"] < 0 < hero["ev_call_minus_fold"]
    aa = data["hands"]["AA"]
    assert aa["ev_icm"] + aa["ev_bounty"] == pytest.approx(aa["ev_call_minus_fold"], rel=1e-14)
    text = run(icm_spot_command, *args).output
    assert f"Equity needed to call: {spot.required_total:.2%} with bounties ({spot.required_icm:.2%} under ICM alone)" in text
    assert "call and win 66.6725 (knocking out player 3)" in text
    assert f"of the prize pool): call (ICM {hero['ev_icm']:+,.6g}, bounties {hero['ev_bounty']:+,.6g})." in text


def test_icm_spot_shove_side_with_bounties():
    args = [*SPOT, "--shover", "1", "--caller", "3", "--side", "shove", "--bounties", "25 25 40", "--bounty-share", "1"]
    spot = icm_spot.shove_spot([1500, 1000, 500], [65, 35], 1, 2, 0.25, 0, 2, bounties=[25, 25, 40], bounty_share=1)
    data = json.loads(run(icm_spot_command, *args, "--json").output)
    assert data["shover_bounty_equity"] == spot.bounty and data["bounty_share"] == 1
    seven_two = data["hands"]["72o"]
    chances = (seven_two["call_probability"], seven_two["win"], seven_two["tie"], 1 - seven_two["win"] - seven_two["tie"])
    assert [seven_two["ev_icm"], seven_two["ev_bounty"]] == pytest.approx(list(spot.ev_parts(*chances)), rel=1e-10)
    text = run(icm_spot_command, *args).output
    assert spot.bounty["win"] == pytest.approx(40 + 2000.25 / 3000 * 50, rel=1e-14)  # KO: all 40 in cash
    assert "Bounties: 90 on heads (regular KO" in text and "called and win 73.3375 (knocking out player 3)" in text
    assert "EV(shove) - EV(fold) with bounties in % of the prize pool" in text


def test_without_bounties_the_output_is_unchanged():
    plain = run(icm_spot_command, *SPOT, "--shover", "1", "--caller", "3", "--hand", "AJo", "--json")
    assert not {"bounties", "caller_bounty_equity", "required_equity_total"} & set(json.loads(plain.output))
    assert "ev_icm" not in json.loads(plain.output)["hero"]
    assert set(json.loads(run(icm_command, *FIELD, "--json").output)) == {
        "players", "paid", "payouts_unit", "equity", "places", "method"}


@pytest.mark.parametrize(
    "extra, fragment",
    [
        (["--bounties", "10 -1 5"], "bounties: entry 2 is negative (-1)"),
        (["--bounties", "10 5"], "bounties: 2 bounties for 3 players; give one per player (0 for none)"),
        (["--bounties", "10 5 x"], "--bounties: entry 3 is not a number (x)"),
        (["--bounties", "10 5 inf"], "--bounties: entry 3 must be a finite number"),
        (["--bounties", "10 5 5", "--bounty-share", "1.5"], "--bounty-share: 1.5 is outside 0 to 1 (0% to 100%)"),
        (["--bounties", "10 5 5", "--bounty-share", "-10%"], "--bounty-share: -10% is outside 0 to 1"),
        (["--bounties", "10 5 5", "--bounty-share", "half"], "--bounty-share: not a number: half"),
        (["--bounty-share", "0.5"], "--bounty-share needs --bounties"),
        (["--bounties", "10 5 5", "--payouts", "50% 30% 20%"], "--bounties: give the payouts as amounts"),
        (["--bounties", "10 5 5", "--stacks", "50 30 0"], "bounties: player 3 has no chips but a bounty of 5"),
    ],
)
@pytest.mark.parametrize("command", ["icm", "icm --bubble-factors", "icm-spot"])
def test_bad_bounties_are_one_line_exit_2(command, extra, fragment):
    if command == "icm-spot":
        result = run(icm_spot_command, *SPOT, "--shover", "1", "--caller", "2", *extra)
    else:
        args = [*FIELD, *extra] + (["--bubble-factors"] if "bubble" in command else [])
        result = run(icm_command, *args)
    assert_one_line_exit_2(result, fragment)


def test_a_bounty_on_a_player_all_in_for_the_ante_is_one_line_exit_2():
    result = run(icm_spot_command, "--stacks", "1500 1000 0.25", "--payouts", "65 35", "--blinds", "1 2", "--ante",
                 "0.25", "--range", "22+", "--shover", "1", "--caller", "2", "--bounties", "25 25 40")
    assert_one_line_exit_2(result, "player 3 (bounty 40) is left with no chips by the antes or blinds")
    ok = run(icm_spot_command, "--stacks", "1500 1000 0.25", "--payouts", "65 35", "--blinds", "1 2", "--ante",
             "0.25", "--range", "22+", "--shover", "1", "--caller", "2", "--bounties", "25 25 0", "--json")
    assert ok.exit_code == 0 and np.isfinite(json.loads(ok.output)["hands"]["AA"]["ev_bounty"])
