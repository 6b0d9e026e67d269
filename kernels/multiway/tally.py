"""Per-deal logic, written once and compiled for the CPU and CUDA: deal, evaluate, tally every seat.

A deal gives ``seats`` hands and a board. Every seat is a hero whose opponents at ``n`` players are
``n - 1`` of the other hands; rather than picking one such table, the tally keeps what fixes the
seat's result at *every* table of *every* size: ``b``, how many of the other hands its hand beats,
and ``t``, how many it ties (see :mod:`kernels.multiway.statistics`). Per seat that is one cell,
whatever the number of seats or ties.

:func:`compile_deal_functions` takes the decorator, the target's evaluator ``strength_of_key``,
the compiled dealing namespace and ``add_seat(tally, group, hand_class, cell, q, first)``, which adds
one seat to its cell (count and Σ q), to its class's Σ q², and, for the deal's first seat
(``first``), to the first-seat count of its cell (private counters on the CPU, atomic adds to the
tally on the GPU): only those differ between targets.
"""

from types import SimpleNamespace

import numpy as np

from kernels.cards import N_CARDS
from kernels.evaluator.core import KEY_BASE
from kernels.multiway.layout import BOARD_CARDS, MAX_SEATS


def compile_deal_functions(jit, strength_of_key, dealing, add_seat) -> SimpleNamespace:
    """Compile ``simulate_deal`` for one target."""
    deal_cards = dealing.deal_cards

    @jit
    def simulate_deal(
        deal_key, deck, base_deck, deck_size, seats, strengths,
        card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class, tally, group,
    ):
        """Deal ``seats`` hands and a board from ``base_deck[0:deck_size]`` and tally every seat.

        deck: uint8 scratch ``(≥ deck_size,)``; strengths: int32 scratch ``(≥ seats,)``;
        percentile: ``(7463,)`` control value q of each strength (:mod:`kernels.multiway.percentile`);
        pair_class: ``(52 * 52,)`` class of each card pair; tally: see :mod:`kernels.multiway.layout`.
        """
        hole_cards = 2 * seats
        deal_cards(deck, base_deck, deck_size, hole_cards + BOARD_CARDS, deal_key)
        board_key = KEY_BASE
        board_mask = np.uint64(0)
        for i in range(hole_cards, hole_cards + BOARD_CARDS):
            card = np.int64(deck[i])
            board_key += card_key[card]
            board_mask += card_mask[card]
        for seat in range(seats):
            first = np.int64(deck[2 * seat])
            second = np.int64(deck[2 * seat + 1])
            strengths[seat] = strength_of_key(
                board_key + card_key[first] + card_key[second],
                board_mask + card_mask[first] + card_mask[second],
                rank_offsets,
                rank_values,
                flush_values,
            )
        for seat in range(seats):
            hero = strengths[seat]
            beaten = np.int64(0)
            tied = np.int64(-1)  # the hero ties itself
            for other in range(seats):
                beaten += np.int64(strengths[other] < hero)
                tied += np.int64(strengths[other] == hero)
            hand_class = np.int64(pair_class[np.int64(deck[2 * seat]) * N_CARDS + np.int64(deck[2 * seat + 1])])
            q = np.int64(percentile[hero])
            cell = tied * (2 * MAX_SEATS + 1 - tied) // 2 + beaten
            add_seat(tally, group, hand_class, cell, q, seat == 0)

    return SimpleNamespace(simulate_deal=simulate_deal)
