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
=================================  ===============================================================

Missing data renders as "not computed yet"; a malformed shortcode is an :class:`InputError`.
"""

from __future__ import annotations

from typing import Callable

from markupsafe import escape

from generator import charts
from generator.errors import InputError
from generator.formatting import big, count, day, factor, pct
from generator.sitedata import PLAYER_COUNTS, SiteData
from generator.structure import hand_path
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
        return None if gain is None else factor(gain)

