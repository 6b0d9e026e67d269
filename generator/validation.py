"""Checks shared by everything users hand in (the site configuration, ``allin icm`` fields, CLI options).

Each raises :class:`generator.errors.InputError` (one line, exit code 2) naming where the value came
from. Values are quoted with :func:`shown`, so a binary or huge input never ends up raw in the error line.
"""

from __future__ import annotations

from pathlib import Path

from generator.errors import InputError

SHOWN_MAX_CHARS = 60


def shown(value) -> str:
    """``repr(value)`` for an error message: non-printable characters escaped, at most 60 characters."""
    text = repr(value)
    return text if len(text) <= SHOWN_MAX_CHARS else text[: SHOWN_MAX_CHARS - 3] + "..."


def read_text(path: Path) -> str:
    """The UTF-8 text of a file the user named; one line naming the file when it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text (is it the right file?)") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None
