"""Heads-up no-limit push/fold: the Nash equilibrium of the small blind's shove-or-fold game.

The game (all amounts in big blinds, bb): both players start the hand with the effective stack
``S`` (before posting). Each posts an ante ``a`` (default 0); the small blind (SB) posts 0.5, the
big blind (BB) 1. The SB either folds (losing 0.5 + a) or shoves all-in; the BB then folds (losing
1 + a to the SB) or calls, and the hand is shown down for a pot of 2·S. Payoffs are chip EV, the
change of the SB's stack; the game is zero-sum, so the BB's payoff is its negative.

Hands are *classes* (169 for hold'em, but any number ``n`` works, which the tests use for toy
games). The joint distribution of (SB class i, BB class j) is ``weights[i, j]`` normalised to sum
1; for hold'em it is the number of card-compatible combo pairs, which is what card removal means:
the BB's hand given the SB's class is proportional to ``pairs[i, :]``, not to the raw combo counts.
``equity[i, j]`` is the SB's showdown equity (win + tie/2) of class i against class j, averaged
over those combo pairs and every board.

Strategies are vectors of probabilities, shape (n,): ``push[i]`` = P(SB shoves | class i),
``call[j]`` = P(BB calls a shove | class j).

The solver is CFR+ (regret matching with regrets floored at zero, alternating updates, linearly
weighted averages) on this one-decision-per-player game, warm-started from any strategies given;
it stops once the *NashConv* of the averaged strategies (SB's best-response gain plus BB's
best-response gain, bb per hand) is below the tolerance. No I/O; NumPy only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

SMALL_BLIND = 0.5
BIG_BLIND = 1.0


class PushFoldGame(NamedTuple):
    """One stack depth of the game, as arrays ready for matrix-vector products.

    ``prob``: (n, n) joint probability of (SB class, BB class), sums to 1.
    ``showdown``: (n, n) SB's chip result in bb when class i shoves and class j calls: (2·eq − 1)·S.
    ``stack``, ``ante``: bb.
    ``net``: (n, n) prob · (showdown − steal gain): what a BB call of class j changes, for SB class i,
    relative to a BB fold (precomputed once, so each solver step is two matrix-vector products).
    ``base``: (n,) prob of SB class i · (steal gain + fold loss): a shove's gain over a fold if
    the BB always folds.
    """

    prob: np.ndarray
    showdown: np.ndarray
    stack: float
    ante: float
    net: np.ndarray
    base: np.ndarray

    @property
    def fold_loss(self) -> float:
        """What the SB loses by folding (bb)."""
        return SMALL_BLIND + self.ante

    @property
    def steal_gain(self) -> float:
        """What the SB wins when the BB folds to the shove (bb)."""
        return BIG_BLIND + self.ante


class Solution(NamedTuple):
    """An (approximate) equilibrium at one stack depth.

    ``push``, ``call``: (n,) probabilities. ``value``: SB's chip EV in bb per hand under them.
    ``nash_conv``: SB best-response gain + BB best-response gain (bb per hand, ≥ 0; 0 at equilibrium).
    ``iterations``: CFR+ iterations run.
    """

    push: np.ndarray
    call: np.ndarray
    value: float
    nash_conv: float
    iterations: int


def make_game(equity: np.ndarray, weights: np.ndarray, stack: float, ante: float = 0.0) -> PushFoldGame:
    """The game at effective stack ``stack`` bb (≥ 1 + ante, so both blinds and antes can be posted).

    ``equity``: (n, n) SB showdown equity in [0, 1]; ``weights``: (n, n) non-negative, any scale
    (e.g. compatible combo pairs), joint frequency of (SB class, BB class).
    """
    equity = np.asarray(equity, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    if equity.shape != weights.shape or equity.ndim != 2 or equity.shape[0] != equity.shape[1]:
        raise ValueError(f"equity {equity.shape} and weights {weights.shape} must be the same square shape")
    if stack < BIG_BLIND + ante or ante < 0:
        raise ValueError(f"stack {stack} bb cannot cover the big blind plus the ante {ante} bb")
    prob = weights / weights.sum()
    showdown = (2.0 * equity - 1.0) * stack
    steal, fold = BIG_BLIND + ante, SMALL_BLIND + ante
    return PushFoldGame(prob, showdown, float(stack), float(ante), prob * (showdown - steal), prob.sum(axis=1) * (steal + fold))


def push_advantage(game: PushFoldGame, call: np.ndarray) -> np.ndarray:
    """(n,) EV(shove) − EV(fold) of each SB class against BB calling strategy ``call``, in bb,
    weighted by the class's probability (so a best response shoves exactly where it is > 0)."""
    return game.net @ call + game.base


def call_advantage(game: PushFoldGame, push: np.ndarray) -> np.ndarray:
    """(n,) EV(call) − EV(fold) of each BB class against SB shoving strategy ``push``, in bb for the
    BB, weighted by the probability of holding the class and facing a shove."""
    return -(push @ game.net)


def sb_value(game: PushFoldGame, push: np.ndarray, call: np.ndarray) -> float:
    """SB's chip EV in bb per hand (the BB's is its negative)."""
    return float(-game.fold_loss + push @ push_advantage(game, call))


