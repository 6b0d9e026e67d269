"""Render the static site: ``render_site(config, site_dir)`` writes every page, asset, feed and sitemap.

Links inside the site are relative to each page (``root`` = ``"../"`` × depth) and name
``index.html`` explicitly, so the site works from any sub-path and from ``file://``. ``site.origin``
+ ``base_url`` make the absolute URLs of canonical links, ``og:url``, the sitemap and the Atom feed;
without an origin those are left out (and a warning says so). The 404 page (served at arbitrary
paths) links from ``base_url``.
Output is deterministic: the same data and content give byte-identical files.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from generator.site import charts, math_font, pushfold_pages
from generator.site.flop_pages import FlopAtlas, flop_table_page, hit_rates

from generator.data import datafiles
from generator.data.datafiles import LIVE_STATUS_PATH, write_live_status
from generator.site.articles import Article, load_articles
from generator.site.evaluator_asset import ASSET_PATH, write_evaluator_asset
from generator.site.formatting import FILTERS
from generator.core.provenance import DATA_LICENSE, DATA_LICENSE_NAME, DATA_LICENSE_URL
from generator.site.shortcodes import Shortcodes
from generator.data.sitedata import PLAYER_COUNTS, SiteData
from generator.core.storage import atomic_write_bytes, read_json
from generator.site.structure import (
    NAV, Page, article_path, as_grid, chart_path, equity_path, flop_table_path, hand_path, pushfold_data_path, pushfold_solver_path, pushfold_tables_path, pushfold_thresholds_path,
    section_path, served_path, top_folders,
)
from kernels.cards import CLASS_NAMES

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates"
#: Files made only of absolute URLs: written only when ``site.origin`` is configured.
ABSOLUTE_URL_FILES = ("sitemap.xml", "feed.xml")
NO_ORIGIN_WARNING = (
    "warning: no site.origin in the config (e.g. https://example.org): "
    "sitemap.xml, feed.xml, canonical and og:url links are left out"
)


class SiteRenderer:
    """Holds the Jinja environment, the data and the articles while the pages are written."""

    def __init__(self, config, site_dir: Path, templates_dir: Path = TEMPLATES_DIR):
        self.config = config
        self.site_dir = site_dir
        self.templates_dir = templates_dir
        self.data_dir = site_dir / "data"
        self.data = SiteData.load(self.data_dir)
        self.env = Environment(
            loader=FileSystemLoader(templates_dir),
            autoescape=select_autoescape(["html", "xml", "svg"]),
            undefined=StrictUndefined,
            trim_blocks=True,
            lstrip_blocks=True,
            keep_trailing_newline=True,
        )
        self.env.filters.update(FILTERS)
        self.env.globals.update(equity_path=equity_path, hand_path=hand_path, chart_path=chart_path, article_path=article_path, section_path=section_path, served_path=served_path,
                                pushfold_tables_path=pushfold_tables_path, pushfold_thresholds_path=pushfold_thresholds_path,
                                pushfold_solver_path=pushfold_solver_path, flop_table_path=flop_table_path, chart_buckets=charts.CHART_BUCKETS)
        # the table sizes counted exactly (2, 3 and, once computed, 4): the calculators read those files
        self.env.globals["exact_players"] = ",".join(str(n) for n, table in sorted(self.data.tables.items()) if table.exact)
        self.env.filters["json"] = lambda value: Markup(json.dumps(value, separators=(",", ":"), allow_nan=False).replace("</", "<\\/"))
        self.site = config.site

    def absolute_url(self, pretty_path: str) -> str | None:
        """Full URL of a site path (``site.origin`` + ``base_url`` + path); None without an origin."""
        return self.site.origin + self.site.base_url + pretty_path if self.site.origin else None

    def render_partial(self, template: str, **context) -> str:
        return self.env.get_template(template).render(**context)

    def write(self, page: Page) -> None:
        context = {
            "site": self.site,
            "root": page.root,
            "page": page,
            "nav": NAV,
            "canonical": self.absolute_url(page.pretty_path),
            "generated": self.data.generated(),
            **page.context,
        }
        html = self.env.get_template(page.template).render(**context)
        atomic_write_bytes(self.site_dir / page.path, html.encode("utf-8"))  # a failed render never leaves half a page

    def articles(self) -> list[Article]:
        shortcodes = Shortcodes(self.data, self.render_partial, root="../../")
        return load_articles(self.config.articles_dir, shortcodes)

    @cached_property
    def pushfold_index(self) -> dict | None:
        """``data/pushfold/index.json``, the list of every published push/fold table (None: not built)."""
        path = self.site_dir / pushfold_data_path("")
        return read_json(path) if path.exists() else None

    @cached_property
    def flop_atlas(self) -> FlopAtlas | None:
        """``flops.json`` as arrays (None: not built)."""
        flops = self.data.files.get("flops")
        return FlopAtlas(flops) if flops else None

    def pages(self, articles: list[Article]) -> list[Page]:
        tables = self.data.tables
        pages = [
            Page(section_path("home"), "home.html", {"data": self.data, "articles": articles[:3], "preview": charts.equity_preview(tables[2]) if 2 in tables else None,
                                                  "pushfold_players": pushfold_pages.published_players(self.pushfold_index)}),
            Page(section_path("matchups"), "matchups.html", {"classes": CLASS_NAMES, "available": self.data.matchups is not None}, "matchups"),
            Page(section_path("equity"), "equity.html", {"available": self.data.matchups is not None and self.data.headsup is not None}, "equity"),
            Page(section_path("flop"), "flop.html", {"headsup": self.data.headsup is not None,
                                                     "rows": as_grid([{"index": i, "name": name} for i, name in enumerate(CLASS_NAMES)])}, "flop"),
            Page(section_path("pushfold"), "pushfold.html", pushfold_context(self.data.pushfold), "pushfold"),
            *pushfold_pages.table_pages(self.data.files.get("pushfold_charts"), self.pushfold_index),
            pushfold_pages.thresholds_page(self.data.files.get("pushfold_thresholds")),
            pushfold_pages.solver_page(self.data.matchups is not None, self.pushfold_index is not None),
            flop_table_page(self.flop_atlas),
            Page(section_path("icm"), "icm.html", {"presets": self.config.icm_presets}, "icm"),
            Page(section_path("icm-spot"), "icm-spot.html", {
                "available": self.data.matchups is not None and self.data.headsup is not None,
                "rows": as_grid([{"index": index, "name": name} for index, name in enumerate(CLASS_NAMES)]),
            }, "icm-spot"),
            Page(section_path("articles"), "articles.html", {"articles": articles}, "articles"),
            Page(section_path("data"), "data.html", {"files": datafiles.listing(self.data_dir, self.data), "binaries": datafiles.binary_listing(self.data_dir), "license": (DATA_LICENSE, DATA_LICENSE_NAME, DATA_LICENSE_URL)}, "data"),
            # Hosts serve 404.html at any missing path, so its links start at base_url (not relative).
            Page("404.html", "404.html", {"root": self.site.base_url, **self.not_found_assets()}, in_sitemap=False),
        ]
        for players in PLAYER_COUNTS:
            table = tables.get(players)
            context = {
                "players": players,
                "table": table,
                "rows": charts.grid(table),
                "order": sorted(range(len(CLASS_NAMES)), key=table.rank.__getitem__) if table else [],
                "table_classes": CLASS_NAMES,
                "counts": PLAYER_COUNTS,
                "source_generated": self.data.multiway["meta"].get("generated") if self.data.multiway else None,
            }
            pages.append(Page(chart_path(players), "charts.html", context, "charts"))
        for index, name in enumerate(CLASS_NAMES):
            pages.append(Page(hand_path(name), "hand.html", self.hand_context(index), "charts"))
        for article in articles:
            pages.append(Page(article_path(article.slug), "article.html", {"article": article}, "articles"))
        return pages

    def hand_context(self, index: int) -> dict:
        tables = self.data.tables
        context = {"name": CLASS_NAMES[index], "index": index, "tables": tables, "chart": None, "matchups": None, "by_players": {}}
        hits = self.data.files.get("flop_hits")
        context.update(atlas=self.flop_atlas.hand_context(index, tables[2].equity[index] if 2 in tables else None) if self.flop_atlas else None,
                       hits=hit_rates(hits, index) if hits else None)
        if tables:
            context["chart"] = charts.line_chart(tables, index)
            context["by_players"] = {n: t.row(index) for n, t in tables.items()}
        if self.data.matchups:
            results = [self.data.matchup(index, j) for j in range(len(CLASS_NAMES))]
            order = sorted(range(len(CLASS_NAMES)), key=lambda j: (-results[j]["equity"], j))
            context.update(
                matchups=[(j, CLASS_NAMES[j], results[j]) for j in order],  # best first
                matchup_rows=charts.matchup_grid(CLASS_NAMES[index], results),
                best=[(CLASS_NAMES[j], results[j]["equity"]) for j in order[:5]],
                worst=[(CLASS_NAMES[j], results[j]["equity"]) for j in reversed(order[-5:])],
            )
        return context

    def not_found_assets(self) -> dict:
        """What the 404 page holds inline instead of loading: the stylesheet (its @font-face rules left out: their
        paths are relative to the stylesheet, and the page sets no math), the icon as a data: URL, the site's top
        folders for its script."""
        assets = self.templates_dir / "assets"
        css = re.sub(r"@font-face\s*\{[^}]*\}\s*", "", (assets / "css" / "site.css").read_text(encoding="utf-8"))
        if "</" in css:
            raise ValueError("site.css cannot be inlined: it holds '</'")
        icon = "data:image/svg+xml," + quote((assets / "favicon.svg").read_text(encoding="utf-8").strip())
        return {"inline_css": css, "brand_icon": icon, "top_folders": top_folders()}

    def copy_assets(self) -> None:
        """``templates/assets/`` into ``site/assets/`` (files already equal are left alone)."""
        source, target = self.templates_dir / "assets", self.site_dir / "assets"
        for path in sorted(source.rglob("*")):
            if path.is_file():
                _copy_if_changed(path, target / path.relative_to(source))

    def render(self) -> list[str]:
        """Write everything; returns the warnings (one line each) for the caller to show."""
        datafiles.write_schemas(self.data_dir)
        if not (self.site_dir / LIVE_STATUS_PATH).exists():  # chart pages read it; a multiway run rewrites it
            write_live_status(self.site_dir, False, None)
        self.copy_assets()
        articles = self.articles()
        math_font.write_math_font(self.site_dir / "assets" / math_font.ASSET, [article.html for article in articles])
        (self.site_dir / "assets" / "fonts" / "STIXTwoMath-Regular.ttf").unlink(missing_ok=True)  # the whole font, before
        pages = self.pages(articles)
        for page in pages:
            self.write(page)
        # articles come from site.articles, beside the config file unless absolute: a config copied elsewhere finds none
        warnings = [] if articles else [f"warning: no articles in {self.config.articles_dir} (site.articles in the config, "
                                        "a folder beside the config file unless absolute): the site has none"]
        if not self.site.origin:
            for name in ABSOLUTE_URL_FILES:  # never leave files with wrong (root-relative) URLs behind
                (self.site_dir / name).unlink(missing_ok=True)
            return warnings + [NO_ORIGIN_WARNING]
        sitemap = [self.absolute_url(p.pretty_path) for p in pages if p.in_sitemap]
        self.write(Page("sitemap.xml", "sitemap.xml", {"urls": sitemap}, in_sitemap=False))
        self.write(Page("feed.xml", "feed.xml", {"articles": articles, "absolute_url": self.absolute_url}, in_sitemap=False))
        return warnings


def _copy_if_changed(path: Path, destination: Path) -> None:
    data = path.read_bytes()
    if not destination.exists() or destination.read_bytes() != data:
        atomic_write_bytes(destination, data)


def _stack_ranges(stacks: list[float], frequencies: list[float]) -> str:
    """Where a class is played (frequency ≥ ½), as stack ranges in bb: ``"1–2, 4.5–12.5"``."""
    ranges, start, previous = [], None, None
    for stack, frequency in zip(stacks, frequencies):
        if frequency >= 0.5 and start is None:
            start = stack
        elif frequency < 0.5 and start is not None:
            ranges.append((start, previous))
            start = None
        previous = stack
    if start is not None:
        ranges.append((start, previous))
    return ", ".join(f"{a:g}" if a == b else f"{a:g}–{b:g}" for a, b in ranges)


def pushfold_context(pushfold: dict | None) -> dict:
    """The push/fold page: two 13×13 charts (SB push, BB call) of the largest stack per class, and a per-stack summary."""
    if not pushfold:
        return {"pushfold": None}
    stacks = pushfold["stacks"]
    low, top = stacks[0], stacks[-1]
    charts_ = {}
    for key, verb in (("push", "pushed by the small blind"), ("call", "called by the big blind")):
        frequencies = [[row[i] for row in pushfold[key]] for i in range(len(CLASS_NAMES))]
        cells, gaps = [], []
        for index, name in enumerate(CLASS_NAMES):
            largest, contiguous = pushfold[f"{key}_max"][index], pushfold[f"{key}_max_contiguous"][index]
            ranges = _stack_ranges(stacks, frequencies[index])
            if largest is None:
                text, label, shade = "–", f"{name}: never {verb} at {low:g} to {top:g} bb", None
            else:
                text = f"{largest:g}+" if largest >= top else f"{largest:g}"
                label = f"{name}: {verb} at every stack solved, {low:g} to {top:g} bb" if contiguous == top else f"{name}: {verb} up to {largest:g} bb"
                shade = charts.bucket(largest, low, top)
                if contiguous != largest:
                    text += "*"
                    label += f", with gaps: only at {ranges} bb"
                    gaps.append((name, ranges))
            cells.append({"index": index, "name": name, "text": text, "short": text.rstrip("*"), "label": label, "bucket": shade})
        charts_[key] = {"rows": as_grid(cells), "gaps": gaps}
    summary = [
        {
            "stack": stack,
            "push": pushfold["push_share"][k],
            "call": pushfold["call_share"][k],
            "value": pushfold["sb_value"][k],
            "nash_conv": pushfold["nash_conv"][k],
        }
        for k, stack in enumerate(stacks)
        if float(stack).is_integer()
    ]
    threshold = pushfold["meta"]["played_threshold"]
    picker = {  # for the stack selector (assets/js/pages/pushfold.js): per stack, "1"/"0" per class = played or not
        "stacks": stacks,
        **{key: ["".join("1" if f >= threshold else "0" for f in row) for row in pushfold[key]] for key in ("push", "call")},
        **{f"{key}_share": pushfold[f"{key}_share"] for key in ("push", "call")},
    }
    return {"pushfold": pushfold, "charts": charts_, "summary": summary, "low": low, "top": top, "meta": pushfold["meta"], "picker": picker}


def render_site(config, site_dir: Path, warn: Callable[[str], None] | None = None) -> None:
    """Write the whole site into ``site_dir`` from whatever data exists in ``site_dir/data``;
    ``warn(line)`` is called with each warning (e.g. no ``site.origin``), if given."""
    site_dir = Path(site_dir)
    warnings = SiteRenderer(config, site_dir).render()
    write_evaluator_asset(site_dir / ASSET_PATH)
    for line in warnings if warn else ():
        warn(line)
