"""SYNTHETIC data files for rendering tests: right format (docs/data-format.md), made-up numbers.

The values follow a toy "strength" per class, not poker: they only have to be self-consistent
(win + tie + loss = total, win[i][j] = loss[j][i], fractions from the integer counts,
equity = win + Σ tie_k / k). Every ``meta`` says ``method: "synthetic test fixture"``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from generator.datafiles import publish
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, CLASS_NAMES, COMBO_CLASS, RANKS

BOARDS = 1712304
OPPONENT_COMBOS = 1225
SYNTHETIC = "synthetic test fixture"


def _meta(stage: str, **extra) -> dict:
    return {
        "stage": stage,
        "method": SYNTHETIC,
        "version": "0.0.0",
        "code_version": "synthetic",
        "backend": "cpu",
        "wall_time_s": 0.0,
        "generated": "2026-01-02T03:04:05Z",
        **extra,
    }


def strength() -> np.ndarray:
    """A made-up strength in (0, 1) per class: high ranks, pairs and suitedness score higher."""
    values = []
    for name in CLASS_NAMES:
        high, low = RANKS.index(name[0]), RANKS.index(name[1])
        score = (2 * high + low) / 36 + (0.35 if high == low else 0) + (0.05 if name.endswith("s") else 0)
        values.append(score)
    values = np.array(values)
    return (values - values.min()) / (values.max() - values.min()) * 0.9 + 0.05


def compatible_pairs() -> np.ndarray:
    """pairs[i][j]: card-compatible combo pairs of classes i and j (exact, by counting)."""
    a, b = ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]
    clash = (a[:, None] == a[None, :]) | (a[:, None] == b[None, :]) | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :])
    onehot = np.eye(len(CLASS_NAMES), dtype=np.int64)[COMBO_CLASS]
    return onehot.T @ (~clash).astype(np.int64) @ onehot


def matchups() -> dict:
    s = strength()
    pairs = compatible_pairs()
    n = len(CLASS_NAMES)
    win = np.zeros((n, n), dtype=np.int64)
    tie = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(i, n):
            total = int(pairs[i, j]) * BOARDS
            tie_share = 0.02 + 0.03 * math.exp(-abs(s[i] - s[j]) * 8)
            p = 1 / (1 + math.exp(-6 * (s[i] - s[j])))
            tie[i, j] = tie[j, i] = round(tie_share * total)
            win[i, j] = round(p * (total - tie[i, j])) if i != j else (total - tie[i, j]) // 2
            win[j, i] = total - tie[i, j] - win[i, j]
    loss = win.T.copy()
    equity = (win + tie / 2) / (pairs * BOARDS)
    return {
        "meta": _meta("matchups", boards=BOARDS),
        "classes": list(CLASS_NAMES),
        "win": win.tolist(),
        "tie": tie.tolist(),
        "loss": loss.tolist(),
        "pairs": pairs.tolist(),
        "equity": equity.tolist(),
    }


def headsup(matchup_data: dict) -> dict:
    """Each class against a random hand = its matchups summed over opponent classes, per hero combo."""
    combos = CLASS_COMBO_COUNT
    per_combo = {k: (np.array(matchup_data[k]).sum(axis=1) // combos) for k in ("win", "tie")}
    total = np.full(len(CLASS_NAMES), OPPONENT_COMBOS * BOARDS, dtype=np.int64)
    loss = total - per_combo["win"] - per_combo["tie"]
    return {
        "meta": _meta("headsup", boards=BOARDS, opponent_combos=OPPONENT_COMBOS, board_classes=134_459, live_combos_per_board=1081),
        "classes": list(CLASS_NAMES),
        "combos": combos.tolist(),
        "win": per_combo["win"].tolist(),
        "tie": per_combo["tie"].tolist(),
        "loss": loss.tolist(),
        "total": total.tolist(),
        "equity": ((per_combo["win"] + per_combo["tie"] / 2) / total).tolist(),
    }


def threehanded(headsup_data: dict) -> dict:
    """Integer counts of the documented shape (win + tie_2 + tie_3 + loss = total), loosely shaped like
    the real table: the heads-up win rate squared, small split rates."""
    combos = CLASS_COMBO_COUNT.astype(np.int64)
    total = combos * 2_118_760 * 446_985
    p_win = np.array(headsup_data["win"]) / np.array(headsup_data["total"])
    win = (total * p_win**2).astype(np.int64)
    tie2, tie3 = total // 100, total // 400
    return {
        "meta": _meta("threehanded", boards=2_118_760, opponent_pairs=446_985),
        "classes": list(CLASS_NAMES),
        "combos": combos.tolist(),
        "win": win.tolist(),
        "tie_2": tie2.tolist(),
        "tie_3": tie3.tolist(),
        "loss": (total - win - tie2 - tie3).tolist(),
        "total": total.tolist(),
        "equity": ((6 * win + 3 * tie2 + 2 * tie3) / (6 * total)).tolist(),
    }


def multiway(players: tuple[int, ...] = tuple(range(2, 11)), deals: int = 400_000) -> dict:
    s = strength()
    by_players = {}
    for n in players:
        tie_k = np.zeros((len(s), 9))
        tie_k[:, 0] = 0.03 / n
        tie_k[:, 1] = 0.004 / n if n > 2 else 0
        weight = np.exp(3.2 * s)
        win = weight / (weight + (n - 1) * np.exp(3.2 * 0.5)) * 0.97
        tie = tie_k.sum(axis=1)
        equity = win + (tie_k / np.arange(2, 11)).sum(axis=1)
        se = np.sqrt(equity * (1 - equity) / deals) / 2
        by_players[str(n)] = {
            "win": win.tolist(),
            "tie": tie.tolist(),
            "tie_k": tie_k.tolist(),
            "loss": (1 - win - tie).tolist(),
            "equity": equity.tolist(),
            "se_win": se.tolist(),
            "se_tie": (se / 10).tolist(),
            "se_equity": se.tolist(),
            "se_equity_plain": (se * 2).tolist(),
            "cv_gain": [4.0] * len(s),
            "gain": np.linspace(2.0, 8.0, len(s)).tolist(),  # median 5
            "samples": [deals] * len(s),
        }
    meta = _meta(
        "multiway", deals=deals * len(players), samples=deals * len(players) * 10, groups=128, seed=1, rng="synthetic",
        control_variates="synthetic",
    )
    return {"meta": meta, "classes": list(CLASS_NAMES), "players": list(players), "by_players": by_players}


def write_synthetic_data(
    data_dir: Path, files: tuple[str, ...] = ("headsup", "matchups", "threehanded", "multiway")
) -> Path:
    """Write the chosen synthetic data files into ``data_dir`` (created); returns ``data_dir``."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    match = matchups()
    heads_up = headsup(match)
    content = {"matchups": match, "headsup": heads_up, "threehanded": threehanded(heads_up), "multiway": multiway()}
    for name in files:
        publish(data_dir, name, content[name])
    return data_dir


