"""SYNTHETIC data files for rendering tests: right format (docs/data-format.md), made-up numbers.

The values follow a toy "strength" per class, not poker: they only have to be self-consistent
(win + tie + loss = total, win[i][j] = loss[j][i], fractions from the integer counts,
equity = win + Σ tie_k / k). Every ``meta`` says ``method: "synthetic test fixture"``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from generator.data.datafiles import publish
from kernels.cards import ALL_COMBOS, CLASS_COMBO_COUNT, CLASS_NAMES, COMBO_CLASS, RANKS

BOARDS = 1712304
OPPONENT_COMBOS = 1225
SYNTHETIC = "synthetic test fixture"


def _meta(stage: str, **extra) -> dict:
    return {
        "stage": stage,
        "method": SYNTHETIC,
        "version": "0.0.0",
        "code_version": "synthetic",
        "backend": "cpu",
        "wall_time_s": 0.0,
        "generated": "2026-01-02T03:04:05Z",
        **extra,
    }


def strength() -> np.ndarray:
    """A made-up strength in (0, 1) per class: high ranks, pairs and suitedness score higher."""
    values = []
    for name in CLASS_NAMES:
        high, low = RANKS.index(name[0]), RANKS.index(name[1])
        score = (2 * high + low) / 36 + (0.35 if high == low else 0) + (0.05 if name.endswith("s") else 0)
        values.append(score)
    values = np.array(values)
    return (values - values.min()) / (values.max() - values.min()) * 0.9 + 0.05


def compatible_pairs() -> np.ndarray:
    """pairs[i][j]: card-compatible combo pairs of classes i and j (exact, by counting)."""
    a, b = ALL_COMBOS[:, 0], ALL_COMBOS[:, 1]
    clash = (a[:, None] == a[None, :]) | (a[:, None] == b[None, :]) | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :])
    onehot = np.eye(len(CLASS_NAMES), dtype=np.int64)[COMBO_CLASS]
    return onehot.T @ (~clash).astype(np.int64) @ onehot


def matchups() -> dict:
    s = strength()
    pairs = compatible_pairs()
    n = len(CLASS_NAMES)
    win = np.zeros((n, n), dtype=np.int64)
    tie = np.zeros((n, n), dtype=np.int64)
    for i in range(n):
        for j in range(i, n):
            total = int(pairs[i, j]) * BOARDS
            tie_share = 0.02 + 0.03 * math.exp(-abs(s[i] - s[j]) * 8)
            p = 1 / (1 + math.exp(-6 * (s[i] - s[j])))
            tie[i, j] = tie[j, i] = round(tie_share * total)
            win[i, j] = round(p * (total - tie[i, j])) if i != j else (total - tie[i, j]) // 2
            win[j, i] = total - tie[i, j] - win[i, j]
    loss = win.T.copy()
    equity = (win + tie / 2) / (pairs * BOARDS)
    return {
        "meta": _meta("matchups", boards=BOARDS),
        "classes": list(CLASS_NAMES),
        "win": win.tolist(),
        "tie": tie.tolist(),
        "loss": loss.tolist(),
        "pairs": pairs.tolist(),
        "equity": equity.tolist(),
    }


def headsup(matchup_data: dict) -> dict:
    """Each class against a random hand = its matchups summed over opponent classes, per hero combo."""
    combos = CLASS_COMBO_COUNT
    per_combo = {k: (np.array(matchup_data[k]).sum(axis=1) // combos) for k in ("win", "tie")}
    total = np.full(len(CLASS_NAMES), OPPONENT_COMBOS * BOARDS, dtype=np.int64)
    loss = total - per_combo["win"] - per_combo["tie"]
    return {
        "meta": _meta("headsup", boards=BOARDS, opponent_combos=OPPONENT_COMBOS, board_classes=134_459, live_combos_per_board=1081),
        "classes": list(CLASS_NAMES),
        "combos": combos.tolist(),
        "win": per_combo["win"].tolist(),
        "tie": per_combo["tie"].tolist(),
        "loss": loss.tolist(),
        "total": total.tolist(),
        "equity": ((per_combo["win"] + per_combo["tie"] / 2) / total).tolist(),
    }


def threehanded(headsup_data: dict) -> dict:
    """Integer counts of the documented shape (win + tie_2 + tie_3 + loss = total), loosely shaped like
    the real table: the heads-up win rate squared, small split rates."""
    combos = CLASS_COMBO_COUNT.astype(np.int64)
    total = combos * 2_118_760 * 446_985
    p_win = np.array(headsup_data["win"]) / np.array(headsup_data["total"])
    win = (total * p_win**2).astype(np.int64)
    tie2, tie3 = total // 100, total // 400
    return {
        "meta": _meta("threehanded", boards=2_118_760, opponent_pairs=446_985),
        "classes": list(CLASS_NAMES),
        "combos": combos.tolist(),
        "win": win.tolist(),
        "tie_2": tie2.tolist(),
        "tie_3": tie3.tolist(),
        "loss": (total - win - tie2 - tie3).tolist(),
        "total": total.tolist(),
        "equity": ((6 * win + 3 * tie2 + 2 * tie3) / (6 * total)).tolist(),
    }


def fourhanded(headsup_data: dict) -> dict:
    """Integer counts of the documented shape (win + tie_2 + tie_3 + tie_4 + loss = total): the heads-up win rate
    cubed, small split rates (the exact 4-player table)."""
    from generator.compute.stages.fourhanded import fourhanded_json

    total = CLASS_COMBO_COUNT.astype(np.int64) * 2_118_760 * 122_175_900
    p_win = np.array(headsup_data["win"]) / np.array(headsup_data["total"])
    counts = {"win": (total * p_win**3).astype(np.int64), "tie_2": total // 100, "tie_3": total // 400, "tie_4": total // 1600}
    return fourhanded_json(counts, _meta("fourhanded", boards=2_118_760, opponent_triples=122_175_900))


def multiway(players: tuple[int, ...] = tuple(range(2, 11)), deals: int = 400_000) -> dict:
    s = strength()
    by_players = {}
    for n in players:
        tie_k = np.zeros((len(s), 9))
        tie_k[:, 0] = 0.03 / n
        tie_k[:, 1] = 0.004 / n if n > 2 else 0
        weight = np.exp(3.2 * s)
        win = weight / (weight + (n - 1) * np.exp(3.2 * 0.5)) * 0.97
        tie = tie_k.sum(axis=1)
        equity = win + (tie_k / np.arange(2, 11)).sum(axis=1)
        se = np.sqrt(equity * (1 - equity) / deals) / 2
        by_players[str(n)] = {
            "win": win.tolist(),
            "tie": tie.tolist(),
            "tie_k": tie_k.tolist(),
            "loss": (1 - win - tie).tolist(),
            "equity": equity.tolist(),
            "se_win": se.tolist(),
            "se_tie": (se / 10).tolist(),
            "se_equity": se.tolist(),
            "se_equity_plain": (se * 2).tolist(),
            "cv_gain": [4.0] * len(s),
            "gain": np.linspace(2.0, 8.0, len(s)).tolist(),  # median 5
            "samples": [deals] * len(s),
        }
    meta = _meta(
        "multiway", deals=deals * len(players), samples=deals * len(players) * 10, groups=128, seed=1, rng="synthetic",
        control_variates="synthetic",
    )
    return {"meta": meta, "classes": list(CLASS_NAMES), "players": list(players), "by_players": by_players}


def flops(heads_up: dict | None = None) -> dict:
    """``flops.json`` with the real 1,755 flops, textures and live combos, and made-up equities: the class's
    heads-up equity, moved up on flops that hold one of its ranks and down on the others."""
    from kernels.flop.all_flops import live_combos
    from kernels.flop.flops import suit_distinct_flops, texture

    heads_up = heads_up or headsup(matchups())
    flop_cards, weights = suit_distinct_flops()
    live = live_combos()
    textures = [texture(flop) for flop in flop_cards.tolist()]
    equity = []
    for f, flop in enumerate(flop_cards.tolist()):
        ranks = {RANKS[card // 4] for card in flop}
        row = [None if live[f, c] == 0 else round(min(1.0, max(0.0, heads_up["equity"][c] + (0.2 if set(name[:2]) & ranks else -0.05))), 6)
               for c, name in enumerate(CLASS_NAMES)]
        equity.append(row)
    return {
        "meta": _meta("flops", flops=22100, suit_distinct_flops=len(flop_cards), runouts_per_combo=1081, villains_per_board=990),
        "classes": list(CLASS_NAMES),
        "flops": ["".join(RANKS[c // 4] + "cdhs"[c % 4] for c in flop) for flop in flop_cards.tolist()],
        "weights": weights.tolist(),
        **{key: [t[key] for t in textures] for key in ("suits", "pairing", "high", "straights")},
        "live": live.tolist(),
        "equity": equity,
    }


def flop_hits() -> dict:
    """``flop_hits.json`` with made-up counts: each row of made categories sums to 19,600 as in the real file."""
    from kernels.flop.categories import DRAWS, MADE_CATEGORIES

    s = strength()
    made, draws = [], []
    for c in range(len(CLASS_NAMES)):
        row = [int(19600 * s[c] / (2 * len(MADE_CATEGORIES)))] * (len(MADE_CATEGORIES) - 1)
        made.append(row + [19600 - sum(row)])
        draws.append([int(19600 * (1 - s[c]) / 10)] * len(DRAWS))
    return {"meta": _meta("flop_hits", flops_per_combo=19600), "classes": list(CLASS_NAMES), "made": list(MADE_CATEGORIES),
            "draws": list(DRAWS), "flops_per_combo": 19600, "made_counts": made, "draw_counts": draws}


def write_synthetic_data(
    data_dir: Path, files: tuple[str, ...] = ("headsup", "matchups", "threehanded", "fourhanded", "multiway")
) -> Path:
    """Write the chosen synthetic data files into ``data_dir`` (created); returns ``data_dir``."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    match = matchups()
    heads_up = headsup(match)
    content = {"matchups": match, "headsup": heads_up, "threehanded": threehanded(heads_up), "multiway": multiway,
               "fourhanded": lambda: fourhanded(heads_up)}
    extra = {"pushfold": pushfold, "pushfold_charts": pushfold_charts, "pushfold_thresholds": pushfold_thresholds,
             "flops": lambda: flops(heads_up), "flop_hits": flop_hits}
    for name in files:
        document = content[name] if name in content else extra[name]
        publish(data_dir, name, document() if callable(document) else document)
    return data_dir


