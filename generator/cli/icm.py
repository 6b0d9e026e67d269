"""``allin icm``: ICM prize equity and finishing-place probabilities for a field of chip stacks."""

import math
from pathlib import Path

import click
import numpy as np
import yaml

from generator.core.storage import json_text
from generator.cli.bounties import bounty_options, model_line, read_bounties
from generator.core.errors import InputError
from generator.core.numbers import parse_number, parse_number_list, parse_payouts
from generator.core.validation import load_yaml, number_list, number_text, read_text
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES, parse_class

TABLE_MAX_PLACES = 10  # place columns shown in the text table; --json carries all of them
PLACES_MAX_ENTRIES = 5_000_000  # players x paid places above which place probabilities are skipped


def read_stack_lines(path: Path) -> list[float]:
    """A CSV/text file with one stack per line (blank lines and # comments skipped)."""
    stacks = []
    for line_number, line in enumerate(read_text(path).splitlines(), start=1):
        entry = line.split("#", 1)[0].strip().rstrip(",")
        if entry:
            stacks.append(number_text(entry, f"{path.name} line {line_number}"))
    return stacks


def read_yaml_field(path: Path) -> tuple[list, list | None]:
    """A YAML mapping with a list ``stacks`` of numbers and optionally a list ``payouts``."""
    try:
        data = load_yaml(read_text(path))
    except yaml.YAMLError as error:
        raise InputError(f"{path.name}: not valid YAML ({str(error).splitlines()[0]})") from None
    if not isinstance(data, dict) or not isinstance(data.get("stacks"), list):
        raise InputError(f"{path.name}: expected a mapping with a list 'stacks' (and optionally 'payouts')")
    payouts = data.get("payouts")
    if payouts is not None and not isinstance(payouts, list):
        raise InputError(f"{path.name}: 'payouts' must be a list of prizes")
    stacks = number_list(data["stacks"], f"{path.name}: stacks")
    return stacks, None if payouts is None else number_list(payouts, f"{path.name}: payouts")


def read_field_file(path: Path) -> tuple[list, list | None]:
    """(stacks, payouts or None) from a YAML file (.yaml/.yml) or a one-stack-per-line CSV."""
    if path.suffix.lower() in (".yaml", ".yml"):
        return read_yaml_field(path)
    return read_stack_lines(path), None


def gather_field(stacks_text: str | None, payouts_text: str | None, field_file: Path | None) -> tuple[list, list, bool]:
    """(stacks, payouts, payouts in percent of the pool) from the options and/or the file; InputError
    when one is missing or doubled."""
    file_stacks, file_payouts = read_field_file(field_file) if field_file else (None, None)
    if stacks_text is not None and file_stacks is not None:
        raise InputError("give the stacks either with --stacks or in --file, not both")
    stacks = parse_number_list(stacks_text, "--stacks") if stacks_text is not None else file_stacks
    payouts, percent = parse_payouts(payouts_text, "--payouts") if payouts_text is not None else (file_payouts, False)
    if stacks is None:
        raise InputError("no stacks: give --stacks '500 300 200' or --file field.csv")
    if payouts is None:
        raise InputError("no payouts: give --payouts '600 400' (or a 'payouts' list in the YAML file)")
    if not math.isfinite(sum(payouts)):
        raise InputError("payouts: the prize pool adds up to more than 1.8e308; give the prizes in a larger unit")
    return stacks, payouts, percent


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def format_table(stacks: list, payouts: list, result, percent: bool = False, bounties=None, share: float = 1.0,
                 bounty_part=None) -> str:
    """A readable table: player, stack, chip share, equity and the first paid places' probabilities;
    money as % of the pool when the payouts were typed as percentages. With ``bounties`` (n,): each
    player's bounty, the ICM equity ("prize"), the bounty term ``bounty_part`` (n,) and their total."""
    from kernels.icm.harville import chip_shares

    shares = chip_shares(np.asarray(stacks))  # scaled by the largest stack: no overflow for huge stacks
    columns = 0 if result.places is None else min(len(payouts), TABLE_MAX_PLACES)
    money = ["equity"] if bounties is None else ["bounty", "prize", "bounty eq", "total"]
    header = ["player", "stack", "chips"] + money + [ordinal(r + 1) for r in range(columns)]
    rows = []
    for i, (stack, share_of_chips) in enumerate(zip(stacks, shares)):
        row = [str(i + 1), f"{stack:,.10g}", f"{share_of_chips:.2%}"]
        if bounties is None:
            row.append(f"{result.equity[i]:,.4f}" + ("%" if percent else ""))
        else:
            row += [f"{bounties[i]:,.10g}", f"{result.equity[i]:,.4f}", f"{bounty_part[i]:,.4f}",
                    f"{result.equity[i] + bounty_part[i]:,.4f}"]
        row += [f"{result.places[i, r]:.2%}" for r in range(columns)]
        rows.append(row)
    widths = [max(len(line[c]) for line in [header] + rows) for c in range(len(header))]
    lines = [
        f"ICM: {len(stacks)} players, {len(payouts)} paid places, prize pool {sum(payouts):,.10g}{'%' if percent else ''} "
        f"(method: {result.method})",
        *([] if bounties is None else [model_line(bounties, share)]),
        "",
        "  ".join(text.rjust(width) for text, width in zip(header, widths)),
    ]
    lines += ["  ".join(text.rjust(width) for text, width in zip(row, widths)) for row in rows]
    if result.places is None:
        lines.append(f"(place probabilities skipped: more than {PLACES_MAX_ENTRIES:,} player x place entries)")
    elif columns < len(payouts):
        lines.append(f"(first {columns} of {len(payouts)} places shown; --json has them all)")
    return "\n".join(lines)


