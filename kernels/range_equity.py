"""All-in equity of 2–10 players, each holding a weighted range of combos, on a partial board with dead cards.

The deal (PokerStove's definition): every assignment of one combo per player in which no two
players' combos, the board and the dead cards share a card, weighted by the product of the
players' combo weights; then every completion of the board from the remaining cards, equally likely.
A player's equity is the expected share of the pot: 1 for a sole win, 1/k for a k-way tie.

Three methods, first that applies:

* ``table``: heads-up, no board, no dead cards, each range a union of whole classes (one weight per
  class): the exact 169×169 heads-up counts (card removal included) weighted by the class weights;
  or (``exact`` false) one class against n − 1 random hands preflop, 3+ players: the multiway
  Monte Carlo table's estimate and standard error (``multiway.json``);
* ``enumeration``: every board completion and every compatible assignment, when the work estimate
  (:func:`enumeration_work`) is at most ``exact_limit``; exact weighted counts. Heads-up, one sweep per
  board in strength order; 3+ players, the largest range is dealt last and counted at once per
  assignment of the others (the browser's methods, templates/assets/js/range-equity.js);
* ``monte carlo``: deals drawn exactly from the distribution above (ranged players by rejection, in units
  of one player or of two players' compatible combo pairs, O(1) alias draws; random players and the board
  from the remaining deck; counter-based RNG keyed by seed, batch and deal), in batches until every
  player's standard error is ≤ ``target_se`` or ``budget_s`` runs out.
  Counts are integers (sufficient statistics): win and k-way ties per player.

Engines report progress through ``progress(done, total)`` callbacks and never print.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb
from typing import Callable

import numba
import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CLASSES, format_card
from kernels.constants import MAX_SEATS, RANGE_EQUITY_EXACT_LIMIT
from kernels.evaluator import cpu as hand
from kernels.evaluator.core import KEY_BASE
from kernels.constants import Z_975
from kernels.multiway.dealing import LOW_32, SHIFT_32, TWO_32
from kernels.multiway.rng import GAMMA, compile_rng, shard_key

MAX_PLAYERS = MAX_SEATS
#: Default bound on the enumeration work (:func:`enumeration_work`): 1–2 s on 2 quiet cores, up to ~8 s on busy ones; the
#: browser's too (range-equity.js, the same estimate: about 2 s of one worker there), so both are exact on the same spots.
EXACT_LIMIT = RANGE_EQUITY_EXACT_LIMIT
#: Enumeration work below which one thread is faster than waking the others.
SERIAL_WORK = 5e6
#: Largest table of two ranged players' compatible combo pairs that Monte Carlo draws at once (:func:`draw_units`).
JOINT_LIMIT = 16384
_RNG = compile_rng(njit(inline="always"))
_child = _RNG.child
_mix64 = _RNG.mix64
#: Bit mask of the two cards of each combo, ``(1326,)`` uint64.
COMBO_MASK = (np.uint64(1) << ALL_COMBOS[:, 0].astype(np.uint64)) | (np.uint64(1) << ALL_COMBOS[:, 1].astype(np.uint64))
#: Combo id of two distinct cards, ``(52, 52)`` int64 (-1 on the diagonal).
COMBO_OF = np.full((52, 52), -1, dtype=np.int64)
COMBO_OF[ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]] = COMBO_OF[ALL_COMBOS[:, 1], ALL_COMBOS[:, 0]] = np.arange(len(ALL_COMBOS))


class NoDealError(ValueError):
    """No deal is possible: a player's range is empty after card removal, or no compatible assignment exists."""

    def __init__(self, message: str, player: int | None = None, blockers: tuple = ()):
        super().__init__(message)
        self.player = player
        #: ``((card, holder), ...)``: the cards that emptied ``player``'s range, each with who holds it
        #: (``"board"``, ``"dead"`` or a 0-based player holding that single combo), in card order.
        self.blockers = blockers


def blocker_text(blockers) -> str:
    """``"As (board), Kd (player 1)"``: the cards of :attr:`NoDealError.blockers` and their holders."""
    def holder(who) -> str:
        return who if isinstance(who, str) else f"player {who + 1}"

    return ", ".join(f"{format_card(card)} ({holder(who)})" for card, who in blockers)


