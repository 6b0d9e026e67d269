"""The site in real headless Chromium: chart, matchup explorer, ICM calculator, live refresh."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from generator.data.datafiles import LIVE_STATUS_PATH, write_live_status
from generator.core.storage import write_json
from kernels.cards import parse_cards, parse_class
from kernels.headsup.cpu import combo_matchup_counts
from kernels.icm.harville import bubble_factors, prize_equity

pytestmark = pytest.mark.e2e


def load(site_dir: Path, name: str) -> dict:
    return json.loads((site_dir / "data" / f"{name}.json").read_text(encoding="utf-8"))


def test_chart_switches_player_count_and_shows_tooltip(open_page, site_dir, screenshot):
    page = open_page("charts/2/index.html")
    page.get_by_role("navigation", name="Number of players").get_by_role("link", name="6", exact=True).click()
    page.wait_for_url(re.compile(r"charts/6/index.html$"))
    assert page.locator("h1").inner_text() == "All-in equity, 6 players"

    equity = load(site_dir, "multiway")["by_players"]["6"]["equity"][parse_class("AKs")]
    page.locator('a[data-i="1"]').hover()
    tip = page.locator("#tip")
    tip.wait_for(state="visible")
    assert "AKs · 6 players" in tip.inner_text() and f"{100 * equity:.2f}%" in tip.inner_text()
    screenshot(page, "chart-desktop-tooltip")

    page.keyboard.press("Escape")
    page.locator('a[data-i="0"]').focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.i") == "14"
    assert "KK · 6 players" in tip.inner_text()

    page.locator('label[for="mode-rank"]').click()
    assert page.locator('a[data-i="0"] .v-rank').is_visible() and not page.locator('a[data-i="0"] .v-eq').is_visible()


def test_chart_on_a_phone(open_page, screenshot):
    page = open_page("charts/6/index.html", width=360, height=780)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.locator('a[data-i="168"]').tap()
    page.locator("#tip").wait_for(state="visible")
    assert page.url.endswith("charts/6/index.html")  # the first tap shows the detail, the second follows
    screenshot(page, "chart-phone-360")


def test_chart_refreshes_from_checkpoints_on_localhost(open_page, site_dir):
    path, status = site_dir / "data/multiway.json", site_dir / LIVE_STATUS_PATH
    original, original_status = path.read_bytes(), status.read_bytes()
    write_live_status(site_dir, True, None)  # a run has started
    page = open_page("charts/6/index.html")
    try:
        data = json.loads(original)
        data["meta"]["generated"] = "2099-01-01T00:00:00Z"
        data["by_players"]["6"]["equity"][0] = 0.5123
        write_json(path, data)
        write_live_status(site_dir, True, "2099-01-01T00:00:00Z")  # ... and saved a checkpoint
        page.wait_for_function("document.querySelector('a[data-i=\"0\"] .v-eq').textContent === '51.2%'", timeout=15000)
        assert "Live" in page.locator("#live").inner_text()
        assert page.locator('#chart-table tr[data-i="0"] td.eq').text_content() == "51.23%"  # the table view too
    finally:
        path.write_bytes(original)
        status.write_bytes(original_status)


def combo_counts(first: str, second: str) -> tuple[int, int, int]:
    """Exact (wins, ties, losses) of combo ``first`` against ``second`` from the Python kernel."""
    return tuple(combo_matchup_counts(*parse_cards(first + second), *evaluator_tables()[:5]).tolist())


def shown_counts(page) -> list[str]:
    return [page.locator(f"#matchup-result td.{name}").inner_text() for name in ("win", "tie", "loss", "total")]


def test_matchup_explorer_gives_the_exact_class_value(open_page, site_dir):
    matchups = load(site_dir, "matchups")
    page = open_page("matchups/index.html?a=AKs&b=QQ")
    big = page.locator(".big[data-equity]")
    big.wait_for()
    i, j = parse_class("AKs"), parse_class("QQ")
    expected = (matchups["win"][i][j] + matchups["tie"][i][j] / 2) / (matchups["pairs"][i][j] * 1712304)  # exact, as the page computes it
    assert float(big.get_attribute("data-equity")) == expected and abs(expected - matchups["equity"][i][j]) <= 5e-10
    assert big.inner_text() == f"{100 * expected:.2f}%"

    page.fill("#hand-a", "72o")
    page.fill("#hand-b", "AA")
    i, j = parse_class("72o"), parse_class("AA")
    expected = (matchups["win"][i][j] + matchups["tie"][i][j] / 2) / (matchups["pairs"][i][j] * 1712304)
    page.wait_for_function(f"document.querySelector('.big[data-equity]')?.dataset.equity === '{expected!r}'")
    assert page.url.endswith("?a=72o&b=AA")
    assert shown_counts(page) == [f"{matchups[k][i][j]:,}" for k in ("win", "tie", "loss")] + [f"{matchups['pairs'][i][j] * 1712304:,}"]


def test_matchup_explorer_enumerates_exact_combos(open_page, site_dir, screenshot):
    win, tie, loss = combo_counts("AsKs", "QdQc")
    total = win + tie + loss
    page = open_page("matchups/index.html?a=AsKs&b=QdQc")
    big = page.locator(".big[data-equity]")
    big.wait_for(timeout=30000)
    equity = (win + tie / 2) / total
    assert float(big.get_attribute("data-equity")) == equity
    assert big.inner_text() == f"{100 * equity:.2f}%"
    assert shown_counts(page) == [f"{n:,}" for n in (win, tie, loss, total)]
    assert "1 combo pair × 1,712,304 boards" in page.locator("#matchup-result").inner_text()
    screenshot(page, "matchups-combo")

    # A combo against a class: the 6 queen pairs, i.e. a quarter of AKs against QQ (suit symmetry).
    page.fill("#hand-b", "QQ")
    page.wait_for_function("document.querySelector('#matchup-result td.total')?.textContent === '10,273,824'", timeout=30000)
    matchups = load(site_dir, "matchups")
    i, j = parse_class("AKs"), parse_class("QQ")
    assert shown_counts(page)[:3] == [f"{matchups[k][i][j] // 4:,}" for k in ("win", "tie", "loss")]
    assert page.url.endswith("?a=AsKs&b=QQ")
    screenshot(page, "matchups")

    page.set_viewport_size({"width": 360, "height": 780})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    screenshot(page, "matchups-phone-360")


def test_matchup_explorer_refuses_impossible_hands(open_page, screenshot):
    page = open_page("matchups/index.html?a=AsKs&b=AsAs")
    error = page.locator("#matchup-error")
    page.wait_for_function("document.querySelector('#matchup-error').textContent !== ''")
    assert "AsAs: the card As appears twice" in error.inner_text()
    assert page.get_attribute("#hand-b", "aria-invalid") == "true"
    assert page.get_attribute("#hand-a", "aria-invalid") == "false"
    assert page.locator("#matchup-result .big").count() == 0
    screenshot(page, "matchups-error")

    for a, b, message in (("AsKs", "AsQd", "share As"), ("AKx", "QQ", "neither two cards"), ("AsKs", "QQo", "neither two cards")):
        page.fill("#hand-a", a)
        page.fill("#hand-b", b)
        page.wait_for_function(f"document.querySelector('#matchup-error').textContent.includes({message!r})")
        assert page.locator("#matchup-result .big").count() == 0


def test_icm_calculator(open_page, screenshot):
    page = open_page("icm/index.html")
    page.fill("#stacks", "500, 300, 200")
    page.fill("#payouts", "600, 400")
    page.get_by_role("button", name="Compute").click()
    ev = page.locator("#icm-table td.ev")
    page.wait_for_function("document.querySelectorAll('#icm-table td.ev').length === 3")
    assert ev.all_inner_texts() == ["435.71", "330.00", "234.29"]
    assert "stacks=500,300,200" in page.url
    screenshot(page, "icm")

    page.fill("#stacks", "500, -300, 200")
    page.get_by_role("button", name="Compute").click()
    error = page.locator("#stacks-error li")
    error.first.wait_for()
    # icm.js's message for this entry, nothing else (not any error: e.g. not "not a number")
    assert error.all_inner_texts() == ["stacks: entry 2 is negative (-300)"]
    assert page.get_attribute("#stacks", "aria-invalid") == "true"
    assert page.locator("#payouts-error li").count() == 0 and page.locator("#form-error li").count() == 0
    assert page.locator("#icm-results").is_hidden()
    screenshot(page, "icm-error")


def test_icm_reads_thousands_separators_as_people_type_them(open_page, screenshot):
    """The string a player typed, `10,000 5,000 2,500`, is three players (it was read as six: 10, 0, 5,
    0, 2, 500); the page says so before the results, and refuses the one that reads both ways."""
    page = open_page("icm/index.html")
    page.fill("#stacks", "10,000 5,000 2,500")
    page.fill("#payouts", "60 40")
    page.get_by_role("button", name="Compute").click()
    exact = prize_equity([10000, 5000, 2500], [60, 40], places=False).equity
    page.wait_for_function("text => document.querySelector('#icm-table td.ev')?.textContent === text", arg=f"{exact[0]:,.2f}")
    assert page.locator("#icm-count").inner_text() == "Read as 3 players, 2 paid."
    assert page.locator("#icm-table td.ev").all_inner_texts() == [f"{x:,.2f}" for x in exact]
    assert "stacks=10000,5000,2500" in page.url
    factors = bubble_factors([10000, 5000, 2500], [60, 40]).bubble_factor
    # the matrix comes from the worker after the table: wait for this spot's (not the previous spot's) first factor
    page.wait_for_function("v => { const c = document.querySelector('#icm-bubble td[data-bf]');"
                           " return c !== null && Math.abs(Number(c.dataset.bf) - v) <= 1e-9 * v; }", arg=factors[0, 1])
    cells = page.locator("#icm-bubble td[data-bf]")
    assert cells.count() == 6
    for k in range(6):
        i, j = [(i, j) for i in range(3) for j in range(3) if i != j][k]
        cell = cells.nth(k)
        assert abs(float(cell.get_attribute("data-bf")) - factors[i, j]) <= 1e-9 * factors[i, j]
        assert cell.inner_text() == f"{factors[i, j]:.2f}" and "needs" in cell.get_attribute("title")
    screenshot(page, "icm-bubble-factors")

    page.fill("#stacks", "10,000")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#stacks-error li')?.textContent.includes('ambiguous')")
    assert page.locator("#stacks-error li").all_inner_texts()[0].startswith('stacks: "10,000" is ambiguous: one number (10000)')
    assert page.locator("#icm-results").is_hidden()

    page.fill("#stacks", "500 300 200")
    page.fill("#payouts", "0, 0")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#payouts-error li')?.textContent.includes('every prize is zero')")
    assert page.locator("#icm-results").is_hidden()
    page.fill("#payouts", "1e308 1e308")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#payouts-error li')?.textContent.includes('1.8e308')")
    page.fill("#stacks", "1e308 1e308 5e-324")
    page.fill("#payouts", "2 1")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelectorAll('#icm-table td.ev').length === 3")
    text = page.locator("#icm-results").inner_text()
    assert "NaN" not in text and "Infinity" not in text and "∞" not in text, text


#: Records every Web Worker the page starts and the messages it sends back (before the page's scripts run).
WORKER_SPY = """
window.__workers = [];
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(url, options) {
    super(url, options);
    const record = { url: String(url), messages: 0 };
    window.__workers.push(record);
    this.addEventListener("message", () => { record.messages += 1; });
  }
};
"""


def test_icm_large_field_uses_the_worker_and_url_state(open_page):
    """60 players (the page hands fields of ≥ 40 to icm-worker.js): the worker is started and
    answers, and every prize equity shown is the exact ICM value of kernels/icm/harville.py to the cent, for
    a field where chip-proportional shares differ from ICM (by $1.71 for the chip leader), so a page
    that skipped the model fails."""
    stacks = [30000] + [500 + 100 * i for i in range(59)]  # a chip leader with 13% of the chips
    payouts = [40, 25, 15, 10, 10]
    exact = prize_equity(stacks, payouts, places=False).equity
    chip_share = 100 * np.array(stacks) / sum(stacks)
    # ICM gives the leader $11.30, chip shares $13.01 (the other players differ by 0.9 to 3 cents)
    assert abs(exact[0] - chip_share[0]) > 1.5 and np.sum(np.abs(exact - chip_share) > 0.01) >= 58

    page = open_page("icm/index.html")
    page.add_init_script(WORKER_SPY)
    page.goto(page.url.split("?")[0] + f"?stacks={','.join(map(str, stacks))}&payouts={','.join(map(str, payouts))}")
    page.wait_for_function("document.querySelectorAll('#icm-table td.ev').length === 60", timeout=30000)
    shown = np.array([float(t.replace(",", "")) for t in page.locator("#icm-table td.ev").all_inner_texts()])
    assert np.max(np.abs(shown - exact)) <= 0.005 + 1e-9, list(zip(shown, exact.round(4)))[:5]
    workers = page.evaluate("window.__workers")
    assert [w["url"].rsplit("/", 1)[-1] for w in workers] == ["icm-worker.js"] and workers[0]["messages"] >= 1, workers
    assert f"stacks={','.join(map(str, stacks))}" in page.url


def test_icm_bubble_factors_of_a_large_field_for_chosen_players(open_page, screenshot):
    """A 60-player field: the matrix (computed in the worker) shows the 12 largest stacks by default and
    the typed players on request, each cell Python's bubble factor; the choice is in a shared URL."""
    stacks = [1000 + 37 * ((k * 7919) % 101) for k in range(60)]
    payouts = [30, 20, 14, 10, 8, 7, 6, 5, 0.5]
    factors = bubble_factors(stacks, payouts).bubble_factor
    page = open_page(f"icm/index.html?stacks={','.join(map(str, stacks))}&payouts={','.join(map(str, payouts))}&players=3,17,42")
    page.wait_for_function("document.querySelectorAll('#icm-bubble td[data-bf]').length === 6")
    assert page.locator("#bubble-players").input_value() == "3, 17, 42"
    assert page.locator("#icm-bubble thead th").all_inner_texts() == ["Risks", "vs 3", "vs 17", "vs 42"]
    chosen = [2, 16, 41]
    cells = page.locator("#icm-bubble td[data-bf]")
    pairs = [(i, j) for i in chosen for j in chosen if i != j]
    for k, (i, j) in enumerate(pairs):
        assert abs(float(cells.nth(k).get_attribute("data-bf")) - factors[i, j]) <= 1e-12 * factors[i, j]
        assert cells.nth(k).inner_text() == f"{factors[i, j]:.2f}"
    cells.first.focus()
    assert page.evaluate("document.activeElement.getAttribute('title')").startswith("Player 3 all in against player 17: needs")
    screenshot(page, "icm-bubble-chosen")
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "icm-bubble-chosen-390")

    page.fill("#bubble-players", "")
    page.wait_for_function("document.querySelectorAll('#icm-bubble td[data-bf]').length === 132")
    largest = sorted(sorted(range(60), key=lambda i: -stacks[i])[:12])
    # at 390 px the headers show the number only; "vs" is still read (text, not display)
    assert page.locator("#icm-bubble thead th").all_text_contents()[1:] == [f"vs {i + 1}" for i in largest]
    assert "players=" not in page.url

    page.fill("#bubble-players", "3, 99")
    page.wait_for_function("document.querySelector('#bubble-players-error li')?.textContent.includes('99 is not a player')")
    assert page.locator("#icm-bubble").is_hidden()
    # its scrolling region (a tab stop) goes with it: no empty, zero-height stop for the keyboard or a finger
    assert page.locator(".table-scroll:has(#icm-bubble)").evaluate("region => region.hidden")


