"""Counterfactual values against a strategy profile and the best response: each seat's gain (NashConv), each class's regret at each decision."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.threeway.core import ORDER_CODE
from kernels.constants import PUSHFOLD_REACH_FLOOR
from kernels.threeway.core import ORDERINGS as THREE_WAY_ORDERINGS

from .game import Game, Terminal, _decisions, _path_to, infoset_keys
from .model import Equities, _Model, _model_of

#: Decisions a class reaches less often than this (once in 100 deals) are held to the per-class rule in proportion to
#: how often they happen: their regret is divided by REACH_FLOOR instead of by their reach, so following the chart
#: there costs at most the tolerance times REACH_FLOOR per hand. Such spots are 4+-way overcalls at full tables,
#: which the solver's averages resolve last (measured at 10 players and 3 bb: over 1,000 iterations with 1e-3).
REACH_FLOOR = PUSHFOLD_REACH_FLOOR


def infoset_reach(keys: list, aggressive: np.ndarray) -> np.ndarray:
    """(S, K): P(the others' actions lead to information set ``keys[i]`` | the deciding seat's class), from
    ``aggressive`` (S, K), P(the seat of column i acts aggressively | the deciding seat's class) (independent
    opponents, card removal against the deciding seat, as everywhere in this model)."""
    column = {key: i for i, key in enumerate(keys)}
    reach = np.ones_like(aggressive)
    for i, key in enumerate(keys):
        for other, action in _path_to(key):
            reach[i] *= aggressive[column[other]] if action else 1.0 - aggressive[column[other]]
    return reach


def class_regret(values: np.ndarray, played: np.ndarray, reach: np.ndarray) -> np.ndarray:
    """(…, K): how much better the best action does than the strategy played, per class, *at* the decision
    (given that it is reached, payoff units): ``values`` (…, 2, K) counterfactual values of (fold, aggressive),
    ``played`` (…, K) P(aggressive), ``reach`` (…, K) as :func:`infoset_reach`. For a class that reaches the
    decision less often than :data:`REACH_FLOOR`, the counterfactual regret is divided by REACH_FLOOR instead
    (its loss per hand is then at most the tolerance times REACH_FLOOR)."""
    current = (1 - played) * values[..., 0, :] + played * values[..., 1, :]
    regret = np.maximum(values.max(axis=-2) - current, 0.0)
    return regret / np.maximum(reach, REACH_FLOOR)


def counterfactual_values(game: Game, eq: Equities, strategy: dict, model: _Model | None = None, seats=None) -> dict:
    """``{infoset key: (K, 2)}``: each class's counterfactual value of (fold, shove/call) at every
    information set (of ``seats``, default all), against ``strategy`` (``{key: (K,) aggressive
    probability}``) of the others."""
    model = model or _model_of(eq)
    k = model.prior.size
    keys = infoset_keys(game)
    stacked = np.stack([strategy[key] for key in keys], axis=1)  # (K, S) aggressive probability
    conditional_aggressive = model.conditional @ stacked  # (K, S): P(opponent acts aggressively | hero class)
    equity_aggressive = model.conditional_equity @ stacked  # (K, S): … times the hero's equity against it (4+-way pots)
    column = {key: i for i, key in enumerate(keys)}
    seats = range(game.n) if seats is None else seats
    values = {key: np.zeros((k, 2)) for key in keys if key[1] in seats}
    for terminal in game.terminals:
        decisions = _decisions(game, terminal)
        reach_given = _reach_given(decisions, conditional_aggressive, column)
        pot_probs = _PotProbabilities(model, [_action_vector(strategy, decisions[s]) for s in terminal.all_in if decisions[s]])
        multiway = len(terminal.all_in) >= 4
        equity_given = {s: equity_aggressive[:, column[decisions[s][0]]] for s in terminal.all_in} if multiway else None
        for seat, decision in enumerate(decisions):
            if decision is None or seat not in seats:
                continue
            key, action = decision
            if multiway and seat in terminal.all_in:
                value = _multiway_value(game, terminal, reach_given, equity_given, seat)
            else:
                value = _seat_value(game, model, strategy, terminal, decisions, reach_given, seat, pot_probs)
            values[key][:, action] += _folders_reach(terminal, reach_given, seat, k) * value
    return values


class _PotProbabilities:
    """A 2- or 3-way pot's outcome probabilities under the in-pot seats' actions (``vectors``), computed on
    first use and shared by the seats that folded."""

    def __init__(self, model, vectors):
        self.model, self.vectors, self.probs = model, vectors, None

    def __call__(self) -> np.ndarray:
        if self.probs is None:
            two = len(self.vectors) == 2
            self.probs = self.model.duel_probs(*self.vectors) if two else self.model.ordering_probs(*self.vectors)
        return self.probs


def _reach_given(decisions, conditional_aggressive, column) -> list:
    """Per seat: (K,) P(its action on the way to the terminal | the class of the seat being valued), or None."""
    reach = []
    for decision in decisions:
        if decision is None:
            reach.append(None)
            continue
        key, action = decision
        aggressive = conditional_aggressive[:, column[key]]
        reach.append(aggressive if action else 1.0 - aggressive)
    return reach


def _folders_reach(terminal, reach_given, seat, k) -> np.ndarray:
    """(K,) product of the conditional reach of every other seat that acted and is not in the pot."""
    folders = np.ones(k)
    for other, reach in enumerate(reach_given):
        if other != seat and reach is not None and other not in terminal.all_in:
            folders = folders * reach
    return folders


def _action_vector(strategy, decision) -> np.ndarray:
    key, action = decision
    return strategy[key] if action else 1.0 - strategy[key]


def _seat_value(game, model, strategy, terminal, decisions, reach_given, seat, pot_probs) -> np.ndarray:
    """(K,) the seat's expected payoff times the probability of the all-in players' actions, per hero class."""
    all_in = terminal.all_in
    k = model.prior.size
    if seat not in all_in or terminal.shover < 0:
        others = [s for s in all_in if s != seat and decisions[s] is not None]
        reach = np.ones(k)
        for s in others:
            reach = reach * reach_given[s]
        return reach * _outcome_payoff(terminal, seat, pot_probs)
    opponents = [s for s in all_in if s != seat]
    m = len(all_in)
    me = all_in.index(seat)
    if m == 1:
        return np.full(k, terminal.payoff[seat, 0])
    if m == 2:
        other = _action_vector(strategy, decisions[opponents[0]])
        # outcomes are (all_in[0] wins, tie, all_in[1] wins): reversed when the seat is the second
        duel = model.duel_conditional if me == 0 else model.duel_conditional[:, :, ::-1]
        return np.einsum("cdo,d,o->c", duel, other, terminal.payoff[seat])
    return _triple_value(model, strategy, terminal, decisions, seat)  # m == 3; 4+ is _multiway_value


def _hero_payoff(terminal: Terminal, seat: int) -> np.ndarray:
    """(13,) the seat's payoff per ordering code of a 3-way pot, the seat first and its opponents in pot order."""
    all_in = terminal.all_in
    order = [seat] + [s for s in all_in if s != seat]
    # outcome t's ranks are given in all_in's order; in (seat, other, other) order they are the mass's ordering codes[t]
    ranks = terminal.outcome_ranks[:, [all_in.index(s) for s in order]]
    payoff = np.zeros(THREE_WAY_ORDERINGS.shape[0])
    payoff[ORDER_CODE[ranks[:, 0] * 9 + ranks[:, 1] * 3 + ranks[:, 2]]] = terminal.payoff[seat]
    return payoff


