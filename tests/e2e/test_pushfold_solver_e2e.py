"""The push/fold solver page in headless Chromium: tables of the precomputed set shown at once (no
worker started), URL state, validation messages equal to kernels.pushfold.table_errors, the
call-spot selector and keyboard use of the charts; tables with KO / PKO bounties solved by the worker and
checked by Python's best response, their messages under the bounty fields."""

from __future__ import annotations

import json
import re

import pytest
from page_weight import stalled_after
from test_site_e2e import bounty_refusal

from kernels.cards import CLASS_NAMES
from kernels.pushfold import Table, table_errors

pytestmark = pytest.mark.e2e

SOLVER = "pushfold/solver/index.html"
DRAWN = "document.querySelector('#solver-solution[data-state=drawn]:not([data-provisional]):not([data-forming])')"  # a final answer
READY = f"{DRAWN} || document.querySelector('#table-error li')"


def solved(page):
    page.wait_for_function(READY, timeout=60000)
    return page


def shown_frequencies(page, grid_id: str) -> dict:
    """The ``data-f`` of each cell of one chart, by class name."""
    return page.eval_on_selector_all(f"#{grid_id} a[data-i]", "links => Object.fromEntries(links.map(a => [a.querySelector('b').textContent, Number(a.dataset.f)]))")


@pytest.mark.parametrize(("query", "file"), [
    ("stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1", "4p-bba1-chipev/12.json"),
    ("stacks=15,10,5&blinds=0.5,1&ante=0&bbante=0&payouts=65,35", "3p-icm-65-35-mixed/0.json"),  # an unequal-stack example
    ("stacks=20,20,20&blinds=1,2&ante=0&bbante=0&payouts=5,3,2", "3p-icm-50-30-20/10.json"),  # the same game in other units
    ("stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=6,6,6,6&share=50%25", "4p-bba1-chipev-pko50-b50/12.json"),  # PKO
    ("stacks=24,24,24,24&blinds=1,2&ante=2&bbante=1&bounties=12,12,12,12&share=0.5", "4p-bba1-chipev-pko50-b50/12.json"),
    ("stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=0,0,0,0", "4p-bba1-chipev/12.json"),  # zero bounties are none
])
def test_a_precomputed_table_is_shown_at_once_without_the_worker(open_page, site_dir, query, file):
    requests = []
    page = open_page(f"{SOLVER}?{query}")
    page.on("request", lambda r: requests.append(r.url))
    solved(page)
    solution = json.loads((site_dir / "data" / "pushfold" / file).read_text())
    assert page.locator("#solver-source").inner_text().startswith("Precomputed by the build")
    assert "Precomputed" in page.locator("#solver-method").inner_text()
    exploit = solution["exploitability"]
    expected = f"{exploit['bb']:.4f} bb per hand" if exploit["bb"] is not None else f"{exploit['pool_pct']:.4f}% of the prize pool"
    assert page.locator("#solver-nash-conv").inner_text() == expected
    shove_grids = page.locator("table.frequency-grid[id^='shove-']")
    assert shove_grids.count() == len(solution["shove"]) == len(solution["positions"]) - 1
    for position, frequencies in solution["shove"].items():
        shown = shown_frequencies(page, f"shove-{re.sub('[^A-Za-z0-9]+', '-', position)}")
        assert shown == {name: frequencies.get(name, 0) for name in CLASS_NAMES}  # omitted classes are 0
    assert not any(url.endswith(("pushfold-worker.js", "matchups.bin", "threeway.bin.gz")) for url in requests)
    assert "NaN" not in page.inner_text("main") and "Infinity" not in page.inner_text("main")
    assert page.locator("#solver-source").inner_text() == f"Precomputed by the build ({file.split('/')[0]})"
    if "pko" in file:  # the model named with the bounties
        assert page.locator("#solver-bounty-model").inner_text().startswith("Bounties: ")


