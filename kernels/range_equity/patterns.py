"""Exact enumeration deal by deal, up to suit symmetry, each deal's board completions counted by rank pattern.

**Deals up to suit symmetry.** A suit permutation that maps the board and the dead cards onto themselves maps the
completions of the board onto each other, so a deal of hole cards (one combo per player) and its image have the
same counts. The compatible deals fall into orbits under those permutations (24 of them preflop, 6 on a monotone
flop, 2 on a two-tone one, 1 on a rainbow one; dead cards can break them): each orbit is counted once, for its
lexicographically smallest deal, with the sum of its deals' weight products.

**Completions by rank pattern.** Without a flush a hand's strength depends on ranks alone. The *rank pass* counts
a deal's completions by the multiset of their ranks: with ``left[r]`` cards of rank r in the deck, Π C(left[r], k_r)
completions share the multiset (k_r of rank r), and one rank evaluation per player decides all of them. It depends
on the deal only through the players' ranks, so it runs once per *rank signature* (each player's two ranks) for
every deal that has it. The *flush pass* corrects the completions on which a player holds five cards of one suit s.
It takes three of the final board's five cards, so it is one suit per completion at most, and only completions with
t ≥ 5 − (board cards of s) − (most hole cards of s in one hand) cards of s qualify. They are walked by the set T of
ranks they take in s and the multiset of the other ranks (Π C(a'_r, k_r) completions each, a'_r the cards of rank r
in other suits): each pattern adds its true outcome (a flush, from the suit's rank mask, beats any hand without
one) and takes away the rank pass's. When a player already holds five cards of a suit with the board, every
completion is of that suit's kind: the deal is counted by the flush pass alone, with nothing taken away.

Counts per deal are integers (numbers of completions); weights multiply them once per deal or signature.
"""

from __future__ import annotations

import itertools
from math import comb, inf
from typing import NamedTuple

import numpy as np
from numba import njit, prange

from kernels.cards import ALL_COMBOS
from kernels.constants import (
    RANGE_EQUITY_DEALS_LIMIT, RANGE_EQUITY_PATTERN_DEAL, RANGE_EQUITY_PATTERN_PASS, RANGE_EQUITY_PATTERN_SETUP,
)
from kernels.evaluator.core import RANK_KEY_MASK, ROW_MASK, SHIFT_ROW
from kernels.range_equity.deals import COMBO_MASK, COMBO_OF, card_mask, packed

#: Compatible deals above which this method is not used, and the work units (:func:`pattern_work`) of setting up a
#: spot, of listing a deal and of setting up a suit pass: spec/constants.json.
DEALS_LIMIT, SETUP_COST = RANGE_EQUITY_DEALS_LIMIT, RANGE_EQUITY_PATTERN_SETUP
DEAL_COST, PASS_COST = RANGE_EQUITY_PATTERN_DEAL, RANGE_EQUITY_PATTERN_PASS