REPO = Path(__file__).resolve().parent.parent


def site_config(base_url: str = "/", content_dir: Path = REPO / "content", presets: tuple = (), origin: str = "https://atlas.example"):
    """A Config for rendering tests: the repository's articles, the given base_url and origin
    (``""``: none), no YAML file read."""
    from generator.core.config import Config, SiteSettings
    from generator.core.icm_presets import preset_payloads

    site = SiteSettings(title="All-in Atlas", description="Test build.", base_url=base_url, author="Tests", origin=origin)
    presets = presets or ({"name": "50/30/20", "payouts": [50, 30, 20]}, {"name": "MTT", "mtt": {"players": 100, "paid": 15}})
    return Config(site=site, icm_presets=preset_payloads(presets), path=str(content_dir / "site.yaml"))


def build_site(site_dir: Path, base_url: str = "/", data_dir: Path | None = None, **config_options) -> Path:
    """Render a site into ``site_dir`` from ``data_dir`` (copied) or from fresh synthetic data."""
    import shutil

    from generator.site.render import render_site

    target = Path(site_dir) / "data"
    if data_dir is not None:
        shutil.copytree(data_dir, target, dirs_exist_ok=True)
    else:
        write_synthetic_data(target)
    render_site(site_config(base_url, **config_options), Path(site_dir))
    return Path(site_dir)