def _triple_value(model, strategy, terminal, decisions, seat) -> np.ndarray:
    second, third = (_action_vector(strategy, decisions[s]) for s in terminal.all_in if s != seat)
    return model.triple_values(_hero_payoff(terminal, seat), second, third)


def _outcome_payoff(terminal, seat, pot_probs) -> float:
    """A player outside the pot (or the BB walking): its payoff averaged over the pot's outcomes."""
    m = len(terminal.all_in)
    if m >= 4:
        return terminal.payoff[seat, 2]
    if m == 1 or np.ptp(terminal.payoff[seat]) == 0:
        return terminal.payoff[seat, 0]
    probs = pot_probs()
    return float(probs @ terminal.payoff[seat] / max(probs.sum(), 1e-300))


def _multiway_value(game, terminal, reach_given, equity_given, seat) -> np.ndarray:
    """4+ all-in: independent-opponent equity products (module docstring). ``equity_given[s]``: (K,) P(s plays its
    action | hero class) times the hero's equity against s's class."""
    k = equity_given[seat].size
    opponents = [s for s in terminal.all_in if s != seat]
    reach = np.ones(k)
    beats = {}
    for s in opponents:
        weight = reach_given[s]  # P(s plays its action | hero class)
        reach = reach * weight
        wins = equity_given[s]
        beats[s] = np.where(weight > 0, wins / np.where(weight > 0, weight, 1.0), 0.0)
    if game.icm:
        return reach * _scoop_or_nothing(beats, terminal.payoff[seat])
    base = terminal.base[seat] - game.table.stacks[seat]
    won = np.zeros(k)
    for amount, eligible in terminal.layers:
        if seat in eligible:
            p = np.ones(k)
            for s in eligible:
                if s != seat:
                    p = p * beats[s]
            won += p * amount
    chips = base + won
    if terminal.bounty is None:
        return reach * chips
    # the chips layer by layer; the bounties (who busts decides them) scoop or nothing, as ICM payoffs
    return reach * (chips + _scoop_or_nothing(beats, terminal.bounty[seat]))


