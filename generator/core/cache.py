"""The build cache: one place that knows where cached results live, how they are keyed and read.

Every derived result (evaluator tables, heads-up tables, the percentile control, push/fold
equilibria) goes through :func:`cached_arrays`: the file name carries a key made from the code
version of the kernels that compute it and its inputs (:func:`cache_key`), so changed code or inputs
never load a stale file; a damaged file is reported in one line and rebuilt. Two runs that miss the same file at once
(two ``allin`` commands, a build beside a query) compute it once: the second waits for the first's file
(:func:`computing_alone`). Multiway checkpoints
are not derived (they hold samples) and have their own handling in ``generator.compute.stages.multiway``.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable

import click
import numpy as np

from generator.core import interrupts
from generator.core.storage import CorruptFileError, json_bytes, load_arrays, save_arrays, writable_folder


#: Cache folders already checked writable in this process.
_CHECKED: set[Path] = set()


def cache_dir() -> Path:
    """The cache directory: ``$ALLIN_CACHE_DIR`` if set, else ``.cache/`` in the working directory (created, and
    checked writable once per process: callers ask for it before computing what they will save there)."""
    path = Path(os.environ.get("ALLIN_CACHE_DIR", ".cache"))
    if path not in _CHECKED:
        writable_folder(path, "the cache folder (ALLIN_CACHE_DIR)")
        _CHECKED.add(path)
    return path



def cache_key(*parts) -> str:
    """16 hex digits identifying ``parts`` (code versions, parameters); the only hashing scheme for keys."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def is_cached(name: str, key: str) -> bool:
    """Whether :func:`cached_arrays` would find ``name``/``key`` in the cache (it may still fail its checksum there)."""
    return (cache_dir() / f"{name}-{key}.npz").exists()


def cached_arrays(name: str, key: str, compute: Callable[[], dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """The arrays cached as ``<cache>/<name>-<key>.npz``, or ``compute()`` saved there on a miss.

    A file that fails its checksum or cannot be read is named in one warning line and rebuilt.
    """
    path = cache_dir() / f"{name}-{key}.npz"
    found = _identity(path)
    if found is not None and (arrays := _load(path)) is not None:
        return arrays
    with computing_alone(path):
        if _identity(path) not in (None, found) and (arrays := _load(path)) is not None:
            return arrays  # another run saved it while this one waited
        arrays = compute()
        save_arrays(path, arrays)
    return arrays


def _identity(path: Path) -> tuple[int, int] | None:
    """``(inode, modification time in ns)`` of ``path``, None if it is not there: a file saved anew has another."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return None
    return status.st_ino, status.st_mtime_ns


def _load(path: Path) -> dict[str, np.ndarray] | None:
    """The arrays of ``path``; None if it is damaged (said in one warning line)."""
    try:
        return load_arrays(path)
    except CorruptFileError as exc:
        click.echo(f"warning: {exc}; rebuilding it", err=True)
        return None


#: Seconds between two tries of a lock another run holds (a stop request is honoured between them).
LOCK_POLL_S = 0.2


@contextmanager
def computing_alone(path: Path):
    """Hold the lock of cache file ``path`` (an exclusive ``flock`` on ``<cache>/.locks/<file name>.lock``, released by
    the OS when a process ends, even by ``kill -9``): the block runs in one process at a time. A process that finds
    it held says once on stderr that it waits, and waits (Ctrl-C stops it)."""
    locks = path.parent / ".locks"
    locks.mkdir(parents=True, exist_ok=True)
    with open(locks / f"{path.name}.lock", "a") as handle:
        said = False
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if not said:
                    click.echo(f"waiting for another run that is computing {path.name} in {path.parent}", err=True)
                    said = True
                interrupts.check()
                time.sleep(LOCK_POLL_S)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def json_array(obj) -> np.ndarray:
    """A JSON document as a byte array, to cache it with :func:`cached_arrays`."""
    return np.frombuffer(json_bytes(obj), dtype=np.uint8)


def array_json(array: np.ndarray):
    """Inverse of :func:`json_array` (the checksum of :func:`cached_arrays` vouches for the bytes)."""
    return json.loads(array.tobytes().decode("utf-8"))