def spot_hands(side: str, stacks, payouts, range_text: str, **spot):
    """kernels/icm/spot.py's answer for the page's spot: (spot, outcomes (169, 3), P(call) or None, EV (169,))."""
    from generator.compute.stages.headsup import headsup_results
    from kernels.icm import spot as icm_spot
    from kernels.ranges import parse_range, ranking_from_equity

    tables, _ = headsup_results(progress=False)
    weights = icm_spot.class_weights(parse_range(range_text, ranking_from_equity(tables.vs_random_equity())).weights)
    outcomes = icm_spot.outcomes_vs_range(tables.win, tables.tie, tables.loss, weights)
    if side == "call":
        result = icm_spot.call_spot(stacks, payouts, **spot)
        return result, outcomes, None, result.ev_difference(outcomes[:, 0], outcomes[:, 1], outcomes[:, 2])
    result = icm_spot.shove_spot(stacks, payouts, **spot)
    calls = icm_spot.call_probability(tables.pairs, weights)
    return result, outcomes, calls, result.ev_difference(calls, outcomes[:, 0], outcomes[:, 1], outcomes[:, 2])


def test_icm_call_or_fold_verdict_and_chart(open_page, screenshot):
    """The default spot of docs/icm.md (AJo against 22+, A2s+, KTs+ on the bubble): the verdict and every
    chart cell are kernels/icm/spot.py's numbers; the chart is keyboard reachable and labelled."""
    from kernels.cards import CLASS_NAMES, parse_class

    page = open_page("icm/spot/index.html")
    page.wait_for_selector("#spot-verdict")
    spot, outcomes, _, ev = spot_hands("call", [1500, 1000, 500], [65, 35], "22+, A2s+, KTs+", small_blind=1, big_blind=2,
                                       ante=0.25, shover=0, caller=2)
    summary = page.locator("#spot-summary").inner_text()
    assert f"Equity needed to call: {spot.required_icm:.2%} under ICM, {spot.required_chips:.2%} in chips" in summary
    aj = parse_class("AJo")
    assert f"equity {outcomes[aj, 0] + outcomes[aj, 1] / 2:.2%}" in summary
    verdict = page.locator("#spot-verdict").inner_text()
    assert verdict.startswith(f"EV(call) − EV(fold) = {'+' if ev[aj] >= 0 else '−'}{abs(ev[aj]):.4f}")
    assert verdict.endswith("call." if ev[aj] > 0 else "fold.")
    cells = page.locator("#spot-chart a[data-i]")
    assert cells.count() == 169
    for k in range(0, 169, 7):
        index = int(cells.nth(k).get_attribute("data-i"))
        assert abs(float(cells.nth(k).get_attribute("data-ev")) - ev[index]) <= 1e-12 * spot.pool
        share = 100 * ev[index] / spot.pool
        label = f"{CLASS_NAMES[index]} {'+' if share >= 0 else '−'}{abs(share):.2f}: EV(call) − EV(fold) in % of the pool"
        assert cells.nth(k).get_attribute("title").startswith(label)  # the words read out (hidden text) and shown on hover
        assert cells.nth(k).locator(".visually-hidden").inner_text() == cells.nth(k).get_attribute("title")
    cells.first.focus()
    assert page.evaluate("document.activeElement.dataset.i") == "0"
    screenshot(page, "icm-spot")
    page.set_viewport_size({"width": 390, "height": 900})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "icm-spot-390")