def test_a_pko_table_off_the_set_is_solved_from_the_nearest_pko_table_never_a_table_without_bounties(open_page):
    """Other bounties on the PKO set's stacks: not the precomputed PKO chart (nor the bounty-free one of those stacks),
    but solved by the worker, started from the nearest table of the same bounty share; cancelled once it runs."""
    requests = []
    page = open_page("index.html")
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page.url.replace("index.html", f"{SOLVER}?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1&bounties=3,3,3,3&share=50%25"))
    page.wait_for_function("document.getElementById('solver-method').textContent.includes('iteration')", timeout=240000)
    fetched = [url.split("/data/")[1] for url in requests if re.search("/data/pushfold/[^/]+/", url)]
    assert fetched == ["pushfold/4p-bba1-chipev-pko50-b50/12.json"]  # the start only
    page.click("#cancel")
    page.wait_for_function("document.getElementById('solver-method').textContent.startsWith('Cancel')", timeout=30000)


def test_call_spots_are_listed_calls_first_and_the_chart_follows_the_selector(open_page, site_dir):
    page = solved(open_page(f"{SOLVER}?stacks=8,8,8,8&blinds=0.5,1&ante=1&bbante=1"))
    solution = json.loads((site_dir / "data" / "pushfold" / "4p-bba1-chipev" / "8.json").read_text())
    options = page.eval_on_selector_all("#call-spot option", "os => os.map(o => o.value)")
    assert sorted(options) == sorted(solution["call"])
    lone = [o for o in options if "+" not in o]
    assert options[: len(lone)] == lone and options[:3] == ["BTN vs CO", "SB vs CO", "BB vs CO"]
    overcall = next(o for o in options if o.count("+") == 2)  # "BB vs CO+BTN+SB"
    page.select_option("#call-spot", overcall)
    grid = page.locator("#call-chart table.frequency-grid")
    expected = {name: solution["call"][overcall].get(name, 0) for name in CLASS_NAMES}
    assert shown_frequencies(page, grid.get_attribute("id")) == expected
    share = sum(f * (6 if len(n) == 2 else 4 if n.endswith("s") else 12) for n, f in expected.items()) / 1326
    assert page.locator("#call-chart h3 .share").text_content() == f"{100 * share:.1f}% of hands"


def test_the_table_lives_in_the_url_and_a_reload_restores_it(open_page, base_url):
    page = solved(open_page(SOLVER))
    page.select_option("#players", "5")
    assert page.eval_on_selector_all("#stack-fields label", "ls => ls.map(l => l.textContent)") == ["UTG", "CO", "BTN", "SB", "BB"]
    for seat, stack in enumerate(["22", "14.5", "9", "30", "7"]):
        page.fill(f"#stack-{seat}", stack)
    page.fill("#sb", "1")
    page.fill("#bb", "2")
    page.fill("#ante", "2")
    page.check("#bbante")
    page.fill("#payouts", "50, 30, 20")
    page.click("#solve")
    page.wait_for_function("location.search.includes('stacks=22')")
    query = page.evaluate("location.search")
    assert query == "?stacks=22,14.5,9,30,7&blinds=1,2&ante=2&bbante=1&payouts=50,30,20"
    again = open_page(SOLVER + query)
    assert again.locator("#players").input_value() == "5"
    assert [again.locator(f"#stack-{seat}").input_value() for seat in range(5)] == ["22", "14.5", "9", "30", "7"]
    assert (again.locator("#sb").input_value(), again.locator("#bb").input_value(), again.locator("#ante").input_value()) == ("1", "2", "2")
    assert again.locator("#bbante").is_checked() and again.locator("#payouts").input_value() == "50, 30, 20"


def test_a_preset_opens_its_table(open_page):
    page = solved(open_page(SOLVER))
    page.get_by_role("link", name="SNG bubble, 4-handed, 50/30/20").click()
    page.wait_for_url("**?stacks=20,15,10,5&*payouts=50,30,20")  # the new page's scripts have run by its load event
    assert page.locator("#players").input_value() == "4"
    assert [page.locator(f"#stack-{seat}").input_value() for seat in range(4)] == ["20", "15", "10", "5"]
    assert page.locator("#payouts").input_value() == "50, 30, 20"


