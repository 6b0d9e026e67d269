"""The ``{{< flop … >}}`` shortcode: each figure recomputed here from the data it reads."""

from itertools import combinations

import numpy as np
import pytest

from generator.compute.stages.flops import flop_hits_json, flops_json
from generator.compute.stages.headsup import flop_table_results, headsup_results
from generator.core.errors import InputError
from generator.site.flop_shortcodes import FlopValues, flop_text
from generator.site.formatting import NOT_COMPUTED
from kernels.cards import CLASS_COMBO_COUNT, parse_class

PREMIUM = ("AA", "KK", "AKs", "AKo")


@pytest.fixture(scope="module")
def values():
    table, meta = flop_table_results(progress=False)
    return FlopValues(flops_json(table, meta), flop_hits_json())


def test_texture_shares_are_the_counted_flops(values):
    suits = [len({card % 4 for card in flop}) for flop in combinations(range(52), 3)]
    assert values(["share"], {"texture": "monotone"}) == f"{100 * suits.count(1) / len(suits):.1f}%"
    assert values(["share"], {"texture": "rainbow"}) == f"{100 * suits.count(3) / len(suits):.1f}%"
    assert values(["share"], {}) == "100.0%"


def test_a_range_over_every_flop_has_its_preflop_equity(values):
    headsup, _ = headsup_results(progress=False)
    classes = [parse_class(name) for name in PREMIUM]
    preflop = CLASS_COMBO_COUNT[classes] @ headsup.vs_random_equity()[classes] / CLASS_COMBO_COUNT[classes].sum()
    weights = np.zeros(169)
    weights[classes] = 1
    assert values.range_equity(weights, np.ones(1755, dtype=bool)) == pytest.approx(preflop, abs=5e-7)  # 6 decimals kept
    assert values(["equity"], {"range": "KK+,AK"}) == f"{100 * preflop:.1f}%"


def test_best_and_worst_flops_and_hit_rates_are_read_from_the_files(values):
    aa = parse_class("AA")
    equity = [np.nan if row[aa] is None else row[aa] for row in values.flops["equity"]]
    assert values(["worst", "AA"], {}) == flop_text(values.flops["flops"][int(np.nanargmin(equity))])
    assert values(["best", "AA"], {"show": "equity"}) == f"{100 * np.nanmax(equity):.1f}%"
    # Set, full house or quads: a flop with one of the two other aces (2 × C(48, 2)) or both (48), or three of a
    # kind of another rank (12 × 4: aces full).
    made, names = values.hits["made_counts"][aa], values.hits["made"]
    assert sum(made[names.index(n)] for n in ("set", "full house", "quads")) == 2 * 1128 + 48 + 12 * 4
    assert values(["hit", "AA"], {"category": "overpair"}) == f"{100 * made[names.index('overpair')] / 19600:.1f}%"
    assert values(["hit", "AA"], {"category": "pair-or-better"}) == "100.0%"


@pytest.mark.parametrize("args, options, message", [
    (["share"], {"texture": "wet"}, "texture must be"),
    (["equity"], {}, "needs range="),
    (["equity"], {"range": "AhKh"}, "whole classes"),
    (["hit", "AA"], {"category": "middle-pair"}, "not a category"),
    (["best", "AKx"], {}, "not a hand class"),
    (["nothing"], {}, "unknown flop value"),
])
def test_malformed_shortcodes_are_input_errors(values, args, options, message):
    with pytest.raises(InputError, match=message):
        values(args, options)


def test_without_the_data_files_every_figure_is_not_computed_yet():
    empty = FlopValues(None, None)
    assert empty(["share"], {"texture": "paired"}) == empty(["hit", "AA"], {"category": "set"}) == NOT_COMPUTED
