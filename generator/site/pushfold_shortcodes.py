"""The ``{{< pushfold_table … >}}`` and ``{{< sidepots … >}}`` shortcodes: n-player push/fold figures for articles.

Numbers come from ``pushfold_charts.json`` (the ``pushfold_charts`` stage; format in docs/data-format.md)
or, for the structure of the game (information sets, pot layers), from :mod:`kernels.pushfold`
itself. A table is named by its id, as in its page's URL (``6p-bba1-chipev``, ``3p-icm-50-30-20``), and
a stack in bb. A data file, table or stack that the build has not produced renders as "not computed
yet" (a smaller build solves fewer tables); a malformed shortcode is an :class:`InputError`.

========================================================  ===========================================
``shove_share table=ID stack=S position=POS``             share of the 1,326 hands POS shoves when
                                                          folded to (``"33.4%"``)
``call_share table=ID stack=S caller=POS vs=POS[+POS]``   share of hands the caller calls with
``range table=ID stack=S (position=… | caller=… vs=…)``   the hands played (≥ the played threshold)
``compare table=ID baseline=ID stack=S (position=… |``     that spot's share against the same spot of the
``caller=… vs=…)``                                        baseline table: "wider than", "tighter than" or
                                                          "as wide as" (at the 0.1% shown)
``nash_conv table=ID stack=S``                            the chart's NashConv (bb, or % of the pool)
``pots table=ID stack=S size=2|3|4+``                     how often a showdown has that many players
``four_way_bound table=ID stack=S``                       P(4+ all-in) × everything at stake (bb, or
                                                          the whole pool in % for ICM)
``iterations table=ID stack=S``                           solver iterations the chart took
``link table=ID stack=S``                                 a link to the chart's page
``most|least VALUE [size=…] [payoff=chip|icm]``           the largest / smallest of a per-chart VALUE
``[show=value|where] [players=N]``                        (nash_conv, pots, four_way_bound,
                                                          iterations; check_bound / check_deals: the
                                                          upper bound and the deals of the check on
                                                          real deals, over the checked charts) over
                                                          every chart, or a link to the chart where
                                                          it occurs
``tables`` / ``groups``                                   how many charts / games were solved
``players``                                               the player counts of those charts, "2 to 6 and 9"
``tolerance payoff=chip|icm``                             the solver's stopping NashConv
``class_tolerance payoff=chip|icm``                       the stopping rule's largest regret of a class at a decision
``decisions players=N``                                   information sets of an N-player table
``threeway_boards`` / ``threeway_se`` /                   the 3-way table behind the charts: boards,
``threeway_se_p99`` / ``threeway_triples``                median and 99th-percentile standard error (largest seat)
                                                          of a triple's equity (percentage points; ``pot=P``:
                                                          its worth in a pot of P bb), class triples
========================================================  ===========================================

``{{< sidepots stacks=A,B,C shover=POS callers=POS+POS [ante=X] [bb_ante=yes] >}}``: the pot layers of
one all-in (main pot, side pots, an uncalled excess returned), as :func:`kernels.pushfold.make_game`
settles them, in an HTML table.
"""

from __future__ import annotations

from markupsafe import escape

from generator.core.errors import InputError
from generator.site.formatting import NOT_COMPUTED, count, number_runs, pct, scientific
from generator.core.numbers import parse_number, parse_number_list
from generator.site.pushfold_pages import group_id, group_title, range_text, table_path
from kernels.constants import MAX_SEATS
from kernels.pushfold import Table, infoset_keys, make_game, position_names, table_errors
from kernels.threeway.core import N_TRIPLES

POT_SIZES = ("2", "3", "4+")
PER_CHART = ("shove_share", "call_share", "range", "compare", "nash_conv", "pots", "four_way_bound", "iterations", "link")
RANKED = ("nash_conv", "pots", "four_way_bound", "iterations", "check_bound", "check_deals")
USAGE = (
    "{{< pushfold_table shove_share|call_share|range|nash_conv|pots|four_way_bound|iterations|link table=ID stack=S … >}}, "
    "{{< pushfold_table most|least VALUE … >}}, {{< pushfold_table tables|groups|players|tolerance|class_tolerance|decisions|threeway_… >}}"
)


