"""Golden cases of ICM: kernels/icm/harville.py (+ kernels/icm/fourier.py) ↔ templates/assets/js/engines/icm.js (+ icm-fourier.js).

* ``fields``: equity and place probabilities (``auto``), integral and Fourier equity, of fields from 3 to 2,000
  players: the subset DP, the integral's place recurrences, busted players, one giant stack, every place paid.
  Values of fields above 100 players are kept for a sample of players (``rows``), and every player's equity
  in one number each (``weighted_sums``: auto, integral, Fourier; see ``_weighted_sum``).
* ``big``: fields past the place table's reach (``places=False``: the Fourier method), 2,000 and 20,000
  players, every place paid or 15%: the equity of a sample of players (``rows``) and of everyone weighted
  by ``1 + i mod 7`` (``weighted_sum``).
* ``bubble``: bubble factors, required equity and risk premium of every pair (None where undefined).
* ``summary``: P(cash), P(final table), expected finish and P(band of places) from Python's full place table,
  for the page's big-field summary (icm.js ``fieldSummary``), fields of up to 100 players.
* ``invalid``: fields that ``field_errors`` refuses, with its messages.

Long stack and payout lists are given as a :func:`series` (integer arithmetic, exact in both languages).
"""

from __future__ import annotations

import numpy as np

from kernels.icm import harville as icm

NAME = "icm"
TOLERANCE = 1e-12  # of a probability or of a prize (equities are compared × max(1, |expected|))
SAMPLED_VALUES = 1000
SUMMARY_BANDS = [[1, 1], [2, 3], [4, 9]]


def series(spec: dict) -> list[float]:
    """A list of numbers from integer arithmetic, the same in both languages (tests/js/golden.mjs: series):
    ``u_i = (a · i + b) mod m`` for i < n; ``"mod"``: offset + u_i; ``"pareto"``: floor(k / (1 + u_i));
    ``"squares"``: (offset + n − 1 − i)²; then players with u_i < ``zero_below`` get 0, each value is divided
    by ``divisor`` (a power of two: exact) and ``first`` replaces the first values."""
    n, a, b, m = spec["n"], spec.get("a", 1), spec.get("b", 0), spec.get("m", 1)
    values = []
    for i in range(n):
        u = (a * i + b) % m
        if spec["kind"] == "mod":
            value = spec.get("offset", 0) + u
        elif spec["kind"] == "pareto":
            value = spec["k"] // (1 + u)
        elif spec["kind"] == "squares":
            value = (spec.get("offset", 0) + n - 1 - i) ** 2
        else:
            raise ValueError(spec["kind"])
        if u < spec.get("zero_below", 0):
            value = 0
        values.append(value / spec.get("divisor", 1))
    first = spec.get("first", [])
    return [float(v) for v in first] + values[len(first) :]


def _numbers(value) -> list[float]:
    return series(value) if isinstance(value, dict) else value


