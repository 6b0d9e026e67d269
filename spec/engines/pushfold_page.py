"""Golden cases of the push/fold solver page: what its JavaScript (pushfold-view.js, pushfold-setup.js,
python-format.js, the seat names and table_errors of pushfold-solver.js) must say exactly as Python does.

Seat names (kernels.pushfold.position_names), stack file names (``f"{stack:g}"``, the precomputed set's
layout), cell texts, colour buckets and shares of the 13×13 charts (generator/site/pushfold_pages.py,
generator/site/charts.py), the solver page's URL (generator.site.structure.pushfold_solver_path), the call spots of a
game (generator.compute.pushfold_records.spot_name), the messages of table_errors (bad bounties among them) with
the field each is about, and the certified exploitability's sentence. No build is read.
"""

from __future__ import annotations

import numpy as np

from generator.site import charts, pushfold_pages
from generator.compute.pushfold_records import Group, index_entry
from generator.compute.pushfold_records import spot_name
from generator.site.structure import pushfold_solver_path
from kernels import constants as C
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES
from kernels.pushfold import Table, make_game, position_names, table_errors

NAME = "pushfold-page"
TOLERANCE = 1e-12  # the shares of hands (sums of products); everything else is text or exact

NUMBERS = [1, 1.5, 2, 10, 12.5, 25, 0.25, 7.125, 1 / 3, 2 / 3, 100, 123456, 1234567, 0.0001, 0.00001234, 1e21, 99999.95, 999999.5]
FREQUENCIES = [0, 1e-9, 0.004, 0.005, 0.0051, 0.37, 0.5, 0.949, 0.99, 0.994, 0.995, 0.9999, 1]
#: (table, the field each message is about, in the order table_errors gives them)
#: Floats, as the CLI and the browser pass them (messages print Python floats: "blinds 2.0/1.0").
BAD_TABLES = [
    (Table((10,) * 11), ["players"]),
    (Table((10,)), ["players"]),
    (Table((10.0, 0.3, 10.0), (2.0, 1.0), -1.0, False, (5.0, 4.0, 3.0, 2.0)), ["blinds", "ante", "stack-1", "payouts"]),
    (Table((10.0, 10.0, 1.0), (0.5, 1.0), 0.5, True, (0.0, 0.0)), ["stack-2", "payouts"]),
    (Table((0.5, 4.0, 4.0, 4.0), (0.5, 1.0), 0.5, False, None), ["stack-0"]),
    (Table((10.0, 10.0, 10.0), bounties=(1.0, -1.0, 0.0)), ["bounties"]),
    (Table((10.0, 0.3, 10.0), payouts=(50.0, 30.0, 20.0), bounties=(1.0, 1.0), bounty_share=0.5), ["stack-1", "bounties"]),
]

#: ``certified_exploitability`` objects (docs/data-format.md): none, one and several deviations, chip EV and ICM.
CERTIFICATES = [
    {"unit": "bb", "value": 0.0, "ci95": 0.0, "deals": 131072, "deviations": 0, "upper95": 0.767, "seats": {}},
    {"unit": "bb", "value": 0.0123, "ci95": 0.00456, "deals": 262144, "deviations": 1, "upper95": 3.28, "seats": {}},
    {"unit": "pool_pct", "value": 0.00021, "ci95": 0.0003, "deals": 131072, "deviations": 12, "upper95": 0.0912, "seats": {}},
    {"unit": "pool_pct", "value": 1.5, "ci95": 0.25, "deals": 1024, "deviations": 3, "upper95": 12.0, "seats": {}},
    {"unit": "bb", "value": 0.0, "ci95": 0.0, "deals": 4194304, "deviations": 0, "upper95": 0.0081, "seats": {}},
]
#: The solver's NashConv rule, which a certificate's upper bound must meet to be called one.
RULE_TOLERANCE = {"bb": C.PUSHFOLD_NASH_CONV_BB, "pool_pct": C.PUSHFOLD_NASH_CONV_POOL_PCT}


#: Games of a precomputed set for the solver page's look-up (pushfold-setup.js): chip EV with a BB ante with and without
#: PKO bounties (two sizes), a KO, ICM with and without PKO bounties, an unequal-stack PKO example.
LOOKUP_GROUPS = (
    Group(4, (10.0, 12.0), 1.0, True),
    Group(4, (10.0, 12.0), 1.0, True, bounty=0.5, bounty_share=0.5),
    Group(4, (10.0, 12.0), 1.0, True, bounty=1.0, bounty_share=0.5),
    Group(4, (12.0,), 1.0, True, bounty=0.5, bounty_share=1.0),
    Group(3, (10.0, 15.0), payouts=(50.0, 30.0, 20.0)),
    Group(3, (10.0, 15.0), payouts=(50.0, 30.0, 20.0), bounty=0.5, bounty_share=0.5),
    Group(3, (), payouts=(65.0, 35.0), stack_sets=((15.0, 10.0, 5.0),), bounty=1.0, bounty_share=0.5),
)


