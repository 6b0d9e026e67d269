"""The n-player push/fold chart pages and the heads-up thresholds page carry the numbers of
``pushfold_charts.json`` / ``pushfold_thresholds.json`` (synthetic fixtures in the documented
format), link to each other from one nav entry, and say "not computed yet" without their data."""

from __future__ import annotations

import html as html_lib
import json
import re
from pathlib import Path

import pytest

from generator.site.pushfold_pages import SOLVER_PRESETS, frequency_text, group_title, range_text, table_path
from generator.site.render import render_site
from generator.site.structure import NAV, pushfold_solver_path, pushfold_tables_path, pushfold_thresholds_path, section_path
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from site_fixtures import pushfold_charts, pushfold_thresholds, site_config, write_pushfold_set, write_synthetic_data

pytestmark = pytest.mark.slow  # heavy module fixtures (a solved chart set, heads-up tables, a built site)


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("pushfold-site")
    write_synthetic_data(site / "data", files=("headsup", "matchups", "pushfold_charts", "pushfold_thresholds"))
    write_pushfold_set(site)
    render_site(site_config(), site)
    return site


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def grid_cells(page: str, grid_id: str) -> list[list[str]]:
    """The texts shown in each cell of the 13×13 grid ``grid_id`` (not a screen reader's label), in class order."""
    table = re.search(rf'<table class="grid[^"]*" id="{grid_id}">(.*?)</table>', page, re.S)
    assert table, f"no grid {grid_id}"
    cells = re.findall(r"<td[^>]*>(.*?)</td>", table.group(1), re.S)
    return [[html_lib.unescape(t) for t in re.findall(r'<(?:b|span)(?! class="visually-hidden")[^>]*>([^<]*)<', cell)] for cell in cells]


def call_spots(page: str) -> dict:
    """The call charts' data embedded in a chart page (the page draws the one a reader picks), by spot."""
    data = re.search(r'<script type="application/json" id="call-spots">(.*?)</script>', page, re.S)
    return {spot["spot"]: spot for spot in json.loads(data.group(1))}


def test_frequency_text_and_range_text():
    assert [frequency_text(f) for f in (0.0, 0.004, 0.37, 0.996, 1.0)] == ["–", "<1", "37", ">99", "100"]
    frequencies = [0.0] * 169
    frequencies[CLASS_NAMES.index("AA")] = 1.0
    frequencies[CLASS_NAMES.index("AKs")] = 0.62
    frequencies[CLASS_NAMES.index("KK")] = 0.4
    frequencies[CLASS_NAMES.index("QQ")] = 0.996  # shown as played, not as ">99%"
    assert range_text(frequencies, 0.5) == "AA, AKs (62%), QQ"
    assert range_text([0.0] * 169, 0.5) == "none"


def test_every_chart_has_a_page_with_its_shove_and_call_frequencies(site):
    document = pushfold_charts()
    for group in document["groups"]:
        for chart in group["charts"]:
            page = read(site, table_path(group, chart["stack"]))
            top = group["stacks"][-1]
            for position, frequencies in chart["shove"].items():
                cells = grid_cells(page, f"shove-{position}")
                assert [c[0] for c in cells] == list(CLASS_NAMES)
                assert [c[1] for c in cells] == [frequency_text(f) for f in frequencies]
                largest = group["shove_max"][position]
                assert [c[2] for c in cells] == ["never" if m is None else f"{m:g}+" if m >= top else f"≤{m:g}" for m in largest]
                share = sum(f * c for f, c in zip(frequencies, CLASS_COMBO_COUNT)) / 1326
                assert f"{position} shoves <span class=\"share\">{100 * share:.1f}% of hands" in page
            assert page.count('class="grid pushfold-grid frequency-grid"') == len(chart["shove"])  # calls: drawn on demand
            embedded = call_spots(page)
            for spot, frequencies in chart["call"].items():  # every call a row of the table, its range in words
                caller, shovers = spot.split(" vs ")
                row = f"<th scope=\"row\">{caller}</th><td>{shovers.replace('+', ' → ')}</td>"
                assert row in html_lib.unescape(page)
                assert html_lib.escape(range_text(frequencies, 0.5)) in page
                if "+" not in shovers:  # a lone shover's caller: also a chart to pick, with the largest stack played
                    assert embedded.pop(spot) == {
                        "spot": spot, "id": f"call-{caller}-{shovers}", "title": f"{caller} calls {shovers}'s shove",
                        "frequencies": frequencies,
                        "largest": ["never" if m is None else f"{m:g}+" if m >= top else f"≤{m:g}" for m in group["call_max"][spot]],
                    }
            assert not embedded
            if chart["nash_conv_bb"] is not None:
                assert f'<dd id="nash-conv">{chart["nash_conv_bb"]:.4f} bb per hand</dd>' in page
            else:
                assert f'<dd id="nash-conv">{chart["nash_conv_pool_pct"]:.4f}% of the prize pool</dd>' in page
            # heads-up (only) the model is the real game, and the page says the NashConv is the real game's
            assert ('<dd id="real-game">the same figure: heads-up the model is the real game' in page) == (group["players"] == 2)
            worst = chart["class_regret"]  # the worst regret of a hand at its decision, where, against the rule
            amount = f"{worst['bb']:.4f} bb" if worst["bb"] is not None else f"{worst['pool_pct']:.4f}% of the prize pool"
            limit = "0.01 bb" if worst["bb"] is not None else "0.01% of the prize pool"
            expected = f"{amount} (A5s, {group['positions'][0]}): within the stopping rule's {limit}"
            assert f'<dd id="class-regret">{expected}</dd>' in html_lib.unescape(page)
            pots = chart["pots"]
            assert f"2-way {100 * pots['2']:.2f}% · 3-way {100 * pots['3']:.2f}% · 4+-way {100 * pots['4+']:.3f}%" in page
            if group["players"] > 2:  # the 3-way table's error, stated in percentage points of equity
                assert f"standard error {100 * document['meta']['threeway']['se_median']:.2f} percentage points of equity" in page
            assert "articles/push-fold-at-a-full-table/index.html" in page and "articles/push-fold-explained/index.html" in page
            for stack in group["stacks"]:  # the stack switch links every stack of the group
                assert f'href="../../../../{table_path(group, stack)}"' in page