def test_icm_shove_or_fold_from_a_shared_url(open_page, screenshot):
    """A shared link restores the whole spot (shover's side, BB ante, blinds moved) and its answer."""
    url = ("icm/spot/index.html?side=shove&stacks=4200,3100,2600,900,1800,2400&payouts=50,30,20&sb=50&bb=100&ante=10"
           "&bbante=100&shover=4&caller=1&sbp=4&bbp=1&range=QQ%2B%2CAKs%2C0.5(AKo)&hand=72o")
    page = open_page(url)
    page.wait_for_selector("#spot-verdict")
    assert page.locator("#side-shove").is_checked() and page.locator("#bb-ante").input_value() == "100"
    spot, outcomes, calls, ev = spot_hands("shove", [4200, 3100, 2600, 900, 1800, 2400], [50, 30, 20], "QQ+,AKs,0.5(AKo)",
                                           small_blind=50, big_blind=100, ante=10, big_blind_ante=100, shover=3, caller=0,
                                           small_blind_player=3, big_blind_player=0)
    from kernels.cards import parse_class

    seven_two = parse_class("72o")
    assert page.locator(f"#spot-chart a[data-i='{seven_two}'] b").inner_text() == "72o"
    summary = page.locator("#spot-summary").inner_text()
    assert f"72o: called {calls[seven_two]:.2%} of the time" in summary
    assert abs(float(page.get_attribute(f"#spot-chart a[data-i='{seven_two}']", "data-ev")) - ev[seven_two]) <= 1e-12 * spot.pool
    assert page.locator("#range-label").inner_text() == "The caller's calling range"
    screenshot(page, "icm-spot-shove")


