"""``allin doctor``: check the machine a build needs and, with a GPU, every CUDA kernel against the CPU."""

from __future__ import annotations

import os
import subprocess
import sys

import click


@click.command("doctor")
@click.option("--simulate", is_flag=True,
              help="Without a GPU: run the CUDA kernels in Numba's CUDA simulator on tiny inputs (minutes) against the CPU.")
@click.option("--kernel", "kernels", multiple=True, metavar="NAME",
              help="Only this kernel (repeatable): evaluator, 'heads-up walk', 'three-handed walk', 'four-handed walk', '3-way table', 'multiway deals', 'flop hit counts'.")
def doctor_command(simulate, kernels):
    """Check what a build needs (Python, packages, the GPU, the cache folder) and, on a machine with an NVIDIA GPU
    (or with --simulate), run every CUDA kernel on small inputs against the CPU's exact counts, timing both.
    Exits 1 when a check fails or a kernel's counts differ from the CPU's."""
    if simulate and os.environ.get("NUMBA_ENABLE_CUDASIM") != "1":  # the simulator is chosen before Numba loads
        env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
        args = [sys.executable, "-m", "generator.cli", "doctor", "--simulate", *(f"--kernel={k}" for k in kernels)]
        raise SystemExit(subprocess.run(args, env=env).returncode)
    from generator.compute import doctor

    unknown = [k for k in kernels if k not in doctor.KERNELS]
    if unknown:
        raise click.UsageError(f"unknown kernel {unknown[0]!r} (one of: {', '.join(doctor.KERNELS)})")
    failed = False
    for check in doctor.environment():
        mark = "ok " if check.ok else "FAIL"
        click.echo(f"{mark} {check.what}: {check.found}" + ("" if check.ok or not check.hint else f" ({check.hint})"))
        failed |= not check.ok
    on_gpu = doctor.cuda_device() is not None
    if not (on_gpu or simulate):
        click.echo("No GPU: the CUDA kernels were not run (allin doctor --simulate runs them in Numba's CUDA simulator).")
        raise SystemExit(1 if failed else 0)
    where = "the GPU" if on_gpu else "Numba's CUDA simulator"
    click.echo(f"\nCUDA kernels on {where} against the CPU (exact counts):")
    click.echo(f"{'kernel':<18} {'inputs':<30} {'CPU s':>9} {'GPU s':>9}  result" + ("" if on_gpu else " (simulated: no timings)"))
    for name in kernels or doctor.KERNELS:
        run = doctor.run_kernel(name, simulated=not on_gpu)
        verdict = f"ERROR {run.error}" if run.error else "equal" if run.equal else "MISMATCH"
        times = f"{run.cpu_s:>9.3f} {run.gpu_s:>9.3f}" if on_gpu and not run.error else f"{'–':>9} {'–':>9}"
        click.echo(f"{run.name:<18} {run.inputs:<30} {times}  {verdict}")
        failed |= not run.equal
    raise SystemExit(1 if failed else 0)
