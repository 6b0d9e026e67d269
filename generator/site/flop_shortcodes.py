"""The ``{{< flop KEY … >}}`` shortcode: live numbers of the flop atlas (``flops.json``, ``flop_hits.json``) in articles.

=====================================================  ==========================================================
``{{< flop share texture=T >}}``                       how often a flop of texture T comes (share of the 22,100)
``{{< flop equity range=R [texture=T] >}}``            a range's equity against a random hand on the flops of
                                                       texture T (all flops without): exact, weighted by how often
                                                       each flop comes with each combo of the range
``{{< flop best CLASS [show=flop|equity] >}}``         a class's best (``worst``) flop against a random hand
``{{< flop hit CLASS category=C >}}``                  how often one combo of the class flops category C: a made
                                                       category or a draw of docs/flop.md, spaces as hyphens
                                                       (``top-pair``, ``flush-draw``), or ``pair-or-better``
=====================================================  ==========================================================

Textures: ``rainbow``, ``two-tone``, ``monotone``, ``unpaired``, ``paired``, ``trips``, ``straight`` (some two
ranks make a straight), ``no-straight``, and ``high=A`` … ``high=2`` as an option of its own. Missing data renders
as "not computed yet"; a malformed shortcode is an :class:`InputError`.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from generator.core.errors import InputError
from generator.site.formatting import NOT_COMPUTED, pct
from kernels.cards import RANKS, CardError, parse_cards, parse_class
from kernels.flop.categories import DRAWS, MADE_CATEGORIES
from kernels.ranges import RangeError, parse_range
from kernels.range_equity import class_weights

USAGE = ("{{< flop share texture=T >}}, {{< flop equity range=R [texture=T] [high=A] >}}, "
         "{{< flop best|worst CLASS [show=flop|equity] >}}, {{< flop hit CLASS category=C >}}")
SUITS = ("rainbow", "two-tone", "monotone")
PAIRING = ("unpaired", "paired", "trips")
#: Every made category but "no made hand" (the last).
PAIR_OR_BETTER = "pair-or-better"
_SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def flop_text(flop: str) -> str:
    """``"AsKd7c"`` → ``"A♠ K♦ 7♣"`` (highest rank first)."""
    cards = sorted(parse_cards(flop), reverse=True)
    return " ".join(RANKS[c // 4] + _SUIT_SYMBOLS["cdhs"[c % 4]] for c in cards)


class FlopValues:
    """The flop figures of one page: ``flops`` is ``flops.json``, ``hits`` ``flop_hits.json`` (None: not built)."""

    def __init__(self, flops: dict | None, hits: dict | None):
        self.flops = flops
        self.hits = hits

    def __call__(self, args: list[str], options: dict) -> str:
        if not args:
            raise InputError(f"usage: {USAGE}")
        key = args[0]
        if key == "share":
            self._arity(args, 1)
            mask = self._texture(options)
            return NOT_COMPUTED if mask is None else pct(self._weights()[mask].sum() / self._weights().sum())
        if key == "equity":
            self._arity(args, 1)
            weights = self._range(options)
            mask = self._texture(options)
            return NOT_COMPUTED if mask is None else pct(self.range_equity(weights, mask))
        if key in ("best", "worst"):
            self._arity(args, 2)
            index = _class(args[1])
            show = options.get("show", "flop")
            if show not in ("flop", "equity"):
                raise InputError(f"show must be flop or equity, got {show!r}")
            if self.flops is None:
                return NOT_COMPUTED
            equity = np.array([np.nan if e is None else e for e in (row[index] for row in self.flops["equity"])])
            at = int(np.nanargmax(equity) if key == "best" else np.nanargmin(equity))
            return flop_text(self.flops["flops"][at]) if show == "flop" else pct(equity[at])
        if key == "hit":
            self._arity(args, 2)
            index = _class(args[1])
            table, columns = _category(options)
            if self.hits is None:
                return NOT_COMPUTED
            return pct(sum(self.hits[table][index][c] for c in columns) / self.hits["flops_per_combo"])
        raise InputError(f"unknown flop value '{key}' ({USAGE})")

    @staticmethod
    def _arity(args: list, expected: int) -> None:
        if len(args) != expected:
            raise InputError(f"wrong number of arguments in {{{{< flop {' '.join(args)} >}}}} ({USAGE})")

    def _weights(self) -> np.ndarray:
        return np.asarray(self.flops["weights"], dtype=np.int64)

    def _texture(self, options: dict) -> np.ndarray | None:
        """Boolean mask over the flops of the ``texture=`` and ``high=`` options (checked before the data, so a typo
        fails on every build); None when flops.json is missing."""
        texture, high = options.get("texture"), options.get("high")
        if texture is not None and texture not in (*SUITS, *PAIRING, "straight", "no-straight"):
            raise InputError(f"texture must be one of {', '.join((*SUITS, *PAIRING, 'straight', 'no-straight'))}, got {texture!r}")
        if high is not None and (len(high) != 1 or high.upper() not in RANKS):
            raise InputError(f"high must be a rank ({RANKS}), got {high!r}")
        if self.flops is None:
            return None
        mask = np.ones(len(self.flops["flops"]), dtype=bool)
        if texture in SUITS:
            mask &= np.array(self.flops["suits"]) == texture
        elif texture in PAIRING:
            mask &= np.array(self.flops["pairing"]) == texture
        elif texture is not None:
            some = np.array(self.flops["straights"]) > 0
            mask &= some if texture == "straight" else ~some
        if high is not None:
            mask &= np.array(self.flops["high"]) == RANKS.index(high.upper())
        return mask

    def _range(self, options: dict) -> np.ndarray:
        """``(169,)`` class weights of the ``range=`` option (a union of whole classes)."""
        if "range" not in options:
            raise InputError("needs range=R (e.g. range=QQ+,AKs)")
        try:
            weights = class_weights(parse_range(options["range"]).weights)
        except RangeError as exc:
            raise InputError(str(exc)) from None
        if weights is None:
            raise InputError(f"range={options['range']}: give whole classes (the flop table is per class)")
        return weights

    def range_equity(self, class_weights_: np.ndarray, mask: np.ndarray) -> float:
        """Equity against a random hand of a range ``(169,)`` class weights over the flops in ``mask``: each flop's
        class equities weighted by the flop's weight × the class's weight × its live combos (exact)."""
        equity, live = self._equity_and_live
        deals = self._weights()[mask][:, None] * live[mask] * class_weights_[None, :]
        return float((deals * equity[mask]).sum() / deals.sum())

    @cached_property
    def _equity_and_live(self) -> tuple[np.ndarray, np.ndarray]:
        """``(1755, 169)`` equities (0 where no combo is live: those weigh nothing) and live combos."""
        equity = np.array([[0.0 if e is None else e for e in row] for row in self.flops["equity"]])
        return equity, np.asarray(self.flops["live"], dtype=np.float64)


def _category(options: dict) -> tuple[str, list[int]]:
    """(``made_counts`` or ``draw_counts``, the columns it sums) of the ``category=`` option."""
    name = options.get("category", "")
    if name == PAIR_OR_BETTER:
        return "made_counts", list(range(len(MADE_CATEGORIES) - 1))
    made = [n.replace(" ", "-") for n in MADE_CATEGORIES]
    draws = [n.replace(" ", "-") for n in DRAWS]
    if name in made:
        return "made_counts", [made.index(name)]
    if name in draws:
        return "draw_counts", [draws.index(name)]
    raise InputError(f"category={name or '?'}: not a category of docs/flop.md ({', '.join((*made, *draws, PAIR_OR_BETTER))})")


def _class(text: str) -> int:
    try:
        return parse_class(text)
    except CardError as exc:
        raise InputError(str(exc)) from None

