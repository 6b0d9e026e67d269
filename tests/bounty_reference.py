"""A brute-force reference for the bounty model of kernels/icm/bounty.py, in exact Fractions and written
without the kernel: ICM by enumerating every finishing order, pots split chip by chip (each slice of
one chip-unit contested by the players who put in that much), bubble factors and spots straight from
their definitions. Also writes tests/fixtures/bounty.json (inputs and these exact answers, as floats)
for a later JavaScript port:

    .venv/bin/python tests/bounty_reference.py
"""

from fractions import Fraction
import itertools
import json
import math
from pathlib import Path
import sys

from icm_reference import permutation_equity  # tests/ is on the path (pytest, or running this file)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "bounty.json"


def exact(values) -> list[Fraction]:
    return [Fraction(v) for v in values]


def icm(stacks, payouts) -> list[Fraction]:
    """Prize equity in exact fractions, every finishing order enumerated (tests/icm_reference.py)."""
    return permutation_equity(exact(stacks), exact(payouts))


def value(stacks, payouts, bounties, cash=None) -> tuple[list[Fraction], list[Fraction]]:
    """(prize, bounty) of each player: ICM, and cash won + (x_i / X) x all the bounties on heads."""
    stacks, bounties = exact(stacks), exact(bounties)
    cash = exact(cash) if cash is not None else [Fraction(0)] * len(stacks)
    chips, on_heads = sum(stacks), sum(bounties)
    return icm(stacks, payouts), [cash[i] + stacks[i] / chips * on_heads for i in range(len(stacks))]


def showdown(stacks, bounties, share, committed, strength, dead=0):
    """(stacks, bounties, cash) after the hand, pots split chip by chip: the t-th unit of every player
    who put in at least t units is one small pot, won by the strongest showdown player who put in at
    least t units (chopped among equals); the dead money goes to the first. A showdown player left with
    nothing is knocked out by the winner(s) of the slice of his last chip; a lone player takes all."""
    stacks, bounties, committed = exact(stacks), exact(bounties), exact(committed)
    share, dead = Fraction(share), Fraction(dead)
    n = len(stacks)
    in_hand = [i for i in range(n) if strength[i] > 0]
    after = [stacks[i] - committed[i] for i in range(n)]
    cash = [Fraction(0)] * n
    if len(in_hand) == 1:
        after[in_hand[0]] += sum(committed) + dead
        return after, bounties, cash
    denominator = math.lcm(*(c.denominator for c in committed))
    unit = Fraction(math.gcd(*(int(c * denominator) for c in committed)), denominator)
    slice_winners = {}
    for t in range(1, int(max(committed[i] for i in in_hand) / unit) + 1):
        pot = sum(unit for c in committed if c >= t * unit) + (dead if t == 1 else 0)
        contenders = [i for i in in_hand if committed[i] >= t * unit]
        best = max(strength[i] for i in contenders)
        winners = [i for i in contenders if strength[i] == best]
        for w in winners:
            after[w] += pot / len(winners)
        slice_winners[t] = winners
    bounties = list(bounties)
    for loser in in_hand:
        if after[loser] == 0:
            winners = slice_winners[int(committed[loser] / unit)]
            for w in winners:
                cash[w] += share * bounties[loser] / len(winners)
                bounties[w] += (1 - share) * bounties[loser] / len(winners)
            bounties[loser] = Fraction(0)
    return after, bounties, cash


def money(payouts, bounties) -> Fraction:
    return sum(exact(payouts)) + sum(exact(bounties))


def bubble_factors(stacks, payouts, bounties, share):
    """(factor, required, equity): the all-in of i against j for min(stack_i, stack_j) played out by
    ``showdown`` (both all in, the uncalled part returned), everyone else unchanged; None where
    undefined (diagonal, no chips, a gain of at most 1e-12 of the money)."""
    n = len(stacks)
    prize, bounty = value(stacks, payouts, bounties)
    base = [prize[i] + bounty[i] for i in range(n)]
    factor = [[None] * n for _ in range(n)]
    required = [[None] * n for _ in range(n)]
    for i, j in itertools.permutations(range(n), 2):
        if stacks[i] == 0 or stacks[j] == 0:
            continue
        committed = [0] * n
        committed[i], committed[j] = stacks[i], stacks[j]
        outcomes = []
        for strength_i in (2, 1):
            strength = [0] * n
            strength[i], strength[j] = strength_i, 3 - strength_i
            after, heads, cash = showdown(stacks, bounties, share, committed, strength)
            prize, bounty = value(after, payouts, heads, cash)
            outcomes.append(prize[i] + bounty[i])
        gain, loss = outcomes[0] - base[i], base[i] - outcomes[1]
        if gain > Fraction(1, 10**12) * money(payouts, bounties):
            factor[i][j], required[i][j] = loss / gain, loss / (gain + loss)
    return factor, required, base


