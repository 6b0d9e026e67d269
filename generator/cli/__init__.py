"""The ``allin`` command line: a click group that assembles the commands in ``generator.cli``."""

import click

from generator import __version__

from generator.core import interrupts
from generator.core.errors import InputError, error_line
from generator.core.storage import CorruptFileError
from generator.cli.compute import build_command, compute_group
from generator.cli.doctor import doctor_command
from generator.cli.evaluate import eval_command
from generator.cli.flop import flop_group
from generator.cli.icm import icm_command, icm_spot_command
from generator.cli.merge import merge_command
from generator.cli.pushfold import pushfold_command
from generator.cli.queries import equity_command, matchup_command
from generator.cli.site import render_command, serve_command

COMMANDS = [
    build_command,
    compute_group,
    equity_command,
    matchup_command,
    pushfold_command,
    eval_command,
    render_command,
    serve_command,
    icm_command,
    icm_spot_command,
    merge_command,
    doctor_command,
    flop_group,
]


def _interrupted(exc: BaseException) -> bool:
    """True for Ctrl-C, also when Numba re-raised it as a SystemError from inside a compiled call."""
    while exc is not None:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc = exc.__cause__ or exc.__context__
    return False


class AtlasGroup(click.Group):
    """The command group; a Ctrl-C or SIGTERM anywhere ends with one line and exit code 130, never a traceback.

    An OSError (a full disk, a read-only folder) is one error line and exit 2. A stop request that Python swallowed (see :mod:`generator.core.interrupts`) is honoured at the next
    progress point of a long stage, or at the latest when the command returns.
    """

    def invoke(self, ctx):
        previous = interrupts.install()
        try:
            result = super().invoke(ctx)
            interrupts.check()
            return result
        except (KeyboardInterrupt, SystemError) as exc:
            if not _interrupted(exc):
                raise
            interrupts.finish()
            click.echo("\nInterrupted: finished stages and saved checkpoints are kept; rerun to continue.", err=True)
            ctx.exit(130)
        except CorruptFileError as exc:  # a damaged file a command cannot rebuild itself: which one, in one line
            raise InputError(str(exc)) from None
        except OSError as exc:  # a full disk, a read-only folder: one line, the files already written are whole
            raise InputError(f"could not write or read a file: {exc.strerror or error_line(exc)}"
                             + (f": {exc.filename}" if exc.filename else "")) from None
        finally:
            interrupts.restore(previous)


@click.group(cls=AtlasGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="allin")
def main():
    """All-in Atlas: precomputed poker math and the static site that publishes it."""


for _command in COMMANDS:
    main.add_command(_command)


if __name__ == "__main__":
    main()
