"""Rendering: the pages carry the numbers of the data files, and rendering is deterministic."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.site import render_command
from generator.site.formatting import pct
from generator.core.icm_presets import mtt_payouts, preset_payloads
from generator.core.errors import InputError
from generator.site.render import render_site
from generator.site.structure import equity_path
from kernels.cards import CLASS_NAMES, parse_class
from kernels.multiway.control_variates import Z_975
from site_fixtures import build_site, site_config


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def data(site: Path, name: str) -> dict:
    return json.loads(read(site, f"data/{name}.json"))


def cell_label(html: str, name: str) -> str:
    match = re.search(rf'href="[^"]*hands/{name}/index.html" data-i="\d+">.*?<span class="visually-hidden">([^<]*)</span></a>', html)
    assert match, f"no chart cell for {name}"
    return match.group(1)


@pytest.mark.slow
def test_heads_up_chart_shows_exact_headsup_numbers(site):
    headsup = data(site, "headsup")
    html = read(site, "charts/2/index.html")
    for name in ("AA", "AKs", "72o"):
        i = parse_class(name)
        label = cell_label(html, name)
        assert f"equity {pct(headsup['equity'][i], 2)} (exact)" in label
        assert f"win {pct(headsup['win'][i] / headsup['total'][i])}" in label


def test_multiway_chart_shows_estimate_ci_samples_and_rank(site):
    block = data(site, "multiway")["by_players"]["6"]
    html = read(site, "charts/6/index.html")
    i = parse_class("KK")
    label = cell_label(html, "KK")
    half = Z_975 * block["se_equity"][i]
    assert f"equity {pct(block['equity'][i], 2)}" in label
    assert f"95% CI {pct(block['equity'][i] - half, 2)} to {pct(block['equity'][i] + half, 2)}" in label
    assert f"{block['samples'][i]:,} samples" in label
    rank = 1 + sum(e > block["equity"][i] for e in block["equity"])
    assert f"rank {rank} of 169" in label
    assert len(re.findall(r'<a href="[^"]*" data-i="', html)) == 169  # grid cells
    assert html.count('<tr data-i="') == 169  # table view rows


def test_chart_embeds_its_table_for_the_tooltips(site):
    html = read(site, "charts/5/index.html")
    payload = json.loads(re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', html).group(1))
    assert payload["table"]["equity"] == data(site, "multiway")["by_players"]["5"]["equity"]
    assert payload["generated"] == data(site, "multiway")["meta"]["generated"]


def test_hand_page_has_every_player_count_and_matchups(site):
    html = read(site, "hands/AKs/index.html")
    i = parse_class("AKs")
    multiway = data(site, "multiway")["by_players"]
    assert pct(data(site, "threehanded")["equity"][i], 2) in html  # exact at 3 and 4 players, not the Monte Carlo
    assert pct(data(site, "fourhanded")["equity"][i], 2) in html
    for n in range(5, 11):
        assert pct(multiway[str(n)]["equity"][i], 2) in html
    assert "<svg class=\"line-chart\"" in html and html.count("matchups/index.html?a=AKs&amp;b=") == 2 * 169 + 10  # grid, table, best/worst
    matchups = data(site, "matchups")
    worst = min(range(169), key=lambda j: matchups["equity"][i][j])
    assert f"vs {CLASS_NAMES[worst]}</a> <span>{pct(matchups['equity'][i][worst])}" in html


def test_hand_page_lists_every_matchup_exactly_best_first(site):
    html = read(site, "hands/T9s/index.html")
    i = parse_class("T9s")
    matchups = data(site, "matchups")
    cell = r'<td data-sort="([^"]+)">[^<]*</td>'
    rows = re.findall(rf'<tr><th scope="row" data-sort="(\d+)"><a href="[^"]*\?a=T9s&amp;b=(\w+)">\w+</a></th>{cell * 4}</tr>', html)
    assert sorted(int(row[0]) for row in rows) == list(range(169))
    for j, name, equity, win, tie, loss in rows:
        j = int(j)
        total = sum(matchups[key][i][j] for key in ("win", "tie", "loss"))
        assert name == CLASS_NAMES[j] and float(equity) == matchups["equity"][i][j]
        assert [float(win), float(tie), float(loss)] == [matchups[key][i][j] / total for key in ("win", "tie", "loss")]
    shown = [float(row[2]) for row in rows]
    assert shown == sorted(shown, reverse=True)


def test_hand_page_hands_its_table_and_calculator_link_to_the_board_calculator(site):
    import html as html_lib

    page = read(site, "hands/AKs/index.html")
    i = parse_class("AKs")
    embedded = json.loads(html_lib.unescape(re.search(r"data-table='([^']*)'", page).group(1)))
    assert sorted(map(int, embedded)) == list(range(2, 11))
    assert embedded["3"]["equity"] == data(site, "threehanded")["equity"][i] and embedded["3"]["exact"] is True
    assert embedded["6"]["se_equity"] == data(site, "multiway")["by_players"]["6"]["se_equity"][i]
    assert 'class="equity-link" href="../../equity/index.html?p=AKs&amp;p=random"' in page
    assert equity_path(["QQ+,AK", "random"], board="Kh8d3c") == "equity/index.html?p=QQ%2B%2CAK&p=random&board=Kh8d3c"


def test_home_shows_build_facts(site):
    html = read(site, "index.html")
    assert "2026-01-02" in html and "3.60 million" in html and "within ±" in html


def test_data_page_schemas_and_csvs(site):
    html = read(site, "data/index.html")
    for name in ("headsup", "matchups", "multiway"):
        assert f'href="{name}.csv"' in html and f'href="schema/{name}.schema.json"' in html
        schema = json.loads(read(site, f"data/schema/{name}.schema.json"))
        assert set(schema["required"]) <= set(data(site, name)) | {"meta"}
    assert "synthetic test fixture" in html
    assert read(site, "data/matchups.csv").count("\n") == 1 + 169 * 169


def test_articles_listed_newest_first_with_feed_and_math(site):
    html = read(site, "articles/index.html")
    dates = re.findall(r'<time datetime="([\d-]+)"', html)
    assert dates == sorted(dates, reverse=True) and len(dates) >= 4
    article = read(site, "articles/icm-from-permutations-to-one-integral/index.html")
    assert "<math" in article and "$" not in article.replace("&#36;", "").replace("$EV", "")
    feed = read(site, "feed.xml")
    assert feed.count("<entry>") == len(dates)


def test_article_shortcodes_use_build_numbers(site):
    headsup = data(site, "headsup")
    html = read(site, "articles/how-the-heads-up-numbers-are-computed/index.html")
    assert pct(headsup["equity"][parse_class("AA")], 2) in html
    assert "{{<" not in html and "not computed yet" not in html


@pytest.mark.slow
def test_render_is_deterministic(site, tmp_path):
    again = build_site(tmp_path / "again")
    files = sorted(p.relative_to(site) for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for path in files:
        assert (site / path).read_bytes() == (again / path).read_bytes(), path


def test_missing_data_still_builds_and_says_so(tmp_path):
    render_site(site_config(), tmp_path)
    assert "not been computed yet" in read(tmp_path, "charts/6/index.html")
    assert "not been computed yet" in read(tmp_path, "hands/AA/index.html")
    assert "not computed yet" in read(tmp_path, "articles/reading-the-charts/index.html")
    assert (tmp_path / "data/schema/multiway.schema.json").exists()


@pytest.mark.slow
def test_sub_path_base_url_only_changes_absolute_urls(tmp_path):
    site = build_site(tmp_path, base_url="/atlas/", origin="https://atlas.example")
    html = read(site, "hands/AKs/index.html")
    assert '<link rel="canonical" href="https://atlas.example/atlas/hands/AKs/">' in html
    assert '<meta property="og:url" content="https://atlas.example/atlas/hands/AKs/">' in html
    assert 'href="../../assets/css/site.css"' in html
    not_found = read(site, "404.html")
    assert 'href="/atlas/index.html"' in not_found and "<style>" in not_found
    assert not re.search(r'(href|src)="[^"]*assets/', not_found)  # self-contained: nothing loaded by a path
    assert "<loc>https://atlas.example/atlas/hands/AKs/</loc>" in read(site, "sitemap.xml")
    feed = read(site, "feed.xml")
    assert "<id>https://atlas.example/atlas/articles/reading-the-charts/</id>" in feed
    assert '<link href="https://atlas.example/atlas/feed.xml" rel="self"/>' in feed


@pytest.mark.slow
def test_without_origin_absolute_urls_are_left_out_with_one_warning(tmp_path):
    build_site(tmp_path, base_url="/atlas/", origin="https://atlas.example")  # a stale sitemap and feed
    warnings = []
    render_site(site_config("/atlas/", origin=""), tmp_path, warn=warnings.append)
    assert len(warnings) == 1 and "site.origin" in warnings[0]
    assert not (tmp_path / "sitemap.xml").exists() and not (tmp_path / "feed.xml").exists()
    for page in ("index.html", "hands/AKs/index.html", "articles/reading-the-charts/index.html"):
        html = read(tmp_path, page)
        assert "canonical" not in html and "og:url" not in html and "feed.xml" not in html, page


def test_mtt_payout_curve_is_decreasing_and_sums_to_100():
    shares = mtt_payouts(150)
    assert len(shares) == 150 and abs(sum(shares) - 100) < 1e-9
    assert all(a >= b for a, b in zip(shares, shares[1:]))
    assert preset_payloads([{"name": "x", "mtt": {"players": 1000, "paid": 150}}])[0]["players"] == 1000


def test_bad_preset_is_a_clear_error():
    with pytest.raises(InputError, match=r"icm.presets\[0\] 'x': mtt.paid \(20\) exceeds"):
        preset_payloads([{"name": "x", "mtt": {"players": 10, "paid": 20}}])


def test_render_command(tmp_path):
    config = tmp_path / "site.yaml"
    config.write_text("site:\n  title: Test\n", encoding="utf-8")
    result = CliRunner().invoke(render_command, ["--config", str(config), "--site-dir", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out/index.html").exists()


def test_a_full_disk_during_render_leaves_every_page_whole_and_is_one_error_line(tmp_path, monkeypatch):
    """Pages are written atomically: a write that fails (ENOSPC) leaves the previous page byte for byte, no temporary
    file behind, and the command says so in one line (exit 2) instead of a traceback."""
    import errno
    import os

    from generator.cli import main
    from generator.core import storage

    site = build_site(tmp_path / "site")
    before = {p: p.read_bytes() for p in site.rglob("*.html")}
    real_fsync = storage.os.fsync
    writes = []

    def fsync_until_full(fd):
        writes.append(fd)
        if len(writes) > 20:  # the disk fills up part-way through the render
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(storage.os, "fsync", fsync_until_full)
    config = tmp_path / "site.yaml"
    config.write_text("site: {title: Changed}\n")
    result = CliRunner().invoke(main, ["render", "--config", str(config), "--site-dir", str(site)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.output.strip().splitlines()[-1] == "Error: could not write or read a file: No space left on device"
    for path, data in before.items():
        now = path.read_bytes()
        assert now == data or b"<title>" in now and now.rstrip().endswith(b"</html>"), path  # old, or new and whole
    assert not list(site.rglob("*.tmp"))


@pytest.mark.slow  # 10 s or more on 2 cores
def test_a_config_outside_content_says_it_found_no_articles(tmp_path):
    """Articles are read beside the config file: an exact copy of site.yaml elsewhere rendered a site without them
    and said nothing; now one warning line names the folder."""
    config = tmp_path / "elsewhere" / "site.yaml"
    config.parent.mkdir()
    config.write_text((Path(__file__).resolve().parents[1] / "content" / "site.yaml").read_text())
    build_site(tmp_path / "site")  # data and a first render
    result = CliRunner().invoke(render_command, ["--config", str(config), "--site-dir", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    warning = [line for line in result.output.splitlines() if "no articles" in line]
    assert warning == [f"warning: no articles in {config.parent / 'articles'} (site.articles in the config, a folder beside "
                       "the config file unless absolute): the site has none"]
    # the config key says where they are: the same copy with site.articles pointing at the project's articles finds them
    articles = Path(__file__).resolve().parents[1] / "content" / "articles"
    config.write_text(re.sub(r"(?m)^  articles: .*$", f"  articles: {articles}", config.read_text()))
    result = CliRunner().invoke(render_command, ["--config", str(config), "--site-dir", str(tmp_path / "site")])
    assert result.exit_code == 0 and "no articles" not in result.output, result.output
    assert (tmp_path / "site" / "articles" / "reading-the-charts" / "index.html").exists()


def _flip_middle_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01  # one bit: still text, still valid JSON where it lands on a digit
    path.write_bytes(bytes(data))


def _damaged_threeway(path: Path) -> None:
    import gzip

    data = bytearray(gzip.compress(b"ALLIN3WAY" + bytes(64)))
    data[-5] ^= 0xFF  # the gzip trailer's CRC
    path.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def site_with_pushfold_set(tmp_path_factory) -> Path:
    """A site rendered from the synthetic data with the push/fold set (each test damages a copy)."""
    from site_fixtures import write_pushfold_set

    site = tmp_path_factory.mktemp("pushfold-set") / "site"
    write_pushfold_set(site)
    return build_site(site)


@pytest.mark.parametrize("name, damage, expected", [
    ("matchups.bin", _flip_middle_byte, "matchups.bin does not match matchups.json (damaged or edited)"),
    ("headsup.csv", lambda p: p.write_bytes(p.read_bytes()[:100]), "headsup.csv does not match headsup.json"),
    ("pushfold/index.json", lambda p: p.write_bytes(p.read_bytes()[:300]), "pushfold/index.json: unreadable JSON"),
    ("pushfold/4p-bba1-chipev/8.json", lambda p: p.write_text(p.read_text().replace("0.", "0.9", 1)),
     "pushfold/4p-bba1-chipev/8.json does not match the SHA-256 recorded in index.json"),
    ("pushfold/4p-bba1-chipev/12.json", lambda p: p.unlink(), "pushfold/4p-bba1-chipev/12.json is missing"),
    ("threeway.bin.gz", _damaged_threeway, "threeway.bin.gz: damaged (CRC check failed)"),
])
def test_a_damaged_published_data_file_stops_the_render_in_one_line_and_leaves_the_site(tmp_path, name, damage, expected,
                                                                                         site_with_pushfold_set):
    """A damaged matchups.bin, threeway.bin.gz or push/fold table was published with exit 0, and a truncated
    pushfold/index.json crashed with a traceback (issue #38, item 14): now the render checks what it publishes
    (derived files against their JSON, tables against the digests the index recorded) and stops before any page."""
    from generator.cli import main

    site = Path(shutil.copytree(site_with_pushfold_set, tmp_path / "site"))
    damage(site / "data" / name)
    before = {p: p.read_bytes() for p in site.rglob("*.html")}
    config = tmp_path / "site.yaml"
    config.write_text("site: {title: Changed}\n")
    result = CliRunner().invoke(main, ["render", "--config", str(config), "--site-dir", str(site)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and "nothing was rendered" in lines[0], result.output
    assert {p: p.read_bytes() for p in site.rglob("*.html")} == before


def test_the_push_fold_index_records_each_table_files_sha256(tmp_path):
    import hashlib

    from site_fixtures import write_pushfold_set

    folder = write_pushfold_set(tmp_path / "site")
    index = json.loads((folder / "index.json").read_text())
    for group in index["groups"]:
        for table, digest in group["sha256"].items():
            assert hashlib.sha256((folder / group["id"] / f"{table}.json").read_bytes()).hexdigest() == digest
    assert sum(len(g["sha256"]) for g in index["groups"]) == index["meta"]["tables"]


@pytest.mark.slow  # 10 s or more on 2 cores
def test_the_four_player_column_is_exact_where_the_four_handed_counts_exist(tmp_path):
    """With fourhanded.json the 4-player chart, the hand pages and the facts say exact, from its counts; a site
    without it (a build's data from before it) shows the Monte Carlo's (issue #36)."""
    from site_fixtures import write_synthetic_data

    site = build_site(tmp_path / "site")  # the default build's files

    exact = data(site, "fourhanded")
    chart = read(site, "charts/4/index.html")
    assert "Four-handed values are exact: every deal counted." in chart
    index = CLASS_NAMES.index("AKs")
    hand = read(site, "hands/AKs/index.html")
    row = re.search(r'<tr><th scope="row"><a href="[^"]*charts/4/index.html">4</a></th><td>([^<]*)</td><td>([^<]*)</td>', hand)
    assert row and row.group(1) == pct(exact["equity"][index], 2) and row.group(2) == "exact"
    assert "at 2, 3 and 4 players every deal is counted exactly" in hand
    write_synthetic_data(tmp_path / "older", files=("headsup", "matchups", "threehanded", "multiway"))
    plain = build_site(tmp_path / "plain", data_dir=tmp_path / "older")  # data from before the four-handed stage
    assert "Four-handed" not in read(plain, "charts/4/index.html")
    assert "at 2 and 3 players every deal is counted exactly" in read(plain, "hands/AKs/index.html")


def test_large_counts_read_in_words_up_to_quintillions():
    """The four-handed table's 3.4 × 10¹⁷ deals read "343.25 quadrillion", not "343250.23 trillion"."""
    from generator.site.formatting import big

    assert [big(x) for x in (343_250_230_000_000_000, 2_100_000_000, 1_712_304, 12_000)] == [
        "343.25 quadrillion", "2.10 billion", "1.71 million", "12,000"]