@pytest.mark.parametrize(("query", "table"), [
    ("stacks=10,0.3,10&blinds=2,1&ante=-1&bbante=0&payouts=5,4,3,2", Table((10.0, 0.3, 10.0), (2.0, 1.0), -1.0, False, (5.0, 4.0, 3.0, 2.0))),
    ("stacks=10,10,1&blinds=0.5,1&ante=0.5&bbante=1&payouts=0,0", Table((10.0, 10.0, 1.0), (0.5, 1.0), 0.5, True, (0.0, 0.0))),
])
def test_bad_tables_get_the_solvers_messages_one_per_problem(open_page, query, table):
    page = solved(open_page(f"{SOLVER}?{query}"))
    messages = page.eval_on_selector_all("#table-error li", "lis => lis.map(li => li.textContent)")
    assert messages == table_errors(table) and messages
    assert page.locator("#solver-results").is_hidden()
    assert page.locator("[aria-invalid='true']").count() >= 1


def test_numbers_that_do_not_read_are_named_by_field(open_page):
    page = solved(open_page(f"{SOLVER}?stacks=10,abc,&blinds=0.5,x&ante=1e999&bbante=0&payouts=50,3o"))
    messages = page.eval_on_selector_all("#table-error li", "lis => lis.map(li => li.textContent)")
    assert messages == ["Stack of SB: not a number: abc", "Stack of BB: give a number", "Big blind: not a number: x",
                        "Ante: must be a finite number, got 1e999", "Payouts: entry 2 is not a number (3o)"]
    assert page.locator("#stack-1").get_attribute("aria-invalid") == "true"
    assert page.locator("#stack-0").get_attribute("aria-invalid") == "false"
    assert "NaN" not in page.inner_text("main")


@pytest.mark.parametrize("width", [390, 1366])
def test_numbers_read_as_on_the_icm_pages(open_page, screenshot, width):
    """One grammar with the ICM pages and the CLI: "10,000" is a stack of ten thousand, payouts may have
    thousands separators; the URL holds the numbers read (its commas only separate entries)."""
    page = solved(open_page(SOLVER, width=width))
    held = []  # the precomputed file is held back (as on a loaded machine): meanwhile the page must not look "drawn"
    page.route("**/data/pushfold/3p-icm-50-30-20/*.json", lambda route: held.append(route))
    for seat in range(3):
        page.fill(f"#stack-{seat}", "10,000")
    page.fill("#sb", "500")
    page.fill("#bb", "1,000")
    page.fill("#payouts", "5,000, 3,000, 2,000")
    page.click("#solve")
    page.wait_for_function("location.search.includes('stacks=10000')")
    page.wait_for_timeout(300)
    assert held and not page.evaluate(DRAWN), "the last table's charts still count as drawn"
    held[0].continue_()
    solved(page)
    assert page.eval_on_selector_all("#table-error li", "lis => lis.length") == 0
    assert page.evaluate("location.search") == "?stacks=10000,10000,10000&blinds=500,1000&ante=0&bbante=0&payouts=5000,3000,2000"
    assert page.locator("#solver-source").inner_text().startswith("Precomputed by the build (3p-icm-50-30-20)")
    screenshot(page, f"solver-thousands-{width}")


def test_a_link_with_too_many_seats_keeps_ten_and_says_so(open_page):
    page = open_page(f"{SOLVER}?stacks=" + ",".join(["10"] * 12))  # (a 10-seat solve starts; not waited for)
    assert page.locator("#players").input_value() == "10"
    assert "the first 10 are kept" in page.locator("#solver-link-note").inner_text()


def test_charts_are_one_tab_stop_with_arrow_keys(open_page):
    page = solved(open_page(f"{SOLVER}?stacks=12,12,12,12&blinds=0.5,1&ante=0&bbante=0"))
    first = page.locator("#shove-CO a[data-i='0']")
    assert page.eval_on_selector_all("#shove-CO a[data-i]", "as => as.filter(a => a.tabIndex === 0).length") == 1
    first.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.i") == "14"
    assert page.evaluate("document.activeElement.closest('table').id") == "shove-CO"


@pytest.mark.parametrize("width", [1280, 390])
def test_screenshots(open_page, screenshot, width):
    page = solved(open_page(f"{SOLVER}?stacks=12,12,12,12&blinds=0.5,1&ante=1&bbante=1", width=width))
    screenshot(page, f"pushfold-solver-{width}")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"
    for grid in page.locator("table.frequency-grid").all():  # every chart's 13 columns in view, no cell clipped
        assert grid.evaluate("t => t.getBoundingClientRect().width <= t.parentElement.clientWidth + 0.5")
        cells = grid.locator("a[data-i]").evaluate_all(
            "links => links.map(a => [parseFloat(getComputedStyle(a).fontSize), a.scrollWidth <= a.clientWidth, a.scrollHeight <= a.clientHeight])")
        assert len(cells) == 169 and all(size >= 12 and across and down for size, across, down in cells), width


