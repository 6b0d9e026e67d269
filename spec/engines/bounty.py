"""Golden cases of the bounty model: kernels/icm/bounty.py, the bounty terms of kernels/icm/spot.py and
generator/cli/bounties.py ↔ templates/assets/js/engines/bounty.js, icm-spot.js and bounty-fields.js.

KO/PKO positions (prize, bounty and total value), bubble factors with bounties, call/shove spots with their
EVs and required equities, a spot refused (a bounty on a player all in for the ante), bounty problems,
typed bounty and share fields (values or the pages' messages) and the model's sentence, with Python's
answers. The positions, bubble factors and spots of tests/fixtures/bounty.json (the exact brute force's
cases) come first, then larger fields (the integral method, busted players).
"""

from __future__ import annotations

import json

import numpy as np

from generator.cli.bounties import model_line, read_bounties, read_share
from generator.core.errors import InputError
from kernels.icm import bounty, spot as icm_spot
from spec.golden import ROOT

NAME = "bounty"
TOLERANCE = 1e-12  # values and EVs summed over finishing orders (a rerun may sum in another order)

#: The exact brute force's cases (tests/test_bounty.py): positions, bubble factors and spots.
REFERENCE = ROOT / "tests" / "fixtures" / "bounty.json"
PAGE_NAMES = ("bounties", "bounty share")  # the pages' names of the two fields, as their messages start

RNG = np.random.default_rng(27)
TWELVE = RNG.lognormal(0, 0.8, 12).round(1).tolist()
#: (stacks, payouts, bounties, share, method) beyond the reference's: the integral method, busted players
LARGER = [
    (TWELVE, [40, 25, 15, 10, 6, 4], RNG.integers(0, 30, 12).astype(float).tolist(), 0.5, "auto"),
    ([30, 0, 45, 25, 60, 12, 33], [50, 30, 20], [15, 0, 10, 5, 20, 8, 9], 1.0, "integral"),
]

#: (stacks, bounties, share) that kernels/icm/bounty.py refuses (bounty_errors), one problem or several
INVALID = [
    ([100, 50, 25], [10, -1, 5], 1.0),
    ([100, 50, 25], [10, 5], 0.5),
    ([100, 0, 25], [10, 5, 5], 1.0),
    ([100, 50, 25], [10, 5, 5], 1.5),
    ([100, 50, 25], [10, 5, 5], -0.25),
    ([100, 0, 25], [10, 2.5, 5], 2.0),
    ([100, 50, 25], ["10", "x", 5], 1.0),
    ([5000, 3000, 2000], [1e308, 1e308, 1e308], 0.5),  # a total that overflows
]

#: (bounties text or None, share text or None, payouts typed in percent) as typed into the pages
TYPED = [
    ("10 10 20", None, False),
    ("10,000 5,000 2,500", "50%", False),
    ("10, 10, 20", "0.5", False),
    ("7.5;5;0", " 25 % ", False),
    ("10 10 20", "1", False),
    ("10 10 20", "0", False),
    ("10 10 20", "100%", False),
    (None, None, True),
    (None, "50%", False),
    ("10 10 20", None, True),
    ("10 x 20", None, False),
    ("10 inf 20", None, False),
    ("10,00 5", None, False),
    ("10 10 20", "1.5", False),
    ("10 10 20", "-10%", False),
    ("10 10 20", "half", False),
    ("10 10 20", "50%%", False),
    ("10 10 20", "0.5 0.5", False),
    ("10 10 20", "150 %", False),
]

#: (bounties, share) for the model's sentence
MODELS = [([10, 10, 20], 1.0), ([10, 10, 20], 0.5), ([25, 25, 40], 0.3), ([1e6, 2500, 333.25], 0.0),
          ([1234567.5, 1], 0.125), ([1e10, 0], 1.0)]

#: (stacks, fraction, pool or None) for stack_bounties: the precomputed PKO charts' bounties, chip EV and ICM
STACK_BOUNTIES = [([10, 10, 10], 0.5, None), ([12.5, 12.5, 12.5, 12.5, 12.5, 12.5], 1.0, None), ([20, 15, 10, 5], 0.5, 100),
                  ([10, 10, 10], 0.5, 100), ([1e6, 3, 0], 0.25, 65.5), (TWELVE, 1 / 3, 1000)]


def nullable(matrix) -> list:
    return [[None if not np.isfinite(v) else float(v) for v in row] for row in matrix]


def value_case(stacks, payouts, bounties, method="auto") -> dict:
    value = bounty.position_value(stacks, payouts, bounties, method=method)
    return {"stacks": stacks, "payouts": payouts, "bounties": bounties, "method": method, "prize": value.prize.tolist(),
            "bounty": value.bounty.tolist(), "total": value.total.tolist(), "method_used": value.method}


