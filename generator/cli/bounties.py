"""The ``--bounties`` / ``--bounty-share`` options of ``allin icm`` and ``allin icm-spot`` (KO and PKO
tournaments, kernels/icm/bounty.py): the options, reading them, and the line that says which model is used.
The browser's twin is ``templates/assets/js/widgets/bounty-fields.js`` (the same messages with the pages' field
names; goldens in ``spec/bounty.json``, written by ``spec/engines/bounty.py``)."""

import click

from generator.core.errors import InputError
from generator.site.formatting import knockout_rule
from generator.core.numbers import parse_number, parse_number_list, shown_entry


ICM_BOUNTIES_HELP = ('Bounty on each player\'s head, in the unit of the payouts: "10 10 20" (0 for none). '
                     "Values then add the bounty term to ICM (docs/icm.md, Bounties).")


def bounty_options(bounties_help: str = ICM_BOUNTIES_HELP):
    """A decorator adding ``--bounties`` (``bounties_help``) and ``--bounty-share`` (parameters ``bounties_text``,
    ``share_text``)."""

    def add(command):
        command = click.option(
            "--bounty-share", "share_text", default=None, metavar="SHARE",
            help="Part of a bounty paid in cash at a knockout, the rest going onto the winner's own bounty: "
            "1 (or 100%) for a regular KO, 0.5 (50%) for a typical PKO [default: 1].",
        )(command)
        return click.option("--bounties", "bounties_text", default=None, metavar="LIST", help=bounties_help)(command)

    return add


OPTION_NAMES = ("--bounties", "--bounty-share")


def read_share(text: str, name: str = OPTION_NAMES[1]) -> float:
    """A share typed "0.5" or "50%" -> 0.5; InputError (starting with ``name``) when not a number or
    outside 0..1 (0%..100%)."""
    stripped = text.strip()
    percent = stripped.endswith("%")
    value = parse_number(stripped[:-1] if percent else stripped, name)
    share = value / 100 if percent else value
    if not 0 <= share <= 1:
        raise InputError(
            f"{name}: {shown_entry(stripped)} is outside 0 to 1 (0% to 100%): the part of a bounty paid "
            "in cash at a knockout, 1 for a regular KO, 0.5 for a typical PKO"
        )
    return share


def read_bounties(bounties_text: str | None, share_text: str | None, percent: bool,
                  names: tuple[str, str] = OPTION_NAMES) -> tuple[list | None, float]:
    """(bounties or None, share) from the options (``names``: of the bounties and the share, as the
    messages call them); the kernel checks the count and the values. InputError for a share without
    bounties, or payouts given as percentages of the pool (bounties are money, in the payouts' unit)."""
    bounties_name, share_name = names
    if bounties_text is None:
        if share_text is not None:
            raise InputError(f"{share_name} needs {bounties_name} (one bounty per player)")
        return None, 1.0
    if percent:
        raise InputError(f"{bounties_name}: give the payouts as amounts in the unit of the bounties, not as "
                         "percentages of the pool")
    return (parse_number_list(bounties_text, bounties_name),
            1.0 if share_text is None else read_share(share_text, share_name))


def model_line(bounties, share: float) -> str:
    """One line naming the bounties and how a knockout pays them."""
    total = f"{sum(bounties):,.10g}"
    return f"Bounties: {total} on heads ({knockout_rule(share)}); bounties left valued in proportion to chips."
