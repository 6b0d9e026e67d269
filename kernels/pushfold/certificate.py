"""An independent certificate of a push/fold solution on real deals: each seat's gain from deviating.

The solver and its best response (:mod:`.best_response`) price showdowns with class-level tables: exact
heads-up equities, a Monte Carlo 3-way table, and an independent-opponent product for 4+-way pots. This
module prices none of that: it deals real cards (every seat two, a five-card board, card removal as it
is), plays every seat's published strategy by its hand's class, settles every pot with the 7-card
evaluator and the exact side pots of the game (:func:`.game.make_game`'s pot layers), and pays chips or
ICM prize equity (:func:`kernels.icm.harville.prize_equity`) of the real final stacks. With bounties (KO / PKO) it pays
the bounty model's payoff of the real result (:func:`.game._payoff`): a seat left without chips is knocked out
by the real winner(s) of the highest pot layer it was in, so only a covering stack wins its bounty, the cash
share is paid at once and the rest goes onto the winner's head.

Per deal ``d`` and seat ``s`` acting at information set ``I`` with action ``a`` on the way to a terminal,
the counterfactual value is ``v_d(I, a) = Π_{others on the path} P(their action | their class) ·
payoff_s``; summed over the deals where ``s`` holds class ``c`` it estimates the class's counterfactual
value of each action. The *deviation* plays, at each ``(I, c)``, the action whose estimate is larger by more
than :data:`Z` standard errors (a class whose two actions are not told apart by the deals follows the
strategy: a choice made on noise would lose). Its gain over the strategy on deal ``d`` is ``g_d = Σ_I v_d(I, a*)
− Σ_a σ(I, c_d, a) v_d(I, a)`` over the deviating classes, and the certificate is the mean of ``g_d`` with its
standard error. To keep the estimate unbiased, the deviation used on a batch of deals is chosen from the
*earlier* batches only (sequential cross-fitting), and only the deals after the first quarter count (the
choice settles on the early ones). The figure estimates what that deviation gains in the real game: a
class-level best response gains at least as much, so it measures the part of the real exploitability that
the deals can resolve (a seat whose strategy the model gets wrong by more than the noise shows up; a
smaller error does not), with a confidence interval from the per-deal variance.

Because each seat acts at most once in a hand, its best response gains exactly ``Σ_(I, c) max(0, (1 − σ) Δ, −σ Δ)``
with ``Δ = v(I, c, shove / call) − v(I, c, fold)``; putting ``Δ ± 2 se`` in it bounds the real game's class-level
exploitability from above (:attr:`Certificate.upper`, conservative: the 2-standard-error margins of the pairs add
up linearly). Its width is the deals' noise over every hand and decision, so it is large unless the deals are many.

Pure numerics: the random words come from ``numpy.random.Generator(PCG64(seed))``; ``progress(deals done,
deals)`` is called after every batch. No I/O.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from kernels.cards import N_CARDS, N_CLASSES, class_of_cards
from kernels.evaluator.cpu import evaluate
from kernels.icm.harville import prize_equity

from .game import Game, _decisions, _payoff, infoset_keys

#: ``CLASS_OF[a, b]``: the class of two distinct card ids.
CLASS_OF = np.array([[class_of_cards(a, b) if a != b else -1 for b in range(N_CARDS)] for a in range(N_CARDS)])
#: Deals per batch (the unit of the sequential cross-fitting and of the progress callback).
BATCH = 1 << 15
#: The share of the deals that only trains the deviation (their gains are not counted).
BURN_IN = 0.25
#: A class deviates only where one action's estimated value beats the other's by Z standard errors.
Z = 3.0
#: Standard errors of each (decision, class) value difference added in the upper bound.
Z_UPPER = 2.0


class Certificate(NamedTuple):
    """``gains`` (n,): each seat's estimated gain from its class-level best response in the real game (payoff
    units per hand); ``se`` (n,): their standard errors; ``deals`` dealt and ``counted`` (those after the
    burn-in); ``exploitability``: the sum of the gains, with standard error ``exploitability_se``;
    ``deviations``: how many (information set, class) pairs the last deviation changed; ``values``
    (S, 2, 169): the estimated counterfactual values, per deal, of (fold, shove / call) at each information set
    (``infoset_keys`` order) for each class (the class's probability included), and ``values_se`` their
    standard errors; ``upper``: the upper bound of the real game's class-level exploitability (the module's
    docstring) from every deal, in payoff units per hand."""

    gains: np.ndarray
    se: np.ndarray
    deals: int
    counted: int
    exploitability: float
    exploitability_se: float
    deviations: int
    values: np.ndarray
    values_se: np.ndarray
    upper: float


def exploitability_upper_bound(sigma: np.ndarray, values: np.ndarray, values_se: np.ndarray, z: float = Z_UPPER) -> float:
    """``Σ_(I, c) max(0, (1 − σ)(Δ + z se), σ(z se − Δ))`` with ``Δ`` the estimated advantage of shoving / calling
    (``values`` (S, 2, 169)) and ``se`` the sum of the two values' standard errors (an upper bound of its own, the
    two being estimated on the same deals); ``sigma`` (S, 169): P(shove / call)."""
    advantage = values[:, 1] - values[:, 0]
    margin = z * (values_se[:, 1] + values_se[:, 0])
    return float(np.maximum(0.0, np.maximum((1 - sigma) * (advantage + margin), sigma * (margin - advantage))).sum())


class _Path(NamedTuple):
    """A terminal as the certificate walks it: the acting seats with their information set columns and actions,
    the pot layers, the chips before winnings and the seats for which it is reachable."""

    seats: np.ndarray  # (m,) seats that act on the way
    columns: np.ndarray  # (m,) their information set columns
    actions: np.ndarray  # (m,) 1 = shove / call
    layers: tuple  # ((amount, eligible seats), ...)
    base: np.ndarray  # (n,) chips after the hand before winnings
    deviators: tuple  # seats whose deviation can reach it (every other actor plays its action for some class)


def _paths(game: Game, strategy: np.ndarray, column: dict) -> list[_Path]:
    """The terminals some seat's deviation can reach under ``strategy`` (S, K)."""
    possible = np.stack([(1 - strategy).max(axis=1) > 0, strategy.max(axis=1) > 0], axis=1)  # (S, 2): fold, aggressive
    paths = []
    for terminal in game.terminals:
        acting = [(seat, column[key], action) for seat, d in enumerate(_decisions(game, terminal)) if d for key, action in [d]]
        blocked = [seat for seat, col, action in acting if not possible[col, action]]
        if len(blocked) > 1:
            continue
        deviators = tuple(blocked) if blocked else tuple(seat for seat, _, _ in acting)
        layers = terminal.layers
        if terminal.shover < 0:  # everyone folds to the BB: it takes the blinds and antes
            layers = ((float(np.sum(game.table.stacks) - terminal.base.sum()), (game.n - 1,)),)
        paths.append(_Path(np.array([a[0] for a in acting]), np.array([a[1] for a in acting]), np.array([a[2] for a in acting]),
                           tuple(layers), terminal.base, deviators))
    return paths


