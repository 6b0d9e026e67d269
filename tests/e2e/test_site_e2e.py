"""The site in real headless Chromium: chart, matchup explorer, ICM calculator, live refresh."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from generator.storage import write_json
from kernels.cards import parse_class

pytestmark = pytest.mark.e2e
ICM_MODULE = Path(__file__).resolve().parents[2] / "templates/assets/js/icm.js"


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
    path = site_dir / "data/multiway.json"
    original = path.read_bytes()
    page = open_page("charts/6/index.html")
    try:
        data = json.loads(original)
        data["meta"]["generated"] = "2099-01-01T00:00:00Z"
        data["by_players"]["6"]["equity"][0] = 0.5123
        write_json(path, data)
        page.wait_for_function("document.querySelector('a[data-i=\"0\"] .v-eq').textContent === '51.2%'", timeout=15000)
        assert "Live" in page.locator("#live").inner_text()
    finally:
        path.write_bytes(original)


def test_matchup_explorer_gives_the_exact_value(open_page, site_dir, screenshot):
    matchups = load(site_dir, "matchups")
    page = open_page("matchups/index.html?a=AKs&b=QQ")
    big = page.locator(".big[data-equity]")
    big.wait_for()
    expected = matchups["equity"][parse_class("AKs")][parse_class("QQ")]
    assert float(big.get_attribute("data-equity")) == expected
    assert big.inner_text() == f"{100 * expected:.2f}%"

    page.select_option("#hand-a", "72o")
    page.select_option("#hand-b", "AA")
    expected = matchups["equity"][parse_class("72o")][parse_class("AA")]
    page.wait_for_function(f"document.querySelector('.big[data-equity]').dataset.equity === '{expected!r}'")
    assert page.url.endswith("?a=72o&b=AA")
    win = matchups["win"][parse_class("72o")][parse_class("AA")]
    assert f"{win:,}" in page.locator("#matchup-result").inner_text()
    screenshot(page, "matchups")


@pytest.mark.skipif(not ICM_MODULE.exists(), reason="templates/assets/js/icm.js (ICM engine) not written yet")
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
    error = page.locator("#stacks-error li").first
    error.wait_for()
    assert page.get_attribute("#stacks", "aria-invalid") == "true"
    assert page.locator("#icm-results").is_hidden()
    screenshot(page, "icm-error")


@pytest.mark.skipif(not ICM_MODULE.exists(), reason="templates/assets/js/icm.js (ICM engine) not written yet")
def test_icm_large_field_uses_the_worker_and_url_state(open_page):
    stacks = ",".join(str(1000 + 10 * i) for i in range(60))
    page = open_page(f"icm/index.html?stacks={stacks}&payouts=50,30,20")
    page.wait_for_function("document.querySelectorAll('#icm-table td.ev').length === 60", timeout=30000)
    total = sum(float(t.replace(",", "")) for t in page.locator("#icm-table td.ev").all_inner_texts())
    assert abs(total - 100) <= 60 * 0.005  # 60 values, each rounded to cents
