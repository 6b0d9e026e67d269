"""The flop calculator page (``flop/``): rendered with its form, views and 13×13 grid, the files its scripts fetch,
the "Flop" menu entry on every page, and :func:`flop_path`, its URL state (the page itself: tests/e2e/test_flop_page_e2e.py)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from generator.site.structure import NAV, flop_path, flop_table_path, section_path
from kernels.cards import CLASS_NAMES
from site_fixtures import build_site


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    return build_site(tmp_path_factory.mktemp("site"))


def test_flop_path_is_the_pages_url_state():
    assert flop_path() == "flop/index.html"
    path = flop_path(range="QQ+, AKs", villain="15%", board="Kh8d3c", view="graph")
    parts = urlsplit(path)
    assert parts.path == section_path("flop")
    assert parse_qsl(parts.query) == [("range", "QQ+, AKs"), ("villain", "15%"), ("board", "Kh8d3c"), ("view", "graph")]
    assert ("flop", "Flop", "flop/index.html") in NAV


@pytest.mark.slow  # a rendered site (about 10 s on 2 cores)
def test_the_page_has_its_form_views_grid_and_the_files_it_fetches(site):
    html = (site / "flop" / "index.html").read_text(encoding="utf-8")
    assert '<a href="../flop/index.html" aria-current="page">Flop</a>' in html
    for name in ("range", "villain", "board", "dead"):
        assert f'id="{name}" name="{name}"' in html
    assert re.findall(r'name="view" id="view-(\w+)" value="(\w+)"', html) == [("hits", "hits"), ("graph", "graph"), ("flops", "flops")]
    for view in ("hits", "graph", "flops"):
        assert f'id="{view}-view"' in html and f'id="{view}-method"' in html
    assert 'data-needs-server="The flop calculator"' in html  # file:// says it needs a web server
    cells = re.findall(r'<button type="button" data-i="(\d+)"><b aria-hidden="true">(\w+)</b>', html)
    assert [(int(i), name) for i, name in cells] == list(enumerate(CLASS_NAMES))
    for attribute in ("data-worker", "data-tables", "data-headsup"):
        target = re.search(rf'{attribute}="([^"]+)"', html).group(1)
        assert (site / "flop" / target).resolve().is_file(), attribute
    assert (site / "assets" / "js" / "pages" / "flop-page.js").is_file()
    assert f'href="../{flop_table_path()}"' in html  # the precomputed flop table


@pytest.mark.slow  # a rendered site (about 10 s on 2 cores)
def test_every_page_has_the_flop_entry_in_its_menu(site):
    for path in ("index.html", "equity/index.html", "hands/AKs/index.html"):
        html = (site / path).read_text(encoding="utf-8")
        depth = path.count("/")
        assert f'<li><a href="{"../" * depth}flop/index.html">Flop</a></li>' in html, path
