"""The data the site renders: whatever exists of ``site/data/{headsup,matchups,multiway,pushfold}.json``.

:class:`SiteData` loads the files (a missing file is ``None``; the pages then say the numbers
have not been computed yet) and derives one :class:`PlayerTable` per player count: for 2 players
the exact heads-up values, for 3..10 the Monte Carlo estimates.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError
from generator.core.storage import CorruptFileError, read_json
from kernels.cards import CLASS_NAMES, N_CLASSES
from kernels.constants import MAX_SEATS, Z_975

DATA_FILES = ("headsup", "matchups", "threehanded", "fourhanded", "multiway", "pushfold", "pushfold_charts", "pushfold_thresholds",
              "flops", "flop_hits")
PLAYER_COUNTS = tuple(range(2, MAX_SEATS + 1))


@dataclass(frozen=True)
class PlayerTable:
    """Every class's result at one table size; the keys of :meth:`as_json` match ``multiway.json``."""

    players: int
    exact: bool
    win: list[float]
    tie: list[float]
    tie_k: list[list[float]]
    loss: list[float]
    equity: list[float]
    se_equity: list[float]
    samples: list[int]
    rank: list[int]

    def ci(self, index: int) -> tuple[float, float]:
        """95% confidence interval of a class's equity (a point for exact values)."""
        half = Z_975 * self.se_equity[index]
        return self.equity[index] - half, self.equity[index] + half

    def row(self, index: int) -> dict:
        """One class's figures (fractions, and ``samples``), as the hand pages hand them to their script."""
        return {"exact": self.exact, **{key: getattr(self, key)[index] for key in ("equity", "se_equity", "win", "tie", "samples")}}

    def as_json(self) -> dict:
        return {
            "players": self.players,
            "exact": self.exact,
            "classes": list(CLASS_NAMES),
            **{key: getattr(self, key) for key in ("win", "tie", "tie_k", "loss", "equity", "se_equity", "samples", "rank")},
        }


def ranks_by_equity(equity: list[float]) -> list[int]:
    """Rank 1..169 of each class, best equity first (ties broken by class index)."""
    order = sorted(range(len(equity)), key=lambda i: (-equity[i], i))
    ranks = [0] * len(equity)
    for position, index in enumerate(order, start=1):
        ranks[index] = position
    return ranks


def _headsup_table(headsup: dict) -> PlayerTable:
    totals = headsup["total"]
    win = [w / t for w, t in zip(headsup["win"], totals)]
    tie = [x / t for x, t in zip(headsup["tie"], totals)]
    loss = [x / t for x, t in zip(headsup["loss"], totals)]
    equity = [float(e) for e in headsup["equity"]]
    return PlayerTable(
        players=2,
        exact=True,
        win=win,
        tie=tie,
        tie_k=[[t] + [0.0] * 8 for t in tie],
        loss=loss,
        equity=equity,
        se_equity=[0.0] * N_CLASSES,
        samples=[int(t) for t in totals],
        rank=ranks_by_equity(equity),
    )


def _exact_table(players: int, counts: dict) -> PlayerTable:
    """The table of an exact count file (``threehanded.json``, ``fourhanded.json``): fractions of its ``total``, the
    splits ``tie_2 .. tie_<players>`` as ``tie_k``."""
    totals = counts["total"]
    win, loss = ([x / t for x, t in zip(counts[key], totals)] for key in ("win", "loss"))
    splits = [[x / t for x, t in zip(counts[f"tie_{k}"], totals)] for k in range(2, players + 1)]
    equity = [float(e) for e in counts["equity"]]
    return PlayerTable(
        players=players,
        exact=True,
        win=win,
        tie=[sum(row) for row in zip(*splits)],
        tie_k=[list(row) + [0.0] * (MAX_SEATS - players) for row in zip(*splits)],
        loss=loss,
        equity=equity,
        se_equity=[0.0] * N_CLASSES,
        samples=[int(t) for t in totals],
        rank=ranks_by_equity(equity),
    )


def _multiway_table(players: int, block: dict) -> PlayerTable:
    return PlayerTable(
        players=players,
        exact=False,
        win=list(block["win"]),
        tie=list(block["tie"]),
        tie_k=[list(row) for row in block["tie_k"]],
        loss=list(block["loss"]),
        equity=list(block["equity"]),
        se_equity=list(block["se_equity"]),
        samples=[int(s) for s in block["samples"]],
        rank=ranks_by_equity(block["equity"]),
    )