def test_icm_spot_hero_range_is_the_kernels_average(open_page, screenshot):
    """A hero range on the page: the verdict is kernels/icm/spot.py's hero_average of the per-class EVs
    (the CLI's `--hand "TT+,AQs+"`), with the combo count."""
    from kernels.icm import spot as icm_spot
    from kernels.ranges import parse_range

    page = open_page("icm/spot/index.html?side=call&stacks=1500,1000,500&payouts=65,35&sb=1&bb=2&ante=0.25&shover=1"
                     "&caller=3&range=22%2B%2CA2s%2B&hand=TT%2B%2CAQs%2B")
    page.wait_for_selector("#spot-verdict")
    spot, outcomes, _, ev = spot_hands("call", [1500, 1000, 500], [65, 35], "22+,A2s+", small_blind=1, big_blind=2,
                                       ante=0.25, shover=0, caller=2)
    hero = icm_spot.hero_average(ev, icm_spot.class_weights(parse_range("TT+,AQs+").weights))
    assert "TT+,AQs+ (average over 38 combos) against 22+,A2s+" in page.locator("#spot-summary").inner_text()
    verdict = page.locator("#spot-verdict").inner_text()
    assert verdict.startswith(f"EV(call) − EV(fold) = {'+' if hero >= 0 else '−'}{abs(hero):.4f}") and verdict.endswith("call.")
    screenshot(page, "icm-spot-hero-range")


def test_icm_spot_bad_input_is_a_visible_message(open_page, screenshot):
    page = open_page("icm/spot/index.html")
    page.wait_for_selector("#spot-verdict")
    cases = [
        ("#stacks", "10,000", "#stacks-error", "ambiguous"),
        ("#payouts", "0 0", "#payouts-error", "every prize is zero"),
        ("#caller", "7", "#table-error", "caller: \"7\" is not a player number (1 to 3)"),
        ("#ante", "-1", "#table-error", "ante: must be >= 0"),
        ("#range", "22+, AsKs", "#range-error", "give whole classes"),
        ("#range", "22+, AXs", "#range-error", "range: token"),
        ("#hand", "AJx", "#hand-error", "hand: token"),
        ("#shover", "3", "#form-error", "the shover and the caller must be different players"),
    ]
    for selector, value, errors, message in cases:
        previous = page.input_value(selector)
        page.fill(selector, value)
        page.wait_for_function(f"document.querySelector('{errors}').textContent.includes({message!r})")
        assert page.locator("#spot-results").is_hidden()
        text = page.locator("main").inner_text()
        assert "NaN" not in text and "Infinity" not in text
        page.fill(selector, previous)
        page.wait_for_selector("#spot-verdict")
    page.fill("#stacks", "1e308 1e308 5e-324")
    page.fill("#caller", "2")
    page.wait_for_function("document.querySelector('#form-error').textContent.includes('more than 1.8e308')")
    assert page.locator("#spot-results").is_hidden()
    page.fill("#stacks", "1500 1000 5e-324")  # a denormal stack: the caller has nothing left after the ante
    page.fill("#caller", "3")
    page.wait_for_function("document.querySelector('#form-error').textContent.includes('no chips left to call with')")
    text = page.locator("main").inner_text()
    assert "NaN" not in text and "Infinity" not in text
    page.fill("#stacks", "10,000 5,000 2,500")
    page.wait_for_function("document.querySelector('#spot-count').textContent === 'Read as 3 players, 2 paid.'")
    page.wait_for_selector("#spot-verdict")
    screenshot(page, "icm-spot-thousands")


