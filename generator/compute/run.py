"""One run's settings, resolved once: the configuration with the command line's overrides applied.

``allin build``, ``allin compute <stage>`` and the query commands each make one :class:`Run` with
:func:`resolve_run` and hand it to the stages (:mod:`generator.compute.registry`); no stage reads the
configuration file or picks a default of its own after that. A GPU run takes the targets of the
configuration's ``gpu`` section in place of the CPU's (the 3-way board count, multiway's standard error)
and the whole set of push/fold groups.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from generator.core.backend import resolve_backend
from generator.core.config import Config
from generator.core.errors import InputError
from generator.core.validation import stream_id


@dataclass(frozen=True)
class MultiwayRun:
    """The multiway sampler's settings: seconds to sample, the standard error at which every cell stops, the seed and
    shard of its random streams, and an optional cap on the shard's deals."""

    budget_seconds: float
    target_se: float
    seed: int
    shard: int = 0
    max_deals: int | None = None


@dataclass(frozen=True)
class ThreewayRun:
    """The 3-way table's settings: boards to bring the shard up to, and the seed and shard of its random streams."""

    boards: int
    seed: int
    shard: int = 0


@dataclass(frozen=True)
class Run:
    """What every stage of one run reads. ``backend`` is the one that runs here ("cpu" or "gpu"); ``requested_backend``
    the ``--backend`` given ("auto", "cpu", "gpu"), which Dask workers resolve for themselves. ``pushfold_groups``: the
    n-player push/fold groups to solve (:class:`generator.compute.pushfold_records.Group`; None: the default set, the
    whole set with ``full_pushfold``). ``results`` holds the stages' results already loaded in this run
    (:func:`generator.compute.registry.results`)."""

    config: Config
    backend: str
    requested_backend: str
    multiway: MultiwayRun
    threeway: ThreewayRun
    full_pushfold: bool
    cluster: str | None = None
    pushfold_groups: tuple | None = None
    progress: bool = True
    results: dict = field(default_factory=dict, compare=False, repr=False)


def resolve_run(config: Config, backend: str = "auto", cluster: str | None = None, *, progress: bool = True,
                full_pushfold: bool = False, budget_seconds: float | None = None, target_se: float | None = None,
                multiway_seed: int | None = None, multiway_shard: int = 0, max_deals: int | None = None,
                threeway_boards: int | None = None, threeway_seed: int | None = None, threeway_shard: int = 0,
                pushfold_groups: tuple | None = None) -> Run:
    """The run's settings from ``config`` and the command line's overrides (None: the configuration's value, or on a
    GPU its ``gpu`` section's). On a cluster the backend is each worker's to resolve (``auto``: its own GPU if it
    has one), so this machine does not need the GPU it names; raises :class:`InputError` for a bad override."""
    for value, what in ((multiway_seed, "--seed"), (multiway_shard, "--shard"), (threeway_seed, "--seed"),
                        (threeway_shard, "--shard")):
        if value is not None:
            stream_id(value, what)
    if max_deals is not None and max_deals <= 0:
        raise InputError(f"--deals must be positive, got {max_deals}")
    here = "gpu" if cluster and backend == "gpu" else resolve_backend(backend)
    on_gpu = here == "gpu"
    multiway = MultiwayRun(
        budget_seconds=config.multiway.budget_seconds if budget_seconds is None else budget_seconds,
        target_se=target_se if target_se is not None else config.gpu.multiway_target_se if on_gpu else config.multiway.target_se,
        seed=config.multiway.seed if multiway_seed is None else multiway_seed,
        shard=multiway_shard,
        max_deals=max_deals,
    )
    threeway = ThreewayRun(
        boards=threeway_boards if threeway_boards is not None else config.gpu.threeway_boards if on_gpu else config.threeway.boards,
        seed=config.threeway.seed if threeway_seed is None else threeway_seed,
        shard=threeway_shard,
    )
    return Run(config=config, backend=here, requested_backend=backend, multiway=multiway, threeway=threeway,
               full_pushfold=full_pushfold or on_gpu, cluster=cluster, progress=progress, pushfold_groups=pushfold_groups)


def default_run(progress: bool = True) -> Run:
    """The default configuration on this machine's CPU: how the query commands, ``spec/`` and the benchmarks read the
    stages' results (a cached result is the same whichever run loads it)."""
    return resolve_run(Config(), "cpu", progress=progress)
