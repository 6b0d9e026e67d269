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
  assignment of the others (the browser's methods, templates/assets/js/engines/range-equity.js);
* ``monte carlo``: deals drawn exactly from the distribution above (ranged players by rejection, in units
  of one player or of two players' compatible combo pairs, O(1) alias draws; random players and the board
  from the remaining deck; counter-based RNG keyed by seed, batch and deal), in batches until every
  player's standard error is ≤ ``target_se`` or ``budget_s`` runs out.
  Counts are integers (sufficient statistics): win and k-way ties per player.

Engines report progress through ``progress(done, total)`` callbacks and never print.

Modules: :mod:`.deals` (card removal, the result type), :mod:`.tables` (the table answers), :mod:`.boards` and
:mod:`.enumeration` (exact), :mod:`.sampling` (Monte Carlo).
"""

from __future__ import annotations

from math import comb

import numpy as np

from kernels.constants import RANGE_EQUITY_EXACT_LIMIT
from kernels.range_equity.deals import (
    COMBO_MASK, COMBO_OF, MAX_PLAYERS, EquityResult, NoDealError, blocker_text, card_mask, live_weights,
)
from kernels.range_equity.enumeration import enumerate_equity, enumeration_plan, enumeration_work
from kernels.range_equity.sampling import JOINT_LIMIT, draw_units, mc_statistics, sample_equity, winner_counts
from kernels.range_equity.tables import class_against_random, class_weights, exact_block, multiway_table_equity, table_equity

__all__ = [
    "COMBO_MASK", "COMBO_OF", "EXACT_LIMIT", "JOINT_LIMIT", "MAX_PLAYERS", "EquityResult", "NoDealError", "blocker_text",
    "card_mask", "class_against_random", "class_weights", "draw_units", "enumerate_equity", "enumeration_work", "exact_block", "exact_without_tables",
    "live_weights", "mc_statistics", "multiway_table_equity", "range_equity", "sample_equity", "table_equity",
    "winner_counts",
]
#: Default bound on the enumeration work (:func:`enumeration_work`): 1–2 s on 2 quiet cores, up to ~8 s on busy ones; the
#: browser's too (range-equity.js, the same estimate: about 2 s of one worker there), so both are exact on the same spots.
EXACT_LIMIT = RANGE_EQUITY_EXACT_LIMIT


def exact_without_tables(weights: list[np.ndarray], board=(), dead=(), exact_limit: float = EXACT_LIMIT) -> bool:
    """Whether :func:`range_equity` enumerates these ranges exactly within ``exact_limit`` with no precomputed table
    (a caller can then skip computing one)."""
    live = live_weights(weights, board, dead)
    return enumeration_plan(live, board, dead)[1] <= exact_limit


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
    method, work = enumeration_plan(live, board, dead)
    if work <= exact_limit:
        return enumerate_equity(live, board, dead, tables, progress, method, work)
    return sample_equity(live, board, dead, tables, progress=progress, **sampling)
