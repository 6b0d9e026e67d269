"""The ``multiway`` stage: Monte Carlo equity of every class against 1..9 random opponents.

State is the integer tally of :mod:`kernels.multiway.layout` plus, per shard, how many blocks of
deals it holds (blocks ``0 .. n-1`` of that shard's RNG stream). It lives in
``<cache>/multiway/checkpoint-s<seed>-<code version>.npz`` (atomic, checksummed) and is saved every
``checkpoint_seconds``; ``site/data/multiway.json`` and ``.csv`` are rewritten at the same time. A
rerun resumes from it and adds blocks; a different seed or a change to the sampling code
(``CODE_VERSION``) names a different file, so such a run starts afresh and never mixes samples.
Ctrl-C (SIGINT) and SIGTERM stop after the current pass and save; ``kill -9`` loses at most the
work since the last checkpoint.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import numpy as np
from tqdm import tqdm

import kernels.cards
import kernels.evaluator.core
import kernels.evaluator.tables
import kernels.multiway.cpu
import kernels.multiway.dealing
import kernels.multiway.layout
import kernels.multiway.percentile
import kernels.multiway.rng
import kernels.multiway.tally
from generator import interrupts
from generator.backend import resolve_backend
from generator.cache_dir import cache_dir
from generator.errors import InputError
from generator.evaluator_tables import evaluator_tables
from generator.provenance import code_version, meta_block
from generator.storage import CorruptFileError, atomic_write_bytes, load_arrays, save_arrays, write_json
from kernels.cards import CLASS_NAMES, N_CLASSES, class_combos
from kernels.multiway.estimates import TARGETS, estimate_cells
from kernels.multiway.layout import BLOCK_DEALS, FULL_DECK, GROUPS, MAX_SEATS, PLAYER_COUNTS, TALLY_SHAPE, new_tally, pair_class_table
from kernels.multiway.percentile import class_percentile_means, percentile_table
from kernels.multiway.rng import RNG_NAME, shard_key
from kernels.multiway.statistics import group_statistics

#: Hash of everything that decides which deals are drawn and what is tallied.
CODE_VERSION = code_version(
    kernels.cards,
    kernels.evaluator.tables,
    kernels.evaluator.core,
    kernels.multiway.layout,
    kernels.multiway.cpu,  # how a block's counts reach the tally (the GPU must give the same: tested)
    kernels.multiway.rng,
    kernels.multiway.dealing,
    kernels.multiway.tally,
    kernels.multiway.percentile,
)
#: Hash of what the percentile control and its class means depend on (a narrower key than
#: ``CODE_VERSION``, so a change to the tally does not rebuild them).
PERCENTILE_VERSION = code_version(kernels.cards, kernels.evaluator.tables, kernels.evaluator.core, kernels.multiway.percentile)
METHOD = (
    "Monte Carlo: each deal of 10 hands and a board gives every seat a sample at every table size n = 2..10: "
    "its win and k-way tie probabilities over all choices of n-1 opponents among the other 9 hands "
    "(hypergeometric in b, t = other hands beaten / tied); integer counts per class and (b, t)"
)
CONTROL_VARIATES = (
    "b, t = other hands of the deal beaten / tied heads-up on the board (means 9·p_win, 9·p_tie from the exact "
    "heads-up table) and q = floor(1024·F^8), F = hand percentile among all 7-card hands (exact class means "
    "by board enumeration); beta cross-fitted over two folds; se from batch means over 128 independent groups"
)
#: Deals per GPU launch (in blocks); the CPU runs GROUPS blocks per parallel pass.
GPU_PASS_BLOCKS = 1024
#: Estimates are only needed for progress and output; refresh them at most this often (seconds).
ESTIMATE_SECONDS = 5.0


class MultiwayControls(NamedTuple):
    """Inputs of the control variates: heads-up probabilities and the percentile control, each per class."""

    p_win: np.ndarray  # (169,) exact P(win) against one random hand
    p_tie: np.ndarray  # (169,) exact P(tie) against one random hand
    percentile: np.ndarray  # (7463,) int32 control value q of each strength
    q_mean: np.ndarray  # (169,) exact mean of q per class


def percentile_control() -> tuple[np.ndarray, np.ndarray]:
    """``(percentile table, class means of q)``, cached in ``<cache>/multiway/`` (≈ 10 s to build)."""
    path = cache_dir() / "multiway" / f"percentile-{PERCENTILE_VERSION}.npz"
    if path.exists():
        try:
            arrays = load_arrays(path)
            return arrays["percentile"], arrays["q_mean"]
        except (CorruptFileError, KeyError):
            path.unlink()
    tables = evaluator_tables()
    percentile = percentile_table(tables)
    interrupts.check()
    representatives = np.array([class_combos(c)[0] for c in range(N_CLASSES)])
    q_mean = class_percentile_means(FULL_DECK, percentile, tables, representatives, np.arange(N_CLASSES))
    interrupts.check()
    save_arrays(path, {"percentile": percentile, "q_mean": q_mean})
    return percentile, q_mean


def multiway_controls(backend: str = "cpu", progress: bool = True) -> MultiwayControls:
    """Control-variate inputs: the exact heads-up stage's vs-random counts and the percentile control."""
    from generator.stages.headsup import headsup_results

    headsup, _ = headsup_results(backend, progress)
    total = headsup.vs_random_total.astype(np.float64)
    percentile, q_mean = percentile_control()
    return MultiwayControls(headsup.vs_random_win / total, headsup.vs_random_tie / total, percentile, q_mean)


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

    def save(self, path: Path) -> None:
        shards = sorted(self.blocks)
        save_arrays(path, {
            "tally": self.tally,
            "shards": np.array(shards, dtype=np.int64),
            "blocks": np.array([self.blocks[s] for s in shards], dtype=np.int64),
            "seed": np.array(self.seed, dtype=np.uint64),
            "wall_time_s": np.array(self.wall_time_s),
            "code_version": np.array(self.code),
            "block_deals": np.array(BLOCK_DEALS),
        })

    @classmethod
    def load(cls, path: Path) -> "MultiwayState":
        """Read a checkpoint; a corrupted or foreign file raises :class:`CorruptFileError` / :class:`InputError`."""
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
        except KeyError as missing:
            raise CorruptFileError(f"{path}: not a multiway checkpoint (missing {missing})") from None
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


