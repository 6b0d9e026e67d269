"""Articles: front matter errors name file and line; math, code and shortcodes render as documented."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from generator.site.articles import load_article, render_body
from generator.data.datafiles import publish
from generator.core.errors import InputError
from generator.site.render import SiteRenderer
from generator.site.shortcodes import NOT_COMPUTED, Shortcodes
from generator.data.sitedata import SiteData
from kernels.cards import CLASS_NAMES, parse_class
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from site_fixtures import (
    REPO, build_site, flop_hits, flops, pushfold, pushfold_charts, pushfold_thresholds, site_config, write_synthetic_data,
)

GOOD_FRONT = "---\ntitle: T\ndate: 2026-01-01\nsummary: S\n---\n"


def echo(name, args, options):
    return f"[{name} {' '.join(args)} {options}]"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "post.md"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("title: T\n", 1, "front matter missing"),
        ("---\ntitle: T\n", 1, "not closed"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: [unclosed\n---\nbody\n", 5, "not valid YAML"),
        ("---\ntitle: T\nsummary: S\n---\n", 1, "missing 'date'"),
        ("---\ntitle: T\nsummary: S\ndate: yesterday\n---\n", 4, "'date' must be a date"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: S\ntags: ICM\n---\n", 5, "'tags' must be a list"),
        ("---\ntitle: T\ndate: 2026-01-01\nsummary: S\nauthor: me\n---\n", 5, "unknown key 'author'"),
    ],
)
def test_front_matter_errors_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        load_article(path, echo)
    assert caught.value.message.startswith(f"{path}:{line}: ")
    assert message in caught.value.message


def test_article_fields(tmp_path):
    article = load_article(write(tmp_path, GOOD_FRONT.replace("---\n", "---\ntags: [a, b]\n", 1) + "Hello *world*\n"), echo)
    assert (article.slug, article.title, article.summary, article.tags) == ("post", "T", "S", ("a", "b"))
    assert "<em>world</em>" in article.html


def test_math_becomes_mathml_and_escaped_dollars_stay():
    html = render_body("Inline $x^2$ costs \\$5.\n\n$$\\int_0^1 t\\,dt$$\n", "a.md", 1, echo)
    assert html.count("<math") == 2 and 'display="block"' in html
    assert "&#36;5" in html and "$" not in html


def test_display_math_scrolls_in_a_focusable_labelled_box_and_inline_math_does_not():
    html = render_body("Inline $\\sqrt{x}$.\n\n$$\\binom{48}{5} + \\overline{Y}$$\n", "a.md", 1, echo)
    boxes = re.findall(r'<div class="formula" role="group" tabindex="0" aria-label="Formula"><math [^>]*display="block"', html)
    assert len(boxes) == 1 and html.count("<math") == 2
    assert '<p>Inline <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><msqrt>' in html


def test_a_table_scrolls_in_a_focusable_labelled_box():
    html = render_body("Text.\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\nMore.\n", "a.md", 1, echo)
    assert re.search(r'<div class="table-scroll" role="group" tabindex="0" aria-label="Table"><table>.*?</table></div>', html, re.DOTALL)
    assert html.count("<table>") == 1 and '<td style="text-align: right;">2</td>' in html


@pytest.mark.slow
def test_the_math_font_and_its_licence_ship_with_the_site(tmp_path):
    site = build_site(tmp_path)
    from fontTools.ttLib import TTFont

    from generator.site.math_font import MATH_ITALIC, math_characters

    font_path = site / "assets" / "fonts" / "STIXTwoMath-Regular.woff2"
    font = TTFont(font_path)
    assert font.flavor == "woff2" and "MATH" in font and font_path.stat().st_size < 150_000  # the whole font: 1.5 MB
    pages = [p.read_text(encoding="utf-8") for p in (site / "articles").glob("*/index.html")]
    used = math_characters(pages)
    assert "∑" in used and "σ" in used and set(MATH_ITALIC) <= set(used)
    assert set(map(ord, used)) <= set(font.getBestCmap())  # every character of every formula, and the italic letters
    assert not (site / "assets" / "fonts" / "STIXTwoMath-Regular.ttf").exists()
    assert "SIL OPEN FONT LICENSE" in (site / "assets" / "fonts" / "STIXTwoMath-OFL.txt").read_text()
    css = (site / "assets" / "css" / "site.css").read_text()
    assert 'url("../fonts/STIXTwoMath-Regular.woff2") format("woff2")' in css and re.search(r"\.formula \{[^}]*overflow-x: auto", css)


def test_code_is_left_alone():
    html = render_body("Use `$x$` and `{{< equity AA 2 >}}`.\n\n```\n$$ not math $$\n```\n", "a.md", 1, echo)
    assert "<math" not in html and "[equity" not in html
    assert "<code>$x$</code>" in html and "$$ not math $$" in html


def test_block_shortcode_replaces_its_paragraph():
    html = render_body("Text\n\n{{< chart players=6 >}}\n\nMore {{< equity AA 2 >}} here.\n", "a.md", 1, lambda *a: "<div>X</div>" if a[0] == "chart" else "85%")
    assert "<p><div>" not in html and "<div>X</div>" in html and "More 85% here." in html


def test_shortcode_error_names_file_and_line(tmp_path):
    path = write(tmp_path, GOOD_FRONT + "one\n\ntwo `{{< nope >}}`\n\nthree {{< nope >}}\n")
    with pytest.raises(InputError, match=rf"^{path}:10: shortcode .*unknown shortcode 'nope'"):
        load_article(path, Shortcodes(SiteData({}), lambda *a, **k: "", root="../../"))


def test_bad_math_names_file_and_line(tmp_path):
    path = write(tmp_path, GOOD_FRONT + "ok\n\n$x^$\n")
    with pytest.raises(InputError, match=rf"^{path}:8: math .*MissingSuperScript"):
        load_article(path, echo)


@pytest.fixture(scope="module")
def shortcodes(tmp_path_factory):
    site_dir = tmp_path_factory.mktemp("sc")
    publish(write_synthetic_data(site_dir / "data"), "pushfold", pushfold())
    renderer = SiteRenderer(site_config(), site_dir)
    return Shortcodes(renderer.data, renderer.render_partial, root="../../")


def test_shortcodes_render_live_numbers(shortcodes):
    data = shortcodes.data
    assert shortcodes("equity", ["AA", "2"], {}) == f"{100 * data.headsup['equity'][0]:.1f}%"
    assert shortcodes("equity", ["aks", "6"], {"digits": "2"}) == f"{100 * data.tables[6].equity[1]:.2f}%"
    assert shortcodes("matchup", ["AA", "KK"], {}) == f"{100 * data.matchups['equity'][0][14]:.1f}%"
    assert shortcodes("fact", ["boards"], {}) == "1,712,304"
    assert shortcodes("fact", ["cv_gain"], {"players": "6"}) == "4.0×"
    assert shortcodes("fact", ["gain"], {"players": "6"}) == "5.0×"
    assert shortcodes("hand", ["T9s"], {}) == '<a href="../../hands/T9s/index.html">T9s</a>'
    chart = shortcodes("chart", [], {"players": "6"})
    assert chart.count('data-i="') == 169 and 'href="../../hands/AA/index.html"' in chart
    assert shortcodes("table", [], {"players": "10", "top": "3"}).count("<tr>") == 4


def test_rank_shortcode_is_the_tables_rank(shortcodes):
    table = shortcodes.data.tables[10]
    index = CLASS_NAMES.index("A2o")
    assert shortcodes("rank", ["A2o", "10"], {}) == f"#{table.rank[index]}"
    assert sorted(int(shortcodes("rank", [name, "2"], {})[1:]) for name in CLASS_NAMES) == list(range(1, 170))


def test_ranges_shortcode_weights_matchups_by_compatible_combos(shortcodes):
    """Equity against a range of whole classes, recomputed here from the raw counts."""
    m = shortcodes.data.matchups
    hero, villains = CLASS_NAMES.index("AJo"), [CLASS_NAMES.index(n) for n in ("AA", "KK", "QQ", "AKs", "AKo")]
    won = sum(m["win"][hero][j] + m["tie"][hero][j] / 2 for j in villains)
    played = sum(m["win"][hero][j] + m["tie"][hero][j] + m["loss"][hero][j] for j in villains)
    assert shortcodes("ranges", ["AJo", "QQ+,AK"], {"digits": "3"}) == f"{100 * won / played:.3f}%"
    everyone = sum(m["win"][hero][j] + m["tie"][hero][j] / 2 for j in range(169)) / sum(
        m["win"][hero][j] + m["tie"][hero][j] + m["loss"][hero][j] for j in range(169)
    )
    assert shortcodes("ranges", ["AJo", "random"], {"digits": "3"}) == f"{100 * everyone:.3f}%"


def test_potodds_shortcode():
    shortcodes = Shortcodes(SiteData({}), lambda *a, **k: "", root="")
    assert shortcodes("potodds", [], {"pot": "11.5", "call": "9"}) == "43.9%"
    assert shortcodes("potodds", [], {"pot": "25", "call": "5", "digits": "2"}) == "16.67%"


def _harville_equity(stacks, payouts):
    """ICM by brute force over every finishing order (independent of kernels.icm.harville)."""
    equity = np.zeros(len(stacks))
    for order in itertools.permutations(range(len(stacks))):
        probability, left = 1.0, float(sum(stacks))
        for player in order:
            probability *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order[: len(payouts)]):
            equity[player] += probability * payouts[place]
    return equity


def test_icm_shortcode_matches_brute_force_harville():
    rendered = {}
    shortcodes = Shortcodes(SiteData({}), lambda name, **k: rendered.setdefault(name, k) and "TABLE", root="")
    stacks, payouts = [500, 300, 200], [600, 400]
    equity = _harville_equity(stacks, payouts)
    for player in range(3):
        options = {"stacks": "500,300,200", "payouts": "600,400", "player": str(player + 1)}
        assert shortcodes("icm", [], options) == f"{equity[player]:,.2f}"
        assert shortcodes("icm", [], {**options, "value": "pool_share"}) == f"{100 * equity[player] / 1000:.1f}%"
    assert shortcodes("icm", [], {"stacks": "500,300,200", "payouts": "600,400"}) == "TABLE"
    rows = rendered["partials/icm_table.html"]["rows"]
    assert [round(r[2], 9) for r in rows] == [round(e, 9) for e in equity] and [r[1] for r in rows] == [0.5, 0.3, 0.2]


def test_pushfold_shortcodes_read_the_pushfold_data():
    data = pushfold()
    shortcodes = Shortcodes(SiteData({"pushfold": data}), lambda *a, **k: "", root="../../")
    at10 = data["stacks"].index(10)
    assert shortcodes("pushfold", ["push_share"], {"stack": "10"}) == f"{100 * data['push_share'][at10]:.1f}%"
    assert shortcodes("pushfold", ["call_share"], {"stack": "10"}) == f"{100 * data['call_share'][at10]:.1f}%"
    aa, weak = CLASS_NAMES.index("AA"), CLASS_NAMES.index("72o")
    assert data["push_max"][aa] == 25 and shortcodes("pushfold", ["push_max", "AA"], {}) == "at least 25 bb"
    assert shortcodes("pushfold", ["push_max", "72o"], {}) == f"{data['push_max'][weak]:g} bb" == "2 bb"
    assert data["call_max"][weak] is None and shortcodes("pushfold", ["call_max", "72o"], {}) == "never"
    mixed = sum(any(0 < data[side][at10][i] < 1 for side in ("push", "call")) for i in range(169))
    assert shortcodes("pushfold", ["mixed"], {"stack": "10"}) == str(mixed) == "2"
    assert shortcodes("pushfold", ["push_gaps"], {}) == '<a href="../../hands/72o/index.html">72o</a>'
    assert shortcodes("pushfold", ["max_nash_conv"], {}) == "9.9 × 10⁻⁷ bb"
    assert shortcodes("pushfold", ["stacks"], {}) == "1–25 bb"
    missing = Shortcodes(SiteData({}), lambda *a, **k: "", root="")
    assert missing("pushfold", ["push_share"], {"stack": "10"}) == NOT_COMPUTED


def test_build_facts(shortcodes):
    assert shortcodes("fact", ["board_classes"], {}) == "134,459"
    assert shortcodes("fact", ["live_combos"], {}) == "1,081"
    assert shortcodes("fact", ["walk_evaluations"], {}) == "145.35 million"
    assert shortcodes("fact", ["showdowns"], {}) == "1.39 trillion"  # 1326 · 1225 / 2 combo pairs × C(48, 5) boards
    meta = shortcodes.data.multiway["meta"]
    assert meta["samples"] == 10 * meta["deals"] and shortcodes("fact", ["groups"], {}) == "128"


def test_interval_check_counts_the_three_handed_intervals_that_miss_the_exact_values(tmp_path):
    data = SiteData.load(write_synthetic_data(tmp_path))
    block, exact = data.multiway["by_players"]["3"], data.tables[3]
    for key in ("win", "tie", "equity"):
        block[key] = list(getattr(exact, key))
        block[f"se_{key}"] = [0.01] * 169
    block["equity"][:7] = [e + 0.0197 for e in block["equity"][:7]]  # just outside ±1.96 se: missed
    block["win"][7:9] = [w - 0.0195 for w in block["win"][7:9]]  # just inside: covered
    shortcodes = Shortcodes(data, lambda *a, **k: "", root="")
    assert (shortcodes("fact", ["ci_checked"], {}), shortcodes("fact", ["ci_missed"], {})) == ("507", "7")


@pytest.mark.slow
def test_every_article_renders_every_number_from_the_data(tmp_path):
    """With every data file present, no article shows "not computed yet" or an unexpanded shortcode,
    and every link to another article's section (the glossary) lands on an existing id."""
    from generator.compute.stages.pushfold_charts import CHART_TABLES, DEFAULT_GROUPS

    data_dir = write_synthetic_data(tmp_path / "data")
    publish(data_dir, "pushfold", pushfold())
    publish(data_dir, "pushfold_thresholds", pushfold_thresholds())
    publish(data_dir, "flops", flops())
    publish(data_dir, "flop_hits", flop_hits())
    groups = {g.id: g for g in DEFAULT_GROUPS}
    games = [(groups[gid].players, list(stacks), groups[gid].ante, groups[gid].bb_ante, groups[gid].payouts and list(groups[gid].payouts),
              groups[gid].bounty, groups[gid].game()["bounty_share"]) for gid, stacks in CHART_TABLES]
    publish(data_dir, "pushfold_charts", pushfold_charts(games))  # the build's pushfold_charts.json tables
    site = build_site(tmp_path / "site", data_dir=data_dir)
    pages = {path.parent.name: path.read_text() for path in (site / "articles").glob("*/index.html")}
    assert {p.stem for p in (REPO / "content" / "articles").glob("*.md")} == set(pages)
    assert {"glossary", "using-these-numbers-at-the-table", "push-fold-explained", "push-fold-at-a-full-table"} <= set(pages)
    for slug, html in pages.items():
        assert "not computed yet" not in html and "{{<" not in html, slug
        for target, fragment in re.findall(r'href="\.\./([\w-]+)/index\.html#([\w-]+)"', html):
            assert f'id="{fragment}"' in pages[target], (slug, target, fragment)
    assert pages["reading-the-charts"].count("glossary/index.html#") >= 1


