"""Where Numba keeps the compiled kernels between runs: a folder named by a hash of every source file of
``kernels/`` and the Numba version, so that no run can load code compiled from other sources.

Numba's own cache checks only the source file of the function it caches, while the kernels are assembled from
factories in other files (``compile_board_functions`` and the like): an edit to ``core.py`` alone would leave a
stale ``cpu.py`` kernel in place. A folder per source hash rules that out. It lies in the system's temporary folder
(``allin-numba-<uid>/<hash>``; it replaces any ``NUMBA_CACHE_DIR`` of the environment); where that cannot be
written, in a fresh temporary folder of this process (nothing kept). Set by ``kernels/__init__.py`` before any
kernel is compiled, without importing Numba (commands that need none start faster); the only file access in
``kernels/``.

Numba freezes a module's global values into the compiled code but keys its cache by source alone: a process that
changes a kernel module's globals before compiling (a test does) must not share the cache, or it would load code
compiled for other values, or leave its own for others. ``ALLIN_NUMBA_CACHE=off`` in the environment gives such a
process a fresh private folder.
"""

import atexit
import hashlib
import importlib.metadata
import os
import shutil
import sys
import tempfile
from pathlib import Path


def source_hash() -> str:
    """16 hex digits of SHA-256 over the Numba version and every ``kernels/**/*.py`` (paths and contents, sorted)."""
    root = Path(__file__).resolve().parent
    digest = hashlib.sha256(importlib.metadata.version("numba").encode())
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cache_folder() -> Path:
    user = os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")  # no uid on Windows
    return Path(tempfile.gettempdir()) / f"allin-numba-{user}" / source_hash()


def use_cache_folder() -> None:
    """Point Numba's cache (functions compiled with ``cache=True``) at :func:`cache_folder` (never at the source
    tree's ``__pycache__``, Numba's fallback), for this process and the ones it starts."""
    folder = cache_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        writable = os.access(folder, os.W_OK) and os.environ.get("ALLIN_NUMBA_CACHE") != "off"
    except OSError:
        writable = False
    if not writable:
        folder = Path(tempfile.mkdtemp(prefix="allin-numba-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
    os.environ["NUMBA_CACHE_DIR"] = str(folder)
    if "numba" in sys.modules:  # imported already: its configuration was read from the environment then
        sys.modules["numba"].core.config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