def load_or_start(seed: int) -> MultiwayState:
    """The checkpoint of ``seed`` for this code, or an empty state; a corrupted file is an error."""
    path = checkpoint_path(seed)
    if not path.exists():
        return MultiwayState(seed=seed)
    try:
        return MultiwayState.load(path)
    except CorruptFileError as exc:
        raise InputError(f"{exc}; delete it to start afresh") from None


def stale_checkpoints_note(path: Path) -> str | None:
    """One line about checkpoints of other code versions beside ``path`` (they cannot be continued), or None."""
    stale = [p for p in path.parent.glob("checkpoint-s*-*.npz") if p != path]
    if not stale:
        return None
    size = sum(p.stat().st_size for p in stale) / 1e6
    return (
        f"note: {len(stale)} checkpoint(s) of other code versions or seeds ({size:.0f} MB) in {path.parent} "
        "are not continued by this run; delete them to free the space"
    )


def _rounded(values: np.ndarray, digits: int) -> list:
    """JSON list with ``digits`` decimals; non-finite values become null."""
    return [round(float(v), digits) if np.isfinite(v) else None for v in np.asarray(values).ravel()]


def estimate_table(state: MultiwayState, controls: MultiwayControls):
    """Control-variate estimates of every target for every class and player count, arrays ``(169, 9, T)``."""
    return estimate_cells(group_statistics(state.tally), controls.p_win, controls.p_tie, controls.q_mean, MAX_SEATS)


def worst_se(estimates) -> float:
    """Largest standard error of win, tie and equity over every class at 3..10 players (2 is exact)."""
    main = [TARGETS.index(name) for name in ("win", "tie", "equity")]
    return float(estimates.se[:, 1:, main].max())