@pytest.mark.parametrize(
    ("name", "args", "options", "message"),
    [
        ("equity", ["AX", "2"], {}, "not a hand class"),
        ("rank", ["AA"], {}, "usage"),
        ("ranges", ["AJo", "QQ+,AsKs"], {}, "whole classes"),
        ("ranges", ["AJo", "QQ+,ZZ"], {}, "ZZ"),
        ("potodds", [], {"pot": "-1", "call": "2"}, "pot must be one positive number"),
        ("potodds", [], {"pot": "nan", "call": "2"}, "pot must be one positive number"),
        ("potodds", [], {"pot": "3"}, "call must be one positive number"),
        ("icm", [], {"stacks": "500,x", "payouts": "1"}, "stacks: entry 2 is not a number"),
        ("icm", [], {"stacks": "500,300", "payouts": "1,2,3"}, "payouts"),
        ("icm", [], {"stacks": "500,300", "payouts": "1", "player": "3"}, "player must be between 1 and 2"),
        ("icm", [], {"stacks": "500,300", "payouts": "1", "player": "1", "value": "rank"}, "value must be"),
        ("pushfold", ["push_share"], {"stack": "10.25"}, "not a solved stack"),
        ("pushfold", ["speed"], {}, "unknown push/fold value"),
        ("equity", ["AA", "11"], {}, "players must be between 2 and 10"),
        ("equity", ["AA"], {}, "usage"),
        ("chart", [], {}, "needs players=N"),
        ("fact", ["speed"], {}, "unknown fact 'speed'"),
    ],
)
def test_shortcode_argument_errors(shortcodes, name, args, options, message):
    with pytest.raises(InputError, match=message):
        shortcodes(name, args, options)


