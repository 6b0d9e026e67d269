"""Per-deal logic, written once and compiled for the CPU and CUDA: deal, evaluate, tally every seat.

A deal gives ``seats`` hands and a board. Seat ``s`` meets the next seats in order (``s + 1``,
``s + 2``, … modulo ``seats``); at ``n`` players it plays the first ``n - 1`` of them, so one deal
yields a sample for every seat and every ``n = 2..seats``. Along the opponents the hero wins while
it has beaten everyone, ties ``k``-way while ``k - 1`` opponents equal it and none is stronger,
and loses from the first stronger opponent on. A seat without equal opponents is tallied by its
``stronger`` mask (a count and Σ q); the rarer seats with ties record their walk in the slots
(see :mod:`kernels.multiway.layout`).

:func:`compile_deal_functions` takes the decorator, the target's evaluator ``strength_of_key``,
the compiled dealing namespace and ``add(tally, group, hand_class, entry, value)`` (a plain add on
the CPU, an atomic add on the GPU): only those differ between targets.
"""

from types import SimpleNamespace

import numpy as np

from kernels.cards import N_CARDS
from kernels.evaluator.core import KEY_BASE
from kernels.multiway.layout import (
    BOARD_CARDS,
    LOSS_BEAT_BEAT_SLOT,
    LOSS_BEAT_SLOT,
    LOSS_BEAT_TIE_SLOT,
    LOSS_TIE_SLOT,
    LOSS_TIE_TIE_SLOT,
    MAX_SEATS,
    Q_EQUAL_SLOT,
    Q_MASK_BASE,
    Q_STRONGER_SLOT,
    QQ_SLOT,
    RUN_Q_SLOT,
    RUN_SLOT,
    SLOT_BASE,
    TIE_Q_SLOT,
    TIE_SLOT,
)

ONE = np.int64(1)


def compile_deal_functions(jit, strength_of_key, dealing, add) -> SimpleNamespace:
    """Compile ``tally_seat`` and ``simulate_deal`` for one target."""
    deal_cards = dealing.deal_cards

    @jit
    def entry(slot, column):
        return np.int64(SLOT_BASE + slot * MAX_SEATS + column)

    @jit
    def lowest_bit(bits, none):
        """Index of the lowest set bit of ``bits`` (≥ 0), or ``none`` if there is none (branch-free popcount)."""
        if bits == 0:
            return none
        x = (bits & -bits) - ONE
        x = x - ((x >> 1) & 0x5555555555555555)
        x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
        return (x * 0x0101010101010101) >> 56

    @jit
    def tally_seat_with_ties(stronger, equal, first_loss, q, seats, tally, group, hand_class):
        """Walk the opponents of a seat that has equal opponents, adding its slot entries.

        first_loss: column of the first stronger opponent (``seats - 1`` if none). The loops avoid
        data-dependent branches (they would mispredict half the time on random deals).
        """
        beaten = np.int64(0)
        tied = np.int64(0)
        for column in range(seats - 1):
            is_stronger = (stronger >> column) & ONE
            is_equal = (equal >> column) & ONE
            add(tally, group, hand_class, entry(Q_STRONGER_SLOT, column), q * is_stronger)
            add(tally, group, hand_class, entry(Q_EQUAL_SLOT, column), q * is_equal)
            tied += is_equal
            beaten += ONE - is_stronger - is_equal
            if column < first_loss:  # not lost yet: a win or a (tied + 1)-way tie
                if tied > 0:
                    add(tally, group, hand_class, entry(TIE_SLOT + tied - 1, column), ONE)
                    add(tally, group, hand_class, entry(TIE_Q_SLOT + tied - 1, column), q)
            else:
                add(tally, group, hand_class, entry(LOSS_BEAT_SLOT, column), beaten)
                add(tally, group, hand_class, entry(LOSS_TIE_SLOT, column), tied)
                add(tally, group, hand_class, entry(LOSS_BEAT_BEAT_SLOT, column), beaten * beaten)
                add(tally, group, hand_class, entry(LOSS_BEAT_TIE_SLOT, column), beaten * tied)
                add(tally, group, hand_class, entry(LOSS_TIE_TIE_SLOT, column), tied * tied)

    @jit
    def tally_seat(strengths, seat, seats, hand_class, q, tally, group):
        """Add the samples of ``seat`` (against 1..seats-1 opponents) to ``tally[group, hand_class]``.

        strengths: ``(2 * seats,)``, the seats' strengths twice over (so offsets need no wrap);
        q: the seat's percentile control.
        """
        hero = strengths[seat]
        stronger = np.int64(0)
        equal = np.int64(0)
        for column in range(seats - 1):
            other = strengths[seat + 1 + column]
            stronger |= np.int64(other > hero) << column
            equal |= np.int64(other == hero) << column
        add(tally, group, hand_class, entry(QQ_SLOT, 0), q * q)
        if equal == 0:
            add(tally, group, hand_class, stronger, ONE)
            add(tally, group, hand_class, Q_MASK_BASE + stronger, q)
        else:
            none = np.int64(seats - 1)
            run = lowest_bit(stronger | equal, none)
            add(tally, group, hand_class, entry(RUN_SLOT, run), ONE)
            add(tally, group, hand_class, entry(RUN_Q_SLOT, run), q)
            tally_seat_with_ties(stronger, equal, lowest_bit(stronger, none), q, seats, tally, group, hand_class)

    @jit
    def simulate_deal(
        deal_key, deck, base_deck, deck_size, seats, strengths,
        card_key, card_mask, rank_offsets, rank_values, flush_values, percentile, pair_class, tally, group,
    ):
        """Deal ``seats`` hands and a board from ``base_deck[0:deck_size]`` and tally every seat.

        deck: int8 scratch ``(≥ deck_size,)``; strengths: int32 scratch ``(≥ 2 * seats,)``;
        percentile: ``(7463,)`` control value q of each strength (:mod:`kernels.multiway.percentile`); pair_class: ``(52 * 52,)`` class
        of each card pair; tally: see :mod:`kernels.multiway.layout`.
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
            strength = strength_of_key(
                board_key + card_key[first] + card_key[second],
                board_mask + card_mask[first] + card_mask[second],
                rank_offsets,
                rank_values,
                flush_values,
            )
            strengths[seat] = strength
            strengths[seat + seats] = strength
        for seat in range(seats):
            hand_class = np.int64(pair_class[np.int64(deck[2 * seat]) * N_CARDS + np.int64(deck[2 * seat + 1])])
            q = np.int64(percentile[strengths[seat]])
            tally_seat(strengths, seat, seats, hand_class, q, tally, group)

    return SimpleNamespace(tally_seat=tally_seat, simulate_deal=simulate_deal)
