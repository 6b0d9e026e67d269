"""OMPEval (C++, https://github.com/zekyll/OMPEval, on no package registry) as a peer of the benchmarks: where its
checkout is, and its EquityCalculator built with our harness ``peers/ompeval_equity.cpp``.

The checkout is named by ``OMPEVAL_DIR`` (default ``benchmarks/peers/OMPEval``, git-ignored); without it (or without
g++) the scripts skip OMPEval's rows and say why. Measuring only: no OMPEval code is copied into the project.
"""

import os
import shutil
import subprocess
from pathlib import Path

PEERS = Path(__file__).resolve().parent / "peers"


def ompeval_source() -> tuple[Path | None, str | None]:
    """The OMPEval checkout and None, or None and why it cannot be built."""
    source = Path(os.environ.get("OMPEVAL_DIR", PEERS / "OMPEval"))
    if not (source / "omp" / "EquityCalculator.cpp").is_file():
        return None, f"no OMPEval checkout at {source} (set OMPEVAL_DIR to a clone of https://github.com/zekyll/OMPEval)"
    if shutil.which("g++") is None:
        return None, "no g++ to build OMPEval"
    return source, None


def build_equity_harness(workdir: Path) -> tuple[Path | None, str | None]:
    """``peers/ompeval_equity.cpp`` built into ``workdir`` (``g++ -O3 -march=native``) and None, or None and why not.

    OMPEval's sources need two fixes for g++ 12 (``<functional>``, and ``constexpr`` min/max in Random.h), applied
    to a copy in ``workdir``."""
    source, why_not = ompeval_source()
    if source is None:
        return None, why_not
    copy = workdir / "OMPEval"
    shutil.copytree(source / "omp", copy / "omp")
    shutil.copytree(source / "libdivide", copy / "libdivide")
    random_h = copy / "omp" / "Random.h"
    random_h.write_text(random_h.read_text().replace("static uint64_t min()", "static constexpr uint64_t min()")
                        .replace("static uint64_t max()", "static constexpr uint64_t max()"))
    binary = workdir / "ompeval_equity"
    sources = [str(copy / "omp" / f"{name}.cpp") for name in ("EquityCalculator", "CombinedRange", "CardRange", "HandEvaluator")]
    subprocess.run(["g++", "-O3", "-march=native", "-std=c++11", "-pthread", "-include", "functional", f"-I{copy}",
                    str(PEERS / "ompeval_equity.cpp"), *sources, "-o", str(binary)], check=True)
    return binary, None
