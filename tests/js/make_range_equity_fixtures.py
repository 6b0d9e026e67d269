"""Write tests/js/fixtures/range-equity.json for tests/js/range-equity.test.mjs: spots with kernels.range_equity's answers.

Exact spots (enumeration, dyadic weights so every sum is exact in both languages, by both methods; with
each spot its work estimate and the method it chooses, and the file has Python's limit, so the test checks
that whatever the browser enumerates the CLI enumerates too), one heads-up
preflop spot answered from the 169×169 table (its win/tie/pairs counts are in the file), one class
against random hands answered from a multiway table (the synthetic table of tests/site_fixtures.py,
in the file), and sampled spots with the exact answer for a 5σ check and a coverage check. Also writes evaluator-tables.bin (as
make_evaluator_fixtures.py does) so the test can run alone.

Run from the repository root: ``.venv/bin/python tests/js/make_range_equity_fixtures.py``.
"""

import json
import sys

import numpy as np
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.evaluator_asset import write_evaluator_asset
from generator.evaluator_tables import evaluator_tables
from generator.stages.headsup import headsup_results
from tests.site_fixtures import multiway as synthetic_multiway
from kernels.cards import ALL_COMBOS, format_cards, parse_cards
from kernels.range_equity import EXACT_LIMIT, enumeration_work, live_weights, range_equity
from kernels.range_equity.enumeration import enumerate_equity, enumeration_method
from kernels.ranges import parse_range

FIXTURES = Path(__file__).resolve().parent / "fixtures"
MANY_DEAD = "2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9sTcTdThTsJcJd"
#: (ranges, board, dead): flops, turns, rivers, 2..4 players, weights, ranges that block each other, preflop.
EXACT = (
    (("QQ+,AK", "JJ-99,AQs"), "Kh8d3c", ""),
    (("AsKs", "QQ+,0.5(AKo)", "T9s,98s:0.25"), "Ts9h2c", "3d"),
    (("AA", "AA,KK:0.5", "AK,0.5(KsQs)"), "2c7d9h", ""),
    (("AhQd,9s9d", "Ad2c,0.5(9h8h)", "Ac3d,0.25(JhJs),5c5d"), "TcJdQhKs", ""),
    (("random", "AhAd"), "KsQsJs2c", "3h"),
    (("88,A5s", "KQo,0.25(JTs)", "22-44", "AhKh"), "8h5s2d", "Qc"),
    (("AsKs,AhAd,QhQs", "KdKh,0.5(AcQc),JhJs"), "", MANY_DEAD),
    (("random", "random"), "AsKsQsJs9d", ""),
    (("QQ+,AK", "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+"), "Kh8d3c", ""),
    (("0.5(AA),KK,AsKs", "random"), "9c8c7c", "Ac"),
    (("AhAd", "random", "random"), "KsQsJs", ""),
    (("random", "KQs,0.5(JJ)", "AhAd", "random"), "KsQsJs9d", "2c"),
    # suit symmetries: preflop (24, and 4 with dead cards fixing two pairs of suits), a monotone flop (6), a
    # two-tone flop with dead cards (2), a flush made on the board, ties on a paired river
    (("AsKs", "QQ+,AKo"), "", ""),
    (("AKs,0.5(QQ),AhKd", "KQo,JJ,0.25(AsQs)", "AJs,TT"), "", MANY_DEAD[: 2 * 36]),
    (("AKs,0.5(QhQd),KQo", "JJ-99,0.25(AQs)"), "", MANY_DEAD),
    (("QQ+,AK,0.5(T9s)", "JTs,98s,0.5(A5s),KQo"), "Kh8h3h", ""),
    (("AA,KhQh", "0.5(JTs),99", "T9s,0.25(AQo)"), "Kh8h3c", "2d2s"),
    (("AcKc,QcJc,0.5(TT+)", "KK,AQ,87s"), "9c8c7c", "3d"),
    (("AK,0.5(AQ)", "AK,KQs", "QQ,0.25(AJs)"), "AdKs7h7c2d", ""),
)
#: One class against random hands preflop, answered from the multiway table (hero in seat 2 of 4).
MULTIWAY = ("random", "AKs", "random", "random")
SAMPLED = ((("AhAd", "random", "random"), "KsQsJs", ""), (("AA", "AA,KK:0.3", "AK,0.5(KsQs)"), "2c7d9h", ""))