def _percent(value: float) -> str:
    """A probability as a percentage with two significant digits: ``"13%"``, ``"0.74%"``, ``"0.0051%"``."""
    if value == 0:
        return "0%"
    return f"{float(f'{100 * value:.2g}'):,.10g}%"


def _payoff(options: dict) -> str:
    payoff = options.get("payoff")
    if payoff not in ("chip", "icm"):
        raise InputError(f"needs payoff=chip or payoff=icm, got {payoff!r}")
    return payoff


def _stack(options: dict) -> float:
    try:
        return float(options["stack"])
    except KeyError:
        raise InputError("needs stack=S (bb)") from None
    except ValueError:
        raise InputError(f"stack must be a number of bb, got {options['stack']!r}") from None


def _spot(options: dict) -> tuple[str, str]:
    """``("shove", "BTN")`` for ``position=BTN``, ``("call", "BB vs BTN+SB")`` for ``caller=BB vs=BTN+SB``."""
    if "position" in options:
        return "shove", options["position"]
    if "caller" in options and "vs" in options:
        return "call", f"{options['caller']} vs {options['vs']}"
    raise InputError("needs position=POS (a shove) or caller=POS vs=POS[+POS] (a call)")


class ChartValues:
    """The n-player figures of one page; ``document`` is ``pushfold_charts.json`` (None: not built),
    ``root`` the page's relative path to the site root."""

    def __init__(self, document: dict | None, root: str):
        self.document = document
        self.root = root

    def __call__(self, args: list[str], options: dict) -> str:
        if not args:
            raise InputError(f"usage: {USAGE}")
        key = args[0]
        if key in PER_CHART:
            self._arity(args, 1)
            stack = _stack(options)  # checked before the data, so a typo fails on every build
            if "table" not in options:
                raise InputError("needs table=ID (as in the page's URL, e.g. 6p-bba1-chipev)")
            found = self._chart(options["table"], stack)
            return NOT_COMPUTED if found is None else self._chart_value(key, *found, options)
        if key in ("most", "least"):
            self._arity(args, 2)
            return self._ranked(key, args[1], options)
        self._arity(args, 1)
        if key == "decisions":
            return self._decisions(options)
        if key == "threeway_triples":
            return count(N_TRIPLES)
        if key not in ("tables", "groups", "players", "tolerance", "class_tolerance", "threeway_boards", "threeway_se", "threeway_se_p99"):
            raise InputError(f"unknown n-player push/fold value '{key}' ({USAGE})")
        if self.document is None:
            return NOT_COMPUTED
        meta = self.document["meta"]
        if key == "tables":
            return count(sum(len(group["charts"]) for group in self.document["groups"]))
        if key == "groups":
            return count(len(self.document["groups"]))
        if key == "players":
            return number_runs(group["players"] for group in self.document["groups"])
        if key in ("tolerance", "class_tolerance"):
            prefix = "" if key == "tolerance" else "class_"
            chip = _payoff(options) == "chip"
            return f"{meta[prefix + 'tolerance_bb']:g} bb" if chip else f"{meta[prefix + 'tolerance_pool_pct']:g}% of the pool"
        threeway = meta.get("threeway")
        if threeway is None:
            return NOT_COMPUTED
        if key == "threeway_boards":
            return count(threeway["boards"])
        se = threeway['se_median' if key == 'threeway_se' else 'se_p99']
        if "pot" in options:  # the error's worth in a pot of that many bb
            return f"{se * parse_number(options['pot'], 'pot'):.2f} bb"
        return f"{100 * se:.2f} percentage points"

    @staticmethod
    def _arity(args, expected):
        if len(args) != expected:
            raise InputError(f"usage: {USAGE}")

    def _chart(self, table_id: str, stack: float):
        """``(group, chart)`` of the table ``table_id`` at ``stack``, or None when not solved in this build."""
        for group in (self.document or {}).get("groups", []):
            if group_id(group) == table_id:
                return next(((group, chart) for chart in group["charts"] if chart["stack"] == stack), None)
        return None

    def _chart_value(self, key: str, group: dict, chart: dict, options: dict) -> str:
        if key == "compare":
            if "baseline" not in options:
                raise InputError("compare needs baseline=ID (the table to compare with)")
            found = self._chart(options["baseline"], chart["stack"])
            if found is None:
                return NOT_COMPUTED
            share, baseline = (round(self._share(g, c, options), 3) for g, c in ((group, chart), found))
            return "wider than" if share > baseline else "tighter than" if share < baseline else "as wide as"
        if key in ("shove_share", "call_share", "range"):
            kind, name = _spot(options)
            if key != "range" and kind != key.removesuffix("_share"):
                raise InputError(f"{key} needs " + ("position=POS" if key == "shove_share" else "caller=POS vs=POS[+POS]"))
            frequencies = chart[kind].get(name)
            if frequencies is None:
                raise InputError(f"{group_title(group)} has no {kind} decision '{name}' (known: {', '.join(chart[kind])})")
            if key == "range":
                return str(escape(range_text(frequencies, self.document["meta"]["played_threshold"])))
            return pct(self._share(group, chart, options))
        if key == "link":
            title = f"{group_title(group)}, {chart['stack']:g} bb"
            return f'<a href="{escape(self.root + table_path(group, chart["stack"]))}">{escape(title)}</a>'
        if key == "pots":
            return _percent(chart["pots"][self._size(options)])
        return self._format(key, group, self._number(key, group, chart, options))

    def _share(self, group: dict, chart: dict, options: dict) -> float:
        """The share of the 1,326 hands played at the spot ``position=`` or ``caller= vs=`` of a chart."""
        kind, name = _spot(options)
        frequencies = chart[kind].get(name)
        if frequencies is None:
            raise InputError(f"{group_title(group)} has no {kind} decision '{name}' (known: {', '.join(chart[kind])})")
        combos = self.document["combos"]
        return sum(f * c for f, c in zip(frequencies, combos)) / sum(combos)

    @staticmethod
    def _size(options: dict) -> str:
        size = options.get("size")
        if size not in POT_SIZES:
            raise InputError(f"size must be one of {', '.join(POT_SIZES)}, got {size!r}")
        return size

    def _number(self, key: str, group: dict, chart: dict, options: dict) -> float:
        """A per-chart value as a number (payoff units: bb for chip EV, % of the pool for ICM)."""
        if key == "nash_conv":
            return chart["nash_conv_bb"] if group["payouts"] is None else chart["nash_conv_pool_pct"]
        if key == "pots":
            return chart["pots"][self._size(options)]
        if key == "four_way_bound":  # no seat's EV moves by more than P(4+ all-in) × all at stake in it, bounties included
            at_stake = group["players"] * chart["stack"] if group["payouts"] is None else 100.0
            return chart["pots"]["4+"] * at_stake * (1.0 + (group["bounty"] or 0.0))
        if key == "check_bound":
            return chart["certified"]["upper95"]
        if key == "check_deals":
            return chart["certified"]["deals"]
        return chart["iterations"]

    @staticmethod
    def _format(key: str, group: dict, value: float) -> str:
        if key == "pots":
            return _percent(value)
        if key in ("iterations", "check_deals"):
            return count(value)
        if key == "check_bound":
            return f"{value:.2g} bb" if group["payouts"] is None else f"{value:.2g}% of the pool"
        return f"{scientific(value)} bb" if group["payouts"] is None else f"{scientific(value)}% of the pool"

    def _ranked(self, direction: str, key: str, options: dict) -> str:
        if key not in RANKED:
            raise InputError(f"{direction} takes one of {', '.join(RANKED)}, got {key!r}")
        show = options.get("show", "value")
        if show not in ("value", "where"):
            raise InputError(f"show must be value or where, got {show!r}")
        payoff = _payoff(options) if key in ("nash_conv", "four_way_bound", "check_bound") or "payoff" in options else None
        if key == "pots":
            self._size(options)
        players = None
        if "players" in options:
            try:
                players = int(options["players"])
            except ValueError:
                raise InputError(f"players must be a whole number, got {options['players']!r}") from None
        if self.document is None:
            return NOT_COMPUTED
        candidates = [
            (self._number(key, group, chart, options), group, chart)
            for group in self.document["groups"] if (payoff is None or (group["payouts"] is None) == (payoff == "chip"))
            and (players is None or group["players"] == players)
            for chart in group["charts"] if not key.startswith("check_") or chart.get("certified")
        ]
        if not candidates:
            return NOT_COMPUTED
        pick = max if direction == "most" else min
        value, group, chart = pick(candidates, key=lambda item: item[0])
        return self._chart_value("link", group, chart, options) if show == "where" else self._format(key, group, value)

    @staticmethod
    def _decisions(options: dict) -> str:
        try:
            players = int(options.get("players", ""))
        except ValueError:
            raise InputError(f"needs players=N (2 to {MAX_SEATS}), got {options.get('players')!r}") from None
        table = Table((10.0,) * players)
        errors = table_errors(table)
        if errors:
            raise InputError(errors[0])
        return count(len(infoset_keys(make_game(table))))


