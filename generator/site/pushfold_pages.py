"""Pages of the precomputed push/fold data: one page per n-player chart (group × stack) from
``pushfold_charts.json``, their index, and the heads-up thresholds from ``pushfold_thresholds.json``.

Each function returns :class:`generator.site.structure.Page` objects (or a context); the templates are
``pushfold-table.html``, ``pushfold-tables.html`` and ``pushfold-thresholds.html``. Frequencies
are fractions in [0, 1]; stacks and thresholds are in big blinds.
"""

from __future__ import annotations

from generator.site import charts
from generator.site.formatting import knockout_rule, number_runs
from generator.site.structure import (
    Page, as_grid, pushfold_solver_path, pushfold_table_id, pushfold_table_path, pushfold_tables_path,
    pushfold_thresholds_path,
)
from kernels.icm.bounty import stack_bounties
from kernels.cards import CLASS_NAMES
from kernels.constants import MAX_SEATS

TOTAL_COMBOS = 1326
SECTION = "pushfold"
#: Quick tables on the solver page: (label, keyword arguments of :func:`pushfold_solver_path`).
SOLVER_PRESETS = (
    ("SNG bubble, 4-handed, 50/30/20", {"stacks": [20, 15, 10, 5], "payouts": [50, 30, 20]}),
    ("9-handed, 12 bb, BB ante", {"stacks": [12] * 9, "ante": 1, "bb_ante": True}),
    ("3-handed final table, 65/35", {"stacks": [15, 10, 5], "payouts": [65, 35]}),
    ("Heads-up, 10 bb", {"stacks": [10, 10]}),
    ("6-max, 15 bb, chip EV", {"stacks": [15] * 6}),
)


def _bounty_share(group: dict) -> float:
    return 1.0 if group["bounty_share"] is None else group["bounty_share"]


def group_id(group: dict) -> str:
    """The id of an equal-stack game (an entry of ``pushfold_charts.json``'s ``groups``), as in its pages' URLs."""
    return pushfold_table_id(group["players"], group["ante"], group["bb_ante"], group["payouts"], False, group["bounty"], _bounty_share(group))


def table_path(group: dict, stack: float) -> str:
    """Path of the page of ``group`` (an entry of ``pushfold_charts.json``'s ``groups``) at ``stack`` bb."""
    return pushfold_table_path(group["players"], group["ante"], group["bb_ante"], group["payouts"], stack, group["bounty"], _bounty_share(group))


def group_title(group: dict) -> str:
    """``"6 players, BB ante 1 bb, chip EV"``, ``"4 players, ICM 50/30/20, PKO bounties 50% of a stack"``."""
    parts = [f"{group['players']} players"]
    if group["ante"]:
        parts.append(f"{'BB ante' if group['bb_ante'] else 'ante'} {group['ante']:g} bb")
    parts.append("chip EV" if group["payouts"] is None else f"ICM {payouts_text(group['payouts'])}")
    if group["bounty"] is not None:
        parts.append(f"{'KO' if _bounty_share(group) == 1 else 'PKO'} bounties {100 * group['bounty']:g}% of a stack")
    return ", ".join(parts)


def _seat_bounties(group: dict, stacks: list[float]) -> list[float] | None:
    """Each seat's bounty at ``stacks`` (bb) in a game of the set (:func:`kernels.icm.bounty.stack_bounties`: bb for chip
    EV, the payouts' unit for ICM), or None without bounties."""
    if group["bounty"] is None:
        return None
    pool = None if group["payouts"] is None else sum(group["payouts"])
    return stack_bounties(stacks, group["bounty"], pool).tolist()


def bounty_model_text(group: dict, bounties: list[float] | None) -> str | None:
    """The bounty model of a chart page (``bounties``: each seat's, the chart's) in a few sentences (None without
    bounties): the bounty at this stack, how a knockout pays it, who can win it and how the bounties left are valued."""
    if bounties is None:
        return None
    percent = f"{100 * group['bounty']:g}%"
    if group["payouts"] is None:
        size = f"{bounties[0]:g} bb on his head ({percent} of his stack)"
    else:
        pool = sum(group["payouts"])
        size = (f"{bounties[0]:.4g} on his head ({percent} of his stack's chip value, a prize pool of {pool:g} shared by "
                f"{group['players']} equal stacks)")
    return (f"Bounties: every player has a bounty of {size}; {knockout_rule(_bounty_share(group))}. "
            "Only a stack that covers a player can win his bounty: it goes to whoever wins the pot his last chip is in. "
            "The bounties left on heads are valued in proportion to chips.")


def payouts_text(payouts: list[float]) -> str:
    """``"50/30/20"``."""
    return "/".join(f"{p:g}" for p in payouts)


