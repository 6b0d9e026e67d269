"""The solver's counterfactual values compiled once per game into sums of products of per-class vectors (the same numbers as :func:`.best_response.counterfactual_values`, faster)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .best_response import _hero_payoff, class_regret, infoset_reach
from .game import Game, _decisions
from .loops import accumulate_terms
from .model import _Model


class _SeatTerms(NamedTuple):
    """One seat's counterfactual values as a sum of terms: ``coef · scalar · Π factor rows`` added to
    output row ``2 · (local infoset) + action`` (arrays for :func:`.loops.accumulate_terms`)."""

    columns: np.ndarray  # (s,) the seat's infoset columns, local order
    coef: np.ndarray
    slot: np.ndarray
    start: np.ndarray
    index: np.ndarray
    row: np.ndarray
    triples: list  # per 3-way pot with the seat: (its factor row, payoff per ordering code (13,), the opponents' decisions)
    outcomes: list  # per 2-/3-way pot the seat folded, payoff varying: (scalar slot, its payoff per outcome, in-pot decisions, seats)


class _TermProgram:
    """The solver update's counterfactual values, compiled once per game into products of per-class factor
    vectors: ``factors`` holds per infoset column P(aggressive | hero class) (block 0), its complement
    (block 1), the equity-weighted aggressive reach (block 2, 4+-way pots), the duel outcome vectors
    (blocks 3–5, 2-way pots), then one row per (3-way pot, seat) filled at each update. The same
    numbers as :func:`counterfactual_values` (tested), without its per-terminal Python work."""

    BLOCKS = 6

    def __init__(self, game: Game, model: _Model, keys: list):
        self.game, self.model, self.keys = game, model, keys
        self.column = {key: i for i, key in enumerate(keys)}
        k, width = model.prior.size, len(keys)
        self.width = width
        blocks = [model.conditional, model.conditional_equity] + [model.duel_conditional[:, :, o] for o in range(3)]
        self.blocks = np.ascontiguousarray(np.concatenate([b.T for b in blocks], axis=1))  # (K, 5K): p @ blocks
        self.seats, dynamic = [], self.BLOCKS * width
        for seat in range(game.n):
            self.seats.append(self._seat_terms(game, seat, dynamic))
            dynamic += len(self.seats[-1].triples)
        self.factors = np.zeros((dynamic, k))
        self.seat_of = np.array([key[1] for key in keys])
        self.version = np.zeros(game.n, dtype=np.int64)  # per seat: how often its factor rows changed
        self._pot_probs = {}  # in-pot seats → (their versions, outcome probabilities), shared by the folders

    def _seat_terms(self, game: Game, seat: int, dynamic: int) -> _SeatTerms:
        """``dynamic``: the first free factor row for this seat's 3-way pots."""
        width, column = self.width, self.column
        columns = [column[key] for key in self.keys if key[1] == seat]
        local = {c: i for i, c in enumerate(columns)}
        coef, slot, index, rows, triples, outcomes = [], [], [], [], [], []

        def reach(decision):  # factor row of P(that action | hero class)
            key, action = decision
            return (0 if action else width) + column[key]

        def add(c, factors, out_row, scalar=-1):
            coef.append(c)
            slot.append(scalar)
            index.append(list(factors))
            rows.append(out_row)

        for terminal in game.terminals:
            decisions = _decisions(game, terminal)
            if decisions[seat] is None:
                continue
            key, action = decisions[seat]
            out_row = 2 * local[column[key]] + action
            all_in = terminal.all_in
            folders = [reach(d) for s, d in enumerate(decisions) if s != seat and d is not None and s not in all_in]
            m = len(all_in)
            if seat not in all_in:
                others = folders + [reach(decisions[s]) for s in all_in if decisions[s] is not None]
                payoff = terminal.payoff[seat]
                if m >= 4:
                    add(payoff[2], others, out_row)
                elif m == 1 or np.ptp(payoff) == 0:
                    add(payoff[0], others, out_row)
                else:
                    add(1.0, others, out_row, len(outcomes))
                    outcomes.append((len(outcomes), payoff, [decisions[s] for s in all_in], all_in))
                continue
            opponents = [s for s in all_in if s != seat]
            if m == 1:
                add(terminal.payoff[seat, 0], folders, out_row)
            elif m == 2:
                flip = all_in.index(seat) == 1  # outcomes are (all_in[0] wins, tie, all_in[1] wins)
                for o in range(3):
                    block = 3 + (2 - o if flip else o)
                    add(terminal.payoff[seat, o], folders + [block * width + column[decisions[opponents[0]][0]]], out_row)
            elif m == 3:
                row = dynamic + len(triples)
                triples.append((row, _hero_payoff(terminal, seat), [decisions[s] for s in opponents]))
                add(1.0, folders + [row], out_row)
            else:
                aggressive = {s: column[decisions[s][0]] for s in opponents}

                def scoop_or_nothing(scoop, lose):  # P(reach) · (lose + P(scoop) · (scoop − lose))
                    add(lose, folders + [aggressive[s] for s in opponents], out_row)
                    add(scoop - lose, folders + [2 * width + aggressive[s] for s in opponents], out_row)

                if game.icm:
                    scoop_or_nothing(terminal.payoff[seat, 0], terminal.payoff[seat, 1])
                    continue
                add(terminal.base[seat] - game.table.stacks[seat], folders + [aggressive[s] for s in opponents], out_row)
                for amount, eligible in terminal.layers:
                    if seat in eligible:
                        layer = [(2 * width if s in eligible else 0) + aggressive[s] for s in opponents]
                        add(amount, folders + layer, out_row)
                if terminal.bounty is not None:
                    scoop_or_nothing(terminal.bounty[seat, 0], terminal.bounty[seat, 1])
        start = np.zeros(len(index) + 1, dtype=np.int64)
        start[1:] = np.cumsum([len(i) for i in index])
        flat = np.array([f for i in index for f in i], dtype=np.int64)
        return _SeatTerms(np.array(columns, dtype=np.int64), np.array(coef, dtype=np.float64), np.array(slot, dtype=np.int64),
                          start, flat, np.array(rows, dtype=np.int64), triples, outcomes)

    def refresh(self, strategy: np.ndarray, columns: np.ndarray) -> None:
        """Recompute the factor rows of infoset ``columns`` from ``strategy`` (S, K) after they changed."""
        width, k = self.width, self.model.prior.size
        products = (strategy[columns] @ self.blocks).reshape(columns.size, -1, k)
        self.factors[columns] = products[:, 0]
        self.factors[width + columns] = 1.0 - products[:, 0]
        for block in range(1, products.shape[1]):
            self.factors[(block + 1) * width + columns] = products[:, block]
        self.version[np.unique(self.seat_of[columns])] += 1

    def values(self, strategy: np.ndarray, seat: int, memo: dict | None = None) -> np.ndarray:
        """``(s, 2, K)``: counterfactual values of (fold, shove/call) of each of ``seat``'s infosets
        (``self.seats[seat].columns`` order) against ``strategy`` (S, K), whose factor rows are current.

        ``memo``: the 3-way contractions of earlier calls (``{factor row: (second, third, contraction)}``,
        updated) and the 3-way pots' outcome probabilities (:meth:`_pot_outcomes`), which a call whose opponent
        strategies changed in few classes updates instead of redoing."""
        model, terms = self.model, self.seats[seat]
        k = model.prior.size
        for row, payoff, opponents in terms.triples:
            second, third = (strategy[self.column[key]] for key, _ in opponents)
            self.factors[row] = self._contraction(row, payoff, second, third, memo) / model.triple_norm
        scalars = np.zeros(len(terms.outcomes))
        for slot, payoff, in_pot, seats in terms.outcomes:
            versions = tuple(self.version[list(seats)])
            cached = self._pot_probs.get(seats)
            if cached is None or cached[0] != versions:
                vectors = [strategy[self.column[key]] for key, _ in in_pot]
                cached = (versions, self._pot_outcomes(seats, vectors, memo))
                self._pot_probs[seats] = cached
            probs = cached[1]
            scalars[slot] = probs @ payoff / max(probs.sum(), 1e-300)
        out = np.zeros((2 * terms.columns.size, k))
        accumulate_terms(self.factors, terms.coef, terms.slot, scalars, terms.start, terms.index, terms.row, out)
        return out.reshape(-1, 2, k)

    def _pot_outcomes(self, seats: tuple, vectors: list, memo: dict | None) -> np.ndarray:
        """The outcome probabilities of the pot of ``seats`` under their action ``vectors`` ((K,) each), for the
        seats that folded. A 3-way pot's are updated from ``memo``'s last ones (key ``("pot", seats)``) when the
        strategies changed in few classes since, as :meth:`_contraction` does (trilinear:
        P(f', s', t') = P(f, s, t) + P(f' − f, s', t') + P(f, s' − s, t') + P(f, s, t' − t)): with bounties or
        ICM the folders' payoffs vary with the outcome in most pots, and these sums would otherwise cost more
        than the rest of an iteration."""
        model = self.model
        if len(vectors) == 2:
            return model.duel_probs(*vectors)
        last = None if memo is None else memo.get(("pot", seats))
        probs = None
        if last is not None:
            old, probs = last
            changes = [new - before for new, before in zip(vectors, old)]
            size = [np.count_nonzero(v) for v in (*old, *vectors, *changes)]  # f, s, t, f', s', t', Δf, Δs, Δt
            update = size[6] * size[4] * size[5] + size[0] * size[7] * size[5] + size[0] * size[1] * size[8]
            if update < size[3] * size[4] * size[5]:
                terms = ((changes[0], vectors[1], vectors[2]), (old[0], changes[1], vectors[2]), (old[0], old[1], changes[2]))
                for first, second, third in terms:
                    if np.any(first) and np.any(second) and np.any(third):
                        probs = probs + model.ordering_probs(first, second, third)
            else:
                probs = None
        if probs is None:
            probs = model.ordering_probs(*vectors)
        if memo is not None:
            memo[("pot", seats)] = ([v.copy() for v in vectors], probs)
        return probs

    #: An update reads a tensor pair for each changed class against the other opponent's support, gathered (about
    #: UPDATE_COST times a contiguous read, :func:`.loops.contract_packed`); it is used when cheaper.
    UPDATE_COST = 4

    def _contraction(self, row: int, payoff: np.ndarray, second: np.ndarray, third: np.ndarray, memo: dict | None) -> np.ndarray:
        """:meth:`_Model.triple_contraction` of factor row ``row``, from ``memo``'s last one when the opponents'
        strategies changed in few classes since: T(s', t') = T(s, t) + T(s' − s, t') + T(s, t' − t)."""
        model = self.model
        last = None if memo is None else memo.get(row)
        if last is None:
            value = model.triple_contraction(payoff, second, third)
        else:
            old_second, old_third, value = last
            second_change, third_change = second - old_second, third - old_third
            changed = np.count_nonzero(second_change), np.count_nonzero(third_change)
            update = changed[0] * np.count_nonzero(third) + changed[1] * np.count_nonzero(old_second)
            if self.UPDATE_COST * update < np.count_nonzero(second) * np.count_nonzero(third):
                if changed[0]:
                    value = value + model.triple_contraction(payoff, second_change, third)
                if changed[1]:
                    value = value + model.triple_contraction(payoff, old_second, third_change)
            else:
                value = model.triple_contraction(payoff, second, third)
        if memo is not None:
            memo[row] = (second.copy(), third.copy(), value)
        return value

    def best_response(self, strategy: np.ndarray, memo: dict | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:func:`best_response` of ``strategy`` (S, K) from this program (its factor rows are set to it; ``memo``:
        as in :meth:`values`): ``(gains (n,), values (n,), class regret (S, K))``."""
        self.refresh(strategy, np.arange(self.width))
        prior = self.model.prior
        gains, own = np.zeros(self.game.n), np.zeros(self.game.n)
        regret = np.zeros_like(strategy)
        reach = infoset_reach(self.keys, self.factors[: self.width])
        for seat, terms in enumerate(self.seats):
            cfv = self.values(strategy, seat, memo)
            p = strategy[terms.columns]
            current = (1 - p) * cfv[:, 0] + p * cfv[:, 1]
            gains[seat] = (cfv.max(axis=1) - current).sum(axis=0) @ prior
            own[seat] = current.sum(axis=0) @ prior
            regret[terms.columns] = class_regret(cfv, p, reach[terms.columns])
        return np.maximum(gains, 0.0), own, regret
