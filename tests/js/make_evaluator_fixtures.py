"""Write tests/js/fixtures/evaluator.json and evaluator-tables.bin for tests/js/evaluator.test.mjs.

The JSON holds random 5-, 6- and 7-card hands with the Python evaluator's strengths, and a few
combo matchups with their exact counts from ``kernels.headsup.cpu.combo_matchup_counts``; the
binary file is the site's ``assets/evaluator-tables.bin`` (same writer).

Run from the repository root: ``.venv/bin/python tests/js/make_evaluator_fixtures.py``.
"""

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator.evaluator_asset import write_evaluator_asset
from generator.evaluator_tables import evaluator_tables
from kernels.cards import parse_cards
from kernels.evaluator.cpu import evaluate
from kernels.headsup.cpu import combo_matchup_counts

FIXTURES = Path(__file__).resolve().parent / "fixtures"
HANDS_PER_SIZE = 4000
#: Pairs that cover dominated, paired, suited and coin-flip cases, plus shared-suit flush fights.
MATCHUPS = (("AsKs", "QdQc"), ("AhAd", "7c2d"), ("JhTh", "9h8h"), ("5c5d", "AsKh"), ("AcKc", "AdKd"))


def random_hands(rng: np.random.Generator) -> list[dict]:
    """Random hands of 5, 6 and 7 distinct cards with their strengths: half from the full deck,
    half from the 26 cards of two suits (many flushes and some straight flushes)."""
    two_suits = np.array([c for c in range(52) if c % 4 in (0, 3)])
    hands = []
    for size in (5, 6, 7):
        rows = [rng.choice(52, size, replace=False) for _ in range(HANDS_PER_SIZE)]
        rows += [rng.choice(two_suits, size, replace=False) for _ in range(HANDS_PER_SIZE)]
        cards = np.array(rows)
        strengths = evaluate(cards, evaluator_tables())
        hands += [{"cards": row.tolist(), "strength": int(value)} for row, value in zip(cards, strengths)]
    return hands


def combo_matchups() -> list[dict]:
    """A few combo pairs with (wins, ties, losses) of the first over every board."""
    tables = evaluator_tables()
    results = []
    for first, second in MATCHUPS:
        a, b, c, d = parse_cards(first + second)
        win, tie, loss = combo_matchup_counts(a, b, c, d, *tables[:5]).tolist()
        results.append({"a": first, "b": second, "cards": [[a, b], [c, d]], "win": win, "tie": tie, "loss": loss})
    return results


def main() -> None:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    write_evaluator_asset(FIXTURES / "evaluator-tables.bin")
    data = {"hands": random_hands(np.random.default_rng(7462)), "matchups": combo_matchups()}
    (FIXTURES / "evaluator.json").write_text(json.dumps(data))
    print(f"wrote {FIXTURES / 'evaluator.json'} and evaluator-tables.bin")


if __name__ == "__main__":
    main()
