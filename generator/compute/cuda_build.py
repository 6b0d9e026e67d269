"""Building the project's CUDA kernels for real GPUs without one: PTX by numba-cuda, cubins by ``ptxas``.

Every ``@cuda.jit`` kernel of ``kernels/`` is listed in :data:`KERNELS` with stand-in host arguments of
the types its launcher passes (NumPy arrays type like the device arrays made from them). For a
compute capability, :func:`build_kernel` compiles the kernel with ``numba.cuda.compile_ptx`` and
assembles the PTX with the ``ptxas`` of the ``nvidia-cuda-nvcc-cu12`` wheel, returning its register,
stack, spill and shared-memory figures and the theoretical occupancy they allow. No driver or device
is needed: device functions called by a kernel ask "the current device" for its compute capability,
so that lookup is answered with the target while compiling (:func:`_target_device`).

Used by ``tests/test_cuda_build.py`` (a compile error or any spill fails) and
``benchmarks/bench_cuda_build.py`` (prints the figures). Needs the ``test`` extra
(``numba-cuda``, ``nvidia-cuda-nvcc-cu12``).
"""

from __future__ import annotations

import importlib
import re
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Callable
from unittest import mock

import numpy as np

#: Compute capabilities every kernel must build for: A100 (sm_80) and H100 (sm_90).
TARGETS = ((8, 0), (9, 0))

#: Per-SM limits used for theoretical occupancy (CUDA occupancy calculator figures for sm_80 / sm_90).
SM_LIMITS = {
    (8, 0): SimpleNamespace(max_warps=64, max_blocks=32, registers=65536, shared_bytes=164 * 1024),
    (9, 0): SimpleNamespace(max_warps=64, max_blocks=32, registers=65536, shared_bytes=228 * 1024),
}
REGISTER_UNIT = 256  # registers are allocated per warp in units of 256


@dataclass(frozen=True)
class KernelSpec:
    name: str  # "module:function"; the module's THREADS_PER_BLOCK is the launcher's
    arguments: Callable[[], tuple]  # stand-in host arguments with the launcher's types

    def kernel(self):
        """The ``@cuda.jit`` dispatcher (its module imported now, not when the list is made)."""
        module, function = self.name.split(":")
        return getattr(importlib.import_module(module), function)

    def threads_per_block(self) -> int:
        return importlib.import_module(self.name.split(":")[0]).THREADS_PER_BLOCK


@dataclass(frozen=True)
class KernelBuild:
    name: str
    cc: tuple[int, int]
    registers: int
    stack_bytes: int
    spill_store_bytes: int
    spill_load_bytes: int
    shared_bytes: int
    threads_per_block: int
    occupancy: float  # active warps / max warps per SM, theoretical

    @property
    def spills(self) -> int:
        return self.spill_store_bytes + self.spill_load_bytes


def _evaluator_arguments():
    from generator.core.evaluator_tables import evaluator_tables

    tables = evaluator_tables()
    return (np.zeros((1, 7), np.uint8), np.zeros(1, np.uint16), *tables[:5])


def _board_walk_arguments(*tallies: np.ndarray) -> tuple:
    """A board walk's arguments (heads-up, three-, four-handed): boards, weights, combos, combo classes, then its
    ``tallies``, then the evaluator tables."""
    from generator.core.evaluator_tables import evaluator_tables

    i64 = np.int64
    return (np.zeros((1, 5), i64), np.zeros(1, i64), np.zeros((1326, 2), i64), np.zeros(1326, i64), *tallies,
            *evaluator_tables()[:5])


def _headsup_arguments():
    i64 = np.int64
    return _board_walk_arguments(np.zeros((169, 169), i64), np.zeros((169, 169), i64), np.zeros((1, 169), i64),
                                 np.zeros((1, 169), i64))  # the boards' vs-random rows (one board here)


def _multiway_arguments():
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.multiway.layout import FULL_DECK, new_tally, pair_class_table

    tables = evaluator_tables()
    return (new_tally(), np.uint64(1), 0, 1, 4096, FULL_DECK, 52, 10, *tables[:5], np.zeros(7463, np.int32), pair_class_table())


def _multiway_clear_arguments():
    return (np.zeros(1, np.int64),)


def _threehanded_arguments():
    return _board_walk_arguments(*(np.zeros(169, np.int64) for _ in range(3)))  # win, tie2, tie3


def _fourhanded_arguments():
    return _board_walk_arguments(np.zeros((4, 169), np.int64))  # counts of 4 outcomes × 169 classes


def _threeway_board_arguments():
    from generator.core.evaluator_tables import evaluator_tables

    tables, u64 = evaluator_tables(), np.uint64
    return (
        u64(1), 0, np.arange(52, dtype=np.uint8), np.zeros(1, u64), np.zeros(1, u64), np.zeros((1, 1326), np.int32),
        np.zeros((1326, 2), np.int64), *tables[:5],
    )


def _threeway_triple_arguments():
    from kernels.threeway.core import ORDER_CODE, combo_tables

    i64, u64 = np.int64, np.uint64
    return (
        np.zeros(1, i64), np.zeros((1, 3), i64), np.zeros(1, u64), np.zeros(1, u64), np.zeros((1, 1326), np.int32),
        *combo_tables(), ORDER_CODE, np.zeros((1, 13), np.uint32),
    )


