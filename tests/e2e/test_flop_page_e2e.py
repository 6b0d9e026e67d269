"""The flop calculator in headless Chromium: the hit table, the equity distribution and the every-flop report equal
the Python kernels' on the same input (kernels.flop.categories, kernels.flop.equity), exactly; the grid shows each
class's split; the URL holds the spot (back and forward); bad input gives a message; keyboard use, 390 px, axe-core,
and the page under a sub-path."""

from __future__ import annotations

from urllib.parse import urlencode

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from kernels.cards import ALL_COMBOS, CLASS_NAMES, COMBO_CLASS, parse_cards
from kernels.flop.categories import DRAWS, MADE_CATEGORIES, range_hit_table
from kernels.flop.equity import combo_equities, equity_distribution, every_flop_report
from kernels.flop.flops import texture
from kernels.ranges import parse_range

pytestmark = pytest.mark.e2e

DONE = "document.querySelector('#{view}-method').dataset.done === 'true'"
#: Null-safe: a predicate that throws (no such element yet) fails the wait instead of waiting on.
HITS_READY = "document.querySelector('#hits-method')?.textContent.startsWith('Exact')"


def url(view: str = "hits", **state) -> str:
    return "flop/index.html?" + urlencode({**{k: v for k, v in state.items() if v}, "view": view})


def hit_table(text: str, board: str, dead: str = ""):
    weights = parse_range(text).weights
    return range_hit_table(ALL_COMBOS, weights, parse_cards(board), parse_cards(dead), evaluator_tables())


def shown_hits(page) -> dict:
    """The hit table as shown: per kind, each row's (combos, share) from the cells' full-precision data."""
    return page.evaluate("""() => Object.fromEntries(['made', 'draws'].map((kind) => [kind,
      Array.from(document.querySelectorAll(`#hits-${kind} tbody tr`), (row) => [Number(row.cells[1].dataset.combos), Number(row.cells[2].dataset.share)])]))""")


def every_row(page) -> dict:
    """{flop index: equity or None} of the report's table, all its rows drawn ("Show more" until none is left)."""
    while page.locator("#flops-more").is_visible():
        page.click("#flops-more")
    return dict(page.locator("#flops-table tbody tr").evaluate_all(
        "rows => rows.map((r) => [Number(r.dataset.f), r.cells[3].dataset.equity === '' ? null : Number(r.cells[3].dataset.equity)])"))


def wait_hits(page, board: str):
    page.wait_for_function(f"document.querySelector('#hits-spot').textContent.includes({board!r}) && {HITS_READY}")