@dataclass
class EquityResult:
    """Per player ``(n,)`` fractions; ``ties[p, k-2]`` = probability of a k-way tie that includes p."""

    equity: np.ndarray
    win: np.ndarray
    ties: np.ndarray  # (n, n - 1)
    se_equity: np.ndarray | None  # (n,) standard errors, None when exact
    exact: bool
    method: str
    samples: int | None = None  # Monte Carlo deals
    boards: int | None = None  # board completions enumerated per assignment (table: 1,712,304)

    @property
    def tie(self) -> np.ndarray:
        return self.ties.sum(axis=1)

    def ci95(self) -> np.ndarray | None:
        """``(n, 2)`` 95% confidence intervals of the equities, None when exact."""
        if self.se_equity is None:
            return None
        half = Z_975 * self.se_equity
        return np.stack([self.equity - half, self.equity + half], axis=1)


def card_mask(cards) -> np.uint64:
    mask = np.uint64(0)
    for card in cards:
        mask |= np.uint64(1) << np.uint64(card)
    return mask


def live_weights(weights: list[np.ndarray], board, dead) -> list[np.ndarray]:
    """Each player's weights ``(1326,)`` with combos that touch the board or dead cards, or the cards of a
    player holding a single combo, set to 0; raises :class:`NoDealError` for a range left empty."""
    blocked = card_mask(list(board) + list(dead))
    live = [np.where((COMBO_MASK & blocked) == 0, np.asarray(w, dtype=np.float64), 0.0) for w in weights]
    held = {int(card): "board" for card in board} | {int(card): "dead" for card in dead}  # who holds each taken card
    changed = True
    while changed:  # a player with one combo left removes its cards from everyone else, repeatedly
        changed = False
        for p, w in enumerate(live):
            if not np.any(w > 0):
                cards = set(ALL_COMBOS[np.asarray(weights[p]) > 0].ravel().tolist())
                blockers = tuple((card, held[card]) for card in sorted(held) if card in cards)
                raise NoDealError(f"player {p + 1}'s range is empty after card removal: {blocker_text(blockers)}", p, blockers)
            nonzero = np.flatnonzero(w > 0)
            if nonzero.size == 1:
                for card in ALL_COMBOS[nonzero[0]].tolist():
                    held.setdefault(int(card), p)
                mask = COMBO_MASK[nonzero[0]]
                for q, other in enumerate(live):
                    if q != p and np.any(other[(COMBO_MASK & mask) != 0] > 0):
                        other[(COMBO_MASK & mask) != 0] = 0.0
                        changed = True
    return live


def class_weights(weights: np.ndarray) -> np.ndarray | None:
    """``(169,)`` weight of each class if every combo of each class has the same weight, else None."""
    per_class = np.zeros(N_CLASSES)
    per_class[COMBO_CLASS] = weights
    return per_class if np.array_equal(per_class[COMBO_CLASS], weights) else None


def table_equity(first: np.ndarray, second: np.ndarray, win, tie, pairs, boards: int) -> EquityResult:
    """Heads-up preflop equity of two class-weight vectors ``(169,)`` from the exact class tables
    ``win, tie, pairs`` ``(169, 169)`` (counts over compatible combo pairs × ``boards`` boards each)."""
    total = first @ pairs @ second * boards
    if total == 0:
        raise NoDealError("no deal gives both players a hand")
    win_share = first @ win @ second / total
    tie_share = first @ tie @ second / total
    loss_share = second @ win @ first / total
    return EquityResult(
        equity=np.array([win_share + tie_share / 2, loss_share + tie_share / 2]), win=np.array([win_share, loss_share]), ties=np.array([[tie_share], [tie_share]]),
        se_equity=None, exact=True, method="table", boards=boards,
    )


@njit(inline="always")
def _score_leaf(strengths, n, weight, win, ties, row):
    """Add ``weight`` to ``win[row, p]`` of a sole winner, or to ``ties[row, p, k - 2]`` of each of k tied players."""
    best = 0
    winners = 0
    for p in range(n):
        if strengths[p] > best:
            best = strengths[p]
            winners = 1
        elif strengths[p] == best:
            winners += 1
    for p in range(n):
        if strengths[p] == best:
            if winners == 1:
                win[row, p] += weight
            else:
                ties[row, p, winners - 2] += weight


