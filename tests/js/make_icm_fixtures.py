"""Write tests/js/fixtures/icm.json: ICM fields with the Python engine's answers, for tests/js/icm.test.mjs.

Run from the repository root: ``.venv/bin/python tests/js/make_icm_fixtures.py``.
"""

import json
from pathlib import Path
import sys

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.numbers import parse_number, parse_number_list, parse_payouts
from generator.errors import InputError
from kernels import icm

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "icm.json"


def sample_fields() -> list[dict]:
    """Named fields: small (DP), medium and large (integral), extreme stacks, busted players."""
    rng = np.random.default_rng(2024)
    lognormal = rng.lognormal(0.0, 1.0, 300)
    fields = [
        {"name": "three-handed", "stacks": [500, 300, 200], "payouts": [600, 400, 0]},
        {"name": "two paid of three", "stacks": [500, 300, 200], "payouts": [600, 400]},
        {"name": "busted player", "stacks": [500, 0, 300, 200], "payouts": [50, 30, 20, 10]},
        {"name": "one giant", "stacks": [1e9] + [1] * 11, "payouts": [50, 30, 20]},
        {"name": "final table", "stacks": rng.lognormal(0, 0.8, 9).round(3).tolist(), "payouts": [30, 20, 14, 10, 8, 6, 5, 4, 3]},
        {"name": "eighteen all paid", "stacks": rng.lognormal(0, 1.5, 18).tolist(), "payouts": list(range(18, 0, -1))},
        {"name": "lognormal 300", "stacks": lognormal.tolist(), "payouts": (np.linspace(10, 1, 45) ** 2).tolist()},
        {"name": "equal 2000", "stacks": [1500] * 2000, "payouts": [1.0] * 300},
    ]
    return fields


def answers(field: dict) -> dict:
    """The field with Python's equity (auto and integral, equity only) and place probabilities."""
    auto = icm.prize_equity(field["stacks"], field["payouts"])
    integral = icm.prize_equity(field["stacks"], field["payouts"], method="integral", places=False)
    return {
        **field,
        "auto": {"equity": auto.equity.tolist(), "places": auto.places.tolist(), "method": auto.method},
        "integral_equity": integral.equity.tolist(),
    }


def big_fields() -> list[dict]:
    """Fields past the place table's reach with Python's equity (``places=False``: the Fourier method):
    every place paid at 2,000 and 20,000 players, tiny stacks, stacks below one chip, and 15% paid."""
    rng = np.random.default_rng(2026)
    fields = [
        {"name": "2,000 all paid, log-normal", "stacks": rng.lognormal(0.0, 1.5, 2000).tolist(),
         "payouts": (np.linspace(2.0, 1.0, 2000) ** 2).tolist()},
        {"name": "2,000 all paid, one chip among millions",
         "stacks": [1.0] + rng.integers(1_000_000, 5_000_000, 1999).astype(float).tolist(),
         "payouts": np.linspace(3.0, 1.0, 2000).tolist()},
        {"name": "2,000 all paid, stacks below one chip", "stacks": rng.uniform(0.001, 1.0, 2000).tolist(),
         "payouts": (np.linspace(2.0, 1.0, 2000) ** 3).tolist()},
        {"name": "20,000 all paid, log-normal", "stacks": rng.lognormal(0.0, 1.0, 20_000).tolist(),
         "payouts": (np.linspace(2.0, 1.0, 20_000) ** 2).tolist()},
        {"name": "20,000, 15% paid, busted players",
         "stacks": (rng.lognormal(7.0, 1.0, 20_000) * (rng.random(20_000) > 0.01)).round().tolist(),
         "payouts": (np.linspace(2.0, 1.0, 3000) ** 2).tolist()},
    ]
    for field in fields:
        result = icm.prize_equity(field["stacks"], field["payouts"], places=False)
        field.update(equity=result.equity.tolist(), method=result.method)
    return fields


def validation_cases() -> list[dict]:
    """Invalid fields with Python's messages (the JS module must say the same)."""
    cases = [
        ([], [100]),
        ([100, -5, 30], [100]),
        (["100", "abc"], [100]),
        ([0, 0], [100]),
        ([100, 50], [60, 30, 10]),
        ([100, 50], []),
        ([100, 50], [60, -1]),
        ([100, 50], [0, 0]),
    ]
    return [{"stacks": stacks, "payouts": payouts, "messages": icm.field_errors(stacks, payouts)} for stacks, payouts in cases]


#: Text as people type it into the stacks/payouts fields (and the CLI options), read by Python's
#: parse_number_list; the JS parseNumberList must give the same numbers or the same message.
TYPED_LISTS = [
    "10,000 5,000 2,500",
    "10,000\n5,000\n2,500\n",
    "10,000, 5,000, 2,500",
    "1,234,567.5; 2,000",
    "500, 300, 200",
    "500 300 200",
    "1500,1000,500",
    "50,30,20",
    "600,400,0",
    " 1e3,2.5E-2,.5 ",
    "500, 300, 200,",
    "+7 0.0 -3",
    "",
    " , ",
    "500,300,200",
    "10,000",
    "600,400",
    "1,050",
    "1,000,500",
    "1,234.5",
    "10,00 5,000",
    "1,2,3 4",
    "5,,3",
    "abc 1",
    "1_000 2",
    "0x10 1",
    "500,inf",
    "-Infinity",
    "NaN 1",
    "1e999 1",
    "1 2 \u00e9\u0001xyz",
    "\u00a0500\u00a0300",
]