BUBBLE_MAX_PLAYERS = 200  # n (n - 1) ICM evaluations: ~11 s at 100 players on the 2-core machine


def matrix_lines(matrix: np.ndarray, cell) -> list[str]:
    """Rows i (who risks) against columns j (the opponent), '-' where undefined."""
    n = matrix.shape[0]
    header = ["i \\ j"] + [str(j + 1) for j in range(n)]
    rows = [[str(i + 1)] + [cell(v) if np.isfinite(v) else "-" for v in matrix[i]] for i in range(n)]
    widths = [max(len(line[c]) for line in [header] + rows) for c in range(n + 1)]
    return ["  ".join(text.rjust(width) for text, width in zip(line, widths)) for line in [header] + rows]


def format_bubble_factors(stacks: list, payouts: list, result, bounties=None, share: float = 1.0) -> str:
    lines = [
        f"ICM: {len(stacks)} players, {len(payouts)} paid places, prize pool {sum(payouts):,.10g} (method: {result.method})",
        *([] if bounties is None else [model_line(bounties, share),
                                       "Values are ICM + bounty equity; below 1.00, winning gains more than losing costs "
                                       "(a knockout pays at once)."]),
        "",
        "Bubble factors (row i risks min(stack i, stack j) against column j; 1.00 = chip EV):",
        *matrix_lines(result.bubble_factor, lambda v: f"{v:.2f}"),
        "",
        "Risk premium (equity row i needs to call an even-money all-in, minus 50%):",
        *matrix_lines(result.risk_premium, lambda v: f"{(round(100 * v, 1) or 0.0):+.1f}%"),
    ]
    return "\n".join(lines)


def nullable(matrix: np.ndarray) -> list:
    """A matrix for JSON: NaN (undefined) as null, never NaN or Infinity."""
    return [[float(v) if np.isfinite(v) else None for v in row] for row in matrix]


def bubble_factor_output(stacks: list, payouts: list, method: str, as_json: bool, bounties=None,
                         share: float = 1.0) -> str:
    """The bubble-factor matrices as text or JSON; with ``bounties``, of ICM + bounty equity."""
    from kernels.icm import bounty, harville as icm

    if len(stacks) > BUBBLE_MAX_PLAYERS:
        raise InputError(
            f"--bubble-factors: {len(stacks):,} players is more than {BUBBLE_MAX_PLAYERS} "
            "(it takes one ICM evaluation per ordered pair of players)"
        )
    try:
        if bounties is None:
            result = icm.bubble_factors(stacks, payouts, method=method)
        else:
            result = bounty.bubble_factors(stacks, payouts, bounties, share, method=method)
    except ValueError as error:
        raise InputError(str(error)) from None
    if not as_json:
        return format_bubble_factors([float(s) for s in stacks], [float(p) for p in payouts], result, bounties, share)
    return json_text({
        "players": len(stacks), "paid": len(payouts), "method": result.method,
        **({} if bounties is None else {"bounties": bounties, "bounty_share": share}),
        "equity": result.equity.tolist(),
        "bubble_factors": nullable(result.bubble_factor),
        "required_equity": nullable(result.required_equity),
        "risk_premium": nullable(result.risk_premium),
    })