def test_ranges_of_single_classes_equal_the_matchup_shortcode(shortcodes):
    assert shortcodes("ranges", ["AA", "KK"], {"digits": "3"}) == shortcodes("matchup", ["AA", "KK"], {"digits": "3"})


def test_ranges_union_is_the_combo_pair_weighted_sum_of_the_counts(shortcodes):
    m = shortcodes.data.matchups
    first, second = [parse_class(c) for c in ("AA", "KK", "QQ")], [parse_class(c) for c in ("AKs", "AKo")]
    win = sum(m["win"][i][j] + m["tie"][i][j] / 2 for i in first for j in second)
    total = sum(m["pairs"][i][j] for i in first for j in second) * BOARDS_PER_MATCHUP
    assert shortcodes("ranges", ["QQ+", "AK"], {"digits": "4"}) == f"{100 * win / total:.4f}%"
    # 0.5(AKo) halves AKo's pairs in both sums
    win_half = sum((m["win"][i][j] + m["tie"][i][j] / 2) * (0.5 if j == second[1] else 1) for i in first for j in second)
    total_half = sum(m["pairs"][i][j] * (0.5 if j == second[1] else 1) for i in first for j in second) * BOARDS_PER_MATCHUP
    assert np.isclose(float(shortcodes("ranges", ["QQ+", "AKs,0.5(AKo)"], {"digits": "4"}).rstrip("%")), 100 * win_half / total_half,
                      atol=5e-5)


