"""``allin pushfold``: the push/fold Nash equilibrium of the reader's table (2..10 players)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import click
import numpy as np

from generator.core.storage import json_text
from generator.cli.bounties import bounty_options, model_line, read_bounties
from generator.core.numbers import parse_number, parse_number_list, parse_payouts
from generator.core.errors import InputError
from generator.core.progress import progress_bar
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.constants import PUSHFOLD_MAX_ITERATIONS as MAX_ITERATIONS

if TYPE_CHECKING:  # imported where used, so that `allin --help` does not load Numba
    import kernels.pushfold as pf


def _table(stacks_text, blinds_text, ante_text, bb_ante, payouts_text, bounties_text=None, share_text=None) -> pf.Table:
    import kernels.pushfold as pf

    stacks = parse_number_list(stacks_text, "--stacks")
    blinds = parse_number_list(blinds_text, "--blinds")
    if len(blinds) != 2:
        raise InputError(f"--blinds: give the small and the big blind (0.5,1), got {len(blinds)} numbers")
    ante = parse_number(ante_text, "--ante")
    payouts, percent = (None, False) if payouts_text is None else parse_payouts(payouts_text, "--payouts")  # %: a pool of 100
    bounties, share = read_bounties(bounties_text, share_text, percent)
    table = pf.Table(tuple(stacks), tuple(blinds), ante, bb_ante, None if payouts is None else tuple(payouts),
                     None if bounties is None else tuple(bounties), share)
    errors = pf.table_errors(table)
    if errors:
        raise InputError(errors[0])
    return table


def _equities(n: int):
    from generator.compute import registry
    from generator.compute.pushfold_records import holdem_equities
    from generator.compute.run import resolve_run
    from generator.core.config import Config

    run = resolve_run(Config(), "cpu", threeway_boards=1)  # the 3-way table as the build left it: any boards of its seed
    tables, _ = registry.results("headsup", run)
    if n == 2:
        return holdem_equities(tables)
    if not registry.cached("threeway", run):
        raise InputError("3+ players need the 3-way table: run `allin compute threeway` first (a few minutes)")
    click.echo("loading the 3-way table (a 250 MB class-triple tensor; 10-50 s)...", err=True)
    return holdem_equities(tables, registry.results("threeway", run)[0])


def _range_line(name: str, probabilities: np.ndarray) -> str:
    share = float(CLASS_COMBO_COUNT @ probabilities) / CLASS_COMBO_COUNT.sum()
    played = [c for c, p in zip(CLASS_NAMES, probabilities) if p >= 0.5]
    return f"{name}: {100 * share:.1f}% of hands: " + (" ".join(played) if played else "none")


def _figure(x: float) -> str:
    """A small non-negative figure: 4 decimals, or 2 significant digits below 0.001."""
    return f"{x:.4f}" if x >= 1e-3 or x == 0 else f"{x:.1e}"


@click.command("pushfold")
@click.option("--stacks", "stacks_text", required=True, metavar="LIST", help="Stacks in bb, first to act first; the last two are SB and BB.")
@click.option("--blinds", "blinds_text", default="0.5,1", show_default=True, metavar="SB,BB", help="Small and big blind in bb.")
@click.option("--ante", "ante_text", default="0", show_default=True, help="Ante per player in bb (with --bb-ante: the BB's ante).")
@click.option("--bb-ante", is_flag=True, help="Big-blind ante: only the BB posts the ante.")
@click.option("--payouts", "payouts_text", default=None, metavar="LIST", help="Prizes for 1st, 2nd, ... (ICM); none: chip EV.")
@bounty_options('Bounty on each player\'s head, in the unit of the payouts (ICM) or in bb (chip EV): "2 2 4" (0 for none). '
                "Payoffs then add the bounty term (docs/pushfold.md, Bounties).")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (all 169 classes per spot).")
def pushfold_command(stacks_text, blinds_text, ante_text, bb_ante, payouts_text, bounties_text, share_text, as_json):
    """Push/fold Nash equilibrium of a table: shove and call ranges per position, and the exploitability.

    With --bounties (KO/PKO): the payoffs include the bounties won and the share of those left.
    """
    import kernels.pushfold as pf
    from generator.compute.pushfold_records import solution_json, spot_name

    table = _table(stacks_text, blinds_text, ante_text, bb_ante, payouts_text, bounties_text, share_text)
    game = pf.make_game(table)
    equities = _equities(game.n)
    tolerance, class_tolerance = pf.RULE.tolerances(table)
    started = time.perf_counter()
    with progress_bar("push/fold DCFR", MAX_ITERATIONS, "it", enabled=not as_json, delay=1.0) as advance:
        solution = pf.solve(game, equities, tolerance=tolerance, max_iterations=MAX_ITERATIONS, class_tolerance=class_tolerance,
                            progress=lambda iteration, *_: advance(iteration), fallback_discount=pf.FALLBACK_DISCOUNT)
    solution = pf.published(game, equities, solution, tolerance, class_tolerance)
    document = solution_json(game, solution)
    if as_json:
        click.echo(json_text(document))
        return
    names = document["positions"]
    if table.bounties is not None:
        click.echo(model_line(table.bounties, table.bounty_share))
    for seat in game.open_sets:
        click.echo(_range_line(f"{names[seat]} shoves", solution.strategy[("open", seat)]))
    for spot in game.call_sets:
        click.echo(_range_line(f"{spot_name(names, ('call', *spot))} calls", solution.strategy[("call", *spot)]))
    exploit, worst = document["exploitability"], document["class_regret"]
    if exploit["bb"] is not None:
        unit, regret = f"{_figure(exploit['bb'])} bb", f"{_figure(worst['bb'])} bb"
    else:
        unit, regret = f"{_figure(exploit['pool_pct'])}% of the pool", f"{_figure(worst['pool_pct'])}% of the pool"
    click.echo(f"NashConv {unit}; worst class regret {regret} ({worst['class']}, {worst['spot']}); "
               f"{solution.iterations} {'discounted CFR' if solution.schedule == 'dcfr' else 'CFR (discounted, then CFR+)'} iterations "
               f"({time.perf_counter() - started:.1f} s); "
               "ranges list the classes played at least half the time")
    if not document["rule_met"]:
        click.echo(f"warning: the stopping rule was not met in {solution.iterations} iterations", err=True)
