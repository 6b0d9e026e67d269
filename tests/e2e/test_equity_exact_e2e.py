"""The equity calculator's own example is exact, a sampled spot offers "Run longer" and "Enumerate exactly",
and two visits of a sampled spot do not repeat one sample (issue #24, item 3)."""

from __future__ import annotations

import numpy as np
import pytest

from generator.core.evaluator_tables import evaluator_tables
from kernels.range_equity import EXACT_LIMIT, enumerate_equity, enumeration_work, live_weights
from kernels.ranges import parse_range
from test_equity_e2e import shown_equities, url, wait_for_result

pytestmark = pytest.mark.e2e

#: Four players preflop, a combo and three ranges (no table answers it), a little over the limit: seconds to
#: enumerate by deal orbits (a combo against a range heads-up preflop is now far below it).
SAMPLED = ("AsKs", "QQ+,AK", "TT+,AQs+", "77+,ATs+")


def halves(page) -> list[float]:
    """The ± 95% half-widths shown, as fractions."""
    return [float(t.removeprefix("± ").rstrip("%")) / 100 for t in page.locator("#equity-table td.ci").all_inner_texts()]


def exact(ranges) -> np.ndarray:
    live = live_weights([parse_range(r).weights for r in ranges], (), ())
    return enumerate_equity(live, (), (), evaluator_tables()).equity


def test_the_first_example_is_enumerated_exactly(open_page):
    """AsKs vs QQ+,AKo preflop (40.555% exact) used to be sampled with a fixed seed (40.31% ± 0.19 on every visit)."""
    page = open_page("equity/index.html")
    assert wait_for_result(page, timeout=60000) == "enumeration"
    assert page.locator("#equity-method").inner_text().startswith("Exact: 2,598,960 boards enumerated in ")
    np.testing.assert_allclose(shown_equities(page), exact(("AsKs", "QQ+,AKo")), rtol=0, atol=1e-15)
    assert page.locator("#equity-table td.ci").all_inner_texts() == ["exact", "exact"]
    assert page.locator("#equity-more").is_hidden()


def test_a_sampled_spot_runs_longer_then_exactly_and_is_not_the_same_sample_twice(open_page):
    live = live_weights([parse_range(r).weights for r in SAMPLED], (), ())
    assert EXACT_LIMIT < enumeration_work(live, (), ()) < 2 * EXACT_LIMIT  # sampled by default, seconds to enumerate
    page = open_page(url(*SAMPLED))
    assert wait_for_result(page, timeout=60000) == "monte carlo"
    first = shown_equities(page)
    assert all(0 < h <= 1.96e-3 + 5e-5 for h in halves(page))
    again = open_page(url(*SAMPLED))  # a second visit draws a fresh sample (the seed is random)
    assert wait_for_result(again, timeout=60000) == "monte carlo" and shown_equities(again) != first
    expected = exact(SAMPLED)
    assert abs(first[0] - expected[0]) <= 5 * 1e-3  # within 5 target standard errors of the exact figure
    longer, enumerate = page.locator("#run-longer"), page.locator("#run-exact")
    assert longer.inner_text() == "Run longer (interval ÷ 3)" and enumerate.inner_text().startswith("Enumerate exactly (about ")
    longer.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("document.querySelector('#equity-method').dataset.method === undefined")
    assert page.evaluate("document.activeElement.id") == "cancel"  # the pressed button hid: focus on Cancel
    assert wait_for_result(page, timeout=120000) == "monte carlo"
    assert all(0 < h <= 1.96e-3 / 3 + 5e-5 for h in halves(page)), halves(page)
    assert page.evaluate("document.activeElement.id") == "run-longer"  # back on the button, to press again
    enumerate.click()
    assert wait_for_result(page, timeout=120000) == "enumeration"
    np.testing.assert_allclose(shown_equities(page), expected, rtol=0, atol=1e-15)
    assert page.locator("#equity-more").is_hidden()
