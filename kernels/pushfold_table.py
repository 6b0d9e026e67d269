"""n-player push/fold (2..10 seats): chip-EV or ICM Nash equilibria by discounted CFR, with a best-response NashConv.

The game (amounts in big blinds, bb). Seats ``0 .. n-1`` act in that order: UTG … BTN, then SB
(``n-2``) and BB (``n-1``); heads-up seat 0 is the SB. Every seat posts its dead ante (the same
``ante`` for everyone, or with ``bb_ante`` only the BB posts ``ante``), SB and BB post their blinds.
The first player to enter shoves all-in or folds; after a shove each later player calls all-in or
folds (overcalls included); nobody re-raises. A caller puts in ``min(its stack, the shover's)``
(stack = chips behind after the ante); folded blinds and antes are dead money in the main pot, and
side pots follow from the unequal bets exactly. If everybody folds to the BB it takes the pot.
Payoff: the change of a player's chips (chip EV), or its ICM prize equity after the hand
(:func:`kernels.icm.prize_equity` with the given payouts).

Strategies: per *information set* — a player's open decision (everyone before it folded), or its
call decision facing shover ``p`` with a given set of callers before it — a probability of the
aggressive action (shove / call) for each of ``K`` hand classes (169 for hold'em).

Hands and card removal (the approximation, stated). A player's class has probability ``prior``; the
other players' classes given it are treated as *independent* of each other, each distributed as
``pairs[c, :]`` (card removal against the player whose value is computed, as the heads-up solver
does); the hands of two all-in opponents are taken jointly from the 3-way weights (card removal
among the three). Showdowns:

* 2 all-in: exact class-vs-class probabilities of win / tie / loss (``duel``);
* 3 all-in: the 13 weak orderings of the class triple (``triple``, from the ``threeway`` stage),
  which settles every side pot exactly;
* 4+ all-in (rare at equilibrium): a player wins pot layer ``k`` with the product of its equities
  against each eligible opponent's range (independent-opponent product, ties split in those
  equities); for ICM it either wins every layer it is eligible for (probability: the product over
  all opponents) or none, and the other players' chips are their expectation with the remaining
  layers split evenly. Folded players' ICM value in such a pot uses the even split.
  :func:`multiway_reach` measures how often these pots happen.

Solver: discounted CFR (regrets floored at 0 and discounted, alternating seat updates, averages weighted by
iteration², :data:`DISCOUNT_POSITIVE`);
its counterfactual values come from a :class:`_TermProgram` compiled once per game (sums of products
of per-class vectors, Numba loops in :mod:`kernels.pushfold_cfr`). :func:`nash_conv` is the separate
best-response check (:func:`counterfactual_values`, plain NumPy): for each player the gain of switching
to a best response against the others' strategies (per information set and class, the better action),
summed. No I/O.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np

from kernels.icm import prize_equity
from kernels.pushfold_cfr import accumulate_terms, contract_orderings, contract_packed, contract_pairs, variance_weights
from kernels.threeway.core import ORDER_CODE, triple_index
from kernels.threeway.core import ORDERINGS as THREE_WAY_ORDERINGS

#: The 3-way ordering code with the second and third seats' ranks exchanged.
SWAP_OPPONENTS = np.array([ORDER_CODE[9 * a + 3 * c + b] for a, b, c in THREE_WAY_ORDERINGS])
#: Ranks (0 = best) of (first, second) in a 2-way showdown: first wins, tie, second wins.
DUEL_ORDERINGS = np.array([[0, 1], [0, 0], [1, 0]])
MAX_SEATS = 10


class Equities(NamedTuple):
    """Class-level showdown data for ``K`` classes.

    ``prior``: (K,) probability of each class; ``pairs``: (K, K) joint weight of two players' classes
    (card-compatible combo pairs); ``duel``: (K, K, 3) P(first wins, tie, second wins);
    ``triple_mass``: (13, K, K, K) compatible-combo weight × P(ordering o) for seats (a, b, c) holding
    (c, d, e), orderings as in :data:`kernels.threeway.core.ORDERINGS` (float32 is fine: 250 MB for
    hold'em; :func:`triple_mass` builds it from the sorted-triple table); ``triple_samples``: (K, K, K)
    Monte Carlo samples behind each triple's orderings (:func:`dense_triples`), for
    :func:`three_way_error_bound` (optional).
    """

    prior: np.ndarray
    pairs: np.ndarray
    duel: np.ndarray
    triple_mass: np.ndarray
    triple_samples: np.ndarray | None = None


class Table(NamedTuple):
    """``stacks`` (n,) bb before posting, first to act first; ``blinds`` (small, big); ``ante`` bb per seat
    (or the BB's ante with ``bb_ante``); ``payouts`` (k ≤ n,) prizes for ICM, or None for chip EV."""

    stacks: tuple
    blinds: tuple = (0.5, 1.0)
    ante: float = 0.0
    bb_ante: bool = False
    payouts: tuple | None = None


#: Names of the seats before the button, by how many there are (6-max and full-ring usage).
_EARLY_NAMES = {
    0: [], 1: ["CO"], 2: ["UTG", "CO"], 3: ["UTG", "HJ", "CO"], 4: ["UTG", "LJ", "HJ", "CO"],
    5: ["UTG", "UTG+1", "LJ", "HJ", "CO"], 6: ["UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO"],
    7: ["UTG", "UTG+1", "UTG+2", "MP", "LJ", "HJ", "CO"],
}  # fmt: skip


def position_names(n: int) -> list[str]:
    """Seat names, first to act first: ``["SB", "BB"]`` heads-up, ``[…, "CO", "BTN", "SB", "BB"]`` otherwise."""
    return ["SB", "BB"] if n == 2 else _EARLY_NAMES[n - 3] + ["BTN", "SB", "BB"]


def posted_amounts(table: Table) -> tuple[np.ndarray, np.ndarray]:
    """``(antes, blinds)``, each (n,) bb: dead antes and live blinds posted by each seat."""
    n = len(table.stacks)
    antes = np.zeros(n)
    if table.bb_ante:
        antes[n - 1] = table.ante
    else:
        antes[:] = table.ante
    blinds = np.zeros(n)
    blinds[n - 2], blinds[n - 1] = table.blinds
    return antes, blinds


def table_errors(table: Table) -> list[str]:
    """Problems with a table, as short sentences (empty when it can be solved)."""
    errors = []
    n = len(table.stacks)
    if not 2 <= n <= MAX_SEATS:
        return [f"{n} stacks given: push/fold needs 2 to {MAX_SEATS} players"]
    small, big = table.blinds
    if not (0 <= small <= big and big > 0):
        errors.append(f"blinds {small}/{big}: need 0 <= small blind <= big blind and big blind > 0")
    if table.ante < 0:
        errors.append(f"ante {table.ante} is negative")
    antes, blinds = posted_amounts(table)
    for seat, (stack, posted) in enumerate(zip(table.stacks, antes + blinds)):
        if not stack > posted:
            errors.append(f"stack {stack:g} bb of seat {seat + 1} does not cover its blind and ante ({posted:g} bb)")
    if table.payouts is not None:
        payouts = np.asarray(table.payouts, dtype=np.float64)
        if payouts.size > n:
            errors.append(f"{payouts.size} payouts for {n} players")
        if np.any(payouts < 0) or payouts.sum() <= 0:
            errors.append("payouts must be non-negative with a positive total")
    return errors


class Terminal(NamedTuple):
    """One end of the hand: seat ``shover`` (−1 when everyone folds to the BB) and the ``callers``.

    ``all_in``: (m,) seats in the pot (shover first); ``outcome_ranks``: (O, m) ranks per outcome
    (m ≤ 3), ``payoff``: (n, O) each seat's payoff per outcome; for m ≥ 4: ``layers`` (amount,
    eligible-seat mask) per pot layer and ``payoff`` is None (priced per class, see the module doc).
    """

    shover: int
    callers: tuple
    all_in: tuple
    outcome_ranks: np.ndarray
    payoff: np.ndarray
    layers: tuple
    base: np.ndarray  # (n,) chips after the hand before winnings (stack − ante − bet or blind)


class Game(NamedTuple):
    """A table ready to solve: its terminals, information sets and payoff model."""

    table: Table
    n: int
    terminals: list
    open_sets: list  # seats with an open decision: 0 .. n-2
    call_sets: list  # (seat, shover, callers-before tuple)
    icm: bool
    payouts: np.ndarray | None


def _payoff(table: Table, final: np.ndarray, payouts) -> np.ndarray:
    if payouts is None:
        return final - np.asarray(table.stacks, dtype=np.float64)
    return prize_equity(np.maximum(final, 0.0), payouts, places=False).equity


def _winnings(layers, ranks: dict) -> dict:
    """Chips won by each seat from the pot layers given its rank (0 = best; ties split)."""
    won = {seat: 0.0 for seat in ranks}
    for amount, eligible in layers:
        best = min(ranks[s] for s in eligible)
        winners = [s for s in eligible if ranks[s] == best]
        for s in winners:
            won[s] += amount / len(winners)
    return won


def _even_split(layers, seats) -> dict:
    """Expected chips of each seat when every layer goes to a uniformly random eligible seat among ``seats``."""
    won = {seat: 0.0 for seat in seats}
    for amount, eligible in layers:
        eligible = [s for s in eligible if s in won]
        for s in eligible:
            won[s] += amount / len(eligible)
    return won


def _terminal(table: Table, shover: int, callers: tuple, payouts) -> Terminal:
    n = len(table.stacks)
    stacks = np.asarray(table.stacks, dtype=np.float64)
    antes, blinds = posted_amounts(table)
    behind = stacks - antes
    if shover < 0:  # everyone folds to the BB
        base = stacks - antes - blinds
        final = base.copy()
        final[n - 1] += antes.sum() + blinds.sum()
        payoff = _payoff(table, final, payouts)[:, None]
        return Terminal(-1, (), (n - 1,), np.zeros((1, 1), np.int64), payoff, (), base)
    all_in = (shover, *callers)
    bets = {s: min(behind[s], behind[shover]) for s in all_in}
    base = stacks - antes - blinds
    for s in all_in:
        base[s] = stacks[s] - antes[s] - bets[s]
    dead = antes.sum() + sum(blinds[s] for s in range(n) if s not in bets)
    levels = sorted(set(bets.values()))
    layers, previous = [], 0.0
    for k, level in enumerate(levels):
        amount = sum(min(b, level) - min(b, previous) for b in bets.values()) + (dead if k == 0 else 0.0)
        layers.append((amount, tuple(s for s in all_in if bets[s] >= level)))
        previous = level
    m = len(all_in)
    if m <= 3:
        if m == 1:
            ranks = np.zeros((1, 1), np.int64)
        elif m == 2:
            ranks = DUEL_ORDERINGS
        else:
            ranks = THREE_WAY_ORDERINGS
        payoff = np.empty((n, len(ranks)))
        for o, rank in enumerate(ranks):
            won = _winnings(layers, dict(zip(all_in, rank)))
            final = base.copy()
            for s, chips in won.items():
                final[s] += chips
            payoff[:, o] = _payoff(table, final, payouts)
        return Terminal(shover, callers, all_in, ranks, payoff, tuple(layers), base)
    payoff = np.empty((n, 3))  # 4+ all-in: (hero scoops, hero wins nothing, even split) per seat
    for seat in range(n):
        for column, hero_wins in enumerate((True, False)):
            final = base.copy()
            rest = []
            for amount, eligible in layers:
                others = tuple(s for s in eligible if s != seat)
                if seat in eligible and (hero_wins or not others):  # its own uncalled excess comes back
                    final[seat] += amount
                else:
                    rest.append((amount, others))
            for s, chips in _even_split(rest, all_in).items():
                final[s] += chips
            payoff[seat, column] = _payoff(table, final, payouts)[seat]
    final = base.copy()
    for s, chips in _even_split(layers, all_in).items():
        final[s] += chips
    payoff[:, 2] = _payoff(table, final, payouts)
    return Terminal(shover, callers, all_in, np.zeros((0, m), np.int64), payoff, tuple(layers), base)


def make_game(table: Table) -> Game:
    """Every terminal and information set of ``table`` (raises ValueError on a bad table)."""
    errors = table_errors(table)
    if errors:
        raise ValueError("; ".join(errors))
    n = len(table.stacks)
    payouts = None if table.payouts is None else np.asarray(table.payouts, dtype=np.float64)
    terminals = [_terminal(table, -1, (), payouts)]
    call_sets = []
    for shover in range(n - 1):
        later = list(range(shover + 1, n))
        for size in range(len(later) + 1):
            for callers in combinations(later, size):
                terminals.append(_terminal(table, shover, callers, payouts))
        for seat in later:
            between = list(range(shover + 1, seat))
            for size in range(len(between) + 1):
                for before in combinations(between, size):
                    call_sets.append((seat, shover, before))
    return Game(table, n, terminals, list(range(n - 1)), call_sets, payouts is not None, payouts)


def _decisions(game: Game, terminal: Terminal) -> tuple:
    """For each seat, its (information set key, action) on the way to ``terminal`` (None if it does not act)."""
    return _decision_path(game.n, terminal.shover, terminal.callers)


@lru_cache(maxsize=None)
def _decision_path(n: int, shover: int, callers: tuple) -> tuple:
    out = []
    for seat in range(n):
        if shover < 0:
            out.append((("open", seat), 0) if seat < n - 1 else None)
        elif seat < shover:
            out.append((("open", seat), 0))
        elif seat == shover:
            out.append((("open", seat), 1))
        else:
            before = tuple(s for s in callers if s < seat)
            out.append((("call", seat, shover, before), int(seat in callers)))
    return tuple(out)


def infoset_keys(game: Game) -> list:
    """Every information set key: ``("open", seat)`` and ``("call", seat, shover, callers_before)``."""
    return [("open", s) for s in game.open_sets] + [("call", *c) for c in game.call_sets]


def _sorted_rows(k: int) -> tuple[np.ndarray, np.ndarray]:
    """For every ordered class triple (c, d, e) in C order: its sorted-triple row and the seat permutation
    (sorted position j holds ordered seat ``perm[:, j]``)."""
    c, d, e = (x.ravel() for x in np.meshgrid(np.arange(k), np.arange(k), np.arange(k), indexing="ij"))
    ordered = np.stack([c, d, e], axis=1)
    perm = np.argsort(ordered, axis=1, kind="stable")
    ranked = np.take_along_axis(ordered, perm, axis=1)
    return triple_index(ranked[:, 0], ranked[:, 1], ranked[:, 2]), perm


def dense_triples(values: np.ndarray, k: int, dtype=np.float32) -> np.ndarray:
    """``(K, K, K)``: a per-sorted-triple quantity (T,) (e.g. sample counts) at every ordered triple."""
    rows, _ = _sorted_rows(k)
    return np.asarray(values, dtype=dtype)[rows].reshape(k, k, k)


def triple_mass(orderings: np.ndarray, weights: np.ndarray, k: int, dtype=np.float32) -> np.ndarray:
    """The dense ``(13, K, K, K)`` ordering mass from a sorted-triple table.

    ``orderings``: (T, 13) P(ordering) of seats (a, b, c) holding sorted classes i ≤ j ≤ k, one row per
    :func:`kernels.threeway.core.triple_index`; ``weights``: (T,) compatible combo triples. Every ordered
    class triple takes the row of its sorted classes with the ranks permuted to its seat order.
    """
    rows, perm = _sorted_rows(k)
    mass = np.empty((THREE_WAY_ORDERINGS.shape[0], k * k * k), dtype=dtype)
    for o, ranks in enumerate(THREE_WAY_ORDERINGS):
        sorted_ranks = ranks[perm]  # (N, 3): the ranks of the sorted seats
        code = ORDER_CODE[sorted_ranks[:, 0] * 9 + sorted_ranks[:, 1] * 3 + sorted_ranks[:, 2]]
        mass[o] = weights[rows] * orderings[rows, code]
    return mass.reshape(-1, k, k, k)


class _Model:
    """Precomputed per-class quantities of the equities (conditional class distributions, equities)."""

    def __init__(self, eq: Equities):
        self.eq = eq
        self.prior = np.asarray(eq.prior, dtype=np.float64)
        pairs = np.asarray(eq.pairs, dtype=np.float64)
        self.conditional = pairs / pairs.sum(axis=1, keepdims=True)  # P(other = d | hero = c)
        self.joint = pairs / pairs.sum()  # P(first = c, second = d)
        duel = np.asarray(eq.duel, dtype=np.float64)
        self.duel_conditional = self.conditional[:, :, None] * duel  # (K, K, 3)
        self.duel_joint_by_outcome = np.ascontiguousarray(np.moveaxis(self.joint[:, :, None] * duel, 2, 0))  # (3, K, K)
        self.conditional_equity = self.conditional * (duel[:, :, 0] + duel[:, :, 1] / 2)  # P(d | c) · equity(c vs d)
        self.triple_mass = eq.triple_mass  # None is fine for heads-up tables (no 3-way pot)
        if eq.triple_mass is not None:
            self.triple_norm = np.asarray(eq.triple_mass.sum(axis=(0, 2, 3)), dtype=np.float64)  # (K,) Σ_{d,e} weight
        self._tensors = {}
        self._orderings_last = None
        self._opponent_symmetric = None
        self._upper = None

    #: Payoff-weighted 3-way tensors kept at once (each K³ floats, 19 MB for hold'em in float32, or half of it
    #: packed: at most 1.2 GB in all).
    TENSORS_KEPT = 64

    def payoff_tensor(self, payoff: np.ndarray) -> tuple[bool, np.ndarray]:
        """``(packed, tensor)``: Σ_o payoff[o] · triple_mass[o], one read of the 13-ordering tensor per distinct
        payoff vector (pots with the same payoffs share it) instead of one per iteration. When the payoff does
        not change with which opponent is which (equal bets: ``payoff == payoff[SWAP_OPPONENTS]``) and the
        mass is symmetric in them (:meth:`opponent_symmetric`), the tensor is symmetric in (d, e) and kept
        as its upper triangle (K, K(K+1)/2), which :func:`contract_packed` reads half as much of; else (K, K, K)."""
        key = payoff.tobytes()
        if key not in self._tensors:
            if len(self._tensors) >= self.TENSORS_KEPT:
                self._tensors.pop(next(iter(self._tensors)))
            mass = self.triple_mass
            tensor = np.tensordot(payoff.astype(mass.dtype), mass, axes=(0, 0))
            packed = np.array_equal(payoff, payoff[SWAP_OPPONENTS]) and self.opponent_symmetric()
            if packed:
                first, second = self.upper_pairs()
                tensor = np.ascontiguousarray(tensor[:, first, second])
            self._tensors[key] = (packed, tensor)
        return self._tensors[key]

    def opponent_symmetric(self) -> bool:
        """Whether mass[o, c, d, e] = mass[SWAP_OPPONENTS[o], c, e, d] exactly for d ≠ e (true of
        :func:`triple_mass`'s: both orientations read the same sorted-triple row; checked once). For d = e
        the packed tensor holds T[c, d, d] itself, so the Monte Carlo noise between two same-class opponents
        does not matter."""
        if self._opponent_symmetric is None:
            mass = self.triple_mass
            off = ~np.eye(mass.shape[-1], dtype=bool)
            self._opponent_symmetric = all(np.array_equal(mass[o][:, off], mass[SWAP_OPPONENTS[o]].transpose(0, 2, 1)[:, off])
                                           for o in range(mass.shape[0]))  # fmt: skip
        return self._opponent_symmetric

    def upper_pairs(self) -> tuple[np.ndarray, np.ndarray]:
        """The (d, e) class pairs with d ≤ e, in the packed tensors' order."""
        if self._upper is None:
            self._upper = np.triu_indices(self.prior.size)
        return self._upper

    def clear_tensors(self) -> None:
        """Drop the kept payoff-weighted tensors (a new table has other payoffs)."""
        self._tensors.clear()

    def orderings_last(self) -> np.ndarray:
        """``(K, K, K, 13)``: the ordering mass with the orderings last (built on first use, 250 MB for hold'em)."""
        if self._orderings_last is None:
            self._orderings_last = np.ascontiguousarray(np.moveaxis(self.triple_mass, 0, -1))
        return self._orderings_last

    def ordering_probs(self, first: np.ndarray, second: np.ndarray, third: np.ndarray) -> np.ndarray:
        """(13,) joint probability of each ordering of a 3-way pot and of the three seats' actions
        (``first``, ``second``, ``third``: (K,) action probabilities per class), over their supports."""
        c, d, e = _support(first), _support(second), _support(third)
        if c.size == 0 or d.size == 0 or e.size == 0:
            return np.zeros(self.triple_mass.shape[0])
        return first[c] @ contract_orderings(self.orderings_last(), c, second, d, third, e)

    def duel_probs(self, first: np.ndarray, second: np.ndarray) -> np.ndarray:
        """(3,) joint probability of (first wins, tie, second wins) and of the two seats' actions."""
        return (self.duel_joint_by_outcome @ second) @ first

    def triple_values(self, payoff: np.ndarray, second: np.ndarray, third: np.ndarray) -> np.ndarray:
        """(K,) per hero class: E[payoff | 3-way pot] times the opponents' reach, against (K,) opponent
        strategies ``second``, ``third`` (payoff (13,) per ordering code, hero first), card removal included."""
        return self.triple_contraction(payoff, second, third) / self.triple_norm

    def triple_contraction(self, payoff: np.ndarray, second: np.ndarray, third: np.ndarray) -> np.ndarray:
        """(K,) Σ_{d, e} T[c, d, e] · second[d] · third[e] for T = Σ_o payoff[o] · mass[o] (bilinear: ``second``,
        ``third`` are any (K,) vectors, such as the change of a strategy), summed over their nonzero classes.

        From the payoff-weighted tensor when it is kept or there is room for it; otherwise (many distinct
        payoffs: ICM with unequal stacks) from the 13 orderings over the supports."""
        d, e = np.flatnonzero(second), np.flatnonzero(third)
        k = self.prior.size
        if d.size == 0 or e.size == 0:
            return np.zeros(k)
        if payoff.tobytes() not in self._tensors and len(self._tensors) >= self.TENSORS_KEPT:
            return contract_orderings(self.orderings_last(), np.arange(k), second, d, third, e) @ payoff
        packed, tensor = self.payoff_tensor(payoff)  # Σ_o payoff[o] · mass[o], kept for the next iterations
        if packed:
            return contract_packed(tensor, second, third)
        if d.size * 5 > k * 3:  # a wide support: contiguous rows beat gathering them (measured; both beat BLAS here)
            d = np.arange(k)
        return contract_pairs(tensor, second, d, third, e)


_LAST_MODEL = []  # [(equities, its _Model)]: the derived arrays and kept tensors of the equities in use


def _model_of(eq: Equities) -> _Model:
    """The :class:`_Model` of ``eq``, shared by consecutive calls on the same equities object."""
    if not _LAST_MODEL or _LAST_MODEL[0][0] is not eq:
        _LAST_MODEL[:] = [(eq, _Model(eq))]
    return _LAST_MODEL[0][1]


def _support(vector: np.ndarray) -> np.ndarray:
    return np.flatnonzero(vector > 0)


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
    base = terminal.base[seat] - game.table.stacks[seat]
    if not game.icm:
        won = np.zeros(k)
        for amount, eligible in terminal.layers:
            if seat in eligible:
                p = np.ones(k)
                for s in eligible:
                    if s != seat:
                        p = p * beats[s]
                won += p * amount
        return reach * (base + won)
    scoop = np.ones(k)
    for s in opponents:
        scoop = scoop * beats[s]
    return reach * (scoop * terminal.payoff[seat, 0] + (1 - scoop) * terminal.payoff[seat, 1])


class Solution(NamedTuple):
    """``strategy``: {infoset key: (K,) probability of shoving / calling}; ``nash_conv`` and per-seat
    ``gains`` in payoff units (bb, or prize units for ICM); ``values`` (n,) expected payoff per seat;
    ``warm_started``: whether the iterates started from the given start (see :func:`solve`)."""

    strategy: dict
    nash_conv: float
    gains: np.ndarray
    values: np.ndarray
    iterations: int
    warm_started: bool = False


def seat_gains(game: Game, eq: Equities, strategy: dict, model: _Model | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(gains, values)``, (n,) each: a best response's gain over ``strategy`` for every seat, and the
    seat's value under ``strategy`` from its own decisions (the walk to the BB excluded)."""
    model = model or _model_of(eq)
    values = counterfactual_values(game, eq, strategy, model)
    gains, own = np.zeros(game.n), np.zeros(game.n)
    for key, cfv in values.items():
        seat = key[1]
        p = strategy[key]
        current = (1 - p) * cfv[:, 0] + p * cfv[:, 1]
        gains[seat] += model.prior @ (cfv.max(axis=1) - current)
        own[seat] += model.prior @ current
    return np.maximum(gains, 0.0), own


def nash_conv(game: Game, eq: Equities, strategy: dict, model: _Model | None = None) -> float:
    """Σ over seats of the best-response gain (payoff units): 0 exactly at an equilibrium."""
    return float(seat_gains(game, eq, strategy, model)[0].sum())


class _SeatTerms(NamedTuple):
    """One seat's counterfactual values as a sum of terms: ``coef · scalar · Π factor rows`` added to
    output row ``2 · (local infoset) + action`` (arrays for :func:`kernels.pushfold_cfr.accumulate_terms`)."""

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
                if game.icm:
                    scoop, lose = terminal.payoff[seat, 0], terminal.payoff[seat, 1]
                    add(lose, folders + [aggressive[s] for s in opponents], out_row)
                    add(scoop - lose, folders + [2 * width + aggressive[s] for s in opponents], out_row)
                    continue
                add(terminal.base[seat] - game.table.stacks[seat], folders + [aggressive[s] for s in opponents], out_row)
                for amount, eligible in terminal.layers:
                    if seat in eligible:
                        layer = [(2 * width if s in eligible else 0) + aggressive[s] for s in opponents]
                        add(amount, folders + layer, out_row)
        start = np.zeros(len(index) + 1, dtype=np.int64)
        start[1:] = np.cumsum([len(i) for i in index])
        flat = np.array([f for i in index for f in i], dtype=np.int64)
        return _SeatTerms(np.array(columns, dtype=np.int64), np.array(coef, dtype=np.float64), np.array(slot, dtype=np.int64),
                          start, flat, np.array(rows, dtype=np.int64), triples, outcomes)  # fmt: skip

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
        updated), which a call whose opponent strategies changed in few classes updates instead of redoing."""
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
                cached = (versions, model.duel_probs(*vectors) if len(vectors) == 2 else model.ordering_probs(*vectors))
                self._pot_probs[seats] = cached
            probs = cached[1]
            scalars[slot] = probs @ payoff / max(probs.sum(), 1e-300)
        out = np.zeros((2 * terms.columns.size, k))
        accumulate_terms(self.factors, terms.coef, terms.slot, scalars, terms.start, terms.index, terms.row, out)
        return out.reshape(-1, 2, k)

    #: An update reads a tensor pair for each changed class against the other opponent's support, gathered (about
    #: UPDATE_COST times a contiguous read, :func:`kernels.pushfold_cfr.contract_packed`); it is used when cheaper.
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

    def seat_gains(self, strategy: np.ndarray, memo: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
        """:func:`seat_gains` of ``strategy`` (S, K) from this program (its factor rows are set to it; ``memo``:
        as in :meth:`values`)."""
        self.refresh(strategy, np.arange(self.width))
        prior = self.model.prior
        gains, own = np.zeros(self.game.n), np.zeros(self.game.n)
        for seat, terms in enumerate(self.seats):
            cfv = self.values(strategy, seat, memo)
            p = strategy[terms.columns]
            current = (1 - p) * cfv[:, 0] + p * cfv[:, 1]
            gains[seat] = (cfv.max(axis=1) - current).sum(axis=0) @ prior
            own[seat] = current.sum(axis=0) @ prior
        return np.maximum(gains, 0.0), own


#: Discounted CFR (Brown & Sandholm, AAAI 2019) with α = 3/2, β = −∞, γ = 2: regrets floored at zero (as in
#: CFR+), positive regrets multiplied by t^α / (t^α + 1) after iteration t, and iteration t's strategies
#: weighted by t^γ in the average. Measured against CFR+ (no discount, linear averages) from a cold start at
#: 10 players: 10 iterations instead of 35 at 3 bb, 15 instead of 50 at 5 bb with a BB ante; on the two-class
#: toy game NashConv 1e-6 in 14,800 iterations instead of 40,600 (β = 0, the paper's choice, stalls at 3.6e-6).
DISCOUNT_POSITIVE, AVERAGE_POWER = 1.5, 2.0


def solve(game: Game, eq: Equities, tolerance: float = 1e-3, max_iterations: int = 5000, check_every: int = 5,
          start: dict | None = None, progress=None, decimals: int | None = None, certify: bool = True,
          start_regret: float = 1e-3, start_within: float | None = None) -> Solution:  # fmt: skip
    """Discounted CFR (:data:`DISCOUNT_POSITIVE`, :data:`AVERAGE_POWER`) until the NashConv of the averaged strategies is ≤
    ``tolerance`` (or ``max_iterations``), from zero regrets (all strategies 1/2 at first).

    Updates alternate: each seat in turn updates its regrets against the others' latest strategies
    (values from :class:`_TermProgram`). The checks every ``check_every`` iterations take the best
    response from the same term program (the same numbers as :func:`nash_conv`, tested, at about the
    cost of one iteration); with ``certify`` the result's ``nash_conv``, ``gains`` and ``values`` come from
    :func:`seat_gains`, the separate best-response code (a caller that certifies its own published
    strategy, as :func:`remove_residue` does, passes False and gets the last check's figures).

    ``start``: a strategy to warm-start the regrets from (regrets ``start_regret`` · (1 − p, p), payoff
    units: the larger, the longer the iterates stay near the start), used only when its NashConv is ≤
    ``start_within`` (None: always; a start far from this table's equilibrium can converge more slowly
    than a cold start); ``progress(iteration, nash_conv)`` is called at every check; ``decimals``: the
    averages are rounded to that many decimals before each check and in the result, so the NashConv
    holds for the rounded frequencies.
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
        if start_within is None or program.seat_gains(given)[0].sum() <= start_within:
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
        regrets *= 1 / (1 + float(iteration) ** -DISCOUNT_POSITIVE)  # t^α / (t^α + 1)
        average += iteration**AVERAGE_POWER * current
        weight += iteration**AVERAGE_POWER
        if iteration % check_every == 0 or iteration == max_iterations:
            checked = (iteration, *program.seat_gains(_rounded(average / weight, decimals), check_updates))
            program.refresh(current, np.arange(len(keys)))  # back to the current strategies
            if progress is not None:
                progress(iteration, float(checked[1].sum()))
            if checked[1].sum() <= tolerance:
                break
    strategy = _by_key(keys, _rounded(average / weight, decimals))
    if certify or checked is None or checked[0] != iteration:
        gains, values = seat_gains(game, eq, strategy, model)
    else:
        gains, values = checked[1:]
    return Solution(strategy, float(gains.sum()), gains, values, iteration, warm)


def _rounded(frequencies: np.ndarray, decimals: int | None) -> np.ndarray:
    return frequencies if decimals is None else np.round(frequencies, decimals)


def remove_residue(game: Game, eq: Equities, strategy: dict, tolerance: float, thresholds,
                   decimals: int | None = None) -> tuple[dict, np.ndarray, np.ndarray, float]:  # fmt: skip
    """``(strategy, gains, values, ε)``: ``strategy`` with frequencies below ε set to 0 and above 1 − ε set to 1,
    for the largest ε of ``thresholds`` whose NashConv (:func:`nash_conv`, the best response) is ≤
    ``tolerance``, with its :func:`seat_gains`; ``strategy`` itself and ε = 0 when none is. Linear
    averaging leaves early iterates' weight on actions the equilibrium drops (about 1% on weak hands);
    this publishes the certified strategy without it."""
    model = _model_of(eq)
    for threshold in sorted(thresholds, reverse=True):
        cleaned = {key: _rounded(np.where(p < threshold, 0.0, np.where(p > 1 - threshold, 1.0, p)), decimals) for key, p in strategy.items()}
        gains, values = seat_gains(game, eq, cleaned, model)
        if gains.sum() <= tolerance:
            return cleaned, gains, values, threshold
    return strategy, *seat_gains(game, eq, strategy, model), 0.0


def walk_value(game: Game, eq: Equities, strategy: dict) -> float:
    """The BB's expected payoff from everyone folding to it (the part of its value outside its decisions)."""
    model = _model_of(eq)
    folds = np.ones(model.prior.size)
    for seat in game.open_sets:
        folds = folds * (1.0 - model.conditional @ strategy[("open", seat)])
    return float(model.prior @ folds) * float(game.terminals[0].payoff[game.n - 1, 0])


def _by_key(keys: list, rows: np.ndarray) -> dict:
    return {key: row for key, row in zip(keys, rows)}


def _regret_match(regret: np.ndarray) -> np.ndarray:
    """(…, K) probability of the aggressive action from (…, 2, K) regrets of (fold, aggressive); 0.5 where both are 0."""
    total = regret.sum(axis=-2)
    return np.where(total > 0, regret[..., 1, :] / np.where(total > 0, total, 1.0), 0.5)


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
