"""The flop table page and a hand page's flop section in headless Chromium, on the e2e site's real flop files
rendered under the sub-path /atlas/ (conftest's ``open_sub_path``): filter, sort, pick a flop by keyboard, the URL's
state read back, the chart's figures against flops.json, a phone's 390 px, a stopped download, axe-core."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest
from conftest import QuietHandler

from generator.data.datafiles import FLOPS_BIN_SCALE, read_flops_bin
from generator.site.flop_pages import flop_extremes, flop_param
from kernels.cards import CLASS_NAMES, parse_cards

pytestmark = pytest.mark.e2e
PAGE = "flop/all/index.html"
DRAWN = "document.querySelector('#flop-table[data-state=drawn]')"


@pytest.fixture(scope="module")
def flops(site_dir) -> dict:
    document = json.loads((site_dir / "data" / "flops.json").read_text())
    return {**document, "bin": read_flops_bin((site_dir / "data" / "flops.bin").read_bytes())}


def visible_flops(page) -> list[str]:
    return page.eval_on_selector_all("#flop-table tbody th a", "links => links.map(a => new URL(a.href).searchParams.get('flop'))")


def test_filter_sort_pick_by_keyboard_and_read_the_state_back_from_the_url(open_sub_path, flops, axe_violations, screenshot):
    page = open_sub_path(PAGE)
    page.wait_for_function(DRAWN)
    assert len(visible_flops(page)) == len(flops["flops"]) == 1755
    page.select_option("#filter-suits", "monotone")
    page.select_option("#filter-straights", "some")
    chosen = [f for f in range(1755) if flops["suits"][f] == "monotone" and flops["straights"][f] > 0]
    params = {flop_param(parse_cards(flops["flops"][f])): f for f in chosen}
    assert sorted(visible_flops(page)) == sorted(params)
    share = sum(flops["weights"][f] for f in chosen) / 22100
    assert page.inner_text("#flop-status") == f"{len(chosen)} of 1,755 flops shown: {100 * share:.1f}% of the 22,100 flops."

    page.click("#flop-table th[data-key=spread] button")
    page.click("#flop-table th[data-key=spread] button")  # again: widest first
    assert page.get_attribute("#flop-table th[data-key=spread]", "aria-sort") == "descending"
    spreads = [float(np.nanmax(flops["bin"]["equity"][params[p]]) - np.nanmin(flops["bin"]["equity"][params[p]])) for p in visible_flops(page)]
    assert spreads == sorted(spreads, reverse=True)

    page.focus("#flop-table tbody th a")  # the widest spread, by keyboard
    page.keyboard.press("Enter")
    first = visible_flops(page)[0]
    f = params[first]
    page.wait_for_function(f"new URLSearchParams(location.search).get('flop') === '{first}'")
    assert page.evaluate("document.activeElement.getAttribute('aria-current')") == "true"
    check_chart(page, flops, f)
    assert dict(p.split("=") for p in page.evaluate("location.search")[1:].split("&")) == {
        "flop": first, "suits": "monotone", "straights": "some", "sort": "-spread"}
    assert axe_violations(page) == []
    screenshot(page, "flop-table-1280")

    again = open_sub_path(PAGE + page.evaluate("location.search"))  # the URL holds the whole state
    again.wait_for_function(DRAWN)
    assert visible_flops(again) == visible_flops(page)
    assert again.input_value("#filter-suits") == "monotone" and again.input_value("#filter-straights") == "some"
    assert again.get_attribute("#flop-table th[data-key=spread]", "aria-sort") == "descending"
    check_chart(again, flops, f)


def check_chart(page, flops, f: int) -> None:
    """The chart of flop f: each cell's equity is flops.json's to the half step of flops.bin, "—" where no combo is
    left; the summary names the best and worst class and the spread of the figures the page read."""
    shown = page.eval_on_selector_all("#flop-grid a[data-i]", "links => links.map(a => [a.dataset.equity, a.querySelector('.v-short').textContent])")
    for (equity, short), expected in zip(shown, flops["equity"][f], strict=True):
        if expected is None:
            assert (equity, short) == ("", "—")
        else:
            assert abs(float(equity) - expected) <= 0.5 / FLOPS_BIN_SCALE
    row = flops["bin"]["equity"][f]
    best, worst = flop_extremes(row)
    summary = page.inner_text("#flop-summary")
    assert f"the best hand is {CLASS_NAMES[best]} at {100 * row[best]:.1f}%, the worst {CLASS_NAMES[worst]} at {100 * row[worst]:.1f}%" in summary
    assert f"a spread of {100 * (row[best] - row[worst]):.1f} points" in summary


def test_a_phone_a_hand_page_and_its_link_to_a_flop(open_sub_path, flops, axe_violations, screenshot):
    hand = open_sub_path("hands/22/index.html", width=390)
    assert axe_violations(hand) == []
    assert hand.evaluate("document.documentElement.scrollWidth <= innerWidth")
    screenshot(hand, "hand-flops-390")
    link = hand.locator("#on-the-flop ~ .flop-lists a").first  # 22's best flop
    target = link.get_attribute("href").split("flop=")[1]
    link.click()
    hand.wait_for_function(DRAWN)
    f = next(f for f in range(1755) if flop_param(parse_cards(flops["flops"][f])) == target)
    check_chart(hand, flops, f)
    assert flops["equity"][f][CLASS_NAMES.index("22")] is not None
    assert hand.evaluate("document.documentElement.scrollWidth <= innerWidth")  # axe at 390 px: test_a11y_e2e.py's PAGES
    screenshot(hand, "flop-table-390")

    wrong = open_sub_path(PAGE + "?flop=AsAs7c&high=Z", width=390)
    wrong.wait_for_function(DRAWN)
    assert wrong.inner_text("#flop-error") == ("In the address: high=Z is not one of the choices; flop=AsAs7c: Flop: duplicate card As.")
    assert wrong.inner_text("#flop-chart-title") == "No flop picked yet"


def test_a_slow_download_shows_its_progress_and_can_be_stopped_and_started_again(open_sub_path):
    go_on, path = threading.Event(), "/atlas/data/flops.bin"
    QuietHandler.stalled[path] = (100_000, go_on)  # the first 100 kB at once, the rest when go_on is set
    try:
        page = open_sub_path(PAGE + "?flop=AsKd7c")
        page.wait_for_function("document.querySelector('#flop-progress').value > 0")
        assert page.inner_text("#flop-status") == "Loading the flop table…"
        page.click("#flop-stop")
        page.wait_for_function("document.querySelector('#flop-error').textContent !== ''")
        assert page.inner_text("#flop-error") == "Stopped: the flop table was not loaded."
    finally:
        del QuietHandler.stalled[path]
        go_on.set()
    page.click("#flop-stop")  # now "Load the table"
    page.wait_for_function(DRAWN)
    assert page.inner_text("#flop-error") == "" and page.is_hidden("#flop-stop")
    assert page.evaluate("new URLSearchParams(location.search).get('flop')") == "AhKd7c"