def _rank_multisets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of 0..5 ranks with at most four of a rank, ordered by size: its distinct ranks ``(K, 5)`` and
    how many of each ``(K, 5)`` (zero-padded), and the first row of each size ``(7,)`` (K = 8,555)."""
    ranks, counts, starts = [], [], [0]
    for size in range(6):
        for multiset in itertools.combinations_with_replacement(range(13), size):
            distinct = sorted(set(multiset))
            times = [multiset.count(r) for r in distinct]
            if max(times, default=0) <= 4:
                ranks.append(distinct + [0] * (5 - len(distinct)))
                counts.append(times + [0] * (5 - len(times)))
        starts.append(len(ranks))
    return np.array(ranks, dtype=np.int64), np.array(counts, dtype=np.int64), np.array(starts, dtype=np.int64)


MULTISET_RANKS, MULTISET_COUNTS, MULTISET_START = _rank_multisets()
#: Rank multisets of each size 0..5: 1, 13, 91, 455, 1,820, 6,175.
MULTISETS = np.diff(MULTISET_START)
#: The 8,192 sets of ranks as 13-bit masks, by size then value; those of size t start at ``SUBSET_START[t]``.
SUBSETS = np.array(sorted(range(1 << 13), key=lambda mask: (mask.bit_count(), mask)), dtype=np.int64)
SUBSET_START = np.searchsorted([mask.bit_count() for mask in SUBSETS.tolist()], np.arange(15)).astype(np.int64)
#: ``BINOMIAL[a, k]`` = C(a, k) for a, k ≤ 4.
BINOMIAL = np.array([[comb(a, k) for k in range(5)] for a in range(5)], dtype=np.int64)
#: The 24 suit permutations, identity first; ``PERMUTATIONS[g, s]`` is the image of suit s.
PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)


#: ``COMBO_IMAGES[g, c]``: the combo that suit permutation g maps combo c to, ``(24, 1326)``.
COMBO_IMAGES = COMBO_OF[4 * (ALL_COMBOS // 4)[None, :, 0] + PERMUTATIONS[:, ALL_COMBOS[:, 0] % 4],
                        4 * (ALL_COMBOS // 4)[None, :, 1] + PERMUTATIONS[:, ALL_COMBOS[:, 1] % 4]]


def suit_symmetries(board, dead) -> np.ndarray:
    """Rows of ``PERMUTATIONS`` ``(g,)`` (0, the identity, first) that map the board onto itself and the dead cards
    onto themselves."""
    fixed = [set(board), set(dead)]
    keep = [g for g, perm in enumerate(PERMUTATIONS.tolist()) if all({c - c % 4 + perm[c % 4] for c in cards} == cards for cards in fixed)]
    return np.array(keep, dtype=np.int64)


def _compatible_deals(starts: np.ndarray, idx: np.ndarray, known: np.uint64) -> np.ndarray:
    """Every deal of one combo per player (player p's combos ``idx[starts[p]:starts[p + 1]]``) in which no two
    combos, nor a combo and the ``known`` card bits, share a card: ``(A, n)`` positions in ``idx``, in
    lexicographic order (built player by player: at most Π sizes ≤ ``DEALS_LIMIT`` pairs are tested)."""
    pos, used = np.zeros((1, 0), dtype=np.int64), np.array([known], dtype=np.uint64)
    for p in range(starts.size - 1):
        mine = np.arange(starts[p], starts[p + 1])
        row, col = np.nonzero((used[:, None] & COMBO_MASK[idx[mine]][None, :]) == 0)
        pos, used = np.hstack([pos[row], mine[col, None]]), used[row] | COMBO_MASK[idx[mine[col]]]
    return pos


@njit(cache=True)
def _smallest_images(combos, images):
    """Each deal of ``combos`` ``(A, n)`` replaced by its lexicographically smallest image under the suit
    permutations ``images`` ``(g, 1326)``: the same row for every deal of an orbit."""
    out = combos.copy()
    n = combos.shape[1]
    for i in range(combos.shape[0]):
        for g in range(1, images.shape[0]):
            for p in range(n):
                x = images[g, combos[i, p]]
                if x != out[i, p]:
                    if x < out[i, p]:
                        for q in range(n):
                            out[i, q] = images[g, combos[i, q]]
                    break
    return out


@njit(cache=True)
def _deal_summary(combos, combo_cards, board_suit_count):
    """Hole cards ``(D, 2n)`` of the deals ``combos`` ``(D, n)``, whether a player holds five cards of a suit with the
    board ``(D,)``, and a code of each deal's rank signature ``(D,)`` (each player's two ranks; equal codes, equal
    signatures: a mixed-radix number over the rank pairs each player has, at most the number of deals)."""
    deals, n = combos.shape
    holes = np.zeros((deals, 2 * n), dtype=np.int64)
    made = np.zeros(deals, dtype=np.bool_)
    pair = np.zeros((deals, n), dtype=np.int64)
    for i in range(deals):
        for p in range(n):
            a, b = combo_cards[combos[i, p], 0], combo_cards[combos[i, p], 1]
            holes[i, 2 * p], holes[i, 2 * p + 1] = a, b
            pair[i, p] = 13 * (b >> 2) + (a >> 2)
            for s in range(4):
                made[i] |= board_suit_count[s] + ((a & 3) == s) + ((b & 3) == s) >= 5
    code = np.zeros(deals, dtype=np.int64)
    radix = np.int64(1)
    dense = np.zeros(169, dtype=np.int64)
    for p in range(n):
        dense[:] = -1
        for i in range(deals):
            dense[pair[i, p]] = 0
        distinct = 0
        for x in range(169):
            if dense[x] == 0:
                dense[x] = distinct
                distinct += 1
        for i in range(deals):
            code[i] += radix * dense[pair[i, p]]
        radix *= distinct
    return holes, made, code


def _group_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equal rows of ``rows`` ``(A, n)`` grouped: the index of one row per group ``(G,)`` and each row's group ``(A,)``."""
    order = np.lexsort(rows.T[::-1])
    ordered = rows[order]
    new = np.ones(len(rows), dtype=np.bool_)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1)
    group = np.empty(len(rows), dtype=np.int64)
    group[order] = np.cumsum(new) - 1
    return order[new], group