def test_icm_twenty_thousand_players_summary_first(open_page, screenshot):
    """20,000 players (15% paid): the summary of the largest, median and smallest stacks, the paged
    table and the aggregated heatmap, every number from the worker. How long the main thread is blocked
    meanwhile is a timing, measured by ``benchmarks/bench_main_thread.py`` (make bench), not here."""
    rng = np.random.default_rng(20_000)
    stacks = np.round(rng.lognormal(7.0, 1.0, 20_000)).astype(int) + 1
    payouts = np.round(np.linspace(2.0, 1.0, 3000) ** 2 * 100) / 100
    page = open_page("icm/index.html")
    page.wait_for_selector("#icm-table td.ev")
    page.evaluate(  # as a paste: both fields set, one input event
        "([stacks, payouts]) => { const f = document.getElementById('icm-form'); f.elements.stacks.value = stacks;"
        " f.elements.payouts.value = payouts; f.elements.stacks.dispatchEvent(new Event('input', { bubbles: true })); }",
        ["\n".join(map(str, stacks)), " ".join(f"{p:g}" for p in payouts)],
    )
    page.locator("#icm-big").wait_for(state="visible", timeout=240_000)
    assert page.locator("#icm-count").inner_text() == "Read as 20000 players, 3000 paid."
    order = np.lexsort((np.arange(stacks.size), -stacks))
    chosen = [order[0], order[stacks.size // 2], order[-1]]
    rows = page.locator("#icm-summary tbody tr")
    assert rows.count() == 3
    assert [rows.nth(k).locator("th").inner_text() for k in range(3)] == [str(i + 1) for i in chosen]
    equity = prize_equity(stacks, payouts, places=False).equity
    for k, i in enumerate(chosen):
        assert rows.nth(k).locator("td.ev").inner_text() == f"{equity[i]:,.2f}"
    assert page.locator("#icm-big-table tbody tr").count() == 100
    page.get_by_role("button", name="Next").click()
    assert page.locator("#icm-big-table tbody tr").first.locator("th").inner_text() == "101"
    assert page.locator("#icm-heatmap tbody tr").count() == 10
    screenshot(page, "icm-20000")


def test_icm_payouts_typed_as_percentages(open_page, screenshot):
    page = open_page("icm/index.html")
    page.fill("#stacks", "500 300 200")
    page.fill("#payouts", "50% 30% 20%")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#icm-table td.ev')?.textContent.endsWith('%')")
    equity = prize_equity([500, 300, 200], [50, 30, 20], places=False).equity
    assert page.locator("#icm-table td.ev").all_inner_texts() == [f"{x:,.2f}%" for x in equity]
    assert "prize pool 100.00%" in page.locator("#icm-method").inner_text()
    assert "payouts=50%25%2C30%25%2C20%25" in page.url
    page.reload()
    page.wait_for_function("document.querySelector('#icm-table td.ev')?.textContent.endsWith('%')")
    assert page.input_value("#payouts") == "50%, 30%, 20%"
    page.fill("#payouts", "65% 35")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#payouts-error li')?.textContent.includes('as a percentage of the pool')")
    assert page.locator("#icm-results").is_hidden()
    screenshot(page, "icm-percent-error")


def test_icm_rounded_percentages_are_the_whole_pool(open_page, screenshot):
    """Percentages typed with rounding (33.34% 33.33% 33.34%; a 750-place table adding up to 100.001%)
    are the whole pool, scaled to exactly 100%; a total past 100% + 0.1 is refused saying by how much."""
    page = open_page("icm/index.html", width=390)
    page.fill("#stacks", "500 300 200")
    page.fill("#payouts", "33.34% 33.33% 33.34%")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#icm-table td.ev')?.textContent.endsWith('%')")
    shares = [33.34 * 100 / 100.01, 33.33 * 100 / 100.01, 33.34 * 100 / 100.01]
    equity = prize_equity([500, 300, 200], shares, places=False).equity
    assert page.locator("#icm-table td.ev").all_inner_texts() == [f"{x:,.2f}%" for x in equity]
    assert "prize pool 100.00%" in page.locator("#icm-method").inner_text()
    assert page.locator("#payouts-error").inner_text().strip() == ""
    screenshot(page, "icm-rounded-percentages-390")
    page.evaluate(
        "([stacks, payouts]) => { const f = document.getElementById('icm-form'); f.elements.stacks.value = stacks;"
        " f.elements.payouts.value = payouts; f.elements.stacks.dispatchEvent(new Event('input', { bubbles: true })); }",
        [" ".join(str(1000 + k) for k in range(1000)), " ".join(["0.13333466667%"] * 750)],
    )
    page.wait_for_function("document.querySelector('#icm-count').textContent === 'Read as 1000 players, 750 paid.'")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#icm-method')?.textContent.includes('prize pool 100.00%')", timeout=60_000)
    assert page.locator("#payouts-error").inner_text().strip() == ""
    page.fill("#stacks", "500 300 200")
    page.fill("#payouts", "50% 30% 20.2%")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#payouts-error li')?.textContent.includes('whole pool')")
    message = page.locator("#payouts-error li").inner_text()
    assert "add up to 100.2%, more than the whole pool (100%, give or take 0.1 for rounding)" in message
    assert page.locator("#icm-results").is_hidden()


@pytest.mark.parametrize("width", [390, 1366])
def test_icm_bubble_factor_detail_on_tap_and_keyboard_focus(open_page, screenshot, axe_violations, width):
    """The equity a player needs to call is written under the matrix when a cell is tapped (phone),
    clicked or reached by Tab, not only in a title that shows on mouse hover."""
    page = open_page("icm/index.html?stacks=500,300,200&payouts=60,40", width=width)
    page.wait_for_selector("#icm-bubble td[data-bf]")
    detail = page.locator("#icm-bubble-detail")
    assert detail.is_visible() and "equity" not in detail.inner_text()
    assert page.locator("#bubble-choose").is_hidden()  # 3 players: the whole matrix, nothing to choose
    result = bubble_factors([500, 300, 200], [60, 40])
    cells = page.locator("#icm-bubble td[data-bf]")
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]

    def expected(k):
        i, j = pairs[k]
        return f"Player {i + 1} all in against player {j + 1}: needs {100 * result.required_equity[i, j]:.1f}% equity"

    if width < 600:
        cells.nth(3).tap()
        assert detail.inner_text().startswith(expected(3))
        assert cells.nth(3).get_attribute("aria-current") == "true"
        screenshot(page, "icm-bubble-detail-390")
    else:
        cells.nth(0).focus()
        assert detail.inner_text().startswith(expected(0))
        page.keyboard.press("Tab")
        assert detail.inner_text().startswith(expected(1))
        cells.nth(4).click()
        assert detail.inner_text().startswith(expected(4))
        screenshot(page, "icm-bubble-detail-1366")
    assert "risk premium" in detail.inner_text() and "NaN" not in detail.inner_text()
    assert axe_violations(page) == []


def test_matchup_explorer_tells_a_hand_against_itself_apart(open_page, screenshot, axe_violations):
    """AKs against AKs: every line names which of the two hands it is about, never "AKs wins" twice."""
    page = open_page("matchups/index.html?a=AKs&b=AKs", width=390)
    page.locator(".big[data-equity]").wait_for()
    rows = page.locator("#matchup-result table.data tbody th").all_inner_texts()
    assert rows[0] == "First AKs wins" and rows[2] == "Second AKs wins"
    assert page.locator(".versus p:not(.big)").all_inner_texts() == ["First AKs equity", "Second AKs equity"]
    screenshot(page, "matchup-same-class-390")
    assert axe_violations(page) == []
    page.fill("#hand-b", "QQ")
    page.wait_for_function("document.querySelector('#matchup-result table.data tbody th')?.textContent === 'AKs wins'")


@pytest.mark.parametrize("width", [390, 1366])
def test_icm_spot_shows_every_error_at_once(open_page, screenshot, axe_violations, width):
    """Several problems at once on the call/fold page: each is shown under its field, not only the first."""
    page = open_page("icm/spot/index.html", width=width)
    page.wait_for_selector("#spot-verdict")
    page.evaluate(
        "() => { const set = (id, v) => { document.getElementById(id).value = v; };"
        " set('payouts', '0 0'); set('ante', '-1'); set('range', '22+, AXs'); set('hand', 'AJx'); set('shover', '3');"
        " document.getElementById('spot-form').dispatchEvent(new Event('submit', { cancelable: true })); }"
    )
    page.wait_for_function("document.querySelector('#hand-error li') !== null")
    expected = {"#payouts-error": "every prize is zero", "#table-error": "ante: must be >= 0",
                "#range-error": "range: token", "#hand-error": "hand: token"}
    for errors, message in expected.items():
        assert message in page.locator(errors).inner_text(), errors
    assert page.locator("#spot-results").is_hidden()
    page.fill("#ante", "0.25")
    page.wait_for_function("document.querySelector('#table-error').textContent === ''")
    page.wait_for_function("document.querySelector('#form-error').textContent.includes('the shover and the caller must be different players')")
    assert "range: token" in page.locator("#range-error").inner_text() and "hand: token" in page.locator("#hand-error").inner_text()
    text = page.locator("main").inner_text()
    assert "NaN" not in text and "Infinity" not in text
    screenshot(page, f"icm-spot-every-error-{width}")
    assert axe_violations(page) == []


def test_icm_results_and_bubble_factors_on_a_phone(open_page):
    """At 390 px the prize-equity table fits; the bubble matrix's numbers are 12 px (issue #38: no text under 12 px on a
    phone), none clipped, each cell a 24 px target: 8 players (9 columns) fit the screen, 12 players scroll sideways
    inside the table's frame with the row labels kept in view, and the headers read "vs 12" while showing "12"."""
    for players, fits in ((8, True), (12, False)):
        stacks = ",".join(str(s) for s in range(30, 30 - 2 * players, -2))
        page = open_page(f"icm/index.html?stacks={stacks}&payouts=50,30,20", width=390, height=844)
        page.wait_for_function(f"document.querySelectorAll('#icm-bubble td[data-bf]').length === {players * (players - 1)}")
        for table in ("#icm-table", "#icm-places"):
            assert page.locator(table).evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth"), table
        bubble = page.locator("#icm-bubble")
        assert bubble.evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth") == fits, players
        clipped = page.locator("#icm-bubble :is(td, th)").evaluate_all("cells => cells.filter(c => c.scrollWidth > c.clientWidth).length")
        assert clipped == 0
        sizes = page.locator("#icm-bubble td[data-bf]").evaluate_all("cells => cells.map(c => parseFloat(getComputedStyle(c).fontSize))")
        assert min(sizes) >= 12
        heads = page.locator("#icm-bubble thead th")
        assert heads.nth(players).text_content() == f"vs {players}"
        boxes = page.locator("#icm-bubble td[data-bf]").evaluate_all("cells => cells.map(c => c.getBoundingClientRect())")
        assert min(min(b["width"], b["height"]) for b in boxes) >= 24  # WCAG 2.5.8 target size
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if not fits:  # scrolled to the last column, the row labels are still at the left edge of the frame
            page.locator(".table-scroll:has(#icm-bubble)").evaluate("s => { s.scrollLeft = s.scrollWidth; }")
            frame = page.locator(".table-scroll:has(#icm-bubble)").evaluate("s => s.getBoundingClientRect().left")
            label = page.locator("#icm-bubble tbody th").first.evaluate("h => h.getBoundingClientRect().left")
            assert abs(label - frame) < 2


def test_icm_spot_reads_the_compact_matchup_table(open_page):
    """The call/fold page used to fetch the 1.1 MB matchups.json; it reads the same counts from matchups.bin
    (about a quarter of the size) and gives the same answer (the other call/fold tests compare it with Python)."""
    requested: list[str] = []
    page = open_page("index.html")
    page.context.on("request", lambda request: requested.append(request.url))
    page.goto(page.url.replace("index.html", "icm/spot/index.html?side=call&stacks=1500,1000,500&payouts=65,35&sb=1&bb=2"
                               "&shover=1&caller=3&range=22%2B%2CA2s%2B&hand=AKo"))
    page.wait_for_selector("#spot-verdict")
    data = [url.rsplit("/", 1)[1] for url in requested if "/data/" in url]
    assert "matchups.bin" in data and "matchups.json" not in data, data


# ------------------------------------------------------------------------------ bounties (KO and PKO)

PAGE_BOUNTY_NAMES = ("bounties", "bounty share")  # how the pages' messages name the two fields


def page_messages(page) -> list[str]:
    """Every error message on the page, in the order of its lists."""
    return page.locator("ul.error li").all_inner_texts()


def bounty_refusal(bounties_text, share_text, percent=False) -> str:
    """Python's message for bounty fields it refuses to read (generator/cli/bounties.py)."""
    from generator.cli.bounties import read_bounties
    from generator.core.errors import InputError

    with pytest.raises(InputError) as refused:
        read_bounties(bounties_text, share_text, percent, PAGE_BOUNTY_NAMES)
    return str(refused.value)


@pytest.mark.parametrize("width", [1366, 390])
def test_icm_page_with_bounties_gives_the_kernels_numbers(open_page, screenshot, axe_violations, width):
    """Bounties typed on the ICM page (the PKO example of docs/icm.md): each player's prize, bounty equity
    and total are kernels/icm/bounty.py's to the cent, the model is named as the CLI names it, the bubble
    factors are bounty.bubble_factors' (one below 1, shaded lighter than 1.00), the URL keeps the bounties."""
    from generator.cli.bounties import model_line
    from kernels.icm import bounty

    stacks, payouts, bounties = [5000, 3000, 2000], [50, 30, 20], [10, 10, 20]
    page = open_page("icm/index.html", width=width)
    page.fill("#stacks", "5,000 3,000 2,000")
    page.fill("#payouts", "50 30 20")
    page.fill("#bounties", "10 10 20")
    page.fill("#share", "50%")
    page.get_by_role("button", name="Compute").click()
    value = bounty.position_value(stacks, payouts, bounties)
    page.wait_for_function("text => document.querySelector('#icm-table td.total-ev')?.textContent === text", arg=f"{value.total[0]:,.2f}")
    assert page.locator("#icm-count").inner_text() == "Read as 3 players, 3 paid, 3 bounties."
    assert page.locator("#icm-table thead th").all_inner_texts() == ["Player", "Stack", "Chips", "Bounty", "Prize", "Bounty equity", "Total"]
    for selector, expected in (("td.ev", value.prize), ("td.bounty-ev", value.bounty), ("td.total-ev", value.total)):
        assert page.locator(f"#icm-table {selector}").all_inner_texts() == [f"{x:,.2f}" for x in expected], selector
    assert page.locator("#icm-bounty-model").inner_text() == model_line(bounties, 0.5)
    assert "bounties=10,10,20" in page.url and "share=50%25" in page.url

    factors = bounty.bubble_factors(stacks, payouts, bounties, 0.5).bubble_factor
    page.wait_for_function("v => { const c = document.querySelector('#icm-bubble td[data-bf]');"
                           " return c !== null && Math.abs(Number(c.dataset.bf) - v) <= 1e-12 * v; }", arg=factors[0, 1])
    cells = page.locator("#icm-bubble td[data-bf]")
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]
    for k, (i, j) in enumerate(pairs):
        assert abs(float(cells.nth(k).get_attribute("data-bf")) - factors[i, j]) <= 1e-12 * factors[i, j]
        assert cells.nth(k).inner_text() == f"{factors[i, j]:.2f}"
    shade = {(i, j): int(cells.nth(k).get_attribute("class")[1:]) for k, (i, j) in enumerate(pairs)}  # e0 dark ... e9 light
    assert factors[1, 2] < 1 < factors[0, 1] < factors[1, 0] and shade[1, 2] > shade[0, 1] > shade[1, 0]
    assert page.locator("#icm-bubble-bounties").is_visible()
    text = page.locator("main").inner_text()
    assert "NaN" not in text and "Infinity" not in text
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.locator("#icm-table").evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth")
    screenshot(page, f"icm-bounties-{width}")
    assert axe_violations(page) == []

    page.reload()  # the shared link restores the bounties and the share
    page.wait_for_selector("#icm-table td.total-ev")
    assert page.input_value("#bounties") == "10, 10, 20" and page.input_value("#share") == "50%"
    page.fill("#bounties", "")
    page.fill("#share", "")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_function("document.querySelector('#icm-table td.total-ev') === null")
    assert page.locator("#icm-bounty-model").is_hidden() and "bounties=" not in page.url


