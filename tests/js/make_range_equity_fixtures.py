"""Write tests/js/fixtures/range-equity.json for tests/js/range-equity.test.mjs: spots with kernels.range_equity's answers.

Exact spots (enumeration, dyadic weights so every sum is exact in both languages), one heads-up
preflop spot answered from the 169×169 table (its win/tie/pairs counts are in the file), and
sampled spots with the exact answer for a 5σ check. Also writes evaluator-tables.bin (as
make_evaluator_fixtures.py does) so the test can run alone.

Run from the repository root: ``.venv/bin/python tests/js/make_range_equity_fixtures.py``.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.evaluator_asset import write_evaluator_asset  # noqa: E402
from generator.evaluator_tables import evaluator_tables  # noqa: E402
from generator.stages.headsup import headsup_results  # noqa: E402
from kernels.cards import parse_cards  # noqa: E402
from kernels.range_equity import enumerate_equity, live_weights, range_equity  # noqa: E402
from kernels.ranges import parse_range  # noqa: E402

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
)
SAMPLED = ((("AhAd", "random", "random"), "KsQsJs", ""), (("AA", "AA,KK:0.3", "AK,0.5(KsQs)"), "2c7d9h", ""))


def weights_of(ranges):
    return [parse_range(r).weights for r in ranges]


def exact_case(ranges, board, dead) -> dict:
    b, d = parse_cards(board) if board else [], parse_cards(dead) if dead else []
    result = enumerate_equity(live_weights(weights_of(ranges), b, d), b, d, evaluator_tables())
    return {"ranges": list(ranges), "board": b, "dead": d, "equity": result.equity.tolist(), "win": result.win.tolist(),
            "ties": result.ties.tolist(), "boards": result.boards}  # fmt: skip


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    write_evaluator_asset(FIXTURES / "evaluator-tables.bin")
    headsup, _ = headsup_results(progress=False)
    table = range_equity(weights_of(("QQ+,AK", "JJ-99,0.5(AQs)")), (), (), evaluator_tables(), headsup)
    assert table.method == "table"
    data = {
        "exact": [exact_case(*spot) for spot in EXACT],
        "sampled": [exact_case(*spot) for spot in SAMPLED],
        "table": {"ranges": ["QQ+,AK", "JJ-99,0.5(AQs)"], "equity": table.equity.tolist(), "ties": table.ties.tolist()},
        "matchups": {"win": headsup.win.tolist(), "tie": headsup.tie.tolist(), "pairs": headsup.pairs.tolist()},
    }
    (FIXTURES / "range-equity.json").write_text(json.dumps(data))
    print(f"wrote {FIXTURES / 'range-equity.json'}: {len(EXACT)} exact, {len(SAMPLED)} sampled spots and a table spot")


if __name__ == "__main__":
    main()
