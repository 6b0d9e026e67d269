"""Per-board logic of the exact heads-up tables (the CPU walk; :mod:`.gpu` lays the same walk out
for a GPU, one thread block per board, and is tested against it).

On one board, rank all 1,081 live two-card combos once, sort them by strength, and walk the
groups of equal strength from weakest to strongest. A combo ``a = {x, y}`` of class ``i`` beats
every strictly weaker live combo that shares no card with it, so for every class ``j``::

    wins(a, j) = below[j] - below_with_card[x, j] - below_with_card[y, j]

(``a`` itself is not yet counted; no weaker combo holds both ``x`` and ``y``). Ties are the
compatible pairs inside a strength group, counted pairwise. A scalar twin of the same walk
(``below_total``, ``below_total_with_card``) gives the vs-random counts independently of the
169-wide class vectors, so the tests can check one against the other.

:func:`compile_board_functions` takes the decorator, the compiled evaluator functions and the
accumulation primitives. :func:`compile_ranking` (rank and sort a board's live combos) is written
once for every target: the three-handed walk compiles it for the CPU and for CUDA.
"""

from types import SimpleNamespace

import numpy as np

from kernels.evaluator.core import KEY_BASE

N_CLASSES = 169
#: A sort key packs ``strength << COMBO_BITS | combo index``.
COMBO_BITS = np.int64(11)
COMBO_FIELD = np.int64((1 << 11) - 1)


def compile_ranking(jit, hand) -> SimpleNamespace:
    """Compile ``sorted_live_combos`` (and its ``shell_sort``) and ``group_end`` for one target: ranking a
    board's live combos and finding its runs of equal strength is shared by every walk over boards
    (heads-up, three-handed; CPU and CUDA). ``hand``: the compiled evaluator."""
    strength_of_key = hand.strength_of_key

    @jit
    def shell_sort(keys, count):
        """Sort ``keys[0:count]`` ascending in place (Ciura's gaps; no allocation, so CUDA can run it)."""
        for gap in (701, 301, 132, 57, 23, 10, 4, 1):
            for i in range(gap, count):
                value = keys[i]
                j = i
                while j >= gap and keys[j - gap] > value:
                    keys[j] = keys[j - gap]
                    j -= gap
                keys[j] = value

    @jit
    def sorted_live_combos(board, combos, keys, card_key, card_mask, rank_offsets, rank_values, flush_values):
        """Fill ``keys`` with ``strength << 11 | combo`` for every combo disjoint from ``board``, sorted.

        Returns the number of live combos (1,081 for a 5-card board).
        """
        board_key = card_key[board[0]] + card_key[board[1]] + card_key[board[2]] + card_key[board[3]]
        board_key += card_key[board[4]] + KEY_BASE
        board_mask = card_mask[board[0]] | card_mask[board[1]] | card_mask[board[2]]
        board_mask |= card_mask[board[3]] | card_mask[board[4]]
        dead = np.uint64(0)
        for k in range(5):
            dead |= np.uint64(1) << np.uint64(board[k])
        count = 0
        for combo in range(combos.shape[0]):
            first, second = combos[combo, 0], combos[combo, 1]
            if (dead >> np.uint64(first)) & np.uint64(1) or (dead >> np.uint64(second)) & np.uint64(1):
                continue
            strength = strength_of_key(
                board_key + card_key[first] + card_key[second],
                board_mask + card_mask[first] + card_mask[second],
                rank_offsets,
                rank_values,
                flush_values,
            )
            keys[count] = (np.int64(strength) << COMBO_BITS) | np.int64(combo)
            count += 1
        shell_sort(keys, count)
        return count

    @jit
    def group_end(keys, start, count):
        """End (exclusive) of the run of equal strength that starts at ``keys[start]`` in sorted ``keys[0:count]``."""
        strength = keys[start] >> COMBO_BITS
        end = start + 1
        while end < count and (keys[end] >> COMBO_BITS) == strength:
            end += 1
        return end

    return SimpleNamespace(shell_sort=shell_sort, sorted_live_combos=sorted_live_combos, group_end=group_end)


def compile_board_functions(jit, hand, add_to_matrix, add_to_vector, add_beaten_row) -> SimpleNamespace:
    """Compile the per-board functions for one target.

    hand: namespace of compiled evaluator functions (``kernels.evaluator.cpu`` or ``.gpu``).
    Accumulation primitives: ``add_to_matrix(matrix, i, j, value)``, ``add_to_vector(vector, i, value)``
    and ``add_beaten_row(win, hero, weight, below, below_with_card, x, y)``, which adds
    ``weight * (below[j] - below_with_card[x, j] - below_with_card[y, j])`` to ``win[hero, j]`` for
    every class ``j`` (the hot loop: a vector add on the CPU).
    """
    ranking = compile_ranking(jit, hand)
    shell_sort, sorted_live_combos, group_end = ranking.shell_sort, ranking.sorted_live_combos, ranking.group_end

    @jit
    def accumulate_board(
        board,
        weight,
        combos,
        combo_class,
        keys,
        below,
        below_with_card,
        below_total_with_card,
        win,
        tie,
        win_vs_random,
        tie_vs_random,
        card_key,
        card_mask,
        rank_offsets,
        rank_values,
        flush_values,
    ):
        """Add ``weight`` × this board's win and tie counts to the class-pair and vs-random tallies.

        Scratch (overwritten): keys (≥1081,) int64, below (169,), below_with_card (52, 169),
        below_total_with_card (52,) int64. Tallies: win, tie (169, 169); win_vs_random,
        tie_vs_random (169,) int64, indexed by hero class first.
        """
        count = sorted_live_combos(board, combos, keys, card_key, card_mask, rank_offsets, rank_values, flush_values)
        for j in range(N_CLASSES):
            below[j] = 0
        for card in range(52):
            below_total_with_card[card] = 0
            for j in range(N_CLASSES):
                below_with_card[card, j] = 0
        below_total = 0
        start = 0
        while start < count:
            end = group_end(keys, start, count)
            for t in range(start, end):
                combo = keys[t] & COMBO_FIELD
                x, y, hero = combos[combo, 0], combos[combo, 1], combo_class[combo]
                add_beaten_row(win, hero, weight, below, below_with_card, x, y)
                beaten_total = below_total - below_total_with_card[x] - below_total_with_card[y]
                if beaten_total:
                    add_to_vector(win_vs_random, hero, weight * beaten_total)
                for u in range(t + 1, end):
                    other = keys[u] & COMBO_FIELD
                    x2, y2 = combos[other, 0], combos[other, 1]
                    if x2 != x and x2 != y and y2 != x and y2 != y:
                        villain = combo_class[other]
                        add_to_matrix(tie, hero, villain, weight)
                        add_to_matrix(tie, villain, hero, weight)
                        add_to_vector(tie_vs_random, hero, weight)
                        add_to_vector(tie_vs_random, villain, weight)
            for t in range(start, end):
                combo = keys[t] & COMBO_FIELD
                x, y, hero = combos[combo, 0], combos[combo, 1], combo_class[combo]
                below[hero] += 1
                below_with_card[x, hero] += 1
                below_with_card[y, hero] += 1
                below_total += 1
                below_total_with_card[x] += 1
                below_total_with_card[y] += 1
            start = end

    return SimpleNamespace(shell_sort=shell_sort, sorted_live_combos=sorted_live_combos, accumulate_board=accumulate_board)
