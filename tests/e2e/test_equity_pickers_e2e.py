"""The equity calculator's pickers and the hand pages' board calculator in headless Chromium, at 1280 and
390 px: the 13×13 range picker (drag, weights, top x%, keyboard) in sync with the text, the 52-card
picker (cards in use unavailable), a shared URL, the hand pages, axe-core, and a site under a sub-path."""

from __future__ import annotations

import re
from urllib.parse import quote

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.data.sitedata import SiteData
from generator.compute.stages.headsup import headsup_results
from kernels.cards import CLASS_NAMES, COMBO_CLASS, N_CLASSES, parse_cards
from kernels.range_equity import enumerate_equity, live_weights
from kernels.ranges import normalise, parse_range, ranking_from_equity

pytestmark = pytest.mark.e2e
WIDTHS = (1280, 390)


def url(*ranges, board=""):
    return "equity/index.html?" + "&".join(f"p={quote(r, safe='')}" for r in ranges) + (f"&board={board}" if board else "")


def exact_equity(ranges, board):
    b = parse_cards(board)
    return enumerate_equity(live_weights([parse_range(r).weights for r in ranges], b, ()), b, (), evaluator_tables()).equity


def wait_for_result(page, selector="#equity-method", timeout=60000):
    page.wait_for_function(f"document.querySelector('{selector}').dataset.method !== undefined", timeout=timeout)
    return page.locator(selector).get_attribute("data-method")


def shown_equities(page, cells="#equity-table td.equity"):
    return [float(v) for v in page.locator(cells).evaluate_all("cells => cells.map(c => c.dataset.equity)")]


def seat(page, k):
    return page.locator("#seats > li").nth(k)


def open_picker(page, k):
    seat(page, k).locator("summary").click()
    return seat(page, k).locator(".range-grid")


def pressed(grid, state="true"):
    return grid.locator(f'.rc[aria-pressed="{state}"]').evaluate_all("cells => cells.map(c => c.dataset.class)")


def shown_count(grid, name):
    """The combo count a cell shows (its text before the visually hidden detail)."""
    return grid.locator(f'[data-class="{name}"] .c').evaluate("c => c.childNodes.length > 1 ? c.childNodes[0].textContent : ''")


def whole_classes(weights):
    return [CLASS_NAMES[c] for c in range(N_CLASSES) if np.all(weights[COMBO_CLASS == c] == 1)]