def test_icm_page_bad_bounties_are_one_message_each(open_page, screenshot):
    """Each bad bounty input: one message, Python's, under its field; no results, nothing not a number."""
    from kernels.icm import bounty

    stacks = [5000, 3000, 2000]
    page = open_page("icm/index.html?stacks=5000,3000,2000&payouts=50,30,20&bounties=10,10,20")
    page.wait_for_selector("#icm-table td.total-ev")
    cases = [
        ({"#bounties": "10 -1 20"}, "#bounties-error", bounty.bounty_errors(stacks, [10, -1, 20])),
        ({"#bounties": "10 10"}, "#bounties-error", bounty.bounty_errors(stacks, [10, 10])),
        ({"#share": "150%"}, "#share-error", [bounty_refusal("10 10 20", "150%")]),
        ({"#share": "half"}, "#share-error", [bounty_refusal("10 10 20", "half")]),
        ({"#payouts": "50% 30% 20%"}, "#bounties-error", [bounty_refusal("10 10 20", None, percent=True)]),
        ({"#bounties": "", "#share": "50%"}, "#share-error", [bounty_refusal(None, "50%")]),
        ({"#stacks": "5000 0 2000"}, "#bounties-error", bounty.bounty_errors([5000, 0, 2000], [10, 10, 20])),
    ]
    for typed, errors, expected in cases:
        previous = {selector: page.input_value(selector) for selector in typed}
        for selector, value in typed.items():
            page.fill(selector, value)
        page.get_by_role("button", name="Compute").click()
        page.wait_for_selector(f"{errors} li")
        assert len(expected) == 1 and page_messages(page) == expected, typed
        assert page.locator("#icm-results").is_hidden()
        field = errors.removesuffix("-error")
        assert page.get_attribute(field, "aria-invalid") == "true"
        text = page.locator("main").inner_text()
        assert "NaN" not in text and "Infinity" not in text
        screenshot(page, f"icm-bounty-error-{field[1:]}")
        for selector, value in previous.items():
            page.fill(selector, value)
        page.get_by_role("button", name="Compute").click()
        page.wait_for_selector("#icm-table td.total-ev")
    page.fill("#bounties", "10 x 20")
    page.fill("#share", "2")
    page.get_by_role("button", name="Compute").click()
    page.wait_for_selector("#share-error li")
    assert page_messages(page) == [bounty_refusal("10 x 20", None), bounty_refusal("10 10 20", "2")]  # both problems at once


