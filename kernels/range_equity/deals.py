"""The deal of a range-equity spot: combos as card masks, card removal (:func:`live_weights`), the result type
and the error raised when no deal exists."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kernels.cards import ALL_COMBOS, format_card
from kernels.constants import MAX_SEATS, Z_975

MAX_PLAYERS = MAX_SEATS
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


def deck_without(board, dead) -> np.ndarray:
    """The card ids on neither the board nor the dead list, ascending, ``(52 - len(board) - len(dead),)`` int64."""
    gone = set(board) | set(dead)
    return np.array([c for c in range(52) if c not in gone], dtype=np.int64)


def packed(weights: list[np.ndarray]):
    """Concatenated live combos of all players: starts (n+1,), combo ids (T,), weights (T,)."""
    indices = [np.flatnonzero(w > 0) for w in weights]
    starts = np.concatenate(([0], np.cumsum([len(i) for i in indices]))).astype(np.int64)
    combo_weight = np.concatenate([w[i] for w, i in zip(weights, indices)])
    return starts, np.concatenate(indices).astype(np.int64), combo_weight
