"""Discounted CFR and its stopping rule; publishing a solution without the averaging residue."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels import constants as C

from .best_response import BestResponse, best_response, meets, worst_regret
from .game import Game, Table, infoset_keys
from .model import Equities, _model_of
from .program import _TermProgram

#: Discounted CFR (Brown & Sandholm, AAAI 2019) with α = 1, β = −∞, γ = 2: regrets floored at zero (as in
#: CFR+), positive regrets multiplied by t^α / (t^α + 1) after iteration t, and iteration t's strategies
#: weighted by t^γ in the average. Cold, to the per-class rule, α = 1 needs 75 iterations where α = 3/2 needed 390
#: (9 players, 12 bb, BB ante) and 125 where it needed 685 (10 players, 3 bb): a hand's regret piled up early at a
#: rarely reached decision fades as 1/t (docs/pushfold.md, "Solver"); β = 0, the paper's choice, stalls on the
#: two-class toy game.
DISCOUNT_POSITIVE, AVERAGE_POWER = C.PUSHFOLD_DISCOUNT_POSITIVE, C.PUSHFOLD_AVERAGE_POWER
#: The schedule a table is solved again with when discounted CFR misses the stopping rule in its iterations
#: (:func:`solve`'s ``fallback_discount``): α = ∞, no discount of positive regrets (CFR+'s regrets, averages
#: still weighted by t²). This is a 4-player general-sum game, where CFR need not converge: on 4 players
#: 16 bb 50/30/20 ICM discounted CFR's worst class regret hovers at 0.02–0.03% of the pool for 5,000
#: iterations; this schedule then meets the rule (0.01%) in 85 more (the default build's table).
FALLBACK_DISCOUNT = C.PUSHFOLD_FALLBACK_DISCOUNT


class StoppingRule(NamedTuple):
    """When a solution is published: NashConv ≤ ``nash_conv`` and every class's regret at every decision
    (:func:`class_regret`) ≤ ``class_regret``; each in bb for chip EV, in % of the prize pool for ICM.
    Heads-up tables (two decisions: a solve takes well under a second) are held tighter: NashConv
    ``heads_up_scale`` times (1e-5 bb, the precision of the heads-up threshold table ``pushfold_thresholds.json``),
    class regrets ``heads_up_class_scale`` times (1e-4 bb), so that every 2-player answer agrees with it."""

    nash_conv_bb: float = C.PUSHFOLD_NASH_CONV_BB
    nash_conv_pool_pct: float = C.PUSHFOLD_NASH_CONV_POOL_PCT
    class_regret_bb: float = C.PUSHFOLD_CLASS_REGRET_BB
    class_regret_pool_pct: float = C.PUSHFOLD_CLASS_REGRET_POOL_PCT
    heads_up_scale: float = C.PUSHFOLD_HEADS_UP_SCALE
    heads_up_class_scale: float = C.PUSHFOLD_HEADS_UP_CLASS_SCALE

    def tolerances(self, table: Table) -> tuple[float, float]:
        """``(NashConv, class regret)`` tolerances of ``table`` in payoff units (bb, or prize units for ICM)."""
        heads_up = len(table.stacks) == 2
        scale, class_scale = (self.heads_up_scale, self.heads_up_class_scale) if heads_up else (1.0, 1.0)
        unit = 1.0 if table.payouts is None else float(sum(table.payouts)) / 100
        nash_conv, regret = (self.nash_conv_bb, self.class_regret_bb) if table.payouts is None else (self.nash_conv_pool_pct, self.class_regret_pool_pct)
        return scale * nash_conv * unit, class_scale * regret * unit


#: The rule of the precomputed tables, ``allin pushfold`` and the solver page (templates/assets/js/engines/pushfold-solver.js).
RULE = StoppingRule()


class Solution(NamedTuple):
    """``strategy``: {infoset key: (K,) probability of shoving / calling}; ``nash_conv`` and per-seat
    ``gains`` in payoff units (bb, or prize units for ICM); ``values`` (n,) expected payoff per seat;
    ``warm_started``: whether the iterates started from the given start (see :func:`solve`);
    ``class_regret``: {infoset key: (K,)} each class's regret at the decision (:func:`best_response`)."""

    strategy: dict
    nash_conv: float
    gains: np.ndarray
    values: np.ndarray
    iterations: int
    warm_started: bool = False
    class_regret: dict | None = None
    schedule: str = "dcfr"  # "dcfr", or "cfr+" when the fallback schedule produced it (see solve)

    @property
    def max_class_regret(self) -> float:
        """The worst per-class regret at any decision (payoff units)."""
        return worst_regret(self.class_regret)