@pytest.mark.parametrize(
    ("args", "message"),
    [(["AKx", "QQ"], "range 'AKx'"), (["AsKs", "QQ"], "not a union of whole classes"), (["QQ"], "usage")],
)
def test_ranges_shortcode_names_bad_ranges(shortcodes, args, message):
    with pytest.raises(InputError, match=message):
        shortcodes("ranges", args, {})


def test_bubble_shortcodes_are_the_engines_numbers(shortcodes):
    from kernels.icm.harville import bubble_factors

    field = {"stacks": "4000,3000,2000,1000", "payouts": "50,30,20"}
    result = bubble_factors([4000, 3000, 2000, 1000], [50, 30, 20])
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3"}) == f"{result.bubble_factor[1, 2]:.2f}"
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3", "show": "required"}) == f"{100 * result.required_equity[1, 2]:.1f}%"
    assert shortcodes("bubble_value", [], {**field, "row": "2", "col": "3", "show": "premium"}) == f"{100 * result.risk_premium[1, 2]:+.1f} points"
    assert shortcodes("bubble_value", [], {**field, "row": "1", "col": "1"}) == "–"
    table = shortcodes("bubble", [], field)
    assert table.count("<tr>") == 5 and f"<td title=\"needs {100 * result.required_equity[3, 0]:.1f}% to call" in table
    assert shortcodes("section", ["icm-spot"], {}) == '<a href="../../icm/spot/index.html">Call/fold</a>'
    for name, options, message in [
        ("bubble", {"stacks": "1,2"}, "needs stacks="),
        ("bubble_value", {**field, "row": "5", "col": "1"}, "row must be between 1 and 4"),
        ("bubble_value", {**field, "row": "1", "col": "2", "show": "odds"}, "show must be"),
        ("bubble", {"stacks": "1,2", "payouts": "0,0"}, "every prize is zero"),
    ]:
        with pytest.raises(InputError, match=message):
            shortcodes(name, [], options)
    with pytest.raises(InputError, match="unknown section"):
        shortcodes("section", ["nowhere"], {})