REPO = Path(__file__).resolve().parent.parent


def site_config(base_url: str = "/", content_dir: Path = REPO / "content", presets: tuple = (), origin: str = "https://atlas.example"):
    """A Config for rendering tests: the repository's articles, the given base_url and origin
    (``""``: none), no YAML file read."""
    from generator.config import Config, SiteSettings
    from generator.icm_presets import preset_payloads

    site = SiteSettings(title="All-in Atlas", description="Test build.", base_url=base_url, author="Tests", origin=origin)
    presets = presets or ({"name": "50/30/20", "payouts": [50, 30, 20]}, {"name": "MTT", "mtt": {"players": 100, "paid": 15}})
    return Config(site=site, icm_presets=preset_payloads(presets), path=str(content_dir / "site.yaml"))


def build_site(site_dir: Path, base_url: str = "/", data_dir: Path | None = None, **config_options) -> Path:
    """Render a site into ``site_dir`` from ``data_dir`` (copied) or from fresh synthetic data."""
    import shutil

    from generator.render import render_site

    target = Path(site_dir) / "data"
    if data_dir is not None:
        shutil.copytree(data_dir, target, dirs_exist_ok=True)
    else:
        write_synthetic_data(target)
    render_site(site_config(base_url, **config_options), Path(site_dir))
    return Path(site_dir)


def pushfold() -> dict:
    """Synthetic ``pushfold.json``: a class is pushed (called) while its strength beats a threshold
    that rises with the stack; the weakest pushed class is mixed (0.5) at every stack, and 72o is
    pushed at 1 bb and 2 bb only (a gap). Not written by default (:func:`write_synthetic_data`)."""
    stacks = [1 + 0.5 * k for k in range(49)]
    s = strength()
    combos = CLASS_COMBO_COUNT
    gap = CLASS_NAMES.index("72o")

    def frequencies(scale: float, pusher: bool) -> np.ndarray:
        table = np.array([(s >= scale * stack / 25).astype(float) for stack in stacks])
        for row in table:
            weakest = min(np.flatnonzero(row), key=lambda i: s[i])
            row[weakest] = 0.5
        table[:, gap] = 0.0
        if pusher:
            table[[0, 2], gap] = 1.0
        return table

    def maxima(table: np.ndarray) -> tuple[list, list]:
        largest, contiguous = [], []
        for column in table.T:
            played = [stack for stack, f in zip(stacks, column) if f >= 0.5]
            run = None
            for stack, f in zip(stacks, column):
                if f < 0.5:
                    break
                run = stack
            largest.append(max(played) if played else None)
            contiguous.append(run)
        return largest, contiguous

    push, call = frequencies(0.6, pusher=True), frequencies(0.9, pusher=False)
    (push_max, push_run), (call_max, call_run) = maxima(push), maxima(call)
    return {
        "meta": _meta("pushfold", ante=0, tolerance=1e-6, played_threshold=0.5, max_nash_conv=9.9e-7, headsup_code_version="synthetic"),
        "classes": list(CLASS_NAMES), "combos": combos.tolist(), "stacks": stacks,
        "push": push.tolist(), "call": call.tolist(),
        "push_share": (push @ combos / combos.sum()).tolist(), "call_share": (call @ combos / combos.sum()).tolist(),
        "sb_value": [0.0] * len(stacks), "nash_conv": [9.9e-7] * len(stacks), "iterations": [50] * len(stacks),
        "push_max": push_max, "push_max_contiguous": push_run, "call_max": call_max, "call_max_contiguous": call_run,
    }  # fmt: skip