def frequency_text(frequency: float) -> str:
    """A frequency as whole percent for a cell: ``"100"``, ``"37"``, ``"<1"``, ``"–"`` (never)."""
    if frequency <= 0:
        return "–"
    percent = round(100 * frequency)
    return "<1" if percent < 1 else ">99" if percent == 100 and frequency < 1 else str(percent)


def _largest_text(largest: float | None, top: float) -> str:
    return "never" if largest is None else f"{largest:g}+" if largest >= top else f"≤{largest:g}"


def _share(frequencies: list[float], combos: list[int]) -> float:
    """Share of the 1,326 combos played (frequency-weighted)."""
    return sum(f * c for f, c in zip(frequencies, combos)) / TOTAL_COMBOS


def frequency_grid(frequencies: list[float], largest: list, stacks: list[float]) -> list[list]:
    """13×13 cells for one decision: the frequency and, per class, the largest stack of ``stacks`` at which
    it is played (``largest``, None: never). Cells carry no sentence each (a 6-player page has 845 of them):
    the grid's caption says what the two numbers are."""
    top = stacks[-1]
    cells = [
        {"index": index, "name": name, "text": frequency_text(frequency), "largest": _largest_text(most, top),
         "bucket": charts.bucket(frequency, 0.0, 1.0) if frequency > 0 else None}
        for index, (name, frequency, most) in enumerate(zip(CLASS_NAMES, frequencies, largest))
    ]
    return as_grid(cells)


def class_regret_text(worst: dict, tolerance: dict) -> str:
    """The worst per-class regret of a solution (``class_regret`` of docs/data-format.md) against the rule's
    ``tolerance`` (``{"bb", "pool_pct"}``): ``"0.0061 bb (A5s, CO); the rule: at most 0.01 bb"``."""
    chip = worst["bb"] is not None
    amount, limit = (worst["bb"], tolerance["bb"]) if chip else (worst["pool_pct"], tolerance["pool_pct"])
    unit = " bb" if chip else "% of the prize pool"
    verdict = "within" if amount <= limit else "above"
    return f"{_small(amount)}{unit} ({worst['class']}, {worst['spot']}): {verdict} the stopping rule's {limit:g}{unit}"


def certificate_text(certified: dict | None, tolerance: dict, players: int) -> dict | None:
    """The check on real deals of a chart in words, its upper bound first: ``{"title", "figure", "bound", "found"}`` (the
    bound's figure, what it is, what the deals found); None for a
    table that was not checked. ``tolerance`` (``{"bb", "pool_pct"}``) is the solver's NashConv rule: "Certified" only
    when the upper bound is within it, else "Checked"."""
    if not certified:
        return None
    chip = certified["unit"] == "bb"
    unit = " bb" if chip else "% of the prize pool"
    upper, limit = certified["upper95"], tolerance["bb" if chip else "pool_pct"]
    earned = upper <= limit
    what = ("heads-up the model is the real game, so this checks the code on dealt cards" if players == 2 else
            "it rules out an error of the model's equity tables larger than that" + ("" if earned else
            f", but not a smaller one such as the stopping rule's {limit:g}{unit}: that is within the deals' noise"))
    bound = (f"the 95% upper bound, from {certified['deals']:,} real deals (real cards, exact showdowns and side pots, no equity "
             f"tables), on what the players together could gain by changing their hands' actions; {what}")
    count = certified["deviations"]
    found = ("No hand's chart action did worse than the other by 3 standard errors of the deals." if not count else
             f"The {count:,} hand–decision pair{'s' if count > 1 else ''} that did gain{'' if count > 1 else 's'} "
             f"{certified['value']:.4f} ± {certified['ci95']:.4f}{unit} (95% interval) by deviating.")
    return {"title": f"{'Certified' if earned else 'Checked'} on real deals", "figure": f"at most {upper:.3g}{unit} per hand",
            "bound": bound, "found": found}


def _small(x: float) -> str:
    """Four decimals, or two significant digits below 0.001."""
    return f"{x:.4f}" if x >= 1e-3 or x == 0 else f"{x:.1e}"


def range_text(frequencies: list[float], threshold: float) -> str:
    """The classes played (frequency ≥ ``threshold``) in chart order, mixed ones (below 99.5%) with
    their frequency: ``"AA, KK, AKs (62%)"``; ``"none"`` when empty."""
    played = [
        name if round(100 * frequency) >= 100 else f"{name} ({frequency_text(frequency)}%)"
        for name, frequency in zip(CLASS_NAMES, frequencies)
        if frequency >= threshold
    ]
    return ", ".join(played) or "none"


