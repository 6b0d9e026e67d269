"""The n-player push/fold shortcodes: values read from ``pushfold_charts.json`` (checked against the
fixture's raw numbers), "not computed yet" when the build has not produced them, errors for malformed
shortcodes, the game's structure (information sets, pot layers) against counts and chip arithmetic
done by hand."""

from __future__ import annotations

import re

import numpy as np
import pytest

from generator.site.articles import load_article
from generator.core.errors import InputError
from generator.site.formatting import NOT_COMPUTED
from generator.site.shortcodes import Shortcodes
from generator.data.sitedata import SiteData
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from site_fixtures import REPO, pushfold, pushfold_charts

ARTICLE = REPO / "content" / "articles" / "push-fold-at-a-full-table.md"


def expand(document, *args, root="../../", **options):
    shortcodes = Shortcodes(SiteData({"pushfold_charts": document}), lambda *a, **k: "", root=root)
    return shortcodes("pushfold_table", list(args), {key: str(value) for key, value in options.items()})


def percent(text: str) -> float:
    assert text.endswith("%"), text
    return float(text[:-1]) / 100


@pytest.fixture
def charts():
    return pushfold_charts()


def test_shares_and_ranges_are_the_fixture_frequencies(charts):
    group = charts["groups"][0]  # 4 players, BB ante 1 bb, chip EV, 8 and 12 bb
    chart = group["charts"][1]
    shove = np.array(chart["shove"]["CO"])
    expected = shove @ CLASS_COMBO_COUNT / CLASS_COMBO_COUNT.sum()
    share = expand(charts, "shove_share", table="4p-bba1-chipev", stack=12, position="CO")
    assert abs(percent(share) - expected) <= 0.0005 and 0 < expected < 1
    call = np.array(chart["call"]["BB vs CO+BTN"])
    share = expand(charts, "call_share", table="4p-bba1-chipev", stack=12, caller="BB", vs="CO+BTN")
    assert abs(percent(share) - call @ CLASS_COMBO_COUNT / CLASS_COMBO_COUNT.sum()) <= 0.0005
    listed = expand(charts, "range", table="4p-bba1-chipev", stack=12, caller="BB", vs="CO+BTN").split(", ")
    assert set(listed) == {CLASS_NAMES[i] for i in np.flatnonzero(call >= 0.5)}  # the 0.37 class is left out
    assert np.any((call > 0) & (call < 0.5))


def test_chart_figures(charts):
    assert expand(charts, "nash_conv", table="4p-bba1-chipev", stack=8) == "4.2 × 10⁻³ bb"
    assert expand(charts, "nash_conv", table="3p-icm-50-30-20", stack=10) == "0.021% of the pool"
    assert expand(charts, "pots", table="4p-chipev", stack=12, size="4+") == "0.042%"
    assert expand(charts, "pots", table="4p-chipev", stack=12, size="2") == "12%"
    assert expand(charts, "iterations", table="4p-chipev", stack=12) == "300"
    # 4+-way bound: P(4+) × all the chips at the table (4 × 12 bb), or × the whole pool (in %) under ICM
    assert expand(charts, "four_way_bound", table="4p-chipev", stack=12) == "0.02 bb"
    assert expand(charts, "four_way_bound", table="3p-icm-50-30-20", stack=10) == "0.042% of the pool"
    assert expand(charts, "link", table="4p-chipev", stack=12) == (
        '<a href="../../pushfold/tables/4p-chipev/12/index.html">4 players, chip EV, 12 bb</a>'
    )
    # with bounties everything at stake includes them: 4 × (12 bb + a bounty of 6 bb)
    assert expand(charts, "four_way_bound", table="4p-bba1-chipev-pko50-b50", stack=12) == "0.03 bb"  # 0.00042 × 72
    assert expand(charts, "link", table="4p-bba1-chipev-pko50-b50", stack=12) == (
        '<a href="../../pushfold/tables/4p-bba1-chipev-pko50-b50/12/index.html">'
        "4 players, BB ante 1 bb, chip EV, PKO bounties 50% of a stack, 12 bb</a>"
    )
    assert (expand(charts, "tables"), expand(charts, "groups"), expand(charts, "players")) == ("5", "4", "3 and 4")
    assert expand(charts, "tolerance", payoff="chip") == "0.01 bb"
    assert expand(charts, "tolerance", payoff="icm") == "0.05% of the pool"
    assert [expand(charts, key) for key in ("threeway_boards", "threeway_se", "threeway_se_p99", "threeway_triples")] == [
        "4,096", "1.21 percentage points", "1.83 percentage points", "818,805"
    ]
    assert expand(charts, "threeway_se", pot=30) == "0.36 bb"  # 0.0121 of a 30 bb pot


