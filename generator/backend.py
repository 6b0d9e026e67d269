"""Choosing where the hot loops run: ``auto`` (GPU when CuPy and a CUDA device are present), ``cpu`` or ``gpu``."""

import click

from generator.errors import InputError

BACKENDS = ("auto", "cpu", "gpu")


def gpu_available() -> bool:
    """True when CuPy imports and sees at least one CUDA device (never true under the CUDA simulator)."""
    try:
        import cupy  # noqa: F401  (optional dependency)

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:  # ImportError, CUDARuntimeError, missing driver...
        return False


def resolve_backend(name: str) -> str:
    """Map ``auto|cpu|gpu`` to the backend that will actually run: ``"cpu"`` or ``"gpu"``."""
    if name == "cpu":
        return "cpu"
    if name == "gpu":
        if not gpu_available():
            raise InputError("--backend gpu: no CUDA device with CuPy found (install allin-atlas[gpu] on an NVIDIA machine)")
        return "gpu"
    return "gpu" if gpu_available() else "cpu"


backend_option = click.option(
    "--backend",
    type=click.Choice(BACKENDS),
    default="auto",
    show_default=True,
    help="Where the compiled kernels run: auto picks the GPU when CuPy and a CUDA device are present.",
)