def test_download_gives_the_solution_object(open_page, site_dir):
    page = solved(open_page(f"{SOLVER}?stacks=15,10,5&blinds=0.5,1&ante=0&bbante=0&payouts=65,35"))
    with page.expect_download() as download:
        page.click("#solver-download")
    assert download.value.suggested_filename == "pushfold-3p-15-10-5-icm-65-35.json"
    saved = json.loads(open(download.value.path()).read())
    assert saved == json.loads((site_dir / "data" / "pushfold" / "3p-icm-65-35-mixed" / "0.json").read_text())


RECORD_STATUS = """
window.statusTexts = [];
new MutationObserver(() => {
  const text = document.getElementById('solver-method')?.textContent;
  if (text && window.statusTexts.at(-1) !== text) window.statusTexts.push(text);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


def solve_in_browser(open_page, query: str, timeout_ms: int = 240000):
    page = open_page("index.html")
    page.add_init_script(RECORD_STATUS)
    page.goto(page.url.replace("index.html", f"{SOLVER}?{query}"))
    page.wait_for_function(READY, timeout=timeout_ms)
    assert page.locator("#table-error li").count() == 0, page.locator("#table-error").inner_text()
    return page


def test_a_3_handed_table_outside_the_set_is_solved_by_the_worker_under_the_target(open_page):
    page = solve_in_browser(open_page, "stacks=7,9,11&blinds=0.5,1&ante=0&bbante=0")
    texts = page.evaluate("window.statusTexts")
    assert any(re.search(r"Downloading the equity tables: \d+\.\d MB of \d+\.\d MB…", t) for t in texts), texts
    solving = [t for t in texts if ": iteration " in t]  # "Solving", or with a first answer before: "Solving again with the 3-way table"
    assert solving and all("NaN" not in t for t in solving), texts
    assert page.locator("#solver-source").inner_text().startswith("Solved in your browser")
    conv = page.locator("#solver-nash-conv").inner_text()
    assert re.fullmatch(r"\d\.\d{4} bb per hand", conv) and float(conv.split()[0]) <= 0.01
    assert page.locator("table.frequency-grid[id^='shove-']").count() == 2  # BTN and SB
    assert page.eval_on_selector_all("#call-spot option", "os => os.map(o => o.value)") == ["SB vs BTN", "BB vs BTN", "BB vs SB", "BB vs BTN+SB"]
    assert page.locator("#cancel").is_hidden() and page.locator("#solver-progress").is_hidden()


def test_each_hand_s_gain_over_folding_is_in_its_cell_and_residue_is_gone(open_page):
    """The browser's answer: no "<1" residue (cleaned as the build's charts), mixed hands framed, and "Cells show"
    swaps each frequency for what shoving gains over folding (also in the cell's label), a pure shove gaining, a fold not."""
    page = solve_in_browser(open_page, "stacks=7,9,11&blinds=0.5,1&ante=0&bbante=0")
    cells = page.locator("#shove-BTN td a")
    frequencies = cells.evaluate_all("links => links.map(a => Number(a.dataset.f))")
    assert len(frequencies) == 169 and not any(0 < f < 0.005 or 0.995 < f < 1 for f in frequencies)
    assert "<1" not in page.locator("#shove-BTN").inner_text()
    mixed = page.locator("#shove-BTN td.mixed").count()
    assert mixed == sum(0 < f < 1 for f in frequencies)
    page.click("label[for=solver-cells-gain]")
    gains = cells.evaluate_all("links => links.map(a => a.querySelector('.v-gain').textContent)")
    visible = page.locator("#shove-BTN td a .v-gain").first.is_visible()
    assert visible and all(re.fullmatch(r"[+−±]\d+(\.\d+)?|–", g) for g in gains), gains
    labels = cells.evaluate_all("links => links.map(a => a.title)")
    for f, gain, label in zip(frequencies, gains, labels):
        if f == 1 and gain != "–":
            assert not gain.startswith("−") or float(gain[1:]) <= 0.01, (gain, label)
        if f == 0 and gain != "–":
            assert not gain.startswith("+") or float(gain[1:]) <= 0.01, (gain, label)
    assert any("shoving gains" in label and "over folding" in label for label in labels), labels[:3]


def test_the_issue_s_icm_table_is_solved_until_every_hand_is_within_the_class_tolerance(open_page, site_dir):
    """The reader's 12/8/20/5 bb 50/30/20 table used to stop after 10 iterations with hands mixed although one
    action beat the other by 0.13-0.32% of the pool: the page now runs until every hand at every decision is
    within 0.01% of the pool of its better action, says so while solving and in the result; Python's best
    response on the same tables (the site's threeway.bin.gz) confirms the figure."""
    import kernels.pushfold as pf
    from generator.compute.threeway_bin import read_threeway_bin
    from generator.compute.stages.headsup import headsup_results
    from generator.compute.pushfold_records import holdem_equities, record_strategy

    page = solve_in_browser(open_page, "stacks=12,8,20,5&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20")
    texts = page.evaluate("window.statusTexts")
    assert any("worst regret of a hand" in t and "(target 0.0100% of the pool)" in t for t in texts), texts
    regret = page.locator("#solver-class-regret").inner_text()
    assert 0 <= float(regret.split("%")[0]) <= 0.01 and "above the stopping rule" not in regret, regret
    with page.expect_download() as download:
        page.click("#solver-download")
    solution = json.loads(open(download.value.path()).read())
    game = pf.make_game(pf.Table((12.0, 8.0, 20.0, 5.0), payouts=(50.0, 30.0, 20.0)))
    tables, _ = headsup_results(progress=False)
    equities = holdem_equities(tables, read_threeway_bin((site_dir / "data" / "threeway.bin.gz").read_bytes(), (site_dir / "data" / "matchups.bin").read_bytes()))
    check = pf.best_response(game, equities, record_strategy(game, solution))  # a pool of 100: prize units = % of it
    assert solution["rule_met"] and check.max_class_regret <= 0.01 + 1e-4
    assert abs(check.max_class_regret - solution["class_regret"]["pool_pct"]) <= 1e-4


def test_a_heads_up_solution_from_the_browser_passes_the_python_best_response(open_page):
    """The downloaded solution's NashConv recomputed by kernels.pushfold (an independent check
    of what the page shows) is under the 0.01 bb target."""
    import numpy as np

    import kernels.pushfold as pf
    from generator.compute.stages.headsup import headsup_results
    from generator.compute.pushfold_records import holdem_equities

    page = solve_in_browser(open_page, "stacks=7.5,7.5&blinds=0.5,1&ante=0&bbante=0")
    with page.expect_download() as download:
        page.click("#solver-download")
    solution = json.loads(open(download.value.path()).read())
    game = pf.make_game(pf.Table((7.5, 7.5)))
    strategy = {("open", 0): np.array([solution["shove"]["SB"].get(n, 0.0) for n in CLASS_NAMES]),
                ("call", 1, 0, ()): np.array([solution["call"]["BB vs SB"].get(n, 0.0) for n in CLASS_NAMES])}
    tables, _ = headsup_results(progress=False)
    conv = pf.nash_conv(game, holdem_equities(tables), strategy)
    assert conv <= 0.01
    shown = float(page.locator("#solver-nash-conv").inner_text().split()[0])
    assert abs(shown - conv) <= 1e-4 + 1e-3 * conv  # the page's figure is the Python best response's, to its 4 decimals


def test_the_nearest_precomputed_table_is_offered_as_a_start_and_the_outcome_said(open_page):
    """The site's precomputed tables here are synthetic (far from any equilibrium), so the worker refuses the
    start (its NashConv is above START_WITHIN tolerances) and says so; the accepted start is tested in node."""
    page = solve_in_browser(open_page, "stacks=12,12,12&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20")
    assert ("It started from a uniform strategy: the precomputed table with stacks 10, 10, 10 bb was too far from this "
            "table's equilibrium to help.") in page.locator("#solver-method").inner_text()
    assert page.locator("#solver-nash-conv").inner_text().endswith("% of the prize pool")


def test_a_first_answer_is_shown_while_the_three_way_table_downloads(open_page, site_dir):
    """With threeway.bin.gz stalled after its compatible counts, the page shows a first answer (marked as priced
    from heads-up results) and says the download goes on; when the file arrives, the answer on it replaces it."""
    with stalled_after(site_dir, "data/threeway.bin.gz"):
        page = open_page(f"{SOLVER}?stacks=13,9,7&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20")
        page.wait_for_function("document.querySelector('#solver-solution[data-provisional][data-state=drawn]:not([data-forming])')", timeout=120000)
        assert page.locator("#solver-source").inner_text().startswith("First answer, solved in your browser")
        assert "priced from heads-up results" in page.locator("#solver-source").inner_text()
        status = page.locator("#solver-method").inner_text()
        assert "Downloading the equity tables" in status and page.locator("#cancel").is_visible(), status
    page.wait_for_function(DRAWN, timeout=120000)
    assert page.locator("#solver-source").inner_text().startswith("Solved in your browser")
    assert page.locator("#cancel").is_hidden() and page.locator("#solver-progress").is_hidden()


def test_the_answer_forms_and_a_stop_keeps_it_then_a_new_table_can_be_solved(open_page):
    """A 9-handed ICM table: the answer so far is drawn at the first check, or after the first iteration when that took
    over a second (marked forming, with its NashConv and worst regret); Stop keeps it on the page and says so; a new
    table is then solved as usual."""
    page = open_page(f"{SOLVER}?stacks=20,20,20,20,20,20,20,20,20&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20")
    page.wait_for_function("document.querySelector('#solver-solution[data-forming][data-state=drawn]')", timeout=240000)
    source = page.locator("#solver-source").inner_text()
    assert re.fullmatch(r"Forming: the answer after (1 iteration|([02-9]|\d\d+) iterations) \(NashConv .+% of the pool, worst regret of a hand .+% of the pool\); "
                        r"the solve goes on", source), source
    assert page.locator("#cancel").is_visible() and not page.evaluate(DRAWN)
    page.click("#cancel")
    page.wait_for_function("document.getElementById('solver-method').textContent.startsWith('Stopped: the answer shown is the one after ')",
                           timeout=10000)
    assert page.locator("#cancel").is_hidden() and page.locator("#solver-results").is_visible()
    assert page.locator("#solver-solution .pushfold-grid").count() > 0
    assert page.evaluate("document.activeElement.id") == "solve"
    page.fill("#stack-0", "12")  # 9 seats → pick a precomputed 4-seat table instead
    page.select_option("#players", "4")
    for seat in range(4):
        page.fill(f"#stack-{seat}", "12")
    page.fill("#payouts", "")
    page.click("#solve")
    page.wait_for_function(DRAWN)
    assert page.locator("#solver-source").inner_text().startswith("Precomputed")


def test_a_damaged_solution_file_gives_a_message_not_a_chart(open_page, base_url):
    page = open_page("index.html")
    damaged = {"positions": ["CO", "BTN", "SB", "BB"], "shove": {"CO": {"AA": "x"}}, "call": {}, "exploitability": {"bb": 0.001, "pool_pct": None}}
    page.route("**/data/pushfold/4p-chipev/12.json", lambda route: route.fulfill(status=200, content_type="application/json", body=json.dumps(damaged)))
    page.goto(f"{base_url}{SOLVER}?stacks=12,12,12,12&blinds=0.5,1&ante=0&bbante=0")
    page.wait_for_function("document.querySelector('#table-error li')")
    assert page.locator("#table-error li").all_inner_texts() == ['The solution cannot be shown: shove "CO": AA has the probability "x".']
    assert page.locator("#solver-results").is_hidden() and page.locator("#solver-method").inner_text() == ""


# ------------------------------------------------------------------------------ bounties (KO and PKO)

PKO_QUERY = "stacks=12,8,20,5&blinds=0.5,1&ante=0&bbante=0&payouts=50,30,20&bounties=10,10,20,5&share=50%25"


def test_a_pko_table_is_solved_in_the_browser_and_passes_python_s_best_response(open_page, site_dir, screenshot, axe_violations):
    """A 4-handed ICM table with PKO bounties (the e2e set has no ICM PKO table, so the worker solves it from no start): the model
    named as the CLI names it, the bounties in the table line, the URL and the file; Python's best response on the
    site's own tables confirms the stopping rule. At 390 px nothing scrolls sideways; no axe violation at 390 or 1366."""
    import kernels.pushfold as pf
    from generator.cli.bounties import model_line
    from generator.compute.threeway_bin import read_threeway_bin
    from generator.compute.stages.headsup import headsup_results
    from generator.compute.pushfold_records import holdem_equities, record_strategy

    requests = []
    page = open_page("index.html", width=390)
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page.url.replace("index.html", f"{SOLVER}?{PKO_QUERY}"))
    page.wait_for_function(READY, timeout=240000)
    assert page.locator("#table-error li").count() == 0, page.locator("#table-error").inner_text()
    assert page.locator("#solver-source").inner_text().startswith("Solved in your browser")
    assert not any(re.search("/data/pushfold/[^/]+/", url) for url in requests)  # the index read, no answer or start from the set
    assert page.locator("#solver-bounty-model").inner_text() == model_line([10, 10, 20, 5], 0.5)
    assert page.locator("#solver-table").inner_text().endswith("ICM, payouts 50/30/20 · bounties 10/10/20/5")
    assert (page.locator("#bounties").input_value(), page.locator("#share").input_value()) == ("10, 10, 20, 5", "50%")
    assert page.evaluate("location.search") == f"?{PKO_QUERY}"
    with page.expect_download() as download:
        page.click("#solver-download")
    assert download.value.suggested_filename == "pushfold-4p-12-8-20-5-icm-50-30-20-bounties-10-10-20-5-share-0.5.json"
    solution = json.loads(open(download.value.path()).read())
    assert solution["table"]["bounties"] == [10, 10, 20, 5] and solution["table"]["bounty_share"] == 0.5
    table = pf.Table((12.0, 8.0, 20.0, 5.0), payouts=(50.0, 30.0, 20.0), bounties=(10.0, 10.0, 20.0, 5.0), bounty_share=0.5)
    game = pf.make_game(table)
    tables, _ = headsup_results(progress=False)
    equities = holdem_equities(tables, read_threeway_bin((site_dir / "data" / "threeway.bin.gz").read_bytes(), (site_dir / "data" / "matchups.bin").read_bytes()))
    check = pf.best_response(game, equities, record_strategy(game, solution))  # a prize pool of 100: prize units = % of it
    assert solution["rule_met"] and check.max_class_regret <= 0.01 + 1e-4 and check.gains.sum() <= 0.05 + 1e-4
    assert abs(check.gains.sum() - solution["exploitability"]["pool_pct"]) <= 1e-4
    for width in (390, 1366):
        page.set_viewport_size({"width": width, "height": 900})
        overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"
        assert axe_violations(page) == [], width
        screenshot(page, f"pushfold-solver-pko-{width}")