@pytest.mark.parametrize("width", [1366, 390])
def test_icm_spot_with_bounties_splits_the_ev(open_page, screenshot, axe_violations, width):
    """The call/fold page with PKO bounties (the example of docs/icm.md: AJo calling a covered shover):
    the equity needed with and without bounties, the bounty equity by outcome, EV(call) − EV(fold) with its
    ICM and bounty parts and every chart cell are kernels/icm/spot.py's numbers."""
    from generator.cli.bounties import model_line
    from kernels.cards import parse_class

    page = open_page("icm/spot/index.html", width=width)
    page.wait_for_selector("#spot-verdict")
    for selector, value in (("#shover", "3"), ("#caller", "1"), ("#range", "22+, A2s+"), ("#bounties", "25 25 40"), ("#share", "50%")):
        page.fill(selector, value)
    page.get_by_role("button", name="Compute").click()
    spot, outcomes, _, ev = spot_hands("call", [1500, 1000, 500], [65, 35], "22+, A2s+", small_blind=1, big_blind=2,
                                       ante=0.25, shover=2, caller=0, bounties=[25, 25, 40], bounty_share=0.5)
    page.wait_for_function("document.querySelector('#spot-summary').textContent.includes('with bounties')")
    summary = page.locator("#spot-summary").inner_text()
    assert model_line([25, 25, 40], 0.5) in summary
    assert (f"Equity needed to call: {spot.required_total:.2%} with bounties ({spot.required_icm:.2%} under ICM alone), "
            f"{spot.required_chips:.2%} in chips.") in summary
    assert f"call and win {spot.bounty['win']:,.4f} (knocking out player 3)" in summary
    aj = parse_class("AJo")
    ev_icm = spot.ev_parts(*outcomes[aj])[0]

    def signed(x):
        return f"{'+' if x >= 0 else '−'}{abs(x):.4f}"

    verdict = page.locator("#spot-verdict").inner_text()
    assert verdict == (f"EV(call) − EV(fold) = {signed(ev[aj])} ({'+' if ev[aj] >= 0 else '−'}{abs(100 * ev[aj] / spot.pool):.3f}% of the prize "
                       f"pool): call (ICM {signed(ev_icm)}, bounties {signed(ev[aj] - ev_icm)}).")
    assert ev_icm < 0 < ev[aj]  # a fold under ICM alone, a call with the bounty
    cells = page.locator("#spot-chart a[data-i]")
    for k in range(0, 169, 5):
        index = int(cells.nth(k).get_attribute("data-i"))
        assert abs(float(cells.nth(k).get_attribute("data-ev")) - ev[index]) <= 1e-12 * (spot.pool + 90)
    assert "with bounties in % of the prize pool" in cells.first.get_attribute("title")
    assert "bounties=25%2C25%2C40" in page.url and "share=50%25" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"icm-spot-bounties-{width}")
    assert axe_violations(page) == []


