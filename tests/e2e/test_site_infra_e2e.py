"""The site as hosts and readers use it: under a sub-path (with and without ``site.origin``), the
404 page at any depth, opened from disk (file://), what it downloads, and printed."""

from __future__ import annotations

import functools
import json
import shutil
import http.server
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from generator.cli.site import PreviewHandler
from generator.data.datafiles import LIVE_STATUS_PATH, write_live_status
from generator.core.storage import write_json
from site_fixtures import build_site

pytestmark = pytest.mark.e2e

ORIGIN = "https://atlas.example"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ATOM = "{http://www.w3.org/2005/Atom}"


class RecordingHandler(PreviewHandler):
    """``allin serve``'s handler with a chosen 404 page (a host serving a sub-path uses the one under
    it), recording every request as (path, If-None-Match header, status)."""

    log: list
    not_found: Path

    def not_found_page(self) -> Path:
        return self.not_found

    def send_response(self, code, message=None) -> None:
        self.log.append((self.path, self.headers.get("If-None-Match"), code))
        super().send_response(code, message)


def serve(directory: Path, not_found: Path):
    """Serve ``directory`` on 127.0.0.1 with ``not_found`` for missing paths → (url, log, server)."""
    log: list = []
    handler = type("Handler", (RecordingHandler,), {"log": log, "not_found": not_found})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", log, server


@pytest.fixture(scope="module", params=[(ORIGIN, "/atlas/"), ("", "/atlas/"), ("", "/")], ids=["origin", "no-origin", "default-build"])
def hosted(request, tmp_path_factory):
    """A site (synthetic data) in parent/atlas/, the parent served over http: built for base_url
    /atlas/ with and without an origin, and as the default build (base_url /, no origin) copied there."""
    origin, base_url = request.param
    parent = tmp_path_factory.mktemp("host")
    site = build_site(parent / "atlas", base_url=base_url, origin=origin)
    url, log, server = serve(parent, site / "404.html")
    yield origin, url + "atlas/", site, log
    server.shutdown()
    server.server_close()


@pytest.fixture
def new_page(browser):
    """``new_page(width=1280)`` → a plain page (no routing, so the HTTP cache works); closed after the test."""
    pages = []

    def open_(width: int = 1280, height: int = 900):
        page = browser.new_page(viewport={"width": width, "height": height})
        pages.append(page)
        return page

    yield open_
    for page in pages:
        page.close()


