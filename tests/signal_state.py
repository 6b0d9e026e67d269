"""The stop signals' state beneath Python's ``signal.getsignal``, as the kernel keeps it for the calling thread."""

from pathlib import Path

from generator.core import interrupts

#: The stop signals' bits in the masks of /proc/<pid>/task/<tid>/status.
STOP_BITS = sum(1 << (sig - 1) for sig in interrupts.STOP_SIGNALS)


def kernel_stop_state() -> dict[str, int]:
    """SIGINT's and SIGTERM's bits for this thread: blocked (``SigBlk``), ignored (``SigIgn``), caught (``SigCgt``),
    pending for it (``SigPnd``) or for the process (``ShdPnd``)."""
    fields = dict(line.split(":", 1) for line in Path("/proc/thread-self/status").read_text().splitlines() if ":" in line)
    return {name: int(fields[name], 16) & STOP_BITS for name in ("SigBlk", "SigIgn", "SigCgt", "SigPnd", "ShdPnd")}
