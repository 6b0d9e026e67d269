"""The equity calculator in headless Chromium: exact answers equal Python's, the table path, Monte Carlo
with intervals, bad input named like the CLI, a shared URL, cancelling, and the navigation link."""

from __future__ import annotations

import re
from urllib.parse import quote

import numpy as np
import pytest

from generator.evaluator_tables import evaluator_tables
from generator.stages.headsup import headsup_results
from kernels.cards import parse_cards
from kernels.range_equity import enumerate_equity, live_weights, range_equity
from kernels.ranges import parse_range, ranking_from_equity

pytestmark = pytest.mark.e2e


def url(*ranges, board="", dead=""):
    query = "&".join(f"p={quote(r, safe='')}" for r in ranges)
    return f"equity/index.html?{query}" + (f"&board={board}" if board else "") + (f"&dead={dead}" if dead else "")


def wait_for_result(page, timeout=30000):
    page.wait_for_function("document.querySelector('#equity-method').dataset.method !== undefined", timeout=timeout)
    return page.locator("#equity-method").get_attribute("data-method")


def shown_equities(page) -> list[float]:
    return [float(v) for v in page.locator("#equity-table td.equity").evaluate_all("cells => cells.map(c => c.dataset.equity)")]


def test_range_against_range_on_a_flop_equals_python(open_page, screenshot):
    ranges, board, dead = ("QQ+,AK", "JJ-99,0.5(AQs)", "T9s"), "Kh8d3c", "2s"
    page = open_page(url(*ranges, board=board, dead=dead))
    assert wait_for_result(page) == "enumeration"
    b, d = parse_cards(board), parse_cards(dead)
    expected = enumerate_equity(live_weights([parse_range(r).weights for r in ranges], b, d), b, d, evaluator_tables())
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)
    assert "Exact:" in page.locator("#equity-method").inner_text()
    assert page.locator("#equity-table td.ci").all_inner_texts() == ["exact"] * 3
    screenshot(page, "equity-flop")


def test_preflop_class_ranges_come_from_the_table(open_page):
    page = open_page(url("QQ+,AK", "15%"))
    assert wait_for_result(page) == "table"
    results, _ = headsup_results(progress=False)
    ranking = ranking_from_equity(results.vs_random_equity())
    expected = range_equity([parse_range(r, ranking).weights for r in ("QQ+,AK", "15%")], (), (), evaluator_tables(), results)
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)


def test_three_players_sample_with_intervals(open_page):
    page = open_page(url("AhAd", "random", "random", board="KsQsJs"))
    assert wait_for_result(page, timeout=60000) == "monte carlo"
    equities = shown_equities(page)
    assert sum(equities) == pytest.approx(1.0, abs=1e-12)
    halves = [float(t.removeprefix("± ").rstrip("%")) / 100 for t in page.locator("#equity-table td.ci").all_inner_texts()]
    assert all(0 < h <= 1.96e-3 + 5e-5 for h in halves)
    # AhAd against two random hands on KsQsJs: 52.68% ± 0.14% (allin equity, 458,752 deals); 5σ of both
    assert abs(equities[0] - 0.526812) < 5 * np.hypot(halves[0] / 1.96, 0.000721)


def test_bad_input_names_the_range_token_and_column(open_page, screenshot):
    page = open_page(url("AsKs", "QQ+,AKx"))
    error = page.locator("#equity-error")
    page.wait_for_function("document.querySelector('#equity-error').textContent !== ''")
    assert error.inner_text().startswith('Player 2: token "AKx" (column 5):')
    assert page.locator("#seats input[name=p]").nth(1).get_attribute("aria-invalid") == "true"
    screenshot(page, "equity-error")
    page.locator("#seats input[name=p]").nth(1).fill("AA")
    page.fill("#board", "AhAdAc")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-error').textContent.includes('empty')")
    assert error.inner_text() == "Player 2 (AA): empty after removing the board, dead cards and other players' cards"
    page.fill("#board", "AhAd")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#equity-error').textContent.includes('0, 3, 4 or 5')")


def test_the_url_shares_the_spot_and_a_run_can_be_cancelled(open_page, base_url):
    page = open_page("equity/index.html")
    assert wait_for_result(page) in ("enumeration", "monte carlo")
    page.locator("#seats input[name=p]").nth(1).fill("JJ-99,AQs")
    page.fill("#board", "Kh8d3c")
    page.click("#add-seat")
    page.click("#compute")
    page.wait_for_function("document.querySelectorAll('#equity-table tbody tr').length === 3", timeout=60000)
    shared = page.url
    assert "p=random" in shared and "board=Kh8d3c" in shared
    again = open_page(shared.removeprefix(base_url))
    assert [i.input_value() for i in again.locator("#seats input[name=p]").all()] == ["AsKs", "JJ-99,AQs", "random"]
    assert again.input_value("#board") == "Kh8d3c"
    long = open_page(url(*["random"] * 9, "AsKs"))
    long.locator("#cancel").wait_for(state="visible")
    long.click("#cancel")
    assert long.locator("#equity-method").inner_text() == "Cancelled."
    assert long.locator("#cancel").is_hidden()


def test_the_navigation_links_the_calculator(open_page):
    page = open_page("index.html")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Equity").click()
    page.wait_for_url(re.compile(r"equity/(index.html)?$"))
    assert page.locator("h1").inner_text() == "Equity calculator"


def test_a_hand_page_opens_the_calculator_prefilled(open_page):
    page = open_page("hands/AKs/index.html")
    page.select_option("#hand-opponents", "2")
    page.locator("a.equity-link").click()
    page.wait_for_url(re.compile(r"equity/index.html\?p=AKs&p=random&p=random$"))
    assert [i.input_value() for i in page.locator("#seats input[name=p]").all()] == ["AKs", "random", "random"]
    assert wait_for_result(page, timeout=60000) == "monte carlo"