def _has_error_bars(block: dict) -> bool:
    """True when every estimate has a standard error (a run of too few deals has none yet: not shown)."""
    return all(value is not None for key in ("equity", "se_equity") for value in block[key])


class SiteData:
    """The loaded data files plus the per-player-count tables derived from them."""

    def __init__(self, files: dict[str, dict | None]):
        self.files = files
        self.headsup = files.get("headsup")
        self.matchups = files.get("matchups")
        self.multiway = files.get("multiway")
        self.pushfold = files.get("pushfold")
        self.threehanded = files.get("threehanded")
        self.tables: dict[int, PlayerTable] = {}
        if self.headsup:
            self.tables[2] = _headsup_table(self.headsup)
        self.fourhanded = files.get("fourhanded")
        if self.threehanded:  # exact: used instead of the Monte Carlo estimates at 3 players
            self.tables[3] = _exact_table(3, self.threehanded)
        if self.fourhanded:  # exact, where computed (`allin compute fourhanded`): used instead of the estimates at 4
            self.tables[4] = _exact_table(4, self.fourhanded)
        for key, block in sorted((self.multiway or {}).get("by_players", {}).items(), key=lambda kv: int(kv[0])):
            players = int(key)
            if players not in self.tables and _has_error_bars(block):
                self.tables[players] = _multiway_table(players, block)

    @classmethod
    def load(cls, data_dir: Path) -> "SiteData":
        files = {}
        for name in DATA_FILES:
            path = data_dir / f"{name}.json"
            try:
                files[name] = read_json(path) if path.exists() else None
            except CorruptFileError as exc:
                raise InputError(str(exc)) from None
        return cls(files)

    def generated(self) -> str | None:
        """The newest ``meta.generated`` over the loaded files: the build date shown on pages."""
        stamps = [data["meta"].get("generated", "") for data in self.files.values() if data]
        return max(stamps) if stamps else None

    def deals(self) -> int | None:
        """Monte Carlo deals simulated for the multiway tables."""
        if not self.multiway:
            return None
        meta = self.multiway["meta"]
        if "deals" in meta:
            return int(meta["deals"])
        return sum(max(block["samples"]) for block in self.multiway["by_players"].values())

    def worst_half_width(self) -> float | None:
        """Largest 95% CI half-width of any Monte Carlo equity (the precision reached)."""
        widths = [Z_975 * max(t.se_equity) for t in self.tables.values() if not t.exact]
        return max(widths) if widths else None

    def median_gain(self, field: str, players: int | None = None) -> float | None:
        """Median of a per-class gain field (``cv_gain`` or ``gain``) at one table size or all."""
        if not self.multiway:
            return None
        blocks = self.multiway["by_players"]
        keys = [str(players)] if players is not None else sorted(blocks, key=int)
        gains = sorted(
            g for key in keys if key in blocks for g in blocks[key].get(field, []) if g is not None  # null at n = 2
        )
        return gains[len(gains) // 2] if gains else None

    def interval_check(self) -> tuple[int, int] | None:
        """(intervals checked, intervals that miss): the three-handed Monte Carlo 95% intervals of
        win, tie and equity of every class against the exact three-handed values; None without both."""
        if not (self.multiway and self.threehanded) or not _has_error_bars(self.multiway["by_players"]["3"]):
            return None
        estimate, exact = self.multiway["by_players"]["3"], self.tables[3]
        checked = missed = 0
        for key in ("win", "tie", "equity"):
            for value, se, truth in zip(estimate[key], estimate[f"se_{key}"], getattr(exact, key)):
                if se is not None:
                    checked += 1
                    missed += abs(value - truth) > Z_975 * se
        return checked, missed

    def matchup(self, hero: int, villain: int) -> dict | None:
        """Exact heads-up result of class ``hero`` against class ``villain`` (fractions and counts)."""
        if not self.matchups:
            return None
        m = self.matchups
        total = m["win"][hero][villain] + m["tie"][hero][villain] + m["loss"][hero][villain]
        return {
            "win": m["win"][hero][villain] / total,
            "tie": m["tie"][hero][villain] / total,
            "loss": m["loss"][hero][villain] / total,
            "equity": m["equity"][hero][villain],
            "pairs": m["pairs"][hero][villain],
            "counts": (m["win"][hero][villain], m["tie"][hero][villain], m["loss"][hero][villain]),
        }
