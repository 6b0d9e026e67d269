"""Chart models: the 13×13 class grid, a hand's equity-vs-players line chart, its matchup grid.

Functions here turn tables into plain dicts of positions, colours and labels; the templates in
``templates/partials/`` draw them as HTML and inline SVG. Colours are ``q0``..``q9`` buckets of a
colour-blind-safe sequential scale defined once in ``site.css`` (``assets/js/pages/chart.js`` buckets
live updates with the same rule); the number of buckets, ``CHART_BUCKETS``, is in spec/constants.json.
"""

from __future__ import annotations

from generator.core.constants import CHART_BUCKETS
from generator.site.formatting import count, pct
from generator.data.sitedata import PlayerTable
from generator.site.structure import GRID_SIZE, as_grid
from kernels.cards import CLASS_NAMES


def bucket(value: float, low: float, high: float) -> int:
    """Position of ``value`` in [low, high] as a colour bucket 0..CHART_BUCKETS - 1 (the last = best)."""
    if high <= low:
        return CHART_BUCKETS - 1
    return max(0, min(CHART_BUCKETS - 1, int((value - low) / (high - low) * CHART_BUCKETS)))


def rank_bucket(rank: int, classes: int = len(CLASS_NAMES)) -> int:
    """Rank 1..169 as a colour bucket (rank 1 → the last)."""
    return (classes - rank) * CHART_BUCKETS // classes


def cell_label(name: str, table: PlayerTable, index: int) -> str:
    """The full detail of one cell in words (ARIA label and no-JS reading)."""
    lo, hi = table.ci(index)
    precision = "exact" if table.exact else f"95% CI {pct(lo, 2)} to {pct(hi, 2)}, {count(table.samples[index])} samples"
    return (
        f"{name}, {table.players} players: equity {pct(table.equity[index], 2)} ({precision}); "
        f"win {pct(table.win[index])}, tie {pct(table.tie[index])}, lose {pct(table.loss[index])}; "
        f"rank {table.rank[index]} of {len(CLASS_NAMES)}"
    )


def grid(table: PlayerTable | None) -> list[list[dict]]:
    """The 13×13 chart of one table size: rows of cells with text, colour buckets and W/T/L bands.

    Without a table (not computed yet) the cells carry only the class names.
    """
    if table is None:
        cells = [{"index": i, "name": name, "equity": None, "short": None, "rank": None, "bands": [0, 0], "label": name} for i, name in enumerate(CLASS_NAMES)]
        return as_grid(cells)
    low, high = min(table.equity), max(table.equity)
    cells = []
    for index, name in enumerate(CLASS_NAMES):
        cells.append(
            {
                "index": index,
                "name": name,
                "equity": pct(table.equity[index]),
                "short": f"{100 * table.equity[index]:.0f}",  # whole percent, for the phone's narrow cells
                "rank": table.rank[index],
                "eq_bucket": bucket(table.equity[index], low, high),
                "rank_bucket": rank_bucket(table.rank[index]),
                "bands": [round(100 * table.win[index], 2), round(100 * table.tie[index], 2)],
                "label": cell_label(name, table, index),
            }
        )
    return as_grid(cells)


def _ticks(high: float, step: float) -> list[float]:
    return [i * step for i in range(int(high / step + 1e-9) + 1)]


def line_chart(tables: dict[int, PlayerTable], index: int, width: int = 640, height: int = 300) -> dict:
    """Equity of one class against the number of players, with its 95% CI and the fair share 1/n."""
    left, right, top, bottom = 52, 16, 16, 44
    players = sorted(tables)
    top_value = max(max(tables[n].ci(index)[1] for n in players), 1 / min(players))
    step = 0.1 if top_value > 0.3 else 0.05
    y_max = (int(top_value / step) + 1) * step
    x_lo, x_hi = 2, 10

    def x(n: float) -> float:
        return round(left + (n - x_lo) / (x_hi - x_lo) * (width - left - right), 1)

    def y(v: float) -> float:
        return round(top + (1 - v / y_max) * (height - top - bottom), 1)

    points = []
    for n in players:
        lo, hi = tables[n].ci(index)
        points.append(
            {
                "x": x(n),
                "y": y(tables[n].equity[index]),
                "y_lo": y(lo),
                "y_hi": y(hi),
                "title": f"{n} players: {pct(tables[n].equity[index], 2)}"
                + ("" if tables[n].exact else f" (95% CI {pct(lo, 2)} to {pct(hi, 2)})"),
            }
        )
    band = [(p["x"], p["y_hi"]) for p in points] + [(p["x"], p["y_lo"]) for p in reversed(points)]
    return {
        "width": width,
        "height": height,
        "plot": {"left": left, "right": width - right, "top": top, "bottom": height - bottom},
        "line": " ".join(f"{p['x']},{p['y']}" for p in points),
        "band": " ".join(f"{px},{py}" for px, py in band),
        "fair": " ".join(f"{x(n)},{y(1 / n)}" for n in range(x_lo, x_hi + 1)),
        "points": points,
        "x_ticks": [{"x": x(n), "label": str(n)} for n in range(x_lo, x_hi + 1)],
        "y_ticks": [{"y": y(v), "label": f"{round(100 * v)}%"} for v in _ticks(y_max, step)],
    }


def matchup_grid(hero: str, results: list[dict]) -> list[list[dict]]:
    """A class's exact heads-up result against each class (``SiteData.matchup`` dicts, class order) as
    the 13×13 chart: equity text, colour bucket on the absolute 0..100% scale, and a label in words."""
    cells = []
    for index, (name, result) in enumerate(zip(CLASS_NAMES, results)):
        cells.append(
            {
                "index": index,
                "name": name,
                "equity": pct(result["equity"]),
                "short": f"{100 * result['equity']:.0f}",
                "bucket": bucket(result["equity"], 0.0, 1.0),
                "label": f"{hero} against {name}: equity {pct(result['equity'])}, win {pct(result['win'])}, "
                f"tie {pct(result['tie'])}, lose {pct(result['loss'])}",
            }
        )
    return as_grid(cells)


def svg_grid(values: list[float], low: float, high: float, titles: list[str], cell: int) -> dict:
    """169 values in chart layout as SVG squares: ``{size, cell, cells: [{x, y, bucket, title}]}`` (px)."""
    cells = []
    for index, value in enumerate(values):
        row, col = divmod(index, GRID_SIZE)  # chart order: as_grid's rows
        cells.append({"x": col * cell, "y": row * cell, "bucket": bucket(value, low, high), "title": titles[index]})
    return {"size": GRID_SIZE * cell, "cell": cell, "cells": cells}


def equity_preview(table: PlayerTable, cell: int = 14) -> dict:
    """The chart of one table size as a small heat map (the chart's min..max colour scale), with the
    strongest and weakest classes for the text that says what the colours show."""
    equity = list(table.equity)
    order = sorted(range(len(equity)), key=lambda i: table.rank[i])
    preview = svg_grid(equity, min(equity), max(equity), [f"{name}: {pct(e)}" for name, e in zip(CLASS_NAMES, equity)], cell)
    preview.update(players=table.players, best=[(CLASS_NAMES[i], equity[i]) for i in order[:3]], worst=(CLASS_NAMES[order[-1]], equity[order[-1]]))
    return preview
