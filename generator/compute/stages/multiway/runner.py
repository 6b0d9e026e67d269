"""The multiway sampling loop: adds passes of blocks to a state until a stop rule says enough.

The blocks come from ``simulator.passes()``: computed in this process
(:class:`generator.compute.multiway_simulator.Simulator`) or by Dask workers (:class:`~.cluster.ClusterSimulator`), always
blocks ``done, done + 1, …`` of the shard in order, so a run's counts do not depend on where it ran.
Like OMPEval's ``EquityCalculator`` it is driven from outside: the caller gives the stop rules
(:class:`StopPolicy`), a ``should_stop`` poll (Ctrl-C, a scheduler), and callbacks for progress and
checkpoints. It knows nothing of bars, signals or files. A pass is never cut short: a stop takes
effect between passes, so every block counted is a whole block.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Callable

from kernels.multiway.layout import BLOCK_DEALS

from .checkpoint import MultiwayState
from generator.compute.multiway_simulator import Simulator  # or a cluster.ClusterSimulator: anything with passes()

#: Estimates are only needed for the stop rule and progress; refresh them at most this often (seconds).
ESTIMATE_SECONDS = 5.0


@dataclass(frozen=True)
class StopPolicy:
    """When a run ends: its wall-clock budget, the worst standard error wanted, the shard's deals."""

    budget_seconds: float
    target_se: float
    max_deals: int | None = None

    @property
    def max_blocks(self) -> int | None:
        return None if self.max_deals is None else -(-self.max_deals // BLOCK_DEALS)


@dataclass(frozen=True)
class Progress:
    """A snapshot for progress displays: seconds elapsed, deals (all and this run's), rate, worst se."""

    elapsed_s: float
    deals: int
    run_deals: int
    deals_per_s: float
    worst_se: float | None
    eta_s: float | None  # time until the worst se reaches the target at this rate (errors shrink as 1/√deals)


def eta_seconds(deals: int, worst: float | None, target_se: float, rate: float) -> float | None:
    if worst is None or rate <= 0:
        return None
    return max(deals * ((worst / target_se) ** 2 - 1), 0) / rate


def sample(
    state: MultiwayState,
    simulator: Simulator,
    shard: int,
    policy: StopPolicy,
    worst_se: Callable[[MultiwayState], float | None],
    *,
    checkpoint_seconds: float,
    on_checkpoint: Callable[[], None],
    on_progress: Callable[[Progress], None] = lambda progress: None,
    should_stop: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.monotonic,
) -> str:
    """Add passes of blocks of ``shard`` to ``state`` until a stop rule holds; returns which one:
    ``"budget"``, ``"target"``, ``"deals"`` or ``"requested"``. Calls ``on_checkpoint()`` every
    ``checkpoint_seconds`` (not at the end: the caller saves the final state)."""
    started = last_save = last_estimate = clock()
    wall_at_start, deals_at_start = state.wall_time_s, state.deals
    worst = worst_se(state) if state.deals else None
    passes = simulator.passes(state.tally, state.blocks.get(shard, 0), policy.max_blocks)
    try:
        while True:
            done = state.blocks.get(shard, 0)
            if should_stop():
                return "requested"
            if clock() - started >= policy.budget_seconds:
                return "budget"
            if worst is not None and worst <= policy.target_se:
                return "target"
            if policy.max_blocks is not None and done >= policy.max_blocks:
                return "deals"
            state.blocks[shard] = done + next(passes)  # its counts are in state.tally now
            now = clock()
            state.wall_time_s = wall_at_start + (now - started)
            if now - last_estimate >= ESTIMATE_SECONDS:
                worst = worst_se(state)
                last_estimate = now
            if now - last_save >= checkpoint_seconds:
                on_checkpoint()
                last_save = now
            rate = (state.deals - deals_at_start) / max(now - started, 1e-9)
            on_progress(Progress(now - started, state.deals, state.deals - deals_at_start, rate, worst,
                                 eta_seconds(state.deals, worst, policy.target_se, rate)))
    finally:
        passes.close()  # a cluster cancels the blocks still in flight
