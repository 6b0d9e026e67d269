"""Reading, writing and comparing golden files (shared by :mod:`spec.regenerate` and tests/test_spec.py)."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

SPEC_DIR = Path(__file__).resolve().parent
ROOT = SPEC_DIR.parent


def dumps(data: dict) -> str:
    """A golden file's text: one top-level key per line, and each element of a top-level list on a line of its
    own (compact JSON inside), so that a regenerated file's diff names the cases that changed."""
    lines = ["{"]
    items = list(data.items())
    for k, (key, value) in enumerate(items):
        comma = "," if k < len(items) - 1 else ""
        if isinstance(value, list) and value and all(isinstance(v, (dict, list)) for v in value):
            lines.append(f"{json.dumps(key)}: [")
            lines += [f"  {_compact(v)}{',' if i < len(value) - 1 else ''}" for i, v in enumerate(value)]
            lines.append(f"]{comma}")
        else:
            lines.append(f"{json.dumps(key)}: {_compact(value)}{comma}")
    return "\n".join(lines + ["}"]) + "\n"


def _compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def golden_path(name: str) -> Path:
    return SPEC_DIR / f"{name}.json"


def read_golden(name: str) -> dict:
    return json.loads(golden_path(name).read_text(encoding="utf-8"))


def write_golden(name: str, data: dict) -> Path:
    path = golden_path(name)
    path.write_text(dumps(data), encoding="utf-8")
    return path


def read_gzip(name: str) -> bytes:
    """The bytes of a committed binary table ``spec/<name>`` (gzip, as the node tests read it too)."""
    return gzip.decompress((SPEC_DIR / name).read_bytes())


def write_gzip(name: str, data: bytes) -> Path:
    """Write ``spec/<name>`` as gzip with no time stamp and no file name (same bytes in, same file out)."""
    path = SPEC_DIR / name
    path.write_bytes(gzip.compress(data, compresslevel=9, mtime=0))
    return path


def differences(actual, expected, tolerance: float, where: str = "") -> list[str]:
    """Where ``actual`` and ``expected`` (JSON values) differ: strings, booleans, None and integers exactly,
    floats within ``tolerance`` × max(1, |expected|) (a float beside an integer counts as a float)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if list(actual) != list(expected):
            return [f"{where or '/'}: keys {list(actual)} != {list(expected)}"]
        return [d for key in expected for d in differences(actual[key], expected[key], tolerance, f"{where}/{key}")]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(actual) != len(expected):
            return [f"{where}: length {len(actual)} != {len(expected)}"]
        return [d for i, (a, e) in enumerate(zip(actual, expected)) for d in differences(a, e, tolerance, f"{where}[{i}]")]
    numbers = (int, float)
    if isinstance(actual, numbers) and isinstance(expected, numbers) and not isinstance(actual, bool) and not isinstance(expected, bool):
        if isinstance(actual, int) and isinstance(expected, int):
            return [] if actual == expected else [f"{where}: {actual} != {expected}"]
        if math.isfinite(actual) and abs(actual - expected) <= tolerance * max(1.0, abs(expected)):
            return []
        return [f"{where}: {actual!r} != {expected!r} (tolerance {tolerance:g})"]
    if type(actual) is type(expected) and actual == expected:
        return []
    return [f"{where}: {actual!r} != {expected!r}"]


def plain(value):
    """``value`` as JSON would give it back (tuples as lists, NumPy scalars as Python numbers)."""
    return json.loads(json.dumps(value, allow_nan=False, default=_default))


def _default(value):
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON: {type(value).__name__}")