def centre(locator):
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize("width", WIDTHS)
def test_the_range_picker_and_the_text_stay_in_sync(open_page, screenshot, width):
    page = open_page(url("AsKs", "QQ+,AKo"), width=width)
    grid = open_picker(page, 1)
    text = seat(page, 1).locator("input[name=p]")
    assert pressed(grid) == ["AA", "AKo", "KK", "QQ"]
    assert shown_count(grid, "AKo") == "12" and shown_count(grid, "QQ") == "6" and shown_count(grid, "AKs") == ""
    # drag down the diagonal from JJ to 99: the stroke paints every class it crosses
    page.mouse.move(*centre(grid.locator('[data-class="JJ"]')))
    page.mouse.down()
    page.mouse.move(*centre(grid.locator('[data-class="TT"]')), steps=4)
    page.mouse.move(*centre(grid.locator('[data-class="99"]')), steps=4)
    page.mouse.up()
    assert text.input_value() == normalise(parse_range("QQ+,AKo,JJ-99").weights)
    # a click on a painted class clears it
    grid.locator('[data-class="AKo"]').click()
    assert text.input_value() == normalise(parse_range("JJ-99,QQ+").weights)
    # keyboard: arrows move inside the grid, Space toggles; a lower paint weight
    seat(page, 1).locator("select").select_option("0.5")
    grid.locator('[data-class="AA"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert text.input_value() == normalise(parse_range("JJ-99,QQ+,AKs:0.5").weights)
    assert pressed(grid, "mixed") == ["AKs"]
    assert grid.get_by_role("button", name=re.compile(r"^AKs\s+4\s+of 4 combos, weight 50%$")).count() == 1
    assert grid.get_by_role("button", name=re.compile(r"^AQs\s+0 of 4 combos$")).count() == 1
    # the text drives the picker
    text.fill("T9s-76s, 0.5(KQo), AhAd")
    page.wait_for_function("document.querySelector('#seats > li:nth-child(2) [data-class=\"KQo\"]').getAttribute('aria-pressed') === 'mixed'")
    assert pressed(grid) == ["T9s", "98s", "87s", "76s"] and pressed(grid, "mixed") == ["AA", "KQo"]
    assert shown_count(grid, "AA") == "1"
    screenshot(page, f"equity-range-picker-{width}")
    # the top-x% slider writes "x%", parsed with the documented ranking (heads-up equity vs a random hand)
    slider = seat(page, 1).locator('input[type="range"]')
    slider.focus()
    page.keyboard.press("Home")
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    assert text.input_value() == "15%"
    results, _ = headsup_results(progress=False)
    top = parse_range("15%", ranking_from_equity(results.vs_random_equity())).weights
    page.wait_for_function(f"document.querySelectorAll('#seats > li:nth-child(2) .rc[aria-pressed=\"true\"]').length === {len(whole_classes(top))}")
    assert pressed(grid) == whole_classes(top)
    assert seat(page, 1).locator(".picker-summary").inner_text().startswith(f"{int(top.sum())} combos")
    text.fill("7.5%")
    page.wait_for_function("document.querySelector('#seats > li:nth-child(2) output').textContent === '7.5%'")
    assert slider.input_value() == "7.5"


def test_a_finger_paints_by_dragging_at_390_px(open_page):
    page = open_page(url("AsKs", "AA"), width=390)
    grid = open_picker(page, 1)
    touch = page.context.new_cdp_session(page)
    points = [centre(grid.locator(f'[data-class="{name}"]')) for name in ("KK", "QQ", "JJ")]
    for kind, (x, y) in zip(("touchStart", "touchMove", "touchMove"), points):
        touch.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [{"x": x, "y": y}]})
    touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.wait_for_function("document.querySelector('#seats > li:nth-child(2) input[name=p]').value !== 'AA'")
    assert seat(page, 1).locator("input[name=p]").input_value() == normalise(parse_range("JJ+").weights)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_card_picker_offers_only_free_cards(open_page, screenshot, width):
    page = open_page(url("AsKs", "QQ+"), width=width)
    page.locator("details[data-cards=board] summary").click()
    board = page.locator("details[data-cards=board] .card-grid")
    assert board.locator("[data-card='As']").get_attribute("aria-disabled") == "true"
    for card in ("Kh", "8d", "3c"):
        board.locator(f"[data-card='{card}']").click()
    assert page.input_value("#board") == "Kh8d3c"
    page.locator("details[data-cards=dead] summary").click()
    dead = page.locator("details[data-cards=dead] .card-grid")
    assert [dead.locator(f"[data-card='{c}']").get_attribute("aria-disabled") for c in ("Kh", "Ks", "Qs")] == ["true", "true", "false"]
    # keyboard: from A♠ one row down is A♥; Enter picks it, and the board can no longer take it
    dead.locator("[data-card='As']").focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    assert page.input_value("#dead") == "Ah"
    assert board.locator("[data-card='Ah']").get_attribute("aria-disabled") == "true"
    dead.locator("[data-card='As']").click(force=True)  # in use by player 1: nothing happens
    assert page.input_value("#dead") == "Ah"
    for card in ("2c", "2d"):
        board.locator(f"[data-card='{card}']").click()
    assert page.input_value("#board") == "Kh8d3c2c2d"
    assert board.locator("[data-card='7s']").get_attribute("aria-disabled") == "true"  # five cards: full
    page.fill("#board", "Kh 8d")
    assert board.locator('[aria-pressed="true"]').evaluate_all("b => b.map(x => x.dataset.card)") == ["Kh", "8d"]
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-error').textContent.includes('0, 3, 4 or 5')")
    screenshot(page, f"equity-card-picker-{width}")