def test_hit_tables_on_a_flop_a_turn_and_a_river_equal_python_and_the_grid_splits_each_class(open_page, screenshot):
    text = "QQ+, AJs-ATs, 0.5(KQo, T9s), 76s:0.25, AhKh, 22-44"
    page = open_page(url(range=text, board="Kd8h3h", dead="2c"))
    for board, dead in (("Kd8h3h", "2c"), ("Kd8h3hTd", "2c"), ("Kd8h3hTd9h", "")):
        page.fill("#dead", dead)
        page.fill("#board", board)  # the hit table follows the form as it is typed
        wait_hits(page, board)
        table = hit_table(text, board, dead)
        shown = shown_hits(page)
        assert shown["made"] == [[w, s] for w, s in zip(table.made_weight.tolist(), table.made_share.tolist())]
        assert shown["draws"] == [[w, s] for w, s in zip(table.draw_weight.tolist(), table.draw_share.tolist())]
        assert sum(w for w, _ in shown["made"]) == pytest.approx(table.total, rel=1e-15)
    screenshot(page, "flop-hits-river")
    # top pair and the flush draw chosen on the flop: each class's cell counts its live combos in either
    page.fill("#board", "Kd8h3h")
    page.fill("#dead", "2c")
    wait_hits(page, "Kd8h3h")
    page.click("#hits-made button:text-is('top pair')")
    page.click("#hits-draws button:text-is('flush draw')")
    table = hit_table(text, "Kd8h3h", "2c")
    chosen = (table.made == MADE_CATEGORIES.index("top pair")) | ((table.draws >> DRAWS.index("flush draw")) & 1).astype(bool)
    classes = COMBO_CLASS[table.kept]
    cells = page.evaluate("() => Array.from(document.querySelectorAll('#hits-grid button[data-i]'), (b) => b.querySelector('.v-n').textContent)")
    for index, name in enumerate(CLASS_NAMES):
        live = int((classes == index).sum())
        assert cells[index] == (f"{int((chosen & (classes == index)).sum())}/{live}" if live else ""), name
    assert page.locator("#hits-selected").get_attribute("data-weight") == repr(float(table.weights[chosen].sum()))
    # a class pressed lists its combos, each with its category and draws, as Python reads them
    page.click("#hits-grid button[data-i='1']")  # AKs
    lines = page.locator("#combo-detail li").all_inner_texts()
    expected = []
    for k in np.flatnonzero(classes == 1):
        a, b = sorted(table.combos[k], reverse=True)
        draws = [d for i, d in enumerate(DRAWS) if (table.draws[k] >> i) & 1]
        cards = "".join("23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in (a, b))
        weight = "" if table.weights[k] == 1 else f" (weight {table.weights[k]:g})"
        expected.append(f"{cards}{weight}: {MADE_CATEGORIES[table.made[k]]}" + (f"; {', '.join(draws)}" if draws else ""))
    assert lines == expected and lines[0].startswith("AhKh: top pair; flush draw, nut flush draw")
    screenshot(page, "flop-hits-chosen")


def test_the_equity_distribution_equals_python(open_page, screenshot):
    hero, villain, board, dead = "QQ+, AKs, 0.5(AQs), JTs, 0.25(98s)", "TT+, AQ, KQs:0.5", "Qh9h4c", "2s"
    page = open_page(url("graph", range=hero, villain=villain, board=board, dead=dead))
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    expected = equity_distribution(combo_equities(parse_range(hero).weights, parse_range(villain).weights, parse_cards(board),
                                                  parse_cards(dead), evaluator_tables()))
    assert float(page.locator("#graph-overall").get_attribute("data-equity")) == expected.overall
    values = [float(v) for v in page.locator("#graph-quantiles td").evaluate_all("cells => cells.map((c) => c.dataset.value)")]
    assert values == list(expected.quantiles.values()) + list(expected.above.values())
    assert page.locator("#graph-svg path.line").count() == 1 and page.locator("#graph-svg circle").count() == len(expected.quantiles)
    summary = page.locator("#graph-summary").inner_text()
    assert f"{100 * expected.overall:.2f}%" in summary and f"{100 * expected.above[0.5]:.1f}% above 50%" in summary
    # the data table by class: each class's combos and equity weighted by its combos' weights in the deal
    rows = page.locator("#graph-classes tbody tr").evaluate_all(
        "rows => rows.map((r) => [r.cells[0].textContent, Number(r.cells[1].dataset.sort), Number(r.cells[3].dataset.sort)])")
    classes = COMBO_CLASS[expected.combos]
    for name, combos, equity in rows:
        mine = classes == CLASS_NAMES.index(name)
        assert combos == mine.sum()
        assert equity == pytest.approx(float((expected.weight[mine] * expected.equity[mine]).sum() / expected.weight[mine].sum()), rel=1e-12)
    assert sorted(name for name, *_ in rows) == sorted({CLASS_NAMES[c] for c in classes})
    assert [e for *_, e in rows] == sorted((e for *_, e in rows), reverse=True)  # equity, best first
    screenshot(page, "flop-graph")


def test_the_every_flop_report_equals_python_and_a_flop_goes_on_the_board(open_page, screenshot, base_url):
    hero, villain = "QQ+, AKs", "JJ-99, AQs"
    page = open_page(url("flops", range=hero, villain=villain))
    page.wait_for_function(DONE.format(view="flops"), timeout=60000)
    report = every_flop_report(parse_range(hero).weights, parse_range(villain).weights, evaluator_tables())
    assert float(page.locator("#flops-overall").get_attribute("data-equity")) == report.overall
    assert page.locator("#flops-table tbody tr").count() == 100  # drawn 100 at a time
    shown = every_row(page)
    assert len(shown) == 1755
    assert [shown[f] for f in range(1755)] == [None if np.isnan(e) else float(e) for e in report.equity]
    assert list(shown) == sorted(shown, key=lambda f: (-(shown[f] if shown[f] is not None else -1), f))  # best first
    page.click("#flops-table th button:text-is('Equity')")  # the other way: worst first
    assert page.locator("#flops-table th[aria-sort]").get_attribute("aria-sort") == "ascending"
    worst = [int(f) for f in page.locator("#flops-table tbody tr").evaluate_all("rows => rows.map((r) => r.dataset.f)")]
    assert worst == sorted(shown, key=lambda f: (shown[f] if shown[f] is not None else -1, f))[:100]
    page.click("#flops-table th button:text-is('Equity')")
    # filtered to monotone flops: the equity on them is Python's group figure
    page.select_option("#filter-suits", "monotone")
    monotone = np.array([texture(cards)["suits"] == "monotone" for cards in report.flops])
    assert len(every_row(page)) == monotone.sum()
    equity, _ = report.group(monotone)
    assert float(page.locator("#flops-filtered").get_attribute("data-equity")) == equity
    assert page.locator("#flops-groups tbody tr").first.text_content().startswith("Monotone")  # in a closed <details>
    screenshot(page, "flop-report-monotone")
    # the best monotone flop (the table sorted by equity, best first) onto the board: its hit table
    button = page.locator("#flops-table tbody tr button").first
    best = int(button.get_attribute("data-f"))
    assert shown[best] == max(shown[f] for f in np.flatnonzero(monotone) if shown[f] is not None)
    button.press("Enter")
    board = "".join("23456789TJQKA"[c // 4] + "cdhs"[c % 4] for c in sorted(report.flops[best], reverse=True))
    wait_hits(page, board)
    assert page.input_value("#board") == board and "view=hits" in page.url and f"board={board}" in page.url
    assert page.evaluate("document.activeElement.id") == "hits-title"
    page.go_back()  # the report again, as it was
    page.wait_for_function("!document.querySelector('#flops-view').hidden && document.querySelector('#view-flops').checked")
    assert page.input_value("#board") == ""  # the report's address had none


def test_the_url_holds_the_spot_back_and_forward_and_bad_input_is_named(open_page, base_url, screenshot):
    page = open_page(url(range="AA,KK", villain="QQ", board="Ah7d2c"))
    wait_hits(page, "Ah7d2c")
    page.click("label[for=view-graph]")
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    graph_url = page.url
    assert "view=graph" in graph_url and "board=Ah7d2c" in graph_url
    page.fill("#board", "Kh7d2c")
    page.click("#compute")
    page.wait_for_function("document.querySelector('#graph-spot').textContent.includes('Kh7d2c')")
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    assert "board=Kh7d2c" in page.url
    page.go_back()
    page.wait_for_function("document.querySelector('#board').value === 'Ah7d2c' && document.querySelector('#graph-spot').textContent.includes('Ah7d2c')")
    page.go_forward()
    page.wait_for_function("document.querySelector('#board').value === 'Kh7d2c'")
    again = open_page(page.url.removeprefix(base_url))
    again.wait_for_function(DONE.format(view="graph"), timeout=60000)
    assert [again.input_value(f"#{name}") for name in ("range", "villain", "board", "dead")] == ["AA,KK", "QQ", "Kh7d2c", ""]
    # bad input: a visible message each, never NaN or a spinner left running
    for state, view, message in (
        ({"range": "AA,KQx", "board": "Ah7d2c"}, "hits", 'Your range: token "KQx" (column 4)'),
        ({"range": "AA", "board": "Ah7d"}, "hits", "Board: the hit table needs a flop, turn or river (3, 4 or 5 cards), got 2"),
        ({"range": "AA", "board": "Ah7dAh"}, "hits", "Board: duplicate card Ah"),
        ({"range": "AA", "board": "AhAdAc", "dead": "As"}, "hits", "Your range: no combo of the range is left"),
        ({"range": "AA", "board": "Ah7d2c", "dead": "2c"}, "hits", "Dead cards: 2c also on the board"),
        ({"range": "KK", "villain": "AA", "board": "AhAd2c", "dead": "As"}, "graph", "Villain's range (AA): no hand left"),
        ({"range": "AsKs", "villain": "QQ"}, "flops", "Your range is not suit-symmetric"),
    ):
        page = open_page(url(view, **state))
        page.wait_for_function(f"document.body.innerText.includes({message!r})", timeout=30000)
        text = page.locator("main").inner_text()
        assert "NaN" not in text and page.locator(f"#{view}-view").is_hidden(), (state, text)
    screenshot(page, "flop-error")


def test_a_long_report_shows_progress_and_an_estimate_and_stops(open_page):
    page = open_page(url("flops", range="25%", villain="25%"))
    page.wait_for_function("document.querySelector('#flops-overall').dataset.state === 'partial'", timeout=60000)
    assert "about" in page.locator("#flops-method").inner_text() and "left" in page.locator("#flops-method").inner_text()
    assert page.locator("#flops-list").is_hidden() and page.locator("#flops-svg circle").count() > 0
    estimate = float(page.locator("#flops-overall").get_attribute("data-equity"))
    assert estimate == pytest.approx(0.5, abs=1e-12)  # equal ranges: each board counts A's wins as B's, so any part gives ½
    if page.evaluate("() => { const b = document.querySelector('#flops-stop'), running = !b.hidden; if (running) b.click(); return running; }"):
        page.wait_for_function("document.querySelector('#flops-method').dataset.done === 'stopped'")
        assert page.locator("#flops-method").inner_text().startswith("Stopped after")
        assert page.locator("#flops-progress").is_hidden() and page.locator("#flops-stop").is_hidden()
        assert page.locator("#flops-overall").get_attribute("data-state") == "partial"  # the estimate stays, marked
    # the report again, then the equity graph asked for while it runs: the report stops, and says so in its view
    page.click("#compute")
    page.wait_for_function("!document.querySelector('#flops-stop').hidden")
    page.fill("#board", "Ks9d4c")
    running = page.evaluate("() => { const r = !document.querySelector('#flops-stop').hidden; document.querySelector('label[for=view-graph]').click(); return r; }")
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    page.click("label[for=view-flops]")
    if running:
        assert page.locator("#flops-method").inner_text().startswith("Stopped after")
        assert page.locator("#flops-progress").is_hidden() and page.locator("#flops-stop").is_hidden()


def test_keyboard_phone_width_and_axe(open_page, axe_violations, screenshot):
    page = open_page(url(range="JJ+,AQs+,KQs,AKo", villain="TT+,AK", board="Jh8h2c"), width=390)
    wait_hits(page, "Jh8h2c")
    assert axe_violations(page) == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # a row chosen by keyboard, then the grid: one tab stop, arrow keys, Enter lists the class's combos
    page.focus("#hits-made button:text-is('set')")
    page.keyboard.press("Enter")
    assert page.locator("#hits-made button:text-is('set')").get_attribute("aria-pressed") == "true"
    page.focus("#hits-grid button[data-i='0']")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")  # AKs → KK
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.i") == "14"
    assert page.locator("#combo-detail p").inner_text() == "KK: 6 live combos"
    assert page.locator("#hits-grid button[tabindex='0']").count() == 1
    screenshot(page, "flop-hits-390")
    # the views by keyboard: arrow keys move between the radio buttons
    page.focus("#view-hits")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    assert "view=graph" in page.url
    page.locator("#graph-classes").evaluate("t => t.closest('details').open = true")
    assert axe_violations(page) == []
    screenshot(page, "flop-graph-390")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(DONE.format(view="flops"), timeout=60000)
    page.locator("#flops-groups").evaluate("t => t.closest('details').open = true")
    assert axe_violations(page) == []
    first = page.locator("#flops-table tbody button").first
    first.focus()
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.f") == page.locator("#flops-table tbody button").nth(1).get_attribute("data-f")
    assert page.locator("#flops-table button[tabindex='0']").count() == 1
    screenshot(page, "flop-report-390")
    dark = open_page(url(range="JJ+,AQs+", villain="TT+", board="Jh8h2c"), width=1280, scheme="dark")
    wait_hits(dark, "Jh8h2c")
    dark.click("#hits-made button:text-is('overpair')")
    assert axe_violations(dark) == []


def test_the_page_works_under_a_sub_path(open_sub_path, sub_path_origin):
    page = open_sub_path("index.html")
    page.click("nav a:text-is('Flop')")
    page.wait_for_url(f"{sub_path_origin}/atlas/flop/index.html*")  # the wait below then reads the flop page, not the home page
    page.wait_for_function(HITS_READY)
    page.click("label[for=view-graph]")
    page.wait_for_function(DONE.format(view="graph"), timeout=60000)
    assert page.url.startswith(f"{sub_path_origin}/atlas/flop/index.html?")
