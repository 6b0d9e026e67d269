"""The precomputed flop atlas on the site: the flop table page (``flop/all/``) and each hand page's flop section.

:class:`FlopAtlas` holds ``flops.json`` as arrays; its methods give a class's figures weighted exactly as the
flops come with that class in hand: flop ``f`` weighs ``weights[f] × live[f][c]`` (the flops of the 22,100 it
stands for, times the combos of the class it leaves), so the weighted mean over all flops is the class's preflop
equity against a random hand (docs/flop.md). :func:`hit_rates` reads ``flop_hits.json``. Flops are named for
readers by :func:`flop_text` (``A♥K♦7♣``), :func:`flop_label` (words) and :func:`flop_param` (the URL's
``AhKd7c``), as ``assets/js/engines/flop-table.js`` names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from generator.site.structure import Page, as_grid, flop_table_path
from kernels.cards import CLASS_NAMES, RANKS, SUITS, parse_cards

SUIT_SYMBOLS = "♣♦♥♠"
RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
SUIT_TEXTURES = ("rainbow", "two-tone", "monotone")
PAIRINGS = ("unpaired", "paired", "trips")
#: Flops shown as a class's best and worst.
EXTREMES = 5


def display_order(cards) -> list[int]:
    """Card ids highest first (rank, then suit): the order flops are written in on the site."""
    return sorted((int(card) for card in cards), reverse=True)


def flop_param(cards) -> str:
    """``AhKd7c``: the flop in the flop table page's ``?flop=`` (highest card first)."""
    return "".join(RANKS[card // 4] + SUITS[card % 4] for card in display_order(cards))


def flop_text(cards) -> str:
    """``A♥K♦7♣``: the flop as the site shows it (drawn by ``flop-table.js``'s flopText, checked against this)."""
    return "".join(RANKS[card // 4] + SUIT_SYMBOLS[card % 4] for card in display_order(cards))


def flop_label(cards) -> str:
    """``ace of hearts, king of diamonds, seven of clubs``: the flop in words, for screen readers."""
    return ", ".join(f"{RANK_WORDS[card // 4]} of {SUIT_WORDS[card % 4]}" for card in display_order(cards))


def flop_view(cards) -> dict:
    """What the templates draw a flop from (``partials/flop_cards.html``): its cards as (rank, suit symbol, suit
    index), its words, and the flop table page's address with it selected."""
    return {"cards": [(RANKS[c // 4], SUIT_SYMBOLS[c % 4], c % 4) for c in display_order(cards)], "label": flop_label(cards),
            "path": flop_table_path(flop_param(cards))}


@dataclass(frozen=True)
class TextureGroup:
    """One row of a class's by-texture table: its name, how often its flops come with the class in hand (a share of
    the class's flops) and the class's equity on them (None where no flop of the group can come)."""

    kind: str
    name: str
    share: float
    equity: float | None


class FlopAtlas:
    """``flops.json`` as arrays: ``weights (F,)``, ``live (F, 169)``, ``equity (F, 169)`` (NaN where no combo is left),
    the textures, and each flop's cards ``(F, 3)``."""

    def __init__(self, document: dict):
        self.document = document
        self.names = document["flops"]
        self.cards = np.array([parse_cards(flop) for flop in self.names], dtype=np.int64)
        self.weights = np.array(document["weights"], dtype=np.int64)
        self.live = np.array(document["live"], dtype=np.int64)
        self.equity = np.array([[np.nan if e is None else e for e in row] for row in document["equity"]], dtype=float)
        self.suits = np.array([SUIT_TEXTURES.index(s) for s in document["suits"]])
        self.pairing = np.array([PAIRINGS.index(p) for p in document["pairing"]])
        self.high = np.array(document["high"], dtype=np.int64)
        self.straights = np.array(document["straights"], dtype=np.int64)

    @property
    def count(self) -> int:
        return len(self.names)

    @property
    def total_weight(self) -> int:
        """The flops the suit-distinct flops stand for (22,100)."""
        return int(self.weights.sum())

    @cached_property
    def mass(self) -> np.ndarray:
        """``(F, 169)``: how many (flop, combo) pairs each suit-distinct flop stands for, per class: weight × live."""
        return self.weights[:, None] * self.live

    @cached_property
    def _weighted_equity(self) -> np.ndarray:
        return np.where(self.live > 0, self.equity, 0.0) * self.mass

    def mean_equity(self, index: int, rows: np.ndarray | None = None) -> float | None:
        """Class ``index``'s equity averaged over the flops of ``rows`` (a boolean mask; all flops by default),
        weighted by :attr:`mass`; None where none of them can come."""
        rows = np.ones(self.count, dtype=bool) if rows is None else rows
        mass = self.mass[rows, index].sum()
        return float(self._weighted_equity[rows, index].sum() / mass) if mass else None

    def groups(self) -> list[tuple[str, str, np.ndarray]]:
        """The texture groups as ``(kind, name, rows)``: suits, pairing, straights possible or not, high card."""
        found = [("Suits", name.capitalize(), self.suits == k) for k, name in enumerate(SUIT_TEXTURES)]
        found += [("Pairing", name.capitalize(), self.pairing == k) for k, name in enumerate(PAIRINGS)]
        found += [("Straights", "None possible", self.straights == 0), ("Straights", "Some possible", self.straights > 0)]
        found += [("High card", f"{RANKS[rank]}-high", self.high == rank) for rank in range(12, -1, -1)]
        return found

    def by_texture(self, index: int) -> list[tuple[str, list[TextureGroup]]]:
        """Class ``index`` by texture group, as ``(kind, groups)`` per kind of texture: each group's share of its
        flops and its equity there."""
        total = self.mass[:, index].sum()
        groups = [TextureGroup(kind, name, float(self.mass[rows, index].sum() / total), self.mean_equity(index, rows))
                  for kind, name, rows in self.groups()]
        return [(kind, [g for g in groups if g.kind == kind]) for kind in dict.fromkeys(g.kind for g in groups)]

    def extremes(self, index: int, k: int = EXTREMES) -> tuple[list[int], list[int]]:
        """The ``k`` flops (rows) where class ``index`` does best, best first, and the ``k`` where it does worst,
        worst first; ties go to the lower row. Flops that leave it no combo are left out."""
        rows = np.flatnonzero(self.live[:, index] > 0)
        values = self.equity[rows, index]
        return rows[np.lexsort((rows, -values))][:k].tolist(), rows[np.lexsort((rows, values))][:k].tolist()

    def hand_context(self, index: int, preflop: float | None) -> dict:
        """A hand page's flop section (``partials/hand_flops.html``); ``preflop``: the class's preflop equity against
        a random hand (headsup.json), which the weighted mean over flops equals."""
        best, worst = self.extremes(index)

        def listed(rows: list[int]) -> list[dict]:
            return [{**flop_view(self.cards[f]), "equity": float(self.equity[f, index])} for f in rows]

        return {"flops": self.count, "total_weight": self.total_weight, "mean": self.mean_equity(index), "preflop": preflop,
                "textures": self.by_texture(index), "best": listed(best), "worst": listed(worst)}


def flop_extremes(equity_row) -> tuple[int, int]:
    """The best and the worst class (indices) on one flop from its 169 equities (NaN: no combo left, left out); ties
    go to the lower index."""
    values = np.asarray(equity_row, dtype=float)
    valid = np.flatnonzero(~np.isnan(values))
    return int(valid[np.argmax(values[valid])]), int(valid[np.argmin(values[valid])])


def hit_rates(hits: dict, index: int) -> dict:
    """Class ``index``'s rows of ``flop_hits.json``: ``{"flops": 19600, "made": [(category, share)], "draws": [(draw,
    share)]}``, each share a count over the flops one combo meets."""
    flops = hits["flops_per_combo"]
    return {"flops": flops,
            "made": [(name, count / flops) for name, count in zip(hits["made"], hits["made_counts"][index])],
            "draws": [(name, count / flops) for name, count in zip(hits["draws"], hits["draw_counts"][index])]}


def flop_table_page(atlas: FlopAtlas | None) -> Page:
    """The flop table page: the table and its chart are drawn by ``assets/js/pages/flop-table-page.js`` from
    ``data/flops.bin``; the page carries the facts of the data its sentences state."""
    context = {"available": atlas is not None, "rows": as_grid([{"index": i, "name": name} for i, name in enumerate(CLASS_NAMES)])}
    if atlas is not None:
        spreads = []
        for f in range(atlas.count):
            best, worst = flop_extremes(atlas.equity[f])
            spreads.append((atlas.equity[f, best] - atlas.equity[f, worst], f, best, worst))
        context.update(flops=atlas.count, total_weight=atlas.total_weight, weights=sorted(set(atlas.weights.tolist())),
                       widest=_spread_view(atlas, max(spreads, key=lambda s: (s[0], -s[1]))),
                       narrowest=_spread_view(atlas, min(spreads)))
    return Page(flop_table_path(), "flop-table.html", context, "flop")  # under the Flop menu entry (the flop calculator's section)


def _spread_view(atlas: FlopAtlas, spread: tuple) -> dict:
    value, f, best, worst = spread
    return {**flop_view(atlas.cards[f]), "spread": float(value), "best": CLASS_NAMES[best], "best_equity": float(atlas.equity[f, best]),
            "worst": CLASS_NAMES[worst], "worst_equity": float(atlas.equity[f, worst])}
