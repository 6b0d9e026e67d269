"""Progress reporting for long stages: a tqdm bar on stderr that is also an interruption point.

Engines report through callbacks and know nothing of bars or signals; the stages pass them a
:func:`progress_bar` callback. Each call redraws the bar (at most once a second) and honours a
pending Ctrl-C / SIGTERM (:func:`generator.core.interrupts.check`), also when the bar is hidden.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from tqdm import tqdm

from generator.core import interrupts


@contextmanager
def progress_bar(desc: str, total: int | None, unit: str, enabled: bool = True, delay: float = 0.0) -> Iterator[Callable[..., None]]:
    """Yield ``advance(done, total=None)``: sets the bar to ``done`` units (of ``total``, when the engine
    learns or revises it) and checks for a stop request. The bar appears after ``delay`` seconds."""
    with tqdm(total=total, unit=unit, desc=desc, disable=not enabled, mininterval=1.0, delay=delay) as bar:

        def advance(done: int, total: int | None = None) -> None:
            if total is not None:
                bar.total = total
            bar.update(done - bar.n)
            interrupts.check()

        yield advance
