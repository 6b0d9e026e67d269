"""The equity calculator in headless Chromium: exact answers equal Python's, the table path, Monte Carlo
with intervals, bad input named like the CLI, a shared URL, cancelling, and the navigation link."""

from __future__ import annotations

import json
import re
from math import comb
from urllib.parse import quote

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.compute.stages.headsup import headsup_results
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


def test_three_players_exact_and_four_sampled_with_intervals(open_page):
    page = open_page(url("AhAd", "random", "random", board="KsQsJs"))
    # counted exactly in the browser and in Python (the last random hand by strength sums, not one by one)
    assert wait_for_result(page, timeout=60000) == "enumeration"
    board = parse_cards("KsQsJs")
    expected = range_equity([parse_range(r).weights for r in ("AhAd", "random", "random")], board, (), evaluator_tables())
    assert expected.method == "enumeration"
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)
    page = open_page(url("AhAd", "random", "random", "random", board="KsQsJs"))
    assert wait_for_result(page, timeout=60000) == "monte carlo"
    equities = shown_equities(page)
    assert sum(equities) == pytest.approx(1.0, abs=1e-12)
    halves = [float(t.removeprefix("± ").rstrip("%")) / 100 for t in page.locator("#equity-table td.ci").all_inner_texts()]
    assert all(0 < h <= 1.96e-3 + 5e-5 for h in halves)
    assert equities[1] == pytest.approx(equities[2], abs=5 * np.hypot(halves[1], halves[2]) / 1.96)  # symmetric seats


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
    page.wait_for_function("document.querySelector('#equity-error').textContent.includes('no hand left')")
    assert error.inner_text() == ("Player 2 (AA): no hand left: every hand in it holds a card already taken: "
                                  "Ac (board), Ad (board), Ah (board), As (player 1)")
    assert page.locator("#equity-results").is_hidden()  # no empty table under the message
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


def test_sampled_figures_update_while_the_run_works(open_page, screenshot, axe_violations):
    """Ten players preflop (nine random hands and AsKs) sample for seconds: the table shows running
    estimates with their ± 95% CI, marked partial, before the run ends (no timing: it waits, generously,
    for a partial update, then for a later one, and cancels)."""
    page = open_page(url(*["random"] * 9, "AsKs"))
    partial = "document.querySelector('#equity-table').dataset.state === 'partial'"
    snapshot = page.wait_for_function(f"""() => {partial} && {{  // read in the same step as the state
      method: document.querySelector('#equity-method').textContent,
      finished: document.querySelector('#equity-method').dataset.method !== undefined,
      equities: Array.from(document.querySelectorAll('#equity-table td.equity'), (c) => Number(c.dataset.equity)),
      halves: Array.from(document.querySelectorAll('#equity-table td.ci'), (c) => c.textContent) }}""",
        timeout=60000).json_value()
    first, equities, halves = snapshot["method"], snapshot["equities"], snapshot["halves"]
    assert first.startswith("Sampling…") and "deals so far" in first and "95% confidence interval" in first
    assert not snapshot["finished"]  # not the end
    assert len(equities) == 10 and sum(equities) == pytest.approx(1.0, abs=1e-12)
    assert all(re.fullmatch(r"± \d+\.\d\d%", h) for h in halves), halves
    # 9 random hands are exchangeable: each is near (1 - AsKs's equity) / 9; AsKs beats a random seat's share
    assert equities[9] > max(equities[:9])
    screenshot(page, "equity-running")
    deals = int(re.search(r"([\d,]+) deals so far", first).group(1).replace(",", ""))
    page.wait_for_function(  # a later update (the sample count grows), or, on a fast machine, the end
        f"({partial} && !document.querySelector('#equity-method').textContent.includes(' {deals:,} deals'))"
        " || document.querySelector('#equity-method').dataset.method !== undefined", timeout=120000)
    later = int(re.search(r"([\d,]+) deals", page.locator("#equity-method").inner_text()).group(1).replace(",", ""))
    assert later > deals
    # cancel if still running (checked and clicked in one step on the page: no race with the end)
    if page.evaluate("() => { const b = document.querySelector('#cancel'), running = !b.hidden; if (running) b.click(); return running; }"):
        assert page.locator("#equity-method").inner_text() == "Cancelled."
        assert page.locator("#equity-table").get_attribute("data-state") == "partial"  # the last figures, still marked
    assert axe_violations(page) == []  # muted italic partial figures keep their contrast
    narrow = open_page(url(*["random"] * 9, "AsKs"), width=390)
    narrow.wait_for_function(partial, timeout=60000)
    screenshot(narrow, "equity-running-390")


