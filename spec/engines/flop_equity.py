"""Golden cases of flop equity: kernels/flop/equity.py ↔ templates/assets/js/engines/flop-equity.js (and flops.py ↔
flops.js, boards.py ↔ flop-boards.js, which it walks).

* ``distributions``: range A against range B (or one hand) on flops, turns and rivers with dead cards, weights 1,
  0.5 and 0.25 (every sum exact in both languages): each combo's counts, equity and weight in the deal, the
  sorted curve, quantiles, shares above the thresholds and A's equity; or the error a spot raises;
* ``reports``: every-flop reports of small class ranges: the sums over all 1,755 flops, A's equity, a weighted
  sum of the flops' equities ``Σ (1 + f mod 7) · equity[f]`` over the flops with a deal, the equity and share
  of the deal of five texture groups, and every 50th flop's row (representative, weight, counts, equity, share,
  texture);
* ``not_symmetric``: a report refused, with its message;
* ``flops``, ``boards``: every 25th suit-distinct flop (representative, weight, texture) and every 4,000th
  five-card board class (representative, size, its ten flops).
"""

from __future__ import annotations

import numpy as np

from kernels.cards import parse_cards
from kernels.flop.boards import board_classes
from kernels.flop.equity import (
    QUANTILES, THRESHOLDS, NotSuitSymmetricError, combo_equities, equity_distribution, every_flop_report,
)
from kernels.flop.flops import suit_distinct_flops, texture
from kernels.range_equity import NoDealError
from kernels.ranges import parse_range

NAME = "flop-equity"
TOLERANCE = 1e-15  # dyadic weights: exact sums; a rerun may sum the flops' equities in another order

#: (range A, range B, board, dead): hand vs range and range vs range, overlapping ranges, weights 1, 0.5 and 0.25,
#: flops, turns and a river, with dead cards; flushes, straights and paired boards (tests/test_flop_equity.py checks
#: each against eval7).
DISTRIBUTIONS = (
    ("AhQh", "QQ+,AK,0.5(KQs)", "Kh8h3c", ""),
    ("QQ+,AKs,0.5(T9s)", "JJ-99,AQs,0.25(KQo)", "Ts9h2c", "3d"),
    ("AA,KK,0.5(AKs)", "AA,KK,AQs", "Ad7c7h", ""),
    ("JTs,0.5(98s),22", "AA,0.25(KQs),T9s", "9c8c7d2h", "Qc"),
    ("A5s,0.5(66)", "44,0.5(A2s),KQs", "5h4h3d2s", ""),
    ("QQ,AKo", "JJ,0.5(AQ)", "KsQd7c7s2d", "Ah"),
)
#: Spots that raise: no deal, a board of two cards.
ERRORS = (("AsAh", "AsKs", "2c7d9h", ""), ("AA", "KK", "2c7d", ""))
REPORTS = (("AA,KK,0.5(AKs)", "QQ,JJ,AQs"), ("KK,0.25(T9s)", "KK,AKo,0.5(55)"))
NOT_SYMMETRIC = ("QQ+", "AsKs,QQ")
#: The texture groups whose equity and share each report gives (FlopReport.group): (texture key, value).
GROUPS = (("suits", "rainbow"), ("suits", "two-tone"), ("suits", "monotone"), ("pairing", "paired"), ("pairing", "trips"))
EVERY_FLOP = 50
EVERY_FLOP_LISTED = 25
EVERY_BOARD = 4000


def _weights(text: str) -> np.ndarray:
    return parse_range(text).weights


def distribution_case(a: str, b: str, board: str, dead: str, tables) -> dict:
    case = {"ranges": [a, b], "board": parse_cards(board), "dead": parse_cards(dead) if dead else []}
    try:
        ce = combo_equities(_weights(a), _weights(b), case["board"], case["dead"], tables)
    except (NoDealError, ValueError) as exc:
        return {**case, "error": str(exc)}
    d = equity_distribution(ce)
    return {
        **case, "combos": ce.combos, "win": ce.win, "tie": ce.tie, "total": ce.total, "boards": ce.boards,
        "equity": ce.equity, "weight": ce.weight, "curve": d.combos, "cumulative": d.cumulative,
        "quantiles": [[q, v] for q, v in d.quantiles.items()], "above": [[t, v] for t, v in d.above.items()],
        "overall": d.overall,
    }


def report_case(a: str, b: str, tables) -> dict:
    report = every_flop_report(_weights(a), _weights(b), tables)
    equity = report.equity
    with_deal = np.flatnonzero(report.total > 0)
    rows = [
        {"index": f, "cards": report.flops[f], "weight": report.flop_weight[f], "win": report.win[f], "tie": report.tie[f],
         "total": report.total[f], "equity": None if np.isnan(equity[f]) else equity[f], "share": report.share[f],
         "texture": texture(report.flops[f])}
        for f in range(0, len(report.flops), EVERY_FLOP)
    ]
    return {
        "ranges": [a, b], "sums": [report.win.sum(), report.tie.sum(), report.total.sum()], "overall": report.overall,
        "flops_with_a_deal": len(with_deal), "weighted_equity": float(((1 + with_deal % 7) * equity[with_deal]).sum()),
        "groups": [[name, *report.group(np.array([texture(cards)[key] == name for cards in report.flops]))]
                   for key, name in GROUPS],
        "rows": rows,
    }


def build() -> dict:
    from generator.core.evaluator_tables import evaluator_tables

    tables = evaluator_tables()
    try:
        every_flop_report(*(_weights(text) for text in NOT_SYMMETRIC), tables)
        raise AssertionError("a range that is not suit-symmetric was taken")
    except NotSuitSymmetricError as exc:
        refused = str(exc)
    flops, flop_weight = suit_distinct_flops()
    boards, sizes, flop_of = board_classes()
    return {
        "about": "kernels/flop/equity.py's answers; the evaluator tables are spec/evaluator-tables.bin.gz",
        "quantiles": list(QUANTILES),
        "thresholds": list(THRESHOLDS),
        "distributions": [distribution_case(*spot, tables) for spot in (*DISTRIBUTIONS, *ERRORS)],
        "reports": [report_case(*spot, tables) for spot in REPORTS],
        "not_symmetric": {"ranges": list(NOT_SYMMETRIC), "error": refused},
        "flops": [{"index": f, "cards": flops[f], "weight": flop_weight[f], "texture": texture(flops[f])}
                  for f in range(0, len(flops), EVERY_FLOP_LISTED)],
        "boards": [{"index": b, "cards": boards[b], "size": sizes[b], "flops": flop_of[b]}
                   for b in range(0, len(boards), EVERY_BOARD)],
    }
