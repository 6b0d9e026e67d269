"""Per-board and per-triple logic of the class-triple Monte Carlo, written once for the CPU and CUDA.

A *triple* is an unordered class triple ``i ≤ j ≤ k`` (169 classes, repeats allowed), indexed by the
combinatorial number system for multisets: ``C(k + 2, 3) + C(j + 1, 2) + i`` (:func:`triple_index`),
818,805 in all. Seats a, b, c hold classes i, j, k.

One *sample* pairs a board with a triple: the board is 5 uniform cards of the full deck, dealt from
the counter-based words of key ``child(shard_key(seed, shard), board)`` (:mod:`kernels.sampling.rng`,
:mod:`kernels.sampling.dealing`); every combo's strength on that board is evaluated once and shared by
all triples. Each triple then picks one combo of each of its classes uniformly (words of key
``child(mix64(board_key ^ PICK_SALT), triple)``, Lemire's exact bounded draw) and the sample is
*rejected* unless the board and the three combos are pairwise disjoint. Board and combos drawn
independently and uniformly, conditioned on being disjoint, are uniform over the card-compatible
deals of the triple: exactly the distribution of a 3-way all-in between those classes. Accepted
samples add one to the triple's count of the showdown's *weak ordering* (13 kinds: who wins, and
who is second among the rest, ties included; :data:`ORDERINGS`), which is what side pots need.

Counts are integers: batches and shards add up, and the result does not depend on how boards are
split into batches, threads or backends.
"""

from types import SimpleNamespace

import numpy as np

from kernels.cards import ALL_COMBOS, COMBO_CLASS, N_CARDS, N_CLASSES
from kernels.evaluator.core import KEY_BASE

#: Unordered class triples with repeats: C(171, 3).
N_TRIPLES = (N_CLASSES + 2) * (N_CLASSES + 1) * N_CLASSES // 6
BOARD_CARDS = 5
N_COMBOS = ALL_COMBOS.shape[0]
PICK_SALT = np.uint64(0x7468726565776179)  # "threeway"


def _orderings() -> tuple[np.ndarray, np.ndarray]:
    ranks = []
    for ra in range(3):
        for rb in range(3):
            for rc in range(3):
                triple = (ra, rb, rc)
                # rank = number of hands strictly stronger, so each rank must equal the count of smaller ranks
                if all(r == sum(o < r for o in triple) for r in triple):
                    ranks.append(triple)
    code = np.full(27, -1, dtype=np.int64)
    for index, (ra, rb, rc) in enumerate(ranks):
        code[ra * 9 + rb * 3 + rc] = index
    return np.array(ranks, dtype=np.int64), code


#: ``(13, 3)``: the weak orderings of three hands as ranks (number of hands strictly stronger), seats a, b, c.
#: ``ORDER_CODE[9·ra + 3·rb + rc]``: index of ranks (ra, rb, rc) in ORDERINGS (−1 where impossible).
ORDERINGS, ORDER_CODE = _orderings()
N_ORDERINGS = ORDERINGS.shape[0]


def triple_index(i, j, k):
    """Index of the sorted triple ``i ≤ j ≤ k`` (ints or integer arrays)."""
    i, j, k = (np.asarray(x, dtype=np.int64) for x in (i, j, k))
    return (k + 2) * (k + 1) * k // 6 + (j + 1) * j // 2 + i


def triple_classes() -> np.ndarray:
    """``(N_TRIPLES, 3)`` int64: the classes (i ≤ j ≤ k) of every triple, in index order."""
    k, j, i = np.meshgrid(np.arange(N_CLASSES), np.arange(N_CLASSES), np.arange(N_CLASSES), indexing="ij")
    keep = (i <= j) & (j <= k)
    triples = np.stack([i[keep], j[keep], k[keep]], axis=1)
    out = np.empty_like(triples)
    out[triple_index(triples[:, 0], triples[:, 1], triples[:, 2])] = triples
    return out


