"""The built site is self-contained: every href/src resolves to a file, with and without a sub-path and
as the default build writes it (no origin), and so does every file a page's script is pointed at
(``data-worker="…js"``, ``data-matchups="…bin"``), every ``url()`` of a stylesheet and every module a
script imports; every page is valid HTML5 (strict html5lib parse), and the feed and sitemap are
well-formed XML."""

from __future__ import annotations

import html.parser
import posixpath
import re
import urllib.request
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote, urlsplit

import html5lib
import pytest

from generator.cli.site import make_server
from generator.core.errors import InputError
from generator.site.render import render_site
from site_fixtures import build_site, site_config, write_pushfold_set, write_synthetic_data


class LinkCollector(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "link" and ("rel", "canonical") in attrs:
            return  # an absolute URL by design
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            elif name.startswith("data-") and value and DATA_FILE.fullmatch(value):
                self.links.append(value)  # a file a script will fetch, or run as a worker
            if name == "id":
                self.ids.append(value)


DATA_FILE = re.compile(r"[\w./-]+\.(?:js|json|bin|csv|svg|css)")
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")
JS_IMPORT = re.compile(r"""(?:^|\n)\s*(?:import|export)\b[^;'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)""")


def broken_asset_references(site: Path) -> list[str]:
    """Every ``url()`` of a stylesheet and every module a script imports that is not a file of the site."""
    broken = []
    for sheet in sorted(site.rglob("*.css")):
        for target in CSS_URL.findall(sheet.read_text(encoding="utf-8")):
            if not target.startswith("data:") and not (sheet.parent / target).resolve().is_file():
                broken.append(f"{sheet.relative_to(site)}: url({target})")
    for script in sorted(site.rglob("*.js")):
        for match in JS_IMPORT.finditer(script.read_text(encoding="utf-8")):
            target = match.group(1) or match.group(2)
            if target.startswith(".") and not (script.parent / target).resolve().is_file():
                broken.append(f"{script.relative_to(site)}: import {target}")
    return broken


def broken_links(site: Path, base_url: str) -> list[str]:
    """Every link on every page that does not resolve to a file in the site."""
    files = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    broken = []
    for page in sorted(site.rglob("*.html")):
        here = page.relative_to(site).parent.as_posix()
        collector = LinkCollector()
        collector.feed(page.read_text(encoding="utf-8"))
        for link in collector.links:
            parts = urlsplit(link)
            if parts.scheme == "data":
                continue  # embedded in the page: nothing is fetched
            if parts.scheme or parts.netloc:
                broken.append(f"{page.relative_to(site)}: external link {link}")
                continue
            if not parts.path:
                continue  # same-page fragment or query
            path = unquote(parts.path)
            if path.startswith("/"):
                if not path.startswith(base_url):
                    broken.append(f"{page.relative_to(site)}: {link} is outside base_url {base_url}")
                    continue
                target = path[len(base_url) :]
            else:
                target = posixpath.normpath(posixpath.join(here, path))
            if target in ("", "."):
                target = "index.html"
            elif path.endswith("/") or f"{target}/index.html" in files:
                target = f"{target.rstrip('/')}/index.html"
            if target not in files:
                broken.append(f"{page.relative_to(site)}: {link}")
    return broken


def test_link_checker_finds_broken_links(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a/index.html").write_text('<a href="../index.html">ok</a><a href="../b/">dir</a><a href="gone.html">x</a>')
    (tmp_path / "index.html").write_text('<a href="a/">ok</a><a href="https://cdn.example/x.js">x</a><a href="/a/">root</a>'
                                         '<img src="data:image/svg+xml,%3Csvg%3E%3C/svg%3E" alt="">'
                                         '<form data-worker="js/w.js" data-table=\'{"a": 1}\' data-hands="a/"></form>')
    assert broken_links(tmp_path, "/") == ["a/index.html: ../b/", "a/index.html: gone.html", "index.html: external link https://cdn.example/x.js",
                                           "index.html: js/w.js"]


DEFAULT_BUILD_FILES = ("headsup", "matchups", "threehanded", "fourhanded", "multiway", "pushfold", "pushfold_charts", "pushfold_thresholds",
                      "flops", "flop_hits")


def default_build(site_dir: Path, base_url: str = "/") -> Path:
    """The site as the default ``make build`` writes it: every data file the default stages publish
    (synthetic numbers), the precomputed push/fold set, and no ``site.origin`` (so no feed or sitemap)."""
    write_synthetic_data(site_dir / "data", files=DEFAULT_BUILD_FILES)
    write_pushfold_set(site_dir)
    render_site(site_config(base_url, origin=""), site_dir, warn=lambda message: None)
    return site_dir


@pytest.fixture(scope="module", params=["/", "/atlas/", "default"])
def built(request, tmp_path_factory):
    if request.param == "default":
        return "/", default_build(tmp_path_factory.mktemp("links-default"))
    return request.param, build_site(tmp_path_factory.mktemp("links"), base_url=request.param)


@pytest.mark.slow
def test_every_link_resolves(built):
    base_url, site = built
    assert broken_links(site, base_url) == []


def test_every_stylesheet_url_and_script_import_resolves(built):
    _, site = built
    assert broken_asset_references(site) == []


def test_asset_checker_finds_broken_references(tmp_path):
    (tmp_path / "css").mkdir()
    (tmp_path / "css/a.css").write_text('@font-face { src: url("../fonts/x.ttf"); } b { background: url(data:image/png;base64,AA) }')
    (tmp_path / "a.js").write_text('import { x } from "./b.js";\nexport { y } from "./gone.js";\nconst m = import("./c.js");')
    (tmp_path / "b.js").write_text("")
    assert broken_asset_references(tmp_path) == ["css/a.css: url(../fonts/x.ttf)", "a.js: import ./gone.js", "a.js: import ./c.js"]


@pytest.mark.slow
def test_absolute_links_only_on_the_404_page(built):
    base_url, site = built
    for page in site.rglob("*.html"):
        collector = LinkCollector()
        collector.feed(page.read_text(encoding="utf-8"))
        rooted = [link for link in collector.links if link.startswith("/")]
        assert not rooted or page.name == "404.html", (page, rooted)


@pytest.mark.slow
def test_pages_are_valid_html5_with_unique_ids(built):
    base_url, site = built
    if base_url != "/":
        pytest.skip("the markup does not depend on base_url; validated once")
    parser = html5lib.HTMLParser(strict=True)
    pages = [p for p in site.rglob("*.html") if "hands" not in p.parts] + sorted(site.glob("hands/*/index.html"))[::17]
    for page in sorted(pages):
        text = page.read_text(encoding="utf-8")
        try:
            parser.parse(text)
        except html5lib.html5parser.ParseError as exc:
            pytest.fail(f"{page.relative_to(site)}: {exc}")
        collector = LinkCollector()
        collector.feed(text)
        assert len(collector.ids) == len(set(collector.ids)), page


def test_feed_and_sitemap_are_wellformed(built):
    base_url, site = built
    if not (site / "feed.xml").exists():
        assert not (site / "sitemap.xml").exists()  # the default build: no site.origin, no absolute URLs
        return
    atom = "{http://www.w3.org/2005/Atom}"
    feed = ET.parse(site / "feed.xml").getroot()
    assert len(feed.findall(f"{atom}entry")) >= 4
    urls = [loc.text for loc in ET.parse(site / "sitemap.xml").getroot().iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert f"https://atlas.example{base_url}hands/AKs/" in urls and len(urls) == len(set(urls)) > 169


def test_serve_serves_the_site_and_the_404_page(built):
    _, site = built
    server = make_server(site, 0)
    import threading

    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        with urllib.request.urlopen(base + "charts/2/") as response:
            assert response.headers["Cache-Control"] == "no-cache" and b"All-in equity" in response.read()
        with pytest.raises(urllib.error.HTTPError) as caught:
            urllib.request.urlopen(base + "no/such/page")
        assert caught.value.code == 404 and b"Page not found" in caught.value.read()
        with pytest.raises(InputError, match="already in use"):
            make_server(site, server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def test_serve_serves_only_files_inside_the_site_and_refuses_odd_requests_without_a_traceback(built, tmp_path, capsys):
    """A symlink out of site/ (as root it served /etc/shadow), folder listings, a path segment over 255 bytes, a NUL:
    all 404; a request line over 64 KiB: 414; a client that hangs up: no traceback; a backlog for a page's requests."""
    import os
    import socket
    import threading

    _, site = built
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not part of the site")
    link = site / "outside-link"
    link.symlink_to(outside, target_is_directory=True)
    (site / "bare-folder").mkdir(exist_ok=True)
    server = make_server(site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        for path in ("outside-link/secret.txt", "outside-link/", "assets/", "bare-folder/", "x" * 300, "index.html%00.txt"):
            with pytest.raises(urllib.error.HTTPError) as caught:
                urllib.request.urlopen(base + path)
            assert caught.value.code == 404, path
        with urllib.request.urlopen(base + "charts/2/") as response:  # the site itself is still served
            assert response.status == 200
        with socket.create_connection(("127.0.0.1", server.server_address[1])) as raw:
            raw.sendall(b"GET /" + b"a" * 70000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            assert raw.recv(64).split(b"\r\n")[0].endswith(b" 414 Request-URI Too Long")
        assert server.request_queue_size >= 128
        try:
            raise BrokenPipeError(32, "Broken pipe")
        except BrokenPipeError:
            server.handle_error(None, ("127.0.0.1", 1))
        assert "Traceback" not in capsys.readouterr().err
    finally:
        server.shutdown()
        server.server_close()
        os.unlink(link)