@click.command("icm")
@click.option("--stacks", "stacks_text", metavar="LIST", help="Chip stacks: \"10,000 5,000 2,500\" or \"500, 300, 200\" or 1500,1000,500 (see docs/icm.md).")
@click.option("--payouts", "payouts_text", metavar="LIST",
              help="Prizes for 1st, 2nd, ...: \"600 400\" or 50,30,20, or percentages of the pool: \"50% 30% 20%\".")
@click.option(
    "--file",
    "field_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Stacks from a file: CSV with one stack per line, or YAML with keys stacks and payouts.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "dp", "integral", "fourier"]),
    default="auto",
    show_default=True,
    help="dp: exact subset recursion (<= 22 players); integral: exact integral, any size; fourier: the same "
    "integral through the characteristic function (fast with many paid places); auto: dp up to 10, then the "
    "faster of the other two.",
)
@click.option(
    "--bubble-factors",
    "want_bubble",
    is_flag=True,
    help="Bubble factors and risk premiums for every ordered pair (an all-in for the smaller stack).",
)
@bounty_options()
@click.option("--json", "as_json", is_flag=True, help='Print {"equity": [...], "places": [[...]], "method": ...}.')
def icm_command(stacks_text, payouts_text, field_file, method, want_bubble, bounties_text, share_text, as_json):
    """ICM (Malmuth-Harville) prize equity and finishing-place probabilities.

    Zero stacks are busted players: they share the last places equally. At most one payout per player.
    With --bounties (KO/PKO): each player's equity split into prize (ICM), bounty and total.
    """
    from kernels.icm.bounty import bounty_equity, validate_bounties
    from kernels.icm.harville import prize_equity

    stacks, payouts, percent = gather_field(stacks_text, payouts_text, field_file)
    bounties, share = read_bounties(bounties_text, share_text, percent)
    if want_bubble:
        click.echo(bubble_factor_output(stacks, payouts, method, as_json, bounties, share))
        return
    want_places = len(stacks) * len(payouts) <= PLACES_MAX_ENTRIES
    try:
        result = prize_equity(stacks, payouts, method=method, places=want_places)
        if bounties is not None:
            bounty_part = bounty_equity(stacks, validate_bounties(stacks, bounties, share)[0])
    except ValueError as error:
        raise InputError(str(error)) from None
    if as_json:
        places = None if result.places is None else result.places.tolist()
        equity = {"equity": result.equity.tolist()} if bounties is None else {
            "bounties": bounties, "bounty_share": share, "equity": (result.equity + bounty_part).tolist(),
            "prize_equity": result.equity.tolist(), "bounty_equity": bounty_part.tolist()}
        click.echo(json_text({
            "players": len(stacks), "paid": len(payouts), "payouts_unit": "percent" if percent else "amount",
            **equity, "places": places, "method": result.method,
        }))
    else:
        click.echo(format_table([float(s) for s in stacks], [float(p) for p in payouts], result, percent, bounties,
                                share, None if bounties is None else bounty_part))


# ------------------------------------------------------------------------------------ allin icm-spot

GRID_RANKS = "AKQJT98765432"


def grid_class(row: int, column: int) -> str:
    """The hand class in a 13x13 chart cell: pairs on the diagonal, suited above, offsuit below."""
    high, low = GRID_RANKS[min(row, column)], GRID_RANKS[max(row, column)]
    return high + low if row == column else high + low + ("s" if row < column else "o")


