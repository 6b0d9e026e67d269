"""Provenance of computed data: code versions (hashes of kernel sources) and the ``meta`` block."""

from __future__ import annotations

import datetime
import hashlib
import inspect
import platform
from types import ModuleType

from generator import __version__


def code_version(*modules: ModuleType) -> str:
    """Short hash of the source of ``modules``: changes whenever the code that computes a result does."""
    digest = hashlib.sha256()
    for module in modules:
        digest.update(module.__name__.encode())
        digest.update(inspect.getsource(module).encode())
    return digest.hexdigest()[:16]


def meta_block(stage: str, method: str, code: str, backend: str, wall_time_s: float, **extra) -> dict:
    """The ``meta`` block every data file carries (see docs/data-format.md)."""
    return {
        "stage": stage,
        "method": method,
        "version": __version__,
        "code_version": code,
        "backend": backend,
        "machine": f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "wall_time_s": round(wall_time_s, 3),
        "generated": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        **extra,
    }