def test_the_tables_index_links_every_published_table_by_players(site):
    """Every table of data/pushfold/index.json is one tap away from a players jump: its chart page where the
    build wrote one (in bold), else the solver page prefilled with it (which shows the precomputed solution)."""
    page = html_lib.unescape(read(site, pushfold_tables_path()))
    index = json.loads((site / "data" / "pushfold" / "index.json").read_text())
    assert len(index["groups"]) == len(pushfold_charts()["groups"]) + 1  # + the unequal-stack example
    for players in sorted({g["players"] for g in index["groups"]}):
        assert f'<a href="#players-{players}">{players}</a>' in page and f'<h2 id="players-{players}">{players} players</h2>' in page
    for group in pushfold_charts()["groups"]:
        assert group_title(group) in page
        for stack in group["stacks"]:
            assert f'href="../../{table_path(group, stack)}" aria-label="{group_title(group)}, {stack:g} bb, chart page"><strong>{stack:g}</strong>' in page
    unequal = pushfold_solver_path([15.0, 10.0, 5.0], (0.5, 1), 0.0, False, [65.0, 35.0])
    assert f'href="../../{unequal}"' in page and ">15/10/5</a>" in page and "ICM 65/35, unequal stacks" in page
    assert "Largest NashConv 0.0042 bb" in page and "Largest NashConv 0.0210% of the pool" in page
    assert "worst regret of a hand 0.0061 bb" in page and "above the stopping rule" not in page
    assert "once in 100 deals" in page and "needs the site on a web server" in page


def test_a_pko_chart_page_states_the_bounty_model_and_its_solver_link_carries_the_bounties(site):
    """The PKO chart (4 players, BB ante, bounties of half a stack at chip value, half in cash): its own id and title, the
    model line (the bounty at this stack in bb, the cash share, only a covering stack wins a bounty, bounties left valued
    by chips), the approximation, the solver link with the bounties; the index lists it with its players, by its title;
    a bounty-free chart says nothing of bounties."""
    document = pushfold_charts()
    pko = next(g for g in document["groups"] if g["bounty"] is not None)
    assert table_path(pko, 12.0) == "pushfold/tables/4p-bba1-chipev-pko50-b50/12/index.html"
    page = html_lib.unescape(read(site, table_path(pko, 12.0)))
    assert group_title(pko) == "4 players, BB ante 1 bb, chip EV, PKO bounties 50% of a stack"
    assert f"<h1>{group_title(pko)}: 12 bb</h1>" in page and "Payoff: chips (chip EV) plus the bounties, in big blinds." in page
    model = re.search(r'<p class="method" id="bounty-model">(.*?)</p>', page, re.S).group(1)
    assert model.startswith("Bounties: every player has a bounty of 6 bb on his head (50% of his stack); PKO: 50% of a bounty "
                            "paid in cash at a knockout, 50% added to the winner's own bounty. Only a stack that covers a "
                            "player can win his bounty") and "valued in proportion to chips" in model
    assert "articles/knockout-bounties/index.html" in model and "in a 4+-way all-in a player either wins every pot" in page
    solver = pushfold_solver_path([12.0] * 4, (0.5, 1), 1.0, True, None, [6.0] * 4, 0.5)
    assert solver.endswith("?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=6,6,6,6&share=50%25")
    assert f'href="../../../../{solver}">Change the stacks in the solver' in page
    plain = html_lib.unescape(read(site, table_path(document["groups"][0], 12.0)))
    assert 'id="bounty-model"' not in plain and "PKO bounties 50% of a stack" in plain  # only in the game switch
    index = html_lib.unescape(read(site, pushfold_tables_path()))
    assert f'aria-label="{group_title(pko)}, 12 bb, chart page"' in index and "PKO tables (progressive knockout)" in index


