"""``allin icm``: ICM prize equity and finishing-place probabilities for a field of chip stacks."""

import json
import math
import re
from pathlib import Path

import click
import numpy as np
import yaml

from generator.errors import InputError
from generator.validation import number_list, number_text, read_text
from kernels.icm import bubble_factors, chip_shares, prize_equity

TABLE_MAX_PLACES = 10  # place columns shown in the text table; --json carries all of them
PLACES_MAX_ENTRIES = 5_000_000  # players x paid places above which place probabilities are skipped


# The list grammar, shared with templates/assets/js/icm.js (parseNumberList; fixtures in
# tests/js/make_icm_fixtures.py): entries are separated by white space, new lines, ';', or a comma
# next to white space or at either end ("500, 300, 200"). A comma between two characters ("10,000")
# is a thousands separator when the list has other separators, and must then group digits by three;
# in a list with no other separator ("500,300,200", the URL and CLI form) it separates entries, unless
# every part after the first has three digits ("10,000", "600,400"): that reads both ways and is refused.
SEPARATORS = re.compile("[ \t\n\r\f\v\u00a0;]+")
NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
NON_FINITE = re.compile(r"[+-]?(inf|infinity|nan)", re.IGNORECASE)
GROUPED = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d+)?")
SHOWN_ENTRY = 24


def shown_entry(text: str) -> str:
    """An entry for a message: printable ASCII kept, anything else as '?', at most 24 characters."""
    printable = "".join(c if " " <= c <= "~" else "?" for c in text)
    return printable if len(printable) <= SHOWN_ENTRY else printable[: SHOWN_ENTRY - 3] + "..."


def entry_number(text: str, name: str, index: int) -> float:
    """One entry (no commas left) as a finite float; InputError saying why not."""
    if NON_FINITE.fullmatch(text):
        raise InputError(f"{name}: entry {index} must be a finite number, got {shown_entry(text)}")
    if not NUMBER.fullmatch(text):
        raise InputError(f"{name}: entry {index} is not a number ({shown_entry(text) if text else 'empty'})")
    number = float(text)
    if not math.isfinite(number):
        raise InputError(f"{name}: entry {index} must be a finite number, got {shown_entry(text)}")
    return number


def parse_number_list(text: str, name: str) -> list[float]:
    """'10,000 5,000 2,500' or '500, 300, 200' or '500,300,200' -> floats, by the grammar above;
    InputError with one message saying why not (bad entry, bad digit grouping, ambiguous commas)."""
    chunks = [chunk.strip(",") for chunk in SEPARATORS.split(text)]
    chunks = [chunk for chunk in chunks if chunk]
    if len(chunks) == 1 and "," in chunks[0]:
        parts = chunks[0].split(",")
        if GROUPED.fullmatch(chunks[0]):
            raise InputError(
                f'{name}: "{shown_entry(chunks[0])}" is ambiguous: one number ({shown_entry("".join(parts))}) or '
                f"{len(parts)} entries ({', '.join(parts)})? Separate entries with a space or a comma and a space "
                f"({', '.join(parts)}), or write the number without commas"
            )
        return [entry_number(part, name, index) for index, part in enumerate(parts, start=1)]
    numbers = []
    for index, chunk in enumerate(chunks, start=1):
        if "," in chunk:
            if not GROUPED.fullmatch(chunk):
                raise InputError(
                    f"{name}: entry {index} ({shown_entry(chunk)}): a comma inside a number must group digits by "
                    "three (10,000); separate entries with spaces, new lines or a comma and a space"
                )
            chunk = chunk.replace(",", "")
        numbers.append(entry_number(chunk, name, index))
    return numbers


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
        data = yaml.safe_load(read_text(path))
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


def gather_field(stacks_text: str | None, payouts_text: str | None, field_file: Path | None) -> tuple[list, list]:
    """The stacks and payouts from the options and/or the file; InputError when one is missing or doubled."""
    file_stacks, file_payouts = read_field_file(field_file) if field_file else (None, None)
    if stacks_text is not None and file_stacks is not None:
        raise InputError("give the stacks either with --stacks or in --file, not both")
    stacks = parse_number_list(stacks_text, "--stacks") if stacks_text is not None else file_stacks
    payouts = parse_number_list(payouts_text, "--payouts") if payouts_text is not None else file_payouts
    if stacks is None:
        raise InputError("no stacks: give --stacks '500 300 200' or --file field.csv")
    if payouts is None:
        raise InputError("no payouts: give --payouts '600 400' (or a 'payouts' list in the YAML file)")
    if not math.isfinite(sum(payouts)):
        raise InputError("payouts: the prize pool adds up to more than 1.8e308; give the prizes in a larger unit")
    return stacks, payouts


def ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def format_table(stacks: list, payouts: list, result) -> str:
    """A readable table: player, stack, chip share, equity and the first paid places' probabilities."""
    shares = chip_shares(np.asarray(stacks))  # scaled by the largest stack: no overflow for huge stacks
    columns = 0 if result.places is None else min(len(payouts), TABLE_MAX_PLACES)
    header = ["player", "stack", "chips", "equity"] + [ordinal(r + 1) for r in range(columns)]
    rows = []
    for i, (stack, share) in enumerate(zip(stacks, shares)):
        row = [str(i + 1), f"{stack:,.10g}", f"{share:.2%}", f"{result.equity[i]:,.4f}"]
        row += [f"{result.places[i, r]:.2%}" for r in range(columns)]
        rows.append(row)
    widths = [max(len(line[c]) for line in [header] + rows) for c in range(len(header))]
    lines = [
        f"ICM: {len(stacks)} players, {len(payouts)} paid places, prize pool {sum(payouts):,.10g} "
        f"(method: {result.method})",
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


def format_bubble_factors(stacks: list, payouts: list, result) -> str:
    lines = [
        f"ICM: {len(stacks)} players, {len(payouts)} paid places, prize pool {sum(payouts):,.10g} (method: {result.method})",
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


def bubble_factor_output(stacks: list, payouts: list, method: str, as_json: bool) -> str:
    if len(stacks) > BUBBLE_MAX_PLAYERS:
        raise InputError(
            f"--bubble-factors: {len(stacks):,} players is more than {BUBBLE_MAX_PLAYERS} "
            "(it takes one ICM evaluation per ordered pair of players)"
        )
    try:
        result = bubble_factors(stacks, payouts, method=method)
    except ValueError as error:
        raise InputError(str(error)) from None
    if not as_json:
        return format_bubble_factors([float(s) for s in stacks], [float(p) for p in payouts], result)
    return json.dumps({
        "players": len(stacks), "paid": len(payouts), "method": result.method,
        "equity": result.equity.tolist(),
        "bubble_factors": nullable(result.bubble_factor),
        "required_equity": nullable(result.required_equity),
        "risk_premium": nullable(result.risk_premium),
    })


@click.command("icm")
@click.option("--stacks", "stacks_text", metavar="LIST", help="Chip stacks: \"10,000 5,000 2,500\" or \"500, 300, 200\" or 1500,1000,500 (see docs/icm.md).")
@click.option("--payouts", "payouts_text", metavar="LIST", help="Prizes for 1st, 2nd, ...: \"600 400\" or 50,30,20.")
@click.option(
    "--file",
    "field_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Stacks from a file: CSV with one stack per line, or YAML with keys stacks and payouts.",
)
@click.option(
    "--method",
    type=click.Choice(["auto", "dp", "integral"]),
    default="auto",
    show_default=True,
    help="dp: exact subset recursion (<= 22 players); integral: exact integral, any size; auto: dp up to 10.",
)
@click.option(
    "--bubble-factors",
    "want_bubble",
    is_flag=True,
    help="Bubble factors and risk premiums for every ordered pair (an all-in for the smaller stack).",
)
@click.option("--json", "as_json", is_flag=True, help='Print {"equity": [...], "places": [[...]], "method": ...}.')
def icm_command(stacks_text, payouts_text, field_file, method, want_bubble, as_json):
    """ICM (Malmuth-Harville) prize equity and finishing-place probabilities.

    Zero stacks are busted players: they share the last places equally. At most one payout per player.
    """
    stacks, payouts = gather_field(stacks_text, payouts_text, field_file)
    if want_bubble:
        click.echo(bubble_factor_output(stacks, payouts, method, as_json))
        return
    want_places = len(stacks) * len(payouts) <= PLACES_MAX_ENTRIES
    try:
        result = prize_equity(stacks, payouts, method=method, places=want_places)
    except ValueError as error:
        raise InputError(str(error)) from None
    if as_json:
        places = None if result.places is None else result.places.tolist()
        click.echo(json.dumps({
            "players": len(stacks), "paid": len(payouts),
            "equity": result.equity.tolist(), "places": places, "method": result.method,
        }))
    else:
        click.echo(format_table([float(s) for s in stacks], [float(p) for p in payouts], result))