def multiway_document(state: MultiwayState, estimates, meta: dict) -> dict:
    """The ``multiway.json`` object (docs/data-format.md) from a state and its estimates."""
    samples = group_statistics(state.tally).samples.sum(0)
    column = {name: i for i, name in enumerate(TARGETS)}
    tie_columns = [column[f"tie_{k}"] for k in PLAYER_COUNTS]
    by_players = {}
    for index, players in enumerate(PLAYER_COUNTS):
        mean, se = estimates.mean[:, index], estimates.se[:, index]
        plain, se_plain = estimates.mean_plain[:, index], estimates.se_plain[:, index]
        tie_k = np.clip(mean[:, tie_columns], 0.0, 1.0)
        tie_k[:, players - 1 :] = 0.0
        win = np.clip(mean[:, column["win"]], 0.0, 1.0)
        tie = np.clip(mean[:, column["tie"]], 0.0, 1.0)
        by_players[str(players)] = {
            "win": _rounded(win, 9),
            "tie": _rounded(tie, 9),
            "tie_k": np.round(tie_k, 9).tolist(),
            "loss": _rounded(np.clip(1.0 - win - tie, 0.0, 1.0), 9),
            "equity": _rounded(np.clip(mean[:, column["equity"]], 0.0, 1.0), 9),
            "se_win": _rounded(se[:, column["win"]], 9),
            "se_tie": _rounded(se[:, column["tie"]], 9),
            "se_equity": _rounded(se[:, column["equity"]], 9),
            "se_equity_plain": _rounded(se_plain[:, column["equity"]], 9),
            "cv_gain": _rounded(estimates.cv_gain[:, index, column["equity"]], 4),
            "gain": _rounded(estimates.gain[:, index, column["equity"]], 4),
            "samples": samples.tolist(),
            "win_plain": _rounded(plain[:, column["win"]], 9),
            "tie_plain": _rounded(plain[:, column["tie"]], 9),
            "equity_plain": _rounded(plain[:, column["equity"]], 9),
            "se_win_plain": _rounded(se_plain[:, column["win"]], 9),
            "se_tie_plain": _rounded(se_plain[:, column["tie"]], 9),
        }
    return {"meta": meta, "classes": list(CLASS_NAMES), "players": list(PLAYER_COUNTS), "by_players": by_players}


def write_outputs(site_dir: Path, document: dict) -> None:
    """Atomically write ``multiway.json`` and ``multiway.csv`` under ``site_dir/data``."""
    from generator.datafiles import multiway_csv

    data_dir = Path(site_dir) / "data"
    write_json(data_dir / "multiway.json", document)
    atomic_write_bytes(data_dir / "multiway.csv", multiway_csv(document))


def _time_to_target(deals: int, worst: float, target_se: float, rate: float) -> str:
    """Rough time until the worst standard error reaches the target (errors shrink as 1/√deals)."""
    if not np.isfinite(worst) or rate <= 0:
        return "ETA ?"
    seconds = max(deals * ((worst / target_se) ** 2 - 1), 0) / rate
    return f"ETA {seconds / 60:.0f}m" if seconds >= 60 else f"ETA {seconds:.0f}s"


class _Simulator:
    """Runs passes of blocks of one shard on the chosen backend, adding to a tally."""

    def __init__(self, backend: str, seed: int, shard: int, controls: MultiwayControls):
        self.backend = backend
        self.key = shard_key(seed, shard)
        self.tables = evaluator_tables()
        self.controls = controls
        self.pair_class = pair_class_table()
        if backend == "gpu":
            from kernels.multiway import gpu

            self.inputs = gpu.DeviceInputs(self.tables, controls.percentile, self.pair_class, FULL_DECK)
        self.pass_blocks = GPU_PASS_BLOCKS if backend == "gpu" else GROUPS

    def run(self, tally: np.ndarray, first_block: int, n_blocks: int) -> None:
        if self.backend == "gpu":
            from kernels.multiway import gpu

            gpu.simulate(tally, self.key, first_block, n_blocks, BLOCK_DEALS, self.inputs, MAX_SEATS)
        else:
            from kernels.multiway import cpu

            cpu.simulate(tally, self.key, first_block, n_blocks, BLOCK_DEALS, FULL_DECK, MAX_SEATS, self.tables,
                         self.controls.percentile, self.pair_class)


class MultiwayInterrupted(Exception):
    """Raised after a requested stop (Ctrl-C / SIGTERM) once the state is saved; carries the result."""

    def __init__(self, document: dict, path: Path):
        super().__init__(f"interrupted; {document['meta']['deals']:,} deals saved in {path}")
        self.document = document
        self.path = path