def test_icm_spot_shove_side_with_bounties_from_a_shared_url(open_page):
    """The shover's side with regular KO bounties, from a link: his bounty equity by outcome and the EV's
    parts are kernels/icm/spot.py's."""
    from kernels.cards import parse_class

    page = open_page("icm/spot/index.html?side=shove&stacks=1500,1000,500&payouts=65,35&sb=1&bb=2&ante=0.25&shover=1&caller=3"
                     "&range=22%2B&hand=AJo&bounties=25,25,40&share=1")
    page.wait_for_selector("#spot-verdict")
    spot, outcomes, calls, ev = spot_hands("shove", [1500, 1000, 500], [65, 35], "22+", small_blind=1, big_blind=2,
                                           ante=0.25, shover=0, caller=2, bounties=[25, 25, 40], bounty_share=1)
    aj = parse_class("AJo")
    ev_icm = spot.ev_parts(calls[aj], *outcomes[aj])[0]
    summary = page.locator("#spot-summary").inner_text()
    assert "regular KO" in summary and f"called and win {spot.bounty['win']:,.4f} (knocking out player 3)" in summary
    verdict = page.locator("#spot-verdict").inner_text()
    assert f"(ICM {'+' if ev_icm >= 0 else '−'}{abs(ev_icm):.4f}, bounties {'+' if ev[aj] >= ev_icm else '−'}{abs(ev[aj] - ev_icm):.4f})" in verdict


def test_icm_spot_bad_bounties_are_one_message_each(open_page, screenshot):
    """On the call/fold page too: Python's message under the bounty fields, one per problem, including a
    bounty on a player the antes put all in (found by icm-spot.js in the worker); no results, no NaN."""
    from kernels.icm import spot as icm_spot

    url = "icm/spot/index.html?side=call&stacks=1500,1000,500&payouts=65,35&sb=1&bb=2&ante=0.25&shover=1&caller=3&range=22%2B&hand=AJo"
    page = open_page(url + "&bounties=25,25,40")
    page.wait_for_selector("#spot-verdict")
    cases = [
        ({"#bounties": "25 25"}, "#bounties-error", "bounties: 2 bounties for 3 players; give one per player (0 for none)"),
        ({"#share": "-10%"}, "#share-error", bounty_refusal("25 25 40", "-10%")),
        ({"#payouts": "65% 35%"}, "#bounties-error", bounty_refusal("25 25 40", None, percent=True)),
        ({"#bounties": "", "#share": "0.5"}, "#share-error", bounty_refusal(None, "0.5")),
    ]
    for typed, errors, message in cases:
        previous = {selector: page.input_value(selector) for selector in typed}
        for selector, value in typed.items():
            page.fill(selector, value)
        page.wait_for_selector(f"{errors} li")
        assert page_messages(page) == [message], typed
        assert page.locator("#spot-results").is_hidden()
        for selector, value in previous.items():
            page.fill(selector, value)
        page.wait_for_selector("#spot-verdict")
    with pytest.raises(ValueError) as refused:
        icm_spot.call_spot([1500, 1000, 0.25, 800], [65, 35], 1, 2, 0.25, 0, 1, bounties=[25, 25, 40, 10])
    page.goto(page.url.split("?")[0] + "?side=call&stacks=1500,1000,0.25,800&payouts=65,35&sb=1&bb=2&ante=0.25&shover=1"
              "&caller=2&range=22%2B&hand=AJo&bounties=25,25,40,10")
    page.wait_for_selector("#bounties-error li")
    assert page_messages(page) == [str(refused.value)]
    assert page.locator("#spot-results").is_hidden() and "NaN" not in page.locator("main").inner_text()
    screenshot(page, "icm-spot-bounty-all-in-for-the-ante")
