"""Evaluator lookup tables, built once and cached on disk (``<cache>/evaluator-<hash>.npz``).

The file name carries a hash of the table-building source, so a change to the rules or the key
layout rebuilds the tables instead of loading stale ones; a corrupted file is rebuilt too.
"""

import functools
import hashlib
import inspect

from generator import interrupts
from generator.cache_dir import cache_dir
from generator.storage import CorruptFileError, load_arrays, save_arrays
from kernels.evaluator import tables as tables_module
from kernels.evaluator.tables import EvaluatorTables, build_tables


def tables_source_hash() -> str:
    """Short hash of the source that defines the tables."""
    return hashlib.sha256(inspect.getsource(tables_module).encode()).hexdigest()[:16]


def evaluator_tables_path():
    """Where the tables of this code live in the cache."""
    return cache_dir() / f"evaluator-{tables_source_hash()}.npz"


@functools.cache
def evaluator_tables() -> EvaluatorTables:
    """Load the tables from the cache, building (≈ 7 s) and saving them on a miss."""
    path = evaluator_tables_path()
    if path.exists():
        try:
            return EvaluatorTables(**load_arrays(path))
        except (CorruptFileError, TypeError):
            path.unlink()
    tables = build_tables()
    interrupts.check()  # a Ctrl-C swallowed while the build compiled or called back into Python
    save_arrays(path, tables._asdict())
    return tables