def test_enumeration_reports_partial_counts_merged_across_workers_then_the_exact_answer(open_page):
    """Two workers enumerate a flop spot board by board (a hand against two random hands) and report at every
    first board card (progressMs 0, so no timing is involved): the pool's merged progress counts grow towards
    the 1,176 boards and read as partial figures (not exact, adding up to one); the final answer is Python's
    exact one."""
    ranges, board = ("AhAd", "random", "random"), "KsQsJs"
    page = open_page("equity/index.html")
    answer = page.evaluate(
        """async ([ranges, board]) => {
          const { EquityPool } = await import(new URL("../assets/js/workers/equity-pool.js", location.href));
          const { progressResult } = await import(new URL("../assets/js/engines/range-equity.js", location.href));
          const { parseRange } = await import(new URL("../assets/js/engines/ranges.js", location.href));
          const form = document.getElementById("equity-form"), absolute = (p) => new URL(p, location.href).href;
          const pool = new EquityPool(form.dataset.worker, { type: "module" }, 2);
          const reports = [];
          return new Promise((resolve) => {
            pool.onmessage = (e) => {
              if (!e.data.progress) return resolve({ reports, ...e.data });
              const shown = progressResult(e.data.progress);
              reports.push({ done: e.data.progress.done, total: e.data.progress.total, partial: shown.partial,
                exact: shown.exact, boards: shown.boards, equitySum: shown.equity.reduce((a, b) => a + b, 0) });
            };
            pool.postMessage({ id: 1, tablesUrl: absolute(form.dataset.tables), matchupsUrl: absolute(form.dataset.matchups),
              weights: ranges.map((r) => Array.from(parseRange(r).weights)), board, dead: [], targetSe: 1e-3, progressMs: 0 });
          });
        }""",
        [list(ranges), parse_cards(board)],
    )
    reports = answer["reports"]
    assert len(reports) >= 10  # 48 first cards per worker, each reported
    assert all(r["total"] == 1176 and r["partial"] and not r["exact"] and r["boards"] == r["done"] for r in reports)
    done = [r["done"] for r in reports]
    assert done == sorted(done) and 0 < done[0] < 1176
    assert all(abs(r["equitySum"] - 1) < 1e-12 for r in reports if r["done"] > 0)
    assert answer["result"]["method"] == "enumeration" and answer["result"]["exact"]
    b = parse_cards(board)
    expected = enumerate_equity(live_weights([parse_range(r).weights for r in ranges], b, []), b, [], evaluator_tables())
    np.testing.assert_allclose(answer["result"]["equity"], expected.equity, rtol=0, atol=1e-15)


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
    assert wait_for_result(page, timeout=60000) == "table"  # a class against two random hands: the three-handed table


def test_class_against_random_hands_reads_the_multiway_table(open_page, site_dir, screenshot):
    """QQ against four random hands preflop: the site's multiway.json answer, as Python reads it (not exact:
    ± its interval; a random seat's win and tie are not in the table: shown as –)."""
    ranges = ("random", "QQ", "random", "random", "random")
    page = open_page(url(*ranges))
    assert wait_for_result(page) == "table"
    block = json.loads((site_dir / "data" / "multiway.json").read_text())["by_players"]["5"]
    expected = range_equity([parse_range(r).weights for r in ranges], (), (), evaluator_tables(), None, {5: block})
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)
    assert page.locator("#equity-method").inner_text().startswith("From the multiway table:")
    rows = page.locator("#equity-table tbody tr")
    assert rows.nth(1).locator("td.ci").inner_text() != "exact"
    assert rows.nth(0).locator("td").nth(4).inner_text() == "–"
    screenshot(page, "equity-multiway-table")
    narrow = open_page(url(*ranges), width=390)
    assert wait_for_result(narrow) == "table"
    screenshot(narrow, "equity-multiway-table-390")


def test_class_against_two_random_hands_reads_the_exact_three_handed_counts(open_page, site_dir):
    """AKs against two random hands preflop: threehanded.json's exact counts, as Python reads them (exact, no interval),
    the same table the 3-player chart shows."""
    from kernels.range_equity import exact_block

    ranges = ("AKs", "random", "random")
    page = open_page(url(*ranges))
    assert wait_for_result(page) == "table"
    counts = json.loads((site_dir / "data" / "threehanded.json").read_text())
    block = exact_block(counts, 3, comb(50, 5))
    expected = range_equity([parse_range(r).weights for r in ranges], (), (), evaluator_tables(), None, {3: block})
    assert expected.exact
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)
    assert page.locator("#equity-method").inner_text().startswith("Exact, from the three-handed table")
    assert page.locator("#equity-table tbody tr").nth(0).locator("td.ci").inner_text() == "exact"