def pushfold() -> dict:
    """Synthetic ``pushfold.json``: a class is pushed (called) while its strength beats a threshold
    that rises with the stack; the weakest pushed class is mixed (0.5) at every stack, and 72o is
    pushed at 1 bb and 2 bb only (a gap). Not written by default (:func:`write_synthetic_data`)."""
    stacks = [1 + 0.5 * k for k in range(49)]
    s = strength()
    combos = CLASS_COMBO_COUNT
    gap = CLASS_NAMES.index("72o")

    def frequencies(scale: float, pusher: bool) -> np.ndarray:
        table = np.array([(s >= scale * stack / 25).astype(float) for stack in stacks])
        for row in table:
            weakest = min(np.flatnonzero(row), key=lambda i: s[i])
            row[weakest] = 0.5
        table[:, gap] = 0.0
        if pusher:
            table[[0, 2], gap] = 1.0
        return table

    def maxima(table: np.ndarray) -> tuple[list, list]:
        largest, contiguous = [], []
        for column in table.T:
            played = [stack for stack, f in zip(stacks, column) if f >= 0.5]
            run = None
            for stack, f in zip(stacks, column):
                if f < 0.5:
                    break
                run = stack
            largest.append(max(played) if played else None)
            contiguous.append(run)
        return largest, contiguous

    push, call = frequencies(0.6, pusher=True), frequencies(0.9, pusher=False)
    (push_max, push_run), (call_max, call_run) = maxima(push), maxima(call)
    return {
        "meta": _meta("pushfold", ante=0, tolerance=1e-6, played_threshold=0.5, max_nash_conv=9.9e-7, headsup_code_version="synthetic"),
        "classes": list(CLASS_NAMES), "combos": combos.tolist(), "stacks": stacks,
        "push": push.tolist(), "call": call.tolist(),
        "push_share": (push @ combos / combos.sum()).tolist(), "call_share": (call @ combos / combos.sum()).tolist(),
        "sb_value": [0.0] * len(stacks), "nash_conv": [9.9e-7] * len(stacks), "iterations": [50] * len(stacks),
        "push_max": push_max, "push_max_contiguous": push_run, "call_max": call_max, "call_max_contiguous": call_run,
    }