@njit(inline="always")
def _hole_strength(key, mask, x, y, card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """Strength of hole cards x, y on a board summarised by its ``key`` and ``mask`` sums."""
    return hand.strength_of_key(key + card_key[x] + card_key[y], mask + card_mask_table[x] + card_mask_table[y],
                                rank_offsets, rank_values, flush_values)


@njit(inline="always")
def _board_strengths(known_key, known_mask, completion, distinct, strength, combo_cards, combo_mask,
                     card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """Sets ``strength[c]`` of every combo id in ``distinct`` on the known board plus ``completion`` (-1 for a
    combo holding one of its cards); returns the completion's card bit mask."""
    key, mask, bits = known_key, known_mask, np.uint64(0)
    for c in completion:
        key += card_key[c]
        mask += card_mask_table[c]
        bits |= np.uint64(1) << np.uint64(c)
    for c in distinct:
        if combo_mask[c] & bits:
            strength[c] = -1
        else:
            strength[c] = _hole_strength(key, mask, combo_cards[c, 0], combo_cards[c, 1],
                                         card_key, card_mask_table, rank_offsets, rank_values, flush_values)
    return bits


@njit(inline="always")
def _sort_prefix(keys, m):
    """Sorts ``keys[:m]`` in place: insertion sort for short prefixes (Numba's sort costs ~0.4 µs a call)."""
    if m > 64:
        keys[:m].sort()
        return
    for i in range(1, m):
        x = keys[i]
        j = i - 1
        while j >= 0 and keys[j] > x:
            keys[j + 1] = keys[j]
            j -= 1
        keys[j + 1] = x


@njit(parallel=True, cache=True)
def _headsup_sweep(board, completions, chunk_starts, distinct, idx0, w0, idx1, w1, combo_cards, combo_mask,
                   card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """Weighted (player 1's wins, ties, total) of two packed ranges (combo ids ``idx0``, ``idx1``, weights ``w0``,
    ``w1``) over ``completions`` (B, m), each board by one sweep in strength order instead of every pair.

    Player 2's combos below / equal to the current strength are kept as running weight sums, in total and
    per card, so a combo's compatible opponents are the total minus those holding either of its cards (a
    combo in both ranges has equal strength and was subtracted twice: it is added back to ties and total).
    """
    n_chunks = chunk_starts.size - 1
    out = np.zeros((n_chunks, 3))
    known_key, known_mask = KEY_BASE, np.uint64(0)
    for c in board:
        known_key += card_key[c]
        known_mask += card_mask_table[c]
    w1_by_combo = np.zeros(combo_cards.shape[0])
    for j in range(idx1.size):
        w1_by_combo[idx1[j]] = w1[j]
    for chunk in prange(n_chunks):
        strength = np.full(combo_cards.shape[0], -1, dtype=np.int64)
        key0 = np.zeros(idx0.size, dtype=np.int64)
        key1 = np.zeros(idx1.size, dtype=np.int64)
        below, equal, live = np.zeros(52), np.zeros(52), np.zeros(52)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            _board_strengths(known_key, known_mask, completions[b], distinct, strength, combo_cards, combo_mask,
                             card_key, card_mask_table, rank_offsets, rank_values, flush_values)
            below[:] = 0.0
            equal[:] = 0.0
            live[:] = 0.0
            live_total, m0, m1 = 0.0, 0, 0
            for j in range(idx1.size):
                c = idx1[j]
                if strength[c] >= 0:
                    key1[m1] = (strength[c] << 11) | j
                    m1 += 1
                    live_total += w1[j]
                    live[combo_cards[c, 0]] += w1[j]
                    live[combo_cards[c, 1]] += w1[j]
            for i in range(idx0.size):
                if strength[idx0[i]] >= 0:
                    key0[m0] = (strength[idx0[i]] << 11) | i
                    m0 += 1
            _sort_prefix(key0, m0)
            _sort_prefix(key1, m1)
            below_total, equal_total, j_equal, j_below, win, tie, total = 0.0, 0.0, 0, 0, 0.0, 0.0, 0.0
            for k in range(m0):
                i, v = key0[k] & 2047, key0[k] >> 11
                c = idx0[i]
                a, b2 = combo_cards[c, 0], combo_cards[c, 1]
                while j_equal < m1 and key1[j_equal] >> 11 <= v:
                    x, w = idx1[key1[j_equal] & 2047], w1[key1[j_equal] & 2047]
                    j_equal += 1
                    equal_total += w
                    equal[combo_cards[x, 0]] += w
                    equal[combo_cards[x, 1]] += w
                while j_below < j_equal and key1[j_below] >> 11 < v:
                    x, w = idx1[key1[j_below] & 2047], w1[key1[j_below] & 2047]
                    j_below += 1
                    equal_total -= w
                    equal[combo_cards[x, 0]] -= w
                    equal[combo_cards[x, 1]] -= w
                    below_total += w
                    below[combo_cards[x, 0]] += w
                    below[combo_cards[x, 1]] += w
                shared, weight = w1_by_combo[c], w0[i]
                win += weight * (below_total - below[a] - below[b2])
                tie += weight * (equal_total - equal[a] - equal[b2] + shared)
                total += weight * (live_total - live[a] - live[b2] + shared)
            out[chunk, 0] += win
            out[chunk, 1] += tie
            out[chunk, 2] += total
    return out.sum(axis=0)


@njit(inline="always")
def _count_below(values, lo, hi, bound):
    """Number of entries of sorted ``values[lo:hi]`` below ``bound``."""
    a, b = lo, hi
    while a < b:
        mid = (a + b) >> 1
        if values[mid] < bound:
            a = mid + 1
        else:
            b = mid
    return a - lo


@njit(inline="always")
def _below_free(sorted_s, cum, m, card_start, card_s, card_cum, w_by_combo, strength, combo_of, cards, count, bound):
    """Weight of the last player's combos with strength below ``bound`` holding none of ``cards[:count]``:
    all below ``bound`` minus those on each card, plus those on two of the cards (subtracted twice)."""
    total = cum[_count_below(sorted_s, 0, m, bound)]
    for u in range(count):
        x = cards[u]
        r = _count_below(card_s, card_start[x], card_start[x + 1], bound)
        if r:
            total -= card_cum[card_start[x] + r - 1]
    for u in range(count):
        for v in range(u + 1, count):
            c = combo_of[cards[u], cards[v]]
            if w_by_combo[c] != 0.0 and strength[c] < bound:
                total += w_by_combo[c]
    return total


@njit(parallel=True, cache=True)
def _count_last(board, completions, chunk_starts, distinct, starts, idx, weight, combo_cards, combo_mask, combo_of,
                card_key, card_mask_table, rank_offsets, rank_values, flush_values):
    """Weighted (win (n,), ties (n, n-1), total) of n ≥ 3 packed ranges over ``completions`` (B, m).

    Players 0..n-2 are walked over every compatible assignment; the last player's combos (the largest
    range) are counted at once per assignment by strength below, equal to and above the best of the
    others, from its combos sorted by strength with cumulative weights in total and per card
    (:func:`_below_free`).
    """
    n = starts.size - 1
    n_chunks = chunk_starts.size - 1
    win = np.zeros((n_chunks, n))
    ties = np.zeros((n_chunks, n, n - 1))
    totals = np.zeros(n_chunks)
    known_key, known_mask = KEY_BASE, np.uint64(0)
    for c in board:
        known_key += card_key[c]
        known_mask += card_mask_table[c]
    first_last = starts[n - 1]
    size = starts[n] - first_last
    for chunk in prange(n_chunks):
        strength = np.full(combo_cards.shape[0], -1, dtype=np.int64)
        keys = np.zeros(size, dtype=np.int64)
        sorted_s = np.zeros(size, dtype=np.int64)
        cum = np.zeros(size + 1)
        card_start = np.zeros(53, dtype=np.int64)
        cursor = np.zeros(52, dtype=np.int64)
        card_s = np.zeros(2 * size, dtype=np.int64)
        card_cum = np.zeros(2 * size)
        w_by_combo = np.zeros(combo_cards.shape[0])
        pos = np.zeros(n, dtype=np.int64)
        used = np.zeros(n, dtype=np.uint64)
        product = np.ones(n)
        chosen = np.zeros(n, dtype=np.int64)
        cards = np.zeros(2 * n, dtype=np.int64)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            bits = _board_strengths(known_key, known_mask, completions[b], distinct, strength, combo_cards, combo_mask,
                                    card_key, card_mask_table, rank_offsets, rank_values, flush_values)
            # the last player's live combos by strength, cumulative weights in total and per card
            m = 0
            for j in range(size):
                c = idx[first_last + j]
                s = strength[c]
                w_by_combo[c] = weight[first_last + j] if s >= 0 else 0.0
                if s >= 0:
                    keys[m] = (s << 11) | j
                    m += 1
            _sort_prefix(keys, m)
            card_start[:] = 0
            for k in range(m):
                c = idx[first_last + (keys[k] & 2047)]
                card_start[combo_cards[c, 0] + 1] += 1
                card_start[combo_cards[c, 1] + 1] += 1
            for x in range(52):
                card_start[x + 1] += card_start[x]
                cursor[x] = card_start[x]
            for k in range(m):
                j, s = keys[k] & 2047, keys[k] >> 11
                c, w = idx[first_last + j], weight[first_last + j]
                sorted_s[k] = s
                cum[k + 1] = cum[k] + w
                for h in range(2):
                    x = combo_cards[c, h]
                    at = cursor[x]
                    cursor[x] += 1
                    card_s[at] = s
                    card_cum[at] = (card_cum[at - 1] if at > card_start[x] else 0.0) + w
            # every compatible assignment of players 0..n-2
            used[0] = bits
            product[0] = 1.0
            d = 0
            pos[0] = starts[0]
            while d >= 0:
                if pos[d] >= starts[d + 1]:
                    d -= 1
                    if d >= 0:
                        pos[d] += 1
                    continue
                i = pos[d]
                c = idx[i]
                if strength[c] < 0 or (combo_mask[c] & used[d]):
                    pos[d] += 1
                    continue
                chosen[d] = strength[c]
                cards[2 * d] = combo_cards[c, 0]
                cards[2 * d + 1] = combo_cards[c, 1]
                if d < n - 2:
                    used[d + 1] = used[d] | combo_mask[c]
                    product[d + 1] = product[d] * weight[i]
                    d += 1
                    pos[d] = starts[d]
                    continue
                pos[d] += 1
                p_weight = product[d] * weight[i]
                best, count, best_player = 0, 0, 0
                for p in range(n - 1):
                    if chosen[p] > best:
                        best, count, best_player = chosen[p], 1, p
                    elif chosen[p] == best:
                        count += 1
                dealt = 2 * (n - 1)
                below = _below_free(sorted_s, cum, m, card_start, card_s, card_cum, w_by_combo, strength, combo_of, cards, dealt, best)
                up_to = _below_free(sorted_s, cum, m, card_start, card_s, card_cum, w_by_combo, strength, combo_of, cards, dealt, best + 1)
                every = _below_free(sorted_s, cum, m, card_start, card_s, card_cum, w_by_combo, strength, combo_of, cards, dealt, 8192)
                if every == 0.0:
                    continue
                totals[chunk] += p_weight * every
                win[chunk, n - 1] += p_weight * (every - up_to)
                if count == 1:
                    win[chunk, best_player] += p_weight * below
                for p in range(n - 1):
                    if chosen[p] == best:
                        if count > 1:
                            ties[chunk, p, count - 2] += p_weight * below
                        ties[chunk, p, count - 1] += p_weight * (up_to - below)
                ties[chunk, n - 1, count - 1] += p_weight * (up_to - below)
    return win.sum(axis=0), ties.sum(axis=0), totals.sum()


@njit(cache=True)
def _completions(deck, count):
    """All ``count``-subsets of ``deck`` in lexicographic order, ``(C(len, count), count)`` int64."""
    m = deck.size
    total = 1
    for i in range(count):
        total = total * (m - i) // (i + 1)
    out = np.empty((total, count), dtype=np.int64)
    idx = np.arange(count)
    for row in range(total):
        for j in range(count):
            out[row, j] = deck[idx[j]]
        j = count - 1
        while j >= 0 and idx[j] == m - count + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for k in range(j + 1, count):
            idx[k] = idx[k - 1] + 1
    return out


def _packed(weights: list[np.ndarray]):
    """Concatenated live combos of all players: starts (n+1,), combo ids (T,), weights (T,)."""
    indices = [np.flatnonzero(w > 0) for w in weights]
    starts = np.concatenate(([0], np.cumsum([len(i) for i in indices]))).astype(np.int64)
    combo_weight = np.concatenate([w[i] for w, i in zip(weights, indices)])
    return starts, np.concatenate(indices).astype(np.int64), combo_weight


def enumeration_work(weights: list[np.ndarray], board, dead) -> float:
    """Enumeration cost estimate, as the browser's ``enumerationWork``: boards × (Σ sizes + 3 Σ sizes heads-up
    (one sweep per board), or 4n Π sizes / max size with 3+ players (the assignments of all but the largest
    range, each counted at once against it))."""
    sizes = [int(np.count_nonzero(w)) for w in weights]
    n, total = len(sizes), float(sum(sizes))
    leaves = 3 * total if n == 2 else float(np.prod(np.array(sizes, dtype=np.float64))) / max(sizes) * 4 * n
    return float(comb(52 - len(board) - len(dead), 5 - len(board))) * (total + leaves)


def _live_deck(board, dead) -> np.ndarray:
    gone = set(board) | set(dead)
    return np.array([c for c in range(52) if c not in gone], dtype=np.int64)


def _enumeration_counts(weights: list[np.ndarray], board: np.ndarray, completions: np.ndarray, chunk_starts: np.ndarray,
                        tables) -> tuple[np.ndarray, np.ndarray, float]:
    """Weighted (win (n,), ties (n, n-1), total) over the boards ``completions[chunk_starts[0]:chunk_starts[-1]]``:
    heads-up by :func:`_headsup_sweep`, 3+ players by :func:`_count_last` with the largest range dealt last."""
    n = len(weights)
    last = int(np.argmax([np.count_nonzero(w) for w in weights]))  # the first largest, as the browser
    order = [0, 1] if n == 2 else [p for p in range(n) if p != last] + [last]
    starts, idx, combo_weight = _packed([weights[p] for p in order])
    distinct = np.unique(idx)
    evaluator = (tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values)
    if n == 2:
        win0, tie, total = _headsup_sweep(
            board, completions, chunk_starts, distinct, idx[: starts[1]], combo_weight[: starts[1]], idx[starts[1] :],
            combo_weight[starts[1] :], ALL_COMBOS, COMBO_MASK, *evaluator,
        )
        return np.array([win0, total - win0 - tie]), np.array([[tie], [tie]]), total
    win, ties, total = _count_last(board, completions, chunk_starts, distinct, starts, idx, combo_weight, ALL_COMBOS,
                                   COMBO_MASK, COMBO_OF, *evaluator)
    back = np.argsort(order)  # to the players' order
    return win[back], ties[back], total


def enumerate_equity(weights: list[np.ndarray], board, dead, tables, progress: Callable[[int, int], None] | None = None,
                     chunks: int = 256) -> EquityResult:
    """Exact weighted equity over every board completion and compatible assignment.

    weights: per player ``(1326,)`` (already :func:`live_weights`); board/dead: card ids; tables: evaluator tables.
    """
    completions = _completions(_live_deck(board, dead), 5 - len(board))
    board_arr = np.asarray(board, dtype=np.int64)
    n = len(weights)
    win, ties, total = np.zeros(n), np.zeros((n, n - 1)), 0.0
    bounds = np.linspace(0, len(completions), min(chunks, len(completions)) + 1).astype(np.int64)
    # calls of about 2e7 units of work each (a fraction of a second), so progress and interruptions
    # come often while small spots take one parallel launch (each costs ~ms on a loaded machine)
    work = enumeration_work(weights, board, dead)
    calls = int(min(len(bounds) - 1, max(1, work // 2e7)))
    step = -(-(len(bounds) - 1) // calls)
    threads = numba.get_num_threads()
    # waking the other threads costs ~20 ms on a busy machine: small spots run on this one (~0.1 s at most)
    numba.set_num_threads(1 if work <= SERIAL_WORK else threads)
    try:
        for first in range(0, len(bounds) - 1, step):
            part = bounds[first : first + step + 1]
            w, t, s = _enumeration_counts(weights, board_arr, completions, part, tables)
            win, ties, total = win + w, ties + t, total + s
            if progress is not None:
                progress(int(part[-1]), len(completions))
    finally:
        numba.set_num_threads(threads)
    if total == 0:
        raise NoDealError("no deal gives every player a hand (the ranges block each other)")
    return EquityResult(
        equity=(win + (ties / np.arange(2, n + 1)).sum(axis=1)) / total, win=win / total, ties=ties / total,
        se_equity=None, exact=True, method="enumeration", boards=len(completions),
    )


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
    live_deck = _live_deck(board, dead).astype(np.uint8)
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


def class_against_random(weights: list[np.ndarray]) -> tuple[int, int] | None:
    """``(hero seat, class)`` when exactly one player holds one whole class (equal weights) and every other
    player holds every combo with equal weights (random), else None."""
    heroes = [p for p, w in enumerate(weights) if not (w[0] > 0 and np.all(w == w[0]))]
    if len(heroes) != 1:
        return None
    per_class = class_weights(weights[heroes[0]])
    classes = [] if per_class is None else np.flatnonzero(per_class > 0)
    return (heroes[0], int(classes[0])) if len(classes) == 1 else None


def multiway_table_equity(hero: int, hero_class: int, n: int, block: dict) -> EquityResult | None:
    """A class against n − 1 random hands preflop from ``multiway.json``'s table for n players (``block``:
    its ``by_players[n]``): the hero seat's published estimates and standard error; each random seat gets
    an equal share of the rest (its win and ties are not in the table: NaN). None while the table has no
    standard error for the class."""
    se = block["se_equity"][hero_class]
    if se is None:
        return None
    equity = block["equity"][hero_class]
    others = np.full(n, np.nan)
    win, ties = others.copy(), np.full((n, n - 1), np.nan)
    win[hero] = block["win"][hero_class]
    ties[hero] = block["tie_k"][hero_class][: n - 1]
    return EquityResult(
        equity=np.where(np.arange(n) == hero, equity, (1 - equity) / (n - 1)), win=win, ties=ties,
        se_equity=np.where(np.arange(n) == hero, se, se / (n - 1)), exact=False, method="table",
        samples=int(block["samples"][hero_class]),
    )


def range_equity(weights: list[np.ndarray], board=(), dead=(), tables=None, headsup=None, multiway=None,
                 exact_limit: float = EXACT_LIMIT, progress=None, **sampling) -> EquityResult:
    """Equity of ``len(weights)`` players (2..10), weights ``(1326,)`` each, on ``board`` (0, 3, 4 or 5 card ids)
    with ``dead`` card ids. ``tables``: evaluator tables; ``headsup``: the exact heads-up tables (or None);
    ``multiway``: ``{n: multiway.json's by_players[n]}`` for a class against n − 1 random hands (or None).

    Table lookup, then enumeration (work ≤ ``exact_limit``), then Monte Carlo (``sampling`` keywords).
    """
    if not 2 <= len(weights) <= MAX_PLAYERS:
        raise ValueError(f"2 to {MAX_PLAYERS} players, got {len(weights)}")
    if len(board) not in (0, 3, 4, 5):
        raise ValueError(f"a board has 0, 3, 4 or 5 cards, got {len(board)}")
    if len(set(board) | set(dead)) != len(board) + len(dead):
        raise ValueError("the board and dead cards repeat a card")
    if len(board) + len(dead) + 2 * len(weights) > 52 - (5 - len(board)):
        raise ValueError("not enough cards left to deal every player a hand and complete the board")
    live = live_weights(weights, board, dead)
    if headsup is not None and len(live) == 2 and not board and not dead:
        first, second = class_weights(live[0]), class_weights(live[1])
        if first is not None and second is not None and np.array_equal(live[0], weights[0]) and np.array_equal(live[1], weights[1]):
            return table_equity(first, second, headsup.win, headsup.tie, headsup.pairs, comb(48, 5))
    preflop = not board and not dead and all(np.array_equal(w, v) for w, v in zip(live, weights))
    against_random = class_against_random(live) if preflop and len(live) >= 3 else None
    if multiway is not None and against_random is not None and len(live) in multiway:
        result = multiway_table_equity(*against_random, len(live), multiway[len(live)])
        if result is not None:
            return result
    if enumeration_work(live, board, dead) <= exact_limit:
        return enumerate_equity(live, board, dead, tables, progress)
    return sample_equity(live, board, dead, tables, progress=progress, **sampling)