def player_option(value: int | None, name: str, n: int) -> int | None:
    """A 1-based player number from the CLI as a 0-based index; InputError when out of the field."""
    if value is None:
        return None
    if not 1 <= value <= n:
        raise InputError(f"--{name}: player {value} is not in the field of {n} players (1 to {n})")
    return value - 1


def hero_summary(hand_text: str, weights, outcomes, ev, calls=None, ev_icm=None) -> dict:
    """The hero's hand or range (class ``weights``, 169): its name (the class, or the range as typed),
    weighted combo count and the combo-weighted averages of win, tie, lose, EV (and P(call), and the
    ICM part of the EV when there are bounties)."""
    from kernels.icm.spot import hero_average

    classes = np.flatnonzero(weights > 0)
    columns = [outcomes[:, 0], outcomes[:, 1], outcomes[:, 2], ev] + ([] if calls is None else [calls])
    averages = hero_average(np.stack(columns, axis=1), weights)
    return {
        "hand": CLASS_NAMES[classes[0]] if classes.size == 1 else hand_text.strip(),
        "classes": int(classes.size), "combos": float(weights @ CLASS_COMBO_COUNT),
        "win": float(averages[0]), "tie": float(averages[1]), "lose": float(averages[2]), "ev": float(averages[3]),
        "call_probability": None if calls is None else float(averages[4]),
        "ev_icm": None if ev_icm is None else float(hero_average(ev_icm, weights)),
    }


def hero_label(hero: dict) -> str:
    """"AJo", or "TT+,AQs+ (average over 58 combos)" for a range of several classes."""
    return hero["hand"] if hero["classes"] == 1 else f"{hero['hand']} (average over {hero['combos']:,.6g} combos)"


def hero_json(hero: dict | None, pool: float, side: str) -> dict | None:
    """The hero's averages as --json prints them (``ev_call_minus_fold`` or ``ev_shove_minus_fold``)."""
    if hero is None:
        return None
    data = {"hand": hero["hand"], "classes": hero["classes"], "combos": hero["combos"], "win": hero["win"],
            "tie": hero["tie"], "lose": hero["lose"], f"ev_{side}_minus_fold": hero["ev"],
            "ev_percent_of_pool": 100 * hero["ev"] / pool}
    if side == "shove":
        data["call_probability"] = hero["call_probability"]
    if hero["ev_icm"] is not None:
        data["ev_icm"], data["ev_bounty"] = hero["ev_icm"], hero["ev"] - hero["ev_icm"]
    return data


def ev_parts_text(hero: dict) -> str:
    """" (ICM -3.78, bounties +4.2)" with bounties, else nothing."""
    if hero["ev_icm"] is None:
        return ""
    return f" (ICM {hero['ev_icm']:+,.6g}, bounties {hero['ev'] - hero['ev_icm']:+,.6g})"


def bounty_lines(spot, hero: int, victim: int, labels: dict, bounties: list | None, share: float) -> tuple[list, list]:
    """With bounties: (the model's line, the hero's bounty equity by outcome, ``labels``: outcome ->
    name, naming whom his win knocks out); else two empty lists."""
    if bounties is None:
        return [], []
    parts = []
    for outcome, label in labels.items():
        knocked = outcome == "win" and spot.fields["win"][victim] == 0
        parts.append(f"{label} {spot.bounty[outcome]:,.6g}" + (f" (knocking out player {victim + 1})" if knocked else ""))
    return [model_line(bounties, share)], [f"Bounty equity of player {hero + 1}: {', '.join(parts)}."]


def pool_name(bounties) -> str:
    return "the pool" if bounties is None else "the prize pool"


def bounty_json(spot, role: str, bounties: list | None, share: float) -> dict:
    """The --json keys a spot with bounties adds: the bounties, the share, the hero's bounty equity by outcome."""
    if bounties is None:
        return {}
    return {"bounties": bounties, "bounty_share": share, f"{role}_bounty_equity": spot.bounty}


def hand_parts(ev, ev_icm, c: int) -> dict:
    """A hand's EV split (``ev_icm``, ``ev_bounty``) for --json with bounties."""
    return {} if ev_icm is None else {"ev_icm": ev_icm[c], "ev_bounty": ev[c] - ev_icm[c]}


