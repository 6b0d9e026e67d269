"""Start-up of the ``allin`` command: Numba is imported only by the commands that compute (issue #25).

Structural, not timed: each probe runs in a fresh interpreter and reports which modules it imported.
The start-up times themselves are measured in BENCHMARKS.md ("CLI start-up").
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from generator.cli import main
try:
    main({args!r})
except SystemExit:
    pass
print(json.dumps(sorted(name for name in ("numba", "llvmlite") if name in sys.modules)))
"""


def imported_compilers(args: list[str]) -> list[str]:
    """Which of Numba and llvmlite a fresh interpreter imported to run ``allin ARGS``."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=args)], cwd=REPO, capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_importing_the_cli_imports_no_numba():
    done = subprocess.run(
        [sys.executable, "-c", "import sys, generator.cli; print('numba' in sys.modules, 'llvmlite' in sys.modules)"],
        cwd=REPO, capture_output=True, text=True, check=True,
    )
    assert done.stdout.split() == ["False", "False"]


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["compute", "--help"],
        ["equity", "--help"],
        ["icm", "--help"],
        ["pushfold", "--help"],
        ["serve", "--help"],
        ["flop", "hits", "--help"],
        ["flop", "report", "--help"],
    ],
)
@pytest.mark.slow
def test_commands_that_compute_nothing_import_no_numba(args):
    assert imported_compilers(args) == []


def test_a_command_that_computes_still_gets_its_kernels():
    """The other side of the lazy imports: an ICM query imports its kernel where it runs."""
    assert imported_compilers(["icm", "--stacks", "500,300,200", "--payouts", "600,400"]) == ["llvmlite", "numba"]