def typed_list_cases() -> list[dict]:
    """Each typed text with Python's numbers, or Python's message when it refuses the text."""
    cases = []
    for text in TYPED_LISTS:
        try:
            cases.append({"text": text, "values": parse_number_list(text, "stacks")})
        except InputError as error:
            cases.append({"text": text, "error": str(error)})
    return cases


def bubble_factor_cases() -> list[dict]:
    """Fields with Python's bubble factors and required equity (NaN as None), DP and integral."""
    rng = np.random.default_rng(7)
    fields = [
        {"name": "hand-computed three-handed", "stacks": [50, 30, 20], "payouts": [0.7, 0.3]},
        {"name": "busted player, winner takes all", "stacks": [40, 0, 25, 25], "payouts": [1]},
        {"name": "final table", "stacks": rng.lognormal(0, 0.8, 9).round(1).tolist(), "payouts": [50, 30, 20]},
        {"name": "twelve (integral)", "stacks": rng.lognormal(0, 1, 12).tolist(), "payouts": [40, 25, 15, 10]},
        {"name": "eleven, all paid, equal stacks bust (integral)", "stacks": [5, 5, 5, 9, 2, 7, 7, 1, 3, 0, 4, 6],
         "payouts": list(range(12, 0, -1))},
        {"name": "forty, 15% paid (integral)", "stacks": rng.lognormal(0, 1, 40).round(0).tolist(),
         "payouts": [30, 20, 14, 10, 8, 7]},
    ]
    cases = []
    for field in fields:
        result = icm.bubble_factors(field["stacks"], field["payouts"])
        as_lists = {
            key: [[None if np.isnan(v) else float(v) for v in row] for row in getattr(result, key)]
            for key in ("bubble_factor", "required_equity", "risk_premium")
        }
        cases.append({**field, **as_lists, "equity": result.equity.tolist(), "method": result.method})
    return cases


#: One number as typed into a single-number field (an ante, a blind, a seat's stack on the push/fold
#: solver): Python's parse_number and the JS parseNumber give the same number or the same message.
TYPED_NUMBERS = ["10,000", " 7 ", "2.5e3", "-0.25", "+3", ".5", "1,234,567.5", "0", "", "  ", "5,3", "5, 3", "1 2",
                 "10,00", ",5", "5,", "abc", "1_000", "0x10", "inf", "-Infinity", "NaN", "1e999", "1e-999", "3%", "\u00a07\u00a0"]


def typed_number_cases() -> list[dict]:
    """Each single-number text with Python's number, or Python's message."""
    cases = []
    for text in TYPED_NUMBERS:
        try:
            cases.append({"text": text, "value": parse_number(text, "ante")})
        except InputError as error:
            cases.append({"text": text, "error": str(error)})
    return cases


TYPED_PAYOUTS = ["50% 30% 20%", "50%,30%,20%", "50%, 30%, 20%", "65% 35", "50 %", "60% 50%", "12.5% 12.5%", "100%",
                 "1e2%", "33.4% 33.3% 33.3%", "50%% 50%", "%50 50%", "600 400",
                 # rounding: within 0.1 point of 100% is the whole pool; beyond it refused, saying by how much
                 "33.34% 33.33% 33.34%", "33.33% 33.33% 33.33%", "50% 30% 20.1%", "50% 30% 20.10001%", "50% 30% 20.2%",
                 "50% 30% 21%", "99.85%", " ".join(["0.13333466667%"] * 750)]


def typed_payout_cases() -> list[dict]:
    """Each typed payout list with Python's prizes and unit, or Python's message."""
    cases = []
    for text in TYPED_PAYOUTS:
        try:
            values, percent = parse_payouts(text, "payouts")
            cases.append({"text": text, "values": values, "percent": percent})
        except InputError as error:
            cases.append({"text": text, "error": str(error)})
    return cases


SUMMARY_BANDS = [[1, 1], [2, 3], [4, 9]]


def summary_cases() -> list[dict]:
    """Sample fields of up to 300 players with P(cash), P(final table), the expected finishing place and
    P(band of places) from Python's full place table (every place paid 0 past the prizes)."""
    cases = []
    for field in sample_fields():
        stacks, payouts = field["stacks"], field["payouts"]
        n = len(stacks)
        if n > 300:
            continue
        places = icm.prize_equity(stacks, list(payouts) + [0.0] * (n - len(payouts))).places
        cases.append({
            "name": field["name"], "stacks": stacks, "payouts": payouts, "bands": SUMMARY_BANDS,
            "cash": places[:, : len(payouts)].sum(axis=1).tolist(),
            "final_table": places[:, : min(9, n)].sum(axis=1).tolist(),
            "finish": (places @ np.arange(1, n + 1)).tolist(),
            "band_chances": [places[:, first - 1 : min(last, n)].sum(axis=1).tolist() for first, last in SUMMARY_BANDS],
        })
    return cases


def main() -> None:
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    data = {"fields": [answers(field) for field in sample_fields()], "big": big_fields(), "invalid": validation_cases(), "typed": typed_list_cases(), "typed_numbers": typed_number_cases(), "bubble": bubble_factor_cases(),
            "summary": summary_cases(), "typed_payouts": typed_payout_cases()}
    FIXTURE.write_text(json.dumps(data))
    print(f"wrote {FIXTURE}")


if __name__ == "__main__":
    main()
