"""The multiway dealer on its own: the rejection branch, and valid, uniform deals.

The kernel tests regenerate deals with this same dealing code, so they cannot catch a dealing bug;
these tests check the dealer against what a uniform shuffle must give, and run its rejection branch
(probability ~1e-8 per draw: no simulation ever takes it).
"""

import warnings

import numpy as np
import pytest
from numba import njit

from kernels.sampling.dealing import LOW_32, REDRAW_WORD, compile_dealing
from kernels.multiway.layout import FULL_DECK
from kernels.sampling.rng import compile_rng

PLAIN_RNG = compile_rng(lambda function: function)
PLAIN = compile_dealing(lambda function: function, PLAIN_RNG)
_deal_cards = compile_dealing(njit, compile_rng(njit)).deal_cards


def test_a_rejected_word_is_redrawn_from_the_redraw_words():
    """Word 0 times any bound falls below Lemire's threshold: the draw must come from word REDRAW_WORD."""
    bound, key = np.uint64(52), np.uint64(12345)
    assert (2**32 - 52) % 52 > 0  # the threshold is positive, so product 0 is rejected
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # intended uint64 wrap-around of NumPy scalars
        position, redraws = PLAIN.position_below(np.uint64(0), bound, key, 0)
        redraw = PLAIN_RNG.child(key, np.uint64(REDRAW_WORD)) & LOW_32
    assert redraws == 1
    assert position == int(redraw) * 52 >> 32  # the redraw word's position (accepted: rejection odds are ~1e-8)


@njit
def _deal_many(deals, count, keys, base_deck):
    scratch = np.empty(base_deck.size, dtype=np.uint8)
    out = np.empty((deals, count), dtype=np.uint8)
    for d in range(deals):
        _deal_cards(scratch, base_deck, base_deck.size, count, keys[d])
        out[d] = scratch[:count]
    return out


@pytest.mark.slow
def test_dealt_cards_are_distinct_and_every_card_is_equally_likely_in_every_position():
    deals, count = 200_000, 25
    keys = np.random.default_rng(2026).integers(0, 2**64, size=deals, dtype=np.uint64)
    cards = _deal_many(deals, count, keys, FULL_DECK)
    assert all(len(set(row)) == count for row in cards[:5000].tolist())
    assert np.all(np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1])
    # chi-square per position over the 52 cards (51 degrees of freedom); 5σ of its spread above the mean
    expected = deals / 52
    limit = 51 + 5 * np.sqrt(2 * 51)
    for position in range(count):
        observed = np.bincount(cards[:, position], minlength=52)
        chi2 = float(((observed - expected) ** 2 / expected).sum())
        assert chi2 < limit, (position, chi2)