def test_most_and_least_pick_the_right_chart(charts):
    for k, chart in enumerate(c for g in charts["groups"] for c in g["charts"]):
        chart["pots"]["4+"] = [3e-4, 9e-4, 5e-6, 2e-4, 2.5e-4][k]
        chart["iterations"] = [75, 25, 50, 100, 60][k]
    assert expand(charts, "most", "pots", size="4+") == "0.09%"
    assert expand(charts, "most", "pots", size="4+", show="where") == (
        '<a href="../../pushfold/tables/4p-bba1-chipev/12/index.html">4 players, BB ante 1 bb, chip EV, 12 bb</a>'
    )
    assert expand(charts, "most", "four_way_bound", payoff="chip") == "0.043 bb"  # 9e-4 × 4 × 12
    assert expand(charts, "most", "four_way_bound", payoff="icm") == "5.0 × 10⁻⁴% of the pool"  # 100 × 5e-6: the only ICM chart
    assert (expand(charts, "least", "iterations"), expand(charts, "most", "iterations")) == ("25", "100")
    assert "3p-icm-50-30-20/10/" in expand(charts, "least", "pots", size="4+", show="where")
    assert "4p-chipev/12/" in expand(charts, "least", "pots", size="4+", payoff="chip", show="where")


def test_check_bounds_rank_only_the_checked_charts(charts):
    """The real-deal check's upper bound and deals: over the charts that carry a check, per payoff and player count."""
    certified = {"unit": "bb", "value": 0.0, "ci95": 0.0, "deviations": 0, "seats": {}}
    groups = charts["groups"]  # 4p BB ante (8, 12 bb), 3p ICM (10), 4p no ante (12), 4p PKO (12)
    groups[0]["charts"][1]["certified"] = {**certified, "upper95": 1.91, "deals": 131072}
    groups[2]["charts"][0]["certified"] = {**certified, "upper95": 0.5, "deals": 65536}
    groups[1]["charts"][0]["certified"] = {**certified, "unit": "pool_pct", "upper95": 12.7, "deals": 131072}
    assert expand(charts, "most", "check_bound", payoff="chip") == "1.9 bb"
    assert expand(charts, "least", "check_bound", payoff="chip") == "0.5 bb"
    assert "4p-chipev/12/" in expand(charts, "least", "check_bound", payoff="chip", show="where")
    assert expand(charts, "most", "check_bound", payoff="icm") == "13% of the pool"
    assert expand(charts, "most", "check_bound", payoff="icm", players=4) == NOT_COMPUTED  # no 4-player ICM chart checked
    assert expand(charts, "most", "check_bound", payoff="chip", players=4) == "1.9 bb"
    assert (expand(charts, "most", "check_deals"), expand(charts, "least", "check_deals")) == ("131,072", "65,536")
    with pytest.raises(InputError, match="needs payoff"):
        expand(charts, "most", "check_bound")