class Deals(NamedTuple):
    """One deal per orbit: hole cards ``holes`` ``(D, 2n)`` (two per player), the orbit's ``weight`` ``(D,)``,
    ``made`` ``(D,)`` (a player holds five cards of a suit with the board), the row of its rank signature
    ``signature`` ``(D,)``, and one deal's hole cards per signature ``signatures`` ``(S, 2n)``."""

    holes: np.ndarray
    weight: np.ndarray
    made: np.ndarray
    signature: np.ndarray
    signatures: np.ndarray


def canonical_deals(weights: list[np.ndarray], board, dead) -> Deals:
    """The compatible deals of ``weights`` (live, ``(1326,)`` each) grouped into orbits under :func:`suit_symmetries`."""
    starts, idx, combo_weight = packed(weights)
    pos = _compatible_deals(starts, idx, card_mask(list(board) + list(dead)))
    combos, weight = idx[pos], np.prod(combo_weight[pos], axis=1)
    perms = suit_symmetries(board, dead)
    if len(perms) > 1 and len(combos):
        images = _smallest_images(combos, COMBO_IMAGES[perms])
        first, orbit = _group_rows(images)
        combos, weight = images[first], np.bincount(orbit, weights=weight, minlength=len(first))
    board_suit_count = np.bincount(np.asarray(board, dtype=np.int64) % 4, minlength=4)
    holes, made, code = _deal_summary(combos, ALL_COMBOS, board_suit_count)
    _, first, signature = np.unique(code, return_index=True, return_inverse=True)
    return Deals(holes, weight, made, signature, holes[first])


