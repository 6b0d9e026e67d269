"""Choosing where the hot loops run (``auto``, ``cpu`` or ``gpu``) and saying so in one line.

A GPU is used when ``nvidia-smi -L`` lists one and numba-cuda (the ``gpu`` extra, which ``make setup``
installs on such a machine) can open it; never under Numba's CUDA simulator. CuPy is not used: the kernels are
numba-cuda's, which also reports the device's name, compute capability and memory.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import warnings
from functools import lru_cache
from pathlib import Path

import click

from generator.core.errors import InputError, error_line

BACKENDS = ("auto", "cpu", "gpu")


@lru_cache(maxsize=1)
def nvidia_gpus() -> tuple[str, ...]:
    """The lines of ``nvidia-smi -L`` (``"GPU 0: NVIDIA H100 80GB HBM3 (UUID: …)"``); empty without a working one."""
    if shutil.which("nvidia-smi") is None:
        return ()
    try:
        listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return ()
    return tuple(line.strip() for line in listed.stdout.splitlines() if line.strip()) if listed.returncode == 0 else ()


def _simulated() -> bool:
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def _smoke_test(cuda) -> None:
    """Compile and run a one-thread kernel: opening the device is not enough (numba-cuda 0.30 opens an H200 under
    NumPy 2.5, then fails at its first compile on the removed ``np.row_stack``)."""
    import numpy as np
    from numba.core.errors import NumbaPerformanceWarning

    @cuda.jit
    def write_one(out):
        out[0] = 1

    out = cuda.to_device(np.zeros(1, dtype=np.int32))
    with warnings.catch_warnings():  # one thread on purpose: numba-cuda's low-occupancy warning is noise here
        warnings.simplefilter("ignore", NumbaPerformanceWarning)
        write_one[1, 1](out)
    if out.copy_to_host()[0] != 1:
        raise RuntimeError("a test kernel ran but wrote nothing")


@lru_cache(maxsize=1)
def _cuda_probe() -> tuple[tuple[str, tuple[int, int], int] | None, str]:
    """``(device, "")`` when numba-cuda opens CUDA device 0 and runs a kernel on it, else ``(None, why not)``."""
    if _simulated():
        return None, "Numba's CUDA simulator is on (NUMBA_ENABLE_CUDASIM), not a GPU"
    if not nvidia_gpus():
        return None, "no NVIDIA GPU found: nvidia-smi -L lists none"
    try:
        from numba import cuda
    except ImportError:
        return None, "an NVIDIA GPU is there but numba-cuda is not installed (install the gpu extra: make setup, or pip install -e '.[gpu]')"
    try:
        if not cuda.is_available():
            return None, "an NVIDIA GPU is there but numba-cuda cannot open it (check the driver: nvidia-smi)"
        device = cuda.get_current_device()
        name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
        _, total = cuda.current_context().get_memory_info()
        _smoke_test(cuda)
    except Exception as error:  # CudaSupportError, a driver error, a compiler that does not match NumPy...
        return None, f"an NVIDIA GPU is there but numba-cuda cannot run a kernel on it ({error_line(error)})"
    return (name, tuple(device.compute_capability), int(total)), ""


def cuda_device() -> tuple[str, tuple[int, int], int] | None:
    """``(name, compute capability, total memory in bytes)`` of CUDA device 0 when numba-cuda can run a kernel on it;
    None when there is no GPU, numba-cuda is missing, the driver refuses or the compiler fails (never a device under
    the simulator). Probed once per process (a second or so on a GPU)."""
    return _cuda_probe()[0]


def gpu_available() -> bool:
    """True when a CUDA device can run the kernels (see :func:`cuda_device`)."""
    return cuda_device() is not None


def resolve_backend(name: str) -> str:
    """Map ``auto|cpu|gpu`` to the backend that will actually run: ``"cpu"`` or ``"gpu"``."""
    if name == "cpu":
        return "cpu"
    if name == "gpu":
        if not gpu_available():
            raise InputError(f"--backend gpu: {no_gpu_reason()}")
        return "gpu"
    return "gpu" if gpu_available() else "cpu"


def no_gpu_reason() -> str:
    """Why the build does not run on a GPU, in words (empty when it can)."""
    return _cuda_probe()[1]


def cpu_name() -> str:
    """The CPU's model name from /proc/cpuinfo (Linux), else the platform's processor string, else "CPU"."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or "CPU"


def device_name(backend: str) -> str:
    """The device a resolved backend runs on: ``"GPU NVIDIA H100 80GB HBM3, cc 9.0, 80 GiB"`` or ``"CPU AMD EPYC 7B13,
    2 cores"`` (every data file's ``meta.device``)."""
    if backend == "gpu" and (device := cuda_device()) is not None:
        name, (major, minor), memory = device
        return f"GPU {name}, cc {major}.{minor}, {memory / 2**30:.0f} GiB"
    return f"CPU {cpu_name()}, {os.cpu_count() or 1} cores"


def describe_backend(backend: str) -> str:
    """:func:`device_name`, and on the CPU why not the GPU: ``"CPU AMD EPYC 7B13, 2 cores (no NVIDIA GPU found
    (nvidia-smi -L lists none))"``; the line ``allin build`` starts with."""
    return device_name(backend) + ("" if backend == "gpu" or gpu_available() else f" ({no_gpu_reason()})")


backend_option = click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="auto",
    show_default=True,
    help="Where the compiled kernels run: auto picks the GPU when an NVIDIA GPU and numba-cuda (the gpu extra) are present.",
)
