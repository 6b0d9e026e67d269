"""CLI start-up benchmark: wall time of ``allin`` invocations on a cached install, beside the floors.

Run: ``.venv/bin/python benchmarks/bench_startup.py [ROUNDS]`` (from the repository root; default 5
rounds). Prints a markdown table of the best and the median wall time of each command, every
command run once per round in turn (so a load that comes and goes falls on all of them alike).

The floors are what any command that computes pays before its first kernel runs: the interpreter,
``import numpy, numba``, and Numba's first load of a cached kernel (it builds its typing and target
context then). A query's own computation is a few milliseconds; its kernels are compiled and cached
by a warm-up run of each command before the timed rounds.
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

FIRST_CACHED_KERNEL = """
import numpy as np
from kernels.headsup.boards import _sorted_mask_code
_sorted_mask_code(np.arange(4, dtype=np.int64))
"""

FLOORS = {
    "python -c pass": ["-c", "pass"],
    "import numpy, numba": ["-c", "import numpy, numba"],
    "import numpy, numba + one small cached kernel": ["-c", FIRST_CACHED_KERNEL],
}
COMMANDS = {
    "import generator.cli": ["-c", "import generator.cli"],
    "allin --help": ["-m", "generator.cli", "--help"],
    'allin equity "QQ+,AK" "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+" --board Kh8d3c': [
        "-m", "generator.cli", "equity", "QQ+,AK", "22+,A2s+,KTs+,QTs+,JTs,ATo+,KJo+", "--board", "Kh8d3c",
    ],
    "allin matchup AKs QQ": ["-m", "generator.cli", "matchup", "AKs", "QQ"],
    "allin icm --stacks 500,300,200 --payouts 600,400": [
        "-m", "generator.cli", "icm", "--stacks", "500,300,200", "--payouts", "600,400",
    ],
}


def wall(args: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=REPO, check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    cases = {**FLOORS, **COMMANDS}
    for args in cases.values():  # warm-up: compile and cache the kernels, fill the OS file cache
        wall(args)
    times = {name: [] for name in cases}
    for _ in range(rounds):
        for name, args in cases.items():
            times[name].append(wall(args))
    print(f"{rounds} rounds\n")
    print("| command | best s | median s |")
    print("|---|---:|---:|")
    for name in cases:
        print(f"| `{name}` | {min(times[name]):.2f} | {statistics.median(times[name]):.2f} |")


if __name__ == "__main__":
    main()
