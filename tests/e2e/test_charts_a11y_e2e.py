"""The charts as a keyboard, phone and screen-reader user meets them: one Tab stop per grid with arrow
keys, the table view with every confidence interval, choices kept across player counts, a tooltip the
mouse can reach, the hand page's matchup grid and table, the push/fold stack selector."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kernels.cards import CLASS_NAMES, parse_class
from kernels.multiway.control_variates import Z_975

pytestmark = pytest.mark.e2e

PHONE = 390


def load(site_dir: Path, name: str) -> dict:
    return json.loads((site_dir / "data" / f"{name}.json").read_text(encoding="utf-8"))


def active(page) -> dict:
    return page.evaluate("({ i: document.activeElement.dataset.i, tag: document.activeElement.tagName, grid: !!document.activeElement.closest('table.grid') })")


def box(locator) -> dict:
    return locator.bounding_box()


def no_sideways_scroll(page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(f"[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > {width} + 0.5 && !e.closest('.grid-wrap') && e.getClientRects().length).map(e => e.tagName + '.' + e.className)")
    assert wide == []


def test_chart_grid_is_one_tab_stop_with_arrows_home_end_and_enter(open_page):
    page = open_page("charts/6/index.html")
    links = page.locator("table.grid a[data-i]")
    assert links.count() == 169
    assert page.locator('table.grid a[tabindex="0"]').count() == 1 and page.locator('table.grid a[tabindex="-1"]').count() == 168
    page.focus("#view-grid")
    page.keyboard.press("Tab")
    assert active(page) == {"i": "0", "tag": "A", "grid": True}
    page.keyboard.press("Tab")  # out of the grid in one step (to the tooltip's page link)
    assert not active(page)["grid"]
    page.keyboard.press("Shift+Tab")
    assert active(page)["i"] == "0"
    steps = [("ArrowUp", "0"), ("ArrowLeft", "0"), ("ArrowRight", "1"), ("ArrowDown", "14"), ("End", "25"), ("Home", "13"),
             ("Control+End", "168"), ("ArrowRight", "168"), ("ArrowDown", "168"), ("Control+Home", "0")]
    for key, expected in steps:
        page.keyboard.press(key)
        assert active(page)["i"] == expected, key
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowRight")  # KK
    assert "KK · 6 players" in page.locator("#tip").inner_text()
    # the grid remembers its cell: Tab away and back lands on KK
    page.keyboard.press("Tab")
    page.keyboard.press("Shift+Tab")
    assert active(page)["i"] == "14"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"hands/KK/index.html$"))


def test_rank_mode_and_table_view_survive_switching_player_count(open_page):
    page = open_page("charts/4/index.html")
    page.locator('label[for="mode-rank"]').click()
    page.locator('label[for="view-table"]').click()
    assert re.search(r"\?mode=rank&view=table$", page.url)
    page.get_by_role("navigation", name="Number of players").get_by_role("link", name="8", exact=True).click()
    page.wait_for_url(re.compile(r"charts/8/index.html\?mode=rank&view=table$"))
    assert page.locator("#mode-rank").is_checked() and page.locator("#view-table").is_checked()
    assert page.locator("#chart-table").is_visible() and not page.locator("table.grid").is_visible()
    page.locator('label[for="view-grid"]').click()
    assert page.locator('a[data-i="0"] .v-rank').is_visible() and not page.locator('a[data-i="0"] .v-eq').is_visible()
    assert page.url.endswith("charts/8/index.html?mode=rank")


def test_tooltip_link_can_be_reached_with_the_mouse(open_page):
    page = open_page("charts/6/index.html")
    cell = page.locator(f'a[data-i="{parse_class("KTs")}"]')
    start = box(cell)
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert "KTs · 6 players" in tip.inner_text()
    link = tip.get_by_role("link")
    end = box(link)
    # glide from the cell onto the link as a hand would: every pointer event on the way is fired
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=25)
    assert tip.is_visible() and "KTs · 6 players" in tip.inner_text()
    page.mouse.click(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2)
    page.wait_for_url(re.compile(r"hands/KTs/index.html$"))


def test_table_view_shows_every_interval_and_sorts_by_keyboard(open_page, site_dir, screenshot):
    block = load(site_dir, "multiway")["by_players"]["6"]
    page = open_page("charts/6/index.html?view=table")
    table = page.get_by_role("table", name=re.compile("All 169 starting hands at 6 players"))
    assert table.is_visible()
    rows = table.locator("tbody tr")
    assert rows.count() == 169
    order = sorted(range(169), key=lambda i: (-block["equity"][i], i))
    assert rows.locator("th").all_inner_texts() == [CLASS_NAMES[i] for i in order]
    i = parse_class("T9s")
    half = Z_975 * block["se_equity"][i]
    row = table.locator(f'tbody tr[data-i="{i}"]')
    cells = row.locator("td").all_inner_texts()
    expected_ci = f"{100 * (block['equity'][i] - half):.2f}%\u00a0– {100 * (block['equity'][i] + half):.2f}%"
    assert cells == [str(order.index(i) + 1), f"{100 * block['equity'][i]:.2f}%", expected_ci,
                     f"{100 * block['win'][i]:.2f}%", f"{100 * block['tie'][i]:.2f}%"]

    hand = table.get_by_role("button", name="Hand")
    hand.focus()
    page.keyboard.press("Enter")
    assert rows.locator("th").all_inner_texts() == list(CLASS_NAMES)
    assert hand.evaluate("b => b.closest('th').getAttribute('aria-sort')") == "ascending"
    page.keyboard.press("Space")
    assert rows.locator("th").all_inner_texts() == list(reversed(CLASS_NAMES))
    assert hand.evaluate("b => b.closest('th').getAttribute('aria-sort')") == "descending"
    table.get_by_role("button", name="Tie").click()
    ties = [float(t.rstrip("%")) for t in rows.locator("td.tie").all_inner_texts()]
    assert ties == sorted(ties) and ties[0] == round(100 * min(block["tie"]), 2)
    screenshot(page, "chart-table-desktop")

    page.set_viewport_size({"width": PHONE, "height": 800})
    no_sideways_scroll(page, PHONE)
    assert all(box(link)["height"] >= 44 or box(row)["height"] >= 44 for row, link in [(rows.nth(k), rows.nth(k).locator("a")) for k in (0, 80, 168)])
    screenshot(page, "chart-table-phone-390")


@pytest.mark.parametrize("players", [2, 6])
def test_phone_chart_shows_numbers_and_big_controls(open_page, site_dir, screenshot, players):
    page = open_page(f"charts/{players}/index.html", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    equity = (load(site_dir, "headsup")["equity"] if players == 2 else load(site_dir, "multiway")["by_players"]["6"]["equity"])
    shown = page.locator("table.grid .v-short")
    assert all(shown.nth(i).is_visible() for i in (0, 84, 168))
    assert shown.all_inner_texts() == [f"{100 * e:.0f}" for e in equity]
    assert min(float(page.locator("table.grid a").nth(i).evaluate("a => getComputedStyle(a).fontSize").rstrip("px")) for i in (0, 168)) >= 10
    switch = page.get_by_role("navigation", name="Number of players").get_by_role("link")
    boxes = [box(switch.nth(k)) for k in range(switch.count())]
    assert all(b["width"] >= 44 and b["height"] >= 44 for b in boxes)
    rows = sorted({round(b["y"]) for b in boxes})
    assert len(rows) == 2 and sum(round(b["y"]) == rows[1] for b in boxes) >= 4  # two even rows, "10" not alone
    for label in ("mode-eq", "mode-rank", "view-grid", "view-table"):
        b = box(page.locator(f'label[for="{label}"]'))
        assert b["width"] >= 44 and b["height"] >= 44
    legend = page.locator(".legend")
    lower, higher = box(legend.locator(".legend-eq").first), box(legend.locator(".legend-eq").last)
    bands = box(legend.locator(".legend-bands"))
    assert abs(lower["y"] - higher["y"]) < 2 and bands["y"] > higher["y"] + higher["height"] - 1  # scale on one line, W/T/L below
    page.locator('label[for="mode-rank"]').tap()
    assert page.locator('a[data-i="0"] .v-rank').is_visible() and not page.locator('a[data-i="0"] .v-short').is_visible()
    screenshot(page, f"chart-phone-390-{players}")


def test_hand_page_matchup_grid_and_table(open_page, site_dir, screenshot):
    matchups = load(site_dir, "matchups")
    hero = parse_class("AKs")
    page = open_page("hands/AKs/index.html")
    grid = page.get_by_role("table", name=re.compile("AKs heads-up against each of the 169 classes"))
    cells = grid.locator("a[data-i]")
    assert cells.count() == 169 and grid.locator('a[tabindex="0"]').count() == 1
    qq = parse_class("QQ")
    label = cells.nth(qq).inner_text()  # the visible text; the name is the hidden label
    assert "QQ" in label
    name = cells.nth(qq).evaluate("a => a.querySelector('.visually-hidden').textContent")
    assert name.startswith(f"AKs against QQ: equity {100 * matchups['equity'][hero][qq]:.1f}%")
    cells.nth(0).focus()
    for key in ("ArrowDown", "ArrowDown", "ArrowRight", "ArrowRight"):
        page.keyboard.press(key)
    assert active(page)["i"] == str(qq)
    screenshot(page, "hand-desktop")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"matchups/index.html\?a=AKs&b=QQ$"))
    page.locator(".big[data-equity]").wait_for()

    page = open_page("hands/AKs/index.html", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    table = page.get_by_role("table", name="Every heads-up matchup")
    rows = table.locator("tbody tr")
    assert rows.count() == 169
    equity = [float(v) for v in rows.locator("td:nth-child(2)").evaluate_all("cells => cells.map(c => c.dataset.sort)")]
    assert equity == sorted((matchups["equity"][hero][j] for j in range(169)), reverse=True)
    table.get_by_role("button", name="Against").click()
    assert rows.locator("th").all_inner_texts() == list(CLASS_NAMES)
    assert rows.locator("td:nth-child(2)").all_inner_texts() == [f"{100 * matchups['equity'][hero][j]:.2f}%" for j in range(169)]
    screenshot(page, "hand-phone-390")


@pytest.mark.parametrize("hand", ["72o", "AKs", "22"])
def test_hand_pages_fit_a_phone_with_readable_chart_labels(open_page, hand):
    """The by-players table of a weak hand (long intervals, many samples) used to widen the page by 9 px, and the
    line chart's labels, drawn 640 units wide, read 8 px tall at 390 px."""
    page = open_page(f"hands/{hand}/index.html", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    heights = page.locator("svg.line-chart text").evaluate_all("texts => texts.map(t => t.getBoundingClientRect().height)")
    assert len(heights) >= 10 and min(heights) >= 11, heights


def test_hand_page_counts_samples_not_deals(open_page, site_dir):
    page = open_page("hands/AKs/index.html")
    headers = page.locator("table.by-players thead th").all_inner_texts()
    assert headers[-1] == "Samples" and "Deals" not in headers
    samples = load(site_dir, "multiway")["by_players"]["6"]["samples"][parse_class("AKs")]
    assert page.locator("table.by-players tbody tr").nth(4).locator("td").last.inner_text() == f"{samples:,}"
    page = open_page("charts/6/index.html")
    page.locator('a[data-i="1"]').hover()
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert re.search(rf"Samples\s+{samples:,}", tip.inner_text()) and "Deals" not in tip.inner_text()


def test_pushfold_stack_selector(open_page, site_dir, screenshot):
    pushfold = load(site_dir, "pushfold")
    page = open_page("pushfold/index.html?stack=10")
    select = page.get_by_label("Highlight the ranges at")
    assert select.input_value() == "10"

    def check(stack: float) -> None:
        k = pushfold["stacks"].index(stack)
        for key, chart in (("push", "#push-chart"), ("call", "#call-chart")):
            out = page.locator(f"{chart} td.cell").evaluate_all("cells => cells.map(c => c.classList.contains('out'))")
            assert out == [f < pushfold["meta"]["played_threshold"] for f in pushfold[key][k]], key
        summary = page.locator("#stack-summary").inner_text()
        assert f"pushes {100 * pushfold['push_share'][k]:.1f}%" in summary and f"calls with {100 * pushfold['call_share'][k]:.1f}%" in summary

    check(10.0)
    screenshot(page, "pushfold-10bb-desktop")
    select.select_option("24.5")
    check(24.5)
    assert page.url.endswith("pushfold/index.html?stack=24.5")
    select.select_option("")
    assert page.locator("td.cell.out").count() == 0 and page.url.endswith("pushfold/index.html")

    page = open_page("pushfold/index.html?stack=10", width=PHONE, height=844)
    no_sideways_scroll(page, PHONE)
    cells = page.locator("#push-chart a[data-i]").evaluate_all(
        "links => links.map(a => [parseFloat(getComputedStyle(a).fontSize), a.scrollWidth <= a.clientWidth, a.scrollHeight <= a.clientHeight])"
    )
    assert len(cells) == 169
    for name, (size, fits_across, fits_down) in zip(CLASS_NAMES, cells):
        assert size >= 12 and fits_across and fits_down, (name, size)  # as the equity charts; not clipped ("24.5")
    assert page.locator("#push-chart").evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth"), "13 columns fit 390 px"
    screenshot(page, "pushfold-10bb-phone-390")
