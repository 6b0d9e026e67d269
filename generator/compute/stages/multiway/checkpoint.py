"""Multiway checkpoints: the integer tally and blocks per shard, saved so that nothing is lost.

* One run at a time per checkpoint: :class:`CheckpointLock` (an exclusive ``flock`` on
  ``<checkpoint>.lock``); a second run, or a merge into that file, is refused with the first run's pid.
* Every save keeps the one before (``<checkpoint>.prev``, a hard link to the old file, made before the
  new file is renamed into place): a damaged latest checkpoint falls back to it with a warning.
* Leftover temporary files of saves that were killed are removed when the lock is taken.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

from generator.core.cache import cache_dir
from generator.core.errors import InputError
from generator.core.provenance import code_version
from generator.core.storage import CorruptFileError, describe_error, load_arrays, save_arrays
from kernels.multiway.layout import BLOCK_DEALS, TALLY_SHAPE, new_tally

#: Kernel modules that decide which deals are drawn and what is tallied (the CPU and GPU kernels
#: give identical counts, tested; the percentile module defines the tallied control ``q``).
KERNELS = ("kernels.multiway.cpu", "kernels.multiway.gpu", "kernels.multiway.percentile")
CODE_VERSION = code_version(*KERNELS)


@dataclass
class MultiwayState:
    """Sufficient statistics of a run: the tally and the blocks done per shard (blocks 0..n-1 each)."""

    seed: int
    tally: np.ndarray = field(default_factory=new_tally)
    blocks: dict[int, int] = field(default_factory=dict)
    wall_time_s: float = 0.0
    code: str = CODE_VERSION

    @property
    def deals(self) -> int:
        return sum(self.blocks.values()) * BLOCK_DEALS

    def arrays(self) -> dict[str, np.ndarray]:
        shards = sorted(self.blocks)
        return {
            "tally": self.tally,
            "shards": np.array(shards, dtype=np.int64),
            "blocks": np.array([self.blocks[s] for s in shards], dtype=np.int64),
            "seed": np.array(self.seed, dtype=np.uint64),
            "wall_time_s": np.array(self.wall_time_s),
            "code_version": np.array(self.code),
            "block_deals": np.array(BLOCK_DEALS),
        }

    @classmethod
    def load(cls, path: Path) -> "MultiwayState":
        """Read a checkpoint; a damaged or foreign file raises :class:`CorruptFileError` / :class:`InputError`."""
        arrays = load_arrays(path)
        try:
            state = cls(
                seed=int(arrays["seed"]),
                tally=arrays["tally"],
                blocks=dict(zip(arrays["shards"].tolist(), arrays["blocks"].tolist())),
                wall_time_s=float(arrays["wall_time_s"]),
                code=str(arrays["code_version"]),
            )
            block_deals = int(arrays["block_deals"])
        except (KeyError, TypeError, ValueError) as missing:
            raise CorruptFileError(f"{path}: not a multiway checkpoint ({describe_error(missing)})") from None
        if state.tally.shape != TALLY_SHAPE or state.tally.dtype != np.int64 or block_deals != BLOCK_DEALS:
            raise InputError(f"{path}: checkpoint layout differs from this code (tally {state.tally.shape})")
        return state

    def merged(self, other: "MultiwayState") -> "MultiwayState":
        """Sum of two states of the same seed and code whose shards are disjoint (associative)."""
        if (self.seed, self.code) != (other.seed, other.code):
            raise InputError(
                f"cannot merge: seed/code {self.seed}/{self.code} vs {other.seed}/{other.code} (different random streams)"
            )
        shared = sorted(set(self.blocks) & set(other.blocks))
        if shared:
            raise InputError(f"cannot merge: both hold shard {shared[0]} (the same deals); run each part with its own --shard")
        return MultiwayState(
            seed=self.seed,
            tally=self.tally + other.tally,
            blocks={**self.blocks, **other.blocks},
            wall_time_s=self.wall_time_s + other.wall_time_s,
            code=self.code,
        )


def checkpoint_path(seed: int) -> Path:
    return cache_dir() / "multiway" / f"checkpoint-s{seed}-{CODE_VERSION}.npz"


def previous_path(path: Path) -> Path:
    """Where the checkpoint before the latest one is kept."""
    return path.with_name(path.name + ".prev")


class CheckpointLock:
    """Exclusive use of a checkpoint file for the life of a run (or a merge writing it).

    ``fcntl.flock`` on ``<checkpoint>.lock``: released by the OS when the process ends, also after
    ``kill -9``, so a stale lock never blocks the next run.
    """

    def __init__(self, path: Path):
        self.path = Path(path)
        self.lock_path = self.path.with_name(self.path.name + ".lock")
        self._handle = None

    def __enter__(self) -> "CheckpointLock":
        try:
            self.lock_path.parent.mkdir(parents=True, exist_ok=True)
            handle = open(self.lock_path, "a+")
        except OSError as exc:
            raise InputError(f"cannot save the checkpoint {self.path}: {describe_error(exc)}") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            owner = handle.read().strip() or "?"
            handle.close()
            raise InputError(
                f"another run is using {self.path} (pid {owner}); wait for it to end, or run this one with its own "
                "ALLIN_CACHE_DIR and --shard and add the two with `allin merge`"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self._handle = handle
        for leftover in self.path.parent.glob(f".{self.path.name}*.tmp"):  # saves killed mid-write
            leftover.unlink(missing_ok=True)
        return self

    def __exit__(self, *exc) -> None:
        self._handle.close()  # closing releases the lock


class Checkpoint:
    """The latest checkpoint of a run and the one before it. Use under a :class:`CheckpointLock`."""

    def __init__(self, path: Path, warn: Callable[[str], None]):
        self.path = Path(path)
        self.previous = previous_path(self.path)
        self.warn = warn
        self._latest_is_good = False  # only a file known to be good is kept as the previous one

    def load(self, seed: int) -> MultiwayState:
        """The latest good state of ``seed``: the latest file, else the one before it (with a warning), else empty."""
        if not self.path.exists():
            if self.previous.exists():
                return self._fall_back(f"{self.path} is missing")
            return MultiwayState(seed=seed)
        try:
            state = MultiwayState.load(self.path)
        except CorruptFileError as exc:
            return self._fall_back(str(exc))
        self._latest_is_good = True
        return state

    def _fall_back(self, problem: str) -> MultiwayState:
        if not self.previous.exists():
            raise InputError(f"{problem}; there is no earlier checkpoint: move the file aside to start afresh")
        try:
            state = MultiwayState.load(self.previous)
        except CorruptFileError as exc:
            raise InputError(f"{problem}; the earlier one is unreadable too ({exc}): move both aside to start afresh") from None
        self.warn(f"warning: {problem}; continuing from the checkpoint before it ({state.deals:,} deals)")
        return state

    def save(self, state: MultiwayState) -> None:
        """Keep the current file as the previous one (if it is good), then write ``state`` atomically."""
        try:
            if self._latest_is_good:
                link = self.path.with_name(f".{self.path.name}.prev.tmp")
                link.unlink(missing_ok=True)
                os.link(self.path, link)
                os.replace(link, self.previous)
            save_arrays(self.path, state.arrays())
        except OSError as exc:
            raise InputError(f"cannot save the checkpoint {self.path}: {describe_error(exc)}") from None
        self._latest_is_good = True


def stale_checkpoints_note(path: Path) -> str | None:
    """One line about checkpoints of other code versions or seeds beside ``path`` (they cannot be continued), or None."""
    stale = [p for p in path.parent.glob("checkpoint-s*") if not p.name.startswith(path.name) and not p.name.endswith(".lock")]
    if not stale:
        return None
    size = sum(p.stat().st_size for p in stale) / 1e6
    return (
        f"note: {len(stale)} checkpoint file(s) of other code versions or seeds ({size:.0f} MB) in {path.parent} "
        "are not continued by this run; delete them to free the space"
    )


def read_checkpoint(path: Path) -> MultiwayState:
    """A checkpoint named by the user (``allin merge``): one line for a missing or damaged file."""
    if not Path(path).is_file():
        raise InputError(f"{path}: no such checkpoint")
    try:
        return MultiwayState.load(Path(path))
    except CorruptFileError as exc:
        raise InputError(str(exc)) from None


def merge_checkpoints(first: Path, second: Path, output: Path) -> MultiwayState:
    """Write the sum of two checkpoints (same seed and code, disjoint shards) to ``output``."""
    merged = read_checkpoint(first).merged(read_checkpoint(second))
    output = Path(output)
    if output.is_dir():
        raise InputError(f"-o {output}: is a directory; name the checkpoint file to write")
    with CheckpointLock(output):
        Checkpoint(output, warn=lambda _: None).save(merged)
    return merged