def run_multiway(
    config,
    site_dir: Path,
    *,
    budget_seconds: float,
    target_se: float,
    backend: str = "auto",
    progress: bool = True,
    seed: int | None = None,
    shard: int = 0,
    max_deals: int | None = None,
    controls: MultiwayControls | None = None,
) -> dict:
    """Resume the checkpoint and simulate until ``budget_seconds`` pass, every cell's se ≤ ``target_se``,
    or the shard holds ``max_deals`` deals (rounded up to whole blocks); returns the ``multiway.json`` object.

    Saves the checkpoint and rewrites ``site_dir/data/multiway.{json,csv}`` every
    ``config.multiway.checkpoint_seconds`` and at the end. ``controls`` defaults to
    :func:`multiway_controls` (tests pass their own). Raises :class:`MultiwayInterrupted` after a
    Ctrl-C / SIGTERM, with everything up to the last finished pass saved.
    """
    backend = resolve_backend(backend)
    seed = config.multiway.seed if seed is None else seed
    if not 0 <= shard < 2**31:
        raise InputError(f"--shard must be in [0, 2^31), got {shard}")
    controls = controls if controls is not None else multiway_controls(backend, progress)
    path = checkpoint_path(seed)
    state = load_or_start(seed)
    note = stale_checkpoints_note(path) if state.deals == 0 else None
    if note and progress:
        tqdm.write(note, file=sys.stderr)
    simulator = _Simulator(backend, seed, shard, controls)
    block_limit = None if max_deals is None else -(-max_deals // BLOCK_DEALS)

    started = time.monotonic()
    session_start_deals = state.deals
    last_save = last_estimate = started
    wall_at_start = state.wall_time_s
    estimates = estimate_table(state, controls)
    worst = worst_se(estimates) if state.deals else float("inf")

    def document() -> dict:
        meta = meta_block(
            "multiway", METHOD, CODE_VERSION, backend, state.wall_time_s,
            deals=state.deals, samples=state.deals * MAX_SEATS, seed=seed, rng=RNG_NAME,
            control_variates=CONTROL_VARIATES, shards={str(s): b for s, b in sorted(state.blocks.items())},
            block_deals=BLOCK_DEALS, groups=GROUPS, worst_se=worst if np.isfinite(worst) else None,
        )
        return multiway_document(state, estimates, meta)

    def save() -> dict:
        state.save(path)
        result = document()
        write_outputs(site_dir, result)
        return result

    bar = tqdm(total=round(budget_seconds), unit="s", desc="multiway", disable=not progress, mininterval=1.0,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {n:.0f}/{total:.0f}s [{elapsed}<{remaining}{postfix}]")
    with bar, interrupts.deferred():  # a stop request ends the loop after the current pass, never inside it
        while True:
            now = time.monotonic()
            done_blocks = state.blocks.get(shard, 0)
            if (now - started >= budget_seconds or worst <= target_se or interrupts.requested()
                    or (block_limit is not None and done_blocks >= block_limit)):
                break
            n_blocks = simulator.pass_blocks if block_limit is None else min(simulator.pass_blocks, block_limit - done_blocks)
            simulator.run(state.tally, done_blocks, n_blocks)
            state.blocks[shard] = done_blocks + n_blocks
            now = time.monotonic()
            state.wall_time_s = wall_at_start + (now - started)
            if now - last_estimate >= ESTIMATE_SECONDS:
                estimates = estimate_table(state, controls)
                worst = worst_se(estimates)
                last_estimate = now
            if now - last_save >= config.multiway.checkpoint_seconds:
                save()
                last_save = now
            rate = (state.deals - session_start_deals) / max(now - started, 1e-9)
            bar.set_postfix_str(
                f"{rate / 1e6:.2f}M deals/s, {rate * MAX_SEATS * len(PLAYER_COUNTS) / 1e6:.0f}M samples/s, "
                f"worst ±{1.96 * worst:.1e} (95% CI), target {_time_to_target(state.deals, worst, target_se, rate)}",
                refresh=False,  # redrawn by update() at most once per mininterval
            )
            bar.update(min(now - started, budget_seconds) - bar.n)
        estimates = estimate_table(state, controls)
        worst = worst_se(estimates) if state.deals else float("inf")
        result = save()
    if interrupts.requested():
        raise MultiwayInterrupted(result, path)
    return result


def merge_checkpoints(first: Path, second: Path, output: Path) -> MultiwayState:
    """Write the sum of two checkpoints (same seed and code, disjoint shards) to ``output``."""
    states = []
    for path in (first, second):
        if not Path(path).exists():
            raise InputError(f"{path}: no such checkpoint")
        try:
            states.append(MultiwayState.load(Path(path)))
        except CorruptFileError as exc:
            raise InputError(str(exc)) from None
    merged = states[0].merged(states[1])
    merged.save(Path(output))
    return merged