def spot_bets(stacks, sb, bb, ante, bb_ante, sb_player, bb_player):
    """(behind, blinds, antes in the pot): every player posts min(ante, stack), the big blind then his
    big-blind ante (what is left, if less), the blinds min(blind, what is left)."""
    stacks = exact(stacks)
    antes = [min(Fraction(ante), s) for s in stacks]
    antes[bb_player] += min(Fraction(bb_ante), stacks[bb_player] - antes[bb_player])
    behind = [stacks[i] - antes[i] for i in range(len(stacks))]
    blinds = [Fraction(0)] * len(stacks)
    blinds[sb_player] = min(Fraction(sb), behind[sb_player])
    blinds[bb_player] = min(Fraction(bb), behind[bb_player])
    return behind, blinds, sum(antes)


def spot(case: dict) -> dict:
    """The hero's values after every outcome of the spot (``case`` as in the fixtures), each outcome
    played out by ``showdown``: the shover all in, the caller calling all in (the uncalled part comes
    back) or folding his blind, third players folding theirs; on the shove side the shover may fold
    his blind instead (the caller, alone, takes the pot)."""
    shover, caller = case["shover"], case["caller"]
    behind, blinds, dead = spot_bets(case["stacks"], case["small_blind"], case["big_blind"], case["ante"],
                                     case["big_blind_ante"], case["small_blind_player"], case["big_blind_player"])
    n = len(behind)

    def play(committed_by, strength_by):
        committed = list(blinds)
        strength = [0] * n
        for player, amount in committed_by.items():
            committed[player] = amount
        for player, strength_value in strength_by.items():
            strength[player] = strength_value
        after, heads, cash = showdown(behind, case["bounties"], case["share"], committed, strength, dead)
        prize, bounty = value(after, case["payouts"], heads, cash)
        return after, prize, bounty

    all_in = {shover: behind[shover], caller: behind[caller]}
    caller_outcomes = {
        "fold": play({shover: behind[shover]}, {shover: 1}),
        "win": play(all_in, {shover: 1, caller: 2}),
        "tie": play(all_in, {shover: 1, caller: 1}),
        "lose": play(all_in, {shover: 2, caller: 1}),
    }
    if case["side"] == "call":
        hero, outcomes = caller, caller_outcomes
    else:
        hero = shover
        outcomes = {"fold": play({}, {caller: 1}), "steal": caller_outcomes["fold"], "win": caller_outcomes["lose"],
                    "tie": caller_outcomes["tie"], "lose": caller_outcomes["win"]}
    result = {"fields": {o: after for o, (after, _, _) in outcomes.items()},
              "equity": {o: prize[hero] for o, (_, prize, _) in outcomes.items()},
              "bounty": {o: bounty[hero] for o, (_, _, bounty) in outcomes.items()}}
    total = {o: result["equity"][o] + result["bounty"][o] for o in outcomes}
    win, tie, lose = exact(case["probabilities"])
    parts = []
    for values in (result["equity"], result["bounty"]):
        called = win * values["win"] + tie * values["tie"] + lose * values["lose"]
        if case["side"] == "call":
            parts.append(called - values["fold"])
        else:
            call = Fraction(case["call_probability"])
            parts.append((1 - call) * values["steal"] + call * called - values["fold"])
    result["ev_icm"], result["ev_bounty"] = parts
    if case["side"] == "call":
        result["required_total"] = (total["fold"] - total["lose"]) / (total["win"] - total["lose"])
    return result


# ------------------------------------------------------------------------------------- fixtures

VALUES = [
    {"stacks": [5000, 3000, 2000], "payouts": [50, 30, 20], "bounties": [10, 10, 20]},
    {"stacks": [40, 25, 0, 20, 15], "payouts": [60, 30, 10], "bounties": [7.5, 5, 0, 5, 2.5]},
]

SHOWDOWNS = [
    # three all in, side pots: the short stack wins the main pot, the big stack the side pot and the
    # middle stack's bounty (only a covering stack can take it); a folded blind is dead money
    {"stacks": [10, 50, 100, 40], "bounties": [5, 5, 5, 5], "share": 0.5, "committed": [10, 50, 50, 2],
     "strength": [3, 1, 2, 0], "dead": 4, "payouts": [50, 30, 20]},
    # two players busted in one hand by the same winner
    {"stacks": [30, 20, 60, 45], "bounties": [10, 10, 10, 10], "share": 0.5, "committed": [30, 20, 30, 0],
     "strength": [1, 1, 2, 0], "dead": 0, "payouts": [65, 35]},
    # a chopped last layer: the busted player's bounty is split between the two who chopped it
    {"stacks": [25, 50, 50, 80], "bounties": [8, 6, 6, 10], "share": 0.5, "committed": [25, 50, 50, 0],
     "strength": [1, 3, 3, 0], "dead": 1.5, "payouts": [50, 30, 20]},
    # regular KO (share 1), five players, a short stack wins the main pot and no one busts him
    {"stacks": [12, 30, 30, 18, 40], "bounties": [5, 5, 5, 5, 5], "share": 1, "committed": [12, 30, 25, 18, 0],
     "strength": [4, 2, 1, 3, 0], "dead": 2.5, "payouts": [50, 30, 20]},
    # everyone else folds: the lone player takes the pot
    {"stacks": [20, 35, 15], "bounties": [4, 4, 4], "share": 0.5, "committed": [20, 1, 2],
     "strength": [1, 0, 0], "dead": 0.75, "payouts": [70, 30]},
]