class _Payoffs:
    """Each seat's payoff of the hands' results: the change of chips, or ICM prize equity, of the final chips
    (memoised by vector); with bounties the model's payoff (:func:`.game._payoff`) of the final chips and of the
    knockouts, a seat left without chips knocked out by the real winners of the highest pot layer it was in
    (memoised by the layers' winners)."""

    def __init__(self, game: Game):
        self.table = game.table
        self.stacks = np.asarray(game.table.stacks, dtype=np.float64)
        self.payouts = game.payouts
        self.memo = {}
        self.mix = np.random.default_rng(0).random(game.n) + 1.0  # a code per result vector (_distinct)

    def __call__(self, final: np.ndarray, layers: tuple = (), winners: list | None = None) -> np.ndarray:
        """``final`` (B, n) chips after each hand; ``winners``: per pot layer of ``layers``, (B, eligible) whether
        each eligible seat won it (needed with bounties)."""
        if self.table.bounties is not None:
            return self._with_bounties(final, layers, winners)
        if self.payouts is None:
            return final - self.stacks
        rows, inverse = self._distinct(final)
        values = np.empty_like(rows)
        for i, row in enumerate(rows):
            key = row.tobytes()
            if key not in self.memo:
                self.memo[key] = prize_equity(np.maximum(row, 0.0), self.payouts, places=False).equity
            values[i] = self.memo[key]
        return values[inverse.ravel()]

    def _distinct(self, final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, inverse)`` as ``np.unique(final, axis=0, return_inverse=True)``, found by sorting one code per row (a
        random mix of its chips) rather than the rows: a hand has few distinct results, and sorting 2^15 rows of 9 or
        10 columns took 70 ms a terminal. Rows that share a code but differ fall back to sorting the rows."""
        _, first, inverse = np.unique(final @ self.mix, return_index=True, return_inverse=True)
        rows = final[first]
        if not np.array_equal(rows[inverse], final):
            return np.unique(final, axis=0, return_inverse=True)
        return rows, inverse

    def _with_bounties(self, final: np.ndarray, layers: tuple, winners: list) -> np.ndarray:
        # who won each layer determines the chips and the knockouts: one code per deal, a bit per (layer, eligible seat)
        # (at most 55 bits: 10 seats all in at different bets)
        bits = np.packbits(np.concatenate(winners, axis=1), axis=1, bitorder="little")
        padded = np.zeros((bits.shape[0], 8), dtype=np.uint8)
        padded[:, : bits.shape[1]] = bits
        code = padded.view(np.uint64).ravel()
        codes, first, inverse = np.unique(code, return_index=True, return_inverse=True)
        values = np.empty((codes.size, final.shape[1]))
        for i, deal in enumerate(first):
            key = (layers, int(codes[i]))
            if key not in self.memo:
                won = [tuple(np.asarray(eligible)[mask[deal]]) for (_, eligible), mask in zip(layers, winners)]
                self.memo[key] = _payoff(self.table, final[deal], self.payouts, layers, won)[0]
            values[i] = self.memo[key]
        return values[inverse.ravel()]


def _deal(rng: np.random.Generator, deals: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(holes (deals, n, 2), board (deals, 5))`` card ids, all distinct within a deal."""
    cards = np.argsort(rng.random((deals, N_CARDS)), axis=1)[:, : 2 * n + 5]
    return cards[:, : 2 * n].reshape(deals, n, 2), cards[:, 2 * n:]


