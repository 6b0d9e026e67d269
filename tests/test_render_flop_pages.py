"""The flop atlas on the rendered site: each hand page's flop section (the weighted mean over flops is the preflop
equity, equity by texture, the best and worst flops, hit rates) and the flop table page, on the build's real
heads-up and flop files, every figure recomputed here from flops.json / flop_hits.json."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import numpy as np
import pytest

from generator.compute.stages.flops import run_flops
from generator.compute.stages.headsup import run_headsup
from generator.site.formatting import pct
from generator.site.render import SiteRenderer
from generator.site.structure import flop_table_path, hand_path, section_path
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES, RANKS, SUITS, parse_cards, parse_class
from site_fixtures import site_config

HANDS = ("AA", "AKs", "72o", "22", "T9s")
#: flops.json rounds each equity to 6 decimals: each is off by at most half of 1e-6, and so is any weighted mean of them.
ROUNDING = 0.5e-6


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The real heads-up and flop files (the build's cache), and the pages this file checks."""
    site = tmp_path_factory.mktemp("flop-site")
    run_headsup(site, progress=False)
    run_flops(site, progress=False)
    renderer = SiteRenderer(site_config(), site)
    wanted = {flop_table_path(), section_path("data"), *(hand_path(name) for name in HANDS)}
    for page in renderer.pages([]):
        if page.path in wanted:
            renderer.write(page)
    return site


@pytest.fixture(scope="module")
def flops(site) -> dict:
    document = json.loads((site / "data" / "flops.json").read_text())
    equity = np.array([[np.nan if e is None else e for e in row] for row in document["equity"]])
    mass = np.array(document["weights"])[:, None] * np.array(document["live"])
    return {**document, "equity": equity, "mass": mass}