def table_context(document: dict, group: dict, k: int) -> dict:
    """The page of ``group`` at its ``k``-th stack: shove grids per position; every call and overcall range
    as text, and the data of the call chart the page draws for the spot a reader picks (``call_spots``: each
    caller against each lone shover); the NashConv and the pot sizes."""
    chart, stacks, combos = group["charts"][k], group["stacks"], document["combos"]
    threshold = document["meta"]["played_threshold"]
    stack = chart["stack"]
    shoves = [
        {"id": f"shove-{pos}", "title": f"{pos} shoves", "share": _share(freqs, combos),
         "rows": frequency_grid(freqs, group["shove_max"][pos], stacks)}
        for pos, freqs in chart["shove"].items()
    ]
    calls, call_spots = [], []
    for spot, freqs in chart["call"].items():
        caller, shovers = spot.split(" vs ")
        calls.append({"spot": spot, "caller": caller, "shovers": shovers, "share": _share(freqs, combos),
                      "range": range_text(freqs, threshold)})
        if "+" not in shovers:
            call_spots.append({"spot": spot, "id": f"call-{caller}-{shovers}", "title": f"{caller} calls {shovers}'s shove",
                               "frequencies": freqs, "largest": [_largest_text(m, stacks[-1]) for m in group["call_max"][spot]]})
    variants = [
        {"title": group_title(other), "path": table_path(other, stack if stack in other["stacks"] else other["stacks"][0]),
         "current": other is group}
        for other in document["groups"]
        if other["players"] == group["players"]
    ]
    return {
        "document": document, "group": group, "chart": chart, "title": group_title(group), "stack": stack,
        "stacks": [(s, table_path(group, s)) for s in stacks], "variants": variants,
        "shoves": shoves, "calls": calls, "call_spots": call_spots, "threshold": threshold,
        "class_regret": class_regret_text(chart["class_regret"], _class_tolerance(document["meta"])),
        "nash_conv": (f"{_small(chart['nash_conv_bb'])} bb per hand" if chart["nash_conv_bb"] is not None
                      else f"{_small(chart['nash_conv_pool_pct'])}% of the prize pool"),  # heads-up: about 1e-7 bb, not "0.0000"
        "certificate": certificate_text(chart.get("certified"), _tolerance(document["meta"]), group["players"]),
        "meta": document["meta"],
        "payouts": payouts_text(group["payouts"]) if group["payouts"] else None,
        "bounty_model": bounty_model_text(group, chart["bounties"]),
        "solver": pushfold_solver_path([stack] * group["players"], (0.5, 1), group["ante"], group["bb_ante"], group["payouts"],
                                       chart["bounties"], _bounty_share(group)),
    }


def _tolerance(meta: dict) -> dict:
    return {"bb": meta["tolerance_bb"], "pool_pct": meta["tolerance_pool_pct"]}


def _class_tolerance(meta: dict) -> dict:
    return {"bb": meta["class_tolerance_bb"], "pool_pct": meta["class_tolerance_pool_pct"]}


def _amount_text(bb: float | None, pool_pct: float | None) -> str:
    """A chip-EV amount in bb, or an ICM one in % of the prize pool: ``"0.0042 bb"``, ``"0.0210% of the pool"``."""
    return f"{_small(bb)} bb" if bb is not None else f"{_small(pool_pct)}% of the pool"


def _stack_links(group: dict, pages: dict) -> list[dict]:
    """One link per table of an index entry (``data/pushfold/index.json``): its static chart page where the
    build wrote one (``pages``: ``{(group id, stack): path}``), else the solver page prefilled with the table,
    which shows the precomputed solution at once."""
    blinds = group.get("blinds", (0.5, 1))
    sets = [[s] * group["players"] for s in group["stacks"]] if group["stacks"] is not None else group["stack_sets"]
    links = []
    for stacks in sets:
        equal = len(set(stacks)) == 1
        label = f"{stacks[0]:g}" if equal else "/".join(f"{s:g}" for s in stacks)
        static = pages.get((group["id"], stacks[0])) if equal else None
        solver = pushfold_solver_path(stacks, blinds, group["ante"], group["bb_ante"], group["payouts"], _seat_bounties(group, stacks),
                                      _bounty_share(group))
        links.append({"label": label, "path": static or solver, "static": static is not None})
    return links


def published_players(index: dict | None) -> str | None:
    """The player counts of the published push/fold tables (``data/pushfold/index.json``) in words, ``"2 to 6 and 9"``;
    None when there are none."""
    return number_runs(g["players"] for g in index["groups"]) if index and index["groups"] else None