def test_a_painted_spot_shared_by_url_gives_the_same_exact_result(open_page, base_url):
    page = open_page("equity/index.html")
    grid = open_picker(page, 1)
    seat(page, 1).locator("button", has_text="Clear").click()
    for name in ("QQ", "JJ", "AQs"):
        grid.locator(f'[data-class="{name}"]').click()
    page.locator("details[data-cards=board] summary").click()
    for card in ("Kh", "8d", "3c"):
        page.locator(f"details[data-cards=board] [data-card='{card}']").click()
    assert page.url.endswith("equity/index.html?p=AsKs&p=QQ-JJ%2CAQs&board=Kh8d3c")  # before any Compute
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-method').textContent.startsWith('Exact:')", timeout=60000)
    expected = exact_equity(("AsKs", "AQs,QQ,JJ"), "Kh8d3c")
    np.testing.assert_allclose(shown_equities(page), expected, rtol=0, atol=1e-15)
    again = open_page(page.url.removeprefix(base_url))
    assert wait_for_result(again) == "enumeration"
    assert [i.input_value() for i in again.locator("#seats input[name=p]").all()] == ["AsKs", "QQ-JJ,AQs"]
    assert shown_equities(again) == shown_equities(page)


def test_seats_are_added_and_removed_by_keyboard(open_page):
    page = open_page(url("AA", "KK"), width=390)
    for _ in range(8):
        page.locator("#add-seat").focus()
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.value") == "random"  # the new seat's field
    assert page.locator("#seats input[name=p]").count() == 10
    assert page.locator("#add-seat").is_disabled()
    seat(page, 2).get_by_role("button", name="Remove player 3").focus()
    page.keyboard.press("Enter")
    assert page.locator("#seats label").all_inner_texts() == [f"Player {k}" for k in range(1, 10)]
    seat(page, 1).locator("input[name=p]").fill("AKx")
    assert seat(page, 1).locator(".seat-error").inner_text().startswith('token "AKx" (column 1):')


@pytest.mark.parametrize(("width", "scheme"), [(1280, "light"), (390, "dark")])
def test_no_axe_violations_with_the_pickers_open(open_page, axe_violations, width, scheme):
    page = open_page(url("AsKs", "QQ+,0.5(AKo)", "random", board="Kh8d3c"), width=width, scheme=scheme)
    wait_for_result(page)
    open_picker(page, 1)
    page.locator("details[data-cards=board] summary").click()
    page.locator("details[data-cards=dead] summary").click()
    assert axe_violations(page) == []
    # tap targets: every picker cell at least 24 × 24 CSS px (WCAG 2.2 target size), also at 390 px
    sizes = page.locator(".range-grid .rc, .card-grid .card").evaluate_all("bs => bs.map(b => [b.offsetWidth, b.offsetHeight])")
    assert len(sizes) == 169 + 2 * 52 and min(min(s) for s in sizes) >= 24
    hand = open_page("hands/AKs/index.html", width=width, scheme=scheme)
    hand.locator("#hand-equity summary").click()
    wait_for_result(hand, "#hand-method")
    assert axe_violations(hand) == []


