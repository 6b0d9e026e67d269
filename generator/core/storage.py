"""Atomic, verifiable files: every result and checkpoint is written to a temporary file and renamed.

* JSON results: :func:`write_json` (deterministic formatting) returns the file's SHA-256.
* Array checkpoints: :func:`save_arrays` / :func:`load_arrays` store a ``.npz`` whose entry
  ``__sha256__`` is the digest of every other entry (name, dtype, shape, bytes); a file that is
  truncated, edited or half-written is reported as :class:`CorruptFileError`, never loaded.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
from pathlib import Path

import numpy as np

CHECKSUM_KEY = "__sha256__"


class CorruptFileError(Exception):
    """A stored file failed to load or its checksum does not match its content."""


def describe_error(exc: BaseException, limit: int = 80) -> str:
    """``"Type: message"`` on one printable line of at most ``limit`` characters (no raw bytes of a damaged file)."""
    text = " ".join(str(exc).split()).encode("ascii", "backslashreplace").decode("ascii")
    text = "".join(c if c.isprintable() else "?" for c in text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the new one, never a mix.

    The file gets the usual permissions of a new file (0666 less the umask), not the private 0600
    of a temporary file, so static hosts can serve it.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, 0o666 & ~_umask())
        os.replace(tmp_name, path)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise


def writable_folder(path: str | Path, what: str) -> Path:
    """``path`` as a folder a command can write in (created with its parents), checked by writing and removing a
    probe file: before any work, so a read-only or impossible folder is one clear line, not an error after minutes.
    Raises :class:`~generator.core.errors.InputError` naming ``what`` (e.g. ``"--site-dir"``)."""
    from generator.core.errors import InputError

    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as exc:
        raise InputError(f"{what} {path}: cannot write there ({exc.strerror or describe_error(exc)})") from None
    return path


def json_bytes(obj) -> bytes:
    """Deterministic, compact JSON encoding (same object → same bytes)."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")


def json_text(obj) -> str:
    """A command's ``--json`` answer: standard JSON only (never ``Infinity`` or ``NaN``); a value that is not a finite
    number is an :class:`InputError` (the inputs were too large for it), so nothing wrong is printed."""
    from generator.core.errors import InputError

    try:
        return json.dumps(obj, allow_nan=False)
    except ValueError:
        raise InputError("the answer is not a finite number (the inputs are too large for it): nothing printed") from None


def write_json(path: str | Path, obj) -> str:
    """Atomically write ``obj`` as JSON; returns the hex SHA-256 of the bytes written."""
    data = json_bytes(obj)
    atomic_write_bytes(path, data)
    return hashlib.sha256(data).hexdigest()


def read_json(path: str | Path):
    """Read a JSON file written by :func:`write_json`; a malformed file raises :class:`CorruptFileError`."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CorruptFileError(f"{path}: unreadable JSON ({describe_error(exc)})") from None


def _arrays_digest(arrays: dict[str, np.ndarray]) -> str:
    digest = hashlib.sha256()
    for name in sorted(arrays):
        array = np.ascontiguousarray(arrays[name])
        digest.update(f"{name}|{array.dtype.str}|{array.shape}|".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


def save_arrays(path: str | Path, arrays: dict[str, np.ndarray]) -> None:
    """Atomically save named arrays (a checkpoint) with an embedded checksum."""
    arrays = {name: np.asarray(value) for name, value in arrays.items()}
    if CHECKSUM_KEY in arrays:
        raise ValueError(f"array name {CHECKSUM_KEY!r} is reserved")
    buffer = io.BytesIO()
    np.savez(buffer, **arrays, **{CHECKSUM_KEY: np.array(_arrays_digest(arrays))})
    atomic_write_bytes(path, buffer.getvalue())


def load_arrays(path: str | Path) -> dict[str, np.ndarray]:
    """Load arrays saved by :func:`save_arrays`, verifying the checksum.

    Any failure to read is a :class:`CorruptFileError`: a damaged zip or ``.npy`` header can raise
    almost anything inside zipfile and NumPy (BadZipFile, NotImplementedError for an unknown zip
    version, RuntimeError for an "encrypted" entry, tokenize errors, MemoryError for a huge shape...).
    """
    try:
        with np.load(path, allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except Exception as exc:  # see the docstring: the damaged bytes decide the type
        raise CorruptFileError(f"{path}: unreadable ({describe_error(exc)})") from None
    stored = arrays.pop(CHECKSUM_KEY, None)
    if stored is None or str(stored) != _arrays_digest(arrays):
        raise CorruptFileError(f"{path}: checksum mismatch (file is corrupted or was edited)")
    return arrays
