"""Checks shared by everything users hand in (the site configuration, ``allin icm`` fields, CLI options).

Each raises :class:`generator.core.errors.InputError` (one line, exit code 2) naming where the value came
from, e.g. ``content/site.yaml: multiway.budget`` or ``--stacks entry 2``. Values are quoted with
:func:`shown`, so a binary or huge input never ends up raw in the error line.
"""

from __future__ import annotations

import math
from pathlib import Path

import yaml

from generator.core.errors import InputError

SHOWN_MAX_CHARS = 60


def shown(value) -> str:
    """``repr(value)`` for an error message: non-printable characters escaped, at most 60 characters."""
    text = repr(value)
    return text if len(text) <= SHOWN_MAX_CHARS else text[: SHOWN_MAX_CHARS - 3] + "..."


def finite_number(value, where: str) -> float:
    """``value`` as a float when it is a finite int or float from YAML (not a bool, text or null)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        hint = " (text; YAML needs numbers unquoted and exponents with a dot, e.g. 1.0e-4)" if _is_number_text(value) else ""
        raise InputError(f"{where} must be a number, got {shown(value)}{hint}")
    try:
        number = float(value)
    except OverflowError:  # an int beyond the float range
        number = math.inf
    if not math.isfinite(number):
        raise InputError(f"{where} must be a finite number, got {shown(value)}")
    return number


def number_text(text: str, where: str) -> float:
    """A finite number typed on the command line (``"1e-4"``, ``"500"``); ``inf`` and ``nan`` are refused."""
    try:
        number = float(text)
    except ValueError:
        raise InputError(f"{where} is not a number ({shown(text.strip()) if text.strip() else 'empty'})") from None
    if not math.isfinite(number):
        raise InputError(f"{where} must be a finite number, got {shown(text.strip())}")
    return number


def number_list(values: list, where: str) -> list[float]:
    """A YAML list of finite numbers; the message names the first bad entry (counted from 1)."""
    return [finite_number(value, f"{where} entry {index}") for index, value in enumerate(values, start=1)]


def positive_int(value, where: str, maximum: int | None = None) -> int:
    """A whole number ≥ 1 (and ≤ ``maximum``), not a bool or a float."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1 or (maximum is not None and value > maximum):
        limit = f" up to {maximum:,}" if maximum is not None else ""
        raise InputError(f"{where} must be a positive whole number{limit}, got {shown(value)}")
    return value


def stream_id(value, where: str) -> int:
    """A random stream's seed or shard: a whole number in [0, 2^63) (the counter-based RNG keys streams as unsigned
    64-bit words; the signed range keeps a value the same in every array that stores it). One check for every
    command and the config file."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 2**63:
        raise InputError(f"{where} must be a whole number in [0, 2^63), got {shown(value)}")
    return value


#: The largest input file read (a config, an ICM field of 20,000 stacks is about 200 KB): /dev/zero or /dev/urandom
#: named by mistake is refused after this much instead of filling the memory.
MAX_INPUT_BYTES = 16 * 2**20
#: YAML nesting deeper than this is refused (100,000 "[" overflowed the composer's recursion).
MAX_YAML_DEPTH = 64


def read_text(path: Path) -> str:
    """The UTF-8 text of a file the user named (at most :data:`MAX_INPUT_BYTES`); one line naming the file when it
    cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
        if len(data) > MAX_INPUT_BYTES:
            raise InputError(f"{path}: larger than {MAX_INPUT_BYTES // 2**20} MiB (is it the right file?)")
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text (is it the right file?)") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file") from None
    except OSError as error:
        raise InputError(f"{path}: cannot read ({error.strerror or error})") from None


def _is_number_text(value) -> bool:
    if not isinstance(value, str):
        return False
    try:
        return math.isfinite(float(value))
    except ValueError:
        return False


class YAMLLimitError(yaml.YAMLError):
    """YAML refused by :func:`load_yaml`: an alias, or nesting deeper than :data:`MAX_YAML_DEPTH` (``problem``,
    ``problem_mark`` as PyYAML's own errors, so one handler reports both)."""

    def __init__(self, problem: str, mark):
        super().__init__(problem)
        self.problem, self.problem_mark = problem, mark


class _PlainLoader(yaml.SafeLoader):
    """PyYAML's safe loader without aliases (an "alias bomb" expands to billions of nodes) and with a depth limit."""

    depth = 0

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise YAMLLimitError("aliases (*name) are not allowed", self.peek_event().start_mark)
        self.depth += 1
        try:
            if self.depth > MAX_YAML_DEPTH:
                raise YAMLLimitError(f"nested deeper than {MAX_YAML_DEPTH} levels", self.peek_event().start_mark)
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def load_yaml(text: str):
    """``yaml.safe_load`` of a user's file, refusing aliases and deep nesting (:class:`YAMLLimitError`)."""
    return yaml.load(text, Loader=_PlainLoader)  # a SafeLoader subclass