def nash_conv(game: PushFoldGame, push: np.ndarray, call: np.ndarray) -> tuple[float, float, float]:
    """(NashConv, SB gain, BB gain) in bb per hand: how much each player gains by switching to a best
    response against the other's strategy; NashConv = SB gain + BB gain ≥ 0."""
    value = sb_value(game, push, call)
    sb_best = -game.fold_loss + np.maximum(push_advantage(game, call), 0.0).sum()
    call_adv = call_advantage(game, push)
    bb_best_value = value + call @ call_adv - np.maximum(call_adv, 0.0).sum()  # SB value vs a BB best response
    # each gain is >= 0 by definition; round-off can leave -1e-17 when the strategy is already a best response
    sb_gain, bb_gain = max(float(sb_best - value), 0.0), max(float(value - bb_best_value), 0.0)
    return sb_gain + bb_gain, sb_gain, bb_gain


def _regret_match(positive: np.ndarray, negative: np.ndarray) -> np.ndarray:
    total = positive + negative
    return np.where(total > 0, positive / np.where(total > 0, total, 1.0), 0.5)


def solve(
    game: PushFoldGame,
    tolerance: float = 1e-5,
    max_iterations: int = 200_000,
    check_every: int = 50,
    push0: np.ndarray | None = None,
    call0: np.ndarray | None = None,
    decimals: int | None = None,
) -> Solution:
    """Approximate Nash equilibrium by CFR+ until NashConv ≤ ``tolerance`` bb (or ``max_iterations``).

    ``push0``/``call0`` (n,) warm-start the regrets (e.g. with the solution at a neighbouring stack):
    each class starts with a small regret towards the given action, which converges faster and
    changes nothing about the limit. Returns the linearly weighted average strategies.

    ``decimals``: the strategies will be published rounded to this many decimals. The stopping test
    and the returned strategies, value and NashConv are then those of the *rounded* averages, so the
    tolerance holds for what is published (rounding to 6 decimals alone moves the NashConv of the
    real game by up to about 3e-8 bb, enough to take a 0.996e-6 solution over 1e-6).
    """

    def published(strategy: np.ndarray) -> np.ndarray:
        return strategy if decimals is None else np.round(strategy, decimals)

    n = game.prob.shape[0]
    # Regrets for (push, fold) and (call, fold), floored at 0 (CFR+).
    scale = 1e-3 * float(np.abs(game.prob).max())
    r_push = scale * (np.asarray(push0, dtype=np.float64) if push0 is not None else np.full(n, 0.5))
    r_pfold = scale * (1.0 - np.asarray(push0, dtype=np.float64)) if push0 is not None else r_push.copy()
    r_call = scale * (np.asarray(call0, dtype=np.float64) if call0 is not None else np.full(n, 0.5))
    r_cfold = scale * (1.0 - np.asarray(call0, dtype=np.float64)) if call0 is not None else r_call.copy()
    avg_push = np.zeros(n)
    avg_call = np.zeros(n)
    weight_total = 0.0
    conv = np.inf
    iteration = 0
    while iteration < max_iterations:
        iteration += 1
        # SB update against the current BB strategy.
        call = _regret_match(r_call, r_cfold)
        push = _regret_match(r_push, r_pfold)
        adv = push_advantage(game, call)
        r_push = np.maximum(r_push + (1.0 - push) * adv, 0.0)
        r_pfold = np.maximum(r_pfold - push * adv, 0.0)
        push = _regret_match(r_push, r_pfold)
        # BB update against the SB's new strategy (alternating updates).
        adv = call_advantage(game, push)
        r_call = np.maximum(r_call + (1.0 - call) * adv, 0.0)
        r_cfold = np.maximum(r_cfold - call * adv, 0.0)
        call = _regret_match(r_call, r_cfold)
        avg_push += iteration * push
        avg_call += iteration * call
        weight_total += iteration
        if iteration % check_every == 0:
            conv = nash_conv(game, published(avg_push / weight_total), published(avg_call / weight_total))[0]
            if conv <= tolerance:
                break
    push, call = published(avg_push / weight_total), published(avg_call / weight_total)
    conv = nash_conv(game, push, call)[0]
    return Solution(push, call, sb_value(game, push, call), conv, iteration)


def solve_stacks(
    equity: np.ndarray, weights: np.ndarray, stacks, ante: float = 0.0, tolerance: float = 1e-5, **options
) -> list[Solution]:
    """Solve every stack depth in ``stacks`` (bb, any order), each warm-started from the previous one.

    ``options`` go to :func:`solve` (e.g. ``decimals``, ``max_iterations``).
    """
    solutions = []
    push = call = None
    for stack in stacks:
        solution = solve(make_game(equity, weights, stack, ante), tolerance, push0=push, call0=call, **options)
        solutions.append(solution)
        push, call = solution.push, solution.call
    return solutions


def max_stack(stacks, frequencies: np.ndarray, threshold: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """The usual chart numbers from strategies solved on a grid of stacks.

    ``stacks``: (k,) bb, increasing; ``frequencies``: (k, n) push (or call) probabilities.
    Returns ``(largest, contiguous)``, both (n,) in bb, NaN where never played: ``largest`` = the
    largest stack at which the class is played with probability ≥ ``threshold``; ``contiguous`` = the
    largest stack X such that it is played at every grid stack ≤ X (smaller than ``largest`` for the
    few classes with gaps in their strategy).
    """
    stacks = np.asarray(stacks, dtype=np.float64)
    played = np.asarray(frequencies) >= threshold  # (k, n)
    n = played.shape[1]
    largest = np.full(n, np.nan)
    contiguous = np.full(n, np.nan)
    for i in range(n):
        where = np.flatnonzero(played[:, i])
        if where.size:
            largest[i] = stacks[where[-1]]
        gaps = np.flatnonzero(~played[:, i])
        first_gap = gaps[0] if gaps.size else len(stacks)
        if first_gap > 0:
            contiguous[i] = stacks[first_gap - 1]
    return largest, contiguous