def _js_table(table: Table, scale: float = 1.0, money: float = 1.0) -> dict:
    """The page's table ({stacks, blinds, ante, bbAnte, payouts, bounties, bountyShare}) of ``table`` with the chips
    multiplied by ``scale`` (blinds 1/2 for 0.5/1) and the money (payouts, ICM bounties) by ``money``."""
    bounty_scale = scale if table.payouts is None else money
    return {"stacks": [scale * s for s in table.stacks], "blinds": [scale * b for b in table.blinds], "ante": scale * table.ante,
            "bbAnte": table.bb_ante, "payouts": None if table.payouts is None else [money * p for p in table.payouts],
            **({} if table.bounties is None else {"bounties": [bounty_scale * b for b in table.bounties], "bountyShare": table.bounty_share})}


def lookups() -> list[dict]:
    """Every table of :data:`LOOKUP_GROUPS`, as typed in its own units and scaled (chips ×2, money ×10), with the file
    it is (``pushfold/<id>/<name>.json``), and tables of none: another cash share, other bounties, bounties on a game
    the set has without them."""
    cases = []
    for group in LOOKUP_GROUPS:
        for name, table in group.tables():
            path = f"pushfold/{group.id}/{name}.json"
            cases += [{"table": _js_table(table), "path": path}, {"table": _js_table(table, 2.0, 10.0), "path": path}]
    chip, pko = LOOKUP_GROUPS[0].tables()[0][1], LOOKUP_GROUPS[1].tables()[0][1]
    cases += [
        {"table": _js_table(pko._replace(bounty_share=1.0)), "path": None},
        {"table": _js_table(pko._replace(bounties=tuple(1.1 * b for b in pko.bounties))), "path": None},
        {"table": _js_table(chip._replace(bounties=(0.0,) * 4)), "path": f"pushfold/{LOOKUP_GROUPS[0].id}/10.json"},
        {"table": _js_table(LOOKUP_GROUPS[4].tables()[0][1]._replace(bounties=(5.0, 5.0, 5.0), bounty_share=0.5)), "path": None},
    ]
    return cases


def build() -> dict:
    rng = np.random.default_rng(11)
    solutions = []
    for players in (3, 4, 6):
        game = make_game(Table((10,) * players))
        names = position_names(players)
        frequencies = rng.random(len(CLASS_NAMES)) * (rng.random(len(CLASS_NAMES)) < 0.4)
        solutions.append({
            "positions": names,
            "call_spots": [spot_name(names, ("call", *c)) for c in game.call_sets],
            "frequencies": frequencies.tolist(),
            "share": pushfold_pages._share(frequencies.tolist(), CLASS_COMBO_COUNT.tolist()),
        })
    presets = [pushfold_solver_path(**table).split("?", 1)[1] for _, table in pushfold_pages.SOLVER_PRESETS]
    fixture = {
        "about": "what the solver page says, from kernels.pushfold, generator/site/pushfold_pages.py, generator/site/charts.py, "
        "generator/site/structure.py and Python's format()",
        "positions": {n: position_names(n) for n in range(2, 11)},
        "format_g": [[x, f"{x:g}"] for x in NUMBERS],
        "cells": [[f, pushfold_pages.frequency_text(f), charts.bucket(f, 0.0, 1.0) if f > 0 else None] for f in FREQUENCIES],
        "solutions": solutions,
        "queries": presets + [pushfold_solver_path([22, 14.5, 9, 30, 7], (1, 2), 2, True, (50, 30, 20)).split("?", 1)[1],
                              pushfold_solver_path([10] * 3, (0.5, 1), 0, False, (50, 30, 20), [100 / 6] * 3, 0.5).split("?", 1)[1],
                              pushfold_solver_path([12] * 4, (0.5, 1), 1, True, None, [6] * 4, 0.5).split("?", 1)[1]],
        "bad_tables": [{"table": {"stacks": list(t.stacks), "blinds": list(t.blinds), "ante": t.ante, "bbAnte": t.bb_ante,
                                  "payouts": None if t.payouts is None else list(t.payouts),
                                  "bounties": None if t.bounties is None else list(t.bounties), "bountyShare": t.bounty_share},
                        "messages": table_errors(t), "fields": fields} for t, fields in BAD_TABLES],
        "certificates": [[c, players, pushfold_pages.certificate_text(c, RULE_TOLERANCE, players)]
                         for c in CERTIFICATES for players in (2, 6)],
        "lookup_index": {"groups": [index_entry(g) for g in LOOKUP_GROUPS]},
        "lookups": lookups(),
    }
    for case in fixture["bad_tables"]:
        assert len(case["messages"]) == len(case["fields"]), case
    return fixture
