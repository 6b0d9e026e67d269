"""Per-board logic of the exact three-handed counts: the CPU walk (:mod:`.gpu` lays the same counting
out for a GPU, one thread block per board and one thread per hero, and is tested against it).

On a board, every live combo is ranked once (the heads-up walk's ``sorted_live_combos``) and the
groups of equal strength are walked from weakest to strongest. For a hero combo ``a = {x, y}`` of
strength ``h``, let B and T be the live combos disjoint from ``a`` that are weaker than / as
strong as ``h``, and ``deg_B(c)``, ``deg_T(c)`` the number of them that hold card ``c``. Two
distinct combos share at most one card, so among the unordered pairs of disjoint opponent combos:

* both in B (hero wins):            ``(|B|² − Σ_c deg_B(c)² + |B|) / 2``
* one in B, one in T (2-way tie):    ``|B|·|T| − Σ_c deg_B(c)·deg_T(c)``
* both in T (3-way tie):            ``(|T|² − Σ_c deg_T(c)² + |T|) / 2``

and the rest of the C(45,2)·C(43,2)/2 = 446,985 pairs are losses. ``deg_B(c)`` is the running count
of weaker combos holding ``c`` less the combos ``{c, x}`` and ``{c, y}`` if they are weaker (they
share a card with the hero): an O(45) loop per hero, about 6.5·10⁹ steps for all 134,459 boards.

:func:`compile_board_functions` takes the decorator, the compiled ranking (``sorted_live_combos``,
``group_end``: :func:`kernels.headsup.core.compile_ranking`) of the
same target and ``add_to_vector`` (plain adds on the CPU).
"""

from types import SimpleNamespace

import numpy as np

from kernels.headsup.core import COMBO_BITS, COMBO_FIELD, N_CLASSES

#: Unordered pairs of disjoint opponent combos from the 45 cards left by a board and a hero combo.
OPPONENT_PAIRS = 990 * 903 // 2
#: Strength recorded for combos that are dead on the board or absent from the combo list.
NOT_LIVE = np.int64(1) << np.int64(62)


def compile_pair_counts(jit):
    """Compile ``pair_counts(beaten, tied, square_b, square_t, cross)`` → (pairs won, 2-way ties, 3-way ties):
    the three formulas of the module docstring from |B|, |T|, Σ deg_B², Σ deg_T² and Σ deg_B·deg_T."""

    @jit
    def pair_counts(beaten, tied, square_b, square_t, cross):
        return (beaten * beaten - square_b + beaten) // 2, beaten * tied - cross, (tied * tied - square_t + tied) // 2

    return pair_counts


def compile_board_functions(jit, ranking, add_to_vector) -> SimpleNamespace:
    """Compile ``accumulate_board`` for the CPU walk (``numba.njit``); :mod:`.gpu` lays the counting out
    for a GPU and shares :func:`compile_pair_counts`."""
    pair_counts = compile_pair_counts(jit)
    sorted_live_combos, group_end = ranking.sorted_live_combos, ranking.group_end

    @jit
    def accumulate_board(
        board, weight, combos, combo_class, combo_index, keys, strength_of, below_card, equal_card,
        win, tie2, tie3, card_key, card_mask, rank_offsets, rank_values, flush_values,
    ):
        """Add ``weight`` × this board's counts of opponent pairs won / 2-way tied / 3-way tied, per hero class.

        combo_index (52, 52): combo id of two cards, or ``len(combos)`` where no combo holds them.
        Scratch (overwritten): keys (≥ live combos,), strength_of (len(combos) + 1,), below_card (52,),
        equal_card (52,) int64. Tallies win, tie2, tie3 (169,) int64.
        """
        count = sorted_live_combos(board, combos, keys, card_key, card_mask, rank_offsets, rank_values, flush_values)
        on_board = np.uint64(0)
        for k in range(5):
            on_board |= np.uint64(1) << np.uint64(board[k])
        for combo in range(strength_of.shape[0]):
            strength_of[combo] = NOT_LIVE  # neither weaker nor as strong as any hero: in no B or T
        for t in range(count):
            strength_of[keys[t] & COMBO_FIELD] = keys[t] >> COMBO_BITS
        for card in range(52):
            below_card[card] = 0
        below_total = 0
        start = 0
        while start < count:
            strength = keys[start] >> COMBO_BITS
            end = group_end(keys, start, count)
            for card in range(52):
                equal_card[card] = 0
            for t in range(start, end):
                combo = keys[t] & COMBO_FIELD
                equal_card[combos[combo, 0]] += 1
                equal_card[combos[combo, 1]] += 1
            group = end - start
            for t in range(start, end):
                combo = keys[t] & COMBO_FIELD
                x, y = combos[combo, 0], combos[combo, 1]
                beaten = below_total - below_card[x] - below_card[y]  # no weaker combo holds both x and y
                tied = group - equal_card[x] - equal_card[y] + 1  # the hero holds both: counted twice
                square_b = 0
                square_t = 0
                cross = 0
                for card in range(52):
                    if card == x or card == y or (on_board >> np.uint64(card)) & np.uint64(1):
                        continue
                    with_x = strength_of[combo_index[card, x]]
                    with_y = strength_of[combo_index[card, y]]
                    degree_b = below_card[card] - (with_x < strength) - (with_y < strength)
                    degree_t = equal_card[card] - (with_x == strength) - (with_y == strength)
                    square_b += degree_b * degree_b
                    square_t += degree_t * degree_t
                    cross += degree_b * degree_t
                hero = combo_class[combo]
                wins, ties_of_two, ties_of_three = pair_counts(beaten, tied, square_b, square_t, cross)
                if wins:
                    add_to_vector(win, hero, weight * wins)
                if ties_of_two:
                    add_to_vector(tie2, hero, weight * ties_of_two)
                if ties_of_three:
                    add_to_vector(tie3, hero, weight * ties_of_three)
            for t in range(start, end):
                combo = keys[t] & COMBO_FIELD
                below_card[combos[combo, 0]] += 1
                below_card[combos[combo, 1]] += 1
            below_total += group
            start = end

    return SimpleNamespace(accumulate_board=accumulate_board)


def combo_index_table(combos: np.ndarray) -> np.ndarray:
    """``(52, 52)`` int64: the combo id of cards ``a, b`` (either order), ``len(combos)`` if there is none."""
    table = np.full((52, 52), len(combos), dtype=np.int64)
    for index, (a, b) in enumerate(np.asarray(combos).tolist()):
        table[a, b] = table[b, a] = index
    return table


__all__ = ["OPPONENT_PAIRS", "NOT_LIVE", "N_CLASSES", "compile_board_functions", "combo_index_table"]