def tables_context(document: dict | None, index: dict | None) -> dict:
    """The index of every published table (``index``: ``data/pushfold/index.json``), by player count: per group
    its title, one link per table (its static chart page where ``document``, ``pushfold_charts.json``, has one;
    else the solver page, which shows it at once), the largest NashConv and the worst regret of a hand."""
    if not index:
        return {"document": None}
    pages = {(group_id(g), c["stack"]): table_path(g, c["stack"]) for g in (document or {}).get("groups", []) for c in g["charts"]}
    tolerance = _class_tolerance(index["meta"])
    by_players: dict[int, list] = {}
    for group in index["groups"]:
        regret = (group["max_class_regret_bb"], group["max_class_regret_pool_pct"])
        within = regret[0] <= tolerance["bb"] if regret[0] is not None else regret[1] <= tolerance["pool_pct"]
        by_players.setdefault(group["players"], []).append({
            "title": group_title(group) + (", unequal stacks" if group["stack_sets"] else ""),
            "links": _stack_links(group, pages),
            "nash_conv": _amount_text(group["max_nash_conv_bb"], group["max_nash_conv_pool_pct"]),
            "class_regret": _amount_text(*regret), "within": within,
        })
    sections = [{"players": n, "groups": by_players[n]} for n in sorted(by_players)]
    return {"document": index, "sections": sections, "meta": index["meta"], "players": published_players(index), "max_seats": MAX_SEATS,
            "tables": sum(len(g["links"]) for s in sections for g in s["groups"])}


def table_pages(document: dict | None, index: dict | None = None) -> list[Page]:
    """The index page of every published table (``index``: ``data/pushfold/index.json``) and one page per
    (group, stack) of ``pushfold_charts.json`` (only the index, saying "not computed yet", when both are missing)."""
    pages = [Page(pushfold_tables_path(), "pushfold-tables.html", tables_context(document, index), SECTION)]
    for group in (document or {}).get("groups", []):
        for k, stack in enumerate(group["stacks"]):
            pages.append(Page(table_path(group, stack), "pushfold-table.html", table_context(document, group, k), SECTION))
    return pages


def solver_page(available: bool, precomputed: bool) -> Page:
    """The browser solver (``pushfold-solver.html``); ``available``: the heads-up tables it needs exist;
    ``precomputed``: the precomputed set (``data/pushfold/index.json``) exists."""
    presets = [(label, pushfold_solver_path(**table)) for label, table in SOLVER_PRESETS]
    context = {"available": available, "precomputed": precomputed, "presets": presets}
    return Page(pushfold_solver_path(), "pushfold-solver.html", context, SECTION)


def thresholds_context(document: dict | None) -> dict:
    """Per ante: a 13×13 grid of the SB's shove and the BB's call thresholds, and one sortable row per
    class with every ante's two numbers."""
    if not document:
        return {"document": None}
    antes = document["by_ante"]
    grids = []
    for block in antes:
        top = block["last_stack"]
        for key, who in (("push", "small blind shoves"), ("call", "big blind calls")):
            cells = []
            for index, name in enumerate(CLASS_NAMES):
                largest = block[f"{key}_max"][index]
                contiguous = block[f"{key}_max_contiguous"][index]
                text = "–" if largest is None else f"{top:g}+" if largest >= top else f"{largest:.2f}"
                short = text if largest is None or largest >= top else f"{largest:.1f}"  # a phone's cell: 0.1 bb
                label = f"{name}: {who} " + ("at no stack" if largest is None else f"up to {text} bb")
                if largest is not None and contiguous != largest:
                    text += "*"
                    label += f", with gaps (at every stack up to {contiguous:.2f} bb)" if contiguous else ", with gaps"
                shade = None if largest is None else charts.bucket(largest, block["first_stack"], top)
                cells.append({"index": index, "name": name, "text": text, "short": short, "label": label, "bucket": shade})
            grids.append({"id": f"{key}-ante-{block['ante']:g}".replace(".", "_"), "key": key, "ante": block["ante"],
                          "title": f"{'Small blind shoves' if key == 'push' else 'Big blind calls'}, "
                                   + (f"ante {block['ante']:g} bb" if block["ante"] else "no ante"),
                          "rows": as_grid(cells), "top": top, "first": block["first_stack"]})
    rows = [
        {"index": index, "name": name, "combos": document["combos"][index],
         "thresholds": [block[f"{key}_max"][index] for block in antes for key in ("push", "call")]}
        for index, name in enumerate(CLASS_NAMES)
    ]
    return {"document": document, "antes": antes, "grids": grids, "rows": rows, "meta": document["meta"]}


def thresholds_page(document: dict | None) -> Page:
    return Page(pushfold_thresholds_path(), "pushfold-thresholds.html", thresholds_context(document), SECTION)