#: The synthetic charts' games: (players, stacks, ante, bb_ante, payouts[, bounty, bounty_share]).
SYNTHETIC_CHART_GROUPS = ((4, [8.0, 12.0], 1.0, True, None), (3, [10.0], 0.0, False, [50.0, 30.0, 20.0]), (4, [12.0], 0.0, False, None),
                          (4, [12.0], 1.0, True, None, 0.5, 0.5))


def pushfold_charts(games=SYNTHETIC_CHART_GROUPS) -> dict:
    """Synthetic ``pushfold_charts.json``, by default a 4-player chip-EV table with a 1 bb BB ante at 8 and 12 bb
    (call, overcall and over-overcall spots), a 3-player ICM 50/30/20 table at 10 bb, a 4-player
    table without ante at 12 bb and the 4-player BB-ante table at 12 bb with PKO bounties of half a stack (``games``:
    other (players, stacks, ante, bb_ante, payouts[, bounty, bounty_share])). A class is
    played while its strength beats a cut that rises with the stack and with the number of players
    already in; the weakest played class is mixed (0.37). Not written by default."""
    from generator.compute.pushfold_records import spot_name
    from kernels.icm.bounty import stack_bounties
    from kernels.pushfold import Table, make_game, position_names

    s = strength()

    def frequencies(cut: float) -> list:
        played = (s >= min(cut, s.max())).astype(float)  # at least the strongest class (deep in a big game)
        played[min(np.flatnonzero(played), key=lambda i: s[i])] = 0.37
        return played.tolist()

    def group(players: int, stacks: list, ante: float, bb_ante: bool, payouts, bounty=None, bounty_share=None) -> dict:
        names = position_names(players)
        pool = None if payouts is None else sum(payouts)
        game = make_game(Table((stacks[0],) * players, ante=ante, bb_ante=bb_ante, payouts=payouts))
        charts = []
        for stack in stacks:
            shove = {names[seat]: frequencies(0.3 + 0.02 * stack + 0.05 * seat) for seat in game.open_sets}
            call = {spot_name(names, ("call", *c)): frequencies(0.5 + 0.01 * stack + 0.1 * len(c[2])) for c in game.call_sets}
            bounties = None if bounty is None else stack_bounties([stack] * players, bounty, pool).tolist()
            charts.append({
                "stack": stack, "bounties": bounties, "shove": shove, "call": call,
                "nash_conv_bb": None if payouts else 0.0042, "nash_conv_pool_pct": 0.021 if payouts else None,
                "class_regret": {"bb": None if payouts else 0.0061, "pool_pct": 0.0047 if payouts else None,
                                 "spot": names[0], "class": "A5s"},
                "iterations": 300, "schedule": "dcfr", "warm_start_bb": stack - 5 if stack > 5 else None,
                "pots": {"2": 0.12, "3": 0.011, "4+": 0.00042}, "ev_se_max": 0.0021 if payouts else 0.0013, "solve_s": 0.5,
                "certified": None if stack != 10 else {  # the build checks the 10 bb chart of every game on real deals
                    "unit": "pool_pct" if payouts else "bb", "value": 0.0, "ci95": 0.0, "deals": 131072, "deviations": 0,
                    "upper95": (12.5 if payouts else 0.3 * players), "seats": {}},
            })

        def largest(frequency_lists: list) -> list:
            return [max((st for st, f in zip(stacks, column) if f >= 0.5), default=None) for column in zip(*frequency_lists)]

        return {
            "players": players, "positions": names, "ante": ante, "bb_ante": bb_ante, "payouts": payouts and list(payouts),
            "bounty": bounty, "bounty_share": bounty_share, "stacks": list(stacks),
            "charts": charts,
            "shove_max": {pos: largest([c["shove"][pos] for c in charts]) for pos in charts[0]["shove"]},
            "call_max": {spot: largest([c["call"][spot] for c in charts]) for spot in charts[0]["call"]},
        }

    groups = [group(*game) for game in games]
    meta = _meta(
        "pushfold_charts", tolerance_bb=0.01, tolerance_pool_pct=0.05, class_tolerance_bb=0.01, class_tolerance_pool_pct=0.01,
        reach_floor=0.01, max_iterations=5000, played_threshold=0.5, max_nash_conv_bb=0.0042,
        max_nash_conv_pool_pct=0.021, threeway={"boards": 4096, "seed": 1, "se_median": 0.0121, "se_p99": 0.0183},
    )
    return {"meta": meta, "classes": list(CLASS_NAMES), "combos": CLASS_COMBO_COUNT.tolist(), "groups": groups}