def weights_of(ranges):
    return [parse_range(r).weights for r in ranges]


def random_spots(seed: int = 2026, count: int = 4) -> list[tuple]:
    """Random spots for the 3+-player counting: 3..5 players, each a list of random combos (8..40 for three players) with weights
    1, 0.5 or 0.25 (as range text), a random flop or turn and 0..2 dead cards (sizes that keep the file quick to write)."""
    rng = np.random.default_rng(seed)
    spots = []
    for k in range(count):
        cards = rng.permutation(52)
        board_size, n_dead = (3, 4)[k % 2], int(rng.integers(0, 3))
        board, dead = format_cards(cards[:board_size]), format_cards(cards[board_size : board_size + n_dead])
        ranges = []
        players = 3 + k % 3
        low, high = {3: (8, 41), 4: (6, 16), 5: (4, 9)}[players]
        for _ in range(players):
            combos = rng.choice(len(ALL_COMBOS), int(rng.integers(low, high)), replace=False)
            weight = rng.choice(["", "0.5", "0.25"])
            text = ",".join(format_cards(ALL_COMBOS[c]) for c in combos)
            ranges.append(f"{weight}({text})" if weight else text)
        spots.append((tuple(ranges), board, dead))
    return spots


def exact_case(ranges, board, dead) -> dict:
    """An exact spot with Python's fractions (both enumeration methods agree), work estimate and method."""
    b, d = parse_cards(board) if board else [], parse_cards(dead) if dead else []
    live = live_weights(weights_of(ranges), b, d)
    result, other = (enumerate_equity(live, b, d, evaluator_tables(), method=m) for m in ("boards", "patterns"))
    assert np.allclose(result.win, other.win, rtol=0, atol=1e-15) and np.allclose(result.ties, other.ties, rtol=0, atol=1e-15), ranges
    return {"ranges": list(ranges), "board": b, "dead": d, "equity": result.equity.tolist(), "win": result.win.tolist(),
            "ties": result.ties.tolist(), "boards": result.boards, "work": enumeration_work(live, b, d),
            "method": enumeration_method(live, b, d)}


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    write_evaluator_asset(FIXTURES / "evaluator-tables.bin")
    headsup, _ = headsup_results(progress=False)
    table = range_equity(weights_of(("QQ+,AK", "JJ-99,0.5(AQs)")), (), (), evaluator_tables(), headsup)
    assert table.method == "table"
    block = synthetic_multiway(players=(len(MULTIWAY),))["by_players"][str(len(MULTIWAY))]
    multiway = range_equity(weights_of(MULTIWAY), (), (), evaluator_tables(), None, {len(MULTIWAY): block})
    assert multiway.method == "table" and not multiway.exact
    nan_to_none = lambda values: [None if v != v else v for v in values]
    data = {
        "exact": [exact_case(*spot) for spot in (*EXACT, *random_spots())],
        "python_exact_limit": EXACT_LIMIT,
        "default_spot": exact_case(("AsKs", "QQ+,AKo"), "", ""),  # the calculator's first example, preflop
        "sampled": [exact_case(*spot) for spot in SAMPLED],
        "table": {"ranges": ["QQ+,AK", "JJ-99,0.5(AQs)"], "equity": table.equity.tolist(), "ties": table.ties.tolist()},
        "matchups": {"win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "pairs": headsup.pairs.tolist()},
        "multiway": {
            "ranges": list(MULTIWAY), "by_players": {str(len(MULTIWAY)): block}, "equity": multiway.equity.tolist(),
            "se_equity": multiway.se_equity.tolist(), "win": nan_to_none(multiway.win.tolist()), "samples": multiway.samples,
        },
    }
    (FIXTURES / "range-equity.json").write_text(json.dumps(data))
    print(f"wrote {FIXTURES / 'range-equity.json'}: {len(EXACT) + len(random_spots())} exact, {len(SAMPLED)} sampled spots and a table spot")


if __name__ == "__main__":
    main()