def bubble_case(stacks, payouts, bounties, share, method="auto") -> dict:
    result = bounty.bubble_factors(stacks, payouts, bounties, share, method=method)
    return {"stacks": stacks, "payouts": payouts, "bounties": bounties, "share": share, "method": method,
            "bubble_factor": nullable(result.bubble_factor), "required_equity": nullable(result.required_equity),
            "risk_premium": nullable(result.risk_premium), "equity": result.equity.tolist(), "method_used": result.method}


SPOT_KEYS = ("small_blind", "big_blind", "ante", "big_blind_ante", "shover", "caller", "small_blind_player",
             "big_blind_player")


def spot_case(case: dict) -> dict:
    """A spot of the reference with the kernel's values, required equity and EV split."""
    kwargs = {key: case[key] for key in SPOT_KEYS}
    win, tie, lose = case["probabilities"]
    common = (case["stacks"], case["payouts"])
    options = {"bounties": case["bounties"], "bounty_share": case["share"], **kwargs}
    out = {"side": case["side"], "stacks": case["stacks"], "payouts": case["payouts"], "bounties": case["bounties"],
           "share": case["share"], "spot": kwargs, "probabilities": case["probabilities"]}
    if case["side"] == "call":
        spot = icm_spot.call_spot(*common, **options)
        out.update(required_icm=spot.required_icm, required_total=spot.required_total,
                   ev=spot.ev_difference(win, tie, lose), ev_icm=spot.ev_parts(win, tie, lose)[0])
    else:
        spot = icm_spot.shove_spot(*common, **options)
        call = case["call_probability"]
        out.update(call_probability=call, ev=spot.ev_difference(call, win, tie, lose),
                   ev_icm=spot.ev_parts(call, win, tie, lose)[0])
    out.update(equity=spot.equity, bounty=spot.bounty, total=spot.total)
    return out


def stranded_spot() -> dict:
    """A bounty on a player the antes leave with no chips: icm_spot's refusal."""
    kwargs = {"small_blind": 1, "big_blind": 2, "ante": 0.25, "big_blind_ante": 0, "shover": 0, "caller": 1,
              "small_blind_player": 0, "big_blind_player": 1}
    stacks, payouts, bounties = [1500, 1000, 0.25], [65, 35], [25, 25, 40]
    try:
        icm_spot.call_spot(stacks, payouts, **kwargs, bounties=bounties, bounty_share=0.5)
    except ValueError as error:
        return {"stacks": stacks, "payouts": payouts, "bounties": bounties, "share": 0.5, "spot": kwargs, "error": str(error)}
    raise AssertionError("kernels/icm/spot.py accepted a bounty on a player all in for the ante")


def typed_case(bounties_text, share_text, percent) -> dict:
    case = {"bounties_text": bounties_text, "share_text": share_text, "percent": percent}
    try:
        values, share = read_bounties(bounties_text, share_text, percent, PAGE_NAMES)
    except InputError as error:
        return {**case, "error": str(error)}
    return {**case, "bounties": values, "share": share}


def share_case(text: str) -> dict:
    try:
        return {"text": text, "share": read_share(text, PAGE_NAMES[1])}
    except InputError as error:
        return {"text": text, "error": str(error)}


def build() -> dict:
    reference = json.loads(REFERENCE.read_text(encoding="utf-8"))
    values = [value_case(c["stacks"], c["payouts"], c["bounties"]) for c in reference["values"]]
    values += [value_case(s, p, b, method) for s, p, b, _, method in LARGER]
    bubble = [bubble_case(c["stacks"], c["payouts"], c["bounties"], c["share"]) for c in reference["bubble"]]
    bubble += [bubble_case(c["stacks"], c["payouts"], c["bounties"], c["share"], "integral") for c in reference["bubble"]]
    bubble += [bubble_case(*case) for case in LARGER]
    return {
        "about": "kernels/icm/bounty.py, kernels/icm/spot.py and generator/cli/bounties.py's answers",
        "values": values,
        "bubble": bubble,
        "spots": [spot_case(c) for c in reference["spots"]],
        "stranded_spot": stranded_spot(),
        "invalid": [{"stacks": s, "bounties": b, "share": share, "messages": bounty.bounty_errors(s, b, share)}
                    for s, b, share in INVALID],
        "typed": [typed_case(*case) for case in TYPED],
        "shares": [share_case(share) for _, share, _ in TYPED if share is not None],
        "models": [{"bounties": b, "share": share, "line": model_line(b, share)} for b, share in MODELS],
        "stack_bounties": [{"stacks": s, "fraction": f, "pool": pool, "bounties": bounty.stack_bounties(s, f, pool).tolist()}
                           for s, f, pool in STACK_BOUNTIES],
    }
