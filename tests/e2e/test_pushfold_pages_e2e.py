"""The n-player push/fold chart pages and the heads-up thresholds page in Chromium: the numbers of
the data files in the cells, keyboard use of the grids and the sortable table, the stack and game
switches, the phone layout (readable, unclipped cells; no sideways page scroll). Runs on the e2e
site's synthetic ``pushfold_charts.json`` / ``pushfold_thresholds.json`` (tests/site_fixtures.py)."""

from __future__ import annotations

import re

import pytest

from generator.site.pushfold_pages import bounty_model_text, frequency_text, group_title, table_path
from kernels.cards import CLASS_NAMES
from test_charts_a11y_e2e import PHONE, active, load, no_sideways_scroll

pytestmark = pytest.mark.e2e


def cell_texts(page, grid: str) -> list[list[str]]:
    """Per cell of ``grid`` (a selector), the texts it shows: the class, then its number(s)."""
    return page.locator(f"{grid} a[data-i]").evaluate_all(
        "links => links.map(a => [...a.querySelectorAll('b, span:not(.visually-hidden)')].map(e => e.textContent))"
    )


def test_chart_page_shows_every_decision_of_the_data(open_page, site_dir, screenshot):
    charts = load(site_dir, "pushfold_charts")
    group = charts["groups"][0]  # 4 players, BB ante, 8 and 12 bb
    chart = group["charts"][1]
    page = open_page(table_path(group, chart["stack"]))
    for position, frequencies in chart["shove"].items():
        cells = cell_texts(page, f"#shove-{position}")
        assert [c[1] for c in cells] == [frequency_text(f) for f in frequencies], position
        largest = group["shove_max"][position]
        assert [c[2] for c in cells] == ["never" if m is None else f"{m:g}+" if m >= 12 else f"≤{m:g}" for m in largest]
    direct = [spot for spot in chart["call"] if "+" not in spot]
    assert page.locator("table.frequency-grid").count() == len(chart["shove"]) + 1  # + the call chart picked
    picker = page.get_by_label("Spot")
    assert picker.locator("option").all_inner_texts() == [f"{s.split(' vs ')[0]} calls {s.split(' vs ')[1]}'s shove" for s in direct]
    for spot in direct:  # each pick draws its chart: frequencies and the largest stack played, as the shove charts
        caller, shover = spot.split(" vs ")
        picker.select_option(label=f"{caller} calls {shover}'s shove")
        cells = cell_texts(page, f"#call-{caller}-{shover}")
        assert [c[1] for c in cells] == [frequency_text(f) for f in chart["call"][spot]]
        largest = group["call_max"][spot]
        assert [c[2] for c in cells] == ["never" if m is None else f"{m:g}+" if m >= 12 else f"≤{m:g}" for m in largest]
    rows = page.locator("table.call-ranges tbody tr")  # every call, overcalls too, in words (what shows without JavaScript)
    assert rows.count() == len(chart["call"])
    first = next(spot for spot in chart["call"] if "+" in spot)
    played = [n for n, f in zip(CLASS_NAMES, chart["call"][first]) if f >= 0.5]
    assert rows.nth(list(chart["call"]).index(first)).locator("td.range").inner_text().startswith(played[0])
    assert page.locator("#nash-conv").inner_text() == f"{chart['nash_conv_bb']:.4f} bb per hand"
    assert "4+-way 0.042%" in page.locator("#pots").inner_text()
    screenshot(page, "pushfold-table-desktop")
    # keyboard: one Tab stop per grid, arrows move, Enter opens the hand page
    page.locator(f"#shove-{group['positions'][0]} a[data-i]").first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert active(page) == {"i": "14", "tag": "A", "grid": True}
    page.keyboard.press("Tab")
    assert active(page)["grid"] and page.evaluate("document.activeElement.closest('table').id") == f"shove-{group['positions'][1]}"
    # the stack switch goes to the other stack's page; the ICM table states its NashConv in % of the pool
    page.get_by_role("navigation", name="Stack").get_by_role("link", name="8", exact=True).click()
    page.wait_for_url(re.compile(re.escape(table_path(group, 8.0)) + "$"))
    icm = charts["groups"][1]
    page = open_page(table_path(icm, 10.0))
    assert page.locator("#nash-conv").inner_text() == f"{icm['charts'][0]['nash_conv_pool_pct']:.4f}% of the prize pool"