def spot_text(spot, shover: int, caller: int, hero: dict | None, range_text: str, combos: int, ev,
              bounties: list | None = None, share: float = 1.0) -> str:
    pool = spot.pool
    fold, win = spot.chips["fold"], spot.chips["win"]
    model, bounty_equity = bounty_lines(spot, caller, shover, {"fold": "fold", "win": "call and win", "tie": "tie",
                                                               "lose": "lose"}, bounties, share)
    if bounties is None:
        needed = (f"Equity needed to call: {spot.required_icm:.2%} under ICM, {spot.required_chips:.2%} in chips "
                  f"(ICM adds {100 * (spot.required_icm - spot.required_chips):+.2f} points).")
    else:
        needed = (f"Equity needed to call: {spot.required_total:.2%} with bounties ({spot.required_icm:.2%} under ICM "
                  f"alone), {spot.required_chips:.2%} in chips.")
    lines = [
        f"ICM spot: {len(spot.fields['fold'])} players, prize pool {pool:,.10g} (method: {spot.method})",
        *model,
        f"Player {shover + 1} shoves; player {caller + 1} calls or folds (fold: {fold:,.10g} chips, "
        f"call and win: {win:,.10g}, call and lose: {spot.chips['lose']:,.10g}).",
        needed,
        f"ICM equity of player {caller + 1}: fold {spot.equity['fold']:,.6g}, call and win {spot.equity['win']:,.6g}, "
        f"tie {spot.equity['tie']:,.6g}, lose {spot.equity['lose']:,.6g}.",
        *bounty_equity,
    ]
    if hero is not None:
        verdict = "call" if hero["ev"] > 0 else "fold"
        lines += [
            f"{hero_label(hero)} against {range_text} ({combos:,} combos): equity {hero['win'] + hero['tie'] / 2:.2%} "
            f"(win {hero['win']:.2%}, tie {hero['tie']:.2%}).",
            f"EV(call) - EV(fold) = {hero['ev']:+,.6g} ({hero['ev'] / pool:+.3%} of {pool_name(bounties)}): "
            f"{verdict}{ev_parts_text(hero)}.",
        ]
    else:
        what = "EV(call) - EV(fold)" + ("" if bounties is None else " with bounties")
        lines += chart_lines(ev, pool, f"{what} in % of {pool_name(bounties)} against {range_text}, every hand (+ = call):")
    return "\n".join(lines)


def chart_lines(ev, pool: float, title: str) -> list[str]:
    """A 13x13 chart of EV differences in % of the pool (pairs on the diagonal, suited above)."""
    lines = ["", title, "     " + "".join(f"{r:>7}" for r in GRID_RANKS)]
    for row in range(13):
        cells = [f"{100 * ev[parse_class(grid_class(row, column))] / pool:+7.2f}" for column in range(13)]
        lines.append(f"{GRID_RANKS[row]:>5}" + "".join(cells))
    return lines


