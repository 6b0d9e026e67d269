"""The ``ranges`` shortcode: exact heads-up preflop equity of two class ranges from the build's matchup table."""

import numpy as np
import pytest

from generator.errors import InputError
from generator.render import SiteRenderer
from generator.shortcodes import Shortcodes
from kernels.cards import parse_class
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from site_fixtures import site_config, write_synthetic_data


@pytest.fixture(scope="module")
def shortcodes(tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("ranges")
    write_synthetic_data(site_dir / "data")
    renderer = SiteRenderer(site_config(), site_dir)
    return Shortcodes(renderer.data, renderer.render_partial, root="../../")


def test_single_classes_equal_the_matchup_shortcode(shortcodes):
    assert shortcodes("ranges", ["AA", "KK"], {"digits": "3"}) == shortcodes("matchup", ["AA", "KK"], {"digits": "3"})


def test_a_union_is_the_combo_pair_weighted_sum_of_the_counts(shortcodes):
    m = shortcodes.data.matchups
    first, second = [parse_class(c) for c in ("AA", "KK", "QQ")], [parse_class(c) for c in ("AKs", "AKo")]
    win = sum(m["win"][i][j] + m["tie"][i][j] / 2 for i in first for j in second)
    total = sum(m["pairs"][i][j] for i in first for j in second) * BOARDS_PER_MATCHUP
    assert shortcodes("ranges", ["QQ+", "AK"], {"digits": "4"}) == f"{100 * win / total:.4f}%"
    # 0.5(AKo) halves AKo's pairs in both sums
    win_half = sum((m["win"][i][j] + m["tie"][i][j] / 2) * (0.5 if j == second[1] else 1) for i in first for j in second)
    total_half = sum(m["pairs"][i][j] * (0.5 if j == second[1] else 1) for i in first for j in second) * BOARDS_PER_MATCHUP
    assert np.isclose(float(shortcodes("ranges", ["QQ+", "AKs,0.5(AKo)"], {"digits": "4"}).rstrip("%")), 100 * win_half / total_half,
                      atol=5e-5)  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [(["AKx", "QQ"], "range 'AKx'"), (["AsKs", "QQ"], "not a union of whole classes"), (["QQ"], "usage")],
)
def test_bad_ranges_are_named(shortcodes, args, message):
    with pytest.raises(InputError, match=message):
        shortcodes("ranges", args, {})
