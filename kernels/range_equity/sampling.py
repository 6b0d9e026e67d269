"""Monte Carlo equity: deals drawn exactly from the weighted distribution of compatible assignments (ranged
players in units, by rejection between units), random players and the board from the deck, counter-based RNG."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS
from kernels.evaluator import cpu as hand
from kernels.evaluator.core import KEY_BASE
from kernels.sampling.dealing import LOW_32, SHIFT_32, TWO_32
from kernels.sampling.rng import GAMMA, compile_rng, shard_key
from kernels.range_equity.deals import COMBO_MASK, EquityResult, NoDealError, card_mask, deck_without

#: Largest table of two ranged players' compatible combo pairs that Monte Carlo draws at once (:func:`draw_units`).
JOINT_LIMIT = 16384
_RNG = compile_rng(njit(inline="always"))
_child = _RNG.child
_mix64 = _RNG.mix64


@njit(inline="always")
def _next_word(state):
    """The next word of a deal's stream and the advanced state: word i is ``child(deal_key, i)`` (SplitMix64)."""
    state += GAMMA
    return _mix64(state), state


@njit(inline="always")
def _below(bound, state, word, halves):
    """A uniform integer in ``[0, bound)`` from the next 32 random bits of the stream (Lemire's multiply-shift,
    exact: rarely, a redraw from the high half of a fresh word); returns it and the stream ``(state, word, halves)``."""
    if halves == 0:
        word, state = _next_word(state)
        half = word >> SHIFT_32
        halves = 1
    else:
        half = word & LOW_32
        halves = 0
    bound = np.uint64(bound)
    product = half * bound
    if (product & LOW_32) < bound:
        threshold = (TWO_32 - bound) % bound
        while (product & LOW_32) < threshold:
            word, state = _next_word(state)
            product = (word >> SHIFT_32) * bound
            halves = 0
    return np.int64(product >> SHIFT_32), state, word, halves


@njit(inline="always")
def _draw_entry(u, unit_starts, uniform, alias_prob, alias_index, state, word, halves):
    """An entry of unit ``u`` in proportion to its weight: a uniform index, then (unless the unit's weights are all
    equal) Walker's alias test on 53 bits of a fresh word."""
    lo = unit_starts[u]
    i, state, word, halves = _below(unit_starts[u + 1] - lo, state, word, halves)
    e = lo + i
    if not uniform[u]:
        word, state = _next_word(state)
        halves = 0
        if np.float64(word >> np.uint64(11)) * (1.0 / 9007199254740992.0) >= alias_prob[e]:
            e = alias_index[e]
    return e, state, word, halves


