"""Render the static site: ``render_site(config, site_dir)`` writes every page, asset, feed and sitemap.

Links inside the site are relative to each page (``root`` = ``"../"`` × depth) and name
``index.html`` explicitly, so the site works from any sub-path and from ``file://``. ``base_url``
(plus ``site.origin`` when the config has one) is used only for absolute URLs: canonical links,
the sitemap, the Atom feed and the 404 page (which is served at arbitrary paths).
Output is deterministic: the same data and content give byte-identical files.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from generator import charts, datafiles
from generator.articles import Article, load_articles
from generator.evaluator_asset import ASSET_PATH, write_evaluator_asset
from generator.formatting import FILTERS
from generator.shortcodes import Shortcodes
from generator.sitedata import PLAYER_COUNTS, SiteData
from generator.structure import NAV, Page, article_path, as_grid, chart_path, hand_path, section_path, served_path
from kernels.cards import CLASS_NAMES

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


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
        self.env.globals.update(hand_path=hand_path, chart_path=chart_path, article_path=article_path, section_path=section_path, served_path=served_path)
        self.env.filters["json"] = lambda value: Markup(json.dumps(value, separators=(",", ":"), allow_nan=False).replace("</", "<\\/"))
        self.content_dir = Path(config.path).parent
        self.site = config.site

    def absolute_url(self, pretty_path: str) -> str:
        """Full URL of a site path (origin + base_url + path; origin when configured)."""
        return getattr(self.site, "origin", "").rstrip("/") + self.site.base_url + pretty_path

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
        target = self.site_dir / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(html, encoding="utf-8")

    def articles(self) -> list[Article]:
        shortcodes = Shortcodes(self.data, self.render_partial, root="../../")
        return load_articles(self.content_dir / "articles", shortcodes)

    def pages(self, articles: list[Article]) -> list[Page]:
        tables = self.data.tables
        pages = [
            Page(section_path("home"), "home.html", {"data": self.data, "articles": articles[:3]}),
            Page(section_path("matchups"), "matchups.html", {"classes": CLASS_NAMES, "available": self.data.matchups is not None}, "matchups"),
            Page(section_path("equity"), "equity.html", {"available": self.data.matchups is not None and self.data.headsup is not None}, "equity"),
            Page(section_path("pushfold"), "pushfold.html", pushfold_context(self.data.pushfold), "pushfold"),
            Page(section_path("icm"), "icm.html", {"presets": self.config.icm_presets}, "icm"),
            Page(section_path("icm-spot"), "icm-spot.html", {
                "available": self.data.matchups is not None and self.data.headsup is not None,
                "rows": as_grid([{"index": index, "name": name} for index, name in enumerate(CLASS_NAMES)]),
            }, "icm-spot"),
            Page(section_path("articles"), "articles.html", {"articles": articles}, "articles"),
            Page(section_path("data"), "data.html", {"files": datafiles.listing(self.data_dir, self.data)}, "data"),
            Page("404.html", "404.html", {"base": self.site.base_url}, in_sitemap=False),
        ]
        for players in PLAYER_COUNTS:
            table = tables.get(players)
            context = {
                "players": players,
                "table": table,
                "rows": charts.grid(table),
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
        context = {"name": CLASS_NAMES[index], "index": index, "tables": tables, "chart": None, "heatmap": None}
        if tables:
            context["chart"] = charts.line_chart(tables, index)
        if self.data.matchups:
            row = self.data.matchups["equity"][index]
            order = sorted(range(len(CLASS_NAMES)), key=lambda j: (-row[j], j))
            context.update(
                heatmap=charts.matchup_heatmap(row, CLASS_NAMES[index]),
                best=[(CLASS_NAMES[j], row[j]) for j in order[:5]],
                worst=[(CLASS_NAMES[j], row[j]) for j in reversed(order[-5:])],
            )
        return context

    def copy_assets(self) -> None:
        source, target = self.templates_dir / "assets", self.site_dir / "assets"
        for path in sorted(source.rglob("*")):
            if path.is_file():
                destination = target / path.relative_to(source)
                if not destination.exists() or destination.read_bytes() != path.read_bytes():
                    destination.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, destination)

    def render(self) -> None:
        datafiles.write_schemas(self.data_dir)
        self.copy_assets()
        articles = self.articles()
        pages = self.pages(articles)
        for page in pages:
            self.write(page)
        sitemap = [self.absolute_url(p.pretty_path) for p in pages if p.in_sitemap]
        self.write(Page("sitemap.xml", "sitemap.xml", {"urls": sitemap}, in_sitemap=False))
        self.write(Page("feed.xml", "feed.xml", {"articles": articles, "absolute_url": self.absolute_url}, in_sitemap=False))


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
            cells.append({"index": index, "name": name, "text": text, "label": label, "bucket": shade})
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
    return {"pushfold": pushfold, "charts": charts_, "summary": summary, "low": low, "top": top, "meta": pushfold["meta"]}


def render_site(config, site_dir: Path) -> None:
    """Write the whole site into ``site_dir`` from whatever data exists in ``site_dir/data``."""
    site_dir = Path(site_dir)
    SiteRenderer(config, site_dir).render()
    write_evaluator_asset(site_dir / ASSET_PATH)
