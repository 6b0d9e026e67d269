"""Provenance of computed data: code versions (hashes of kernel sources) and the ``meta`` block.

A cached result is only as fresh as its key. :func:`kernel_closure` follows the ``kernels`` imports
of the modules that compute a result, statically (also imports inside functions, such as the
lazily imported GPU modules), so a key built by :func:`code_version` covers every kernel source the
computation can run, and nothing has to be listed by hand.
"""

from __future__ import annotations

import ast
import datetime
import hashlib
import platform
from functools import cache
from pathlib import Path

from generator import __version__
from generator.core.backend import device_name

PACKAGES_ROOT = Path(__file__).resolve().parents[2]


def module_file(name: str) -> Path | None:
    """Source file of module ``name`` (``kernels.cards`` → ``kernels/cards.py``), or None if it is not a module."""
    base = PACKAGES_ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_modules(name: str, prefixes: tuple[str, ...]) -> set[str]:
    """Modules under ``prefixes`` that module ``name`` imports anywhere in its source (statically)."""
    found = set()
    path = module_file(name)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]  # what ``from . import`` starts from
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # ``from kernels.evaluator import cpu`` imports a module; ``from kernels.cards import N`` a name;
            # ``from .cfr import solve`` (level 1) and ``from ..icm import x`` (level 2) are relative to the package
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module) if part)
            candidates = [module] + [f"{module}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(c for c in candidates if c.startswith(prefixes) and module_file(c) is not None)
    return found


@cache
def import_closure(roots: tuple[str, ...], prefixes: tuple[str, ...]) -> tuple[str, ...]:
    """Every module under ``prefixes`` that importing ``roots`` can execute: imports followed
    transitively, plus the ``__init__`` of each package on the way. Sorted names."""
    seen, todo = set(), list(roots)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        parts = name.split(".")
        todo.extend(".".join(parts[:i]) for i in range(1, len(parts)))  # parent packages run first
        todo.extend(imported_modules(name, prefixes))
    return tuple(sorted(seen))


def kernel_closure(*roots: str) -> tuple[str, ...]:
    """The ``kernels`` modules that computing with ``roots`` runs (see :func:`import_closure`)."""
    return import_closure(tuple(roots), ("kernels",))


def code_version(*roots: str) -> str:
    """Short hash of the source of every kernel module reachable from ``roots``: changes whenever
    the code that computes a result does."""
    digest = hashlib.sha256()
    for name in kernel_closure(*roots):
        digest.update(name.encode())
        digest.update(module_file(name).read_bytes())
    return digest.hexdigest()[:16]


#: The licence of every published data file: SPDX id (``meta.license``, added by
#: ``generator.data.datafiles.publish``), name and address, as the data page, README and schemas say it.
DATA_LICENSE = "CC-BY-4.0"
DATA_LICENSE_NAME = "Creative Commons Attribution 4.0 International (CC BY 4.0)"
DATA_LICENSE_URL = "https://creativecommons.org/licenses/by/4.0/"


def meta_block(stage: str, method: str, code: str, backend: str, wall_time_s: float, **extra) -> dict:
    """The ``meta`` block every data file carries (see docs/data-format.md)."""
    return {
        "stage": stage,
        "method": method,
        "version": __version__,
        "code_version": code,
        "backend": backend,
        "device": device_name(backend),
        "machine": f"{platform.machine()} {platform.system()}, Python {platform.python_version()}",
        "wall_time_s": round(wall_time_s, 3),
        "generated": datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        **extra,
    }
