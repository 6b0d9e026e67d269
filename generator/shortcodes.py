"""Shortcodes: live numbers from the build inside articles, so no article hard-codes a figure.

=================================  ===============================================================
``{{< equity AA 2 >}}``            equity of a class at a table size (``digits=2`` for more digits)
``{{< matchup AKs QQ >}}``         exact heads-up equity of the first class against the second
``{{< hand AKs >}}``               link to a hand page
``{{< chart players=6 >}}``        the 13×13 equity chart of a table size
``{{< table players=6 top=10 >}}`` the strongest classes at a table size
``{{< fact NAME >}}``              a build fact: ``generated``, ``deals``, ``boards``, ``precision``,
                                   ``cv_gain`` / ``gain`` (medians; ``players=N`` for one
                                   table size),
                                   ``matchup_pairs``
``{{< bubble stacks=50,30,20``     the bubble-factor matrix of a field (kernels.icm.bubble_factors)
``payouts=0.7,0.3 >}}``
``{{< bubble_value stacks=…``      one entry of it, row ``row`` risking against column ``col``
``payouts=… row=2 col=3``          (1-based): ``show=factor`` (default), ``required``,
``show=required >}}``              ``premium`` or ``equity`` (the row player's ICM equity)
``{{< section icm-spot >}}``       a link to a section page (generator.structure.SECTIONS)
=================================  ===============================================================

Missing data renders as "not computed yet"; a malformed shortcode is an :class:`InputError`.
"""

from __future__ import annotations

from typing import Callable

from markupsafe import escape

from generator import charts
from generator.errors import InputError
from generator.formatting import big, count, day, pct
from generator.sitedata import PLAYER_COUNTS, SiteData
from generator.structure import SECTIONS, hand_path
from kernels.cards import CLASS_NAMES, CardError, parse_class

NOT_COMPUTED = '<span class="missing">not computed yet</span>'


def _class(text: str) -> int:
    try:
        return parse_class(text)
    except CardError as exc:
        raise InputError(str(exc)) from None


def _int_option(options: dict, key: str, default: int | None, allowed: range) -> int:
    raw = options.get(key, default)
    if raw is None:
        raise InputError(f"needs {key}=N")
    try:
        value = int(raw)
    except ValueError:
        raise InputError(f"{key} must be a whole number, got {raw!r}") from None
    if value not in allowed:
        raise InputError(f"{key} must be between {allowed.start} and {allowed.stop - 1}, got {value}")
    return value


def _arity(args: list, expected: int, usage: str) -> None:
    if len(args) != expected:
        raise InputError(f"usage: {usage}")