def side_pots(args: list[str], options: dict) -> str:
    """``{{< sidepots stacks=A,B,C shover=POS callers=POS+POS [ante=X] [bb_ante=yes] >}}``: an HTML table
    of the pot layers when ``shover`` moves all-in and ``callers`` call (stacks in bb, first to act first)."""
    if args or "stacks" not in options or "shover" not in options:
        raise InputError("usage: {{< sidepots stacks=A,B,C shover=POS callers=POS+POS [ante=X] [bb_ante=yes] >}}")
    stacks = parse_number_list(options["stacks"], "stacks")
    ante = parse_number(options.get("ante", "0"), "ante")
    table = Table(tuple(stacks), ante=ante, bb_ante=options.get("bb_ante") == "yes")
    errors = table_errors(table)
    if errors:
        raise InputError(f"sidepots: {errors[0]}")
    names = position_names(len(stacks))
    try:
        shover = names.index(options["shover"])
        callers = tuple(sorted(names.index(name) for name in options.get("callers", "").split("+") if name))
    except ValueError:
        raise InputError(f"sidepots: positions are {', '.join(names)}") from None
    terminal = next((t for t in make_game(table).terminals if t.shover == shover and t.callers == callers), None)
    if terminal is None:
        raise InputError("sidepots: callers must act after the shover")
    rows = []
    for k, (amount, eligible) in enumerate(terminal.layers):
        label = "Main pot" if k == 0 else f"Side pot {k}" if len(eligible) > 1 else "Returned (uncalled)"
        who = ", ".join(names[s] for s in eligible)
        rows.append(f'<tr><th scope="row">{label}</th><td>{amount:g} bb</td><td>{escape(who)}</td></tr>')
    caption = (f"{names[shover]} shoves" + (f", {' and '.join(names[s] for s in callers)} call{'' if len(callers) > 1 else 's'}" if callers else "")
               + f"; stacks {', '.join(f'{n} {s:g}' for n, s in zip(names, stacks))} bb")
    return (f'<div class="table-scroll" tabindex="0" role="region" aria-label="Pot layers"><table class="data">'
            f'<caption>{escape(caption)}</caption><thead><tr><th scope="col">Pot</th><th scope="col">Amount</th>'
            f'<th scope="col">Who can win it</th></tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