def _flop_hits_arguments():
    from generator.core.evaluator_tables import evaluator_tables
    from kernels.flop.core import N_DRAWS, N_MADE

    i64 = np.int64
    return (np.zeros((1, 2), i64), 0, 1, np.zeros((1, N_MADE), i64), np.zeros((1, N_DRAWS), i64), *evaluator_tables())


KERNELS = (
    KernelSpec("kernels.evaluator.gpu:_evaluate_rows_kernel", _evaluator_arguments),
    KernelSpec("kernels.headsup.gpu:_tally_kernel", _headsup_arguments),
    KernelSpec("kernels.multiway.gpu:_simulate_kernel", _multiway_arguments),
    KernelSpec("kernels.multiway.gpu:_clear_kernel", _multiway_clear_arguments),
    KernelSpec("kernels.threehanded.gpu:_tally_kernel", _threehanded_arguments),
    KernelSpec("kernels.fourhanded.gpu:_tally_kernel", _fourhanded_arguments),
    KernelSpec("kernels.threeway.gpu:_board_kernel", _threeway_board_arguments),
    KernelSpec("kernels.threeway.gpu:_triple_kernel", _threeway_triple_arguments),
    KernelSpec("kernels.flop.gpu:_hits_kernel", _flop_hits_arguments),
)


def project_kernels() -> list[str]:
    """Names (``module:function``) of every ``@cuda.jit`` kernel (not device function) in ``kernels/``."""
    root = Path(__file__).resolve().parents[2]
    found = []
    for path in sorted((root / "kernels").rglob("*.py")):
        module = ".".join(path.relative_to(root).with_suffix("").parts)
        for match in re.finditer(r"^@cuda\.jit(?:\(([^)]*)\))?\s*\ndef (\w+)", path.read_text(), re.MULTILINE):
            if "device=True" not in (match.group(1) or ""):
                found.append(f"{module}:{match.group(2)}")
    return found


def ptxas_path() -> Path:
    import nvidia.cuda_nvcc

    return Path(nvidia.cuda_nvcc.__path__[0]) / "bin" / "ptxas"


@contextmanager
def _target_device(cc: tuple[int, int]):
    """Answer the device-function dispatchers' "current device" lookup with ``cc`` (no driver needed)."""
    from numba.cuda import dispatcher

    with mock.patch.object(dispatcher, "get_current_device", lambda: SimpleNamespace(compute_capability=cc)):
        yield


def compile_ptx(spec: KernelSpec, cc: tuple[int, int]) -> str:
    import numba
    from numba import cuda

    signature = tuple(numba.typeof(argument) for argument in spec.arguments())
    with _target_device(cc):
        ptx, _ = cuda.compile_ptx(spec.kernel().py_func, signature, cc=cc)
    return ptx


def assemble(ptx: str, cc: tuple[int, int], flags: tuple[str, ...] = ()) -> str:
    """Run ``ptxas -v`` (plus ``flags``) on ``ptx`` for ``sm_XY``; returns its report; raises RuntimeError on failure."""
    arch = f"sm_{cc[0]}{cc[1]}"
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "kernel.ptx"
        source.write_text(ptx)
        result = subprocess.run(
            [str(ptxas_path()), f"-arch={arch}", "-v", *flags, str(source), "-o", str(Path(tmp) / "kernel.cubin")],
            capture_output=True, text=True,
        )
    if result.returncode != 0:
        raise RuntimeError(f"ptxas -arch={arch} failed: {result.stderr.strip()[-2000:]}")
    return result.stdout + result.stderr


def _sum(pattern: str, report: str) -> int:
    return sum(int(value) for value in re.findall(pattern, report))


def occupancy(registers: int, shared_bytes: int, threads_per_block: int, cc: tuple[int, int]) -> float:
    """Theoretical occupancy: resident warps per SM / the SM's maximum, limited by warps, registers, shared memory."""
    limits = SM_LIMITS[cc]
    warps = -(-threads_per_block // 32)
    per_warp = -(-registers * 32 // REGISTER_UNIT) * REGISTER_UNIT
    blocks = min(limits.max_blocks, limits.max_warps // warps)
    if per_warp:
        blocks = min(blocks, (limits.registers // per_warp) // warps)
    if shared_bytes:
        blocks = min(blocks, limits.shared_bytes // shared_bytes)
    return blocks * warps / limits.max_warps


def build_kernel(spec: KernelSpec, cc: tuple[int, int], flags: tuple[str, ...] = ()) -> KernelBuild:
    """Compile ``spec`` to PTX and a cubin for ``cc``; its resource figures as reported by ``ptxas -v``."""
    report = assemble(compile_ptx(spec, cc), cc, flags)
    registers = max(int(r) for r in re.findall(r"Used (\d+) registers", report))
    shared = _sum(r"(\d+) bytes smem", report)
    threads = spec.threads_per_block()
    return KernelBuild(
        name=spec.name, cc=cc, registers=registers,
        stack_bytes=max(int(s) for s in re.findall(r"(\d+) bytes stack frame", report)),
        spill_store_bytes=_sum(r"(\d+) bytes spill stores", report),
        spill_load_bytes=_sum(r"(\d+) bytes spill loads", report),
        shared_bytes=shared, threads_per_block=threads, occupancy=occupancy(registers, shared, threads, cc),
    )