def test_compare_says_which_spot_is_wider():
    """One spot's share against the same spot of a baseline table, at the 0.1% the shares are shown to."""
    charts = pushfold_charts(((4, [10.0], 0.0, False, None), (4, [10.0], 0.0, False, [50.0, 30.0, 20.0])))
    chip, icm = (g["charts"][0] for g in charts["groups"])
    options = {"table": "4p-icm-50-30-20", "baseline": "4p-chipev", "stack": 10}
    assert expand(charts, "compare", position="SB", **options) == "as wide as"  # the fixture's spots do not depend on payouts
    icm["shove"]["SB"] = [1.0] * len(CLASS_NAMES)
    assert expand(charts, "compare", position="SB", **options) == "wider than"
    icm["call"]["BB vs SB"] = [0.0] * len(CLASS_NAMES)
    assert expand(charts, "compare", caller="BB", vs="SB", **options) == "tighter than"
    assert expand(charts, "compare", position="SB", **{**options, "baseline": "9p-chipev"}) == NOT_COMPUTED
    with pytest.raises(InputError, match="baseline"):
        expand(charts, "compare", position="SB", table="4p-icm-50-30-20", stack=10)
    assert chip["shove"]["SB"] != icm["shove"]["SB"]


@pytest.mark.parametrize(
    ("args", "options"),
    [
        (["shove_share"], {"table": "4p-bba1-chipev", "stack": 12, "position": "CO"}),
        (["nash_conv"], {"table": "4p-bba1-chipev", "stack": 8}),
        (["most", "pots"], {"size": "4+"}),
        (["most", "nash_conv"], {"payoff": "icm", "show": "where"}),
        (["tables"], {}),
        (["threeway_se"], {}),
    ],
)
def test_missing_data_says_not_computed_yet(args, options):
    assert expand(None, *args, **options) == NOT_COMPUTED


def test_a_table_or_stack_this_build_did_not_solve_says_not_computed_yet(charts):
    assert expand(charts, "nash_conv", table="9p-chipev", stack=10) == NOT_COMPUTED
    assert expand(charts, "nash_conv", table="4p-chipev", stack=10) == NOT_COMPUTED
    charts["meta"].pop("threeway")
    assert expand(charts, "threeway_boards") == NOT_COMPUTED


@pytest.mark.parametrize(
    ("args", "options", "message"),
    [
        ([], {}, "usage"),
        (["speed"], {}, "unknown n-player push/fold value 'speed'"),
        (["nash_conv"], {"table": "4p-chipev"}, "needs stack=S"),
        (["nash_conv"], {"table": "4p-chipev", "stack": "ten"}, "stack must be a number"),
        (["nash_conv"], {"stack": 12}, "needs table=ID"),
        (["shove_share"], {"table": "4p-chipev", "stack": 12}, "needs position=POS"),
        (["shove_share"], {"table": "4p-chipev", "stack": 12, "position": "UTG"}, "no shove decision 'UTG'"),
        (["call_share"], {"table": "4p-chipev", "stack": 12, "position": "CO"}, "call_share needs caller=POS"),
        (["pots"], {"table": "4p-chipev", "stack": 12, "size": "5"}, "size must be one of 2, 3, 4\\+"),
        (["most", "speed"], {}, "most takes one of"),
        (["most", "nash_conv"], {}, "needs payoff=chip or payoff=icm"),
        (["least", "pots"], {"size": "2", "payoff": "money"}, "needs payoff=chip or payoff=icm"),
        (["most", "pots"], {"size": "4+", "show": "all"}, "show must be value or where"),
        (["decisions"], {"players": "11"}, "11 stacks given"),
        (["decisions"], {}, "needs players=N"),
    ],
)
def test_malformed_shortcodes_are_errors(charts, args, options, message):
    with pytest.raises(InputError, match=message):
        expand(charts, *args, **options)


@pytest.mark.parametrize("players", range(2, 11))
def test_decisions_count_every_open_and_call_decision(players):
    # open: every seat but the BB; call: per shover s and later seat q, every subset of the seats between them
    calls = sum(2 ** (q - s - 1) for s in range(players - 1) for q in range(s + 1, players))
    assert expand(None, "decisions", players=players) == f"{players - 1 + calls:,}"


