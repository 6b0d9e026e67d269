"""The site's structure, in one place: every page's path, the navigation, and the 13×13 chart layout.

Like MkDocs' ``structure/`` owning ``Page.url``: templates, shortcodes and the renderer ask here for
where a page lives (:func:`hand_path`, :func:`chart_path`, :func:`article_path`, :data:`SECTIONS`)
and how 169 classes are laid out in a grid (:func:`as_grid`), never spell it themselves.
Paths are relative to the site root and name ``index.html`` (see ``generator.site.render``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

GRID_SIZE = 13  # ranks per side of the chart: pairs on the diagonal, suited above, offsuit below

#: Section pages by key: (menu title, path).
SECTIONS = {
    "home": ("Home", "index.html"),
    "charts": ("Charts", "charts/2/index.html"),
    "matchups": ("Matchups", "matchups/index.html"),
    "equity": ("Equity", "equity/index.html"),
    "flop": ("Flop", "flop/index.html"),
    "pushfold": ("Push/fold", "pushfold/index.html"),
    "icm": ("ICM", "icm/index.html"),
    "icm-spot": ("Call/fold", "icm/spot/index.html"),
    "articles": ("Articles", "articles/index.html"),
    "data": ("Data", "data/index.html"),
}
#: The menu: (section key, title, path), home excluded (the site title links there).
NAV = tuple((key, title, path) for key, (title, path) in SECTIONS.items() if key != "home")


def top_folders() -> tuple[str, ...]:
    """The folders at the site's root that hold its pages and files (``hands``, ``charts``, ``assets``, …): a missing
    address that passes through one of them shows where the site's root is (the 404 page's script)."""
    paths = [path for _, path in SECTIONS.values()] + [hand_path("AA"), article_path("x"), pushfold_tables_path(), flop_table_path(), "assets/", "data/"]
    return tuple(sorted({path.split("/")[0] for path in paths if "/" in path}))


def section_path(key: str) -> str:
    return SECTIONS[key][1]


def hand_path(name: str) -> str:
    """Page of a class such as ``AKs``."""
    return f"hands/{name}/index.html"


def chart_path(players: int) -> str:
    """The 13×13 chart at ``players`` players."""
    return f"charts/{players}/index.html"


def article_path(slug: str) -> str:
    return f"articles/{slug}/index.html"


def equity_path(ranges: list[str], board: str = "", dead: str = "") -> str:
    """The equity calculator prefilled with one hand or range per player (the page's ``?p=…&board=…`` state)."""
    query = [("p", r) for r in ranges] + [(k, v) for k, v in (("board", board), ("dead", dead)) if v]
    return f"{section_path('equity')}?{urlencode(query)}"


def flop_path(range: str = "", villain: str = "", board: str = "", dead: str = "", view: str = "") -> str:
    """The flop calculator prefilled: the hero's ``range``, the ``villain``'s, ``board``, ``dead`` cards and ``view``
    (``hits``, ``graph`` or ``flops``): the page's ``?range=…&villain=…`` state."""
    query = [(k, v) for k, v in (("range", range), ("villain", villain), ("board", board), ("dead", dead), ("view", view)) if v]
    return f"{section_path('flop')}?{urlencode(query)}" if query else section_path("flop")


def pushfold_tables_path() -> str:
    """The list of precomputed n-player push/fold tables (``pushfold_charts.json``)."""
    return "pushfold/tables/index.html"


def pushfold_table_id(players: int, ante: float, bb_ante: bool, payouts, mixed: bool = False, bounty: float | None = None,
                      bounty_share: float = 1.0) -> str:
    """The id of a precomputed push/fold game (a group of tables): ``6p-bba1-chipev`` (``ante0.5`` for an
    ante every seat posts, ``icm-50-30-20`` for ICM payouts, ``-mixed`` for unequal-stack examples); with
    bounties worth ``bounty`` of each stack (:func:`kernels.icm.bounty.stack_bounties`) ``-pko50-b50`` (50% of a
    bounty paid in cash, bounties of 50% of a stack) or ``-ko-b50`` (a regular knockout: all of it in cash)."""
    parts = [f"{players}p"] + ([f"{'bba' if bb_ante else 'ante'}{ante:g}"] if ante else [])
    parts.append("chipev" if payouts is None else "icm-" + "-".join(f"{p:g}" for p in payouts))
    if bounty is not None:
        parts.append(f"{'ko' if bounty_share == 1 else f'pko{100 * bounty_share:g}'}-b{100 * bounty:g}")
    return "-".join(parts + (["mixed"] if mixed else []))


def pushfold_table_path(players: int, ante: float, bb_ante: bool, payouts, stack: float, bounty: float | None = None,
                        bounty_share: float = 1.0) -> str:
    """One precomputed push/fold chart: ``pushfold/tables/6p-bba1-chipev/10/index.html``."""
    return f"pushfold/tables/{pushfold_table_id(players, ante, bb_ante, payouts, False, bounty, bounty_share)}/{stack:g}/index.html"


def pushfold_data_path(group_id: str, table: str = "") -> str:
    """The precomputed push/fold data under ``data/``: ``data/pushfold/index.json``, or one table's solution
    ``data/pushfold/6p-bba1-chipev/10.json`` (``table``: the stack as ``f"{stack:g}"``, or the index into the
    group's ``stack_sets``)."""
    return "data/pushfold/index.json" if not group_id else f"data/pushfold/{group_id}/{table}.json"


def _number(value: float) -> str:
    """``f"{value:g}"``, or every digit where that would round (a bounty of 100/6 reads back as the same float)."""
    text = f"{value:g}"
    return text if float(text) == value else repr(float(value))


def _numbers(values) -> str:
    return ",".join(_number(v) for v in values)


def pushfold_solver_path(stacks=None, blinds=(0.5, 1), ante: float = 0, bb_ante: bool = False, payouts=None, bounties=None,
                         bounty_share: float = 1.0) -> str:
    """The browser push/fold solver, prefilled with a table when ``stacks`` (bb, first to act first) are
    given: ``pushfold/solver/index.html?stacks=10,10,10&blinds=0.5,1&ante=0&bbante=0`` (+ ``&payouts=50,30,20``
    for ICM, ``&bounties=5,5,5&share=50%`` with bounties), the page's URL state."""
    path = "pushfold/solver/index.html"
    if stacks is None:
        return path
    query = {"stacks": _numbers(stacks), "blinds": _numbers(blinds), "ante": f"{ante:g}", "bbante": "1" if bb_ante else "0"}
    if payouts is not None:
        query["payouts"] = _numbers(payouts)
    if bounties is not None:
        query["bounties"] = _numbers(bounties)
        query["share"] = f"{_number(100 * bounty_share)}%"
    return f"{path}?{urlencode(query, safe=',')}"


def flop_table_path(flop: str | None = None) -> str:
    """The table of the 1,755 suit-distinct flops (``flops.json``), with ``flop`` (``AhKd7c``) selected: its
    ``?flop=`` state."""
    path = "flop/all/index.html"
    return f"{path}?{urlencode({'flop': flop})}" if flop else path


def pushfold_thresholds_path() -> str:
    """The heads-up thresholds to 0.01 bb (``pushfold_thresholds.json``)."""
    return "pushfold/thresholds/index.html"


def data_file_path(name: str) -> str:
    """A published data file, e.g. ``data/pushfold_charts.csv`` for ``pushfold_charts.csv``."""
    return f"data/{name}"


def served_path(path: str) -> str:
    """The path a host serves a page at: ``hands/AKs/`` for ``hands/AKs/index.html``."""
    return path.removesuffix("index.html")


def as_grid(cells: list) -> list[list]:
    """169 items in class order → 13 rows of 13 (the chart layout of ``kernels.cards.CLASS_NAMES``)."""
    if len(cells) != GRID_SIZE * GRID_SIZE:
        raise ValueError(f"a chart has {GRID_SIZE * GRID_SIZE} cells, got {len(cells)}")
    return [cells[row * GRID_SIZE : (row + 1) * GRID_SIZE] for row in range(GRID_SIZE)]



@dataclass(frozen=True)
class Page:
    """One output file: its path under the site, its template and its own context."""

    path: str
    template: str
    context: dict
    section: str = ""
    in_sitemap: bool = True

    @property
    def root(self) -> str:
        """Relative link from this page to the site root (``"../"`` per folder level)."""
        return "../" * self.path.count("/")

    @property
    def pretty_path(self) -> str:
        return served_path(self.path)
