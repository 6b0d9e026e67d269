"""``allin flop``: the flop atlas on the command line (definitions in docs/flop.md).

``allin flop hits``: a weighted range's hit table on a flop, turn or river, with dead cards (made categories and
draws, weighted combos and shares; ``--json`` adds each combo's category and draws). ``allin flop equity`` and
``allin flop report`` (range against range on a board, and on every flop) are in :mod:`generator.cli.flop_equity`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from generator.core.errors import InputError
from generator.core.evaluator_tables import evaluator_tables
from generator.core.storage import json_text
from generator.cli.flop_equity import equity_command, flop_board, report_command
from generator.cli.queries import range_option
from kernels.cards import ALL_COMBOS, format_cards

if TYPE_CHECKING:
    from kernels.flop.categories import HitTable


@click.group("flop")
def flop_group():
    """The flop atlas: how a range meets a flop, turn or river (docs/flop.md)."""


flop_group.add_command(equity_command)
flop_group.add_command(report_command)


def _document(text: str, board: list[int], dead: list[int], table: HitTable) -> dict:
    """The ``--json`` document: the range, board and dead cards, each category's and draw's weighted combos and
    share, and each combo left with its weight, category and draws."""
    from kernels.flop.categories import DRAWS, MADE_CATEGORIES

    return {
        "range": text,
        "board": format_cards(board),
        "dead": format_cards(dead),
        "combos": len(table.kept),
        "weight": table.total,
        "made": [{"category": name, "combos": float(table.made_weight[i]), "share": float(table.made_share[i])}
                 for i, name in enumerate(MADE_CATEGORIES)],
        "draws": [{"draw": name, "combos": float(table.draw_weight[i]), "share": float(table.draw_share[i])}
                  for i, name in enumerate(DRAWS)],
        "hands": [{"hand": format_cards(sorted(combo, reverse=True)), "weight": float(weight), "made": MADE_CATEGORIES[made],
                   "draws": [name for bit, name in enumerate(DRAWS) if draws >> bit & 1]}
                  for combo, weight, made, draws in zip(table.combos, table.weights, table.made, table.draws)],
    }


def _print_table(document: dict) -> None:
    click.echo(f"{document['range']} on {document['board']}   dead {document['dead'] or '-'}   "
               f"{document['combos']:,} combos left, weight {document['weight']:g}")
    for heading, rows, key in (("made hand", document["made"], "category"), ("draw", document["draws"], "draw")):
        click.echo(f"\n{heading:<20} {'combos':>9} {'share':>8}")
        for row in rows:
            click.echo(f"{row[key]:<20} {row['combos']:>9.6g} {row['share']:>8.2%}")


@flop_group.command("hits")
@click.option("--range", "range_text", required=True, help='A range (docs/equity.md), e.g. "QQ+,AKs" or "15%".')
@click.option("--board", "board_text", required=True, help="A flop, turn or river: 3, 4 or 5 cards (e.g. AsKd7c).")
@click.option("--dead", "dead_text", default="", help="Dead cards (e.g. 2c7d).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with each combo's category and draws).")
def hits_command(range_text, board_text, dead_text, as_json):
    """A range's hit table on a board: each made category (straight flush … no made hand) and each draw, in
    weighted combos and in shares of the range's combos left after the board and dead cards (docs/flop.md)."""
    from kernels.flop.categories import range_hit_table  # Numba: imported by the commands that compute

    board, dead = flop_board(board_text, dead_text)
    weights = range_option(range_text, "--range")
    live = weights.nonzero()[0]
    try:
        table = range_hit_table(ALL_COMBOS[live], weights[live], board, dead, evaluator_tables())
    except ValueError as exc:  # the board and dead cards hold a card of every combo of the range
        raise InputError(f"--range ({range_text}): {exc}") from None
    document = _document(range_text, board, dead, table)
    if as_json:
        click.echo(json_text(document))
    else:
        _print_table(document)