def certify(game: Game, strategy: dict, evaluator_tables, deals: int, seed: int = 0, progress=None) -> Certificate:
    """The certificate of ``strategy`` (``{infoset key: (169,) P(shove / call)}``) on ``deals`` real deals
    (rounded up to whole batches of :data:`BATCH`)."""
    keys = infoset_keys(game)
    column = {key: i for i, key in enumerate(keys)}
    sigma = np.stack([np.asarray(strategy[key], dtype=np.float64) for key in keys])  # (S, K)
    paths = _paths(game, sigma, column)
    payoffs = _Payoffs(game)
    n, width = game.n, len(keys)
    best = np.full((width, N_CLASSES), -1)  # the deviation: −1 follow the strategy, 0 fold, 1 shove / call
    totals = np.zeros((width, 2, N_CLASSES))  # Σ_d v_d(I, a) per class: the counterfactual value estimates
    moments = np.zeros((width, 2, N_CLASSES))  # Σ_d v_d(I, a)², for their standard errors
    sums, squares = np.zeros(n + 1), np.zeros(n + 1)  # per seat, and of the seats' total (one deal serves all seats)
    batches = -(-deals // BATCH)
    burn_in = int(np.ceil(BURN_IN * batches)) if batches > 1 else 0
    rng = np.random.Generator(np.random.PCG64(seed))
    for batch in range(batches):
        holes, board = _deal(rng, BATCH, n)
        classes = CLASS_OF[holes[:, :, 0], holes[:, :, 1]]  # (B, n)
        hands = np.concatenate([holes, np.repeat(board[:, None, :], n, axis=1)], axis=2).reshape(-1, 7)
        strength = evaluate(hands, evaluator_tables).reshape(BATCH, n).astype(np.int64)
        gain = np.zeros((BATCH, n))
        for path in paths:
            final = np.broadcast_to(path.base, (BATCH, n)).copy()
            won = []
            for amount, eligible in path.layers:
                eligible = list(eligible)
                top = strength[:, eligible].max(axis=1, keepdims=True)
                winners = strength[:, eligible] == top
                final[:, eligible] += amount * winners / winners.sum(axis=1, keepdims=True)
                won.append(winners)
            paid = payoffs(final, path.layers, won)  # (B, n)
            played = sigma[path.columns[:, None], classes[:, path.seats].T]  # (m, B): P(aggressive | class)
            chance = np.where(path.actions[:, None] == 1, played, 1.0 - played)
            for i, seat in enumerate(path.seats):
                if seat not in path.deviators:
                    continue
                others = np.prod(np.delete(chance, i, axis=0), axis=0) if len(path.seats) > 1 else np.ones(BATCH)
                value = others * paid[:, seat]
                col, action, own = path.columns[i], path.actions[i], classes[:, seat]
                totals[col, action] += np.bincount(own, weights=value, minlength=N_CLASSES)
                moments[col, action] += np.bincount(own, weights=value**2, minlength=N_CLASSES)
                deviation = best[col, own]
                gain[:, seat] += np.where(deviation < 0, 0.0, value * ((deviation == action) - chance[i]))
        if batch >= burn_in:
            gain = np.concatenate([gain, gain.sum(axis=1, keepdims=True)], axis=1)
            sums += gain.sum(axis=0)
            squares += (gain**2).sum(axis=0)
        advantage = totals[:, 1] - totals[:, 0]  # of shoving / calling, summed over the deals so far
        spread = Z * np.sqrt(2 * moments.sum(axis=1))  # its standard error is at most √(2 Σ v²)
        best = np.where(advantage > spread, 1, np.where(-advantage > spread, 0, -1))
        if progress is not None:
            progress((batch + 1) * BATCH, batches * BATCH)
    counted = (batches - burn_in) * BATCH
    means = sums / counted
    se = np.sqrt(np.maximum(squares / counted - means**2, 0.0) / counted)
    dealt = batches * BATCH
    values = totals / dealt
    values_se = np.sqrt(np.maximum(moments / dealt - values**2, 0.0) / dealt)
    deviations = int(np.count_nonzero((best >= 0) & (best != sigma)))
    upper = exploitability_upper_bound(sigma, values, values_se)
    return Certificate(means[:n], se[:n], dealt, counted, float(means[n]), float(se[n]), deviations, values, values_se, upper)