def _scoop_or_nothing(beats: dict, payoff) -> np.ndarray:
    """(K,) expected ``payoff[0]`` when the seat beats every opponent (the product of its equities ``beats``), else ``payoff[1]``."""
    scoop = np.ones(next(iter(beats.values())).size)
    for wins in beats.values():
        scoop = scoop * wins
    return scoop * payoff[0] + (1 - scoop) * payoff[1]


class BestResponse(NamedTuple):
    """``gains`` (n,): each seat's best-response gain over the strategy (payoff units per hand; NashConv is
    their sum); ``values`` (n,): each seat's value from its own decisions (the walk to the BB excluded);
    ``class_regret``: {infoset key: (K,)} how much the better action beats the strategy played for each class
    *at* that decision (conditional on reaching it, :func:`class_regret`), payoff units."""

    gains: np.ndarray
    values: np.ndarray
    class_regret: dict

    @property
    def max_class_regret(self) -> float:
        return worst_regret(self.class_regret)


def worst_regret(class_regret: dict) -> float:
    """The largest per-class regret of ``{infoset key: (K,)}`` (payoff units)."""
    return max(float(r.max()) for r in class_regret.values())


def best_response(game: Game, eq: Equities, strategy: dict, model: _Model | None = None) -> BestResponse:
    """Each seat's best response against the others' ``strategy`` (:func:`counterfactual_values`, plain NumPy:
    the check that is independent of the solver's term program)."""
    model = model or _model_of(eq)
    values = counterfactual_values(game, eq, strategy, model)
    keys = infoset_keys(game)
    reach = infoset_reach(keys, (model.conditional @ np.stack([strategy[key] for key in keys], axis=1)).T)
    gains, own = np.zeros(game.n), np.zeros(game.n)
    regrets = {}
    for i, key in enumerate(keys):
        cfv = values[key].T  # (2, K)
        p = strategy[key]
        current = (1 - p) * cfv[0] + p * cfv[1]
        gains[key[1]] += model.prior @ (cfv.max(axis=0) - current)
        own[key[1]] += model.prior @ current
        regrets[key] = class_regret(cfv, p, reach[i])
    return BestResponse(np.maximum(gains, 0.0), own, regrets)


def seat_gains(game: Game, eq: Equities, strategy: dict, model: _Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(gains, values)`` of :func:`best_response`."""
    return best_response(game, eq, strategy, model)[:2]


def nash_conv(game: Game, eq: Equities, strategy: dict, model: _Model | None = None) -> float:
    """Σ over seats of the best-response gain (payoff units): 0 exactly at an equilibrium."""
    return float(seat_gains(game, eq, strategy, model)[0].sum())


def meets(check: BestResponse, tolerance: float, class_tolerance: float | None) -> bool:
    """Whether a best-response check meets the stopping rule of :func:`solve`."""
    return check.gains.sum() <= tolerance and (class_tolerance is None or check.max_class_regret <= class_tolerance)
