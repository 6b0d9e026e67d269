"""Shortcodes: live numbers from the build inside articles, so no article hard-codes a figure.

=================================  ===============================================================
``{{< equity AA 2 >}}``            equity of a class at a table size (``digits=2`` for more digits); wherever
                                   a class is taken, ``weakest`` names this build's weakest class heads-up
``{{< rank A2o 10 >}}``            rank of a class among the 169 at a table size (``#59``)
``{{< matchup AKs QQ >}}``         exact heads-up equity of the first class against the second
``{{< ranges QQ+,AK JJ-99,AQs >}}`` exact heads-up preflop equity of the first range against the
                                   second (unions of whole classes, from the 169×169 table)
``{{< potodds pot=15 call=10 >}}`` equity a call needs to break even: call / (pot + call)
``{{< icm stacks=A,B payouts=X >}}`` ICM table of a field; ``player=N value=equity|pool_share``
                                   for one number
``{{< pushfold KEY … >}}``         heads-up push/fold: ``push_share``/``call_share``/``sb_value``
                                   ``stack=S``; ``push_vs_call stack=S`` ("wider than", "narrower
                                   than", "as wide as"); ``wider_stacks side=push|call`` (the stacks
                                   where that range is the wider); ``push_max``/``call_max`` ``CLASS``
                                   (on the 0.5 bb chart grid), ``push_threshold``/``call_threshold``
                                   ``CLASS`` (to 0.01 bb; ``push_verdict``: "is pushed up to 1.41 bb" or
                                   "is never pushed"); ``max_nash_conv``; ``stacks`` (the solved range)
``{{< pushfold_table KEY … >}}``   n-player push/fold charts: shares, ranges, NashConv, pot sizes
                                   (generator.site.pushfold_shortcodes lists the keys)
``{{< sidepots stacks=… … >}}``    the main and side pots of one all-in (pushfold_shortcodes)
``{{< flop KEY … >}}``             the flop atlas: texture shares, a range's equity by texture, a class's
                                   best and worst flops, hit rates (generator.site.flop_shortcodes lists the keys)
``{{< hand AKs >}}``               link to a hand page
``{{< chart players=6 >}}``        the 13×13 equity chart of a table size
``{{< table players=6 top=10 >}}`` the strongest classes at a table size
``{{< fact NAME >}}``              a build fact: ``generated``, ``deals``, ``boards``, ``precision``,
                                   ``exact_tables`` / ``sampled_tables`` (the table sizes counted
                                   exactly / by Monte Carlo, in words),
                                   ``cv_gain`` / ``gain`` (medians; ``players=N`` for one
                                   table size),
                                   ``matchup_pairs``, ``board_classes``, ``live_combos``
                                   (heads-up walk) and ``walk_evaluations`` (their product),
                                   ``showdowns`` (combo pairs × boards a direct enumeration needs),
                                   ``threehanded_boards`` / ``threehanded_opponent_pairs``, ``hands`` (deals × seats), ``groups`` (batches
                                   of the standard errors), ``ci_checked`` / ``ci_missed`` (3-player
                                   Monte Carlo intervals checked against the exact values),
                                   ``fourhanded_deals`` / ``fourhanded_seconds`` (the opt-in exact four-handed
                                   table: "not computed yet" where the build has none)
``{{< bubble stacks=50,30,20``     the bubble-factor matrix of a field (kernels.icm.harville.bubble_factors)
``payouts=0.7,0.3 >}}``
``{{< bubble_value stacks=…``      one entry of it, row ``row`` risking against column ``col``
``payouts=… row=2 col=3``          (1-based): ``show=factor`` (default), ``required``,
``show=required >}}``              ``premium`` or ``equity`` (the row player's ICM equity)
``{{< bounty … >}}``, ``bounty_value``, knockout bounties: values, bubble factors, a hand's result
``bounty_showdown``, ``bounty_spot`` and a call/fold spot (generator.site.bounty_shortcodes lists the keys)
``{{< section icm-spot >}}``       a link to a section page (generator.site.structure.SECTIONS)
``{{< datafile NAME.csv >}}``      a link to a data file of this build (.json or .csv)
=================================  ===============================================================

Missing data renders as "not computed yet"; a malformed shortcode is an :class:`InputError`.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from markupsafe import escape

from generator.site import charts
from generator.site.flop_shortcodes import FlopValues
from generator.site.bounty_shortcodes import BountySpot, bounty_showdown, bounty_table, bounty_value
from generator.core.errors import InputError
from generator.site.formatting import NOT_COMPUTED, big, count, day, factor, pct, scientific
from generator.site.pushfold_shortcodes import ChartValues, side_pots
from generator.data.sitedata import DATA_FILES, PLAYER_COUNTS, SiteData
from generator.site.structure import SECTIONS, data_file_path, hand_path
from kernels.cards import CLASS_NAMES, CardError, parse_class
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from kernels.icm.harville import prize_equity, validate_field
from kernels.range_equity import NoDealError, class_weights, table_equity
from kernels.ranges import RangeError, parse_range

#: A push/fold frequency inside (this, 1 - this) counts as mixed (frequencies are stored to 6 decimals).
MIXED_LOW = 1e-3


#: A class argument that names a fact of the data rather than a class: the class with the lowest exact
#: heads-up equity against a random hand in this build's ``headsup.json``.
WEAKEST = "weakest"


def _class(text: str) -> int:
    try:
        return parse_class(text)
    except CardError as exc:
        raise InputError(str(exc)) from None


def player_words(counts: list[int]) -> str:
    """Table sizes in words: ``[2, 3, 4]`` → ``"heads-up, three-handed and four-handed"``, ``[5, …, 10]`` →
    ``"5 to 10 players"``."""
    named = {2: "heads-up", 3: "three-handed", 4: "four-handed"}
    if len(counts) >= 3 and counts == list(range(counts[0], counts[-1] + 1)) and not set(counts) <= set(named):
        return f"{counts[0]} to {counts[-1]} players"
    words = [named.get(n, f"{n} players") for n in counts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def stack_ranges(grid: list[float], selected: list[bool]) -> str:
    """The selected stacks of a solved grid as runs: grid 1, 1.5, …, selected at 1.5–2.5 and 4 → ``"1.5–2.5 bb and 4 bb"``."""
    runs, start = [], None
    for at, (stack, chosen) in enumerate(zip(grid, selected)):
        if chosen and start is None:
            start = stack
        if start is not None and (at + 1 == len(grid) or not selected[at + 1]):
            runs.append(f"{start:g} bb" if start == stack else f"{start:g}–{stack:g} bb")
            start = None
    if not runs:
        return "no stack"
    return runs[0] if len(runs) == 1 else ", ".join(runs[:-1]) + " and " + runs[-1]


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


def _numbers(options: dict, key: str) -> list[float]:
    """A list of numbers option (``stacks=500,300,200``), read by the one number-list grammar."""
    from generator.core.numbers import parse_number_list

    if key not in options:
        raise InputError(f"needs {key}=A,B,…")
    return parse_number_list(options[key], key)


def _positive(options: dict, key: str) -> float:
    raw = options.get(key)
    try:
        value = float(raw)
    except (TypeError, ValueError):
        value = float("nan")
    if not (np.isfinite(value) and value > 0):
        raise InputError(f"{key} must be one positive number, got {raw!r}")
    return value


class Shortcodes:
    """Expands shortcodes for one page: ``root`` is the page's relative path to the site root."""

    def __init__(self, data: SiteData, render_partial: Callable[..., str], root: str):
        self.data = data
        self.render_partial = render_partial
        self.root = root
        self.handlers = {
            "equity": self.equity,
            "rank": self.rank,
            "matchup": self.matchup,
            "ranges": self.ranges,
            "potodds": self.potodds,
            "icm": self.icm,
            "pushfold": self.pushfold,
            "pushfold_table": ChartValues(data.files.get("pushfold_charts"), root),
            "sidepots": side_pots,
            "flop": FlopValues(data.files.get("flops"), data.files.get("flop_hits")),
            "hand": self.hand,
            "chart": self.chart,
            "table": self.table,
            "fact": self.fact,
            "bubble": self.bubble,
            "bubble_value": self.bubble_value,
            "bounty": bounty_table,
            "bounty_value": bounty_value,
            "bounty_showdown": bounty_showdown,
            "bounty_spot": BountySpot(data),
            "section": self.section,
            "datafile": self.datafile,
        }

    def __call__(self, name: str, args: list[str], options: dict) -> str:
        handler = self.handlers.get(name)
        if handler is None:
            raise InputError(f"unknown shortcode '{name}' (known: {', '.join(sorted(self.handlers))})")
        return handler(args, options)

    def _class(self, text: str) -> int | None:
        """A class index; ``weakest`` is this build's weakest class heads-up (None when headsup.json is missing)."""
        if text == WEAKEST:
            if self.data.headsup is None:
                return None
            equity = self.data.headsup["equity"]
            return min(range(len(equity)), key=lambda i: (equity[i], i))
        return _class(text)

    def _players(self, value) -> int:
        return _int_option({"players": value}, "players", None, range(PLAYER_COUNTS[0], PLAYER_COUNTS[-1] + 1))

    def equity(self, args, options) -> str:
        _arity(args, 2, "{{< equity CLASS PLAYERS >}}, e.g. {{< equity AA 2 >}}")
        index, players = self._class(args[0]), self._players(args[1])
        digits = _int_option(options, "digits", 1, range(0, 5))
        table = self.data.tables.get(players)
        return NOT_COMPUTED if table is None or index is None else pct(table.equity[index], digits)

    def rank(self, args, options) -> str:
        _arity(args, 2, "{{< rank CLASS PLAYERS >}}, e.g. {{< rank A2o 10 >}}")
        index, players = self._class(args[0]), self._players(args[1])
        table = self.data.tables.get(players)
        return NOT_COMPUTED if table is None or index is None else f"#{table.rank[index]}"

    def potodds(self, args, options) -> str:
        _arity(args, 0, "{{< potodds pot=P call=C >}}")
        pot, call = _positive(options, "pot"), _positive(options, "call")
        return pct(call / (pot + call), _int_option(options, "digits", 1, range(0, 5)))

    def icm(self, args, options) -> str:
        _arity(args, 0, "{{< icm stacks=A,B,… payouts=X,Y,… [player=N value=equity|pool_share] >}}")
        try:
            stacks, payouts = validate_field(_numbers(options, "stacks"), _numbers(options, "payouts"))
        except ValueError as exc:
            raise InputError(str(exc)) from None
        equity = prize_equity(stacks, payouts, places=False).equity
        if "player" not in options:
            rows = [(stacks[i], stacks[i] / stacks.sum(), equity[i], equity[i] / payouts.sum()) for i in range(len(stacks))]
            return self.render_partial("partials/icm_table.html", rows=rows)
        player = _int_option(options, "player", None, range(1, len(stacks) + 1)) - 1
        value = options.get("value", "equity")
        if value == "equity":
            return f"{equity[player]:,.2f}"
        if value == "pool_share":
            return pct(equity[player] / payouts.sum())
        raise InputError(f"value must be equity or pool_share, got {value!r}")

    def pushfold(self, args, options) -> str:
        usage = (
            "{{< pushfold push_share|call_share|sb_value|mixed|push_vs_call stack=S >}}, "
            "{{< pushfold push_max|call_max|push_threshold|call_threshold|push_verdict|call_verdict CLASS >}}, "
            "{{< pushfold wider_stacks side=push|call >}}, {{< pushfold max_nash_conv|stacks|push_gaps >}}"
        )
        if not args:
            raise InputError(f"usage: {usage}")
        key, data = args[0], self.data.pushfold
        if key in ("push_share", "call_share", "sb_value", "mixed", "push_vs_call"):
            _arity(args, 1, usage)
            stack = _positive(options, "stack")
            if data is None:
                return NOT_COMPUTED
            if stack not in data["stacks"]:
                raise InputError(f"stack={stack:g} is not a solved stack ({data['stacks'][0]:g} to {data['stacks'][-1]:g} bb in steps)")
            at = data["stacks"].index(stack)
            if key == "mixed":  # classes played with a frequency strictly between 0 and 1, by either player
                return count(sum(any(MIXED_LOW < data[side][at][i] < 1 - MIXED_LOW for side in ("push", "call")) for i in range(len(CLASS_NAMES))))
            if key == "push_vs_call":  # the two ranges' shares of the 1,326 hands compared, in words
                push, call = round(data["push_share"][at], 3), round(data["call_share"][at], 3)  # as shown (0.1%)
                return "wider than" if push > call else "narrower than" if push < call else "as wide as"
            return f"{data[key][at]:+.3f} bb" if key == "sb_value" else pct(data[key][at])
        if key in ("push_max", "call_max", "push_threshold", "call_threshold", "push_verdict", "call_verdict"):
            _arity(args, 2, usage)
            index = self._class(args[1])
            side, _, kind = key.partition("_")
            if kind in ("threshold", "verdict"):
                threshold = self._threshold(f"{side}_max", index)
                if kind == "threshold" or threshold == NOT_COMPUTED:
                    return threshold
                verb = "pushed" if side == "push" else "called"
                return f"is never {verb}" if threshold == "never" else f"is {verb} up to {threshold}"
            if data is None or index is None:
                return NOT_COMPUTED
            largest = data[key][index]
            if largest is None:
                return "never"
            return f"at least {largest:g} bb" if largest == data["stacks"][-1] else f"{largest:g} bb"
        _arity(args, 1, usage)
        if key == "wider_stacks":  # the stacks at which one player's range is strictly wider than the other's
            side = options.get("side")
            if side not in ("push", "call"):
                raise InputError(f"wider_stacks needs side=push or side=call, got {side!r}")
            if data is None:
                return NOT_COMPUTED
            other = "call" if side == "push" else "push"
            wider = [round(a, 3) > round(b, 3) for a, b in zip(data[f"{side}_share"], data[f"{other}_share"])]
            return stack_ranges(data["stacks"], wider)
        if key == "max_nash_conv":
            return NOT_COMPUTED if data is None else f"{scientific(data['meta']['max_nash_conv'])} bb"
        if key == "stacks":
            return NOT_COMPUTED if data is None else f"{data['stacks'][0]:g}–{data['stacks'][-1]:g} bb"
        if key == "push_gaps":  # classes pushed at some stack, folded at a larger one, pushed again above
            if data is None:
                return NOT_COMPUTED
            gaps = [name for name, top, run in zip(CLASS_NAMES, data["push_max"], data["push_max_contiguous"]) if top != run]
            return ", ".join(self.hand([name], {}) for name in gaps) or "none"
        raise InputError(f"unknown push/fold value '{key}' ({usage})")

    def _threshold(self, key: str, index: int | None) -> str:
        """A class's heads-up threshold without ante to 0.01 bb (``pushfold_thresholds.json``, ``key`` push_max or call_max)."""
        document = self.data.files.get("pushfold_thresholds")
        block = next((b for b in (document or {}).get("by_ante", []) if b["ante"] == 0), None)
        if block is None or index is None:
            return NOT_COMPUTED
        largest = block[key][index]
        if largest is None:
            return "never"
        return f"at least {largest:g} bb" if largest == block["last_stack"] else f"{largest:g} bb"

    def matchup(self, args, options) -> str:
        _arity(args, 2, "{{< matchup CLASS CLASS >}}, e.g. {{< matchup AKs QQ >}}")
        result = self.data.matchup(_class(args[0]), _class(args[1]))
        digits = _int_option(options, "digits", 1, range(0, 5))
        return NOT_COMPUTED if result is None else pct(result["equity"], digits)

    def ranges(self, args, options) -> str:
        _arity(args, 2, "{{< ranges RANGE RANGE >}}, e.g. {{< ranges QQ+,AK JJ-99,AQs >}}")
        per_class = []
        for text in args:
            try:
                weights = class_weights(parse_range(text).weights)
            except RangeError as exc:
                raise InputError(f"range {text!r}: {exc}") from None
            if weights is None:
                raise InputError(f"range {text!r} is not a union of whole classes (the table holds classes)")
            per_class.append(weights)
        digits = _int_option(options, "digits", 1, range(0, 5))
        if self.data.matchups is None:
            return NOT_COMPUTED
        counts = (np.array(self.data.matchups[key], dtype=np.float64) for key in ("win", "tie", "pairs"))
        try:
            result = table_equity(*per_class, *counts, BOARDS_PER_MATCHUP)
        except NoDealError:
            raise InputError(f"{args[0]} and {args[1]} cannot be dealt together") from None
        return pct(result.equity[0], digits)

    def hand(self, args, options) -> str:
        _arity(args, 1, "{{< hand CLASS >}}")
        index = self._class(args[0])
        if index is None:
            return NOT_COMPUTED
        name = CLASS_NAMES[index]
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
            "exact_tables": lambda: self._table_sizes(exact=True),
            "sampled_tables": lambda: self._table_sizes(exact=False),
            "cv_gain": lambda: self._median_gain("cv_gain", options),
            "gain": lambda: self._median_gain("gain", options),
            "matchup_pairs": lambda: count(sum(map(sum, self.data.matchups["pairs"]))) if self.data.matchups else None,
            "board_classes": lambda: self._headsup_meta("board_classes"),
            "live_combos": lambda: self._headsup_meta("live_combos_per_board"),
            "walk_evaluations": lambda: self._walk_evaluations(),
            "showdowns": lambda: big(sum(map(sum, self.data.matchups["pairs"])) // 2 * self.data.matchups["meta"]["boards"]) if self.data.matchups else None,
            "threehanded_boards": lambda: count(self.data.threehanded["meta"]["boards"]) if self.data.threehanded else None,
            "threehanded_opponent_pairs": lambda: count(self.data.threehanded["meta"]["opponent_pairs"]) if self.data.threehanded else None,
            "hands": lambda: self._multiway_meta("samples", big),
            "groups": lambda: self._multiway_meta("groups", count),
            "ci_checked": lambda: self._interval_check(0),
            "ci_missed": lambda: self._interval_check(1),
            "threehanded_deals": lambda: big(sum(self.data.threehanded["total"])) if self.data.threehanded else None,
            "threehanded_seconds": lambda: f"{self.data.threehanded['meta']['wall_time_s']:.0f} s" if self.data.threehanded else None,
            "fourhanded_deals": lambda: big(sum(self.data.fourhanded["total"])) if self.data.fourhanded else None,
            "fourhanded_seconds": lambda: f"{self.data.fourhanded['meta']['wall_time_s']:.0f} s" if self.data.fourhanded else None,
        }
        if args[0] not in facts:
            raise InputError(f"unknown fact '{args[0]}' (known: {', '.join(facts)})")
        value = facts[args[0]]()
        return NOT_COMPUTED if value is None else str(escape(value))

    def _table_sizes(self, exact: bool) -> str | None:
        """The table sizes whose published equities are exact (or Monte Carlo), in words; None when there are none."""
        sizes = [n for n, table in sorted(self.data.tables.items()) if table.exact == exact]
        return player_words(sizes) if sizes else None

    def _headsup_meta(self, key: str) -> str | None:
        value = self.data.headsup["meta"].get(key) if self.data.headsup else None
        return None if value is None else count(value)

    def _walk_evaluations(self) -> str | None:
        """Seven-card evaluations of the heads-up walk: one per live combo on every board class."""
        meta = self.data.headsup["meta"] if self.data.headsup else {}
        if "board_classes" not in meta:
            return None
        return big(meta["board_classes"] * meta["live_combos_per_board"])

    def _multiway_meta(self, key: str, form: Callable[[int], str]) -> str | None:
        value = self.data.multiway["meta"].get(key) if self.data.multiway else None
        return None if value is None else form(value)

    def _interval_check(self, field: int) -> str | None:
        check = self.data.interval_check()
        return None if check is None else count(check[field])

    def _precision(self) -> str | None:
        width = self.data.worst_half_width()
        return None if width is None else f"±{100 * width:.2f} percentage points"

    def _median_gain(self, field, options) -> str | None:
        players = self._players(options["players"]) if "players" in options else None
        gain = self.data.median_gain(field, players)
        return None if gain is None else factor(gain)

    def _bubble_factors(self, options):
        """kernels.icm.harville.bubble_factors of the field in ``stacks=`` and ``payouts=`` (comma lists)."""
        from generator.core.numbers import parse_number_list
        from kernels.icm.harville import bubble_factors

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
        return (f'<div class="table-scroll" tabindex="0" role="region" aria-label="Bubble factors"><table class="data"><caption>Bubble factors: row player risks against '
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

    def datafile(self, args, options) -> str:
        _arity(args, 1, "{{< datafile NAME.json|NAME.csv >}}")
        stem, dot, kind = args[0].rpartition(".")
        if stem not in DATA_FILES or kind not in ("json", "csv"):
            raise InputError(f"unknown data file '{args[0]}' (known: {', '.join(f'{n}.json' for n in DATA_FILES)}, or .csv)")
        if self.data.files.get(stem) is None:
            return NOT_COMPUTED
        return f'<a href="{escape(self.root + data_file_path(args[0]))}">{escape(args[0])}</a>'

    def section(self, args, options) -> str:
        _arity(args, 1, "{{< section KEY >}}")
        if args[0] not in SECTIONS:
            raise InputError(f"unknown section '{args[0]}' (known: {', '.join(SECTIONS)})")
        title, path = SECTIONS[args[0]]
        return f'<a href="{escape(self.root + path)}">{escape(title)}</a>'