class Shortcodes:
    """Expands shortcodes for one page: ``root`` is the page's relative path to the site root."""

    def __init__(self, data: SiteData, render_partial: Callable[..., str], root: str):
        self.data = data
        self.render_partial = render_partial
        self.root = root
        self.handlers = {
            "equity": self.equity,
            "matchup": self.matchup,
            "hand": self.hand,
            "chart": self.chart,
            "table": self.table,
            "fact": self.fact,
            "bubble": self.bubble,
            "bubble_value": self.bubble_value,
            "section": self.section,
        }

    def __call__(self, name: str, args: list[str], options: dict) -> str:
        handler = self.handlers.get(name)
        if handler is None:
            raise InputError(f"unknown shortcode '{name}' (known: {', '.join(sorted(self.handlers))})")
        return handler(args, options)

    def _players(self, value) -> int:
        return _int_option({"players": value}, "players", None, range(PLAYER_COUNTS[0], PLAYER_COUNTS[-1] + 1))

    def equity(self, args, options) -> str:
        _arity(args, 2, "{{< equity CLASS PLAYERS >}}, e.g. {{< equity AA 2 >}}")
        index, players = _class(args[0]), self._players(args[1])
        digits = _int_option(options, "digits", 1, range(0, 5))
        table = self.data.tables.get(players)
        return NOT_COMPUTED if table is None else pct(table.equity[index], digits)

    def matchup(self, args, options) -> str:
        _arity(args, 2, "{{< matchup CLASS CLASS >}}, e.g. {{< matchup AKs QQ >}}")
        result = self.data.matchup(_class(args[0]), _class(args[1]))
        digits = _int_option(options, "digits", 1, range(0, 5))
        return NOT_COMPUTED if result is None else pct(result["equity"], digits)

    def hand(self, args, options) -> str:
        _arity(args, 1, "{{< hand CLASS >}}")
        name = CLASS_NAMES[_class(args[0])]
        return f'<a href="{self.root}{hand_path(name)}">{name}</a>'

    def chart(self, args, options) -> str:
        _arity(args, 0, "{{< chart players=N >}}")
        players = self._players(options.get("players"))
        table = self.data.tables.get(players)
        if table is None:
            return f"<p>{NOT_COMPUTED}</p>"
        return self.render_partial("partials/grid.html", rows=charts.grid(table), table=table, root=self.root)

    def table(self, args, options) -> str:
        _arity(args, 0, "{{< table players=N top=K >}}")
        players = self._players(options.get("players"))
        top = _int_option(options, "top", 10, range(1, 170))
        table = self.data.tables.get(players)
        if table is None:
            return f"<p>{NOT_COMPUTED}</p>"
        order = sorted(range(len(CLASS_NAMES)), key=lambda i: table.rank[i])[:top]
        return self.render_partial("partials/top_table.html", order=order, table=table, classes=CLASS_NAMES, root=self.root)

    def fact(self, args, options) -> str:
        _arity(args, 1, "{{< fact NAME >}}")
        facts = {
            "generated": lambda: day(self.data.generated()) if self.data.generated() else None,
            "deals": lambda: big(self.data.deals()) if self.data.deals() else None,
            "boards": lambda: count(self.data.headsup["meta"]["boards"]) if self.data.headsup else None,
            "precision": lambda: self._precision(),
            "cv_gain": lambda: self._median_gain("cv_gain", options),
            "gain": lambda: self._median_gain("gain", options),
            "matchup_pairs": lambda: count(sum(map(sum, self.data.matchups["pairs"]))) if self.data.matchups else None,
            "threehanded_deals": lambda: big(sum(self.data.threehanded["total"])) if self.data.threehanded else None,
            "threehanded_seconds": lambda: f"{self.data.threehanded['meta']['wall_time_s']:.0f} s" if self.data.threehanded else None,
        }
        if args[0] not in facts:
            raise InputError(f"unknown fact '{args[0]}' (known: {', '.join(facts)})")
        value = facts[args[0]]()
        return NOT_COMPUTED if value is None else str(escape(value))

    def _precision(self) -> str | None:
        width = self.data.worst_half_width()
        return None if width is None else "±" + pct(width, 2)

    def _median_gain(self, field, options) -> str | None:
        players = self._players(options["players"]) if "players" in options else None
        gain = self.data.median_gain(field, players)
        return None if gain is None else f"{gain:.1f}×"

    def _bubble_factors(self, options):
        """kernels.icm.bubble_factors of the field in ``stacks=`` and ``payouts=`` (comma lists)."""
        from generator.commands.icm import parse_number_list
        from kernels.icm import bubble_factors

        if "stacks" not in options or "payouts" not in options:
            raise InputError("needs stacks=A,B,C payouts=X,Y")
        stacks = parse_number_list(options["stacks"], "stacks")
        if len(stacks) > 12:
            raise InputError("stacks: at most 12 players in an article's matrix")
        try:
            return stacks, bubble_factors(stacks, parse_number_list(options["payouts"], "payouts"))
        except ValueError as exc:
            raise InputError(str(exc)) from None

    def bubble(self, args, options) -> str:
        _arity(args, 0, "{{< bubble stacks=A,B,C payouts=X,Y >}}")
        stacks, result = self._bubble_factors(options)
        head = "".join(f'<th scope="col">vs {j + 1}</th>' for j in range(len(stacks)))
        rows = []
        for i in range(len(stacks)):
            cells = []
            for j in range(len(stacks)):
                factor = result.bubble_factor[i, j]
                if factor != factor:  # NaN: undefined
                    cells.append("<td>–</td>")
                else:
                    title = f"needs {pct(result.required_equity[i, j], 1)} to call an even-money all-in"
                    cells.append(f'<td title="{escape(title)}">{factor:.2f}</td>')
            rows.append(f'<tr><th scope="row">{i + 1} ({stacks[i]:,.10g})</th>{"".join(cells)}</tr>')
        return (f'<div class="table-scroll"><table class="data"><caption>Bubble factors: row player risks against '
                f'column player</caption><thead><tr><th scope="col">Player (stack)</th>{head}</tr></thead>'
                f'<tbody>{"".join(rows)}</tbody></table></div>')

    def bubble_value(self, args, options) -> str:
        _arity(args, 0, "{{< bubble_value stacks=A,B,C payouts=X,Y row=I col=J show=factor|required|premium|equity >}}")
        stacks, result = self._bubble_factors(options)
        row = _int_option(options, "row", None, range(1, len(stacks) + 1)) - 1
        show = options.get("show", "factor")
        if show == "equity":
            return f"{result.equity[row]:,.4g}"
        col = _int_option(options, "col", None, range(1, len(stacks) + 1)) - 1
        values = {"factor": result.bubble_factor, "required": result.required_equity, "premium": result.risk_premium}
        if show not in values:
            raise InputError(f"show must be factor, required, premium or equity, got {show!r}")
        value = values[show][row, col]
        if value != value:  # NaN: undefined for this pair
            return "–"
        if show == "factor":
            return f"{value:.2f}"
        return pct(value, 1) if show == "required" else f"{100 * value:+.1f} points"

    def section(self, args, options) -> str:
        _arity(args, 1, "{{< section KEY >}}")
        if args[0] not in SECTIONS:
            raise InputError(f"unknown section '{args[0]}' (known: {', '.join(SECTIONS)})")
        title, path = SECTIONS[args[0]]
        return f'<a href="{escape(self.root + path)}">{escape(title)}</a>'
