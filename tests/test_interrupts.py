"""A stop request (Ctrl-C, SIGTERM) is never lost, even when Python swallows the KeyboardInterrupt.

The case that made ``make test`` flaky: Numba compiling a kernel calls back into Python through a
ctypes callback; a SIGINT landing there raised KeyboardInterrupt inside the callback, where ctypes
prints "Exception ignored" and drops it, and the stage ran on to exit 0. The tests below reproduce
exactly that path with a ctypes callback, deterministically.
"""

import ctypes
import signal
import sys

import pytest

from generator.core import interrupts


@pytest.fixture
def unraisable(monkeypatch):
    """What reaches the unraisable hook that was in place before :func:`interrupts.install`."""
    reports = []
    monkeypatch.setattr(sys, "unraisablehook", lambda report: reports.append(report.exc_type))
    return reports


@pytest.fixture
def installed(unraisable):
    previous = interrupts.install()
    yield
    interrupts.restore(previous)
    interrupts.reset()


def _signal_inside_a_ctypes_callback(signum):
    """Deliver ``signum`` while Python code runs inside a ctypes callback (as in LLVM's object-cache hook)."""
    callback = ctypes.CFUNCTYPE(None)(lambda: signal.raise_signal(signum))
    callback()  # ctypes reports the KeyboardInterrupt raised in there as unraisable and returns normally


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupt_swallowed_by_a_ctypes_callback_is_raised_at_the_next_check(installed, unraisable, signum):
    _signal_inside_a_ctypes_callback(signum)  # returns: the exception was swallowed
    assert interrupts.requested()
    with pytest.raises(KeyboardInterrupt):
        interrupts.check()
    assert unraisable == []  # no "Exception ignored ... Traceback" on stderr: the CLI prints its one line


def test_without_a_request_check_does_nothing(installed):
    interrupts.check()
    assert not interrupts.requested()


def test_a_signal_outside_callbacks_raises_at_once(installed):
    with pytest.raises(KeyboardInterrupt):
        signal.raise_signal(signal.SIGINT)
    assert interrupts.requested()


def test_deferred_only_records_and_restores_the_handlers(installed):
    handler = signal.getsignal(signal.SIGTERM)
    with interrupts.deferred():
        signal.raise_signal(signal.SIGTERM)  # no exception inside: the loop polls requested()
        assert interrupts.requested()
        interrupts.check()  # deferred: the loop decides when to stop
    assert signal.getsignal(signal.SIGTERM) is handler
    with pytest.raises(KeyboardInterrupt):
        interrupts.check()


def test_other_unraisable_errors_are_still_reported(installed, unraisable):
    ctypes.CFUNCTYPE(None)(lambda: 1 / 0)()
    assert unraisable == [ZeroDivisionError]