def test_bounty_shortcodes_are_the_kernels_numbers(shortcodes):
    """Every number of the knockout-bounty article is kernels.icm.bounty's / kernels.icm.spot's."""
    from kernels.icm import bounty, harville as icm
    from kernels.icm.spot import call_spot, outcomes_vs_range
    from kernels.range_equity import class_weights
    from kernels.ranges import parse_range

    field = {"stacks": "5000,3000,2000", "payouts": "50,30,20", "bounties": "10,10,20", "share": "0.5"}
    stacks, payouts, bounties = [5000, 3000, 2000], [50, 30, 20], [10, 10, 20]
    value = bounty.position_value(stacks, payouts, bounties)
    for show in ("prize", "bounty", "total"):
        for i in range(3):
            assert shortcodes("bounty_value", [], {**field, "show": show, "player": str(i + 1)}) == f"{getattr(value, show)[i]:,.2f}"
    assert shortcodes("bounty_value", [], {**field, "show": "on_heads"}) == "40.00"
    plain = icm.bubble_factors(stacks, payouts).bubble_factor
    for share in (0.5, 1.0):
        factors = bounty.bubble_factors(stacks, payouts, bounties, share)
        for row, col in ((1, 3), (2, 3), (3, 1)):
            options = {**field, "share": str(share), "row": str(row), "col": str(col)}
            assert shortcodes("bounty_value", [], {**options, "show": "factor"}) == f"{factors.bubble_factor[row - 1, col - 1]:.2f}"
            assert shortcodes("bounty_value", [], {**options, "show": "required"}) == f"{100 * factors.required_equity[row - 1, col - 1]:.1f}%"
            assert shortcodes("bounty_value", [], {**options, "show": "icm_factor"}) == f"{plain[row - 1, col - 1]:.2f}"
    assert shortcodes("bounty_value", [], {**field, "show": "factor", "row": "1", "col": "3"}) == "0.85"  # 79/93, docs/icm.md
    table = shortcodes("bounty", [], field)
    assert table.count("<tr>") == 4 and f"<td>{value.total[0]:,.2f}</td>" in table

    result = bounty.showdown([1000, 3000, 2000], [10, 10, 10], 0.5, [1000, 2000, 2000], [3, 2, 1])
    table = shortcodes("bounty_showdown", [], {"stacks": "1000,3000,2000", "bounties": "10,10,10", "share": "0.5",
                                                "bets": "1000,2000,2000", "strengths": "3,2,1"})
    assert result.cash[1] == 5 and result.bounties[1] == 15  # the covering stack takes the bounty, not the winner of the main pot
    assert f"<td>{result.cash[1]:,.2f}</td><td>{result.bounties[1]:,.2f}</td>" in table

    spot_options = {"stacks": "1500,1000,500", "payouts": "65,35", "blinds": "1,2", "ante": "0.25", "shover": "3",
                    "caller": "1", "bounties": "25,25,40", "share": "0.5", "hand": "AJo", "range": "22+,A2s+"}
    spot = call_spot([1500, 1000, 500], [65, 35], 1, 2, 0.25, 2, 0, bounties=[25, 25, 40], bounty_share=0.5)
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "required"}) == f"{100 * spot.required_total:.2f}%"
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "required_icm"}) == f"{100 * spot.required_icm:.2f}%"
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "required_chips"}) == f"{100 * spot.required_chips:.2f}%"
    for outcome in ("fold", "win", "tie", "lose"):
        for key, table in (("icm", spot.equity), ("bounty", spot.bounty), ("chips", spot.chips)):
            assert shortcodes("bounty_spot", [], {**spot_options, "show": f"{key}_{outcome}"}) == f"{table[outcome]:,.2f}"
    m = shortcodes.data.matchups
    weights = class_weights(parse_range("22+,A2s+").weights)
    win, tie, lose = outcomes_vs_range(m["win"], m["tie"], m["loss"], weights)[parse_class("AJo")]
    ev_icm, ev_bounty = spot.ev_parts(win, tie, lose)
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "equity"}) == f"{100 * (win + tie / 2):.2f}%"
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "ev"}) == f"{ev_icm + ev_bounty:+.2f}"
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "ev_icm"}) == f"{ev_icm:+.2f}"
    assert shortcodes("bounty_spot", [], {**spot_options, "show": "ev_bounty"}) == f"{ev_bounty:+.2f}"
    for name, options, message in [
        ("bounty_value", {**field, "show": "odds"}, "show must be"),
        ("bounty_value", {**field, "bounties": "10,10"}, "2 bounties for 3 players"),
        ("bounty_value", {**field, "show": "total", "player": "4"}, "player must be between 1 and 3"),
        ("bounty_spot", {**spot_options, "show": "speed"}, "unknown bounty_spot value"),
        ("bounty_spot", {**spot_options, "blinds": "1"}, "blinds"),
        ("bounty_spot", {**spot_options, "show": "ev", "range": "22+,AsKs"}, "whole classes"),
    ]:
        with pytest.raises(InputError, match=message):
            shortcodes(name, [], options)