def pattern_work(weights: list[np.ndarray], board, dead) -> float:
    """Cost estimate of this method in the board method's units (the browser's ``patternWork`` is the same):
    ``SETUP_COST``, ``DEAL_COST`` per compatible deal listed (Π live sizes), n per rank pattern of each rank signature
    (Π distinct rank pairs per range), and per suit the distinct suit passes (at most the orbits that need one,
    deals / symmetries × the share of deals drawn uniformly from the ranges that do, and at most Π over players of
    their distinct (rank pair, ranks in the suit)), each ``PASS_COST`` and n per flush pattern it needs (expected
    over those deals); inf above ``DEALS_LIMIT``."""
    n, missing = len(weights), 5 - len(board)
    deals, signatures = 1.0, 1.0
    held = []  # per player and suit: (live combos holding 0, 1, 2 cards of it, distinct (rank pair, ranks in it))
    for w in weights:
        live = ALL_COMBOS[np.flatnonzero(w)]
        pair = (live // 4) @ [13, 1]
        deals *= len(live)
        signatures *= int(np.count_nonzero(np.bincount(pair, minlength=169)))
        in_suit = [live % 4 == suit for suit in range(4)]
        held.append([(np.bincount(mask.sum(axis=1), minlength=3).tolist(),
                      int(np.count_nonzero(np.bincount(4 * pair + mask @ [1, 2], minlength=676))))
                     for mask in in_suit])
    if deals > DEALS_LIMIT:
        return inf
    orbits = max(deals / len(suit_symmetries(board, dead)), signatures)
    flush = 0.0
    for suit in range(4):
        on_board = sum(1 for c in board if c % 4 == suit)
        free = 13 - on_board - sum(1 for c in dead if c % 4 == suit)
        below, need, expected, passes = 0.0, 0.0, 0.0, 1.0  # need: share of deals with flush patterns; expected: their count
        for most in range(3):
            share = 1.0  # probability that every hand holds at most `most` cards of the suit
            for player in held:
                share *= sum(player[suit][0][: most + 1]) / sum(player[suit][0])
            patterns = sum(comb(free, t) * int(MULTISETS[missing - t]) for t in range(max(0, 5 - on_board - most), missing + 1))
            need += share - below if patterns else 0.0
            expected += (share - below) * patterns
            below = share
        for player in held:
            passes *= player[suit][1]
        if need > 0:
            flush += min(orbits * need, passes) * (PASS_COST + n * expected / need)
    return SETUP_COST + deals * DEAL_COST + n * signatures * float(MULTISETS[missing]) + flush


@njit(inline="always")
def _rank_strength(rank_key, rank_offsets, rank_values):
    """Strength of a hand without a flush from its rank-key sum (the evaluator's non-flush lookup)."""
    return np.int64(rank_values[np.uint64(rank_offsets[rank_key >> SHIFT_ROW]) + (rank_key & ROW_MASK)])


@njit(inline="always")
def _winners(strength, n):
    """Bit mask of the players with the best of ``strength`` ``(n,)``."""
    best, mask = np.int64(-1), 0
    for p in range(n):
        if strength[p] > best:
            best, mask = strength[p], 1 << p
        elif strength[p] == best:
            mask |= 1 << p
    return mask


@njit(inline="always")
def _credit(mask, n, count, win, ties):
    """Add ``count`` to ``win[p]`` of a sole winner p, or to ``ties[p, k - 2]`` of each of the k players in ``mask``."""
    k, x = 0, mask
    while x:
        x &= x - 1
        k += 1
    for p in range(n):
        if (mask >> p) & 1:
            if k == 1:
                win[p] += count
            else:
                ties[p, k - 2] += count


@njit(inline="always")
def _completions_of(left, row, multiset_ranks, multiset_counts, binomial):
    """Number of ways to draw the rank multiset ``row`` when ``left[r]`` cards of rank r can be drawn."""
    count = np.int64(1)
    for e in range(5):
        k = multiset_counts[row, e]
        if k == 0:
            break
        count *= binomial[left[multiset_ranks[row, e]], k]
    return count


@njit(parallel=True, cache=True)
def _rank_pass(signatures, missing, known, board_key, rank_key, multiset_ranks, multiset_counts, multiset_start,
               multiset_key, binomial, rank_offsets, rank_values):
    """Integer (wins ``(S, n)``, ties ``(S, n, n-1)``) of one deal per rank signature ``signatures`` ``(S, 2n)`` over
    the completions of ``missing`` cards by rank multiset, every hand evaluated without flushes."""
    n = signatures.shape[1] // 2
    win = np.zeros((signatures.shape[0], n), dtype=np.int64)
    ties = np.zeros((signatures.shape[0], n, n - 1), dtype=np.int64)
    deck = np.zeros(13, dtype=np.int64)
    for c in range(52):
        if not (known >> np.uint64(c)) & np.uint64(1):
            deck[c >> 2] += 1
    for i in prange(signatures.shape[0]):
        left = deck.copy()
        hole_key = np.zeros(n, dtype=np.uint64)
        strength = np.zeros(n, dtype=np.int64)
        for p in range(n):
            for h in range(2):
                r = signatures[i, 2 * p + h] >> 2
                left[r] -= 1
                hole_key[p] += rank_key[r]
        win_i, ties_i = win[i], ties[i]
        for row in range(multiset_start[missing], multiset_start[missing + 1]):
            count = _completions_of(left, row, multiset_ranks, multiset_counts, binomial)
            if count:
                key = board_key + multiset_key[row]
                for p in range(n):
                    strength[p] = _rank_strength(key + hole_key[p], rank_offsets, rank_values)
                _credit(_winners(strength, n), n, count, win_i, ties_i)
    return win, ties


@njit(cache=True)
def _suit_pass_keys(holes, signature, board_suit_count, missing):
    """The (deal, suit) pairs whose completions can give a player five cards of the suit: their deal ``(P,)``, suit
    ``(P,)`` and key ``(P, n + 2)`` (rank signature, suit, each player's rank mask in the suit), on which the flush
    pass of the pair depends alone: equal keys, equal counts."""
    deals, n = holes.shape[0], holes.shape[1] // 2
    keys = np.zeros((4 * deals, n + 2), dtype=np.int64)
    deal = np.zeros(4 * deals, dtype=np.int64)
    count = 0
    for i in range(deals):
        for s in range(4):
            most = 0
            for p in range(n):
                in_suit = ((holes[i, 2 * p] & 3) == s) + ((holes[i, 2 * p + 1] & 3) == s)
                most = max(most, in_suit)
                for h in range(2):
                    if (holes[i, 2 * p + h] & 3) == s:
                        keys[count, 2 + p] |= 1 << (holes[i, 2 * p + h] >> 2)
            if 5 - board_suit_count[s] - most <= missing:
                keys[count, 0], keys[count, 1], deal[count] = signature[i], s, i
                count += 1
            else:
                keys[count, 2:] = 0
    return deal[:count], keys[:count]


@njit(parallel=True, cache=True)
def _suit_passes(holes, deal, suit, weight, lo, hi, n_chunks, missing, known, board_suit_ranks, board_key, rank_key,
                 multiset_ranks, multiset_counts, multiset_start, multiset_key, subsets, subset_start, subset_key,
                 binomial, rank_offsets, rank_values, flush_values):
    """Weighted (wins ``(n,)``, ties ``(n, n-1)``) of the suit passes ``lo..hi`` (module doc): the flush patterns of
    suit ``suit[k]`` for deal ``deal[k]`` of ``holes`` ``(D, 2n)``, times ``weight[k]``; ``board_suit_ranks`` ``(4,)``
    13-bit masks."""
    n = holes.shape[1] // 2
    win = np.zeros((n_chunks, n))
    ties = np.zeros((n_chunks, n, n - 1))
    per_chunk = (hi - lo + n_chunks - 1) // n_chunks
    for chunk in prange(n_chunks):
        count_win = np.zeros(n, dtype=np.int64)
        count_ties = np.zeros((n, n - 1), dtype=np.int64)
        hole_key = np.zeros(n, dtype=np.uint64)
        hole_ranks = np.zeros(n, dtype=np.int64)  # rank mask of each player's hole cards in the suit
        in_suit = np.zeros(n, dtype=np.int64)
        other = np.zeros(13, dtype=np.int64)
        plain = np.zeros(n, dtype=np.int64)
        flush = np.zeros(n, dtype=np.int64)
        flushed = np.zeros(n, dtype=np.int64)
        for k in range(lo + chunk * per_chunk, min(hi, lo + (chunk + 1) * per_chunk)):
            i, s = deal[k], suit[k]
            used = known
            hole_key[:] = 0
            hole_ranks[:] = 0
            in_suit[:] = 0
            most = 0
            for p in range(n):
                for h in range(2):
                    c = holes[i, 2 * p + h]
                    used |= np.uint64(1) << np.uint64(c)
                    hole_key[p] += rank_key[c >> 2]
                    if (c & 3) == s:
                        hole_ranks[p] |= 1 << (c >> 2)
                        in_suit[p] += 1
                most = max(most, in_suit[p])
            on_board, x = 0, board_suit_ranks[s]
            while x:
                x &= x - 1
                on_board += 1
            least = max(0, 5 - on_board - most)  # fewest cards of s a completion needs for a flush
            made = least == 0  # a player holds five cards of s already: no rank pass to take away
            free, n_free = 0, 0  # ranks whose card of suit s is in the deck
            for r in range(13):
                other[r] = 0
                for q in range(4):
                    if not (used >> np.uint64(4 * r + q)) & np.uint64(1):
                        if q == s:
                            free |= 1 << r
                            n_free += 1
                        else:
                            other[r] += 1
            count_win[:] = 0
            count_ties[:] = 0
            for t in range(least, min(missing, n_free) + 1):
                rest = missing - t
                for u in range(subset_start[t], subset_start[t + 1]):
                    taken = subsets[u]
                    if taken & ~free:
                        continue
                    for p in range(n):  # a flush (5+ cards of s) is the hand, whatever the other ranks
                        flush[p] = -1
                        if in_suit[p] + on_board + t >= 5:
                            flush[p] = flush_values[board_suit_ranks[s] | hole_ranks[p] | taken]
                    for row in range(multiset_start[rest], multiset_start[rest + 1]):
                        count = _completions_of(other, row, multiset_ranks, multiset_counts, binomial)
                        if count == 0:
                            continue
                        key = board_key + subset_key[u] + multiset_key[row]
                        for p in range(n):
                            plain[p] = _rank_strength(key + hole_key[p], rank_offsets, rank_values)
                            flushed[p] = max(plain[p], flush[p])
                        gained, lost = _winners(flushed, n), 0 if made else _winners(plain, n)  # lost: the rank pass's
                        if gained != lost:
                            _credit(gained, n, count, count_win, count_ties)
                            if lost:
                                _credit(lost, n, -count, count_win, count_ties)
            for p in range(n):
                win[chunk, p] += weight[k] * count_win[p]
                for j in range(n - 1):
                    ties[chunk, p, j] += weight[k] * count_ties[p, j]
    return win.sum(axis=0), ties.sum(axis=0)


@njit(cache=True)
def _pattern_keys(rank_key, multiset_ranks, multiset_counts, subsets):
    """Rank-key sums of each rank multiset ``(8555,)`` and of each rank set ``(8192,)``."""
    multiset_key = np.zeros(multiset_ranks.shape[0], dtype=np.uint64)
    for row in range(multiset_ranks.shape[0]):
        for e in range(5):
            multiset_key[row] += np.uint64(multiset_counts[row, e]) * rank_key[multiset_ranks[row, e]]
    subset_key = np.zeros(subsets.size, dtype=np.uint64)
    for u in range(subsets.size):
        for r in range(13):
            if (subsets[u] >> r) & 1:
                subset_key[u] += rank_key[r]
    return multiset_key, subset_key


class PatternTables(NamedTuple):
    """What the passes read besides the deals: card bits of the board and dead cards, rank-key sums of the board, of
    each rank multiset ``(8555,)`` and of each rank set ``(8192,)``, the board's rank mask per suit ``(4,)``, and the
    evaluator's rank key per rank and lookup tables."""

    known: np.uint64
    board_key: np.uint64
    multiset_key: np.ndarray
    subset_key: np.ndarray
    board_suit_ranks: np.ndarray
    rank_key: np.ndarray
    rank_offsets: np.ndarray
    rank_values: np.ndarray
    flush_values: np.ndarray


def pattern_tables(board, dead, tables) -> PatternTables:
    """The :class:`PatternTables` of a board and dead cards (card ids) for the evaluator ``tables``."""
    rank_key = tables.card_key[4 * np.arange(13)] & RANK_KEY_MASK
    multiset_key, subset_key = _pattern_keys(rank_key, MULTISET_RANKS, MULTISET_COUNTS, SUBSETS)
    board_suit_ranks = np.zeros(4, dtype=np.int64)
    for c in board:
        board_suit_ranks[c % 4] |= 1 << (c // 4)
    board_key = np.uint64(sum(int(rank_key[c // 4]) for c in board))
    return PatternTables(card_mask(list(board) + list(dead)), board_key, multiset_key, subset_key, board_suit_ranks,
                         rank_key, tables.rank_offsets, tables.rank_values, tables.flush_values)


def rank_counts(deals: Deals, missing: int, t: PatternTables) -> tuple[np.ndarray, np.ndarray]:
    """Integer (wins ``(S, n)``, ties ``(S, n, n-1)``) of each rank signature's rank pass over ``missing`` cards."""
    return _rank_pass(deals.signatures, missing, t.known, t.board_key, t.rank_key, MULTISET_RANKS, MULTISET_COUNTS,
                      MULTISET_START, t.multiset_key, BINOMIAL, t.rank_offsets, t.rank_values)


class SuitPasses(NamedTuple):
    """The distinct flush passes of a spot's deals: for each, a deal (row of ``Deals.holes``) and suit that have it,
    and the total weight of the deals that have it ``(K,)``."""

    deal: np.ndarray
    suit: np.ndarray
    weight: np.ndarray


def suit_passes(deals: Deals, board, missing: int) -> SuitPasses:
    """The distinct (rank signature, suit, each player's ranks in the suit) of the (deal, suit) pairs that need a flush
    pass, with one pair each and the weight of the deals that have it."""
    board_suit_count = np.bincount(np.asarray(board, dtype=np.int64) % 4, minlength=4)
    deal, keys = _suit_pass_keys(deals.holes, deals.signature, board_suit_count, missing)
    if not len(deal):
        return SuitPasses(deal, deal, np.zeros(0))
    first, group = _group_rows(keys)
    return SuitPasses(deal[first], keys[first, 1], np.bincount(group, weights=deals.weight[deal], minlength=len(first)))


def flush_counts(deals: Deals, passes: SuitPasses, lo: int, hi: int, missing: int, t: PatternTables, chunks: int = 64):
    """Weighted (wins ``(n,)``, ties ``(n, n-1)``) of the suit passes ``lo..hi``."""
    return _suit_passes(deals.holes, passes.deal, passes.suit, passes.weight, lo, hi, max(1, min(chunks, hi - lo)),
                        missing, t.known, t.board_suit_ranks, t.board_key, t.rank_key, MULTISET_RANKS, MULTISET_COUNTS,
                        MULTISET_START, t.multiset_key, SUBSETS, SUBSET_START, t.subset_key, BINOMIAL, t.rank_offsets,
                        t.rank_values, t.flush_values)