def solve(game: Game, eq: Equities, tolerance: float = 1e-3, max_iterations: int = C.PUSHFOLD_MAX_ITERATIONS, check_every: int = C.PUSHFOLD_CHECK_EVERY,
          start: dict | None = None, progress=None, decimals: int | None = None, certify: bool = True,
          start_regret: float = 1e-3, start_within: float | None = None, class_tolerance: float | None = None,
          fallback_discount: float | None = None, discount: float = DISCOUNT_POSITIVE) -> Solution:
    """Discounted CFR with α = ``discount`` (:func:`_discounted_cfr`, the arguments' meaning there) until the stopping
    rule is met or ``max_iterations``; then, with a ``fallback_discount`` (:data:`FALLBACK_DISCOUNT`), when the rule was missed,
    again from the same start with that discount of positive regrets for up to ``max_iterations`` more
    (``progress`` then counts on from the first run's iterations). The result is the second run's, with
    ``schedule`` "cfr+" and ``iterations`` the two runs' total."""
    options = dict(tolerance=tolerance, max_iterations=max_iterations, check_every=check_every, start=start,
                   decimals=decimals, certify=certify, start_regret=start_regret, start_within=start_within,
                   class_tolerance=class_tolerance)
    first = _discounted_cfr(game, eq, progress=progress, discount=discount, **options)
    rule_met = first.nash_conv <= tolerance and (class_tolerance is None or first.max_class_regret <= class_tolerance)
    if fallback_discount is None or rule_met:
        return first
    shifted = None if progress is None else (lambda iteration, *figures: progress(first.iterations + iteration, *figures))
    second = _discounted_cfr(game, eq, progress=shifted, discount=fallback_discount, **options)
    return second._replace(iterations=first.iterations + second.iterations, schedule="cfr+")


def _discounted_cfr(game: Game, eq: Equities, tolerance: float, max_iterations: int, check_every: int, start: dict | None,
                    progress, decimals: int | None, certify: bool, start_regret: float, start_within: float | None,
                    class_tolerance: float | None, discount: float = DISCOUNT_POSITIVE) -> Solution:
    """Discounted CFR (``discount`` α, :data:`AVERAGE_POWER`) until the averaged strategies meet the
    stopping rule (or ``max_iterations``), from zero regrets (all strategies 1/2 at first). The rule: NashConv ≤
    ``tolerance`` and, unless ``class_tolerance`` is None, every class's regret at every decision
    (:func:`class_regret`: the better action's value minus the strategy's, given the decision is reached)
    ≤ ``class_tolerance``, both in payoff units. A NashConv alone lets a class whose best action is clearly
    better stay mixed when it weighs little in the total.

    Updates alternate: each seat in turn updates its regrets against the others' latest strategies
    (values from :class:`_TermProgram`). The checks every ``check_every`` iterations take the best
    response from the same term program (the same numbers as :func:`best_response`, tested, at about the
    cost of one iteration); with ``certify`` the result's figures come from :func:`best_response`, the
    separate best-response code (a caller that certifies its own published strategy, as
    :func:`remove_residue` does, passes False and gets the last check's figures).

    ``start``: a strategy to warm-start the regrets from (regrets ``start_regret`` · (1 − p, p), payoff
    units: the larger, the longer the iterates stay near the start), used only when its NashConv is ≤
    ``start_within`` (None: always; a start far from this table's equilibrium can converge more slowly
    than a cold start); ``progress(iteration, nash_conv, max class regret)`` is called at every check;
    ``decimals``: the averages are rounded to that many decimals before each check and in the result, so the
    figures hold for the rounded frequencies.
    """
    model = _model_of(eq)
    model.clear_tensors()  # another table's payoffs would crowd this one's out
    k = model.prior.size
    keys = infoset_keys(game)
    program = _TermProgram(game, model, keys)
    regrets = np.zeros((len(keys), 2, k))  # (S, 2, K) accumulated regrets of (fold, shove/call)
    warm = False
    if start is not None:
        given = np.stack([np.asarray(start[key], dtype=np.float64) for key in keys])
        if start_within is None or program.best_response(given)[0].sum() <= start_within:
            regrets, warm = np.stack([start_regret * (1 - given), start_regret * given], axis=1), True
    average = np.zeros((len(keys), k))
    weight = 0.0
    iteration = 0
    current = _regret_match(regrets)
    program.refresh(current, np.arange(len(keys)))
    checked = None
    updates, check_updates = {}, {}  # the 3-way contractions of the last iteration and of the last check
    while iteration < max_iterations:
        iteration += 1
        for seat in range(game.n):
            columns = program.seats[seat].columns
            cfv = program.values(current, seat, updates)
            p = current[columns]
            expected = (1 - p) * cfv[:, 0] + p * cfv[:, 1]
            regrets[columns] = np.maximum(regrets[columns] + cfv - expected[:, None], 0.0)
            current[columns] = _regret_match(regrets[columns])
            program.refresh(current, columns)
        regrets *= 1 / (1 + float(iteration) ** -discount)  # t^α / (t^α + 1); α = ∞: 1/2 after the first, then 1
        average += iteration**AVERAGE_POWER * current
        weight += iteration**AVERAGE_POWER
        if iteration % check_every == 0 or iteration == max_iterations:
            candidate = _rounded(average / weight, decimals)
            gains, values, regret = program.best_response(candidate, check_updates)
            checked = iteration, gains, values, regret
            program.refresh(current, np.arange(len(keys)))  # back to the current strategies
            worst = float(regret.max())
            if progress is not None:
                progress(iteration, float(gains.sum()), worst)
            if gains.sum() <= tolerance and (class_tolerance is None or worst <= class_tolerance):
                break
    strategy = _by_key(keys, _rounded(average / weight, decimals))
    if certify or checked is None or checked[0] != iteration:
        gains, values, regret = best_response(game, eq, strategy, model)
    else:
        gains, values, regret = checked[1], checked[2], _by_key(keys, checked[3])
    return Solution(strategy, float(gains.sum()), gains, values, iteration, warm, regret)