def test_chart_pages_on_a_phone(open_page, site_dir, screenshot):
    group = load(site_dir, "pushfold_charts")["groups"][0]
    page = open_page(table_path(group, 12.0), width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    cells = page.locator("table.frequency-grid").first.locator("a[data-i]").evaluate_all(
        "links => links.map(a => [parseFloat(getComputedStyle(a).fontSize), a.scrollWidth <= a.clientWidth, a.scrollHeight <= a.clientHeight])"
    )
    for name, (size, fits_across, fits_down) in zip(CLASS_NAMES, cells):
        assert size >= 12 and fits_across and fits_down, (name, size)
    assert page.locator("table.frequency-grid").first.evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth"), "13 columns fit 390 px"
    grid = page.locator("table.frequency-grid").first
    assert grid.locator(".v-eq").first.is_visible() and grid.locator(".v-max").first.is_hidden()
    page.get_by_text("Largest stack played").click()  # "Cells show": one number a cell on a phone, either one
    assert grid.locator(".v-max").first.is_visible() and grid.locator(".v-eq").first.is_hidden()
    page.get_by_text(re.compile(r"^Frequency at")).click()
    for switch in ("Stack", "Game at 4 players"):  # tap targets of at least 44 px
        heights = page.get_by_role("navigation", name=switch).get_by_role("link").evaluate_all("links => links.map(a => a.getBoundingClientRect().height)")
        assert len(heights) >= 2 and min(heights) >= 44, switch
    page.get_by_role("navigation", name="Game at 4 players").get_by_role("link", name="chip EV", exact=True).click()
    page.wait_for_url(re.compile(re.escape(table_path(load(site_dir, "pushfold_charts")["groups"][2], 12.0)) + "$"))
    page.go_back()
    screenshot(page, "pushfold-table-phone-390")
    jump = page.get_by_role("navigation", name="Jump to a position's chart").get_by_role("link")
    assert min(jump.evaluate_all("links => links.map(a => a.getBoundingClientRect().height)")) >= 44
    jump.first.click()  # one tap: the first position's shove chart is in view
    assert page.locator(f"#shove-{group['positions'][0]}-title").evaluate("h => h.getBoundingClientRect().top") < 844 / 2
    page = open_page("pushfold/tables/index.html", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    screenshot(page, "pushfold-tables-phone-390")
    # Two taps from the index to a table: the player count, then the stack (44 px targets).
    players = page.get_by_role("navigation", name="Players").get_by_role("link", name=str(group["players"]), exact=True)
    assert players.bounding_box()["height"] >= 44
    players.click()
    assert 0 <= page.locator(f"#players-{group['players']}").evaluate("h => h.getBoundingClientRect().top") < 844 / 2
    link = page.get_by_role("navigation", name=f"{group_title(group)}: stacks").get_by_role("link", name=f"{group_title(group)}, 12 bb, chart page")
    assert link.bounding_box()["height"] >= 44
    link.click()
    page.wait_for_url(re.compile(re.escape(table_path(group, 12.0)) + "$"))


def test_thresholds_page_grid_and_sortable_table(open_page, site_dir, screenshot):
    thresholds = load(site_dir, "pushfold_thresholds")
    page = open_page("pushfold/thresholds/index.html")
    block = thresholds["by_ante"][0]
    texts = [c[1] for c in cell_texts(page, "#push-ante-0")]
    for name, text, largest, contiguous in zip(CLASS_NAMES, texts, block["push_max"], block["push_max_contiguous"]):
        expected = "–" if largest is None else "25+" if largest >= block["last_stack"] else f"{largest:.2f}"
        expected += "*" if largest is not None and contiguous != largest else ""
        assert text == expected, name
    screenshot(page, "pushfold-thresholds-desktop")
    table = page.locator("table.threshold-table")
    assert table.locator("tbody tr").count() == 169
    sort = table.get_by_role("button", name="Shove, no ante")
    sort.focus()
    page.keyboard.press("Enter")  # ascending: never-played (–) first, then the smallest
    page.keyboard.press("Enter")  # descending
    assert table.locator("thead th").nth(1).get_attribute("aria-sort") == "descending"
    column = table.locator("tbody tr td:nth-child(2)").evaluate_all("cells => cells.map(c => Number(c.dataset.sort))")
    assert column == sorted((-1 if v is None else v for v in block["push_max"]), reverse=True)
    page = open_page("pushfold/thresholds/index.html", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    cells = page.locator("#push-ante-0 a[data-i]").evaluate_all(
        "links => links.map(a => [parseFloat(getComputedStyle(a).fontSize), a.scrollWidth <= a.clientWidth, a.scrollHeight <= a.clientHeight])"
    )
    for name, (size, fits_across, fits_down) in zip(CLASS_NAMES, cells):
        assert size >= 12 and fits_across and fits_down, (name, size)  # "25+", "11.7" (0.1 bb on a phone), not clipped
    assert page.locator("#push-ante-0").evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth"), "13 columns fit 390 px"
    screenshot(page, "pushfold-thresholds-phone-390")


def test_chart_page_prints_one_grid_per_page_without_switches(open_page, site_dir, screenshot):
    group = load(site_dir, "pushfold_charts")["groups"][0]
    page = open_page(table_path(group, 12.0), width=800)
    page.emulate_media(media="print")
    for hidden in ("header.top nav", "nav.pushfold-pages", ".controls"):
        assert page.eval_on_selector(hidden, "el => getComputedStyle(el).display") == "none", hidden
    breaks = page.locator("section:has(.grid-wrap)").evaluate_all("s => s.map(e => getComputedStyle(e).breakBefore)")
    assert breaks[0] != "page" and set(breaks[1:]) == {"page"}
    assert page.eval_on_selector(".grid td", "el => getComputedStyle(el).printColorAdjust") == "exact"
    screenshot(page, "print-pushfold-table")


def test_a_pko_chart_page_states_its_bounty_model_and_opens_the_solver_on_its_table(open_page, site_dir, screenshot, axe_violations):
    """The PKO chart (4 players, BB ante, bounties of half a stack, half in cash): the model line with the bounty at this
    stack, the game switch between the bounty and bounty-free tables, the solver link carrying the bounties, which the
    solver page finds in the precomputed set (not the bounty-free table of the same stacks). Phone and desktop: no
    sideways scroll, no axe violation."""
    groups = load(site_dir, "pushfold_charts")["groups"]
    pko = next(g for g in groups if g["bounty"] is not None)
    chart = pko["charts"][0]
    assert chart["bounties"] == [6.0] * 4 and pko["bounty_share"] == 0.5
    for width in (390, 1366):
        page = open_page(table_path(pko, 12.0), width=width, height=900)
        assert page.locator("h1").inner_text() == f"{group_title(pko)}: 12 bb"
        model = page.locator("#bounty-model").inner_text()
        assert model.startswith(bounty_model_text(pko, chart["bounties"])) and "6 bb on his head (50% of his stack)" in model
        assert "plus the bounties, in big blinds" in page.locator("p.lead").inner_text()
        no_sideways_scroll(page, width)
        assert axe_violations(page) == [], width
        screenshot(page, f"pushfold-table-pko-{width}")
    games = page.get_by_role("navigation", name="Game at 4 players").get_by_role("link")
    assert "BB ante 1 bb, chip EV, PKO bounties 50% of a stack" in games.all_inner_texts()
    link = page.get_by_role("link", name="Change the stacks in the solver")
    assert link.get_attribute("href").endswith("?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=6,6,6,6&share=50%25")
    link.click()
    page.wait_for_function("document.querySelector('#solver-solution[data-state=drawn]')", timeout=60000)
    assert page.locator("#solver-source").inner_text() == "Precomputed by the build (4p-bba1-chipev-pko50-b50)"
