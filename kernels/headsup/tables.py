"""Turning board-walk tallies into the exact heads-up tables (integer counts and equities)."""

from math import comb
from typing import NamedTuple

import numpy as np

from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, COMBO_CLASS, N_CLASSES

#: Boards that complete a heads-up matchup: 5 of the 48 unseen cards.
BOARDS_PER_MATCHUP = comb(48, 5)  # 1,712,304
#: Opponent combos a given hero combo can face: 2 of the 50 unseen cards.
OPPONENT_COMBOS = comb(50, 2)  # 1,225


class HeadsupTables(NamedTuple):
    """Exact heads-up counts; hero class first. Fractions are counts / total."""

    vs_random_win: np.ndarray  # (169,) int64, per hero combo, over every opponent combo and board
    vs_random_tie: np.ndarray  # (169,)
    vs_random_loss: np.ndarray  # (169,)
    vs_random_total: np.ndarray  # (169,) = 1225 * 1,712,304
    win: np.ndarray  # (169, 169) int64, summed over every compatible combo pair and board
    tie: np.ndarray  # (169, 169)
    loss: np.ndarray  # (169, 169)
    pairs: np.ndarray  # (169, 169) number of card-compatible combo pairs

    def vs_random_equity(self) -> np.ndarray:
        """(169,) equity = (win + tie / 2) / total against one random hand."""
        return (self.vs_random_win + self.vs_random_tie / 2) / self.vs_random_total

    def matchup_equity(self) -> np.ndarray:
        """(169, 169) equity of the row class against the column class (NaN never occurs: pairs ≥ 1)."""
        return (self.win + self.tie / 2) / (self.pairs * BOARDS_PER_MATCHUP)


def compatible_pairs() -> np.ndarray:
    """(169, 169) int64: combo pairs (a in class i, b in class j) that share no card."""
    holds = np.zeros((len(ALL_COMBOS), 52), dtype=np.int64)
    holds[np.arange(len(ALL_COMBOS)), ALL_COMBOS[:, 0]] = 1
    holds[np.arange(len(ALL_COMBOS)), ALL_COMBOS[:, 1]] = 1
    disjoint = (holds @ holds.T) == 0
    by_class = np.zeros((N_CLASSES, len(ALL_COMBOS)), dtype=np.int64)
    by_class[COMBO_CLASS, np.arange(len(ALL_COMBOS))] = 1
    return by_class @ disjoint.astype(np.int64) @ by_class.T


def assemble_tables(win, tie, win_vs_random, tie_vs_random) -> HeadsupTables:
    """Check the tallies of a full board walk for consistency and derive losses and totals.

    Raises AssertionError if a count does not add up (which would mean a bug, never bad input).
    """
    pairs = compatible_pairs()
    loss = pairs * BOARDS_PER_MATCHUP - win - tie
    if not (np.array_equal(loss, win.T) and np.array_equal(tie, tie.T)):
        raise AssertionError("class-vs-class tallies are not antisymmetric: loss(A, B) != win(B, A)")
    if np.any(win_vs_random % CLASS_COMBO_COUNT) or np.any(tie_vs_random % CLASS_COMBO_COUNT):
        raise AssertionError("vs-random tallies are not the same for every combo of a class")
    total = np.full(N_CLASSES, OPPONENT_COMBOS * BOARDS_PER_MATCHUP, dtype=np.int64)
    per_combo_win = win_vs_random // CLASS_COMBO_COUNT
    per_combo_tie = tie_vs_random // CLASS_COMBO_COUNT
    return HeadsupTables(
        vs_random_win=per_combo_win,
        vs_random_tie=per_combo_tie,
        vs_random_loss=total - per_combo_win - per_combo_tie,
        vs_random_total=total,
        win=win,
        tie=tie,
        loss=loss,
        pairs=pairs,
    )