def side_pots(**options) -> list[tuple[str, str, str]]:
    shortcodes = Shortcodes(SiteData({}), lambda *a, **k: "", root="")
    html = shortcodes("sidepots", [], {key: str(value) for key, value in options.items()})
    return re.findall(r'<tr><th scope="row">([^<]+)</th><td>([^<]+)</td><td>([^<]+)</td></tr>', html)


def test_side_pots_follow_the_bets():
    # BTN 20 shoves, SB 12 and BB 5 call: 5 × 3 in the main pot, (12 − 5) × 2 beside it, 8 uncalled
    assert side_pots(stacks="20,12,5", shover="BTN", callers="SB+BB") == [
        ("Main pot", "15 bb", "BTN, SB, BB"), ("Side pot 1", "14 bb", "BTN, SB"), ("Returned (uncalled)", "8 bb", "BTN")
    ]
    # a short shove is called for its size only: (6 − 0.5 ante) × 2, plus 4 dead antes and the folded SB's 0.5
    assert side_pots(stacks="6,20,20,20", shover="CO", callers="BB", ante="0.5") == [("Main pot", "13.5 bb", "CO, BB")]
    # a BB ante is posted before the hand: the BB has 9 bb behind, so 1 bb of the button's 10 is uncalled
    assert side_pots(stacks="10,10,10", shover="BTN", callers="BB", ante="1", bb_ante="yes") == [
        ("Main pot", "19.5 bb", "BTN, BB"), ("Returned (uncalled)", "1 bb", "BTN")
    ]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"stacks": "20,12,5"}, "usage"),
        ({"stacks": "20,x,5", "shover": "BTN"}, "stacks: entry 2 is not a number"),
        ({"stacks": "20,12,0.5", "shover": "BTN"}, "does not cover"),
        ({"stacks": "20,12,5", "shover": "UTG"}, "positions are BTN, SB, BB"),
        ({"stacks": "20,12,5", "shover": "SB", "callers": "BTN"}, "callers must act after the shover"),
    ],
)
def test_side_pot_errors(options, message):
    shortcodes = Shortcodes(SiteData({}), lambda *a, **k: "", root="")
    with pytest.raises(InputError, match=message):
        shortcodes("sidepots", [], options)


def test_the_article_says_not_computed_yet_without_its_tables():
    bare = load_article(ARTICLE, Shortcodes(SiteData({}), lambda *a, **k: "", root="../../"))
    assert bare.html.count("not computed yet") >= 20
    games = [(2, [10.0], 0.0, False, None)]  # any data without the article's tables: still "not computed yet"
    partial = load_article(ARTICLE, Shortcodes(SiteData({"pushfold_charts": pushfold_charts(games), "pushfold": pushfold()}),
                                               lambda *a, **k: "", root="../../"))
    assert "not computed yet" in partial.html and "{{<" not in partial.html


def test_datafile_links_a_file_this_build_wrote():
    shortcodes = Shortcodes(SiteData({"pushfold_charts": pushfold_charts()}), lambda *a, **k: "", root="../../")
    assert shortcodes("datafile", ["pushfold_charts.csv"], {}) == '<a href="../../data/pushfold_charts.csv">pushfold_charts.csv</a>'
    assert shortcodes("datafile", ["pushfold_thresholds.json"], {}) == NOT_COMPUTED
    for name in ("pushfold_charts.bin", "secrets.json"):
        with pytest.raises(InputError, match="unknown data file"):
            shortcodes("datafile", [name], {})


@pytest.mark.parametrize("numbers, words", [
    ([2, 3, 4, 5, 6, 9], "2 to 6 and 9"), ([2, 3], "2 and 3"), ([9], "9"), ([2, 3, 4, 5, 6, 7, 8, 9, 10], "2 to 10"),
    ([9, 2, 4, 3, 2], "2 to 4 and 9"), ([2, 4, 6], "2, 4 and 6"), ([2, 3, 5, 6, 7, 10], "2, 3, 5 to 7 and 10"),
])
def test_player_counts_in_words_fold_runs(numbers, words):
    from generator.site.formatting import number_runs

    assert number_runs(numbers) == words