@pytest.mark.parametrize("width", WIDTHS)
def test_a_hand_page_against_random_opponents_on_a_picked_board(open_page, site_dir, screenshot, width):
    page = open_page("hands/AKs/index.html", width=width)
    tables = SiteData.load(site_dir / "data").tables
    assert wait_for_result(page, "#hand-method") == "table"
    assert shown_equities(page, "#hand-result td.equity") == [tables[2].equity[CLASS_NAMES.index("AKs")]]
    page.select_option("#hand-opponents", "2")
    page.wait_for_function("document.querySelector('#hand-method').dataset.method === 'table'")
    assert shown_equities(page, "#hand-result td.equity") == [tables[3].equity[CLASS_NAMES.index("AKs")]]
    page.select_option("#hand-opponents", "1")
    page.locator("#hand-equity summary").click()
    for card in ("Kh", "8d", "3c"):
        page.locator(f"#hand-equity [data-card='{card}']").click()
    page.click("#hand-compute")
    page.wait_for_function("document.querySelector('#hand-method').dataset.method === 'enumeration'", timeout=60000)
    np.testing.assert_allclose(shown_equities(page, "#hand-result td.equity"), exact_equity(("AKs", "random"), "Kh8d3c")[:1], rtol=0, atol=1e-15)
    assert page.locator("#hand-result td.ci").inner_text() == "exact"
    screenshot(page, f"hand-board-{width}")
    page.fill("#hand-board", "Kh8")
    page.click("#hand-compute")
    assert page.locator("#hand-error").inner_text() == "Board: cards are two characters each (e.g. Kh8d3c)"
    page.fill("#hand-board", "Kh8d3c")
    # nine opponents are sampled: running estimates (± CI) show before the end, marked partial
    page.evaluate("""() => new MutationObserver(() => {
      if (document.querySelector('#hand-result').dataset.state === 'partial' && !window.handPartial) {
        window.handPartial = { method: document.querySelector('#hand-method').textContent,
          ci: document.querySelector('#hand-result td.ci').textContent };
      }
    }).observe(document.querySelector('#hand-result'), { attributes: true })""")
    page.select_option("#hand-opponents", "9")
    page.wait_for_function("window.handPartial !== undefined", timeout=60000)
    running = page.evaluate("window.handPartial")
    assert running["method"].startswith("Sampling…") and re.fullmatch(r"± \d+\.\d\d%", running["ci"]), running
    screenshot(page, f"hand-running-{width}")
    page.click("#hand-compute")  # again, to cancel it
    page.locator("#hand-cancel").wait_for(state="visible")
    page.click("#hand-cancel")
    assert page.locator("#hand-method").inner_text() == "Cancelled."
    page.locator("a.equity-link").click()
    page.wait_for_url("**/equity/index.html?p=AKs&" + "&".join(["p=random"] * 9) + "&board=Kh8d3c")
    assert page.input_value("#board") == "Kh8d3c"


def test_the_site_works_under_a_sub_path(open_sub_path, sub_path_origin):
    page = open_sub_path("hands/AKs/index.html")
    page.locator("a.equity-link").click()
    page.wait_for_url(f"{sub_path_origin}/atlas/equity/index.html?p=AKs&p=random")
    page.fill("#board", "Kh8d3c")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-method').textContent.startsWith('Exact:')", timeout=60000)
    np.testing.assert_allclose(shown_equities(page), exact_equity(("AKs", "random"), "Kh8d3c"), rtol=0, atol=1e-15)


def test_results_fit_a_phone_without_sideways_scrolling(open_page, screenshot):
    """Six columns at 390 px, with a long range in the range column: every figure visible."""
    page = open_page(url("AsKs", "QQ+,AKo,AQs,T9s-76s", "random"), width=390)
    assert wait_for_result(page) in ("enumeration", "monte carlo")
    scroll = page.locator("#equity-table").locator("xpath=..")
    assert scroll.evaluate("el => el.scrollWidth <= el.clientWidth"), "the results table scrolls sideways at 390 px"
    screenshot(page, "equity-results-390")


@pytest.mark.parametrize("width", [390, 1366])
def test_the_picker_writes_ranges_back_compactly_and_its_slider_shows_the_size(open_page, screenshot, width):
    """One click on a loaded QQ+ writes "QQ+,KQo" back (runs, not AA,KK,KQo,QQ); the slider and its
    reading show the loaded range's size (18 combos: 1.4%), not 0%."""
    page = open_page(url("AsKs", "QQ+"), width=width)
    grid = open_picker(page, 1)
    text = seat(page, 1).locator("input[name=p]")
    slider, reading = seat(page, 1).locator("input[type=range]"), seat(page, 1).locator("output")
    assert reading.inner_text() == "1.4%" and slider.input_value() == "1.5"
    grid.locator('[data-class="KQo"]').click()
    assert text.input_value() == "QQ+,KQo"
    assert reading.inner_text() == "2.3%"  # 30 of 1,326 combos
    text.fill("JJ-99, ATs+, A9s-A5s, 0.5(KQo)")
    page.wait_for_function("document.querySelectorAll('#seats > li:nth-child(2) .rc[aria-pressed=\"mixed\"]').length === 1")
    grid.locator('[data-class="22"]').click()
    assert text.input_value() == "JJ-99,22,A5s+,KQo:0.5"  # ATs+ and A9s-A5s are one run
    screenshot(page, f"equity-picker-compact-{width}")