def combo_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(class_start (170,), class_combo (1326,), combo_mask (1326,) uint64)``: the combos of class
    ``x`` are ``class_combo[class_start[x]:class_start[x + 1]]`` (ids into ``kernels.cards.ALL_COMBOS``);
    ``combo_mask`` has the bits of each combo's two cards."""
    class_combo = np.argsort(COMBO_CLASS, kind="stable").astype(np.int64)
    class_start = np.concatenate([[0], np.cumsum(np.bincount(COMBO_CLASS, minlength=N_CLASSES))]).astype(np.int64)
    one = np.uint64(1)
    combo_mask = (one << ALL_COMBOS[:, 0].astype(np.uint64)) | (one << ALL_COMBOS[:, 1].astype(np.uint64))
    return class_start, class_combo, combo_mask


def compile_threeway(jit, strength_of_key, rng, dealing) -> SimpleNamespace:
    """Compile ``board_strengths`` and ``sample_triple`` for one target (``jit`` the decorator,
    ``strength_of_key`` that target's evaluator, ``rng``/``dealing`` the compiled namespaces of
    :mod:`kernels.sampling.rng` / :mod:`kernels.sampling.dealing`)."""
    child, mix64 = rng.child, rng.mix64
    deal_cards, position_below = dealing.deal_cards, dealing.position_below

    @jit
    def board_strengths(board_key, deck, base_deck, combos, strengths, card_key, card_mask, rank_offsets, rank_values,
                        flush_values):
        """Deal the board of ``board_key``; fill ``strengths`` (1326,) with each combo's strength on it
        (0 for combos that share a card with the board); return the board's card bit mask (uint64)."""
        deal_cards(deck, base_deck, N_CARDS, BOARD_CARDS, board_key)
        key = KEY_BASE
        mask = np.uint64(0)
        bits = np.uint64(0)
        for i in range(BOARD_CARDS):
            card = np.int64(deck[i])
            key += card_key[card]
            mask += card_mask[card]
            bits |= np.uint64(1) << np.uint64(card)
        for c in range(combos.shape[0]):
            first, second = combos[c, 0], combos[c, 1]
            if (bits >> np.uint64(first)) & np.uint64(1) or (bits >> np.uint64(second)) & np.uint64(1):
                strengths[c] = 0
            else:
                strengths[c] = strength_of_key(key + card_key[first] + card_key[second], mask + card_mask[first]
                                               + card_mask[second], rank_offsets, rank_values, flush_values)
        return bits

    @jit
    def pick(word32, hand_class, triple_key, redraws, class_start, class_combo):
        start = class_start[hand_class]
        offset, redraws = position_below(word32, np.uint64(class_start[hand_class + 1] - start), triple_key, redraws)
        return class_combo[start + offset], redraws

    @jit
    def sample_triple(triple, a_class, b_class, c_class, board_key, board_bits, strengths, class_start, class_combo,
                      combo_mask, order_code, counts, row):
        """Pick one combo per class for this board; if all are disjoint, add 1 to ``counts[row, ordering]``."""
        triple_key = child(mix64(board_key ^ PICK_SALT), np.uint64(triple))
        first = child(triple_key, np.uint64(0))
        second = child(triple_key, np.uint64(1))
        low = np.uint64(0xFFFFFFFF)
        a, redraws = pick(first & low, a_class, triple_key, 0, class_start, class_combo)
        b, redraws = pick(first >> np.uint64(32), b_class, triple_key, redraws, class_start, class_combo)
        c, redraws = pick(second & low, c_class, triple_key, redraws, class_start, class_combo)
        ma, mb, mc = combo_mask[a], combo_mask[b], combo_mask[c]
        if (ma & mb) | (ma & mc) | (mb & mc) | ((ma | mb | mc) & board_bits):
            return
        sa, sb, sc = strengths[a], strengths[b], strengths[c]
        ra = np.int64(sb > sa) + np.int64(sc > sa)
        rb = np.int64(sa > sb) + np.int64(sc > sb)
        rc = np.int64(sa > sc) + np.int64(sb > sc)
        counts[row, order_code[ra * 9 + rb * 3 + rc]] += 1

    return SimpleNamespace(board_strengths=board_strengths, sample_triple=sample_triple)
