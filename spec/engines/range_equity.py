"""Golden cases of range equity: kernels/range_equity/ ↔ templates/assets/js/engines/range-equity.js and range-patterns.js.

* ``exact``: spots enumerated exactly (flops, turns, rivers, preflop with dead cards, 2..5 players, weights 1,
  0.5 and 0.25 so that every sum is exact in both languages, ranges that block each other, suit-symmetric
  spots), plus four random spots of 3..5 players; each with Python's fractions (both enumeration methods,
  which agree), its work estimate and the method Python chooses;
* ``python_exact_limit``: Python's exact limit (the browser's may not be larger: the CLI is exact wherever the
  page is);
* ``default_spot``: the calculator's first example (AsKs vs QQ+,AKo preflop), exact;
* ``sampled``: spots the node test samples, with their exact answer (a 5σ check and an interval coverage check);
* ``table``: a heads-up preflop spot of whole classes, answered from the exact 169×169 class table (the JS reads
  spec/matchups.bin.gz, the same counts as the build's heads-up tables used here);
* ``three_handed``: one class against two random hands preflop, answered from made-up exact three-handed counts
  (kernels/range_equity/tables.exact_block; the JS builds the same block with exactBlock);
* ``multiway``: one class against random hands preflop (hero in seat 2 of 4), answered from a multiway table
  whose only row is the hero class's (``row``, made-up figures of the published fields; every other class has
  no estimate, ``null``, in both languages).
"""

from __future__ import annotations

from math import comb
from types import SimpleNamespace

import numpy as np

from kernels.cards import ALL_COMBOS, N_CLASSES, format_cards, parse_cards
from kernels.ranges import parse_range

NAME = "range-equity"
TOLERANCE = 1e-15  # exact spots are dyadic sums (exact); the table spots are matrix products (summing order)

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
#: The calculator's first example, preflop.
DEFAULT_SPOT = (("AsKs", "QQ+,AKo"), "", "")
SAMPLED = ((("AhAd", "random", "random"), "KsQsJs", ""), (("AA", "AA,KK:0.3", "AK,0.5(KsQs)"), "2c7d9h", ""))
#: Whole classes heads-up preflop, answered from the class table.
TABLE = ("QQ+,AK", "JJ-99,0.5(AQs)")
#: One class against random hands preflop, answered from the multiway table (hero in seat 2 of 4).
MULTIWAY = ("random", "AKs", "random", "random")
#: The hero class's row of its multiway table (the fields kernels/range_equity/tables.py reads; tie_k: the
#: k-way tie probabilities, k = 2..10), made up in the shape of multiway.json.
MULTIWAY_ROW = {"equity": 0.3115234375, "se_equity": 0.000732421875, "win": 0.30078125,
                "tie_k": [0.017578125, 0.0009765625, 0, 0, 0, 0, 0, 0, 0], "samples": 400000}


#: One class against two random hands, answered from the exact three-handed counts (hero in seat 3).
THREE_HANDED = ("random", "random", "KTs")
#: Made-up three-handed counts in the shape of threehanded.json (integers; total > win + ties for every class).
FOUR_HANDED = ("random", "QJs", "random", "random")
#: Made-up counts of the fourhanded.json shape (the engines only divide them).
FOUR_HANDED_COUNTS = {"win": [900 + 5 * c for c in range(N_CLASSES)], "tie_2": [30 + c for c in range(N_CLASSES)],
                      "tie_3": [2 + c % 7 for c in range(N_CLASSES)], "tie_4": [1 + c % 3 for c in range(N_CLASSES)],
                      "total": [8192 + 8 * c for c in range(N_CLASSES)]}
THREE_HANDED_COUNTS = {"win": [1000 + 7 * c for c in range(N_CLASSES)], "tie_2": [40 + c for c in range(N_CLASSES)],
                       "tie_3": [3 + c % 5 for c in range(N_CLASSES)], "total": [4096 + 16 * c for c in range(N_CLASSES)]}


def weights_of(ranges):
    return [parse_range(r).weights for r in ranges]


def random_spots(seed: int = 2026, count: int = 4) -> list[tuple]:
    """Random spots for the 3+-player counting: 3..5 players, each a list of random combos (8..40 for three
    players, fewer for more) with weight 1, 0.5 or 0.25 (as range text), a random flop or turn and 0..2 dead
    cards (sizes that keep the golden quick to check)."""
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