def read(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def param(flop: str) -> str:
    """AhKd7c: a flop's cards highest first, as the flop table page's ?flop= names it."""
    return "".join(RANKS[c // 4] + SUITS[c % 4] for c in sorted(parse_cards(flop), reverse=True))


def test_every_class_averages_its_preflop_equity_over_the_flops_and_its_page_says_so(site, flops):
    headsup = json.loads((site / "data" / "headsup.json").read_text())
    weighted = np.where(flops["mass"] > 0, flops["equity"], 0.0) * flops["mass"]
    assert flops["mass"].sum(axis=0).tolist() == (CLASS_COMBO_COUNT * 19600).tolist()  # every combo meets 19,600 flops
    means = weighted.sum(axis=0) / flops["mass"].sum(axis=0)
    assert np.abs(means - np.array(headsup["equity"])).max() <= ROUNDING
    for name in HANDS:
        i = parse_class(name)
        sentence = re.search(r'<p id="flop-mean">(.*?)</p>', read(site, hand_path(name)), re.S).group(1)
        assert f"averages <strong>{pct(means[i], 2)}</strong>: its preflop equity against a random hand (above), {pct(headsup['equity'][i], 2)}," in sentence
        assert "22,100 flops" in sentence and "1,755 suit-distinct flops" in sentence


@pytest.mark.parametrize("name", HANDS)
def test_best_and_worst_flops_are_the_highest_and_lowest_equities_of_the_class(site, flops, name):
    i = parse_class(name)
    rows = [f for f in range(len(flops["flops"])) if flops["live"][f][i] > 0]
    best = sorted(rows, key=lambda f: (-flops["equity"][f, i], f))[:5]
    worst = sorted(rows, key=lambda f: (flops["equity"][f, i], f))[:5]
    page = read(site, hand_path(name))
    for title, expected in (("Best flops", best), ("Worst flops", worst)):
        items = re.search(rf"<h3>{title}</h3>\s*<ol[^>]*>(.*?)</ol>", page, re.S).group(1)
        shown = re.findall(r'<li><a href="\.\./\.\./flop/all/index\.html\?flop=(\w+)">.*?</a> <span>([\d.]+%)</span></li>', items)
        assert shown == [(param(flops["flops"][f]), pct(flops["equity"][f, i])) for f in expected]


def test_equity_by_texture_is_weighted_by_weight_times_live_combos(site, flops):
    i = parse_class("AKs")
    page = read(site, hand_path("AKs"))
    mass = flops["mass"][:, i]
    for kind, value, label in (("suits", "monotone", "Monotone"), ("pairing", "paired", "Paired"), ("suits", "rainbow", "Rainbow")):
        rows = np.array(flops[kind]) == value
        share = mass[rows].sum() / mass.sum()
        equity = (flops["equity"][rows, i] * mass[rows]).sum() / mass[rows].sum()
        assert f'<tr><th scope="row">{label}</th><td>{pct(share, 2)}</td><td>{pct(equity)}</td></tr>' in page
    ace_high = np.array(flops["high"]) == 12
    assert f'<tr><th scope="row">A-high</th><td>{pct(mass[ace_high].sum() / mass.sum(), 2)}</td>' in page
    deuces = read(site, hand_path("22"))  # 22 meets no 2-high flop (2-high is 222): no share, no equity
    assert '<tr><th scope="row">2-high</th><td>0.00%</td><td>–</td></tr>' in deuces


def test_hit_rates_are_the_counts_over_19600_flops(site):
    hits = json.loads((site / "data" / "flop_hits.json").read_text())
    page = read(site, hand_path("T9s"))
    i = parse_class("T9s")
    assert hits["flops_per_combo"] == 19600 and sum(hits["made_counts"][i]) == 19600
    for names, counts in ((hits["made"], hits["made_counts"][i]), (hits["draws"], hits["draw_counts"][i])):
        for category, n in zip(names, counts):
            assert f'<tr><th scope="row">{category[0].upper() + category[1:]}</th><td>{pct(n / 19600, 2)}</td></tr>' in page


def test_without_flop_hits_the_hand_page_leaves_hit_rates_out(site, tmp_path):
    renderer = SiteRenderer(site_config(), site)
    renderer.data.files["flop_hits"] = None
    page = next(p for p in renderer.pages([]) if p.path == hand_path("AKs"))
    renderer.site_dir = tmp_path
    renderer.write(page)
    text = read(tmp_path, hand_path("AKs"))
    assert 'id="flop-mean"' in text and 'id="flop-hits"' not in text


def test_the_flop_table_page_loads_flops_bin_and_names_the_widest_and_narrowest_spread(site, flops):
    page = read(site, flop_table_path())
    assert 'data-source="../../data/flops.bin"' in page and 'data-total="22100"' in page
    assert len(re.findall(r'<a href="\.\./\.\./hands/(\w+)/index\.html" data-i="(\d+)">', page)) == 169
    equity = flops["equity"]
    spread = np.nanmax(equity, axis=1) - np.nanmin(equity, axis=1)
    widest, narrowest = int(np.argmax(spread)), int(np.argmin(spread))
    sentence = html.unescape(re.search(r'<p id="flop-spreads">(.*?)</p>', page, re.S).group(1))
    for f in (widest, narrowest):
        best, worst = CLASS_NAMES[int(np.nanargmax(equity[f]))], CLASS_NAMES[int(np.nanargmin(equity[f]))]
        assert f"?flop={param(flops['flops'][f])}" in sentence
        assert f"(best {best} at {pct(np.nanmax(equity[f]))}, worst {worst} at {pct(np.nanmin(equity[f]))})" in sentence
    assert "1,755 suit-distinct flops" in page and "4, 12 or 24 of the 22,100 flops" in page


def test_the_flop_table_page_is_in_the_sitemap_and_the_data_page_names_its_reader(site):
    pages = SiteRenderer(site_config(), site).pages([])
    assert [p.in_sitemap for p in pages if p.path == flop_table_path()] == [True]
    data_page = read(site, section_path("data"))
    assert "flops.bin</a>" in data_page and "read by the flop table page" in data_page
    assert f'href="../../{flop_table_path()}"' in read(site, hand_path("AA"))