@pytest.mark.parametrize(("query", "field", "expected"), [
    ("stacks=10,10,10&bounties=1,-1,0", "bounties", lambda: table_errors(Table((10.0,) * 3, bounties=(1.0, -1.0, 0.0)))),
    ("stacks=10,10,10&payouts=50,30,20&bounties=1,1", "bounties",
     lambda: table_errors(Table((10.0,) * 3, payouts=(50.0, 30.0, 20.0), bounties=(1.0, 1.0)))),
    ("stacks=10,10,10&bounties=1,1,1&share=150%25", "share", lambda: [bounty_refusal("1 1 1", "150%")]),
    ("stacks=10,10,10&share=0.5", "share", lambda: [bounty_refusal(None, "0.5")]),
    ("stacks=10,10,10&payouts=50%25,50%25&bounties=1,1,1", "bounties", lambda: [bounty_refusal("1 1 1", None, percent=True)]),
])
def test_bad_bounties_get_python_s_messages_under_their_fields(open_page, query, field, expected):
    page = open_page(f"{SOLVER}?{query}")
    page.wait_for_function(f"document.querySelector('#{field}-error li')", timeout=60000)
    assert page.locator(f"#{field}-error li").all_inner_texts() == expected()
    assert page.locator("#table-error li").count() == 0 and page.locator("#solver-results").is_hidden()
    assert page.locator(f"#{field}").get_attribute("aria-invalid") == "true"
    assert page.locator("#stack-0").get_attribute("aria-invalid") == "false"
