"""Golden values of the all-flop table's file and names: generator/data/datafiles.py ``flops_bin`` / ``read_flops_bin``
and generator/site/flop_pages.py (how a flop is named, its best and worst class) ↔
templates/assets/js/engines/flop-table.js.

A small flops.bin (base64) written by ``flops_bin`` from a flops.json-shaped document: real suit-distinct flops
(every suit and pairing texture, straights and none) with their weights and textures, each class's real number of
live combos, and made-up equities on a grid of 1/50 (ties, 0 and 1 among them; null where no combo is left). Then
what ``read_flops_bin`` reads back, each flop's names and extremes, and which row typed flops (any order, any suit
relabelling) belong to.
"""

from __future__ import annotations

import base64
import contextlib

import numpy as np

from generator.data.datafiles import flops_bin, read_flops_bin
from generator.site.flop_pages import flop_extremes, flop_label, flop_param, flop_text
from kernels.cards import ALL_COMBOS, CardError, COMBO_CLASS, N_CLASSES, format_cards, parse_cards
from kernels.flop.flops import orbit_of, suit_distinct_flops, texture

NAME = "flop-table"
TOLERANCE = 0.0  # one division per equity, correctly rounded in both languages; the rest are integers and strings

#: One flop of each kind: trips, paired two-tone, rainbow, monotone, straight-rich, wheel cards, two-tone high.
FLOPS = ("2c2d2h", "KdKh9d", "Ah7d2c", "QsJs4s", "Tc9d8h", "5c4c3d", "AhKd7c", "8s8h8c", "JcTd2d")
#: Typed flops: other orders and suit relabellings of the golden flops, and flops not among them.
LOOKUPS = ("AsKd7c", "7cKsAh", "2d2s2c", "9hKsKh", "3d4c5c", "4h3s5h", "QhJh4h", "8d9cTh", "AcAdAh", "2c3d4h")
#: Text that is not one flop.
INVALID = ("AsAs7c", "AsKd", "AsKd7c2h", "AsKd7x", "", "1s2s3s")


def _document() -> dict:
    """A flops.json-shaped document over :data:`FLOPS`: real weights, textures and live combos, equities on a grid."""
    representatives, weights = suit_distinct_flops()
    rows = [orbit_of(parse_cards(flop)) for flop in FLOPS]
    flops = [representatives[row].tolist() for row in rows]
    live, equity = [], []
    for k, flop in enumerate(flops):
        left = ~np.isin(ALL_COMBOS, flop).any(axis=1)
        counts = np.bincount(COMBO_CLASS[left], minlength=N_CLASSES)
        live.append(counts.tolist())
        grid = [((7 * k + 13 * c) % 51) / 50 for c in range(N_CLASSES)]  # 0 .. 1 in steps of 1/50: many ties
        equity.append([None if n == 0 else value for n, value in zip(counts, grid)])
    textures = [texture(flop) for flop in flops]
    return {"flops": [format_cards(flop) for flop in flops], "weights": [int(weights[row]) for row in rows],
            **{key: [t[key] for t in textures] for key in ("suits", "pairing", "high", "straights")},
            "classes": [str(c) for c in range(N_CLASSES)], "live": live, "equity": equity}


def build() -> dict:
    document = _document()
    binary = flops_bin(document)
    table = read_flops_bin(binary)
    orbits = [orbit_of(parse_cards(flop)) for flop in document["flops"]]
    cases = []
    for f, flop in enumerate(document["flops"]):
        cards = parse_cards(flop)
        best, worst = flop_extremes(table["equity"][f])
        cases.append({
            "cards": table["cards"][f].tolist(), "weight": int(table["weights"][f]), "suits": int(table["suits"][f]),
            "pairing": int(table["pairing"][f]), "straights": int(table["straights"][f]), "high": document["high"][f],
            "param": flop_param(cards), "text": flop_text(cards), "label": flop_label(cards),
            "best": best, "worst": worst, "spread": float(table["equity"][f][best] - table["equity"][f][worst]),
            "equity": [None if np.isnan(e) else float(e) for e in table["equity"][f]],
        })
    for text in INVALID:
        with contextlib.suppress(CardError):
            parse_cards(text, 3)
            raise AssertionError(f"{text!r} is a flop")
    return {
        "about": "A small flops.bin (flops_bin) and what read_flops_bin reads from it; each flop's names and extremes "
                 "(generator/site/flop_pages.py); the row of typed flops (kernels/flop/flops.py orbit_of).",
        "bin": base64.b64encode(binary).decode("ascii"),
        "count": len(cases), "classes": N_CLASSES,
        "flops": cases,
        "lookups": [[text, orbits.index(orbit_of(parse_cards(text))) if orbit_of(parse_cards(text)) in orbits else None]
                    for text in LOOKUPS],
        "invalid": list(INVALID),
    }