def exact_case(ranges, board, dead, tables) -> dict:
    """An exact spot with Python's fractions (both enumeration methods agree), work estimate and method."""
    from kernels.range_equity import enumeration_work, live_weights
    from kernels.range_equity.enumeration import enumerate_equity, enumeration_method

    b, d = parse_cards(board) if board else [], parse_cards(dead) if dead else []
    live = live_weights(weights_of(ranges), b, d)
    result, other = (enumerate_equity(live, b, d, tables, method=m) for m in ("boards", "patterns"))
    agree = np.allclose(result.win, other.win, rtol=0, atol=1e-15) and np.allclose(result.ties, other.ties, rtol=0, atol=1e-15)
    assert agree, ranges  # to the last bit where the weights are dyadic
    return {"ranges": list(ranges), "board": b, "dead": d, "equity": result.equity, "win": result.win,
            "ties": result.ties, "boards": result.boards, "work": enumeration_work(live, b, d),
            "method": enumeration_method(live, b, d)}


def multiway_block(row: dict, hero_class: int) -> dict:
    """A multiway table's block for one player count holding only ``row`` (the hero class's figures): every
    other class has no estimate (None), as in tests/js/range-equity.test.mjs."""
    block = {field: [None] * N_CLASSES for field in row}
    for field in row:
        block[field][hero_class] = row[field]
    return block


def build() -> dict:
    from generator.core.evaluator_tables import evaluator_tables
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.range_equity import EXACT_LIMIT, range_equity
    from kernels.range_equity.tables import class_against_random, exact_block

    tables = evaluator_tables()
    headsup, _ = registry.results("headsup", default_run(progress=False))
    counts = SimpleNamespace(win=headsup.win, tie=headsup.tie, pairs=headsup.pairs)
    table = range_equity(weights_of(TABLE), (), (), tables, counts)
    assert table.method == "table" and table.exact

    n = len(MULTIWAY)
    _, hero_class = class_against_random(weights_of(MULTIWAY))
    multiway = range_equity(weights_of(MULTIWAY), (), (), tables, None, {n: multiway_block(MULTIWAY_ROW, hero_class)})
    assert multiway.method == "table" and not multiway.exact
    block = exact_block(THREE_HANDED_COUNTS, 3, comb(50, 5))
    three = range_equity(weights_of(THREE_HANDED), (), (), tables, None, {3: block})
    assert three.method == "table" and three.exact
    four = range_equity(weights_of(FOUR_HANDED), (), (), tables, None, {4: exact_block(FOUR_HANDED_COUNTS, 4, comb(50, 5))})
    assert four.method == "table" and four.exact
    return {
        "about": "kernels/range_equity's answers; the evaluator tables and the class table are spec/*.bin.gz",
        "exact": [exact_case(*spot, tables) for spot in (*EXACT, *random_spots())],
        "python_exact_limit": EXACT_LIMIT,
        "default_spot": exact_case(*DEFAULT_SPOT, tables),
        "sampled": [exact_case(*spot, tables) for spot in SAMPLED],
        "table": {"ranges": list(TABLE), "equity": table.equity, "ties": table.ties},
        "multiway": {
            "ranges": list(MULTIWAY), "players": n, "hero_class": hero_class, "row": MULTIWAY_ROW,
            "equity": multiway.equity, "se_equity": multiway.se_equity,
            "win": [None if np.isnan(v) else float(v) for v in multiway.win], "samples": multiway.samples,
        },
        "three_handed": {
            "ranges": list(THREE_HANDED), "counts": THREE_HANDED_COUNTS, "equity": three.equity, "boards": three.boards,
            "win": [None if np.isnan(v) else float(v) for v in three.win], "samples": three.samples,
            "ties": [[None if np.isnan(v) else float(v) for v in row] for row in three.ties],
        },
        "four_handed": {
            "ranges": list(FOUR_HANDED), "counts": FOUR_HANDED_COUNTS, "equity": four.equity, "samples": four.samples,
            "win": [None if np.isnan(v) else float(v) for v in four.win],
            "ties": [[None if np.isnan(v) else float(v) for v in row] for row in four.ties],
        },
    }