def test_the_shover_side_spot_is_the_brute_force_harville_value(shortcodes):
    """side=shover: EV(shove) − EV(fold) from brute-force ICM of the stacks after each outcome, with the call
    frequency and the showdown odds counted from the matchup table by hand (combo pairs, card removal)."""
    from kernels.range_equity import class_weights
    from kernels.ranges import parse_range

    options = {"side": "shover", "stacks": "4000,3000,2000,1000", "payouts": "50,30,20", "blinds": "100,200",
               "shover": "2", "caller": "1", "hand": "A8o", "range": "22+,A2+,K9+,QT+"}
    after = {  # player 2 posts the small blind and shoves into player 1's big blind (3,000 effective)
        "fold": [4100, 2900, 2000, 1000], "steal": [3800, 3200, 2000, 1000],
        "win": [1000, 6000, 2000, 1000], "tie": [4000, 3000, 2000, 1000], "lose": [7000, 0, 2000, 1000],
    }
    # busted, player 2 finishes fourth of four, unpaid; otherwise Harville's orders of all four
    value = {k: _harville_equity(stacks, [50, 30, 20])[1] if stacks[1] else 0.0 for k, stacks in after.items()}
    m, hero = shortcodes.data.matchups, parse_class("A8o")
    weights = class_weights(parse_range("22+,A2+,K9+,QT+").weights)
    pairs = np.array(m["pairs"], dtype=float)[hero]
    call = pairs @ weights / pairs.sum()
    counts = [np.array(m[key], dtype=float)[hero] @ weights for key in ("win", "tie", "loss")]
    win, tie, lose = (c / sum(counts) for c in counts)
    ev = (1 - call) * value["steal"] + call * (win * value["win"] + tie * value["tie"] + lose * value["lose"]) - value["fold"]
    chips = {k: s[1] for k, s in after.items()}
    ev_chips = (1 - call) * chips["steal"] + call * (win * chips["win"] + tie * chips["tie"] + lose * chips["lose"]) - chips["fold"]
    assert shortcodes("bounty_spot", [], {**options, "show": "call"}) == f"{100 * call:.1f}%"
    assert shortcodes("bounty_spot", [], {**options, "show": "ev"}) == f"{ev:+.2f}"
    assert shortcodes("bounty_spot", [], {**options, "show": "ev_chips"}) == f"{ev_chips:+,.0f}"
    with pytest.raises(InputError, match="side=shover shows"):
        shortcodes("bounty_spot", [], {**options, "show": "required"})
