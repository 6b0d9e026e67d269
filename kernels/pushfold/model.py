"""The class-level equities of the game (heads-up and 3-way showdown tables) and the per-class quantities derived from them."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.threeway.core import ORDER_CODE, triple_index
from kernels.threeway.core import ORDERINGS as THREE_WAY_ORDERINGS

from .loops import contract_orderings, contract_packed, contract_pairs

#: The 3-way ordering code with the second and third seats' ranks exchanged.
SWAP_OPPONENTS = np.array([ORDER_CODE[9 * a + 3 * c + b] for a, b, c in THREE_WAY_ORDERINGS])


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
                                           for o in range(mass.shape[0]))
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
        (``first``, ``second``, ``third``: (K,) action probabilities per class), over their supports. Trilinear:
        any (K,) vectors (such as the change of a strategy) are summed over their nonzero classes."""
        c, d, e = np.flatnonzero(first), np.flatnonzero(second), np.flatnonzero(third)
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