def pushfold_thresholds() -> dict:
    """Synthetic ``pushfold_thresholds.json``: thresholds that grow with a class's strength (to 0.01 bb),
    the weakest classes never played, one class (72o) with a gap. Not written by default."""
    s = strength()
    gap = CLASS_NAMES.index("72o")

    def block(ante: float, first: float) -> dict:
        def thresholds(scale: float) -> list:
            return [None if v < first else min(25.0, round(v, 2)) for v in (scale * 30 * s**2 + ante)]

        push, call = thresholds(1.0), thresholds(0.6)
        push[gap], push_run = 3.5, list(push)
        push_run[gap] = 1.5
        return {"ante": ante, "first_stack": first, "last_stack": 25.0, "max_nash_conv": 9.9e-6,
                "push_max": push, "push_max_contiguous": push_run, "call_max": call, "call_max_contiguous": list(call)}

    meta = _meta("pushfold_thresholds", step=0.01, tolerance=1e-5, played_threshold=0.5)
    return {"meta": meta, "classes": list(CLASS_NAMES), "combos": CLASS_COMBO_COUNT.tolist(),
            "by_ante": [block(0.0, 1.0), block(0.125, 1.13)]}


def write_pushfold_set(site_dir: Path) -> Path:
    """Synthetic precomputed push/fold set written by the stage's own writer
    (``generator.compute.stages.pushfold_charts.publish_tables``: ``data/pushfold/index.json`` + one solution
    object per table, zero classes omitted): the tables of :func:`pushfold_charts`, plus an
    unequal-stack 3-handed 65/35 example (15/10/5 bb). Returns ``site_dir/data/pushfold``."""
    from generator.compute.stages.pushfold_charts import Group, index_document, publish_tables
    from generator.compute.pushfold_records import table_json
    from kernels.pushfold import position_names

    charts = pushfold_charts()
    unequal = {**charts["groups"][1], "payouts": [65.0, 35.0], "stack_sets": [[15.0, 10.0, 5.0]]}
    groups, results = [], {}
    for entry in [*charts["groups"], unequal]:
        sets = entry.get("stack_sets")
        payouts = None if entry["payouts"] is None else tuple(entry["payouts"])
        group = Group(entry["players"], () if sets else tuple(entry["stacks"]), entry["ante"], entry["bb_ante"], payouts,
                      None if sets is None else tuple(map(tuple, sets)), entry["bounty"], entry["bounty_share"] or 1.0)
        names = position_names(group.players)
        records = []
        for (_, table), chart in zip(group.tables(), entry["charts"]):
            records.append({
                "positions": names,
                **{key: {spot: {c: p for c, p in zip(CLASS_NAMES, values) if p > 0} for spot, values in chart[key].items()}
                   for key in ("shove", "call")},
                "exploitability": {"bb": chart["nash_conv_bb"], "pool_pct": chart["nash_conv_pool_pct"]},
                "class_regret": chart["class_regret"], "iterations": chart["iterations"], "schedule": chart["schedule"], "warm_start_bb": chart["warm_start_bb"], "pots": chart["pots"],
                "ev_se": {name: 0.0021 if payouts else 0.0013 for name in names},
                "table": table_json(table),
            })
        groups.append(group)
        results[group.id] = records
    publish_tables(site_dir, groups, results, index_document(groups, results, 0.0, charts["meta"]["threeway"]))
    return Path(site_dir) / "data" / "pushfold"
