"""Shared helpers of the multiway tests (no tests here): a tiny deck whose 3-handed game is enumerated exactly."""

from __future__ import annotations

import itertools

import numpy as np

from kernels.cards import N_CLASSES, class_of_cards
from kernels.evaluator import cpu as evaluator
from kernels.multiway.layout import new_tally, pair_class_table
from kernels.multiway.percentile import class_percentile_means

#: Queens, kings and aces of every suit: 12 cards, room for 3 hands and a board (11 cards).
TINY_DECK = np.array([4 * rank + suit for rank in (10, 11, 12) for suit in range(4)], dtype=np.uint8)
TINY_SEATS = 3


def linear_percentile() -> np.ndarray:
    """A cheap stand-in for the percentile control table (any function of the strength is a valid control)."""
    return (np.arange(7463) * 1024 // 7463).astype(np.int32)


def tiny_exact(tables, percentile):
    """Exact per-class results of the tiny 3-handed game, by enumerating every deal.

    Returns (classes present, win (169, 2), tie_k (169, 2, 2) for k = 2, 3, equity (169, 2),
    q_mean (169,)); column 0 is heads-up, column 1 three-handed.
    """
    cards = [int(c) for c in TINY_DECK]
    rows = []
    for hero in itertools.combinations(cards, 2):
        rest = [c for c in cards if c not in hero]
        for first in itertools.combinations(rest, 2):
            rest2 = [c for c in rest if c not in first]
            for second in itertools.combinations(rest2, 2):
                rest3 = [c for c in rest2 if c not in second]
                for board in itertools.combinations(rest3, 5):
                    rows.append((*hero, *first, *second, *board))
    deals = np.array(rows, dtype=np.uint8)
    board = deals[:, 6:]
    strength = [evaluator.evaluate(np.concatenate([deals[:, 2 * s : 2 * s + 2], board], axis=1), tables).astype(np.int64) for s in range(3)]
    classes = np.array([class_of_cards(int(a), int(b)) for a, b in deals[:, :2]])
    hero, first, second = strength
    best3 = np.maximum(first, second)
    outcomes = np.zeros((deals.shape[0], 2, 3))  # (deal, column, [win, tie2, tie3])
    outcomes[:, 0, 0] = hero > first
    outcomes[:, 0, 1] = hero == first
    outcomes[:, 1, 0] = hero > best3
    ties = (hero == best3) * ((first == hero).astype(int) + (second == hero))
    outcomes[:, 1, 1] = ties == 1
    outcomes[:, 1, 2] = ties == 2
    counts = np.bincount(classes, minlength=N_CLASSES).astype(float)
    means = np.zeros((N_CLASSES, 2, 3))
    for column in range(2):
        for event in range(3):
            means[:, column, event] = np.bincount(classes, weights=outcomes[:, column, event], minlength=N_CLASSES)
    present = counts > 0
    means[present] /= counts[present][:, None, None]
    equity = means[..., 0] + means[..., 1] / 2 + means[..., 2] / 3
    combos = np.array(list(itertools.combinations(cards, 2)))
    combo_class = np.array([class_of_cards(int(a), int(b)) for a, b in combos])
    q_mean = class_percentile_means(TINY_DECK, percentile, tables, combos, combo_class)
    return np.flatnonzero(present), means[..., 0], means[..., 1:], equity, q_mean


def simulate_tiny(simulate, seed, blocks, block_deals, tables, percentile, shard=0):
    """Tally of ``blocks`` blocks of the tiny game, using ``simulate`` (the CPU kernel's signature)."""
    from kernels.sampling.rng import shard_key

    tally = new_tally()
    simulate(tally, shard_key(seed, shard), 0, blocks, block_deals, TINY_DECK, TINY_SEATS, tables, percentile, pair_class_table())
    return tally


def multiway_run(config, cluster: str | None = None, **settings):
    """The resolved run a multiway test hands ``run_multiway`` (:func:`generator.compute.run.resolve_run`): ``config``
    on the CPU, no progress bar, and ``settings`` (``budget_seconds``, ``target_se``, ``max_deals``,
    ``multiway_shard``…)."""
    from generator.compute.run import resolve_run

    return resolve_run(config, "cpu", cluster, progress=False, **settings)
