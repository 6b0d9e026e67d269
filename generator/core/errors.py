"""The one error type the CLI shows to users: one line on stderr, exit code 2, no traceback."""

import click


class InputError(click.ClickException):
    """Bad user input (cards, stacks, config values...). Shown as ``Error: <message>``; exit code 2."""

    exit_code = 2


def error_line(error: BaseException) -> str:
    """``"<type>: <first line of the message>"``: an exception told in one line (a report's row, a reason)."""
    first = (str(error).strip().splitlines() or [""])[0]
    return f"{type(error).__name__}: {first}" if first else type(error).__name__
