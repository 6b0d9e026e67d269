"""Answers read from the build's tables: heads-up preflop class ranges from the exact 169×169 counts, and one
class against random hands from the exact three-handed counts (3 players) or the multiway Monte Carlo table."""

from __future__ import annotations

import numpy as np

from kernels.cards import COMBO_CLASS, N_CLASSES
from kernels.constants import MAX_SEATS
from kernels.range_equity.deals import EquityResult, NoDealError


def class_weights(weights: np.ndarray) -> np.ndarray | None:
    """``(169,)`` weight of each class if every combo of each class has the same weight, else None."""
    per_class = np.zeros(N_CLASSES)
    per_class[COMBO_CLASS] = weights
    return per_class if np.array_equal(per_class[COMBO_CLASS], weights) else None


def table_equity(first: np.ndarray, second: np.ndarray, win, tie, pairs, boards: int) -> EquityResult:
    """Heads-up preflop equity of two class-weight vectors ``(169,)`` from the exact class tables
    ``win, tie, pairs`` ``(169, 169)`` (counts over compatible combo pairs × ``boards`` boards each)."""
    total = first @ pairs @ second * boards
    if total == 0:
        raise NoDealError("no deal gives both players a hand")
    win_share = first @ win @ second / total
    tie_share = first @ tie @ second / total
    loss_share = second @ win @ first / total
    return EquityResult(
        equity=np.array([win_share + tie_share / 2, loss_share + tie_share / 2]), win=np.array([win_share, loss_share]), ties=np.array([[tie_share], [tie_share]]),
        se_equity=None, exact=True, method="table", boards=boards,
    )


def class_against_random(weights: list[np.ndarray]) -> tuple[int, int] | None:
    """``(hero seat, class)`` when exactly one player holds one whole class (equal weights) and every other
    player holds every combo with equal weights (random), else None."""
    heroes = [p for p, w in enumerate(weights) if not (w[0] > 0 and np.all(w == w[0]))]
    if len(heroes) != 1:
        return None
    per_class = class_weights(weights[heroes[0]])
    classes = [] if per_class is None else np.flatnonzero(per_class > 0)
    return (heroes[0], int(classes[0])) if len(classes) == 1 else None


def exact_block(counts, players: int, boards: int) -> dict:
    """The exact counts of a class against ``players`` − 1 random hands (``threehanded.json``'s or ``fourhanded.json``'s
    ``win``, ``tie_2`` … ``tie_<players>``, ``total``: (169,) each) as a table block of the shape
    :func:`multiway_table_equity` reads, marked ``exact`` (``boards``: board completions behind each deal). The
    equity is (win + Σ tie_k / k) / total, summed in that order (the JS twin, ``exactBlock``, does the same)."""
    total = np.asarray(counts["total"], dtype=np.float64)
    win = np.asarray(counts["win"], dtype=np.float64)
    splits = [np.asarray(counts[f"tie_{k}"], dtype=np.float64) for k in range(2, players + 1)]
    shares = win.copy()
    for k, split in enumerate(splits, start=2):
        shares = shares + split / k
    return {
        "equity": (shares / total).tolist(), "win": (win / total).tolist(),
        "tie_k": [[float(s[c] / total[c]) for s in splits] + [0.0] * (MAX_SEATS - players) for c in range(len(total))],
        "se_equity": [0.0] * len(total), "samples": total.astype(np.int64).tolist(), "exact": True, "boards": boards,
    }


def multiway_table_equity(hero: int, hero_class: int, n: int, block: dict) -> EquityResult | None:
    """A class against n − 1 random hands preflop from a table block: ``multiway.json``'s ``by_players[n]`` (Monte
    Carlo: the hero seat's published estimates and standard error) or :func:`exact_block` (exact). Each
    random seat gets an equal share of the rest (exact by symmetry given the hero's; its win and ties are not in
    the table: NaN). None while a Monte Carlo table has no standard error for the class."""
    se = block["se_equity"][hero_class]
    if se is None:
        return None
    exact = block.get("exact", False)
    equity = block["equity"][hero_class]
    others = np.full(n, np.nan)
    win, ties = others.copy(), np.full((n, n - 1), np.nan)
    win[hero] = block["win"][hero_class]
    ties[hero] = block["tie_k"][hero_class][: n - 1]
    return EquityResult(
        equity=np.where(np.arange(n) == hero, equity, (1 - equity) / (n - 1)), win=win, ties=ties,
        se_equity=None if exact else np.where(np.arange(n) == hero, se, se / (n - 1)), exact=exact, method="table",
        samples=int(block["samples"][hero_class]), boards=block.get("boards"),
    )
