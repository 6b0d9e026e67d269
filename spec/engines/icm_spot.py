"""Golden cases of the call / shove decision under ICM: kernels/icm/spot.py ↔ templates/assets/js/engines/icm-spot.js.

Spots on both sides (big-blind ante, a dead third blind, both antes, twelve players on the integral) with
the class weights of the villain's range and of the hero's, and Python's answers: the outcome fields and
their equities, each class's win / tie / lose against the range and EV, P(call), the hero's averages; and
spots that ``call_spot`` refuses, with its message. The JS reads the class table from spec/matchups.bin.gz
(the same counts as the build's heads-up tables that Python uses here).
"""

from __future__ import annotations

import numpy as np

from kernels.icm import spot as icm_spot
from kernels.cards import CLASS_COMBO_COUNT
from kernels.ranges import parse_range

NAME = "icm-spot"
TOLERANCE = 1e-12

#: (name, side, stacks, payouts, spot keyword arguments (0-based players), range, hero's hand or range)
SPOTS = [
    ("bubble, caller in the BB", "call", [1500, 1000, 500], [65, 35],
     {"small_blind": 1, "big_blind": 2, "ante": 0.25, "shover": 0, "caller": 2}, "22+,A2s+", "TT+,AQs+"),
    ("shover's side", "shove", [1500, 1000, 500], [65, 35],
     {"small_blind": 1, "big_blind": 2, "ante": 0.25, "shover": 0, "caller": 2}, "22+,A2s+,KTs+", "72o"),
    ("big-blind ante, dead third blind", "call", [4200, 3100, 2600, 900, 1800, 2400], [50, 30, 20],
     {"small_blind": 50, "big_blind": 100, "ante": 0, "big_blind_ante": 100, "shover": 3, "caller": 1,
      "small_blind_player": 4, "big_blind_player": 1}, "20%", "15%"),
    ("both antes, shover short", "shove", [4200, 3100, 2600, 900, 1800, 2400], [50, 30, 20],
     {"small_blind": 50, "big_blind": 100, "ante": 10, "big_blind_ante": 100, "shover": 3, "caller": 0,
      "small_blind_player": 3, "big_blind_player": 0}, "QQ+,AKs,0.5(AKo)", "55-22,0.25(K9o+),A2s+"),
    ("twelve players (integral)", "call", [3000, 1200, 1200, 800, 450, 2500, 90, 1700, 640, 2200, 1300, 900],
     [40, 25, 15, 10, 6, 4], {"small_blind": 20, "big_blind": 40, "ante": 5, "shover": 6, "caller": 4}, "30%",
     "random"),
]

#: (stacks, payouts, spot keyword arguments) that kernels/icm/spot.py refuses, with its message.
INVALID = [
    ([100, 100, 100], [1], {"shover": 0, "caller": 0}),
    ([100, 100, 100], [1], {"shover": 0, "caller": 3}),
    ([100, 100, 100], [1], {"shover": 0, "caller": 1, "small_blind": -1}),
    ([100, 100, 0.5], [1], {"shover": 0, "caller": 2, "ante": 1}),
    ([100, 100, 100], [1], {"shover": 0, "caller": 1, "small_blind_player": 2, "big_blind_player": 2}),
    ([1e308, 1e308, 5e-324], [2, 1], {"shover": 0, "caller": 1}),
]


def _as_list(values) -> list:
    return [None if not np.isfinite(v) else float(v) for v in values]


def _spot_case(name, side, stacks, payouts, kwargs, range_text, hero_text, tables, ranking) -> dict:
    weights = icm_spot.class_weights(parse_range(range_text, ranking).weights)
    hero_weights = icm_spot.class_weights(parse_range(hero_text, ranking).weights)
    outcomes = icm_spot.outcomes_vs_range(tables.win, tables.tie, tables.loss, weights)
    case = {"name": name, "side": side, "stacks": stacks, "payouts": payouts, "spot": kwargs, "range": range_text,
            "weights": weights.tolist(), "outcomes": outcomes.tolist()}
    if side == "call":
        spot = icm_spot.call_spot(stacks, payouts, **kwargs)
        ev = spot.ev_difference(outcomes[:, 0], outcomes[:, 1], outcomes[:, 2])
        case.update(required_icm=spot.required_icm, required_chips=spot.required_chips)
    else:
        spot = icm_spot.shove_spot(stacks, payouts, **kwargs)
        calls = icm_spot.call_probability(tables.pairs, weights)
        ev = spot.ev_difference(calls, outcomes[:, 0], outcomes[:, 1], outcomes[:, 2])
        case["calls"] = calls.tolist()
    columns = [outcomes[:, 0], outcomes[:, 1], outcomes[:, 2], ev] + ([calls] if side == "shove" else [])
    averages = icm_spot.hero_average(np.stack(columns, axis=1), hero_weights)
    hero = dict(zip(("win", "tie", "lose", "ev", "call"), averages.tolist()))
    case.update(fields={k: v.tolist() for k, v in spot.fields.items()}, equity=spot.equity, chips=spot.chips,
                method=spot.method, ev=_as_list(ev), hero_range=hero_text, hero_weights=hero_weights.tolist(),
                hero={**hero, "combos": float(hero_weights @ CLASS_COMBO_COUNT)})
    return case


def _invalid_case(stacks, payouts, kwargs) -> dict:
    full = {"small_blind": 0, "big_blind": 0, "ante": 0, **kwargs}
    try:
        icm_spot.call_spot(stacks, payouts, **full)
    except ValueError as error:
        return {"stacks": stacks, "payouts": payouts, "spot": full, "error": str(error)}
    raise AssertionError(f"kernels/icm/spot.py accepted {kwargs}")


def build() -> dict:
    from generator.compute import registry
    from generator.compute.run import default_run
    from spec.engines.ranges import build_ranking

    tables, _ = registry.results("headsup", default_run(progress=False))
    ranking = build_ranking()
    return {
        "about": "kernels/icm/spot.py's answers; the class table is spec/matchups.bin.gz, x% ranges by spec/ranges.json's ranking.",
        "spots": [_spot_case(*spot, tables, ranking) for spot in SPOTS],
        "invalid": [_invalid_case(*case) for case in INVALID],
    }
