"""Running a script under Numba's CUDA simulator, which must be switched on before Numba is imported."""

import os
import subprocess
import sys

DONE = "cuda-sim-ok"


def run_in_cuda_simulator(script: str, stdin: str = "") -> str:
    """Run ``script`` in a fresh interpreter with ``NUMBA_ENABLE_CUDASIM=1``, ``stdin`` as its input; fail unless it
    prints DONE. Returns what it printed."""
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1", PYTHONPATH=os.path.dirname(__file__))
    result = subprocess.run([sys.executable, "-c", script], input=stdin, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert DONE in result.stdout
    return result.stdout
