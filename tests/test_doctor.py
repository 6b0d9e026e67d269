"""Where a build runs: the Makefile installs the gpu extra only where `nvidia-smi -L` lists a GPU, the backend is
described in one line (and in every data file's meta), and `allin doctor` checks the machine and runs the CUDA
kernels against the CPU (here in Numba's CUDA simulator, with a fake nvidia-smi, and with a broken kernel)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from generator.core import backend

from generator.compute import doctor
from generator.cli import main as cli

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def fake_nvidia_smi(tmp_path, monkeypatch):
    """A PATH whose nvidia-smi lists an H100 (the real machine has none); backend's caches cleared around it."""
    script = tmp_path / "bin" / "nvidia-smi"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\necho 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)'\n")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    backend.nvidia_gpus.cache_clear(), backend._cuda_probe.cache_clear()
    yield script.parent
    backend.nvidia_gpus.cache_clear(), backend._cuda_probe.cache_clear()


def _setup_commands(path: str, venv: Path) -> str:
    """What `make setup-test` would run (dry run) with ``path`` as PATH and a fresh venv folder."""
    result = subprocess.run(["make", "-n", "setup-test", f"VENV={venv}"], cwd=REPO, env=dict(os.environ, PATH=path),
                            capture_output=True, text=True, check=True)
    return result.stdout


def test_the_makefile_installs_the_gpu_extra_only_where_nvidia_smi_lists_a_gpu(fake_nvidia_smi, tmp_path):
    plain = os.environ["PATH"].replace(f"{fake_nvidia_smi}{os.pathsep}", "", 1)
    assert subprocess.run(["sh", "-c", "nvidia-smi -L"], env=dict(os.environ, PATH=plain), capture_output=True).returncode != 0
    without = _setup_commands(plain, tmp_path / "venv")
    assert "pip install -q -e '.'" in without and "pip install -q -e '.[test]'" in without and "gpu" not in without
    with_gpu = _setup_commands(os.environ["PATH"], tmp_path / "venv")
    assert "pip install -q -e '.[gpu]'" in with_gpu and "pip install -q -e '.[test,gpu]'" in with_gpu
    assert f"touch {tmp_path / 'venv'}/.installed-gpu" in with_gpu  # a machine that gains a GPU installs again


def test_the_gpu_extra_is_numba_cuda_and_not_cupy():
    import tomllib

    extras = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert extras["gpu"] == ["numba-cuda[cu12]>=0.30", "numpy<2.5"]  # no CuPy; the NumPy cap numba-cuda 0.30 needs
    assert "numpy<2.5" in extras["test"]  # the test extra installs numba-cuda too (simulator, cubins)


def test_without_a_gpu_the_build_says_cpu_and_why():
    line = backend.describe_backend(backend.resolve_backend("auto"))
    assert line.startswith("CPU ") and f"{os.cpu_count()} cores" in line and "no NVIDIA GPU found" in line
    assert backend.device_name("cpu") == line.split(" (")[0]


def test_every_data_file_meta_says_where_it_ran():
    from generator.core.provenance import meta_block
    from generator.data.schemas import META

    meta = meta_block("x", "method", "code", "cpu", 1.0)
    assert meta["device"] == backend.device_name("cpu") and "device" in META["properties"]


def test_a_listed_gpu_that_numba_cannot_open_is_reported_and_not_used(fake_nvidia_smi):
    """nvidia-smi lists a GPU but there is no driver: the build stays on the CPU and says why; doctor fails."""
    assert backend.nvidia_gpus() == ("GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-00000000-0000-0000-0000-000000000000)",)
    assert backend.resolve_backend("auto") == "cpu"
    assert "numba-cuda cannot open it" in backend.describe_backend("cpu")
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1, result.output
    assert "NVIDIA GPU (nvidia-smi -L): GPU 0: NVIDIA H100" in result.output
    assert "FAIL CUDA device (opened, a test kernel run): an NVIDIA GPU is there but numba-cuda cannot open it" in result.output
    error = CliRunner().invoke(cli, ["compute", "headsup", "--backend", "gpu"])
    assert error.exit_code == 2 and "numba-cuda cannot open it" in error.output


