"""Every CUDA kernel builds for real GPUs (sm_80, sm_90) without a GPU: PTX by numba-cuda, cubin by ptxas.

A compile error, a ptxas error or any register spill fails. ``benchmarks/bench_cuda_build.py``
prints the resource figures.
"""

import pytest

from generator.compute.cuda_build import KERNELS, TARGETS, build_kernel, occupancy, project_kernels


def test_every_cuda_kernel_of_the_project_is_built():
    assert sorted(spec.name for spec in KERNELS) == sorted(project_kernels())
    # evaluator, heads-up, multiway (2), three-, four-handed, 3-way triples (2), flop hit counts
    assert len(project_kernels()) == 9


@pytest.mark.slow
@pytest.mark.parametrize("cc", TARGETS, ids=lambda cc: f"sm_{cc[0]}{cc[1]}")
@pytest.mark.parametrize("spec", KERNELS, ids=lambda spec: spec.name.split(":")[1])
def test_kernel_builds_without_spills(spec, cc):
    build = build_kernel(spec, cc)
    assert 0 < build.registers <= 255
    assert build.spills == 0, f"{spec.name} spills {build.spills} bytes of registers on sm_{cc[0]}{cc[1]}"
    assert 0 < build.occupancy <= 1


def test_spills_are_detected():
    """The spill check can fail: capping the registers far below the kernel's need makes ptxas spill."""
    multiway = next(spec for spec in KERNELS if spec.name.endswith("_simulate_kernel"))
    assert build_kernel(multiway, (9, 0), flags=("-maxrregcount=16",)).spills > 0


def test_occupancy_follows_the_register_limit():
    # 43 registers: 1,536 per warp (units of 256), 42 warps' worth of 65,536, 10 blocks of 4 warps = 40 of 64
    assert occupancy(43, 0, 128, (9, 0)) == 40 / 64
    assert occupancy(32, 0, 256, (9, 0)) == 1.0
    assert occupancy(255, 0, 64, (9, 0)) == 8 / 64
    assert occupancy(32, 100 * 1024, 256, (9, 0)) == 2 * 8 / 64  # shared memory: 2 blocks of 100 KB in 228 KB

