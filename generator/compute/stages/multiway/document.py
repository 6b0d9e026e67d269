"""The published form of a multiway state: estimates → ``multiway.json`` (docs/data-format.md) and ``.csv``,
and the live-run status file the chart pages poll (``multiway-live.json``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from generator.data.datafiles import publish
from generator.core.provenance import meta_block
from kernels.cards import CLASS_NAMES
from kernels.multiway.bounds import empirical_bernstein_interval, first_seat_equity
from kernels.multiway.estimates import TARGETS, CellEstimates, estimate_cells
from kernels.multiway.layout import BLOCK_DEALS, GROUPS, MAX_SEATS, PLAYER_COUNTS
from kernels.sampling.rng import RNG_NAME
from kernels.multiway.statistics import group_statistics

from .checkpoint import CODE_VERSION, MultiwayState
from generator.compute.multiway_controls import MultiwayControls

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


def estimate_table(state: MultiwayState, controls: MultiwayControls) -> CellEstimates:
    """Control-variate estimates of every target for every class and player count, arrays ``(169, 9, T)``."""
    return estimate_cells(group_statistics(state.tally), controls.p_win, controls.p_tie, controls.q_mean, MAX_SEATS)


def worst_se(estimates: CellEstimates) -> float | None:
    """Largest standard error of win, tie and equity over every class at 3..10 players (2 is exact);
    None while some cell's error cannot be estimated yet (too few deals)."""
    main = [TARGETS.index(name) for name in ("win", "tie", "equity")]
    se = estimates.se[:, 1:, main]
    return float(se.max()) if np.isfinite(se).all() else None


def _rounded(values: np.ndarray, digits: int) -> list:
    """JSON list with ``digits`` decimals; non-finite values become null."""
    return [round(float(v), digits) if np.isfinite(v) else None for v in np.asarray(values).ravel()]


def multiway_document(state: MultiwayState, estimates: CellEstimates, backend: str) -> dict:
    """The ``multiway.json`` object of a state and its estimates."""
    worst = worst_se(estimates)
    meta = meta_block(
        "multiway", METHOD, CODE_VERSION, backend, state.wall_time_s,
        deals=state.deals, samples=state.deals * MAX_SEATS, seed=state.seed, rng=RNG_NAME,
        control_variates=CONTROL_VARIATES, shards={str(s): b for s, b in sorted(state.blocks.items())},
        block_deals=BLOCK_DEALS, groups=GROUPS, worst_se=worst,
    )
    statistics = group_statistics(state.tally)
    samples = statistics.samples.sum(0)
    rigorous_low, rigorous_high = empirical_bernstein_interval(statistics.first_cells.sum(0), first_seat_equity())
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
            "ci_rigorous_equity": [
                None if not (np.isfinite(lo) and np.isfinite(hi)) else [round(float(lo), 9), round(float(hi), 9)]
                for lo, hi in zip(rigorous_low[:, index], rigorous_high[:, index])
            ],
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
    publish(Path(site_dir) / "data", "multiway", document)