def shove_output(spot, players, paid, shover, caller, hero, range_text, combos, outcomes, calls, ev, as_json,
                 bounties: list | None = None, share: float = 1.0, ev_icm=None) -> str:
    """The shover's side: text (one hand or a chart) or JSON with all 169 hands; with ``bounties``, the
    bounty term apart (``ev_icm`` (169,): the ICM part of ``ev``)."""
    pool = spot.pool
    if as_json:
        return json_text({
            "players": players, "paid": paid, "pool": pool, "method": spot.method, "side": "shove",
            "shover": shover + 1, "caller": caller + 1, "shover_equity": spot.equity, "shover_chips": spot.chips,
            **bounty_json(spot, "shover", bounties, share),
            "range_combos": combos, "hand": None if hero is None else hero["hand"],
            "hero": hero_json(hero, pool, "shove"),
            "hands": {
                CLASS_NAMES[c]: {"call_probability": calls[c], "win": outcomes[c, 0], "tie": outcomes[c, 1],
                                 "ev_shove_minus_fold": ev[c], "ev_percent_of_pool": 100 * ev[c] / pool,
                                 **hand_parts(ev, ev_icm, c)}
                for c in range(len(CLASS_NAMES))
            },
        })
    model, bounty_equity = bounty_lines(spot, shover, caller, {"fold": "fold", "steal": "steal the blinds",
                                                               "win": "called and win", "tie": "tie", "lose": "lose"},
                                        bounties, share)
    lines = [
        f"ICM spot: {players} players, {paid} paid places, prize pool {pool:,.10g} (method: {spot.method})",
        *model,
        f"Player {shover + 1} shoves or folds; player {caller + 1} calls with {range_text} ({combos:,} combos).",
        f"ICM equity of player {shover + 1}: fold {spot.equity['fold']:,.6g}, steal the blinds {spot.equity['steal']:,.6g}, "
        f"called and win {spot.equity['win']:,.6g}, tie {spot.equity['tie']:,.6g}, lose {spot.equity['lose']:,.6g}.",
        *bounty_equity,
    ]
    if hero is not None:
        verdict = "shove" if hero["ev"] > 0 else "fold"
        lines += [
            f"{hero_label(hero)}: called {hero['call_probability']:.2%} of the time; equity when called "
            f"{hero['win'] + hero['tie'] / 2:.2%} (win {hero['win']:.2%}, tie {hero['tie']:.2%}).",
            f"EV(shove) - EV(fold) = {hero['ev']:+,.6g} ({hero['ev'] / pool:+.3%} of {pool_name(bounties)}): "
            f"{verdict}{ev_parts_text(hero)}.",
        ]
    else:
        what = "EV(shove) - EV(fold)" + ("" if bounties is None else " with bounties")
        lines += chart_lines(ev, pool, f"{what} in % of {pool_name(bounties)} against a caller with {range_text} "
                             "(+ = shove):")
    return "\n".join(lines)


def range_class_weights(text: str, ranking, option: str):
    """The parsed range and its class weights (169,); InputError naming ``option`` when it is not
    a range of whole classes."""
    from kernels.icm.spot import class_weights
    from kernels.ranges import RangeError, parse_range

    try:
        parsed = parse_range(text, ranking)
        return parsed, class_weights(parsed.weights)
    except (RangeError, ValueError) as error:
        raise InputError(f"{option}: {error}") from None


@click.command("icm-spot")
@click.option("--stacks", "stacks_text", required=True, metavar="LIST", help='Chip stacks: "1500 1000 500".')
@click.option("--payouts", "payouts_text", required=True, metavar="LIST", help='Prizes for 1st, 2nd, ...: "65 35".')
@click.option("--blinds", "blinds_text", default="0 0", show_default=True, metavar="SB,BB", help="Small and big blind: 1,2.")
@click.option("--ante", default="0", show_default=True, help="Ante every player posts (dead money).")
@click.option("--bb-ante", default="0", show_default=True,
              help="Big-blind ante: dead money the big blind posts for the table (instead of or on top of --ante).")
@click.option("--shover", type=int, required=True, help="Player number (from 1) who moves all in.")
@click.option("--caller", type=int, required=True, help="Player number who calls or folds (the hero).")
@click.option("--sb-player", type=int, default=None, help="Player in the small blind [default: the shover].")
@click.option("--bb-player", type=int, default=None, help="Player in the big blind [default: the caller].")
@click.option(
    "--side",
    type=click.Choice(["call", "shove"]),
    default="call",
    show_default=True,
    help="call: the hero is the caller, --range is the shover's range; shove: the hero is the shover, "
    "--range is the caller's calling range.",
)
@click.option("--range", "range_text", required=True, help='The opponent\'s range: "22+,A2s+,KTs+" or "20%".')
@click.option("--hand", default=None,
              help='The hero\'s hand class (AJo) or range ("TT+,AQs+", "20%": the combo-weighted average over its '
              'classes); without it, a 13x13 chart of every hand.')
