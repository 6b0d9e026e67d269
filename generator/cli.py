"""The ``allin`` command line: a click group that assembles the commands in ``generator.commands``."""

import click

from generator import __version__
from generator.commands.compute import build_command, compute_group
from generator.commands.evaluate import eval_command
from generator.commands.icm import icm_command
from generator.commands.multiway import compute_multiway_command, merge_command
from generator.commands.queries import equity_command, matchup_command
from generator.commands.site import render_command, serve_command

COMMANDS = [
    build_command,
    compute_group,
    equity_command,
    matchup_command,
    eval_command,
    render_command,
    serve_command,
    icm_command,
    merge_command,
]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="allin")
def main():
    """All-in Atlas: precomputed poker math and the static site that publishes it."""


for _command in COMMANDS:
    main.add_command(_command)
compute_group.add_command(compute_multiway_command)


if __name__ == "__main__":
    main()