@njit(parallel=True, cache=True)
def _sample(block_key, n_deals, n_chunks, n, unit_starts, unit_seats, uniform, entry_bits, entry_cards, entry_key,
            entry_fmask, alias_prob, alias_index, random_seats, missing, live_deck, live_where, board_key, board_fmask,
            base_bits, max_attempts, card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """Deals ``n_deals`` deals; returns the number of deals won by each set of players ``(2**n,)`` (a bit mask of
    the winners: one bit a sole win, k bits a k-way tie; entry 0 counts deals that failed) and the most attempts
    one deal took.

    Ranged players are dealt as units (one player, or players joined into a table of their compatible combo
    pairs): each unit draws an entry in proportion to its weight (a uniform index, then Walker's alias test
    unless every weight is equal) and the whole draw restarts when two units share a card (rejection: exactly the
    product-of-weights distribution over compatible deals). ``random_seats`` and the ``missing`` board cards are
    then dealt by a partial Fisher–Yates shuffle of the live deck less the units' cards (32 random bits a card).
    Random words come from the deal's counter-based stream, word i = ``child(child(block_key, deal), i)``.
    """
    n_units = unit_starts.size - 1
    group = unit_seats.shape[1]
    n_random = random_seats.size
    hist = np.zeros((n_chunks, 1 << n), dtype=np.int64)
    worst = np.zeros(n_chunks, dtype=np.int64)
    per_chunk = (n_deals + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        seat_key = np.zeros(n, dtype=np.uint64)
        seat_fmask = np.zeros(n, dtype=np.uint64)
        chosen = np.zeros(n_units, dtype=np.int64)
        deck = np.zeros(52, dtype=np.uint8)
        where = np.zeros(52, dtype=np.uint8)
        for deal in range(chunk * per_chunk, min(n_deals, (chunk + 1) * per_chunk)):
            state = _child(block_key, np.uint64(deal))  # the deal's key: its word i is child(state, i)
            halves = 0
            word = np.uint64(0)
            attempt = 0
            ok = False
            while not ok and attempt < max_attempts:
                attempt += 1
                used = base_bits
                ok = True
                for u in range(n_units):
                    e, state, word, halves = _draw_entry(u, unit_starts, uniform, alias_prob, alias_index, state, word, halves)
                    if entry_bits[e] & used:
                        ok = False
                        break
                    used |= entry_bits[e]
                    chosen[u] = e
            worst[chunk] = max(worst[chunk], attempt)
            if not ok:
                hist[chunk, 0] += 1
                continue
            size = live_deck.size
            deck[:size] = live_deck
            where[:] = live_where
            for u in range(n_units):  # the units' cards leave the deck (swapped with its last card)
                e = chosen[u]
                for j in range(group):
                    seat = unit_seats[u, j]
                    if seat >= 0:
                        seat_key[seat] = entry_key[e, j]
                        seat_fmask[seat] = entry_fmask[e, j]
                        for c in range(2 * j, 2 * j + 2):
                            i = where[entry_cards[e, c]]
                            size -= 1
                            last = deck[size]
                            deck[i] = last
                            where[last] = i
            key, fmask = board_key, board_fmask
            for drawn in range(2 * n_random + missing):  # partial Fisher–Yates from the end of the deck
                i, state, word, halves = _below(size, state, word, halves)
                card = deck[i]
                size -= 1
                deck[i] = deck[size]
                if drawn < 2 * n_random:
                    seat = random_seats[drawn >> 1]
                    if drawn & 1:
                        seat_key[seat] += card_key[card]
                        seat_fmask[seat] += card_mask_table[card]
                    else:
                        seat_key[seat] = card_key[card]
                        seat_fmask[seat] = card_mask_table[card]
                else:
                    key += card_key[card]
                    fmask += card_mask_table[card]
            best = np.int64(-1)
            winners = 0
            for p in range(n):
                s = np.int64(hand.strength_of_key(key + seat_key[p], fmask + seat_fmask[p], rank_offsets, rank_values,
                                                  flush_values))
                if s > best:
                    best = s
                    winners = 1 << p
                elif s == best:
                    winners |= 1 << p
            hist[chunk, winners] += 1
    return hist.sum(axis=0), worst.max()


def mc_statistics(win: np.ndarray, ties: np.ndarray, samples: int):
    """Equity ``(n,)`` and its standard error ``(n,)`` from integer counts (share s = 1 on a win, 1/k on a k-way tie)."""
    n = len(win)
    k = np.arange(2, n + 1)
    mean = (win + (ties / k).sum(axis=1)) / samples
    second = (win + (ties / k**2).sum(axis=1)) / samples
    variance = np.maximum(second - mean**2, 0.0) * samples / max(samples - 1, 1)
    return mean, np.sqrt(variance / samples)


def _alias(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Walker's alias table (Vose's construction) of ``weight`` (> 0): index i uniform, then kept with probability
    ``prob[i]``, else ``alias[i]``: each index comes out in proportion to its weight."""
    n = len(weight)
    scaled = weight * (n / weight.sum())
    prob, alias = np.ones(n), np.arange(n)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], g
        scaled[g] += scaled[s] - 1.0
        (small if scaled[g] < 1.0 else large).append(g)
    return prob, alias  # the leftovers keep probability 1 (rounding)


def _unit_bits(unit: dict) -> np.ndarray:
    """Card bits of each entry of a unit (all its players' cards)."""
    return np.bitwise_or.reduce(COMBO_MASK[unit["combos"]], axis=1)


def draw_units(weights: list[np.ndarray], seats: list[int], joint_limit: int = JOINT_LIMIT) -> list[dict]:
    """The ranged players grouped into units drawn at once: ``{seats, combos (m, len(seats)), weight (m,)}``.

    A unit of two players is the table of their compatible combo pairs, each weighted by the product of the two
    weights: drawing from it is the pair's distribution given that they do not collide, so rejecting only
    collisions between units keeps the deal exact. Pairs are joined greedily, most colliding first, while the
    table has at most ``joint_limit`` entries and the two collide at least 5% of the time.
    """
    units = [{"seats": [s], "combos": np.flatnonzero(w > 0)[:, None], "weight": w[w > 0]} for s, w in zip(seats, weights)]
    while True:
        best = None
        for a in range(len(units)):
            for b in range(a + 1, len(units)):
                ua, ub = units[a], units[b]
                if len(ua["seats"]) + len(ub["seats"]) > 2:
                    continue
                fits = (_unit_bits(ua)[:, None] & _unit_bits(ub)[None, :]) == 0
                pair_weight = ua["weight"][:, None] * ub["weight"][None, :]
                kept = float((pair_weight * fits).sum() / pair_weight.sum())
                if np.count_nonzero(fits) <= joint_limit and kept <= 0.95 and (best is None or kept < best[0]):
                    best = (kept, a, b, fits, pair_weight)
        if best is None:
            return units
        _, a, b, fits, pair_weight = best
        i, j = np.nonzero(fits)
        ua, ub = units[a], units[b]
        joined = {"seats": ua["seats"] + ub["seats"], "combos": np.hstack([ua["combos"][i], ub["combos"][j]]),
                  "weight": pair_weight[i, j]}
        units = [u for k, u in enumerate(units) if k not in (a, b)] + [joined]


def _unit_arrays(units: list[dict], tables):
    """The kernel's view of ``units``: starts, seats (-1 padded), uniform flags, per entry its card bits, each
    seat's key and suit-mask sums, and the alias table (absolute indices)."""
    group = max([len(u["seats"]) for u in units], default=1)
    starts = np.concatenate(([0], np.cumsum([len(u["weight"]) for u in units]))).astype(np.int64)
    seats = np.full((len(units), group), -1, dtype=np.int64)
    total = int(starts[-1])
    bits = np.zeros(total, dtype=np.uint64)
    cards_of = np.zeros((total, 2 * group), dtype=np.uint8)
    key, fmask = np.zeros((total, group), dtype=np.uint64), np.zeros((total, group), dtype=np.uint64)
    prob, alias = np.ones(total), np.zeros(total, dtype=np.int64)
    uniform = np.zeros(len(units), dtype=np.bool_)
    for u, unit in enumerate(units):
        lo, hi = starts[u], starts[u + 1]
        seats[u, : len(unit["seats"])] = unit["seats"]
        for j in range(len(unit["seats"])):
            cards = ALL_COMBOS[unit["combos"][:, j]]
            bits[lo:hi] |= COMBO_MASK[unit["combos"][:, j]]
            cards_of[lo:hi, 2 * j : 2 * j + 2] = cards
            key[lo:hi, j] = tables.card_key[cards[:, 0]] + tables.card_key[cards[:, 1]]
            fmask[lo:hi, j] = tables.card_mask[cards[:, 0]] + tables.card_mask[cards[:, 1]]
        uniform[u] = bool(np.all(unit["weight"] == unit["weight"][0]))
        p, a = _alias(unit["weight"])
        prob[lo:hi], alias[lo:hi] = p, lo + a
    return starts, seats, uniform, bits, cards_of, key, fmask, prob, alias


def winner_counts(hist: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Wins ``(n,)`` and k-way ties ``(n, n-1)`` from deals counted by the bit mask of their winners ``(2**n,)``."""
    masks = np.arange(1 << n)
    size = np.zeros(1 << n, dtype=np.int64)
    for p in range(n):
        size += (masks >> p) & 1
    win, ties = np.zeros(n, dtype=np.int64), np.zeros((n, n - 1), dtype=np.int64)
    for p in range(n):
        mine = ((masks >> p) & 1) == 1
        win[p] = hist[mine & (size == 1)].sum()
        for k in range(2, n + 1):
            ties[p, k - 2] = hist[mine & (size == k)].sum()
    return win, ties


def sample_equity(weights: list[np.ndarray], board, dead, tables, target_se: float = 1e-3, budget_s: float = 60.0,
                  seed: int = 0, max_samples: int | None = None, progress: Callable[[int, int], None] | None = None,
                  batch: int = 1 << 16, max_attempts: int = 100_000, joint_limit: int = JOINT_LIMIT) -> EquityResult:
    """Monte Carlo equity until every player's se ≤ ``target_se``, ``budget_s`` seconds or ``max_samples`` deals.

    weights: per player ``(1326,)`` (already :func:`live_weights`); a player whose every live combo has
    weight 1 and whose range is every combo (``random``) is dealt from the deck. ``joint_limit``: the largest
    table of two players' compatible combo pairs drawn at once (:func:`draw_units`; 0 draws every player alone).
    """
    n = len(weights)
    fixed = card_mask(list(board) + list(dead))
    for w in weights:
        if np.count_nonzero(w) == 1:
            fixed |= COMBO_MASK[np.flatnonzero(w)[0]]
    random_weights = np.where((COMBO_MASK & fixed) == 0, 1.0, 0.0)
    is_random = [np.count_nonzero(w) > 1 and np.array_equal(w, random_weights) for w in weights]
    ranged = [p for p in range(n) if not is_random[p]]
    units = draw_units([weights[p] for p in ranged], ranged, joint_limit)
    arrays = _unit_arrays(units, tables)
    random_seats = np.array([p for p in range(n) if is_random[p]], dtype=np.int64)
    live_deck = deck_without(board, dead).astype(np.uint8)
    live_where = np.zeros(52, dtype=np.uint8)
    live_where[live_deck] = np.arange(len(live_deck))
    board_key = KEY_BASE + sum((tables.card_key[c] for c in board), np.uint64(0))
    board_fmask = sum((tables.card_mask[c] for c in board), np.uint64(0))
    win = np.zeros(n, dtype=np.int64)
    ties = np.zeros((n, n - 1), dtype=np.int64)
    samples, block, started = 0, 0, time.monotonic()
    key = shard_key(seed, 0)
    while True:
        size = batch if max_samples is None else min(batch, max_samples - samples)
        hist, worst = _sample(
            np.uint64(_child(key, np.uint64(block))), size, 64, n, *arrays, random_seats, 5 - len(board), live_deck, live_where,
            np.uint64(board_key), np.uint64(board_fmask), card_mask(list(board) + list(dead)), max_attempts,
            tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values,
        )
        if worst >= max_attempts:
            raise NoDealError(f"no compatible deal in {max_attempts:,} tries: the ranges (nearly) block each other")
        w, t = winner_counts(hist, n)
        win, ties, samples, block = win + w, ties + t, samples + size, block + 1
        equity, se = mc_statistics(win, ties, samples)
        done = bool(np.all(se <= target_se)) or time.monotonic() - started >= budget_s
        done = done or (max_samples is not None and samples >= max_samples)
        if progress is not None:
            progress(samples, samples if done else samples + size)
        if done:
            break
        batch = min(batch * 2, 1 << 21)
    return EquityResult(
        equity=equity, win=win / samples, ties=ties / samples, se_equity=se, exact=False,
        method="monte carlo", samples=samples,
    )

