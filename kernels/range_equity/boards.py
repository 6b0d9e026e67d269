"""Exact enumeration board by board: every completion of the board, each combo evaluated once per board, then
heads-up one sweep in strength order, or with 3+ players every compatible assignment of all but the largest
range, that range counted at once (the browser's methods, templates/assets/js/engines/range-equity.js)."""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS
from kernels.evaluator import cpu as hand
from kernels.evaluator.core import KEY_BASE
from kernels.range_equity.deals import COMBO_MASK, COMBO_OF, packed


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


@njit(inline="always")
def _sweep(strength, idx0, idx1, w1, w1_by_combo, key0, key1, below, equal, live, combo_cards, won, tied, met):
    """One board's heads-up sweep in strength order instead of every pair: player 1's live combos (``strength`` ≥ 0;
    ids ``idx0``) sorted by strength into ``key0[:m0]`` (``key0[k] & 2047``: the combo's position in ``idx0``), and
    for each, at the same position ``k``, player 2's weight it beats (``won[k]``), ties (``tied[k]``) and meets
    (``met[k]``: the compatible combos). Returns ``m0``.

    Player 2's combos below / equal to the current strength are kept as running weight sums, in total and
    per card, so a combo's compatible opponents are the total minus those holding either of its cards (a
    combo in both ranges has equal strength and was subtracted twice: it is added back to ties and total).
    """
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
    below_total, equal_total, j_equal, j_below = 0.0, 0.0, 0, 0
    for k in range(m0):
        v = key0[k] >> 11
        c = idx0[key0[k] & 2047]
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
        shared = w1_by_combo[c]
        won[k] = below_total - below[a] - below[b2]
        tied[k] = equal_total - equal[a] - equal[b2] + shared
        met[k] = live_total - live[a] - live[b2] + shared
    return m0


@njit(inline="always")
def weighted_sweep_counts(w0, key0, won, tied, met, m0):
    """Player 1's ``(win, tie, total)`` on one board: each of its ``m0`` live combos' counts from :func:`_sweep`
    weighted by its own weight (``key0[k] & 2047`` is the combo), added in sweep order."""
    win, tie, total = 0.0, 0.0, 0.0
    for k in range(m0):
        weight = w0[key0[k] & 2047]
        win += weight * won[k]
        tie += weight * tied[k]
        total += weight * met[k]
    return win, tie, total


@njit(inline="always")
def sweep_scratch(n0, n1):
    """``(key0, key1, below, equal, live, won, tied, met)``: the scratch arrays :func:`_sweep` fills."""
    return (np.zeros(n0, dtype=np.int64), np.zeros(n1, dtype=np.int64), np.zeros(52), np.zeros(52), np.zeros(52),
            np.zeros(n0), np.zeros(n0), np.zeros(n0))


@njit(inline="always")
def weight_by_combo(idx, w, n_combos):
    """``(n_combos,)`` weights of the packed combos ``idx`` (weights ``w``), 0 elsewhere."""
    out = np.zeros(n_combos)
    for j in range(idx.size):
        out[idx[j]] = w[j]
    return out


@njit(parallel=True, cache=True)
def _headsup_sweep(board, completions, chunk_starts, distinct, idx0, w0, idx1, w1, combo_cards, combo_mask,
                   card_key, card_mask_table, rank_offsets, rank_values, flush_values, per_combo):
    """Player 1's wins, ties and total of two packed ranges (combo ids ``idx0``, ``idx1``, weights ``w0``, ``w1``) over
    ``completions`` (B, m), each board by one sweep in strength order (:func:`_sweep`): ``(3,)`` weighted by both
    ranges, or with ``per_combo`` ``(3, n0)``, player 2's weight that each combo of player 1 beats, ties and meets."""
    n_chunks = chunk_starts.size - 1
    out = np.zeros((n_chunks, 3, idx0.size if per_combo else 1))
    known_key, known_mask = KEY_BASE, np.uint64(0)
    for c in board:
        known_key += card_key[c]
        known_mask += card_mask_table[c]
    w1_by_combo = weight_by_combo(idx1, w1, combo_cards.shape[0])
    for chunk in prange(n_chunks):
        strength = np.full(combo_cards.shape[0], -1, dtype=np.int64)
        key0, key1, below, equal, live, won, tied, met = sweep_scratch(idx0.size, idx1.size)
        for b in range(chunk_starts[chunk], chunk_starts[chunk + 1]):
            _board_strengths(known_key, known_mask, completions[b], distinct, strength, combo_cards, combo_mask,
                             card_key, card_mask_table, rank_offsets, rank_values, flush_values)
            m0 = _sweep(strength, idx0, idx1, w1, w1_by_combo, key0, key1, below, equal, live, combo_cards, won, tied, met)
            if per_combo:
                for k in range(m0):
                    i = key0[k] & 2047
                    out[chunk, 0, i] += won[k]
                    out[chunk, 1, i] += tied[k]
                    out[chunk, 2, i] += met[k]
                continue
            win, tie, total = weighted_sweep_counts(w0, key0, won, tied, met, m0)
            out[chunk, 0, 0] += win
            out[chunk, 1, 0] += tie
            out[chunk, 2, 0] += total
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


def board_work(weights: list[np.ndarray], board, dead) -> float:
    """Cost estimate of the board-by-board enumeration (the browser's is the same): boards × (Σ sizes + 3 Σ sizes
    heads-up (one sweep per board), or 4n Π sizes / max size with 3+ players (the assignments of all but the
    largest range, each counted at once against it))."""
    sizes = [int(np.count_nonzero(w)) for w in weights]
    n, total = len(sizes), float(sum(sizes))
    leaves = 3 * total if n == 2 else float(np.prod(np.array(sizes, dtype=np.float64))) / max(sizes) * 4 * n
    return float(comb(52 - len(board) - len(dead), 5 - len(board))) * (total + leaves)



def board_counts(weights: list[np.ndarray], board: np.ndarray, completions: np.ndarray, chunk_starts: np.ndarray,
                 tables) -> tuple[np.ndarray, np.ndarray, float]:
    """Weighted (win (n,), ties (n, n-1), total) over the boards ``completions[chunk_starts[0]:chunk_starts[-1]]``:
    heads-up by :func:`_headsup_sweep`, 3+ players by :func:`_count_last` with the largest range dealt last."""
    n = len(weights)
    last = int(np.argmax([np.count_nonzero(w) for w in weights]))  # the first largest, as the browser
    order = [0, 1] if n == 2 else [p for p in range(n) if p != last] + [last]
    starts, idx, combo_weight = packed([weights[p] for p in order])
    distinct = np.unique(idx)
    evaluator = (tables.card_key, tables.card_mask, tables.rank_offsets, tables.rank_values, tables.flush_values)
    if n == 2:
        win0, tie, total = _headsup_sweep(
            board, completions, chunk_starts, distinct, idx[: starts[1]], combo_weight[: starts[1]], idx[starts[1] :],
            combo_weight[starts[1] :], ALL_COMBOS, COMBO_MASK, *evaluator, False,
        )[:, 0]
        return np.array([win0, total - win0 - tie]), np.array([[tie], [tie]]), total
    win, ties, total = _count_last(board, completions, chunk_starts, distinct, starts, idx, combo_weight, ALL_COMBOS,
                                   COMBO_MASK, COMBO_OF, *evaluator)
    back = np.argsort(order)  # to the players' order
    return win[back], ties[back], total