BUBBLE = [
    {"stacks": [5000, 3000, 2000], "payouts": [50, 30, 20], "bounties": [10, 10, 20], "share": 0.5},
    {"stacks": [50, 30, 20], "payouts": [70, 30], "bounties": [0, 0, 0], "share": 1},
    {"stacks": [400, 250, 250, 100], "payouts": [100], "bounties": [25, 25, 25, 25], "share": 1},
    {"stacks": [30, 0, 45, 25, 60], "payouts": [50, 30, 20], "bounties": [15, 0, 10, 5, 20], "share": 0.5},
]

SPOTS = [
    {"side": "call", "stacks": [1500, 1000, 500], "payouts": [65, 35], "bounties": [25, 25, 25], "share": 0.5,
     "small_blind": 1, "big_blind": 2, "ante": 0.25, "big_blind_ante": 0, "shover": 0, "caller": 2,
     "small_blind_player": 0, "big_blind_player": 2, "probabilities": [0.4472, 0.0423, 0.5105]},
    {"side": "call", "stacks": [800, 1200, 1000, 600], "payouts": [50, 30, 20], "bounties": [15, 30, 15, 10],
     "share": 0.5, "small_blind": 10, "big_blind": 20, "ante": 0, "big_blind_ante": 20, "shover": 3, "caller": 1,
     "small_blind_player": 2, "big_blind_player": 1, "probabilities": [0.5, 0.0625, 0.4375]},
    {"side": "shove", "stacks": [1500, 1000, 500], "payouts": [65, 35], "bounties": [25, 25, 25], "share": 1,
     "small_blind": 1, "big_blind": 2, "ante": 0.25, "big_blind_ante": 0, "shover": 2, "caller": 0,
     "small_blind_player": 2, "big_blind_player": 0, "probabilities": [0.375, 0.03125, 0.59375],
     "call_probability": 0.25},
    {"side": "shove", "stacks": [700, 300, 900, 1100, 500], "payouts": [50, 30, 20], "bounties": [10, 20, 10, 10, 5],
     "share": 0.5, "small_blind": 15, "big_blind": 30, "ante": 5, "big_blind_ante": 0, "shover": 1, "caller": 3,
     "small_blind_player": 4, "big_blind_player": 3, "probabilities": [0.5, 0.0, 0.5], "call_probability": 0.5},
]


def as_float(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [as_float(v) for v in value]
    if isinstance(value, dict):
        return {k: as_float(v) for k, v in value.items()}
    return float(value)


def build_fixtures() -> dict:
    """Every fixture case with its exact answer (as the nearest floats)."""
    values = []
    for case in VALUES:
        prize, bounty = value(case["stacks"], case["payouts"], case["bounties"])
        values.append({**case, "prize": as_float(prize), "bounty": as_float(bounty)})
    showdowns = []
    for case in SHOWDOWNS:
        after, heads, cash = showdown(case["stacks"], case["bounties"], case["share"], case["committed"],
                                      case["strength"], case["dead"])
        prize, bounty = value(after, case["payouts"], heads, cash)
        showdowns.append({**case, "after": as_float(after), "bounties_after": as_float(heads), "cash": as_float(cash),
                          "prize": as_float(prize), "bounty": as_float(bounty)})
    bubble = []
    for case in BUBBLE:
        factor, required, base = bubble_factors(case["stacks"], case["payouts"], case["bounties"], case["share"])
        bubble.append({**case, "bubble_factor": as_float(factor), "required_equity": as_float(required),
                       "equity": as_float(base)})
    spots = [{**case, **as_float(spot(case))} for case in SPOTS]
    return {"model": "docs/icm.md, Bounties (KO and PKO): chip-proportional bounty equity, layer rule",
            "values": values, "showdowns": showdowns, "bubble": bubble, "spots": spots}


def fixture_text() -> str:
    """The fixture file: one case per line."""
    lines = ["{"]
    items = list(build_fixtures().items())
    for index, (key, cases) in enumerate(items):
        end = "," if index < len(items) - 1 else ""
        if isinstance(cases, list):
            rows = [f"  {json.dumps(case)}" for case in cases]
            lines += [f' "{key}": [', ",\n".join(rows), f" ]{end}"]
        else:
            lines.append(f' "{key}": {json.dumps(cases)}{end}')
    return "\n".join(lines + ["}"]) + "\n"


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    FIXTURE.write_text(fixture_text())
    sys.stdout.write(f"wrote {FIXTURE}\n")