@click.option("--method", type=click.Choice(["auto", "dp", "integral"]), default="auto", show_default=True)
@bounty_options()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (all 169 hands).")
def icm_spot_command(stacks_text, payouts_text, blinds_text, ante, bb_ante, shover, caller, sb_player, bb_player,
                     side, range_text, hand, method, bounties_text, share_text, as_json):
    """Call or fold against an all-in under ICM: equity needed (ICM and chips), the hand's exact
    equity against the shover's range (169x169 table, card removal) and EV(call) - EV(fold);
    with --side shove, EV(shove) - EV(fold) against the caller's calling range. With --bounties
    (KO/PKO), the bounty term is added and shown apart."""
    from generator.compute import registry
    from generator.compute.run import default_run
    from kernels.icm.harville import field_errors
    from kernels.icm.spot import call_probability, call_spot, outcomes_vs_range, shove_spot
    from kernels.ranges import ranking_from_equity

    stacks = parse_number_list(stacks_text, "--stacks")
    payouts, percent = parse_payouts(payouts_text, "--payouts")  # percentages of the pool read as a pool of 100
    bounties, share = read_bounties(bounties_text, share_text, percent)
    blinds = parse_number_list(blinds_text, "--blinds")
    if len(blinds) != 2:
        raise InputError(f"--blinds: give the small and the big blind (1 2), got {len(blinds)} numbers")
    ante_value = parse_number(ante, "--ante")
    bb_ante_value = parse_number(bb_ante, "--bb-ante")
    errors = field_errors(stacks, payouts)
    if errors:
        raise InputError("; ".join(errors))
    n = len(stacks)
    shover_index, caller_index = player_option(shover, "shover", n), player_option(caller, "caller", n)
    sb_index, bb_index = player_option(sb_player, "sb-player", n), player_option(bb_player, "bb-player", n)
    try:
        spot = (call_spot if side == "call" else shove_spot)(
            stacks, payouts, blinds[0], blinds[1], ante_value, shover_index, caller_index, sb_index, bb_index,
            method=method, big_blind_ante=bb_ante_value, bounties=bounties, bounty_share=share,
        )
    except ValueError as error:
        raise InputError(str(error)) from None
    tables, _ = registry.results("headsup", default_run(progress=False))
    ranking = ranking_from_equity(tables.vs_random_equity())
    parsed, weights = range_class_weights(range_text, ranking, "--range")
    hero_weights = None if hand is None else range_class_weights(hand, ranking, "--hand")[1]
    outcomes = outcomes_vs_range(tables.win, tables.tie, tables.loss, weights)
    combos = int(np.count_nonzero(parsed.weights))
    calls = call_probability(tables.pairs, weights) if side == "shove" else None
    chances = ([] if calls is None else [calls]) + [outcomes[:, 0], outcomes[:, 1], outcomes[:, 2]]
    ev = spot.ev_difference(*chances)
    if not np.all(np.isfinite(ev)):
        raise InputError("the EV is not a finite number for some hand; check the stacks, blinds and range")
    ev_icm = None if bounties is None else spot.ev_parts(*chances)[0]
    hero = None if hand is None else hero_summary(hand, hero_weights, outcomes, ev, calls, ev_icm)
    if side == "shove":
        click.echo(shove_output(spot, n, len(payouts), shover_index, caller_index, hero, range_text, combos,
                                outcomes, calls, ev, as_json, bounties, share, ev_icm))
        return
    if as_json:
        click.echo(json_text({
            "players": n, "paid": len(payouts), "pool": spot.pool, "method": spot.method,
            "shover": shover_index + 1, "caller": caller_index + 1,
            "required_equity_icm": spot.required_icm, "required_equity_chips": spot.required_chips,
            **({} if bounties is None else {"required_equity_total": spot.required_total}),
            "caller_equity": spot.equity, "caller_chips": spot.chips, **bounty_json(spot, "caller", bounties, share),
            "range_combos": combos,
            "hand": None if hero is None else hero["hand"], "hero": hero_json(hero, spot.pool, "call"),
            "hands": {
                CLASS_NAMES[c]: {"win": outcomes[c, 0], "tie": outcomes[c, 1], "ev_call_minus_fold": ev[c],
                                 "ev_percent_of_pool": 100 * ev[c] / spot.pool, **hand_parts(ev, ev_icm, c)}
                for c in range(len(CLASS_NAMES))
            },
        }))
    else:
        click.echo(spot_text(spot, shover_index, caller_index, hero, range_text, combos, ev, bounties, share))
