"""Every test starts with the process's stop-signal state as a fresh ``allin`` process has it, and must leave it so.

A test that left a handler of its own on SIGINT / SIGTERM, the signals ignored or blocked beneath Python (its handler
unchanged, the kernel's disposition not: once seen in a pytest worker, not by any test's own check), or a recorded stop
request (:mod:`generator.core.interrupts`: an in-process CLI run that
ended with exit 130), would change what a later test in the same pytest-xdist worker sees when it sends a stop
signal: that test would then fail or pass by the order the tests ran in. The check names the test that leaves one.
"""

import signal

import pytest

from generator.core import interrupts
from signal_state import kernel_stop_state

@pytest.fixture(autouse=True)
def stop_signal_handlers_left_as_found():
    before = {sig: signal.getsignal(sig) for sig in interrupts.STOP_SIGNALS}
    below = kernel_stop_state()
    interrupts.reset()
    yield
    interrupts.reset()  # a stop the test's own CLI run honoured is forgotten
    left = {signal.Signals(sig).name: handler for sig, handler in before.items() if signal.getsignal(sig) is not handler}
    assert not left, f"the test left other handlers on {', '.join(left)} than it found"
    after = kernel_stop_state()
    worse = (after["SigIgn"] & ~below["SigIgn"]) | (after["SigBlk"] & ~below["SigBlk"])
    assert not worse, f"the test left SIGINT/SIGTERM ignored or blocked: {below} before, {after} after"
