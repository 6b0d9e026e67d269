"""Evaluator lookup tables, built once and cached on disk (``<cache>/evaluator-<key>.npz``).

The key is the code version of ``kernels.evaluator.tables``, so a change to the rules or the key
layout rebuilds the tables instead of loading stale ones; a damaged file is rebuilt too.
"""

import functools

from generator.core import interrupts
from generator.core.cache import cache_dir, cached_arrays
from generator.core.provenance import code_version
from kernels.evaluator.tables import EvaluatorTables, build_tables

#: Kernel modules whose code decides the tables (their import closure is hashed into the key).
KERNELS = ("kernels.evaluator.tables",)
NAME = "evaluator"


def evaluator_tables_path():
    """Where the tables of this code live in the cache."""
    return cache_dir() / f"{NAME}-{code_version(*KERNELS)}.npz"


def _build() -> dict:
    tables = build_tables()
    interrupts.check()  # a Ctrl-C swallowed while the build called back into Python
    return tables._asdict()


@functools.cache
def evaluator_tables() -> EvaluatorTables:
    """Load the tables from the cache, building (≈ 7 s) and saving them on a miss."""
    return EvaluatorTables(**cached_arrays(NAME, code_version(*KERNELS), _build))
