"""What a published solution is told with besides its exploitability: the BB walk value, the 3-way table error bound, how often each pot size happens."""

from __future__ import annotations

import numpy as np

from .best_response import _action_vector, _folders_reach, _hero_payoff, _reach_given
from .game import Game, _decisions, infoset_keys
from .loops import contract_packed, contract_pairs, variance_weights
from .model import SWAP_OPPONENTS, Equities, _model_of, _support


def walk_value(game: Game, eq: Equities, strategy: dict) -> float:
    """The BB's expected payoff from everyone folding to it (the part of its value outside its decisions)."""
    model = _model_of(eq)
    folds = np.ones(model.prior.size)
    for seat in game.open_sets:
        folds = folds * (1.0 - model.conditional @ strategy[("open", seat)])
    return float(model.prior @ folds) * float(game.terminals[0].payoff[game.n - 1, 0])


def three_way_error_bound(game: Game, eq: Equities, strategy: dict) -> np.ndarray:
    """(n,) for each seat, an upper bound on the standard error of its value (payoff units per hand) that
    comes from the Monte Carlo 3-way table, for the seats in each 3-way pot (a folded seat's ICM value
    also depends on the table; not counted).

    Per 3-way pot and seat: Σ over ordered class triples of m · (coefficient)² · Var(payoff | triple) /
    samples, where m (1, 3 or 6) is the number of orientations sharing the sorted triple's counts
    (Cauchy–Schwarz over orientations, which are fully correlated); the standard errors of the pots and
    seats are then added (triangle inequality). A bound, at most about √6 times the exact value.
    Pots with the same payoff share one table of per-triple variances (:func:`variance_weights`) over the
    classes their players play, contracted with each pot's squared reach.
    """
    model = _model_of(eq)
    k = model.prior.size
    keys = infoset_keys(game)
    column = {key: i for i, key in enumerate(keys)}
    conditional_aggressive = model.conditional @ np.stack([strategy[key] for key in keys], axis=1)
    by_payoff = {}  # payoff bytes → (payoff, [(seat, hero weight, opponent, other)])
    for terminal in game.terminals:
        if terminal.shover < 0 or len(terminal.all_in) != 3:
            continue
        decisions = _decisions(game, terminal)
        reach_given = _reach_given(decisions, conditional_aggressive, column)
        for seat in terminal.all_in:
            own = _action_vector(strategy, decisions[seat]) * _folders_reach(terminal, reach_given, seat, k)
            hero = model.prior * own / model.triple_norm
            opponent, other = (_action_vector(strategy, decisions[s]) for s in terminal.all_in if s != seat)
            if np.any(hero > 0) and np.any(opponent > 0) and np.any(other > 0):
                payoff = _hero_payoff(terminal, seat)
                by_payoff.setdefault(payoff.tobytes(), (payoff, []))[1].append((seat, hero, opponent, other))
    samples = np.asarray(eq.triple_samples)
    bound = np.zeros(game.n)
    for payoff, pots in by_payoff.values():
        heroes = _support(sum(hero for _, hero, _, _ in pots))
        played = _support(sum(opponent + other for _, _, opponent, other in pots))
        symmetric = np.array_equal(payoff, payoff[SWAP_OPPONENTS]) and model.opponent_symmetric()
        second, third = np.triu_indices(played.size) if symmetric else np.indices((played.size,) * 2).reshape(2, -1)
        weights = variance_weights(model.orderings_last(), samples, payoff, heroes, played[second], played[third])
        for seat, hero, opponent, other in pots:
            s, t = opponent[played] ** 2, other[played] ** 2
            if symmetric:
                spread = contract_packed(weights, s, t)
            else:
                spread = contract_pairs(weights.reshape(heroes.size, played.size, played.size), s, _support(s), t, _support(t))
            bound[seat] += float(np.sqrt(hero[heroes] ** 2 @ spread))
    return bound


def multiway_reach(game: Game, eq: Equities, strategy: dict) -> dict:
    """How often each pot size happens under ``strategy`` (classes independent, combo prior):
    ``{m: probability of a showdown with m all-in players}`` for m ≥ 2."""
    prior = np.asarray(eq.prior, dtype=np.float64)
    out = {}
    for terminal in game.terminals:
        if terminal.shover < 0 or len(terminal.all_in) < 2:
            continue
        p = 1.0
        for decision in _decisions(game, terminal):
            if decision is not None:
                p *= float(prior @ _action_vector(strategy, decision))
        out[len(terminal.all_in)] = out.get(len(terminal.all_in), 0.0) + p
    return out