def test_class_against_three_random_hands_reads_the_exact_four_handed_counts(open_page, site_dir):
    """AKs against three random hands preflop: fourhanded.json's exact counts (the build's data page says so with
    data-exact-players), as Python reads them, exact, no interval (issue #36)."""
    from kernels.range_equity import exact_block

    ranges = ("AKs", "random", "random", "random")
    page = open_page(url(*ranges))
    assert page.locator("form[data-exact-players]").first.get_attribute("data-exact-players") == "2,3,4"
    assert wait_for_result(page) == "table"
    counts = json.loads((site_dir / "data" / "fourhanded.json").read_text())
    expected = range_equity([parse_range(r).weights for r in ranges], (), (), evaluator_tables(), None,
                            {4: exact_block(counts, 4, comb(50, 5))})
    assert expected.exact
    np.testing.assert_allclose(shown_equities(page), expected.equity, rtol=0, atol=1e-15)
    assert page.locator("#equity-method").inner_text().startswith("Exact, from the four-handed table")
    assert page.locator("#equity-table tbody tr").nth(0).locator("td.ci").inner_text() == "exact"


def test_enumeration_split_across_workers_equals_python_exactly(open_page):
    """Work above the pool's split threshold, with two workers: each counts its share of the deal orbits and
    the pool adds the counts up, giving the single enumeration's answer (Python's; the counts are equal,
    the fractions may differ in the last bit from the order of the final divisions)."""
    ranges, board = ("QQ+,AK", "JJ-77", "22+,A2s+,K9s+"), "2s3d4c"  # 1.2e7 work units (range-equity.js), by patterns
    page = open_page("equity/index.html")
    answer = page.evaluate(
        """async ([ranges, board]) => {
          const { EquityPool } = await import(new URL("../assets/js/workers/equity-pool.js", location.href));
          const { parseRange } = await import(new URL("../assets/js/engines/ranges.js", location.href));
          const form = document.getElementById("equity-form"), absolute = (p) => new URL(p, location.href).href;
          const pool = new EquityPool(form.dataset.worker, { type: "module" }, 2);
          const parts = pool.plan({ weights: ranges.map((r) => parseRange(r).weights), board, dead: [] }).parts;
          return new Promise((resolve) => {
            pool.onmessage = (e) => e.data.progress || resolve({ parts, ...e.data });
            pool.postMessage({ id: 1, tablesUrl: absolute(form.dataset.tables), matchupsUrl: absolute(form.dataset.matchups),
              weights: ranges.map((r) => Array.from(parseRange(r).weights)), board, dead: [], targetSe: 1e-3 });
          });
        }""",
        [list(ranges), parse_cards(board)],
    )
    assert answer["parts"] == 2 and answer["result"]["method"] == "enumeration"
    b = parse_cards(board)
    expected = enumerate_equity(live_weights([parse_range(r).weights for r in ranges], b, []), b, [], evaluator_tables())
    np.testing.assert_allclose(answer["result"]["equity"], expected.equity, rtol=0, atol=1e-15)


def test_a_link_with_more_than_ten_players_says_so(open_page, screenshot):
    """11 players in the URL: the first 10 are filled in, a visible message names the one left out, and
    nothing is computed for a question the link did not ask until Compute is pressed."""
    ranges = ["AsKs", "QdQc", "JhJd", "Tc9c", "8s8h", "7d6d", "5c5s", "4h3h", "2c2d", "AhKh", "72o"]
    page = open_page(url(*ranges), width=390)
    error = page.locator("#equity-error")
    page.wait_for_function("document.querySelector('#equity-error').textContent !== ''")
    assert error.inner_text() == ("This link names 11 players; the calculator takes 2 to 10. "
                                  "The first 10 are filled in (72o left out): press Compute for them.")
    assert page.locator("#seats input[name=p]").count() == 10 and page.locator("#equity-results").is_hidden()
    screenshot(page, "equity-eleven-players-390")
    page.click("#compute")
    assert wait_for_result(page, timeout=120_000) in ("enumeration", "monte carlo")
    assert error.inner_text() == "" and page.locator("#equity-table td.equity").count() == 10