def test_a_gpu_that_opens_but_cannot_compile_is_reported_and_not_used(fake_nvidia_smi, monkeypatch):
    """Seen on an H200 with NumPy 2.5: numba-cuda 0.30 opens the device, then its first compile raises. The build stays
    on the CPU and says why in one line; doctor fails with that line, not a traceback."""
    from numba import cuda

    class Device:
        name, compute_capability = b"NVIDIA H200", (9, 0)

    class Context:
        def get_memory_info(self):
            return 0, 141 * 2**30

    def no_compiler(_):
        raise AttributeError("module 'numpy' has no attribute 'row_stack'")

    monkeypatch.setattr(cuda, "is_available", lambda: True)
    monkeypatch.setattr(cuda, "get_current_device", lambda: Device())
    monkeypatch.setattr(cuda, "current_context", lambda: Context())
    monkeypatch.setattr(backend, "_smoke_test", no_compiler)
    assert backend.resolve_backend("auto") == "cpu" and backend.cuda_device() is None
    reason = "numba-cuda cannot run a kernel on it (AttributeError: module 'numpy' has no attribute 'row_stack')"
    assert reason in backend.describe_backend("cpu")
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1 and reason in result.output and "Traceback" not in result.output, result.output
    error = CliRunner().invoke(cli, ["compute", "headsup", "--backend", "gpu"])
    assert error.exit_code == 2 and reason in error.output


def test_doctor_without_a_gpu_checks_the_machine_and_says_the_kernels_did_not_run():
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 0, result.output
    assert "ok  Python: " in result.output and "NVIDIA GPU (nvidia-smi -L): none found" in result.output
    assert "No GPU: the CUDA kernels were not run" in result.output


@pytest.mark.slow
def test_doctor_simulate_runs_the_kernels_against_the_cpu():
    """Two kernels in the simulator (the others are checked the same way by their own simulator tests)."""
    result = subprocess.run([sys.executable, "-m", "generator.cli", "doctor", "--simulate", "--kernel", "evaluator",
                             "--kernel", "3-way table"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]
    lines = [line for line in result.stdout.splitlines() if line.endswith("equal")]
    assert [line.split()[0] for line in lines] == ["evaluator", "3-way"], result.stdout
    assert "Numba's CUDA simulator" in result.stdout and "MISMATCH" not in result.stdout
    assert "Warning" not in result.stderr, result.stderr[-2000:]  # the simulated uint64 hashing's overflow is no news


def test_doctor_exits_1_on_a_kernel_whose_counts_differ(monkeypatch):
    counts = np.arange(5)
    monkeypatch.setattr(doctor, "KERNELS", {"broken": lambda simulated: ("5 numbers", lambda: counts, lambda: counts + 1)})
    monkeypatch.setattr(doctor, "cuda_device", lambda: ("Fake GPU", (9, 0), 2**30))
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1 and "broken" in result.output and "MISMATCH" in result.output, result.output
    monkeypatch.setattr(doctor, "KERNELS", {"idle": lambda simulated: ("nothing", lambda: counts * 0, lambda: counts * 0)})
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1 and "MISMATCH" in result.output  # all-zero output is no check either
    def raises():
        raise AttributeError("module 'numpy' has no attribute 'row_stack'\nmore lines")

    monkeypatch.setattr(doctor, "KERNELS", {"raising": lambda simulated: ("7 hands", lambda: counts, raises)})
    result = CliRunner().invoke(cli, ["doctor"])
    assert result.exit_code == 1 and "Traceback" not in result.output, result.output
    assert "ERROR AttributeError: module 'numpy' has no attribute 'row_stack'" in result.output and "more lines" not in result.output
    bad = CliRunner().invoke(cli, ["doctor", "--kernel", "nope"])
    assert bad.exit_code == 2 and "unknown kernel 'nope'" in bad.output
