"""``allin flop equity`` and ``allin flop report``: range against range after the flop, exact (docs/flop.md,
"Equity on a board"; kernels/flop/equity.py).

``allin flop equity``: each combo of a range against a villain range on a flop, turn or river with dead cards,
as Equilab's equity graph: the range's equity, quantiles, shares above 50/70/90% (``--json``: each combo's
equity and weight in the deal). ``allin flop report``: the range's equity on every one of the 1,755 suit-distinct
flops (their share of the deal and texture), sorted, filtered by texture, with the equity by texture.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click
import numpy as np

from generator.cli.queries import cards_option, range_option
from generator.core.errors import InputError
from generator.core.evaluator_tables import evaluator_tables
from generator.core.progress import progress_bar
from generator.core.storage import json_text
from kernels.cards import ALL_COMBOS, RANKS, format_card, format_cards

if TYPE_CHECKING:
    from kernels.range_equity import NoDealError

#: Texture filters of ``allin flop report`` (docs/flop.md): the flop's suits and its pairing.
TEXTURES = ("rainbow", "two-tone", "monotone", "unpaired", "paired", "trips")
SIDES = ("--range", "--villain")


def flop_board(board_text: str, dead_text: str) -> tuple[list[int], list[int]]:
    """The card ids of ``--board`` (a flop, turn or river) and ``--dead``, checked: one error line names the option."""
    board, dead = cards_option(board_text, "--board"), cards_option(dead_text, "--dead")
    if not 3 <= len(board) <= 5:
        raise InputError(f"--board: a flop, turn or river has 3, 4 or 5 cards, got {len(board)}")
    shared = sorted(set(board) & set(dead))
    if shared:
        raise InputError(f"--dead: {format_cards(shared)} is also on the board")
    return board, dead


def _no_deal(exc: NoDealError, texts: tuple[str, str]) -> InputError:
    """The error line of a spot with no deal: the range left empty and the cards that emptied it, each with who
    holds it (the board, the dead cards or the other range's only hand)."""
    if exc.player is None:
        return InputError(str(exc))
    taken = ", ".join(f"{format_card(card)} ({who if isinstance(who, str) else SIDES[who]})" for card, who in exc.blockers)
    return InputError(f"{SIDES[exc.player]} ({texts[exc.player]}): no hand left: every hand in it holds a card already "
                      f"taken: {taken}")


def _percent(x: float) -> str:
    return f"{x:.2%}"


def _hand(combo: int) -> str:
    return format_cards(ALL_COMBOS[combo][::-1])


@click.command("equity")
@click.option("--range", "range_text", required=True, help='Your range or hand (docs/equity.md), e.g. "QQ+,AKs", "AhKh" or "15%".')
@click.option("--villain", "villain_text", required=True, help='The villain\'s range, e.g. "22+,A2s+".')
@click.option("--board", "board_text", required=True, help="A flop, turn or river: 3, 4 or 5 cards (e.g. Kh8d3c).")
@click.option("--dead", "dead_text", default="", help="Dead cards (e.g. 2c7d).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON (with each combo's equity and weight in the deal).")
def equity_command(range_text, villain_text, board_text, dead_text, as_json):
    """The equity distribution of --range against --villain on a board (Equilab's equity graph), exact: every
    completion of the board, every compatible villain combo. Prints the range's equity, the equity at the
    10/25/50/75/90% quantiles of the range (combos weighted by their weight in the deal: range weight × the
    villain's compatible weight) and the share of the range above 50/70/90% equity."""
    from kernels.flop.equity import combo_equities, equity_distribution  # Numba: imported by the commands that compute
    from kernels.range_equity import NoDealError

    board, dead = flop_board(board_text, dead_text)
    texts = (range_text, villain_text)
    weights = [range_option(text, option) for text, option in zip(texts, SIDES)]
    started = time.monotonic()
    try:
        equities = combo_equities(*weights, board, dead, evaluator_tables())
    except NoDealError as exc:
        raise _no_deal(exc, texts) from None
    d = equity_distribution(equities)
    document = {
        "range": range_text, "villain": villain_text, "board": format_cards(board), "dead": format_cards(dead),
        "equity": d.overall, "boards": equities.boards, "combos": len(d.combos),
        "quantiles": {f"{q:g}": v for q, v in d.quantiles.items()}, "above": {f"{t:g}": v for t, v in d.above.items()},
        "hands": [{"hand": _hand(c), "equity": float(e), "weight": float(w)} for c, e, w in zip(d.combos, d.equity, d.weight)],
    }
    if as_json:
        click.echo(json_text(document))
        return
    click.echo(f"{range_text} vs {villain_text} on {document['board']}   dead {document['dead'] or '-'}   exact: "
               f"{document['combos']:,} combos, {document['boards']:,} boards each   ({time.monotonic() - started:.2f} s)")
    click.echo(f"equity {_percent(d.overall)}")
    click.echo("quantiles  " + "   ".join(f"{float(q):.0%} {_percent(v)}" for q, v in document["quantiles"].items()))
    click.echo("above      " + "   ".join(f"{float(t):.0%} {_percent(v)}" for t, v in document["above"].items()))


def _rows(report) -> list[dict]:
    """One row per suit-distinct flop: cards (high card first), flops it stands for, A's equity (None where no deal
    reaches it), share of the deal, texture."""
    from kernels.flop.flops import texture

    return [
        {"flop": format_cards(sorted(cards.tolist(), reverse=True)), "weight": int(weight),
         "equity": None if np.isnan(e) else float(e), "share": float(share), "texture": texture(cards)}
        for cards, weight, e, share in zip(report.flops, report.flop_weight, report.equity, report.share)
    ]


def _has(row: dict, name: str) -> bool:
    """Whether a row's flop has the texture ``name`` (one of :data:`TEXTURES`)."""
    return row["texture"]["suits" if name in TEXTURES[:3] else "pairing"] == name


def _sort_key(sort_by: str):
    """Highest first: A's equity (flops no deal reaches last) or the share of the deal."""
    if sort_by == "weight":
        return lambda row: -row["share"]
    return lambda row: (row["equity"] is None, -(row["equity"] or 0.0))


@click.command("report")
@click.option("--range", "range_text", required=True, help='Your range (suit-symmetric, e.g. "QQ+,AKs" or "20%").')
@click.option("--villain", "villain_text", required=True, help='The villain\'s range (suit-symmetric).')
@click.option("--sort", "sort_by", type=click.Choice(["equity", "weight"]), default="equity", show_default=True,
              help="Order of the flops: your equity or their share of the deal, highest first.")
@click.option("--texture", "textures", type=click.Choice(TEXTURES), multiple=True,
              help="Only flops of this texture (repeat to combine: --texture two-tone --texture paired).")
@click.option("--top", type=click.IntRange(min=1), default=None, help="Only the first N flops (default: all).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def report_command(range_text, villain_text, sort_by, textures, top, as_json):
    """--range against --villain on every flop, exact: for each of the 1,755 suit-distinct flops (each standing
    for 4, 12 or 24 of the 22,100), your equity over every turn, river and compatible villain combo, the flop's
    share of the deal and its texture; then your equity by texture. The flops' equities weighted by their shares
    are your preflop equity. Takes ranges whose suits are interchangeable (whole classes)."""
    from kernels.flop.boards import N_BOARD_CLASSES  # Numba: imported by the commands that compute
    from kernels.flop.equity import NotSuitSymmetricError, every_flop_report
    from kernels.range_equity import NoDealError

    texts = (range_text, villain_text)
    weights = [range_option(text, option) for text, option in zip(texts, SIDES)]
    started = time.monotonic()
    names = [f"{option} ({text})" for option, text in zip(SIDES, texts)]
    try:
        with progress_bar("flops", N_BOARD_CLASSES, "board classes", delay=1.0) as advance:
            report = every_flop_report(*weights, evaluator_tables(), progress=advance, names=names)
    except NotSuitSymmetricError as exc:
        raise InputError(str(exc)) from None
    except NoDealError as exc:
        raise _no_deal(exc, texts) from None
    rows = _rows(report)
    by_texture = {}
    for name in TEXTURES:
        equity, share = report.group(np.array([_has(row, name) for row in rows]))
        by_texture[name] = {"equity": equity, "share": share}
    shown = sorted((row for row in rows if all(_has(row, name) for name in textures)), key=_sort_key(sort_by))[:top]
    if as_json:
        click.echo(json_text({"range": range_text, "villain": villain_text, "equity": report.overall,
                              "by_texture": by_texture, "flops": shown}))
        return
    click.echo(f"{range_text} vs {villain_text}: every flop, exact ({time.monotonic() - started:.1f} s); "
               f"preflop equity {_percent(report.overall)}")
    click.echo("by texture  " + "   ".join(f"{name} {_percent(v['equity']) if v['equity'] is not None else '–'}"
                                          for name, v in by_texture.items()))
    click.echo(f"\n{'flop':<7} {'equity':>7} {'share':>7} {'flops':>5}  texture")
    for row in shown:
        t = row["texture"]
        equity = _percent(row["equity"]) if row["equity"] is not None else "–"
        click.echo(f"{row['flop']:<7} {equity:>7} {row['share']:>7.3%} {row['weight']:>5}  "
                   f"{t['suits']}, {t['pairing']}, {RANKS[t['high']]} high, straights {t['straights']}")
