"""Every dataset the build computes, one :class:`Stage` record each, and the one door to them.

A stage is a module of :mod:`generator.compute.stages` with two functions:

* ``results(run, inputs)``: the stage's result, loaded from the cache when its key matches, else computed
  (``inputs``: the results of the stages it names in ``inputs``, by name);
* ``write(run, site_dir, inputs)``: the result written as its data files under ``site_dir/data``; returns it;
* ``cached(run)`` (the stages that take minutes): whether ``results`` would load rather than compute;
* ``merge(first, second, output)`` (the stages whose shards run on separate machines): two checkpoint files of
  different shards added into a third; returns a line saying what it holds.

``allin build`` (:mod:`generator.compute.pipeline`), ``allin compute <stage>``, the query commands, ``spec/`` and
the benchmarks reach a stage only through :func:`results`, :func:`publish` and :func:`cached` here
(``tests/test_layout.py`` holds it). The stage modules are imported on first use: they import Numba.

Adding a dataset: write its module (the two functions), add one :class:`Stage` line to :data:`STAGES`, and a
schema for each file it publishes (:mod:`generator.data.schemas`); docs/architecture.md walks through one.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from generator.compute.run import Run
from generator.core.errors import InputError


@dataclass(frozen=True)
class Stage:
    """One dataset: its name (``allin compute``'s), what it is, the stages whose results it takes, what its cache key
    holds, its units of work and how they merge, and the files it publishes under ``site/data`` (``GROUP``/``STACK``:
    one file per table; each JSON document but the live status has a schema in :data:`generator.data.schemas.SCHEMAS`,
    docs/data-format.md)."""

    name: str
    title: str
    inputs: tuple[str, ...]
    cache: str
    units: str
    merge: str
    publishes: tuple[str, ...]
    cluster: bool = False

    @property
    def module(self):
        """The stage's module (imported here, on first use)."""
        return importlib.import_module(f"generator.compute.stages.{self.name.replace('-', '_')}")


STAGES: dict[str, Stage] = {stage.name: stage for stage in (
    Stage("headsup", "exact heads-up tables: each class vs a random hand, each class vs each class", (),
          "the walk's kernel code", "slices of the 134,459 board classes", "integer tallies added",
          ("headsup.json", "headsup.csv", "matchups.json", "matchups.csv", "matchups.bin"), cluster=True),
    Stage("flops", "the flop atlas: each class on each of the 1,755 suit-distinct flops, and hit rates", (),
          "the heads-up walk's (the same walk counts both); the hit counter's code", "the heads-up walk's slices",
          "each board's counts added to its ten flops", ("flops.json", "flops.csv", "flops.bin", "flop_hits.json", "flop_hits.csv"), cluster=True),
    Stage("threehanded", "exact three-handed equity: each class vs two random hands", (),
          "the walk's kernel code", "slices of the 134,459 board classes", "integer tallies added",
          ("threehanded.json", "threehanded.csv"), cluster=True),
    Stage("fourhanded", "exact four-handed counts: each class vs three random hands", (),
          "the walk's kernel code", "runs of boards (saved as they finish: a stopped run resumes)", "integer tallies added",
          ("fourhanded.json", "fourhanded.csv"), cluster=True),
    Stage("threeway", "3-way class-triple showdown orderings (Monte Carlo)", (),
          "the kernel code and the seed (a checkpoint per seed; more boards extend it)",
          "runs of boards of one shard (taken back in board order: the checkpoint holds a prefix)",
          "counts added; shards of other machines merged", ("threeway.bin.gz",), cluster=True),
    Stage("pushfold", "heads-up push/fold equilibria (1-25 bb) and thresholds to 0.01 bb", ("headsup",),
          "the solver's code, the heads-up code version, the stacks, antes and step", "one solve per stack or ante", "—",
          ("pushfold.json", "pushfold.csv", "pushfold_thresholds.json", "pushfold_thresholds.csv")),
    Stage("pushfold-charts", "n-player push/fold equilibria: the chart groups, ICM grids, PKO tables, certificates",
          ("headsup", "threeway"), "per table: the solver's code, its inputs' versions, the table",
          "groups of tables (a Dask task each; every table solved and cached alone)", "tables collected into their groups",
          ("pushfold_charts.json", "pushfold_charts.csv", "pushfold/index.json", "pushfold/GROUP/STACK.json"), cluster=True),
    Stage("multiway", "multiway Monte Carlo: each class vs 2-9 random hands, with control variates", ("headsup",),
          "the sampler's code and the seed (a checkpoint per seed; each run adds samples)",
          "blocks of 4,096 deals of one shard", "integer tallies added; shards merged by `allin merge`",
          ("multiway.json", "multiway.csv", "multiway-live.json"), cluster=True),
)}


def stage(name: str) -> Stage:
    """The record of stage ``name``; an unknown name is an :class:`InputError` that lists the stages."""
    try:
        return STAGES[name]
    except KeyError:
        raise InputError(f"no stage {name!r} (stages: {', '.join(STAGES)})") from None


def _inputs(record: Stage, run: Run) -> dict:
    return {name: results(name, run) for name in record.inputs}


def results(name: str, run: Run):
    """Stage ``name``'s result (cached, else computed with its inputs' results), once per run."""
    if name not in run.results:
        record = stage(name)
        run.results[name] = record.module.results(run, _inputs(record, run))
    return run.results[name]


def publish(name: str, run: Run, site_dir: Path):
    """Write stage ``name``'s data files under ``site_dir/data`` (computing what is not cached); returns its result."""
    record = stage(name)
    run.results[name] = record.module.write(run, Path(site_dir), _inputs(record, run))
    return run.results[name]


def cached(name: str, run: Run) -> bool:
    """Whether :func:`results` would read stage ``name`` from the cache (its own result, not its inputs'); for the
    stages that take minutes (those whose module has ``cached``)."""
    return stage(name).module.cached(run)


def merge(name: str, first: Path, second: Path, output: Path) -> str:
    """Add two of stage ``name``'s checkpoint files (same seed, different shards) into ``output``; a line saying what the
    merged checkpoint holds."""
    return stage(name).module.merge(first, second, output)
