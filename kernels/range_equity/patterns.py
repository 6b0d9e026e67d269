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
every deal that has it. The *suit pass* of suit s corrects the completions on which a player holds five cards of s.
A flush takes three of the final board's five cards, so it is one suit per completion at most, and only completions
with t ≥ 5 − (board cards of s) − (most hole cards of s in one hand) cards of s qualify. They are walked by the set T
of ranks they take in s and the multiset of the other ranks (Π C(a'_r, k_r) completions each, a'_r the cards of rank
r in other suits): each pattern adds its true outcome (a flush, from the suit's rank mask, beats any hand without
one) and takes away the rank pass's (skipped when the flush leaves the winners as they were). When a player already
holds five cards of a suit with the board, every completion is of that suit's kind: the deal is counted by that
suit's pass alone, with nothing taken away. A suit pass depends on the deal only through its rank signature and
each player's ranks in the suit, so it too runs once per such key.

Counts per pass are integers (numbers of completions); each distinct pass is counted once and weighted by the
deals that have it.
"""

from __future__ import annotations

import functools
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


@functools.cache
def _rank_multisets() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every multiset of 0..5 ranks with at most four of a rank, ordered by size: its distinct ranks ``(K, 5)`` and
    how many of each ``(K, 5)`` (zero-padded), and the first row of each size ``(7,)`` (K = 8,555; built on first
    use, ~15 ms)."""
    ranks, counts, starts = [], [], [0]
    for size in range(6):
        for multiset in itertools.combinations_with_replacement(range(13), size):
            groups = [(r, len(list(g))) for r, g in itertools.groupby(multiset)]
            if all(k <= 4 for _, k in groups):
                ranks.append([r for r, _ in groups] + [0] * (5 - len(groups)))
                counts.append([k for _, k in groups] + [0] * (5 - len(groups)))
        starts.append(len(ranks))
    return np.array(ranks, dtype=np.int64), np.array(counts, dtype=np.int64), np.array(starts, dtype=np.int64)


#: Rank multisets of each size 0..5 (with repetition, but not five of a rank): 1, 13, 91, 455, 1,820, 6,175.
MULTISETS = [comb(12 + size, size) - 13 * (size == 5) for size in range(6)]
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
    keep = [g for g, perm in enumerate(PERMUTATIONS.tolist())
            if all({c - c % 4 + perm[c % 4] for c in cards} == cards for cards in fixed)]
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
def _deal_summary(combos, combo_cards, board_suit_count, missing):
    """For the deals ``combos`` ``(D, n)``: their hole cards ``(D, 2n)``, whether a player holds five cards of a suit
    with the board ``(D,)``, a code of each one's rank signature ``(D,)`` (each player's two ranks; equal codes, equal
    signatures: a mixed-radix number over the rank pairs each player has, at most the number of deals), and the
    (deal, suit) pairs whose completions can give a player five cards of the suit: their deal ``(P,)`` and key
    ``(P, n + 2)`` (signature code, suit, each player's rank mask in the suit), on which the pair's suit pass
    depends alone: equal keys, equal counts."""
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
    keys = np.zeros((4 * deals, n + 2), dtype=np.int64)
    deal = np.zeros(4 * deals, dtype=np.int64)
    count = 0
    for i in range(deals):
        for s in range(4):
            most = 0
            for p in range(n):
                most = max(most, ((holes[i, 2 * p] & 3) == s) + ((holes[i, 2 * p + 1] & 3) == s))
                for h in range(2):
                    if (holes[i, 2 * p + h] & 3) == s:
                        keys[count, 2 + p] |= 1 << (holes[i, 2 * p + h] >> 2)
            if 5 - board_suit_count[s] - most <= missing:
                keys[count, 0], keys[count, 1], deal[count] = code[i], s, i
                count += 1
            else:
                keys[count, 2:] = 0
    return holes, made, code, deal[:count], keys[:count]


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
    """A spot's deals, one per orbit: hole cards ``holes`` ``(D, 2n)`` (two per player) and the orbit's ``weight``
    ``(D,)``; and the distinct passes that count them, each a deal (row of ``holes``) ``pass_deal`` ``(K,)``, a suit
    ``pass_suit`` ``(K,)`` (-1: the rank pass of the deal's rank signature, weighted by the signature's deals where no
    player holds five cards of a suit with the board; else that suit's pass, weighted by the deals that have it)
    and that weight ``pass_weight`` ``(K,)``."""

    holes: np.ndarray
    weight: np.ndarray
    pass_deal: np.ndarray
    pass_suit: np.ndarray
    pass_weight: np.ndarray


def canonical_deals(weights: list[np.ndarray], board, dead) -> Deals:
    """The compatible deals of ``weights`` (live, ``(1326,)`` each) grouped into orbits under :func:`suit_symmetries`,
    with the rank passes of their rank signatures and their distinct suit passes."""
    starts, idx, combo_weight = packed(weights)
    pos = _compatible_deals(starts, idx, card_mask(list(board) + list(dead)))
    combos, weight = idx[pos], np.prod(combo_weight[pos], axis=1)
    perms = suit_symmetries(board, dead)
    if len(perms) > 1 and len(combos):
        images = _smallest_images(combos, COMBO_IMAGES[perms])
        first, orbit = _group_rows(images)
        combos, weight = images[first], np.bincount(orbit, weights=weight, minlength=len(first))
    board_suit_count = np.bincount(np.asarray(board, dtype=np.int64) % 4, minlength=4)
    holes, made, code, deal, keys = _deal_summary(combos, ALL_COMBOS, board_suit_count, 5 - len(board))
    _, first, signature = np.unique(code, return_index=True, return_inverse=True)
    rank_weight = np.bincount(signature, weights=np.where(made, 0.0, weight), minlength=len(first))
    first, rank_weight = first[rank_weight > 0], rank_weight[rank_weight > 0]
    one, group = _group_rows(keys) if len(deal) else (deal, deal)
    suit_weight = np.bincount(group, weights=weight[deal], minlength=len(one))
    pass_suit = np.concatenate([np.full(len(first), -1), keys[one, 1]])
    return Deals(holes, weight, np.concatenate([first, deal[one]]), pass_suit, np.concatenate([rank_weight, suit_weight]))


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
        below, need, expected, passes = 0.0, 0.0, 0.0, 1.0  # need: deals with flush patterns; expected: their count
        for most in range(3):
            share = 1.0  # probability that every hand holds at most `most` cards of the suit
            for player in held:
                share *= sum(player[suit][0][: most + 1]) / sum(player[suit][0])
            patterns = sum(comb(free, t) * MULTISETS[missing - t] for t in range(max(0, 5 - on_board - most), missing + 1))
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
def _passes(holes, deal, suit, weight, lo, hi, n_chunks, missing, known, board_suit_ranks, board_key, rank_key,
            multiset_ranks, multiset_counts, multiset_start, multiset_key, subsets, subset_start, subset_key,
            binomial, rank_offsets, rank_values, flush_values):
    """Weighted (wins ``(n,)``, ties ``(n, n-1)``) of the passes ``lo..hi`` (module doc) of deals ``holes``
    ``(D, 2n)``: pass k counts deal ``deal[k]``'s completions by rank multiset without flushes (``suit[k]`` -1), or the
    flush patterns of suit ``suit[k]``, times ``weight[k]``; ``board_suit_ranks`` ``(4,)`` 13-bit masks."""
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
            free, n_free = 0, 0  # ranks whose card of suit s is in the deck; other: the cards of each rank in the others
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
            if s < 0:  # the rank pass: every completion, by the multiset of its ranks
                for row in range(multiset_start[missing], multiset_start[missing + 1]):
                    count = _completions_of(other, row, multiset_ranks, multiset_counts, binomial)
                    if count:
                        key = board_key + multiset_key[row]
                        for p in range(n):
                            plain[p] = _rank_strength(key + hole_key[p], rank_offsets, rank_values)
                        _credit(_winners(plain, n), n, count, count_win, count_ties)
            else:
                on_board, x = 0, board_suit_ranks[s]
                while x:
                    x &= x - 1
                    on_board += 1
                least = max(0, 5 - on_board - most)  # fewest cards of s a completion needs for a flush
                made = least == 0  # a player holds five cards of s already: no rank pass to take away
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


@functools.lru_cache(maxsize=4)
def _pattern_keys(rank_key: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Rank-key sums of each rank multiset ``(8555,)`` and of each rank set ``(8192,)``, for the evaluator's rank key
    of each rank."""
    keys = np.array(rank_key, dtype=np.uint64)
    multiset_ranks, multiset_counts, _ = _rank_multisets()
    multiset_key = (multiset_counts.astype(np.uint64) * keys[multiset_ranks]).sum(axis=1, dtype=np.uint64)
    by_mask = np.zeros(1 << 13, dtype=np.uint64)
    for r in range(13):
        by_mask[(np.arange(1 << 13) >> r) & 1 == 1] += keys[r]
    return multiset_key, by_mask[SUBSETS]


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
    multiset_key, subset_key = _pattern_keys(tuple(rank_key.tolist()))
    board_suit_ranks = np.zeros(4, dtype=np.int64)
    for c in board:
        board_suit_ranks[c % 4] |= 1 << (c // 4)
    board_key = np.uint64(sum(int(rank_key[c // 4]) for c in board))
    return PatternTables(card_mask(list(board) + list(dead)), board_key, multiset_key, subset_key, board_suit_ranks,
                         rank_key, tables.rank_offsets, tables.rank_values, tables.flush_values)


def pass_counts(deals: Deals, lo: int, hi: int, missing: int, t: PatternTables, chunks: int = 64):
    """Weighted (wins ``(n,)``, ties ``(n, n-1)``) of the passes ``lo..hi`` of ``deals``."""
    return _passes(deals.holes, deals.pass_deal, deals.pass_suit, deals.pass_weight, lo, hi, max(1, min(chunks, hi - lo)),
                   missing, t.known, t.board_suit_ranks, t.board_key, t.rank_key, *_rank_multisets(), t.multiset_key,
                   SUBSETS, SUBSET_START, t.subset_key, BINOMIAL, t.rank_offsets, t.rank_values, t.flush_values)
