"""Where build caches live: ``$ALLIN_CACHE_DIR`` if set, else ``.cache/`` in the working directory."""

import os
from pathlib import Path


def cache_dir() -> Path:
    """The cache directory (created on first use)."""
    path = Path(os.environ.get("ALLIN_CACHE_DIR", ".cache"))
    path.mkdir(parents=True, exist_ok=True)
    return path