def test_sub_path_absolute_urls_come_from_origin_and_base_url(hosted, new_page):
    origin, url, site, _ = hosted
    page = new_page()
    page.goto(url + "hands/AKs/")
    assert page.title().startswith("AKs")
    canonical = page.locator('link[rel="canonical"]')
    og_url = page.locator('meta[property="og:url"]')
    sitemap = page.request.get(url + "sitemap.xml")
    feed = page.request.get(url + "feed.xml")
    if not origin:
        assert canonical.count() == og_url.count() == 0
        assert sitemap.status == feed.status == 404
        assert page.locator('a[href$="feed.xml"], link[href$="feed.xml"]').count() == 0
        page.goto(url + "articles/")  # the articles index offered an "Atom feed" that was never written
        assert page.locator("h1").inner_text() == "Articles"
        assert page.locator('a[href$="feed.xml"], link[href$="feed.xml"]').count() == 0
        return
    assert canonical.get_attribute("href") == og_url.get_attribute("content") == f"{ORIGIN}/atlas/hands/AKs/"
    locs = [loc.text for loc in ET.fromstring(sitemap.body()).iter(f"{SITEMAP}loc")]
    assert len(locs) > 169 and all(loc.startswith(f"{ORIGIN}/atlas/") for loc in locs)
    for loc in locs[:: len(locs) // 12]:  # each names a page this host serves
        assert page.request.get(loc.replace(ORIGIN + "/atlas/", url)).status == 200, loc
    entries = ET.fromstring(feed.body()).findall(f"{ATOM}entry")
    assert entries
    for entry in entries:
        link, entry_id = entry.find(f"{ATOM}link").get("href"), entry.find(f"{ATOM}id").text
        assert link == entry_id and link.startswith(f"{ORIGIN}/atlas/articles/")
        assert page.request.get(link.replace(ORIGIN + "/atlas/", url)).status == 200, link


@pytest.mark.parametrize("missing", ["nope", "hands/AKx/", "hands/AKx/deeper/still/", "articles/x/y/index.html"])
def test_404_page_keeps_its_style_and_links_at_any_depth(hosted, new_page, screenshot, axe_violations, missing):
    origin, url, site, log = hosted
    page = new_page(width=390)
    console_errors = []
    page.on("console", lambda message: console_errors.append((message.text, message.location.get("url")))
            if message.type == "error" else None)
    log.clear()
    response = page.goto(url + missing)
    assert response.status == 404 and page.locator("h1").inner_text() == "Page not found"
    page.wait_for_selector("html[data-site-root]", state="attached")  # where the page found the site's root
    assert page.evaluate("document.documentElement.dataset.siteRoot") == "/atlas/"
    page.wait_for_load_state("load")
    # Self-contained: nothing asked for but the page (and, for a miss outside the site's folders with the default
    # base_url, one look at the nearest folder's 404.html, found): no failed request, no console error (issue #38)
    failed = [path for path, _, status in log if status >= 400 and path != "/atlas/" + missing]
    own = url + missing  # the browser reports the page's own 404 status as an error: that one is the point
    assert failed == [] and [e for e in console_errors if e[1] != own] == [], (failed, console_errors)
    assert len(log) <= 2
    # The stylesheet applied: the header is laid out by site.css, not the browser's defaults.
    assert page.evaluate("getComputedStyle(document.querySelector('header.top')).display") == "flex"
    assert page.locator(".brand img").evaluate("img => img.naturalWidth") > 0
    links = page.eval_on_selector_all("a[href]:not([href^='#'])", "links => links.map(a => a.href)")
    assert len(links) >= 10
    for link in set(links):
        assert link.startswith(url) and page.request.get(link).status == 200, link
    if missing == "hands/AKx/" and origin:
        screenshot(page, "404-nested-390")
    if missing == "hands/AKx/deeper/still/" and site.joinpath("404.html").read_text().count('href="/assets/'):
        screenshot(page, "404-default-build-under-sub-path-390")
        page.set_viewport_size({"width": 1366, "height": 900})
        screenshot(page, "404-default-build-under-sub-path-1366")
        assert axe_violations(page) == []


def test_404_page_without_javascript_is_styled_at_any_depth_and_links_to_the_configured_base_url(hosted, browser):
    """Without JavaScript the page is styled and shows its icon wherever it is served (all inline), and its links start
    at site.base_url: right where base_url names the sub-path; the default build (base_url /) copied under one needs
    the script, as README's deploy notes say (issue #38, item 4)."""
    origin, url, site, _ = hosted
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        assert page.goto(url + "hands/AKx/deeper/").status == 404
        assert page.evaluate("getComputedStyle(document.querySelector('header.top')).display") == "flex"
        assert page.locator(".brand img").evaluate("img => img.complete && img.naturalWidth") > 0
        expected = "/atlas/index.html" if 'href="/atlas/index.html"' in site.joinpath("404.html").read_text() else "/index.html"
        assert page.get_attribute("a.brand", "href") == expected
    finally:
        context.close()


FILE_NOTICE = "open this through a web server: allin serve"


@pytest.mark.parametrize(
    ("path", "feature", "submit"),
    [
        ("matchups/index.html", "The matchup explorer", "#hand-a"),
        ("icm/index.html", "The ICM calculator", "button[type=submit]"),
        ("equity/index.html", "The equity calculator", "button[type=submit]"),
        ("flop/index.html", "The flop calculator", "button[type=submit]"),
        ("icm/spot/index.html", "The call-or-fold calculator", "button[type=submit]"),
        ("pushfold/solver/index.html", "The push/fold solver", "button[type=submit]"),
        ("hands/AKs/index.html", "The board calculator", "#hand-compute"),
        ("charts/6/index.html", "The chart's details", None),
    ],
)
def test_from_file_a_notice_stands_where_a_feature_cannot_run(site_dir, new_page, screenshot, path, feature, submit):
    page = new_page(width=390)
    url = (site_dir / path).as_uri()
    page.goto(url)
    notice = page.locator(".server-notice")
    notice.wait_for(state="visible")
    assert notice.count() == 1 and feature in notice.inner_text() and FILE_NOTICE in notice.inner_text()
    assert page.evaluate("el => el.nextElementSibling.dataset.needsServer", notice.element_handle()).startswith(feature)
    if submit:  # a form that cannot run is not offered: the notice stands in its place, no dead controls
        assert page.locator("form[data-needs-server]").is_hidden() and page.locator(submit).first.is_hidden()
        assert page.url == url
    else:  # the chart itself stays: every number is in the page
        assert page.locator("[data-needs-server]").is_visible()
    screenshot(page, "file-" + path.removesuffix("/index.html").replace("/", "-") + "-390")


def test_from_file_static_pages_have_no_notice_and_over_http_none_either(site_dir, base_url, new_page):
    page = new_page()
    page.goto((site_dir / "articles/reading-the-charts/index.html").as_uri())
    assert page.locator("h1").is_visible() and page.locator(".grid").count() >= 1  # the article's chart, static
    assert page.locator(".server-notice").count() == 0
    page.goto(base_url + "matchups/index.html")
    page.locator("#matchup-result .big").first.wait_for()
    assert page.locator(".server-notice").count() == 0


def exact_equity(matchups: dict, i: int, j: int) -> float:
    """(win + tie/2) / (pairs · boards) from the integer counts, as the browser computes it."""
    return (matchups["win"][i][j] + matchups["tie"][i][j] / 2) / (matchups["pairs"][i][j] * 1712304)


def test_matchup_page_loads_the_compact_table_only_for_a_class_question(site_dir, open_page, screenshot):
    data = [p.name for p in (site_dir / "data").iterdir()]
    requested: list[str] = []
    page = open_page("matchups/index.html?a=AsKs&b=QdQc")
    page.on("request", lambda request: requested.append(request.url))
    page.locator("#matchup-result td.total").wait_for()  # enumerated in the browser: no class table needed
    assert not [url for url in requested if "/data/" in url]
    page.fill("#hand-b", "QQ")
    page.fill("#hand-a", "AKs")
    page.locator("#matchup-result .method", has_text="precomputed class table").wait_for()
    loaded = [url.rsplit("/", 1)[1] for url in requested if "/data/" in url]
    assert loaded == ["matchups.bin"] and "matchups.json" in data and "matchups.csv" in data
    assert (site_dir / "data/matchups.bin").stat().st_size * 4 < (site_dir / "data/matchups.json").stat().st_size
    screenshot(page, "matchups-class-desktop")


def test_compact_matchup_table_reads_back_every_count_of_the_json(site_dir, open_page):
    matchups = json.loads((site_dir / "data/matchups.json").read_text(encoding="utf-8"))
    page = open_page("matchups/index.html?a=AsKs&b=QdQc")
    table = page.evaluate(
        """async () => {
          const { parseMatchupTable, classIndex } = await import("../assets/js/engines/matchup-table.js");
          const buffer = await (await fetch("../data/matchups.bin")).arrayBuffer();
          const t = parseMatchupTable(buffer);
          const names = [...document.querySelectorAll("#hand-classes option")].map((o) => o.value);
          return { ...t, indices: names.map(classIndex) };
        }"""
    )
    assert table["indices"] == list(range(169)) and table["boards"] == 1712304
    for key in ("win", "tie", "loss", "pairs"):
        assert table[key] == matchups[key], key
    for i in range(169):
        for j in range(169):
            assert table["equity"][i][j] == exact_equity(matchups, i, j)
            assert abs(table["equity"][i][j] - matchups["equity"][i][j]) <= 5e-10


@pytest.fixture
def live_host(site_dir, tmp_path):
    """A copy of the e2e site served by ``allin serve``'s handler, recording requests."""
    copy = tmp_path / "site"
    shutil.copytree(site_dir, copy)
    url, log, server = serve(copy, copy / "404.html")
    yield url, copy, log
    server.shutdown()
    server.server_close()


def requests_for(log: list, name: str) -> list:
    return [entry for entry in log if entry[0].endswith("/data/" + name)]


def test_chart_downloads_no_multiway_data_while_no_run_is_live(live_host, new_page):
    url, site, log = live_host
    assert json.loads((site / LIVE_STATUS_PATH).read_text()) == {"running": False, "generated": None}
    page = new_page()
    page.goto(url + "charts/6/index.html")
    page.wait_for_function("performance.getEntriesByType('resource').some((r) => r.name.endsWith('multiway-live.json'))")
    page.wait_for_timeout(5000)  # more than one polling period (4 s): nothing more is asked
    assert len(requests_for(log, "multiway-live.json")) == 1 and requests_for(log, "multiway.json") == []


def wait_until(page, condition, what: str) -> None:
    """Poll ``condition()`` (the server's request log) while the page runs; fail after 30 s."""
    for _ in range(600):
        if condition():
            return
        page.wait_for_timeout(50)
    pytest.fail(f"never happened: {what}")


def test_chart_polls_the_status_with_conditional_requests_while_a_run_is_live(live_host, new_page):
    url, site, log = live_host
    write_live_status(site, True, None)
    page = new_page()
    page.goto(url + "charts/6/index.html")
    # Unchanged status: the browser revalidates its copy (If-None-Match) and gets a 304.
    wait_until(page, lambda: any(etag and code == 304 for _, etag, code in requests_for(log, "multiway-live.json")), "a 304")
    assert requests_for(log, "multiway.json") == []  # no checkpoint announced yet: nothing downloaded

    data = json.loads((site / "data/multiway.json").read_text(encoding="utf-8"))
    data["meta"]["generated"] = "2099-01-01T00:00:00Z"
    data["by_players"]["6"]["equity"][0] = 0.5123
    write_json(site / "data/multiway.json", data)
    write_live_status(site, True, "2099-01-01T00:00:00Z")
    page.wait_for_function("document.querySelector('a[data-i=\"0\"] .v-eq').textContent === '51.2%'", timeout=15000)
    assert len(requests_for(log, "multiway.json")) == 1

    write_live_status(site, False, "2099-01-01T00:00:00Z")  # the run ends: polling stops
    before = len(log)
    wait_until(page, lambda: any(entry[0].endswith("multiway-live.json") and entry[2] == 200 for entry in log[before:]), "the final status read")
    asked = len(requests_for(log, "multiway-live.json"))
    page.wait_for_timeout(5000)  # more than one polling period: nothing more is asked
    assert len(requests_for(log, "multiway-live.json")) == asked and len(requests_for(log, "multiway.json")) == 1


def style(page, selector: str, prop: str) -> str:
    return page.eval_on_selector(selector, f"el => getComputedStyle(el).getPropertyValue('{prop}')")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_print_keeps_chart_colours_and_legend_without_navigation(open_page, screenshot, scheme):
    page = open_page("charts/6/index.html", width=800, scheme=scheme)
    screen_background = style(page, "body", "background-color")
    page.emulate_media(media="print")
    assert style(page, "header.top nav", "display") == "none" and style(page, "footer.bottom", "display") == "none"
    assert style(page, ".controls", "display") == "none"  # player count and mode switches
    cell = 'a[data-i="0"]'
    assert style(page, ".grid td", "print-color-adjust") == "exact"
    assert style(page, ".legend", "display") == "flex" and style(page, ".legend .swatches i", "print-color-adjust") == "exact"
    assert style(page, ".grid-wrap", "break-inside") == "avoid" and page.locator(cell).is_visible()
    assert style(page, "body", "background-color") == "rgb(255, 255, 255)"
    if scheme == "dark":
        assert screen_background != "rgb(255, 255, 255)"  # the dark screen theme is not printed
    screenshot(page, f"print-chart-6-{scheme}")
    pdf = page.pdf(format="A4", print_background=False)
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") + pdf.count(b"/Type /Page/") >= 1


def test_print_puts_one_chart_per_page(open_page, screenshot):
    page = open_page("hands/AKs/index.html", width=800)
    page.emulate_media(media="print")
    assert page.locator("svg.line-chart").is_visible() and page.locator("table.matchup-heatmap").is_visible()
    heading = page.locator("h2", has_text="Heads-up matchups")  # the matchup grid starts a page, with its heading
    assert heading.evaluate("el => getComputedStyle(el).breakBefore") == "page"
    assert page.locator("h2", has_text="By number of players").evaluate("el => getComputedStyle(el).breakBefore") != "page"
    assert style(page, "table.matchup-heatmap td", "print-color-adjust") == "exact"
    screenshot(page, "print-hand-AKs")
    # The push/fold page's structure (one section per 13×13 chart; its data is not in this test site).
    page.eval_on_selector("main", """main => main.insertAdjacentHTML("beforeend",
        '<section id="c1"><h2>push</h2><div class="grid-wrap"></div></section><section id="c2"><h2>call</h2><div class="grid-wrap"></div></section>')""")
    assert style(page, "#c1", "break-before") != "page" and style(page, "#c2", "break-before") == "page"


def test_data_page_and_every_data_file_state_the_licence(site_dir, open_page, screenshot):
    page = open_page("data/index.html", width=390)
    licence = page.locator("#licence")
    assert licence.is_visible() and "CC BY 4.0" in licence.inner_text() and "creativecommons.org/licenses/by/4.0" in licence.inner_text()
    files = sorted((site_dir / "data").glob("*.json"))
    published = [path for path in files if path.name != "multiway-live.json"]
    assert len(published) >= 3
    for path in published:
        assert json.loads(path.read_text(encoding="utf-8"))["meta"]["license"] == "CC-BY-4.0", path.name
        schema = json.loads((site_dir / "data/schema" / f"{path.stem}.schema.json").read_text(encoding="utf-8"))
        assert schema["properties"]["meta"]["properties"]["license"]["const"] == "CC-BY-4.0"
    assert page.locator('a[href="matchups.bin"]').is_visible()
    screenshot(page, "data-licence-390")


def median_of(multiway: dict, field: str) -> float:
    values = sorted(v for block in multiway["by_players"].values() for v in block.get(field, []) if v is not None)
    return values[len(values) // 2]


def test_home_names_its_two_gains_and_previews_the_chart(site_dir, open_page, screenshot):
    multiway = json.loads((site_dir / "data/multiway.json").read_text(encoding="utf-8"))
    headsup = json.loads((site_dir / "data/headsup.json").read_text(encoding="utf-8"))
    cv_gain, gain = f"{median_of(multiway, 'cv_gain'):.1f}×", f"{median_of(multiway, 'gain'):.1f}×"
    page = open_page("index.html", width=390)
    assert f"variance cut {cv_gain}" in page.locator("#fact-cv-gain").inner_text()
    assert page.locator("#fact-gain").inner_text().startswith(f"{gain} an independent game")
    article_source = (Path(__file__).resolve().parents[2] / "content/articles/monte-carlo-and-control-variates.md").read_text(encoding="utf-8")
    if "{{< fact cv_gain >}}" in article_source:  # the article's "median gain" is the same measure, same figure
        article = open_page("articles/monte-carlo-and-control-variates/index.html")
        assert cv_gain in article.locator("main").inner_text()

    preview = page.locator(".chart-preview")
    link = preview.get_by_role("link", name="Preview of the 2-player equity chart: open the full chart with every number")
    assert link.get_attribute("href") == "charts/2/index.html" and preview.locator("rect").count() == 169
    best = max(range(169), key=lambda i: headsup["equity"][i])
    worst = min(range(169), key=lambda i: headsup["equity"][i])
    caption = preview.locator("figcaption").inner_text()
    assert f"Strongest: {headsup['classes'][best]} {100 * headsup['equity'][best]:.1f}%" in caption
    assert f"weakest: {headsup['classes'][worst]} {100 * headsup['equity'][worst]:.1f}%" in caption
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "home-390")
    link.click()
    page.wait_for_url("**/charts/2/index.html")
    desktop = open_page("index.html")
    screenshot(desktop, "home-desktop")
