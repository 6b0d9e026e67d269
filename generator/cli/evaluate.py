"""``allin eval``: strength and category of 5- to 7-card hands."""


import click
import numpy as np

from generator.core.storage import json_text
from generator.core.backend import backend_option, resolve_backend
from generator.core.errors import InputError
from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import CardError, parse_cards
from kernels.evaluator import CATEGORY_NAMES, category_of


def parse_hand(text: str) -> list[int]:
    """A 5-, 6- or 7-card hand written as concatenated cards (``AsKsQsJsTs2c3d``)."""
    try:
        cards = parse_cards(text)
    except CardError as exc:
        raise InputError(str(exc)) from None
    if not 5 <= len(cards) <= 7:
        raise InputError(f"{text!r}: a hand has 5 to 7 cards (10 to 14 characters), got {len(cards)}")
    return cards


def evaluate_hands(hands: list[list[int]], backend: str) -> np.ndarray:
    """Strengths of hands (each 5–7 card ids; grouped by size for the batch kernels), ``(len(hands),)``."""
    tables = evaluator_tables()
    if backend == "gpu":
        from kernels.evaluator import gpu as kernel_module
    else:
        from kernels.evaluator import cpu as kernel_module
    strengths = np.zeros(len(hands), dtype=np.int64)
    for size in {len(h) for h in hands}:
        rows = [i for i, h in enumerate(hands) if len(h) == size]
        strengths[rows] = kernel_module.evaluate(np.array([hands[i] for i in rows]), tables)
    return strengths


@click.command("eval")
@click.argument("hands", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
@backend_option
def eval_command(hands, as_json, backend):
    """Evaluate poker hands: best 5-card hand and strength (1..7462, higher wins).

    Each HAND is 5 to 7 cards written together, e.g. AsKsQsJsTs2c3d (ranks 23456789TJQKA,
    suits cdhs).
    """
    parsed = [parse_hand(text) for text in hands]
    strengths = evaluate_hands(parsed, resolve_backend(backend))
    categories = category_of(strengths, evaluator_tables().category_floor)
    rows = [
        {"hand": text, "category": CATEGORY_NAMES[int(cat)], "strength": int(strength)}
        for text, cat, strength in zip(hands, categories, strengths)
    ]
    if as_json:
        click.echo(json_text(rows))
        return
    width = max(len(text) for text in hands)
    for row in rows:
        click.echo(f"{row['hand']:<{width}}  {row['category']:<16} {row['strength']:>5}")
