"""The one error type the CLI shows to users: one line on stderr, exit code 2, no traceback."""

import click


class InputError(click.ClickException):
    """Bad user input (cards, stacks, config values...). Shown as ``Error: <message>``; exit code 2."""

    exit_code = 2
