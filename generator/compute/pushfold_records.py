"""n-player push/fold on hold'em: the solver's class-level equities from the build's tables, the groups of tables the
build solves (:class:`Group`, as ``data/pushfold/index.json`` lists them), and the JSON records of a table and its
solution (``allin pushfold --json``, the published tables).

:func:`holdem_equities` takes the exact heads-up tables (``headsup`` stage: win / tie / loss counts and
compatible combo pairs) and, for 3+ players, the 3-way table (``threeway`` stage), and returns
:class:`kernels.pushfold.Equities`. Possible triples the Monte Carlo has not sampled yet (none
after the default build's boards; a few after a very short run) are priced as 3-way ties.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import kernels.pushfold as pf
from kernels.cards import CLASS_COMBO_COUNT, CLASS_NAMES, N_CLASSES
from kernels.headsup.tables import BOARDS_PER_MATCHUP
from kernels.threeway.core import ORDERINGS
from kernels.icm.bounty import stack_bounties
from generator.site.structure import pushfold_table_id

#: Decimals kept for the published frequencies (the NashConv reported is that of the rounded strategies).
DECIMALS = 6
#: A class counts as played (shoved / called) at a stack when its frequency is at least this: the charts' cut.
PLAYED = 0.5
#: Row of ORDERINGS where all three hands tie.
THREE_WAY_TIE = int(np.flatnonzero((ORDERINGS == 0).all(axis=1))[0])


def holdem_equities(headsup_tables, threeway_table=None, dtype=np.float32) -> pf.Equities:
    """Class-level equities for the solver: ``threeway_table`` (:class:`generator.compute.threeway_bin.ThreewayTable`)
    is needed for 3+ players (None gives heads-up-only equities); ``dtype`` of the dense 3-way tensor
    (float64 doubles its 250 MB, for checks that compare with other float64 code)."""
    pairs = np.asarray(headsup_tables.pairs, dtype=np.float64)
    total = pairs * BOARDS_PER_MATCHUP
    counts = np.stack([headsup_tables.win, headsup_tables.tie, headsup_tables.loss], axis=2).astype(np.float64)
    duel = counts / total[:, :, None]
    prior = CLASS_COMBO_COUNT / CLASS_COMBO_COUNT.sum()
    if threeway_table is None:
        return pf.Equities(prior, pairs, duel, None)
    orderings = threeway_table.orderings.copy()
    samples = None  # None: the stored table of threeway.bin.gz (generator.compute.threeway_bin.read_threeway_bin) has no counts
    if threeway_table.samples is not None:
        orderings[(threeway_table.compatible > 0) & (threeway_table.samples == 0), THREE_WAY_TIE] = 1.0
        samples = pf.dense_triples(threeway_table.samples, N_CLASSES)
    mass = pf.triple_mass(orderings, threeway_table.compatible.astype(np.float64), N_CLASSES, dtype)
    return pf.Equities(prior, pairs, duel, mass, samples)


def spot_name(names: list[str], key: tuple) -> str:
    """``"BB vs BTN+SB"`` for the call decision ``("call", seat, shover, callers_before)``."""
    _, seat, shover, before = key
    return f"{names[seat]} vs " + "+".join(names[s] for s in (shover, *before))


def _per_class(probabilities: np.ndarray) -> dict:
    return {name: round(float(p), DECIMALS) for name, p in zip(CLASS_NAMES, probabilities)}


def table_json(table: pf.Table) -> dict:
    """The ``table`` of a solution object: stacks, blinds, ante, bb_ante, payouts (null: chip EV), and with
    bounties ``bounties`` and ``bounty_share``."""
    bounties = {} if table.bounties is None else {"bounties": list(table.bounties), "bounty_share": table.bounty_share}
    return {"stacks": list(table.stacks), "blinds": list(table.blinds), "ante": table.ante, "bb_ante": table.bb_ante,
            "payouts": None if table.payouts is None else list(table.payouts), **bounties}


def solution_json(game: pf.Game, solution: pf.Solution) -> dict:
    """``{"positions", "shove", "call", "exploitability", "class_regret", "rule_met", "iterations", "table"}`` as
    documented in docs/pushfold.md."""
    names = pf.position_names(game.n)
    shove = {names[seat]: _per_class(solution.strategy[("open", seat)]) for seat in game.open_sets}
    call = {spot_name(names, ("call", *c)): _per_class(solution.strategy[("call", *c)]) for c in game.call_sets}
    pool = float(game.payouts.sum()) if game.icm else None
    if game.icm:
        exploitability = {"bb": None, "pool_pct": 100 * solution.nash_conv / pool}
    else:
        exploitability = {"bb": solution.nash_conv, "pool_pct": None}
    tolerance, class_tolerance = pf.RULE.tolerances(game.table)
    rule_met = solution.nash_conv <= tolerance and solution.max_class_regret <= class_tolerance
    return {"positions": names, "shove": shove, "call": call, "exploitability": exploitability,
            "class_regret": worst_class_regret(game, solution.class_regret, pool), "rule_met": bool(rule_met),
            "iterations": solution.iterations, "schedule": solution.schedule, "table": table_json(game.table)}


def worst_class_regret(game: pf.Game, class_regret: dict, pool: float | None) -> dict:
    """``{"bb" | "pool_pct": the largest per-class regret, "spot", "class"}`` of a solution (:func:`kernels.pushfold.class_regret`):
    where a player loses most, at the decision, by following the strategy instead of the better action."""
    key = max(class_regret, key=lambda k: class_regret[k].max())
    c = int(class_regret[key].argmax())
    worst = float(class_regret[key][c])
    names = pf.position_names(game.n)
    spot = names[key[1]] if key[0] == "open" else spot_name(names, key)
    return {"bb": None if pool else float(f"{worst:.4g}"), "pool_pct": float(f"{100 * worst / pool:.4g}") if pool else None,
            "spot": spot, "class": CLASS_NAMES[c]}


def record_strategy(game: pf.Game, record: dict) -> dict:
    """The strategy of a solution object (``allin pushfold --json``, a precomputed table's record; missing
    classes are 0) as ``{infoset key: (169,) frequencies}``."""
    names = pf.position_names(game.n)
    index = {name: i for i, name in enumerate(CLASS_NAMES)}

    def dense(frequencies: dict) -> np.ndarray:
        out = np.zeros(len(CLASS_NAMES))
        for name, p in frequencies.items():
            out[index[name]] = p
        return out

    strategy = {("open", s): dense(record["shove"][names[s]]) for s in game.open_sets}
    strategy.update({("call", *c): dense(record["call"][spot_name(names, ("call", *c))]) for c in game.call_sets})
    return strategy


class Group(NamedTuple):
    """Tables of ``players`` seats with ``ante`` (the BB's only when ``bb_ante``) and ``payouts`` (None: chip
    EV): equal stacks over ``stacks`` (bb, ascending), or, when ``stack_sets`` is given, one table per
    stack vector (``stacks`` empty). With ``bounty`` (KO / PKO): every seat's bounty is worth that fraction of
    its stack at chip value (:func:`kernels.icm.bounty.stack_bounties`: bb for chip EV, the pool's share for ICM),
    ``bounty_share`` of it paid in cash at a knockout. ``warm_start``: each equal-stack table starts from the one below
    (False: every table cold, for stacks far apart)."""

    players: int
    stacks: tuple
    ante: float = 0.0
    bb_ante: bool = False
    payouts: tuple | None = None
    stack_sets: tuple | None = None
    bounty: float | None = None
    bounty_share: float = 1.0
    warm_start: bool = True

    @property
    def id(self) -> str:
        return pushfold_table_id(self.players, self.ante, self.bb_ante, self.payouts, self.stack_sets is not None, self.bounty,
                                 self.bounty_share)

    def game(self) -> dict:
        """The game as the index and the charts document describe it: players, ante, bb_ante, payouts, and the
        bounty rule (``bounty``, ``bounty_share``: null without bounties)."""
        bounties = self.bounty is not None
        return {"players": self.players, "ante": self.ante, "bb_ante": self.bb_ante,
                "payouts": None if self.payouts is None else list(self.payouts),
                "bounty": self.bounty, "bounty_share": self.bounty_share if bounties else None}

    def tables(self) -> list[tuple[str, pf.Table]]:
        """``(file name, table)``: stacks ascending, or ``stack_sets`` in order."""
        if self.stack_sets is not None:
            return [(str(k), self._table(stacks)) for k, stacks in enumerate(self.stack_sets)]
        return [(f"{stack:g}", self._table((stack,) * self.players)) for stack in self.stacks]

    def solving_order(self) -> list[tuple[str, pf.Table, str | None]]:
        """``(file name, table, name of the table it is warm-started from or None)`` in solving order:
        equal stacks ascending, each from the one below (the smallest cold); unequal stacks cold."""
        tables = self.tables()
        if self.stack_sets is not None or not self.warm_start:
            return [(name, table, None) for name, table in tables]
        return [(name, table, tables[i - 1][0] if i else None) for i, (name, table) in enumerate(tables)]

    def _table(self, stacks) -> pf.Table:
        stacks = tuple(float(s) for s in stacks)
        bounties = None
        if self.bounty is not None:
            pool = None if self.payouts is None else float(sum(self.payouts))
            bounties = tuple(float(b) for b in stack_bounties(stacks, self.bounty, pool))
        return pf.Table(stacks, ante=self.ante, bb_ante=self.bb_ante, payouts=self.payouts, bounties=bounties,
                        bounty_share=self.bounty_share)


def index_entry(group: Group) -> dict:
    """A group's game and tables as ``data/pushfold/index.json`` lists them (what the solver page looks a table up by):
    id, the game (:meth:`Group.game`), blinds, and the equal ``stacks`` or the ``stack_sets``."""
    return {"id": group.id, **group.game(), "blinds": [0.5, 1.0],
            "stacks": None if group.stack_sets is not None else list(group.stacks),
            "stack_sets": None if group.stack_sets is None else [list(s) for s in group.stack_sets]}
