"""Golden cases of the hand evaluator: kernels/evaluator (+ kernels/headsup.cpu.combo_matchup_counts) ↔
templates/assets/js/engines/evaluator.js, which reads the same lookup tables (spec/evaluator-tables.bin.gz, the
site's assets/evaluator-tables.bin).

``hands``: random 5-, 6- and 7-card hands, half from the full deck and half from two suits (many flushes and
straight flushes), and hands at the edges of the categories (best and worst straight flush, quads, full
house, flush, straight (the wheel), trips, two pair, pair, high card), each with its strength (1..7462,
higher wins). ``matchups``: combo pairs with their exact (win, tie, loss) counts over every board.
"""

from __future__ import annotations

import numpy as np

from kernels.cards import format_cards, parse_cards

NAME = "evaluator"
TOLERANCE = 0.0  # strengths and counts are integers

HANDS_PER_SIZE = 400
EDGES = (
    "AsKsQsJsTs", "5d4d3d2dAd", "AcAdAhAsKc", "2c2d2h2s3c", "AcAdAhKsKc", "2c2d2h3s3c", "AsKsQsJs9s", "7h5h4h3h2h",
    "AsKdQhJcTs", "5c4d3h2sAd", "AcAdAhKsQc", "2c2d2h4s3c", "AcAdKhKsQc", "3c3d2h2s4c", "AcAdKhQsJc", "2c2d5h4s3c",
    "AcKdQhJs9c", "7c5d4h3s2c", "AsKsQsJsTs9s8s", "6s5s4s3s2sAsAd", "AhAdAcAs2h3h4h", "KhQhJhTh9h8h7h", "2c3d4h5s7c8d9h",
    "AcAdAhKsKcKhQd", "9s8s7s6s5d4d3d", "Ts9h8d7c6s5h4d",
)
#: Pairs that cover dominated, paired, suited and coin-flip cases, plus shared-suit flush fights.
MATCHUPS = (("AsKs", "QdQc"), ("AhAd", "7c2d"), ("JhTh", "9h8h"), ("5c5d", "AsKh"), ("AcKc", "AdKd"))


def _random_hands(rng: np.random.Generator) -> list[np.ndarray]:
    two_suits = np.array([c for c in range(52) if c % 4 in (0, 3)])
    hands = []
    for size in (5, 6, 7):
        hands += [rng.choice(52, size, replace=False) for _ in range(HANDS_PER_SIZE)]
        hands += [rng.choice(two_suits, size, replace=False) for _ in range(HANDS_PER_SIZE)]
    return hands


def build() -> dict:
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.evaluator.cpu import evaluate
    from kernels.headsup.cpu import combo_matchup_counts

    tables = evaluator_tables()
    hands = [np.array(parse_cards(text)) for text in EDGES] + _random_hands(np.random.default_rng(7462))
    strengths = [0] * len(hands)
    for size in (5, 6, 7):  # one call per hand size
        rows = [k for k, hand in enumerate(hands) if len(hand) == size]
        for k, value in zip(rows, evaluate(np.array([hands[k] for k in rows]), tables).tolist()):
            strengths[k] = value
    matchups = []
    for first, second in MATCHUPS:
        a, b, c, d = parse_cards(first + second)
        win, tie, loss = combo_matchup_counts(a, b, c, d, *tables[:5]).tolist()
        matchups.append({"a": first, "b": second, "cards": [[a, b], [c, d]], "win": win, "tie": tie, "loss": loss})
    return {
        "about": "kernels/evaluator's strength (1..7462) of each hand [cards, strength], and combo matchups' exact counts.",
        "hands": [[format_cards(h), s] for h, s in zip(hands, strengths)],
        "matchups": matchups,
    }
