"""``allin doctor``: what a build needs, checked, and every CUDA kernel run against the CPU's exact counts.

:func:`environment` lists the checks of the machine (Python, NumPy, Numba, the GPU, numba-cuda, the cache
folder) as :class:`Check` rows. :data:`KERNELS` are the project's CUDA kernels, each with a small input that
:func:`run_kernel` runs on the CPU and on the GPU (or in Numba's CUDA simulator, which must be switched on
before Numba is imported: ``allin doctor --simulate`` restarts itself with ``NUMBA_ENABLE_CUDASIM=1``),
comparing the outputs for exact equality and timing both. Inputs are larger on a real GPU than in the
simulator, which interprets every thread in Python.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import shutil
import sys
import time
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
from numba.core.errors import NumbaPerformanceWarning

from generator.core.backend import cuda_device, describe_backend, no_gpu_reason, nvidia_gpus, resolve_backend
from generator.core.cache import cache_dir
from generator.core.errors import error_line

MIN_PYTHON = (3, 11)
#: Free space the cache folder should have (the checkpoints and cached tables of a default build, with room).
MIN_FREE_BYTES = 2 * 2**30


class Check(NamedTuple):
    """One line of the environment report; ``ok`` False makes ``allin doctor`` exit non-zero."""

    what: str
    found: str
    ok: bool
    hint: str = ""


def _version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def environment() -> list[Check]:
    """The machine as a build sees it."""
    python = ".".join(map(str, sys.version_info[:3]))
    checks = [Check("Python", python, sys.version_info[:2] >= MIN_PYTHON, "Python 3.11 or newer is needed")]
    for package in ("numpy", "numba"):
        found = _version(package)
        checks.append(Check(package, found or "not installed", found is not None, "run make setup"))
    gpus = nvidia_gpus()
    checks.append(Check("NVIDIA GPU (nvidia-smi -L)", "; ".join(gpus) if gpus else "none found", True))
    numba_cuda = _version("numba-cuda")
    if gpus:
        checks.append(Check("numba-cuda (the gpu extra)", numba_cuda or "not installed", numba_cuda is not None,
                            "make setup installs it on a machine with an NVIDIA GPU (or pip install -e '.[gpu]')"))
        device = cuda_device()
        checks.append(Check("CUDA device (opened, a test kernel run)", describe_backend("gpu") if device else no_gpu_reason(),
                            device is not None, "check the driver (nvidia-smi) and that numba-cuda matches it and NumPy"))
    folder = cache_dir()
    free = shutil.disk_usage(folder).free
    checks.append(Check(f"cache folder {folder}", f"{free / 2**30:.1f} GiB free", free >= MIN_FREE_BYTES and os.access(folder, os.W_OK),
                        f"needs to be writable with {MIN_FREE_BYTES / 2**30:.0f} GiB free (or set ALLIN_CACHE_DIR)"))
    checks.append(Check("make build runs on", describe_backend(resolve_backend("auto")), True))
    return checks


class KernelRun(NamedTuple):
    """A kernel's check: its ``name``, the ``inputs`` in words, the CPU's and the GPU's seconds, and whether the
    two outputs are exactly equal (and not all zero); ``error`` is the first line of what a run raised, if it did."""

    name: str
    inputs: str
    cpu_s: float
    gpu_s: float
    equal: bool
    error: str = ""


def _timed(run: Callable[[], object]) -> tuple[object, float]:
    started = time.perf_counter()
    result = run()
    return result, time.perf_counter() - started


def _same(a, b) -> bool:
    """Exactly equal outputs (arrays, or tuples of arrays), not all zero (a kernel that did nothing is no check)."""
    a, b = (x if isinstance(x, tuple) else (x,) for x in (a, b))
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b)) and any(np.any(x) for x in a)


def _evaluator(simulated: bool):
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.evaluator import cpu, gpu

    tables, rng = evaluator_tables(), np.random.default_rng(1)
    hands = np.argsort(rng.random((256 if simulated else 1 << 22, 52)), axis=1)[:, :7]
    return f"{len(hands):,} 7-card hands", lambda: cpu.evaluate(hands, tables), lambda: gpu.evaluate(hands, tables)


def _board_walk(module: str, simulated: bool):
    """The heads-up, three- or four-handed board walk (``kernels.<module>``): class tallies over a few boards."""
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.cards import ALL_COMBOS, COMBO_CLASS

    cpu, gpu = (importlib.import_module(f"kernels.{module}.{side}") for side in ("cpu", "gpu"))
    tables, rng = evaluator_tables(), np.random.default_rng(2)
    keep = np.sort(rng.choice(len(ALL_COMBOS), 60, replace=False)) if simulated else np.arange(len(ALL_COMBOS))
    boards = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(2 if simulated else 64)])
    weights = rng.integers(1, 25, len(boards))
    combos, classes = ALL_COMBOS[keep], COMBO_CLASS[keep]
    return (f"{len(boards)} boards × {len(keep):,} combos",
            lambda: cpu.tally_boards(boards, weights, combos, classes, tables),
            lambda: gpu.tally_boards(boards, weights, combos, classes, tables))


def _threeway(simulated: bool):
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.sampling.rng import shard_key
    from kernels.threeway import cpu, gpu
    from kernels.threeway.core import triple_classes

    classes, tables = triple_classes(), evaluator_tables()
    rows = np.linspace(0, len(classes) - 1, 6 if simulated else 20_000).astype(np.int64)
    boards = 4 if simulated else 256

    def run(side):
        counts = np.zeros((rows.size, 13), dtype=np.uint32)
        side.simulate(counts, shard_key(3, 1), 10, boards, rows, classes[rows], tables)
        return counts

    return f"{boards} boards × {rows.size:,} class triples", lambda: run(cpu), lambda: run(gpu)


def _multiway(simulated: bool):
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.multiway import cpu, gpu
    from kernels.multiway.layout import FULL_DECK, MAX_SEATS, new_tally, pair_class_table
    from kernels.multiway.percentile import PERCENTILE_LEVELS
    from kernels.sampling.rng import shard_key

    tables, pairs, key = evaluator_tables(), pair_class_table(), shard_key(5, 1)
    # a stand-in for the stage's control table: any function of the 7,463 hand strengths is a control
    percentile = (np.arange(7463) * PERCENTILE_LEVELS // 7463).astype(np.int32)
    blocks, deals = (2, 6) if simulated else (2048, 4096)  # on a GPU, thread blocks of several RNG blocks

    def on_cpu():
        tally = new_tally()
        cpu.simulate(tally, key, 3, blocks, deals, FULL_DECK, MAX_SEATS, tables, percentile, pairs)
        return tally

    def on_gpu():
        tally = new_tally()
        gpu.simulate(tally, key, 3, blocks, deals, gpu.DeviceInputs(tables, percentile, pairs, FULL_DECK), MAX_SEATS)
        return tally

    return f"{blocks * deals:,} deals of 10 seats", on_cpu, on_gpu


def _flop_hits(simulated: bool):
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.flop import categories, gpu
    from kernels.flop.core import FLOPS_PER_HAND

    tables = evaluator_tables()
    classes, flops = ([0, 90, 168], (5_000, 5_300)) if simulated else (None, (0, FLOPS_PER_HAND))
    rows = 169 if classes is None else len(classes)
    return (f"{rows} classes × {flops[1] - flops[0]:,} flops",
            lambda: categories.class_hit_counts(tables, classes, flops),
            lambda: gpu.class_hit_counts(tables, classes, flops))


#: The CUDA kernels and the makers of their checks (``simulated`` → ``(inputs in words, run on CPU, run on GPU)``).
KERNELS: dict[str, Callable] = {
    "evaluator": _evaluator,
    "heads-up walk": lambda simulated: _board_walk("headsup", simulated),
    "three-handed walk": lambda simulated: _board_walk("threehanded", simulated),
    "four-handed walk": lambda simulated: _board_walk("fourhanded", simulated),
    "3-way table": _threeway,
    "multiway deals": _multiway,
    "flop hit counts": _flop_hits,
}


def run_kernel(name: str, simulated: bool) -> KernelRun:
    """Run kernel ``name`` of :data:`KERNELS` on the CPU and on the GPU (a first, compiling call of each is not timed).
    A run that raises is a failed check (``error`` says what it raised), not a crash of the doctor."""
    inputs = ""
    try:
        inputs, on_cpu, on_gpu = KERNELS[name](simulated)
        # the simulator runs the kernels' uint64 hashing on NumPy scalars, which warn (in the simulator's threads, where
        # np.errstate, a per-thread setting, does not reach: hence the warning filter); the small inputs leave most of
        # a GPU idle, which numba-cuda warns of
        with np.errstate(over="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", NumbaPerformanceWarning)
            warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning)
            if not simulated:  # compile first: the timings are of the kernels, not of Numba
                on_cpu(), on_gpu()
            cpu_result, cpu_s = _timed(on_cpu)
            gpu_result, gpu_s = _timed(on_gpu)
    except Exception as error:
        return KernelRun(name, inputs, float("nan"), float("nan"), False, error_line(error))
    return KernelRun(name, inputs, cpu_s, gpu_s, _same(cpu_result, gpu_result))