def _rows(n: int, width: int = 1) -> list[int] | None:
    """Every player up to 100; past that a sample of players (both ends, evenly spaced) whose rows of ``width``
    values hold about ``SAMPLED_VALUES`` numbers in all (at least 6 rows, at most 64)."""
    if n <= 100:
        return None
    count = max(6, min(64, SAMPLED_VALUES // width))
    return sorted({0, 1, n - 2, n - 1, *range(0, n, max(1, n // count))})


def _at(values, rows) -> list:
    return np.asarray(values)[rows].tolist() if rows is not None else np.asarray(values).tolist()


def _weighted_sum(values) -> float:
    """Σ (1 + i mod 7) · values[i]: every player's value in one number (compared within the tolerance × the sum)."""
    return float(np.sum((1 + np.arange(len(values)) % 7) * np.asarray(values)))


def _fields() -> list[dict]:
    rng = np.random.default_rng(2024)
    return [
        {"name": "three-handed", "stacks": [500, 300, 200], "payouts": [600, 400, 0]},
        {"name": "two paid of three", "stacks": [500, 300, 200], "payouts": [600, 400]},
        {"name": "busted player", "stacks": [500, 0, 300, 200], "payouts": [50, 30, 20, 10]},
        {"name": "one giant", "stacks": [1e9] + [1] * 11, "payouts": [50, 30, 20]},
        {"name": "final table", "stacks": rng.lognormal(0, 0.8, 9).round(3).tolist(), "payouts": [30, 20, 14, 10, 8, 6, 5, 4, 3]},
        {"name": "eighteen all paid", "stacks": rng.lognormal(0, 1.5, 18).round(4).tolist(), "payouts": list(range(18, 0, -1))},
        {"name": "sixty, twelve paid, busted players", "stacks": (rng.lognormal(0, 1.0, 60).round(3) * (rng.random(60) > 0.1)).tolist(),
         "payouts": (np.linspace(10, 1, 12) ** 2).round(2).tolist()},
        {"name": "equal 2000, 300 paid", "stacks": {"kind": "mod", "n": 2000, "offset": 1500}, "payouts": {"kind": "mod", "n": 300, "offset": 1}},
        {"name": "150 uneven, 40 paid", "stacks": {"kind": "pareto", "n": 150, "a": 37, "b": 11, "m": 200, "k": 100000},
         "payouts": {"kind": "squares", "n": 40, "offset": 10}},
    ]


def _field_case(field: dict) -> dict:
    stacks, payouts = _numbers(field["stacks"]), _numbers(field["payouts"])
    auto = icm.prize_equity(stacks, payouts)
    rows = _rows(len(stacks), len(payouts))
    integral = icm.prize_equity(stacks, payouts, method="integral", places=False).equity
    fourier = icm.prize_equity(stacks, payouts, method="fourier", places=False).equity
    return {
        **field,
        "rows": rows,
        "auto": {"equity": _at(auto.equity, rows), "places": _at(auto.places, rows), "method": auto.method},
        "integral_equity": _at(integral, rows),
        "fourier_equity": _at(fourier, rows),
        "weighted_sums": [_weighted_sum(auto.equity), _weighted_sum(integral), _weighted_sum(fourier)],
    }


def _big_fields() -> list[dict]:
    return [
        {"name": "2,000 all paid, uneven", "stacks": {"kind": "pareto", "n": 2000, "a": 7919, "b": 3, "m": 4000, "k": 10_000_000},
         "payouts": {"kind": "squares", "n": 2000, "offset": 2000}},
        {"name": "2,000 all paid, one chip among millions",
         "stacks": {"kind": "mod", "n": 2000, "a": 104729, "b": 1, "m": 4_000_000, "offset": 1_000_000, "first": [1]},
         "payouts": {"kind": "squares", "n": 2000, "offset": 1000}},
        {"name": "2,000 all paid, stacks below one chip", "stacks": {"kind": "mod", "n": 2000, "a": 613, "b": 5, "m": 1024, "offset": 1, "divisor": 1024},
         "payouts": {"kind": "squares", "n": 2000, "offset": 500}},
        {"name": "20,000 all paid, uneven", "stacks": {"kind": "pareto", "n": 20000, "a": 7919, "b": 17, "m": 3000, "k": 30_000_000},
         "payouts": {"kind": "squares", "n": 20000, "offset": 20000}},
        {"name": "20,000, 15% paid, busted players",
         "stacks": {"kind": "pareto", "n": 20000, "a": 4099, "b": 2, "m": 5000, "k": 50_000_000, "zero_below": 50},
         "payouts": {"kind": "squares", "n": 3000, "offset": 3000}},
    ]


def _big_case(field: dict) -> dict:
    stacks, payouts = _numbers(field["stacks"]), _numbers(field["payouts"])
    result = icm.prize_equity(stacks, payouts, places=False)
    rows = _rows(len(stacks))
    return {**field, "method": result.method, "rows": rows, "equity": _at(result.equity, rows), "weighted_sum": _weighted_sum(result.equity)}


def _bubble_cases() -> list[dict]:
    rng = np.random.default_rng(7)
    fields = [
        {"name": "hand-computed three-handed", "stacks": [50, 30, 20], "payouts": [0.7, 0.3]},
        {"name": "busted player, winner takes all", "stacks": [40, 0, 25, 25], "payouts": [1]},
        {"name": "final table", "stacks": rng.lognormal(0, 0.8, 9).round(1).tolist(), "payouts": [50, 30, 20]},
        {"name": "twelve (integral)", "stacks": rng.lognormal(0, 1, 12).round(4).tolist(), "payouts": [40, 25, 15, 10]},
        {"name": "eleven, all paid, equal stacks bust (integral)", "stacks": [5, 5, 5, 9, 2, 7, 7, 1, 3, 0, 4, 6],
         "payouts": list(range(12, 0, -1))},
        {"name": "twenty-four, 25% paid (integral)", "stacks": rng.lognormal(0, 1, 24).round(0).tolist(), "payouts": [30, 20, 14, 10, 8, 7]},
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


def _summary_cases(fields: list[dict]) -> list[dict]:
    """P(cash), P(final table), expected finish and P(band) from the full place table (places past the prizes
    paid 0), for the fields of up to 100 players. (On "150 uneven" icm.js's expected finish, an integral on the
    equity grid, is off by 1e-9 = 1.2e-11 of itself, outside the test's n · 1e-12.)"""
    cases = []
    for field in fields:
        stacks, payouts = _numbers(field["stacks"]), _numbers(field["payouts"])
        n = len(stacks)
        if n > 100:
            continue
        places = icm.prize_equity(stacks, list(payouts) + [0.0] * (n - len(payouts))).places
        cases.append({
            "name": field["name"], "stacks": field["stacks"], "payouts": field["payouts"], "bands": SUMMARY_BANDS,
            "cash": places[:, : len(payouts)].sum(axis=1).tolist(),
            "final_table": places[:, : min(9, n)].sum(axis=1).tolist(),
            "finish": (places @ np.arange(1, n + 1)).tolist(),
            "band_chances": [places[:, first - 1 : min(last, n)].sum(axis=1).tolist() for first, last in SUMMARY_BANDS],
        })
    return cases


INVALID = [
    ([], [100]),
    ([100, -5, 30], [100]),
    (["100", "abc"], [100]),
    ([0, 0], [100]),
    ([100, 50], [60, 30, 10]),
    ([100, 50], []),
    ([100, 50], [60, -1]),
    ([100, 50], [0, 0]),
]


def build() -> dict:
    fields = _fields()
    return {
        "about": "kernels/icm/harville.py's answers; lists given as {kind, n, ...} are spec/engines/icm.py's series(); "
                 "`rows`: the players whose values are kept (null: all).",
        "fields": [_field_case(field) for field in fields],
        "big": [_big_case(field) for field in _big_fields()],
        "bubble": _bubble_cases(),
        "summary": _summary_cases(fields),
        "invalid": [{"stacks": s, "payouts": p, "messages": icm.field_errors(s, p)} for s, p in INVALID],
    }
