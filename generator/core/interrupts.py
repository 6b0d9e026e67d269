"""Ctrl-C and SIGTERM: a stop request that is never lost, whatever the process is doing when it lands.

Python runs a signal handler in the main thread at the next bytecode boundary. A ``KeyboardInterrupt``
raised there usually unwinds to the CLI, which prints one line and exits 130. But when the signal
lands inside Python code that C calls back into (Numba compiling a kernel calls LLVM, which calls
``ExecutionEngine._raw_object_cache_notify`` through ctypes; a ``__del__``), the exception is
printed as "Exception ignored" and thrown away. So the handler also *records* the request, and the
long stages call :func:`check` at their progress points (between board slices, passes, phases): a
request that was swallowed is raised there. The CLI checks once more when a command returns.

Inside :func:`deferred` (the multiway loop, which must finish its pass and save) the handler only
records; the loop asks :func:`requested` between passes.
"""

from __future__ import annotations

import signal
import sys
from contextlib import contextmanager

#: Signals that ask the process to stop.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StoppedAndSaved(Exception):
    """Raised by a stage that stopped on request with its work saved (the multiway sampler after its pass):
    ``saved`` says what was kept, in words; ``result`` is the stage's result as saved."""

    def __init__(self, saved: str, result):
        super().__init__(f"interrupted; {saved}")
        self.saved = saved
        self.result = result


class _Requests:
    """The process's stop state: the first stop signal received (or None) and whether raising is deferred."""

    signal: int | None = None
    deferred: bool = False


def _handler(signum, _frame):
    if _Requests.signal is None:
        _Requests.signal = signum
    if not _Requests.deferred:
        raise KeyboardInterrupt


def install() -> dict:
    """Route SIGINT and SIGTERM to the recording handler; returns what it replaced (for :func:`restore`).

    Also keeps a swallowed interrupt from printing "Exception ignored ... Traceback" on stderr: the
    request is recorded and reported once, by the CLI's one line.
    """
    previous = {sig: signal.signal(sig, _handler) for sig in STOP_SIGNALS}
    previous["unraisablehook"] = report_others = sys.unraisablehook

    def drop_recorded_interrupt(report) -> None:
        if not (isinstance(report.exc_value, KeyboardInterrupt) and requested()):
            report_others(report)

    sys.unraisablehook = drop_recorded_interrupt
    return previous


def restore(previous: dict) -> None:
    """Put back the handlers returned by :func:`install`."""
    sys.unraisablehook = previous.pop("unraisablehook")
    for sig, handler in previous.items():
        signal.signal(sig, handler)


def requested() -> bool:
    """True once a stop signal has arrived (and stays true: a stop request is never forgotten)."""
    return _Requests.signal is not None


def check() -> None:
    """Raise ``KeyboardInterrupt`` if a stop was requested (also one an ignored callback swallowed)."""
    if requested() and not _Requests.deferred:
        raise KeyboardInterrupt


def finish() -> None:
    """From now on only record stop signals: the process is already on its way out (printing, exiting)."""
    _Requests.deferred = True


def reset() -> None:
    """Forget a recorded request and raise again on the next signal (for tests; the CLI never resets)."""
    _Requests.signal = None
    _Requests.deferred = False


@contextmanager
def deferred():
    """Within the block a stop signal is only recorded; the caller polls :func:`requested` and stops cleanly.

    Installs the handler for the duration if it is not installed yet (library use without the CLI),
    and restores what was there before.
    """
    was_deferred = _Requests.deferred
    previous = install()
    _Requests.deferred = True
    try:
        yield
    finally:
        _Requests.deferred = was_deferred
        restore(previous)