def _rounded(frequencies: np.ndarray, decimals: int | None) -> np.ndarray:
    return frequencies if decimals is None else np.round(frequencies, decimals)


def remove_residue(game: Game, eq: Equities, strategy: dict, tolerance: float, thresholds,
                   decimals: int | None = None, class_tolerance: float | None = None) -> tuple[dict, BestResponse, float]:
    """``(strategy, its best response, ε)``: ``strategy`` with frequencies below ε set to 0 and above 1 − ε set
    to 1, for the largest ε of ``thresholds`` whose :func:`best_response` still meets the stopping rule
    (:func:`meets`, with the class tolerance raised to ``strategy``'s own worst class regret when that is larger:
    the cleaning never makes a class's regret worse than the solver left it); ``strategy`` itself and ε = 0 when
    none does. Averaging leaves early iterates' weight on actions the equilibrium drops (about 1% on weak hands);
    this publishes the certified strategy without it."""
    model = _model_of(eq)
    given = best_response(game, eq, strategy, model)
    if class_tolerance is not None:
        class_tolerance = max(class_tolerance, given.max_class_regret)
    for threshold in sorted(thresholds, reverse=True):
        cleaned = {key: _rounded(np.where(p < threshold, 0.0, np.where(p > 1 - threshold, 1.0, p)), decimals) for key, p in strategy.items()}
        check = best_response(game, eq, cleaned, model)
        if meets(check, tolerance, class_tolerance):
            return cleaned, check, threshold
    return strategy, given, 0.0


def published(game: Game, eq: Equities, solution: Solution, tolerance: float, class_tolerance: float | None = None) -> Solution:
    """What ``allin pushfold`` and the browser solver (pushfold/cfr.js ``removeResidue``) give: a solution that meets the
    stopping rule, with the averages' residue removed (:func:`remove_residue`, :data:`C.PUSHFOLD_RESIDUE_THRESHOLDS`,
    :data:`C.PUSHFOLD_DECIMALS`) and the figures of the strategy kept; any other solution as it is."""
    rule_met = solution.nash_conv <= tolerance and (class_tolerance is None or solution.max_class_regret <= class_tolerance)
    if not rule_met:
        return solution
    strategy, check, _ = remove_residue(game, eq, solution.strategy, tolerance, C.PUSHFOLD_RESIDUE_THRESHOLDS, C.PUSHFOLD_DECIMALS,
                                        class_tolerance)
    return solution._replace(strategy=strategy, nash_conv=float(check.gains.sum()), gains=check.gains, values=check.values,
                             class_regret=check.class_regret)


def _by_key(keys: list, rows: np.ndarray) -> dict:
    return {key: row for key, row in zip(keys, rows)}


def _regret_match(regret: np.ndarray) -> np.ndarray:
    """(…, K) probability of the aggressive action from (…, 2, K) regrets of (fold, aggressive); 0.5 where both are 0."""
    total = regret.sum(axis=-2)
    return np.where(total > 0, regret[..., 1, :] / np.where(total > 0, total, 1.0), 0.5)