def test_a_chart_page_jumps_to_each_position_in_one_tap(site):
    group = pushfold_charts()["groups"][0]
    page = read(site, table_path(group, group["stacks"][0]))
    jump = re.search(r'<nav class="switch position-pick"[^>]*>(.*?)</nav>', page, re.S).group(1)
    targets = re.findall(r'<a href="#([^"]+)">([^<]+)</a>', jump)
    shovers = list(group["charts"][0]["shove"])
    assert targets[: len(shovers)] == [(f"shove-{p}-title", p) for p in shovers] and ("call-title", "Calls") in targets
    for target, _ in targets:
        assert f'id="{target}"' in page


def test_thresholds_page_has_a_grid_and_a_sortable_row_per_class(site):
    document = pushfold_thresholds()
    page = read(site, pushfold_thresholds_path())
    for block in document["by_ante"]:
        key = f"{block['ante']:g}".replace(".", "_")
        for action in ("push", "call"):
            cells = grid_cells(page, f"{action}-ante-{key}")
            for name, (_, text, short), largest, run in zip(CLASS_NAMES, cells, block[f"{action}_max"], block[f"{action}_max_contiguous"]):
                expected = "–" if largest is None else "25+" if largest >= 25 else f"{largest:.2f}"
                assert text == expected + ("*" if largest is not None and run != largest else ""), name
                assert short == ("–" if largest is None else "25+" if largest >= 25 else f"{largest:.1f}"), name  # a phone's
    rows = re.findall(r'<tr><th scope="row" data-sort="(\d+)">.*?</tr>', page)
    assert rows == [str(i) for i in range(169)]
    aa = re.search(r'<tr><th scope="row" data-sort="0">.*?</tr>', page).group(0)
    values = [v for block in document["by_ante"] for v in (block["push_max"][0], block["call_max"][0])]
    assert re.findall(r'<td data-sort="([^"]+)">', aa) == [str(v) for v in values]
    assert 'class="data sortable threshold-table"' in page and "assets/js/widgets/sortable.js" in page


def test_one_nav_entry_and_links_between_the_push_fold_pages(site):
    assert [key for key, _, _ in NAV].count("pushfold") == 1 and len(NAV) == 9  # with the flop calculator
    pages = (section_path("pushfold"), pushfold_tables_path(), pushfold_thresholds_path(), pushfold_solver_path(),
             table_path(pushfold_charts()["groups"][0], 8.0))
    for path in pages:
        page = read(site, path)
        root = "../" * path.count("/")
        assert f'<a href="{root}{section_path("pushfold")}" aria-current="page">Push/fold</a>' in page  # the menu's entry
        for target in (section_path("pushfold"), pushfold_tables_path(), pushfold_thresholds_path(), pushfold_solver_path()):
            assert f'href="{root}{target}"' in page


def test_solver_page_links_its_presets_and_reads_the_set_only_when_it_exists(site, tmp_path):
    page = read(site, pushfold_solver_path())
    for label, table in SOLVER_PRESETS:
        assert f'<a href="../../{html_lib.escape(pushfold_solver_path(**table))}">{label}</a>' in page
    assert pushfold_solver_path(**SOLVER_PRESETS[0][1]).endswith("?stacks=20,15,10,5&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20")
    assert 'data-worker="../../assets/js/workers/pushfold-worker.js"' in page and 'data-data="../../data/"' in page
    assert 'data-index="../../data/pushfold/index.json"' in page
    write_synthetic_data(tmp_path / "data", files=("headsup", "matchups"))
    render_site(site_config(), tmp_path)
    assert "data-index=" not in read(tmp_path, pushfold_solver_path())  # no data/pushfold/index.json: not asked for


def test_missing_data_says_not_computed_with_the_command(tmp_path):
    write_synthetic_data(tmp_path / "data", files=("headsup",))
    render_site(site_config(), tmp_path)
    assert "not been computed yet. Run <code>allin compute pushfold-charts</code>" in read(tmp_path, pushfold_tables_path())
    assert "not been computed yet. Run <code>allin compute pushfold</code>" in read(tmp_path, pushfold_thresholds_path())
    assert not (tmp_path / "pushfold" / "tables" / "4p-bba1-chipev").exists()
    assert "not been computed yet. Run <code>allin compute headsup</code>" in read(tmp_path, pushfold_solver_path())


def test_no_broken_links_from_the_push_fold_pages(site):
    from test_links import broken_links

    assert [line for line in broken_links(site, "/") if line.startswith("pushfold/")] == []


def test_a_heads_up_chart_page_says_its_exploitability_is_the_real_games(tmp_path):
    """Heads-up the model is the real game (exact matchups, the two hands' card removal): its page says so; the
    pages of 3+ players (the synthetic set above) do not."""
    from generator.data.datafiles import publish

    write_synthetic_data(tmp_path / "data", files=("headsup", "matchups", "pushfold_thresholds"))
    document = pushfold_charts(games=((2, [10.0], 0.0, False, None),))
    publish(tmp_path / "data", "pushfold_charts", document)
    render_site(site_config(), tmp_path)
    page = read(tmp_path, table_path(document["groups"][0], 10.0))
    assert '<dt>In the real game</dt><dd id="real-game">the same figure: heads-up the model is the real game' in page
    assert '<dd id="nash-conv">0.0042 bb per hand</dd>' in page
